#include "fast/ellipsoid_contact.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace contactbench::fast {

namespace {

using cases::Vec3;
using Poly = std::array<double, 5>;  // c[i] multiplies λ^i
constexpr double u = 0x1p-53;

// F, point, normal and overlap bounds: c_field·u·κ (see the header), checked on 10^6
// generated queries (seed 1).
constexpr double c_field = 0x1p10;

// ---- running error bounds ---------------------------------------------------------------
// A double v and a bound e ≥ |v − x|, x the exact value of the same expression on the exact
// inputs. v is computed by the very operations plain double evaluation performs, so a
// template instantiated on double and on Bounded gives the kernel's doubles and, beside
// them, their error bounds (no FMA contraction: the build targets baseline x86-64).
struct Bounded {
  double v = 0, e = 0;
  Bounded() = default;
  Bounded(double x) : v(x) {}  // NOLINT: an exact input
  Bounded(int x) : v(x) {}     // NOLINT: an exact input
  Bounded(double value, double error) : v(value), e(error) {}
};
// Rounding to nearest: |fl(x) − x| ≤ u|x| ≤ u|fl(x)|/(1 − u). The factor covers 1/(1 − u) and
// the (at most six) roundings of e's own terms; the absolute term covers underflow (not
// reached in the fast domain).
double up(double x) { return x * (1 + 0x1p-50) + 0x1p-1060; }
Bounded operator+(Bounded a, Bounded b) {
  const double v = a.v + b.v;
  return {v, up(a.e + b.e + u * std::abs(v))};
}
Bounded operator-(Bounded a, Bounded b) {
  const double v = a.v - b.v;
  return {v, up(a.e + b.e + u * std::abs(v))};
}
Bounded operator-(Bounded a) { return {-a.v, a.e}; }
Bounded operator*(Bounded a, Bounded b) {
  const double v = a.v * b.v;
  return {v, up(std::abs(a.v) * b.e + std::abs(b.v) * a.e + a.e * b.e + u * std::abs(v))};
}
// |a/b − a.v/b.v| ≤ (|b.v| a.e + |a.v| b.e) / (|b| |b.v|), |b| ≥ |b.v| − b.e > 0.
Bounded operator/(Bounded a, Bounded b) {
  const double v = a.v / b.v, bv = std::abs(b.v), room = bv - b.e;
  if (!(room > 0)) return {v, INFINITY};
  return {v, up((bv * a.e + std::abs(a.v) * b.e) / (room * bv) * (1 + 0x1p-50) + u * std::abs(v))};
}

double value(double x) { return x; }
double value(const Bounded& x) { return x.v; }
// The exact value's sign equals the double's (or both are zero).
bool sure_sign(double) { return true; }
bool sure_sign(const Bounded& x) { return std::abs(x.v) > x.e || (x.v == 0 && x.e == 0); }
bool sure_zero(double x) { return x == 0; }
bool sure_zero(const Bounded& x) { return x.v == 0 && x.e == 0; }

template <class T>
using P = std::array<T, 5>;

template <class T>
int degree(const P<T>& p) {
  for (int i = 4; i >= 0; --i)
    if (value(p[i]) != 0) return i;
  return -1;
}

// The exact polynomial has the double's degree: every coefficient above it exactly zero, the
// leading one surely non-zero.
bool sure_degree(const P<Bounded>& p, int d) {
  for (int i = 4; i > d; --i)
    if (!sure_zero(p[i])) return false;
  return d < 0 || (sure_sign(p[d]) && p[d].v != 0);
}

template <class T>
P<T> derivative(const P<T>& p) {
  return {p[1], 2 * p[2], 3 * p[3], 4 * p[4], T(0)};
}

// Sturm's count of the distinct positive roots of e: V(0) − V(+∞) on the chain e, e',
// −rem(...). On Bounded, `sure` stays true only when every degree and every sign read is the
// exact chain's: the double count is then the exact count of the exact polynomial.
template <class T>
int sturm_positive(const P<T>& e, bool& sure) {
  auto deg = [&](const P<T>& p) {
    const int d = degree(p);
    if constexpr (std::is_same_v<T, Bounded>) sure = sure && sure_degree(p, d);
    return d;
  };
  P<T> chain[5];
  int n = 0;
  chain[n++] = e;
  chain[n++] = derivative(e);
  while (n < 5 && deg(chain[n - 1]) > 0) {
    // −rem(chain[n − 2], chain[n − 1]); the eliminated leading term is zero exactly.
    P<T> a = chain[n - 2];
    const P<T>& b = chain[n - 1];
    const int db = deg(b);
    const T inv = T(1) / b[db];  // one division per member
    for (int da = deg(a); da >= db && da >= 0; da = deg(a)) {
      const T f = a[da] * inv;
      for (int i = 0; i < db; ++i) a[da - db + i] = a[da - db + i] - f * b[i];
      a[da] = T(0);
    }
    for (T& c : a) c = -c;
    if (deg(a) < 0) break;  // zero: the last member is the gcd
    chain[n++] = a;
  }
  auto variations = [&](bool at_infinity) {
    int v = 0, last = 0;
    for (int i = 0; i < n; ++i) {
      const int d = degree(chain[i]);
      if (d < 0) continue;
      const T& c = at_infinity ? chain[i][d] : chain[i][0];
      if constexpr (std::is_same_v<T, Bounded>) sure = sure && sure_sign(c);
      const int s = (value(c) > 0) - (value(c) < 0);
      if (s == 0) continue;
      if (last != 0 && s != last) ++v;
      last = s;
    }
    return v;
  };
  return variations(false) - variations(true);
}

int sturm_positive(const Poly& e) {
  bool ignored = true;
  return sturm_positive<double>(e, ignored);
}

// Descartes' count of sign changes (a planted slip: an upper bound, not the count).
int descartes(const Poly& e) {
  int v = 0, last = 0;
  for (double c : e) {
    const int s = (c > 0) - (c < 0);
    if (s == 0) continue;
    if (last != 0 && s != last) ++v;
    last = s;
  }
  return v;
}

double eval(const Poly& p, double x) { return (((p[4] * x + p[3]) * x + p[2]) * x + p[1]) * x + p[0]; }

// p, p', p'' at x.
struct Taylor {
  double v, d1, d2;
};
Taylor taylor(const Poly& p, double x) {
  double v = p[4], d1 = 0, d2 = 0;
  for (int k = 3; k >= 0; --k) d2 = d2 * x + d1, d1 = d1 * x + v, v = v * x + p[k];
  return {v, d1, 2 * d2};
}

// ---- Perram–Wertheim in A's unit-sphere frame -------------------------------------------
// With the pencil (K, k, κ) of cases/ellipsoid_contact.hpp, A is the unit ball at 0 and B is
// qB(y) = yᵀKy + 2kᵀy + κ + 1 < 1. F = max over t of h(t) = min_y t|y|² + (1 − t) qB(y); with
// μ = t/(1 − t) the minimiser is y = −(μI + K)⁻¹k and, by the Schur complement of E(μ) =
// det(μI + C), h = φ(μ) = 1 − E(μ)/D(μ), D(μ) = (1 + μ) det(μI + K) > 0. So the maximiser is
// the minimiser of E/D on (0, ∞): the root of N = E'D − ED', found by Newton on E's and D's
// double coefficients (no 3×3 solve per step), then y by one solve.

// t's weight and the two quadratic forms at y: F's value t·qa + (1 − t)·qb (= h(t) at
// the minimiser), the same operations in double (the kernel) and Bounded (its certificate).
template <class T>
struct PwForms {
  T qa, qb, F;
};
template <class T>
PwForms<T> pw_forms(const cases::Pencil<T>& p, const std::array<T, 3>& y, const T& t) {
  PwForms<T> r;
  r.qa = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
  T qb = p.kappa + 1;
  for (int i = 0; i < 3; ++i) {
    T row = p.K[i][0] * y[0] + p.K[i][1] * y[1] + p.K[i][2] * y[2];
    qb = qb + y[i] * (row + 2 * p.k[i]);
  }
  r.qb = qb;
  r.F = t * r.qa + (1 - t) * qb;
  return r;
}

using Rot = std::array<std::array<double, 3>, 3>;
// R = Q(q)/|q|² with one division (the kernel's own; the pencil's is the family's generic form).
Rot unit_rotation(const Eigen::Vector4d& q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double ww = w * w, xx = x * x, yy = y * y, zz = z * z, s = 2 / (ww + xx + yy + zz);
  const double h = s / 2;
  return {{{(ww + xx - yy - zz) * h, (x * y - w * z) * s, (x * z + w * y) * s},
           {(x * y + w * z) * s, (ww - xx + yy - zz) * h, (y * z - w * x) * s},
           {(x * z - w * y) * s, (y * z + w * x) * s, (ww - xx - yy + zz) * h}}};
}

// Everything the kernel computes, kept for its bounds (which re-run it: same doubles).
struct Solution {
  cases::Pencil<double> p;
  Poly e{};
  bool coincident = false;
  int count = -1;       // Sturm's count on e (or the slip's count)
  double mu = 1, t = 0.5;
  std::array<double, 3> y{};  // PW's point in A's unit-sphere frame
  PwForms<double> forms{};
  Rot ra{}, rb{};
  Vec3 d = Vec3::Zero();  // c_B − c_A
  double reach_a2 = 0, reach_b2 = 0;  // dᵀP_A d, dᵀP_B d
};

// The maximiser μ of φ: Newton on N = E'D − ED' (N < 0 left of it, > 0 right), kept in its
// bracket; bisection (or doubling while the bracket is open) when a step leaves it. Stops at
// a relative step of 2^-30: the polish in solve() takes it from there.
double pw_mu(const Poly& e, const Poly& dp, double mu, bool safeguard) {
  double lo = 0, hi = INFINITY;
  for (int i = 0; i < (safeguard ? 200 : 6); ++i) {
    const Taylor te = taylor(e, mu), td = taylor(dp, mu);
    const double n = te.d1 * td.v - te.v * td.d1, dn = te.d2 * td.v - te.v * td.d2;
    if (n == 0) break;
    double next = mu - n / dn;
    if (safeguard) {
      if (std::abs(next - mu) <= 0x1p-30 * mu && next > 0) return next;
      (n < 0 ? lo : hi) = mu;
      if (!(dn > 0) || !(next > lo && next < hi)) next = hi < INFINITY ? lo + (hi - lo) / 2 : 2 * mu;
      if (!(hi > lo * (1 + 0x1p-50))) return next;
    }
    mu = next;
  }
  return mu;
}

// y = −(μI + K)⁻¹k and ψ = qa − qb (= h'(t): zero at the maximiser), ψ' = −2(1 + μ) yᵀ(μI + K)⁻¹y
// (from (μI + K)y' = −y and Ky + k = −μy), by LDLᵀ (backward stable: the adjugate's cofactors
// cancel when K is ill-conditioned, flat shapes).
struct PwPoint {
  std::array<double, 3> y;
  double psi, dpsi;
};
PwPoint pw_point(const cases::Pencil<double>& p, double mu) {
  const auto& K = p.K;
  const auto& k = p.k;
  const double d0 = K[0][0] + mu, i0 = 1 / d0, l10 = K[0][1] * i0, l20 = K[0][2] * i0;
  const double d1 = K[1][1] + mu - l10 * K[0][1], i1 = 1 / d1, c21 = K[1][2] - l20 * K[0][1], l21 = c21 * i1;
  const double i2 = 1 / (K[2][2] + mu - l20 * K[0][2] - l21 * c21);
  auto solve = [&](double b0, double b1, double b2) -> std::array<double, 3> {
    const double z1 = b1 - l10 * b0, z2 = b2 - l20 * b0 - l21 * z1;
    const double x2 = z2 * i2, x1 = z1 * i1 - l21 * x2, x0 = b0 * i0 - l10 * x1 - l20 * x2;
    return {x0, x1, x2};
  };
  PwPoint r;
  r.y = solve(-k[0], -k[1], -k[2]);
  const auto& y = r.y;
  const auto z = solve(y[0], y[1], y[2]);
  double qb = p.kappa + 1;
  for (int i = 0; i < 3; ++i) qb += y[i] * (K[i][0] * y[0] + K[i][1] * y[1] + K[i][2] * y[2] + 2 * k[i]);
  r.psi = y[0] * y[0] + y[1] * y[1] + y[2] * y[2] - qb;
  r.dpsi = -2 * (1 + mu) * (y[0] * z[0] + y[1] * z[1] + y[2] * z[2]);
  return r;
}

Solution solve(const cases::EllipsoidContactQuery& q, const EllipsoidSlips& slips) {
  Solution s;
  s.p = cases::pencil<double>(q);
  s.e = cases::characteristic(s.p);
  if (slips.descartes || slips.minus_pencil) {
    Poly m = s.e;
    if (slips.minus_pencil)
      for (int i = 1; i < 5; i += 2) m[i] = -m[i];
    s.count = slips.descartes ? descartes(m) : sturm_positive(m);
  } else {
    s.count = sturm_positive(s.e);
  }
  s.d = q.b.centre - q.a.centre;
  s.coincident = s.d.squaredNorm() == 0;
  s.ra = unit_rotation(q.a.quaternion);
  if (s.coincident) {
    s.t = 0, s.forms = {0, 0, 0};
    return s;
  }
  s.rb = unit_rotation(q.b.quaternion);
  for (int i = 0; i < 3; ++i) {
    const double ca = (s.ra[0][i] * s.d[0] + s.ra[1][i] * s.d[1] + s.ra[2][i] * s.d[2]) / q.a.semi_axes[i];
    const double cb = (s.rb[0][i] * s.d[0] + s.rb[1][i] * s.d[1] + s.rb[2][i] * s.d[2]) / q.b.semi_axes[i];
    s.reach_a2 += ca * ca, s.reach_b2 += cb * cb;
  }
  // D = (1 + μ) det(μI + K).
  const auto& K = s.p.K;
  const double tr = K[0][0] + K[1][1] + K[2][2];
  const double m2 = K[0][0] * K[1][1] - K[0][1] * K[0][1] + K[0][0] * K[2][2] - K[0][2] * K[0][2] + K[1][1] * K[2][2] -
                    K[1][2] * K[1][2];
  const double c00 = K[1][1] * K[2][2] - K[1][2] * K[1][2];
  const double det = K[0][0] * c00 + K[0][1] * (K[1][2] * K[0][2] - K[0][1] * K[2][2]) +
                     K[0][2] * (K[0][1] * K[1][2] - K[1][1] * K[0][2]);
  const Poly dp = {det, det + m2, m2 + tr, tr + 1, 1};
  // Start: exact for spheres (μ = r_A/r_B = √(dᵀP_B d / dᵀP_A d)); Newton from 1 for the slip.
  const double mu0 = slips.unsafe_newton ? 1.0 : std::sqrt(s.reach_b2 / s.reach_a2);
  s.mu = pw_mu(s.e, dp, mu0, !slips.unsafe_newton);
  if (!(s.mu > 0) || !std::isfinite(s.mu)) s.mu = mu0;
  // Polish by Newton on ψ (better conditioned than N on E's coefficients near touching).
  PwPoint pt = pw_point(s.p, s.mu);
  // Unguarded in size: N on E's coefficients can be far off (deep inside, κ ~ 1e11); h' = 0
  // has one root and ψ' < 0, so Newton from any μ > 0 heads for it.
  for (int i = 0; i < 8 && !slips.unsafe_newton; ++i) {
    double next = s.mu - pt.psi / pt.dpsi;
    if (!std::isfinite(next)) break;
    if (!(next > 0)) next = s.mu / 2;
    if (std::abs(next - s.mu) <= 0x1p-51 * s.mu) break;
    s.mu = next;
    pt = pw_point(s.p, s.mu);
  }
  s.t = s.mu / (1 + s.mu);
  s.y = pt.y;
  s.forms = pw_forms<double>(s.p, s.y, s.t);
  return s;
}

// ---- the state's certificates ----------------------------------------------------------
struct Certificate {
  int state = -1;     // the exact state when a certificate holds, else −1
  double gap = 0;     // else: a bound on the exact relative gap |√F − 1|
  std::array<double, 5> e_error{};  // |exact E_i − e_i|
};

// (1) Sturm: the chain on E's coefficients with running bounds; when every degree and sign
// is sure, the kernel's double count is the exact count. (2) Perram–Wertheim, at the
// kernel's (t, y) taken as exact: F ≤ max(qA(y), qB(y)) (F = min_y max(qA, qB), minimax) and
// F ≥ h(t) ≥ Q(y) − |∇Q(y)|²/(4 λ_min(S)), Q(y) = t qA + (1 − t) qB, S = tI + (1 − t)K,
// λ_min(K) ≥ min(s_A)²/max(s_B)². F_lo > 1: separated; F_hi < 1 (and the kernel's F < 1):
// overlapping. Otherwise F ∈ [F_lo, F_hi] bounds the gap.
Certificate certify(const cases::EllipsoidContactQuery& q, const Solution& s) {
  Certificate c;
  const cases::Pencil<Bounded> p = cases::pencil<Bounded>(q);
  const auto e = cases::characteristic(p);
  for (int i = 0; i < 5; ++i) c.e_error[i] = e[i].e;
  if (s.coincident) {  // the common centre is inside both
    c.state = 2;
    return c;
  }
  bool sure = true;
  const int n = sturm_positive<Bounded>(e, sure);
  if (sure && n >= 0 && n <= 2) {
    c.state = n == 2 ? 0 : n == 1 ? 1 : 2;
    return c;
  }
  const std::array<Bounded, 3> y = {s.y[0], s.y[1], s.y[2]};
  const PwForms<Bounded> f = pw_forms<Bounded>(p, y, Bounded(s.t));
  const Bounded w = 1 - Bounded(s.t);
  double grad2 = 0;
  for (int i = 0; i < 3; ++i) {
    const Bounded g = 2 * (Bounded(s.t) * y[i] + w * (p.K[i][0] * y[0] + p.K[i][1] * y[1] + p.K[i][2] * y[2] + p.k[i]));
    const double m = std::abs(g.v) + g.e;
    grad2 += m * m;
  }
  const double smin = std::min({q.a.semi_axes[0], q.a.semi_axes[1], q.a.semi_axes[2]});
  const double smax = std::max({q.b.semi_axes[0], q.b.semi_axes[1], q.b.semi_axes[2]});
  const double lambda = (s.t + (w.v - w.e) * ((smin * smin) / (smax * smax)) * (1 - 0x1p-49)) * (1 - 0x1p-50);
  const double f_lo = f.F.v - up(f.F.e + grad2 / (4 * lambda));
  const double f_hi = up(std::max(f.qa.v + f.qa.e, f.qb.v + f.qb.e));
  if (f_lo > 1) {
    c.state = 0;
  } else if (f_hi < 1 && s.forms.F < 1) {
    c.state = 2;
  } else {
    const double above = std::sqrt(f_hi) * (1 + 0x1p-51) - 1, below = 1 - std::sqrt(std::max(f_lo, 0.0)) * (1 - 0x1p-51);
    c.gap = up(std::max({above, below, 0.0}));
    if (std::isnan(c.gap)) c.gap = INFINITY;
  }
  return c;
}

// The cheap certificates along the centre line d = c_B − c_A. For X = A, B: ρ_X = dᵀP_X d =
// Σ ((R_Xᵀd)_i / s_i)² and σ_X = dᵀP_X⁻¹d = Σ ((R_Xᵀd)_i s_i)². Overlapping when
// 1/√ρ_A + 1/√ρ_B > 1: the centre line holds a point strictly inside both (c_A + s d with
// 1 − 1/√ρ_B < s < 1/√ρ_A; equal centres too). Separated when √σ_A + √σ_B < |d|²: the plane
// normal to d between them separates (X's support in direction d is dᵀc_X ± √σ_X). Both
// exact for spheres. In double with a-priori bounds, u = 2^-53: with Q = |q|² R (no
// division; |Q_ij| ≤ n = |q|², each entry within 4un), c = Qᵀd is within 9un‖d‖₁ of the
// exact c (d within u|d|, three-term sums), so ρ ≤ Σ((|ĉ_i| + E)/s_i)²/n² with E = 16un‖d‖₁;
// the bounds' own evaluation (≤ 6u relative per stage) and the final tests are covered by
// the 2^-48 margins, underflow by the absolute 2^-1000 terms, and |q|² is kept within
// [2^-900, 2^900] (else −1): no overflow is ever taken as a certificate (∞ and NaN fail the
// tests). Else −1.
int centre_line_state(const cases::EllipsoidContactQuery& q) {
  const Vec3 d = q.b.centre - q.a.centre;
  const double d1 = std::abs(d[0]) + std::abs(d[1]) + std::abs(d[2]);
  struct Reach {
    double root_rho, root_sigma;  // upper bounds of √ρ, √σ (within the final tests' margins)
    bool ok;
  };
  auto reach = [&](const cases::Ellipsoid& e) {
    const double w = e.quaternion[0], x = e.quaternion[1], y = e.quaternion[2], z = e.quaternion[3];
    const double ww = w * w, xx = x * x, yy = y * y, zz = z * z, n = ww + xx + yy + zz;
    const double xy = x * y, wz = w * z, xz = x * z, wy = w * y, yz = y * z, wx = w * x;
    // Column i of Q dotted with d: (Qᵀd)_i.
    const double c0 = (ww + xx - yy - zz) * d[0] + 2 * (xy + wz) * d[1] + 2 * (xz - wy) * d[2];
    const double c1 = 2 * (xy - wz) * d[0] + (ww - xx + yy - zz) * d[1] + 2 * (yz + wx) * d[2];
    const double c2 = 2 * (xz + wy) * d[0] + 2 * (yz - wx) * d[1] + (ww - xx - yy + zz) * d[2];
    const double E = 0x1p-49 * n * d1 + 0x1p-1000;
    const double i0 = (std::abs(c0) + E) / e.semi_axes[0], i1 = (std::abs(c1) + E) / e.semi_axes[1],
                 i2 = (std::abs(c2) + E) / e.semi_axes[2];
    const double o0 = (std::abs(c0) + E) * e.semi_axes[0], o1 = (std::abs(c1) + E) * e.semi_axes[1],
                 o2 = (std::abs(c2) + E) * e.semi_axes[2];
    const double rho = (i0 * i0 + i1 * i1 + i2 * i2) * (1 + 0x1p-48) + 0x1p-1000;
    const double sigma = (o0 * o0 + o1 * o1 + o2 * o2) * (1 + 0x1p-48) + 0x1p-1000;
    const double n_lo = n * (1 - 0x1p-48);
    return Reach{std::sqrt(rho) / n_lo, std::sqrt(sigma) / n_lo, n >= 0x1p-900 && n <= 0x1p900};
  };
  const Reach a = reach(q.a), b = reach(q.b);
  if (!a.ok || !b.ok) return -1;
  if (1 / a.root_rho + 1 / b.root_rho > 1 + 0x1p-48) return 2;
  const double dd = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) * (1 - 0x1p-48) - 0x1p-1000;
  if (dd > (a.root_sigma + b.root_sigma) * (1 + 0x1p-48)) return 0;
  return -1;
}

