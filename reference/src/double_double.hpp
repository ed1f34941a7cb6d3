// Double-double numbers (≈106 bits) that carry a running bound on their distance to the
// exact value of the formula they evaluate: the cheap first stage of a filtered
// construction. Inputs are doubles (exact, bound 0); every operation adds its own rounding,
// U|result| with U = 2^-102 (the double-double add, product, 3-term division and
// Newton-step square root below err by at most about 4·2^-106 relative, so U leaves a factor
// ≥ 4 of slack that also absorbs the rounding of the bound's own double arithmetic), and
// propagates its operands' bounds to first order plus the product term: a ± b: ea + eb;
// a·b: |a|eb + |b|ea + ea·eb; a/b: (ea + |a/b|·eb)/(|b| − eb) (infinite when eb ≥ |b|);
// √a: ea/√a (infinite when ea ≥ a).
#pragma once

#include <cmath>
#include <limits>

namespace contactbench::reference::dd {

struct Bounded {
  double hi = 0, lo = 0;  // value hi + lo, |lo| ≤ ulp(hi)/2
  double err = 0;         // |exact − (hi + lo)| ≤ err

  Bounded() = default;
  Bounded(double v) : hi(v) {}  // NOLINT: exact
  Bounded(int v) : hi(v) {}     // NOLINT: exact
  Bounded(double h, double l, double e) : hi(h), lo(l), err(e) {}
  double mag() const { return std::abs(hi) * (1 + 0x1p-50); }
};

constexpr double U = 0x1p-102;
constexpr double inf = std::numeric_limits<double>::infinity();

[[gnu::always_inline]] inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}
[[gnu::always_inline]] inline void quick_two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  e = b - (s - a);
}

[[gnu::always_inline]] inline Bounded add(const Bounded& a, double bh, double bl, double eb) {
  double s1, s2, t1, t2;
  two_sum(a.hi, bh, s1, s2);
  two_sum(a.lo, bl, t1, t2);
  s2 += t1;
  quick_two_sum(s1, s2, s1, s2);
  s2 += t2;
  Bounded r;
  quick_two_sum(s1, s2, r.hi, r.lo);
  r.err = a.err + eb + U * r.mag();
  return r;
}
[[gnu::always_inline]] inline Bounded operator+(const Bounded& a, const Bounded& b) { return add(a, b.hi, b.lo, b.err); }
[[gnu::always_inline]] inline Bounded operator-(const Bounded& a) { return {-a.hi, -a.lo, a.err}; }
[[gnu::always_inline]] inline Bounded operator-(const Bounded& a, const Bounded& b) { return add(a, -b.hi, -b.lo, b.err); }

// a·b = p + e exactly (Dekker's split product; inline, where std::fma would be a libm call
// without -mfma). Values here stay far from overflow; a non-finite result fails the filter.
[[gnu::always_inline]] inline void two_prod(double a, double b, double& p, double& e) {
  constexpr double split = 134217729.0;  // 2^27 + 1
  p = a * b;
  const double ta = split * a, ah = ta - (ta - a), al = a - ah;
  const double tb = split * b, bh = tb - (tb - b), bl = b - bh;
  e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

[[gnu::always_inline]] inline Bounded operator*(const Bounded& a, const Bounded& b) {
  double p, e;
  two_prod(a.hi, b.hi, p, e);
  e += a.hi * b.lo + a.lo * b.hi;
  Bounded r;
  quick_two_sum(p, e, r.hi, r.lo);
  r.err = a.mag() * b.err + b.mag() * a.err + a.err * b.err + U * r.mag();
  return r;
}

[[gnu::always_inline]] inline Bounded operator/(const Bounded& a, const Bounded& b) {
  // Long division: q1 + q2 + q3 with remainders computed by the accurate product.
  const double q1 = a.hi / b.hi;
  Bounded r = a - Bounded(b.hi, b.lo, 0) * Bounded(q1);
  const double q2 = r.hi / b.hi;
  r = r - Bounded(b.hi, b.lo, 0) * Bounded(q2);
  const double q3 = r.hi / b.hi;
  Bounded q;
  quick_two_sum(q1, q2, q.hi, q.lo);
  q = Bounded(q.hi, q.lo, 0) + Bounded(q3);
  const double bm = std::abs(b.hi) * (1 - 0x1p-50);
  q.err = b.err < bm ? (a.err + q.mag() * b.err) / (bm - b.err) * (1 + 0x1p-50) + U * q.mag() : inf;
  return q;
}

[[gnu::always_inline]] inline Bounded sqrt(const Bounded& a) {
  if (!(a.hi > 0)) return {0, 0, a.hi == 0 && a.err == 0 ? 0 : inf};
  const double x = std::sqrt(a.hi);
  // One Newton step in double-double from the double root: x + (a − x²)/(2x).
  const Bounded x2 = Bounded(x) * Bounded(x);
  const Bounded d = Bounded(a.hi, a.lo, 0) - Bounded(x2.hi, x2.lo, 0);
  Bounded r;
  quick_two_sum(x, d.hi / (2 * x), r.hi, r.lo);
  r.err = a.err < a.hi * (1 - 0x1p-50) ? a.err / std::sqrt(a.hi * (1 - 0x1p-50)) * (1 + 0x1p-50) + U * r.mag() : inf;
  return r;
}

[[gnu::always_inline]] inline Bounded abs(const Bounded& a) { return a.hi < 0 || (a.hi == 0 && a.lo < 0) ? -a : a; }

// Order by value (for iterations that only choose points; no certification implied).
[[gnu::always_inline]] inline bool operator<(const Bounded& a, const Bounded& b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
[[gnu::always_inline]] inline bool operator>(const Bounded& a, const Bounded& b) { return b < a; }
[[gnu::always_inline]] inline bool operator<=(const Bounded& a, const Bounded& b) { return !(b < a); }
[[gnu::always_inline]] inline bool operator==(const Bounded& a, const Bounded& b) { return a.hi == b.hi && a.lo == b.lo; }

// The value as an exact point (bound dropped): where an iteration evaluates next.
[[gnu::always_inline]] inline Bounded point(const Bounded& a) { return {a.hi, a.lo, 0}; }

// The double every value within 2·err of hi + lo rounds to (to nearest), when there is one:
// the interval [v − 2err, v + 2err] contains no midpoint between doubles. NaN otherwise.
[[gnu::always_inline]] inline double certain_double(const Bounded& a) {
  const double d = a.hi;
  if (!std::isfinite(d) || !std::isfinite(a.err) || std::abs(d) < 0x1p-960) return std::nan("");
  const double below = (d - std::nextafter(d, -inf)) / 2, above = (std::nextafter(d, inf) - d) / 2;
  const double room = std::min(below, above) * (1 - 0x1p-20);
  return std::abs(a.lo) + 2 * a.err < room ? d : std::nan("");
}

}  // namespace contactbench::reference::dd
