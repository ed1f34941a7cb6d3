// Double-double numbers (≈106 bits) that carry a running bound on their distance to the
// exact value of the formula they evaluate: the cheap first stage of a filtered
// construction. Inputs are doubles (exact, bound 0); every operation adds its own rounding,
// U|result| with U = 2^-102 (the double-double add, product, 3-term division and
// Newton-step square root below err by at most about 4·2^-106 relative, so U leaves a factor
// ≥ 4 of slack that also absorbs the rounding of the bound's own double arithmetic), and
// propagates its operands' bounds to first order plus the product term: a ± b: ea + eb;
// a·b: |a|eb + |b|ea + ea·eb; a/b: (ea + |a/b|·eb)/(|b| − eb) (infinite when eb ≥ |b|);
// √a: ea/√a (infinite when ea ≥ a).
// Underflow: the relative bounds above hold away from the subnormal range only. A product,
// quotient or root whose operands or result are below 2^-800 in magnitude (and not exactly
// zero) also adds an absolute term (T below, times 1/|b| for a quotient, 1/√a for a root)
// that covers every loss to the subnormal range; sums are exact there. Results below
// 2^-960 are never certified (certain_double), so T never costs an answer; exact zeros stay
// exact (error 0). The bound's own products and quotients can underflow too (a value 0 with
// a bound of 2^-600, squared, would claim an exact 0): a term of two nonzero factors below
// 2^-960, or a nonzero quotient or root bound below it, also adds T (T / (|b| − eb) for a
// quotient, whose numerator may have lost 2^-1074).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace contactbench::reference::dd {

// Fma selects dd::two_prod's method (std::fma, or Dekker's split): the same exact p + e
// either way. BoundedT<true> belongs only in code compiled for FMA (target("fma"), see
// reference/src/closest_feature.cpp): elsewhere std::fma is a libm call. The operators are
// hidden friends so that doubles and ints convert to either type as they did to Bounded.
template <bool Fma>
struct BoundedT;
using Bounded = BoundedT<false>;
template <bool F>
BoundedT<F> add(const BoundedT<F>& a, double bh, double bl, double eb);
template <bool F>
BoundedT<F> mul(const BoundedT<F>& a, const BoundedT<F>& b);
template <bool F>
BoundedT<F> div(const BoundedT<F>& a, const BoundedT<F>& b);

template <bool Fma>
struct BoundedT {
  double hi = 0, lo = 0;  // value hi + lo, |lo| ≤ ulp(hi)/2
  double err = 0;         // |exact − (hi + lo)| ≤ err

  BoundedT() = default;
  BoundedT(double v) : hi(v) {}  // NOLINT: exact
  BoundedT(int v) : hi(v) {}     // NOLINT: exact
  BoundedT(double h, double l, double e) : hi(h), lo(l), err(e) {}
  double mag() const { return std::abs(hi) * (1 + 0x1p-50); }