// ---- the state alone: Perram–Wertheim's point, certified in world coordinates ----------
// Stage 2 of ellipsoid_contact_state. The point is found in double in A's unit-sphere frame
// (no bound needed: any point and weight give valid certificates), then judged by the
// exact inputs alone: at a point x = c_A + v (v a double, so x − c_A is exact) and a weight
// t (a double), with q_X(x) = (x − c_X)ᵀP_X(x − c_X):
//   overlapping when q_A(x) < 1 and q_B(x) < 1 (x is inside both);
//   separated when h(t) > 1, since F = max h ≥ h(t) = min_y Q(y) ≥ Q(x) − |∇Q(x)|²/(4λ),
//   Q = t q_A + (1 − t) q_B, ∇²Q/2 = S = tP_A + (1 − t)P_B ⪰ λI with
//   λ = t/max(s_A)² + (1 − t)/max(s_B)² (minimising the quadratic lower bound along x − y).
// Rounding, derived a priori (u = 2^-53; γ_3 = 3u/(1 − 3u) for three-term sums):
//   Q = n R from the quaternion scaled by a power of two (exact) so that n = |q|² ∈ [1/2, 4):
//     |Q_ij| ≤ n, each entry within 4.1un (squares and products u each, three sums), n̂
//     within 4.1un; the absolute 2^-1000 terms below cover components scaled to subnormal.
//   d̂ = fl(c_B − c_A) within u|d̂|, ŵ_B = fl(v − d̂) within u|ŵ_B| + u|d̂| (componentwise,
//     plus 1%), ŵ_A = v exactly: ‖Δw‖₁ ≤ 2^-52 (‖ŵ_B‖₁ + ‖d̂‖₁), 0 for A.
//   c = Qᵀw: |ĉ_i − c_i| ≤ γ_3 Σ|Q̂||ŵ| + 4.1un‖ŵ‖₁ + n‖Δw‖₁ ≤ nε, ε = 8u‖ŵ‖₁ + ‖Δw‖₁.
//   q_X = Σ (c_i/(n s_i))²: with a_i = |ĉ_i|/n̂ (within 6u of |ĉ_i|/n),
//     Σ (max(0, a_i(1 − 16u) − ε)/s_i)² ≤ q_X ≤ Σ ((a_i + ε)/s_i)² (1 + 64u): the margins
//     cover the 6u (12u squared) and the ≤ 8u of the bounds' own roundings.
//   P_X w = Q diag(1/s²) c / n²: b̂_i = ĉ_i/s_i² (within 3.1u|b̂_i| + nε/s_i²), r̂ = Q̂ b̂
//     (within n(10.3u‖b̂‖₁ + nεΣ1/s_i²)), ĝ = r̂/n̂²: within δ = 16u‖b̂‖₁/n̂ + εΣ1/s_i² +
//     16u|ĝ|max (the 2·5.2u of 1/n̂² and the roundings), times 1 + 2^-48.
//   ∇Q/2 = t g_A + (1 − t) g_B: within t δ_A + δ_B + 8u (t|ĝ_A| + |ĝ_B|) per component
//     (ŵ = fl(1 − t) within u(1 − t), two products and a sum).
//   Q(x) ≥ (t L_A + ŵ L_B)(1 − 8u), λ ≥ (t/max s_A² + ŵ/max s_B²)(1 − 16u) (ŵ ≥ (1 − u)
//   ŵ's exact value, five roundings), and the final test F_lo > 1 + 8u covers the last
//   subtraction. Overflow gives ∞ or NaN, which fails every test (a NaN lower bound is taken
//   as 0); underflow is covered by the 2^-1000 terms. Holds on every finite input.
struct Body {
  double Q[3][3];   // n R
  double inv_n;     // 1/n̂
  Vec3 s;           // semi-axes
  bool ok;          // |q|² finite and non-zero
};
Body body(const cases::Ellipsoid& e) {
  Body b;
  double w = e.quaternion[0], x = e.quaternion[1], y = e.quaternion[2], z = e.quaternion[3];
  const double n0 = w * w + x * x + y * y + z * z;
  b.ok = n0 > 0 && n0 < INFINITY;
  if (!b.ok) return b;
  const double f = std::ldexp(1.0, -(std::ilogb(n0) / 2));  // exact: n ∈ [1/2, 4)
  w *= f, x *= f, y *= f, z *= f;
  const double ww = w * w, xx = x * x, yy = y * y, zz = z * z;
  b.Q[0][0] = ww + xx - yy - zz, b.Q[0][1] = 2 * (x * y - w * z), b.Q[0][2] = 2 * (x * z + w * y);
  b.Q[1][0] = 2 * (x * y + w * z), b.Q[1][1] = ww - xx + yy - zz, b.Q[1][2] = 2 * (y * z - w * x);
  b.Q[2][0] = 2 * (x * z - w * y), b.Q[2][1] = 2 * (y * z + w * x), b.Q[2][2] = ww - xx - yy + zz;
  b.inv_n = 1 / (ww + xx + yy + zz);
  b.s = e.semi_axes;
  return b;
}

