// Fast ellipsoid contact in double (issue 12): the state from a Sturm-sequence count of the
// positive roots of f(λ) = det(λA + B) on double coefficients (Wang, Wang & Kim 2001; f's
// monic form E in A's unit-sphere frame, cases/ellipsoid_contact.hpp), the positive roots by
// bisection and Newton on E, and the Perram–Wertheim contact function F, point and normal by
// a safeguarded Newton iteration in world coordinates (on the weight t of A, bracketed by
// the sign of h'(t)), plus the centre-line overlap.
//
// Deviations from the reference: the Sturm chain is computed in double, so near a double
// root (near touching) its signs may be wrong: the state is stated correct only outside a
// relative gap of `state` (ellipsoid_contact_bounds); an exactly touching pair is reported
// touching only when the double chain happens to end exactly (e.g. spheres on a grid), else
// separated or overlapping (excused: margin 0). The count is cross-checked against
// Perram–Wertheim: a count outside {0, 1, 2}, or one whose state contradicts the sign of
// √F − 1 while |√F − 1| exceeds the stated gap, is overruled by F (measured: the double
// chain alone flipped very flat pairs, axis ratio ~1000, at gaps up to 7× the stated one,
// and once called a far pair touching; F's own error stayed below 1e-10).
// ellipsoid_contact_state (the benchmarked state alone) is the count without the check. Roots, F, point, normal and overlap carry rounding errors
// within the stated bounds.
//
// Bounds (ellipsoid_contact_bounds). With u = 2^-53, κ = axis_spread(q)² (largest over
// smallest of the six semi-axes, squared: the largest entry of the pencil's K in A's frame
// against the smallest of P's eigenvalues), the pencil and E's coefficients carry relative
// errors of a few tens of u·κ in the sense of their magnitude sums Σ|e_i|μ^i; a Sturm sign
// at 0 or ∞ flips only when the gap between the two positive roots is below the square
// root of that, i.e. when the relative gap √F − 1 (linear in E's minimum) is within
// c·u·κ — an order-of-magnitude argument, not a proof: very flat pairs flipped beyond it,
// which the cross-check with F (below) covers. Constants and measured worst cases in
// fast/ellipsoid_contact.cpp. F: relative, c·u·κ; point: c·u·(κ·L + |c|max)/L; normal: radians,
// c·u·κ/√F-like near coincident centres (t is scale-free in |r|, so only κ); overlap:
// c·u·(κ L + |c|max)/L; a root μ: E's computed coefficients are within γ_N·m_i of the exact
// ones (m_i the sum of absolute terms, cases::Magnitude; N ≈ 40 operations deep, so 2^7 u
// covers γ_N with room), so δ = 2^7 u Σ m_i μ^i bounds E's perturbation at μ, which moves
// the root by at most min(δ/|E'(μ)|, √(2δ/|E''(μ)|)) (plus 8u for the solver's last step).
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

// The state alone (E's double coefficients and the Sturm count): 0 separated, 1 touching,
// 2 overlapping (the index in cases::ellipsoid_state_names). What FCL's collide answers.
int ellipsoid_contact_state(const cases::EllipsoidContactQuery& q);

struct EllipsoidContactBounds {
  double state = 0;    // relative gap |√F − 1| within which the state may differ
  double F = 0;        // relative error of F
  double point = 0;    // |Δpoint| / L, L = the largest semi-axis
  double normal = 0;   // radians
  double overlap = 0;  // |Δoverlap| / L
  double root_factor = 0;  // δ = root_factor · Σ m_i μ^i: E's perturbation at μ
  std::array<double, 5> e{};            // E's double coefficients (for root bounds)
  std::array<double, 5> e_magnitude{};  // m_i: their sums of absolute terms (cases::Magnitude)
  // The relative bound of a positive root near μ.
  double root(double mu) const;
};
EllipsoidContactBounds ellipsoid_contact_bounds(const cases::EllipsoidContactQuery& q);

// Planted slips (the registry's faults; never on by default).
struct EllipsoidSlips {
  bool descartes = false;      // Descartes' rule of signs, not Sturm; trusted (no F check)
  bool minus_pencil = false;   // det(λA − B)'s convention with det(λA + B)'s reading: E(−λ); trusted
  bool unsafe_newton = false;  // PW Newton from t = 1/2 without the bracket, 6 steps
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