  [[gnu::always_inline]] friend BoundedT operator+(const BoundedT& a, const BoundedT& b) { return add(a, b.hi, b.lo, b.err); }
  [[gnu::always_inline]] friend BoundedT operator-(const BoundedT& a) { return {-a.hi, -a.lo, a.err}; }
  [[gnu::always_inline]] friend BoundedT operator-(const BoundedT& a, const BoundedT& b) { return add(a, -b.hi, -b.lo, b.err); }
  [[gnu::always_inline]] friend BoundedT operator*(const BoundedT& a, const BoundedT& b) { return mul(a, b); }
  [[gnu::always_inline]] friend BoundedT operator/(const BoundedT& a, const BoundedT& b) { return div(a, b); }
  // Order by value (for iterations that only choose points; no certification implied).
  [[gnu::always_inline]] friend bool operator<(const BoundedT& a, const BoundedT& b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
  [[gnu::always_inline]] friend bool operator>(const BoundedT& a, const BoundedT& b) { return b < a; }
  [[gnu::always_inline]] friend bool operator<=(const BoundedT& a, const BoundedT& b) { return !(b < a); }
  [[gnu::always_inline]] friend bool operator==(const BoundedT& a, const BoundedT& b) { return a.hi == b.hi && a.lo == b.lo; }
};

constexpr double U = 0x1p-102;
constexpr double T = 0x1p-1000;  // absolute slack for underflow (see the top)
[[gnu::always_inline]] inline bool tiny(double x) { return std::abs(x) < 0x1p-800; }
// A bound term x·y (x, y >= 0) that may have lost part of itself to the subnormal range.
[[gnu::always_inline]] inline bool bound_underflows(double x, double y) { return x != 0 && y != 0 && x * y < 0x1p-960; }
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

template <bool F>
[[gnu::always_inline]] inline BoundedT<F> add(const BoundedT<F>& a, double bh, double bl, double eb) {
  double s1, s2, t1, t2;
  two_sum(a.hi, bh, s1, s2);
  two_sum(a.lo, bl, t1, t2);
  s2 += t1;
  quick_two_sum(s1, s2, s1, s2);
  s2 += t2;
  BoundedT<F> r;
  quick_two_sum(s1, s2, r.hi, r.lo);
  r.err = a.err + eb + U * r.mag();
  return r;
}

// a·b = p + e exactly: with Fma, e = fma(a, b, −p) (2 operations; only in code compiled for
// FMA); without, Dekker's split (17 operations, inline, where std::fma would be a libm call
// without -mfma; -ffp-contract=off keeps GCC from fusing its products). Both are exact
// unless a·b over- or underflows (the same cases for both); values here stay far from
// overflow, a non-finite result fails the filter, and the error term's underflow is covered
// by the absolute slack T (see the top).
template <bool Fma = false>
[[gnu::always_inline]] inline void two_prod(double a, double b, double& p, double& e) {
  p = a * b;
  if constexpr (Fma) {
    e = std::fma(a, b, -p);
  } else {
    constexpr double split = 134217729.0;  // 2^27 + 1
    const double ta = split * a, ah = ta - (ta - a), al = a - ah;
    const double tb = split * b, bh = tb - (tb - b), bl = b - bh;
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  }
}

// Whether a product's underflow terms (T, see the top) are certainly 0: operands and result
// at least 2^-800 in magnitude, which rules out the first; the three bound products at least
// 2^-960, which rules out the second. One well-predicted branch in place of the ten
// conditions (they were ~14 % of a closest-feature face query's instructions, 2026-12-03);
// where it fails the conditions are evaluated as written, so the bound is the same double.
[[gnu::always_inline]] inline bool normal_product(double a, double b, double r) {
  return std::min(std::min(std::abs(a), std::abs(b)), std::abs(r)) >= 0x1p-800;
}

template <bool F>
[[gnu::always_inline]] inline BoundedT<F> mul(const BoundedT<F>& a, const BoundedT<F>& b) {
  double p, e;
  two_prod<F>(a.hi, b.hi, p, e);
  e += a.hi * b.lo + a.lo * b.hi;
  BoundedT<F> r;
  quick_two_sum(p, e, r.hi, r.lo);
  const double ab = a.mag() * b.err, ba = b.mag() * a.err, ee = a.err * b.err;
  r.err = ab + ba + ee + U * r.mag();
  if (!(normal_product(a.hi, b.hi, r.hi) && std::min(std::min(ab, ba), ee) >= 0x1p-960)) [[unlikely]]
    r.err = r.err + (a.hi != 0 && b.hi != 0 && (tiny(a.hi) || tiny(b.hi) || tiny(r.hi)) ? T : 0) +
            (bound_underflows(a.mag(), b.err) || bound_underflows(b.mag(), a.err) || bound_underflows(a.err, b.err) ? T : 0);
  return r;
}

// a·b for operands with error 0 (exact double pairs, e.g. differences of inputs): operator*
// with the terms that vanish then left out; the same value and the same bound.
template <bool F>
[[gnu::always_inline]] inline BoundedT<F> mul_exact(const BoundedT<F>& a, const BoundedT<F>& b) {
  double p, e;
  two_prod<F>(a.hi, b.hi, p, e);
  e += a.hi * b.lo + a.lo * b.hi;
  BoundedT<F> r;
  quick_two_sum(p, e, r.hi, r.lo);
  r.err = U * r.mag();
  if (!normal_product(a.hi, b.hi, r.hi)) [[unlikely]]
    r.err = r.err + (a.hi != 0 && b.hi != 0 && (tiny(a.hi) || tiny(b.hi) || tiny(r.hi)) ? T : 0);
  return r;
}

// On doubles (exact operands), as before the Fma parameter.
[[gnu::always_inline]] inline Bounded mul_exact(const Bounded& a, const Bounded& b) { return mul_exact<false>(a, b); }

template <bool F>
[[gnu::always_inline]] inline BoundedT<F> div(const BoundedT<F>& a, const BoundedT<F>& b) {
  using B = BoundedT<F>;
  // Long division: q1 + q2 + q3 with remainders computed by the accurate product.
  const double q1 = a.hi / b.hi;
  B r = a - B(b.hi, b.lo, 0) * B(q1);
  const double q2 = r.hi / b.hi;
  r = r - B(b.hi, b.lo, 0) * B(q2);
  const double q3 = r.hi / b.hi;
  B q;
  quick_two_sum(q1, q2, q.hi, q.lo);
  q = B(q.hi, q.lo, 0) + B(q3);
  const double bm = std::abs(b.hi) * (1 - 0x1p-50);
  const double num = a.err + q.mag() * b.err;
  const double spread = b.err < bm ? num / (bm - b.err) * (1 + 0x1p-50) : inf;
  q.err = b.err < bm ? spread + U * q.mag() + (a.hi != 0 && (tiny(a.hi) || tiny(q.hi)) ? T + T / bm : 0) +
                          (bound_underflows(q.mag(), b.err) || (num != 0 && spread < 0x1p-960) ? T + T / (bm - b.err) : 0)
                    : inf;
  return q;
}

template <bool F>
[[gnu::always_inline]] inline BoundedT<F> sqrt(const BoundedT<F>& a) {
  using B = BoundedT<F>;
  if (!(a.hi > 0)) return {0, 0, a.hi == 0 && a.err == 0 ? 0 : inf};
  const double x = std::sqrt(a.hi);
  // One Newton step in double-double from the double root: x + (a − x²)/(2x).
  const B x2 = B(x) * B(x);
  const B d = B(a.hi, a.lo, 0) - B(x2.hi, x2.lo, 0);
  B r;
  quick_two_sum(x, d.hi / (2 * x), r.hi, r.lo);
  const double spread = (a.err + (tiny(a.hi) ? T : 0)) / std::sqrt(a.hi * (1 - 0x1p-50)) * (1 + 0x1p-50);
  r.err = a.err < a.hi * (1 - 0x1p-50) ? spread + U * r.mag() + (tiny(a.hi) ? T : 0) + (a.err != 0 && spread < 0x1p-960 ? T : 0)
                                      : inf;
  return r;
}

template <bool F>
[[gnu::always_inline]] inline BoundedT<F> abs(const BoundedT<F>& a) { return a.hi < 0 || (a.hi == 0 && a.lo < 0) ? -a : a; }

// The value as an exact point (bound dropped): where an iteration evaluates next.
template <bool F>
[[gnu::always_inline]] inline BoundedT<F> point(const BoundedT<F>& a) { return {a.hi, a.lo, 0}; }

// The double every value within 2·err of hi + lo rounds to (to nearest), when there is one:
// the interval [v − 2err, v + 2err] contains no midpoint between doubles. NaN otherwise.
// The neighbours of a finite nonzero normal double (its bits ± 1; cheaper than nextafter).
[[gnu::always_inline]] inline double next_up(double d) {
  return std::bit_cast<double>(std::bit_cast<std::int64_t>(d) + (d > 0 ? 1 : -1));
}
[[gnu::always_inline]] inline double next_down(double d) {
  return std::bit_cast<double>(std::bit_cast<std::int64_t>(d) + (d > 0 ? -1 : 1));
}

template <bool F>
[[gnu::always_inline]] inline double certain_double(const BoundedT<F>& a) {
  const double d = a.hi;
  if (!std::isfinite(d) || !std::isfinite(a.err) || std::abs(d) < 0x1p-960) return std::nan("");
  const double below = (d - next_down(d)) / 2, above = (next_up(d) - d) / 2;
  const double room = std::min(below, above) * (1 - 0x1p-20);
  return std::abs(a.lo) + 2 * a.err < room ? d : std::nan("");
}

// A value known exactly to be zero (error bound 0: it came from exact zeros only).
template <bool F>
[[gnu::always_inline]] inline bool exact_zero(const BoundedT<F>& a) { return a.hi == 0 && a.lo == 0 && a.err == 0; }

// The smallest double ≥ every value within 2·err of hi + lo, when that is one double (the
// upward rounding of margins, exact::up_to_double): the interval lies in (prev(d), d]. NaN
// otherwise; +0 for an exact zero.
template <bool F>
[[gnu::always_inline]] inline double certain_up_double(const BoundedT<F>& a) {
  if (exact_zero(a)) return 0;
  const double d = a.hi;
  if (!std::isfinite(d) || !std::isfinite(a.err) || std::abs(d) < 0x1p-960) return std::nan("");
  const double below = (d - next_down(d)) * (1 - 0x1p-20), above = (next_up(d) - d) * (1 - 0x1p-20);
  const double slack = 2 * a.err;  // fl(lo ± slack) keeps the sign of lo ± slack
  if (a.lo + slack <= 0 && a.lo - slack > -below) return d;
  if (a.lo - slack > 0 && a.lo + slack <= above) return next_up(d);
  return std::nan("");
}

// x·2^k, exact while the result is a normal double (a product with the power of two when
// that is a normal double itself: cheaper than std::ldexp).
[[gnu::always_inline]] inline double scale2(double x, int k) {
  if (k >= -1022 && k <= 1023) return x * std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
  return std::ldexp(x, k);
}

// floor(log2 |x|) of a finite nonzero x: from the exponent bits for normals (std::ilogb is
// a libm call; this runs per output and per comparison), std::ilogb for subnormals.
[[gnu::always_inline]] inline int exponent(double x) {
  const int biased = static_cast<int>((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff);
  return biased != 0 ? biased - 1023 : std::ilogb(x);
}

// Scaling by 2^k (k an integer) is exact in every part while nothing under- or overflows;
// the caller checks the results it keeps.
template <bool F>
[[gnu::always_inline]] inline BoundedT<F> ldexp(const BoundedT<F>& a, int k) {
  return {std::ldexp(a.hi, k), std::ldexp(a.lo, k), std::ldexp(a.err, k)};
}

// The certified order of two values: -1 (a < b for every value in both enclosures), +1
// (a > b), 0 when the enclosures overlap (undecided; ties included).
template <bool F>
[[gnu::always_inline]] inline int certain_compare(const BoundedT<F>& a, const BoundedT<F>& b) {
  const BoundedT<F> d = a - b;
  if (!(std::isfinite(d.hi) && std::isfinite(d.err))) return 0;
  if (d.hi + d.lo * (1 + 0x1p-50) > 2 * d.err && d.hi > 0) return 1;
  if (-(d.hi + d.lo * (1 + 0x1p-50)) > 2 * d.err && d.hi < 0) return -1;
  return 0;
}

// A sum of finite doubles, enclosed: Shewchuk's grow-expansion turns the terms into an
// exact, nonoverlapping expansion of increasing components (no cancellation is left), whose
// double-double sum then carries only its own rounding. The sign of hi is the exact sign of
// the sum (that of its largest component), and an exact zero has error 0. For ties and
// near-ties that enclosures of the summands cannot decide.
template <std::size_t N>
Bounded expansion_sum(const std::array<double, N>& terms) {
  std::array<double, N> e{};
  std::size_t m = 0;
  for (const double b : terms) {
    if (b == 0) continue;  // adds nothing (zero terms are common: exact differences, ties)
    double q = b;
    for (std::size_t i = 0; i < m; ++i) {
      double s, h;
      two_sum(q, e[i], s, h);
      e[i] = h;
      q = s;
    }
    e[m++] = q;
  }
  Bounded sum(0);
  for (std::size_t i = 0; i < m; ++i)
    if (e[i] != 0) sum = sum + Bounded(e[i]);
  return sum;
}

// a·b as two doubles p + e exactly, when that holds (no overflow: |a·b| < 2^1000; no
// underflow of the error term: |a·b| ≥ 2^-960, or a product that is exactly 0); false
// otherwise.
[[gnu::always_inline]] inline bool exact_product(double a, double b, double& p, double& e) {
  if (!(std::abs(a) < 0x1p995 && std::abs(b) < 0x1p995)) return false;
  two_prod(a, b, p, e);
  return a == 0 || b == 0 || (std::abs(p) >= 0x1p-960 && std::abs(p) < 0x1p1000);
}

// 2·atanh(u) = ln((1 + u)/(1 − u)) by its series 2·Σ_{i<n} u^(2i+1)/(2i+1), plus the bound
// of the series' remainder, 2|u|^(2n+1)/((2n+1)(1 − u²)), for |u| < 1/2.
inline Bounded two_atanh(const Bounded& u, int n) {
  struct Reciprocals {  // 1/(2i + 1), enclosed
    std::array<Bounded, 48> r;
    Reciprocals() {
      for (int i = 0; i < 48; ++i) r[i] = Bounded(1) / Bounded(2 * i + 1);
    }
  };
  static const Reciprocals inv;
  if (n > 48) return {0, 0, inf};
  const Bounded u2 = u * u;
  Bounded sum = inv.r[n - 1];
  for (int i = n - 2; i >= 0; --i) sum = inv.r[i] + u2 * sum;
  Bounded r = u * sum;
  r = {2 * r.hi, 2 * r.lo, 2 * r.err};  // exact
  const double um = std::abs(u.hi) * (1 + 0x1p-50) + u.err;
  if (!(um < 0.5)) return {r.hi, r.lo, inf};
  double power = um;  // |u|^(2n+1), rounded up by the factor below
  for (int i = 0; i < n; ++i) power *= um * um;
  r.err += 2 * power / ((2 * n + 1) * (1 - um * um)) * (1 + 0x1p-40);
  return r;
}

// ln(x/y) for positive doubles x, y whose quotient is a normal double (the caller keeps
// them there). ln is transcendental: the exact paths enclose it with MPFR (Ziv loop); here
// it is double-double with a bound. With x/y = 2^k·m, m in [0.75, 1.5), c = j/64 the nearest
// step to m: ln(x/y) = k·ln 2 + ln c + 2·atanh(u), u = (x·2^-k − c·y)/(x·2^-k + c·y),
// |u| < 0.0053, so eight series terms leave a remainder below 2^-128. Numerator and
// denominator of u are exact sums of exact products (x·2^-k, j·y/64 are exact), so u is
// accurate to ~2^-100 relative even when x/y is within an ulp of 1. ln 2 and ln c come
// from the same series (static tables, their bounds carried).
inline Bounded log_ratio(double x, double y) {
  struct Tables {
    Bounded ln2;
    std::array<Bounded, 97> ln_c;  // ln(j/64), j = 48..96
    Tables() {
      ln2 = two_atanh(Bounded(1) / Bounded(3), 40);  // (1 + 1/3)/(1 − 1/3) = 2
      for (int j = 48; j <= 96; ++j)                 // |u| = |j − 64|/(j + 64) ≤ 0.2
        ln_c[j] = two_atanh((Bounded(j) - Bounded(64)) / (Bounded(j) + Bounded(64)), 30);
    }
  };
  static const Tables t;
  const double r0 = x / y;
  if (!(r0 >= 0x1p-1000 && r0 <= 0x1p1000) || !std::isfinite(x) || !std::isfinite(y)) return {0, 0, inf};
  int k = std::ilogb(r0);
  double m = std::ldexp(r0, -k);
  if (m >= 1.5) ++k, m /= 2;
  const int j = static_cast<int>(std::nearbyint(m * 64));
  const double xs = std::ldexp(x, -k);
  double p, e;
  two_prod(static_cast<double>(j), y, p, e);
  const Bounded cy(p / 64, e / 64, 0);  // exact: j·y/64 (no underflow for normal y ≥ 2^-900)
  if (!(std::abs(y) >= 0x1p-900 && std::abs(xs) >= 0x1p-900)) return {0, 0, inf};
  const Bounded u = (Bounded(xs) - cy) / (Bounded(xs) + cy);
  return Bounded(k) * t.ln2 + t.ln_c[j] + two_atanh(u, 8);
}

}  // namespace contactbench::reference::dd

namespace contactbench::reference::dd {

// ln(x/y) as log_ratio (same reduction: x/y = 2^k·m, c = j/64 the step nearest m,
// u = (x·2^-k − c·y)/(x·2^-k + c·y) in double-double, ln 2 and ln c from tables), but only
// the series' first term 2u in double-double: the rest, C(u) = 2atanh(u) − 2u =
// Σ_{i≥1} 2u^(2i+1)/(2i+1), is at most u²/3·1.0001 of |2u| (|u| < 2^-7), so plain double
// evaluates it to ≈ 2^-50·2^-15 of |2u|: the enclosure is ≈ 2^-65 relative instead of
// 2^-100 (a fallback rate of about 2^-11 at worst, at a third of the cost). Its bound, with
// a = u.hi, eu = |u.lo| + u.err ≥ |u − a| and ū = |a| + eu < 2^-7:
//   truncation after the u⁹ term, at a: 2|a|^11/(11(1 − a²)) < |a|^11/5;
//   a for u: |C(u) − C(a)| ≤ max|C'|·eu = 2ū²/(1 − ū²)·eu < 2.001ū²·eu;
//   the double evaluation c = a·t·q, t = fl(a²), q = 2/3 + t(2/5 + t(2/7 + t·2/9)):
//   q's coefficients and sum cost ≤ 2.01 ulp-units u = 2^-53 (the inner terms are below
//   t·0.41 ≤ 2^-15 of q, so theirs count 2^-15 as much), a·t and ·q three roundings more,
//   ≤ 6.01u·|c| in all; taken as 2^-50|c| (8u);
//   plus T for an underflowing a³ (|u| ≥ 2^-108 unless u = 0, so never in practice).
// Each term is computed rounded to nearest; the sum times (1 + 2^-40) covers those
// roundings (fewer than 20 of 2^-53 each). The tables are log_ratio's own enclosures at
// points where its u is exactly 0: ln 2 = log_ratio(2, 1), ln(j/64) = log_ratio(j, 64)
// (ln(96/64) as ln 2 + ln(48/64): its m = 1.5 reduces to 0.75).
inline Bounded log_ratio_short(double x, double y) {
  struct Tables {
    Bounded ln2;
    std::array<Bounded, 97> ln_c;
    Tables() : ln2(log_ratio(2, 1)) {
      for (int j = 48; j <= 96; ++j) ln_c[j] = log_ratio(j, 64);
    }
  };
  static const Tables t;
  const double r0 = x / y;
  if (!(r0 >= 0x1p-1000 && r0 <= 0x1p1000) || !std::isfinite(x) || !std::isfinite(y) ||
      !(std::abs(y) >= 0x1p-900))
    return {0, 0, inf};
  // r0 is normal: its exponent and mantissa from its bits (no libm calls).
  const auto bits = std::bit_cast<std::uint64_t>(r0);
  int k = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  double m = std::bit_cast<double>((bits & 0x800fffffffffffffULL) | 0x3ff0000000000000ULL);  // [1, 2)
  if (m >= 1.5) ++k, m /= 2;
  const int j = static_cast<int>(m * 64 + 0.5);  // any j in [48, 96] is valid: |u| is checked
  const double xs = scale2(x, -k);
  if (!(std::abs(xs) >= 0x1p-900)) return {0, 0, inf};  // x·2^-k exact only when normal
  double p, e;
  two_prod(static_cast<double>(j), y, p, e);
  const Bounded cy(p / 64, e / 64, 0);  // exact: j·y/64 (y ≥ 2^-900: no underflow)
  const Bounded u = (Bounded(xs) - cy) / (Bounded(xs) + cy);
  const double a = u.hi, eu = std::abs(u.lo) + u.err, ubar = (std::abs(a) + eu) * (1 + 0x1p-50);
  if (!(ubar < 0x1p-7)) return {0, 0, inf};
  const double tt = a * a;
  const double q = 2.0 / 3 + tt * (2.0 / 5 + tt * (2.0 / 7 + tt * (2.0 / 9)));
  const double c = a * tt * q;
  const double a11 = std::abs(a) * (tt * tt) * (tt * tt) * tt * (1 + 0x1p-48);
  const double ec = (0x1p-50 * std::abs(c) + 2.001 * ubar * ubar * eu + a11 / 5 + T) * (1 + 0x1p-40);
  const Bounded lu = Bounded(2 * u.hi, 2 * u.lo, 2 * u.err) + Bounded(c, 0, ec);  // 2u exact
  const Bounded lc = k == 0 ? t.ln_c[j] : Bounded(k) * t.ln2 + t.ln_c[j];
  return lc + lu;
}

}  // namespace contactbench::reference::dd