// What X says of the point c_X + w (ŵ with ‖Δw‖₁ ≤ dw1): q_X within [lo, hi], P_X w = g
// within g_err per component (see above).
struct Reading {
  double lo, hi;
  std::array<double, 3> g;
  double g_err, g_max;
};
Reading read(const Body& b, const Vec3& w, double dw1) {
  const double w1 = std::abs(w[0]) + std::abs(w[1]) + std::abs(w[2]);
  const double eps = (0x1p-50 * w1 + dw1) * (1 + 0x1p-50) + 0x1p-1000;
  Reading r{0, 0, {}, 0, 0};
  double bh[3], b1 = 0, inv_s2 = 0;
  for (int i = 0; i < 3; ++i) {
    const double c = b.Q[0][i] * w[0] + b.Q[1][i] * w[1] + b.Q[2][i] * w[2];
    const double a = std::abs(c) * b.inv_n, si = b.s[i];
    const double hi = (a + eps) / si, lo = std::max(0.0, a * (1 - 0x1p-49) - eps) / si;
    r.hi += hi * hi, r.lo += lo * lo;
    const double s2 = si * si;
    bh[i] = c / s2, b1 += std::abs(bh[i]), inv_s2 += 1 / s2;
  }
  r.hi *= 1 + 0x1p-47, r.lo *= 1 - 0x1p-48;
  const double nn = b.inv_n * b.inv_n;
  for (int j = 0; j < 3; ++j) {
    r.g[j] = (b.Q[j][0] * bh[0] + b.Q[j][1] * bh[1] + b.Q[j][2] * bh[2]) * nn;
    r.g_max = std::max(r.g_max, std::abs(r.g[j]));
  }
  r.g_err = (0x1p-49 * b1 * b.inv_n + eps * inv_s2 + 0x1p-49 * r.g_max) * (1 + 0x1p-48) + 0x1p-1000;
  return r;
}

