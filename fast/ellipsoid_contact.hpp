// Fast ellipsoid contact in double (issue 12): the state from a Sturm-sequence count of the
// positive roots of f(λ) = det(λA + B) on double coefficients (Wang, Wang & Kim 2001; f's
// monic form E in A's unit-sphere frame, cases/ellipsoid_contact.hpp), cross-checked against
// the Perram–Wertheim contact function F; F, point and normal from PW in A's frame, where
// with μ = t/(1 − t) the minimiser is y = −(μI + K)⁻¹k and h = 1 − E(μ)/((1 + μ) det(μI + K)):
// the maximiser by Newton on that scalar function (E's coefficients, no solve per step), then
// polished by Newton on h' = |y|² − qB(y) with a 3×3 LDLᵀ solve; the positive roots by
// Laguerre's iteration from PW's μ (E is real-rooted: monotone, cubic); the centre-line overlap.
//
// Deviations from the reference: near touching the double Sturm chain's signs may be wrong,
// and F − 1's sign too. The state is certified (a-priori-free, by running error bounds):
// (1) the Sturm chain evaluated on Bounded numbers (the same double operations, each with a
// bound on its distance from the exact value, starting from the exact inputs): when every
// degree and sign read is sure, the double count is the exact count; (2) F bracketed at the
// kernel's (t, y): F ≤ max(qA(y), qB(y)) (F = min_y max(qA, qB)) and F ≥ h(t) ≥ Q(y) −
// |∇Q(y)|²/(4 λ_min), evaluated in Bounded: F_lo > 1 separated, F_hi < 1 overlapping. The
// kernel takes the count when it agrees with the sign of F − 1 (both wrong at once is
// impossible where a certificate holds), and otherwise runs the certificates. Where neither
// holds, the exact F lies in [F_lo, F_hi], so the exact relative gap |√F − 1| is at most
// max(|√F_lo − 1|, |√F_hi − 1|): that is the stated state bound (0 where certified). An
// exactly touching pair is never certified (its margin is 0): reported touching when the
// double chain happens to end exactly, else separated or overlapping (excused).
// ellipsoid_contact_state (the state alone, benchmarked beside FCL's collide): two cheap
// certificates along the centre line, then Perram–Wertheim's point certified in world
// coordinates; the exact state where one holds, else undecided (the caller asks an exact
// path: harness::ellipsoid_contact_certified_state asks the reference).
//
// Bounds (ellipsoid_contact_bounds). state: as above, computed alongside (re-running the
// kernel: the same doubles). Roots: E's exact coefficients lie within e_error_i of the
// double ones (Bounded, plus γ_8|e_i| for the roots' own Horner evaluation), so E is
// perturbed by at most δ(μ) = Σ e_error_i μ^i at μ, which moves a root by at most
// min(δ/|E'(μ)|, √(2δ/|E''(μ)|)) (plus 8u for the solver's last step). F, point, normal and
// overlap: calibrated, not derived: with u = 2^-53 and κ = axis_spread(q)² (largest over
// smallest of the six semi-axes, squared), F: relative, 2^10·u·κ; point: 2^10·u·(κ + |c|max/L);
// normal: radians, 2^10·u·κ; overlap: 2^10·u·(κ + |c|max/L) (measured errors orders below).
//
// Domain (ellipsoid_contact_in_domain = cases::ellipsoid_in_fast_domain): axis ratios at
// most 1024, semi-axes within 2^20 of each other, magnitudes in [2^-200, 2^200], centres
// within 2^30 sizes: no overflow or underflow in E's coefficients (at most κ⁴·(2^30)² ≪
// 2^1000) and κ ≤ 2^40.
#pragma once
#include "cases/ellipsoid_contact.hpp"

#include <array>

namespace contactbench::fast {

cases::EllipsoidContactResult ellipsoid_contact(const cases::EllipsoidContactQuery& q);
bool ellipsoid_contact_in_domain(const cases::EllipsoidContactQuery& q);

// The state alone, certified: 0 separated, 1 touching, 2 overlapping (the index in
// cases::ellipsoid_state_names), the exact state, or −1: undecided (within rounding of a
// state change: near touching, exactly touching). Stage 1, along the centre line d: a point
// of it strictly inside both (1/√(dᵀP_A d) + 1/√(dᵀP_B d) > 1) overlapping; the plane
// normal to d separating them (√(dᵀP_A⁻¹d) + √(dᵀP_B⁻¹d) < |d|²) separated. Stage 2,
// Perram–Wertheim's maximiser by Newton in double, judged in world coordinates: its point
// inside both, overlapping; h(t) > 1 (a lower bound from the point's value and gradient),
// separated. Both stages in double with a-priori bounds, derived in
// fast/ellipsoid_contact.cpp (centre_line_state, pw_certificate); no roots, point, normal
// or overlap. `stage` (optional) says which stage answered (or 2: undecided); `t`
// (optional) receives stage 2's weight t (the exact stages' start), untouched otherwise.
int ellipsoid_contact_state(const cases::EllipsoidContactQuery& q, int* stage = nullptr, double* t = nullptr);

struct EllipsoidContactBounds {
  double state = 0;    // relative gap |√F − 1| within which the state may differ (0: certified)
  double F = 0;        // relative error of F
  double point = 0;    // |Δpoint| / L, L = the largest semi-axis
  double normal = 0;   // radians
  double overlap = 0;  // |Δoverlap| / L
  std::array<double, 5> e{};        // E's double coefficients (for root bounds)
  std::array<double, 5> e_error{};  // δ_i: E's perturbation at μ is at most Σ δ_i μ^i
  // The relative bound of a positive root near μ.
  double root(double mu) const;
};
EllipsoidContactBounds ellipsoid_contact_bounds(const cases::EllipsoidContactQuery& q);

// Planted slips (the registry's faults; never on by default).
struct EllipsoidSlips {
  bool descartes = false;      // Descartes' rule of signs, not Sturm; trusted (no F check)
  bool minus_pencil = false;   // det(λA − B)'s convention with det(λA + B)'s reading: E(−λ); trusted
  bool unsafe_newton = false;  // PW Newton from t = 1/2 (μ = 1) without the bracket, 6 steps, no polish
  bool normal_from_b = false;  // the normal of B at the point (pointing from B to A)
  bool chord_squared = false;  // overlap's reach 1/(r̂ᵀPr̂), the square root forgotten
};
cases::EllipsoidContactResult ellipsoid_contact(const cases::EllipsoidContactQuery& q,
                                                const EllipsoidSlips& slips);

// The paper's shortcut (published method, measured not gated), written from the
// description "contact from the discriminants of the characteristic polynomial and the
// signs of its coefficients": Δ(f) the quartic's discriminant in double; Δ < 0 (two real
// roots, both negative) overlapping; Δ = 0 (within 1e-10 of its terms' magnitude: a
// multiple root) touching; Δ > 0 (four real roots) separated when the coefficients show
// two sign changes (Descartes, exact for real-rooted polynomials), else overlapping. State
// only. Identical equally oriented shapes always have the double root −1 (λA + B has rank
// 2 there), so Δ = 0 for every such pair: all reported touching.
cases::EllipsoidContactResult ellipsoid_contact_shortcut(const cases::EllipsoidContactQuery& q);

}  // namespace contactbench::fast