// The certificate at x = c_A + v and weight t: 0 separated, 2 overlapping, −1 neither.
int pw_certificate(const Body& a, const Body& b, const Vec3& d, const Vec3& v, double t) {
  const Vec3 wb = v - d;
  const double dw1 = 0x1p-52 * (wb.cwiseAbs().sum() + d.cwiseAbs().sum());
  const Reading ra = read(a, v, 0), rb = read(b, wb, dw1);
  if (ra.hi < 1 && rb.hi < 1) return 2;
  if (!(t >= 0 && t <= 1)) return -1;
  const double w = 1 - t;
  const double err = t * ra.g_err + rb.g_err + 0x1p-50 * (t * ra.g_max + rb.g_max);
  double g2 = 0;
  for (int j = 0; j < 3; ++j) {
    const double gj = std::abs(t * ra.g[j] + w * rb.g[j]) + err;
    g2 += gj * gj;
  }
  const double sa = a.s.maxCoeff(), sb = b.s.maxCoeff();
  const double lambda = (t / (sa * sa) + w / (sb * sb)) * (1 - 0x1p-49);
  const double f_lo = (t * ra.lo + w * rb.lo) * (1 - 0x1p-50) - g2 / lambda * (1 + 0x1p-47);
  return f_lo > 1 + 0x1p-50 ? 0 : -1;
}

// Stage 2: PW's maximiser by Newton on ψ(μ) = |y|² − q_B(y) (pw_point, the kernel's LDLᵀ
// step) from the spheres' μ, on a pencil built in double from the bodies (K = GᵀG, G =
// diag(1/s_B) R_BᵀR_A diag(s_A); f = diag(1/s_B) R_Bᵀd, k = −Gᵀf, κ = |f|² − 1), and the
// certificate at A's point v = R_A diag(s_A) y: once early (after a step below 2^-12 μ),
// else when Newton has converged (a step below 2^-51 μ, at most 24 steps). *t_out: the
// weight reached when undecided (the double-double stage's start).
int pw_state(const cases::EllipsoidContactQuery& q, double* t_out) {
  const Body a = body(q.a), b = body(q.b);
  if (!a.ok || !b.ok) return -1;
  const Vec3 d = q.b.centre - q.a.centre;
  if (d[0] == 0 && d[1] == 0 && d[2] == 0) return 2;  // the common centre is inside both
  double G[3][3], f[3], e2 = 0;
  const double nab = a.inv_n * b.inv_n;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      G[i][j] = (b.Q[0][i] * a.Q[0][j] + b.Q[1][i] * a.Q[1][j] + b.Q[2][i] * a.Q[2][j]) * nab * a.s[j] / b.s[i];
    f[i] = (b.Q[0][i] * d[0] + b.Q[1][i] * d[1] + b.Q[2][i] * d[2]) * b.inv_n / b.s[i];
    const double ei = (a.Q[0][i] * d[0] + a.Q[1][i] * d[1] + a.Q[2][i] * d[2]) * a.inv_n / a.s[i];
    e2 += ei * ei;
  }
  cases::Pencil<double> p;
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) p.K[i][j] = p.K[j][i] = G[0][i] * G[0][j] + G[1][i] * G[1][j] + G[2][i] * G[2][j];
    p.k[i] = -(G[0][i] * f[0] + G[1][i] * f[1] + G[2][i] * f[2]);
  }
  p.kappa = f[0] * f[0] + f[1] * f[1] + f[2] * f[2] - 1;
  double mu = std::sqrt((p.kappa + 1) / e2);
  if (!(mu > 0 && mu < INFINITY)) return -1;
  // The certificate at μ: A's point v = R_A diag(s_A) y, t = μ/(1 + μ).
  auto certify_at = [&](double m, const PwPoint& at) {
    Vec3 v;
    for (int i = 0; i < 3; ++i)
      v[i] = (a.Q[i][0] * (a.s[0] * at.y[0]) + a.Q[i][1] * (a.s[1] * at.y[1]) + a.Q[i][2] * (a.s[2] * at.y[2])) * a.inv_n;
    return pw_certificate(a, b, d, v, m / (1 + m));
  };
  PwPoint pt = pw_point(p, mu);
  bool tried = false;
  for (int i = 0; i < 24; ++i) {
    double next = mu - pt.psi / pt.dpsi;
    if (!std::isfinite(next)) break;
    if (!(next > 0)) next = mu / 2;
    if (std::abs(next - mu) <= 0x1p-51 * mu) break;
    const bool near = std::abs(next - mu) <= 0x1p-12 * mu;
    mu = next;
    pt = pw_point(p, mu);
    // After a step below 2^-12 μ is within about its square: one early try, which holds
    // away from touching and saves the last Newton steps (measured: 2^-6 and 2^-24 no better).
    if (near && !tried) {
      tried = true;
      if (const int st = certify_at(mu, pt); st >= 0) return st;
    }
  }
  if (t_out) *t_out = mu / (1 + mu);
  return certify_at(mu, pt);
}

// The kernel's state: Sturm's count when it agrees with the sign of F − 1 (both wrong at once
// only where no certificate holds: within the certified gap); else the certificates decide,
// and where neither holds the count stands (F's sign when the count is impossible).
int decide(const cases::EllipsoidContactQuery& q, const Solution& s, bool trusted) {
  const int counted = s.count == 2 ? 0 : s.count == 1 ? 1 : s.count == 0 ? 2 : -1;
  if (trusted) return counted < 0 ? 2 : counted;
  const int by_f = s.forms.F > 1 ? 0 : s.forms.F < 1 ? 2 : 1;
  if (counted == by_f) return counted;
  const Certificate c = certify(q, s);
  if (c.state >= 0) return c.state;
  return counted >= 0 ? counted : by_f == 1 ? 0 : by_f;
}

// The positive root of the quartic e next to x, e(x) < 0, on the left (toward 0) or right:
// Laguerre's iteration, which for a polynomial with only real roots (E's are: two negative,
// two positive when separated) moves monotonically toward the adjacent root on the chosen
// side without passing it, cubically near it.
double laguerre_root(const Poly& e, double x, bool left) {
  for (int i = 0; i < 100; ++i) {
    const Taylor t = taylor(e, x);
    if (!(t.v < 0)) break;  // reached (or rounding crossed) the root
    const double g = t.d1 / t.v, h = g * g - t.d2 / t.v;
    const double s = std::sqrt(std::max(0.0, 3 * (4 * h - g * g)));
    const double den = left ? g + s : g - s;
    const double next = x - 4 / den;
    if (!(left ? next < x : next > x) || !(next > 0) || !std::isfinite(next)) break;
    const bool last = std::abs(next - x) <= 0x1p-45 * x;
    x = next;
    if (last) break;
  }
  // One Newton step to finish (quadratic from here).
  const Taylor t = taylor(e, x);
  const double next = x - t.v / t.d1;
  return std::isfinite(next) && std::abs(next - x) <= 0x1p-30 * x ? next : x;
}

}  // namespace

bool ellipsoid_contact_in_domain(const cases::EllipsoidContactQuery& q) { return cases::ellipsoid_in_fast_domain(q); }

int ellipsoid_contact_state(const cases::EllipsoidContactQuery& q, int* stage, double* t) {
  if (const int st = centre_line_state(q); st >= 0) {
    if (stage) *stage = 1;
    return st;
  }
  if (stage) *stage = 2;
  return pw_state(q, t);
}

double EllipsoidContactBounds::root(double mu) const {
  double delta = 0;
  for (int i = 4; i >= 0; --i) delta = delta * mu + e_error[i];
  const Taylor t = taylor(e, mu);
  const double lin = delta / std::abs(t.d1), quad = std::sqrt(2 * delta / std::abs(t.d2));
  return std::min(lin, quad) / mu + 8 * u;
}

EllipsoidContactBounds ellipsoid_contact_bounds(const cases::EllipsoidContactQuery& q) {
  EllipsoidContactBounds b;
  const double kappa = std::pow(cases::axis_spread(q), 2);
  const double L = cases::ellipsoid_scale(q);
  const double place = std::max(q.a.centre.cwiseAbs().maxCoeff(), q.b.centre.cwiseAbs().maxCoeff()) / L;
  const Solution s = solve(q, {});
  const Certificate c = certify(q, s);
  b.state = c.state >= 0 ? 0.0 : c.gap;
  b.F = c_field * u * kappa;
  b.point = c_field * u * (kappa + place);
  b.normal = c_field * u * kappa;
  b.overlap = c_field * u * (kappa + place);
  b.e = s.e;
  // E's perturbation at a root: the exact coefficients' distance plus the roots' own Horner
  // evaluation (γ_8 on |e_i|), so δ(μ) = Σ e_error_i μ^i.
  for (int i = 0; i < 5; ++i) b.e_error[i] = c.e_error[i] + 9 * u * std::abs(s.e[i]);
  return b;
}

cases::EllipsoidContactResult ellipsoid_contact(const cases::EllipsoidContactQuery& q, const EllipsoidSlips& slips) {
  cases::EllipsoidContactResult r;
  const Solution s = solve(q, slips);
  const int st = decide(q, s, slips.descartes || slips.minus_pencil);
  r.state = cases::ellipsoid_state_names[st];
  r.F = s.forms.F;
  if (s.coincident) {
    r.point = q.a.centre;
    r.normal = Vec3::Zero();
    return r;  // overlapping: no roots
  }
  // Back to world coordinates: x = c_A + R_A diag(s_A) y; A's normal ∝ R_A diag(1/s_A) y.
  Vec3 ys, yn;
  for (int i = 0; i < 3; ++i) ys[i] = s.y[i] * q.a.semi_axes[i], yn[i] = s.y[i] / q.a.semi_axes[i];
  Vec3 xs, ns;
  for (int i = 0; i < 3; ++i) {
    xs[i] = s.ra[i][0] * ys[0] + s.ra[i][1] * ys[1] + s.ra[i][2] * ys[2];
    ns[i] = s.ra[i][0] * yn[0] + s.ra[i][1] * yn[1] + s.ra[i][2] * yn[2];
  }
  r.point = q.a.centre + xs;
  if (slips.normal_from_b) {  // P_B (x − c_B) = R_B diag(1/s_B²) R_Bᵀ (x − c_B)
    const Vec3 v = xs - s.d;
    Vec3 w;
    for (int i = 0; i < 3; ++i)
      w[i] = (s.rb[0][i] * v[0] + s.rb[1][i] * v[1] + s.rb[2][i] * v[2]) / (q.b.semi_axes[i] * q.b.semi_axes[i]);
    for (int i = 0; i < 3; ++i) ns[i] = s.rb[i][0] * w[0] + s.rb[i][1] * w[1] + s.rb[i][2] * w[2];
  }
  r.normal = ns.normalized();
  // Centre-line overlap: t_X = |d| / √(dᵀP_X d).
  const double len = s.d.norm();
  auto reach = [&](double quad) { return slips.chord_squared ? len * len / quad : len / std::sqrt(quad); };
  r.overlap = reach(s.reach_a2) + reach(s.reach_b2) - len;
  // Positive roots: E < 0 at PW's μ when separated, one root on each side.
  if (st == 1) {
    r.roots = {s.mu};
  } else if (st == 0) {
    const Taylor t = taylor(s.e, s.mu);
    if (!(t.v < 0)) {
      r.roots = {s.mu, s.mu};
    } else {
      r.roots = {laguerre_root(s.e, s.mu, true), laguerre_root(s.e, s.mu, false)};
    }
  }
  return r;
}

cases::EllipsoidContactResult ellipsoid_contact(const cases::EllipsoidContactQuery& q) { return ellipsoid_contact(q, {}); }

cases::EllipsoidContactResult ellipsoid_contact_shortcut(const cases::EllipsoidContactQuery& q) {
  // f = −(s_1 s_2 s_3)^-2 E: f's coefficient signs are E's negated, its discriminant E's times
  // a positive factor; written on f's coefficients as the description reads.
  const Poly E = cases::characteristic(cases::pencil<double>(q));
  const double a = -E[4], b = -E[3], c = -E[2], d = -E[1], e = -E[0];
  const double terms[] = {256 * a * a * a * e * e * e, -192 * a * a * b * d * e * e, -128 * a * a * c * c * e * e,
                          144 * a * a * c * d * d * e, -27 * a * a * d * d * d * d, 144 * a * b * b * c * e * e,
                          -6 * a * b * b * d * d * e, -80 * a * b * c * c * d * e, 18 * a * b * c * d * d * d,
                          16 * a * c * c * c * c * e, -4 * a * c * c * c * d * d, -27 * b * b * b * b * e * e,
                          18 * b * b * b * c * d * e, -4 * b * b * b * d * d * d, -4 * b * b * c * c * c * e,
                          b * b * c * c * d * d};
  double disc = 0, size = 0;
  for (double t : terms) disc += t, size += std::abs(t);
  cases::EllipsoidContactResult r;
  int st;
  if (std::abs(disc) <= 1e-10 * size) {
    st = 1;
  } else if (disc < 0) {
    st = 2;
  } else {
    st = descartes({e, d, c, b, a}) >= 2 ? 0 : 2;
  }
  r.state = cases::ellipsoid_state_names[st];
  return r;
}

}  // namespace contactbench::fast
