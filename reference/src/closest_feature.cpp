// Reference closest feature: ../shared/sources/pfc-faceted-walls.txt (facet contact), with
// the regions of cases/closest_feature.hpp.
//
// Every input double is m·2^E with an integer m, so after scaling by a common power of two
// the whole query is integer: each decision is the sign of an integer polynomial and each
// construction an integer fraction. GMP integers (no gcd normalisation, unlike rationals)
// keep the exact stage a few microseconds. Signs are first tried with CGAL interval
// arithmetic (the filter); only the values the decided region needs are then computed
// exactly, because its constructions and margin need them anyway.
#include "reference/closest_feature.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/double_double.hpp"
#include "reference/src/exact_vector.hpp"
#include "reference/src/filtered_sign.hpp"
#include "reference/src/lazy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace contactbench::reference {
namespace {

using cases::Region;
using exact::Interval;
using exact::IntegerPoints;

template <class T>
using V3 = exact::Vector3<T>;

// The nine decision values of the region rule, for any exact-enough number type:
// dn[k] = (p-v_k)·e_k, dp[k] = (p-v_k)·(v_{k-1}-v_k), s[k] = n·(e_k × (p-v_k)),
// with e_k = v_{k+1} - v_k and n = e_0 × (v_2 - v_0).
template <class T>
struct Decisions {
  std::array<T, 3> dn, dp, s;
};

template <class T>
Decisions<T> decisions(const std::array<V3<T>, 4>& v) {
  Decisions<T> out;
  const V3<T>* vert[3] = {&v[1], &v[2], &v[3]};
  std::array<V3<T>, 3> e, w;
  for (int k = 0; k < 3; ++k) {
    e[k] = *vert[(k + 1) % 3] - *vert[k];
    w[k] = v[0] - *vert[k];
  }
  const V3<T> n = cross(e[0], *vert[2] - *vert[0]);
  for (int k = 0; k < 3; ++k) {
    out.dn[k] = dot(w[k], e[k]);
    out.dp[k] = -dot(w[k], e[(k + 2) % 3]);
    out.s[k] = dot(n, cross(e[k], w[k]));
  }
  return out;
}

// The region rule (see cases::Region): vertex k iff dn[k] <= 0 and dp[k] <= 0; open edge
// k iff s[k] <= 0, dn[k] > 0 and dp[k+1] > 0; open face otherwise.
// The interval filter's verdict: the region, which decision values are exactly 0 (an
// interval [0, 0]: every operation on the way was exact), for the margin.
struct IntervalVerdict {
  Region region;
  std::array<bool, 3> zero_dn, zero_dp, zero_s;
};

// In intervals it gives up (nullopt) as soon as a needed sign is uncertain, and when the
// normal n may be 0 (the exact path then decides whether the triangle is collinear).
// Rounding must be protected (exact::ProtectRounding) by the caller.
[[gnu::noinline]] std::optional<IntervalVerdict> interval_region(const std::array<cases::Vec3, 4>& src) {
  std::array<V3<Interval>, 4> v;
  for (int i = 0; i < 4; ++i) v[i] = V3<Interval>::of(src[i]);
  const V3<Interval> n = cross(v[2] - v[1], v[3] - v[1]);
  auto nonzero = [](const Interval& x) { return CGAL::certainly(x != 0); };
  if (!nonzero(n[0]) && !nonzero(n[1]) && !nonzero(n[2])) return std::nullopt;
  const auto d = decisions(v);
  std::array<CGAL::Uncertain<CGAL::Sign>, 3> dn, dp, s;
  IntervalVerdict out{};
  auto zero = [](CGAL::Uncertain<CGAL::Sign> x) { return CGAL::is_certain(x) && CGAL::get_certain(x) == CGAL::ZERO; };
  for (int k = 0; k < 3; ++k) {
    dn[k] = CGAL::sign(d.dn[k]);
    dp[k] = CGAL::sign(d.dp[k]);
    s[k] = CGAL::sign(d.s[k]);
    out.zero_dn[k] = zero(dn[k]);
    out.zero_dp[k] = zero(dp[k]);
    out.zero_s[k] = zero(s[k]);
  }
  // Compare Uncertain<Sign> with 0 through Uncertain<bool>.
  auto le0 = [](CGAL::Uncertain<CGAL::Sign> x) { return x != CGAL::POSITIVE; };
  auto gt0 = [](CGAL::Uncertain<CGAL::Sign> x) { return x == CGAL::POSITIVE; };
  for (int k = 0; k < 3; ++k) {
    const auto is_vertex = le0(dn[k]) & le0(dp[k]);
    if (!CGAL::is_certain(is_vertex)) return std::nullopt;
    if (CGAL::get_certain(is_vertex)) {
      out.region = static_cast<Region>(4 + k);
      return out;
    }
  }
  for (int k = 0; k < 3; ++k) {
    const auto is_edge = le0(s[k]) & gt0(dn[k]) & gt0(dp[(k + 1) % 3]);
    if (!CGAL::is_certain(is_edge)) return std::nullopt;
    if (CGAL::get_certain(is_edge)) {
      out.region = static_cast<Region>(1 + k);
      return out;
    }
  }
  out.region = Region::face;
  return out;
}

Region exact_region(const Decisions<mpz_class>& d) {
  for (int k = 0; k < 3; ++k)
    if (sgn(d.dn[k]) <= 0 && sgn(d.dp[k]) <= 0) return static_cast<Region>(4 + k);
  for (int k = 0; k < 3; ++k)
    if (sgn(d.s[k]) <= 0 && sgn(d.dn[k]) > 0 && sgn(d.dp[(k + 1) % 3]) > 0)
      return static_cast<Region>(1 + k);
  return Region::face;
}

// The squared distance from p to the region's feature, on the query as integers (p, a, b, c
// times 2^-exp), rounded to the nearest double: vertex k |w|², open edge k
// (|w|²|e|² − dn²)/|e|², face h²/|n|² (w = p − v_k, e = v_(k+1) − v_k, dn = w·e,
// n = (b − a) × (c − a), h = n·(p − a)). Only what the region needs is computed: the
// filtered stage's answers call it alone where their squared distance could not be rounded.
double exact_squared_distance(const IntegerPoints<4>& iq, Region region) {
  const auto& v = iq.v;
  const int kind = static_cast<int>(region);
  if (kind >= 4) {
    const auto w = v[0] - v[1 + (kind - 4)];
    return exact::quotient_to_double(dot(w, w), 1, 2 * iq.exp);
  }
  if (kind >= 1) {
    const int k = kind - 1;
    const auto e = v[1 + (k + 1) % 3] - v[1 + k], w = v[0] - v[1 + k];
    const mpz_class dn = dot(w, e), e2 = dot(e, e);
    return exact::quotient_to_double(dot(w, w) * e2 - dn * dn, e2, 2 * iq.exp);
  }
  const V3<mpz_class> n = cross(v[2] - v[1], v[3] - v[1]);
  const mpz_class h = dot(n, v[0] - v[1]);
  return exact::quotient_to_double(h * h, dot(n, n), 2 * iq.exp);
}

}  // namespace

cases::ClosestFeatureResult closest_feature_exact(const cases::ClosestFeatureQuery& q) {
  const IntegerPoints<4> iq = exact::to_integers<4, cases::Vec3>({&q.p, &q.a, &q.b, &q.c});
  const auto& v = iq.v;
  const V3<mpz_class>* vert[3] = {&v[1], &v[2], &v[3]};
  std::array<V3<mpz_class>, 3> e;
  for (int k = 0; k < 3; ++k) e[k] = *vert[(k + 1) % 3] - *vert[k];
  const V3<mpz_class> n = cross(e[0], *vert[2] - *vert[0]);
  const mpz_class n2 = dot(n, n);
  if (sgn(n2) == 0) throw cases::InputError("closest_feature: degenerate triangle (collinear vertices)");

  const Region region = exact::filtered(
      [&]() -> std::optional<Region> {
        if (auto verdict = interval_region({q.p, q.a, q.b, q.c})) return verdict->region;
        return std::nullopt;
      },
      [&] { return exact_region(decisions(v)); });

  cases::ClosestFeatureResult r;
  r.region = region;
  const int kind = static_cast<int>(region);
  // Margin terms value^2 / norm^2 (squared distances to the region's bounding planes).
  std::vector<std::pair<mpz_class, mpz_class>> terms;
  if (kind >= 4) {  // vertex k: closest point is the vertex itself
    const int k = kind - 4;
    const auto w = v[0] - *vert[k];
    const mpz_class dn = dot(w, e[k]), dp = -dot(w, e[(k + 2) % 3]);
    terms.push_back({dn * dn, dot(e[k], e[k])});
    terms.push_back({dp * dp, dot(e[(k + 2) % 3], e[(k + 2) % 3])});
    r.point = k == 0 ? q.a : (k == 1 ? q.b : q.c);
  } else if (kind >= 1) {  // open edge k: v_k + t e_k, t = dn / |e_k|^2
    const int k = kind - 1;
    const auto w = v[0] - *vert[k];
    const mpz_class dn = dot(w, e[k]), e2 = dot(e[k], e[k]);
    const mpz_class s = dot(n, cross(e[k], w)), rest = e2 - dn;
    terms.push_back({s * s, n2 * e2});
    terms.push_back({dn * dn, e2});
    terms.push_back({rest * rest, e2});
    for (int i = 0; i < 3; ++i)
      r.point[i] = exact::quotient_to_double((*vert[k])[i] * e2 + dn * e[k][i], e2, iq.exp);
  } else {  // open face: p minus its offset along n
    const auto w = v[0] - *vert[0];
    const mpz_class h = dot(n, w);
    for (int k = 0; k < 3; ++k) {
      const auto wk = v[0] - *vert[k];
      const mpz_class s = dot(n, cross(e[k], wk));
      terms.push_back({s * s, n2 * dot(e[k], e[k])});
    }
    for (int i = 0; i < 3; ++i) r.point[i] = exact::quotient_to_double(v[0][i] * n2 - h * n[i], n2, iq.exp);
  }
  r.squared_distance = exact_squared_distance(iq, region);
  // Smallest term, compared exactly by cross-multiplication; then relative to L^2.
  std::size_t best = 0;
  for (std::size_t i = 1; i < terms.size(); ++i)
    if (terms[i].first * terms[best].second < terms[best].first * terms[i].second) best = i;
  mpz_class L2 = 0;
  for (int k = 0; k < 3; ++k) L2 = std::max(L2, mpz_class(dot(e[k], e[k])));
  r.margin = exact::sqrt_up_to_double(terms[best].first, terms[best].second * L2);
  return r;
}

namespace {

using dd::BoundedT;

// The query times 2^k, its largest coordinate in [1, 2), when that scaling is exact: it is
// unless a coordinate lands in the subnormal range (a query spanning more than ~2^1000).
// Signs and the roundings of the constructions commute with it (the roundings through
// `unscaled`); it keeps the double-double stage away from under- and overflow for queries
// at 1e-300, 1e300 and in the subnormal range too (k up to 1074: a subnormal coordinate
// times 2^k is exact, ldexp then takes two steps). Written into v (p, a, b, c) and k; false
// when the scaling is not exact. (In place: a returned copy of the just-written array
// stalls on store forwarding, see stage_outputs.)
bool scaled(const cases::ClosestFeatureQuery& q, std::array<cases::Vec3, 4>& v, int& k) {
  const cases::Vec3* src[4] = {&q.p, &q.a, &q.b, &q.c};
  double largest = 0;
  for (const auto* x : src) largest = std::max(largest, x->cwiseAbs().maxCoeff());
  if (!(largest > 0) || !std::isfinite(largest)) return false;
  k = -dd::exponent(largest);  // in [-1023, 1074]; std::ilogb's value without its libm call
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 3; ++i) {
      const double x = (*src[j])[i], y = dd::scale2(x, k);  // exact unless it lands in the subnormal range
      if (std::abs(y) < 0x1p-1022 && x != 0) return false;
      v[j][i] = y;
    }
  return true;
}

// Enclosures of min and max of two enclosed values. When the enclosures are ordered for
// certain (dd::certain_compare), the exact min (max) is the smaller (larger) value itself:
// its own enclosure. Otherwise the centre of the smaller (larger) one and the larger error
// (the true min lies in [min of lower ends, min of upper ends]). The first case matters for
// terms of very different sizes (a margin term 1e-20 next to one near 1: the max error
// would be ~1e-30, far too wide for the small one to round).
template <bool F>
BoundedT<F> enclosed_min(const BoundedT<F>& a, const BoundedT<F>& b) {
  const int order = dd::certain_compare(a, b);
  if (order != 0) return order < 0 ? a : b;
  BoundedT<F> m = a < b ? a : b;
  m.err = std::max(a.err, b.err);
  return m;
}
template <bool F>
BoundedT<F> enclosed_max(const BoundedT<F>& a, const BoundedT<F>& b) {
  const int order = dd::certain_compare(a, b);
  if (order != 0) return order > 0 ? a : b;
  BoundedT<F> m = a < b ? b : a;
  m.err = std::max(a.err, b.err);
  return m;
}

// The nearest double (ties to even, IEEE: overflow to ±inf, gradual underflow to
// subnormals and ±0) to x·2^-k, x an enclosure on the scaled query, when every value of the
// enclosure [v − 2err, v + 2err] (v = hi + lo) rounds to that one double; NaN otherwise.
// +0 for an exact zero (the exact path's 0 for a zero numerator). Three ranges of the
// result's exponent E = ilogb(hi) − k:
// - E ≥ −1020: a 53-bit rounding (dd::certain_double) times 2^-k is exact, or ±inf exactly
//   when the exact value is ≥ 2^1024(1 − 2^-54) (53-bit rounding with unbounded exponent
//   reaches 2^1024 just then);
// - below: the result is a multiple of 2^-1074 (uniform up to 2^-1021, subnormals
//   included), so the rounding is to the nearest integer of x·2^(1074−k): certified when
//   the enclosure stays within 1/2 of it; a result 0 takes the sign of the exact value,
//   which must then be certain. The scaling by 2^(1074−k) is exact unless it underflows
//   (when k > 1074 + 1022 + ilogb: then it loses < 2^-1074 per part, which the absolute slack
//   2^-1000 covers).
template <bool F>
double unscaled(const BoundedT<F>& x, int k) {
  if (dd::exact_zero(x)) return 0;
  if (!std::isfinite(x.hi) || !std::isfinite(x.err) || x.hi == 0) return std::nan("");
  if (dd::exponent(x.hi) - k >= -1020) {
    const double y = dd::scale2(dd::certain_double(x), -k);
    return std::isnan(y) || std::abs(y) >= 0x1p-1022 ? y : std::nan("");
  }
  const int s = 1074 - k;
  const double m = dd::scale2(x.hi, s), l = dd::scale2(x.lo, s), e = dd::scale2(x.err, s);
  const double r = std::nearbyint(m);  // |m| < 2^54: the integer nearest hi, ties to even
  const double off = std::abs((m - r) + l) + 2 * e + 0x1p-1000;  // m − r exact (|m − r| ≤ 1/2)
  if (!(off < 0.5 * (1 - 0x1p-20))) return std::nan("");
  if (r != 0) return dd::scale2(r, -1074);
  // Rounds to zero: the sign of the exact value, certain when the enclosure excludes 0
  // (|lo| ≤ ulp(hi)/2: |hi + lo| ≥ |hi|(1 − 2^-53); checked on the scaled parts, which do
  // not underflow.)
  return std::abs(x.hi) * (1 - 0x1p-50) > 2 * x.err ? std::copysign(0.0, x.hi) : std::nan("");
}

// Exact zeros the double-double bounds cannot see (they never shrink to 0 after a product):
// p in the triangle's plane, p on edge j's line, certified by intervals that are exactly
// [0, 0] (every operation on the way exact, as on the degenerate generator's grids).
[[gnu::noinline]] bool in_plane(const std::array<cases::Vec3, 4>& src) {
  exact::ProtectRounding guard;
  std::array<V3<Interval>, 4> v;
  for (int i = 0; i < 4; ++i) v[i] = V3<Interval>::of(src[i]);
  const Interval h = dot(cross(v[2] - v[1], v[3] - v[1]), v[0] - v[1]);
  return CGAL::certainly(h == 0);
}
[[gnu::noinline]] bool on_edge_line(const std::array<cases::Vec3, 4>& src, int j) {
  exact::ProtectRounding guard;
  const V3<Interval> a = V3<Interval>::of(src[1 + j]), b = V3<Interval>::of(src[1 + (j + 1) % 3]);
  const V3<Interval> c = cross(V3<Interval>::of(src[0]) - a, b - a);
  return CGAL::certainly(c[0] == 0) && CGAL::certainly(c[1] == 0) && CGAL::certainly(c[2] == 0);
}

// A closest-point coordinate that is exactly 0 (axis-aligned and grid queries): its
// enclosure straddles 0, so `unscaled` cannot round it, while the exact path gives +0 (a zero
// numerator). Certified by intervals that are exactly [0, 0] on the numerator of the exact
// path's quotient: face p_i·|n|² − h·n_i, edge j v_i·|e_j|² + dn·e_i.
[[gnu::noinline]] bool face_coordinate_zero(const std::array<cases::Vec3, 4>& src, int i) {
  exact::ProtectRounding guard;
  std::array<V3<Interval>, 4> v;
  for (int k = 0; k < 4; ++k) v[k] = V3<Interval>::of(src[k]);
  const V3<Interval> n = cross(v[2] - v[1], v[3] - v[1]);
  const Interval num = v[0][i] * dot(n, n) - dot(n, v[0] - v[1]) * n[i];
  return CGAL::certainly(num == 0);
}
[[gnu::noinline]] bool edge_coordinate_zero(const std::array<cases::Vec3, 4>& src, int j, int i) {
  exact::ProtectRounding guard;
  const V3<Interval> a = V3<Interval>::of(src[1 + j]), e = V3<Interval>::of(src[1 + (j + 1) % 3]) - a;
  const Interval num = a[i] * dot(e, e) + dot(V3<Interval>::of(src[0]) - a, e) * e[i];
  return CGAL::certainly(num == 0);
}

// The plain-double stage in front of the interval filter: the nine decision values in
// double with a semi-static bound on their rounding error (the stage decides a sign when
// |value| > bound), on the scaled query (largest coordinate in [1, 2)). With u = 2^-53 and
// inputs exact: a difference carries relative error ≤ u; a cross component
// a_j b_k − a_k b_j of differences errs by ≤ γ4·P ≤ 4.01u·P̂ (P = |a_j b_k| + |a_k b_j|,
// P̂ its computed value, γn = nu/(1 − nu)); a dot of differences w·e by
// ≤ (2u + γ3)Σ|w_i e_i| < 5.01u·Σ̂; s = n·(e × w), a dot of two cross products, by
// ≤ (2γ4 + γ3)Σ P_n P_c (1 + O(u)) < 12u·Σ̂. The constants used (8u, 8u, 16u) leave room
// for the rounding of the bounds themselves. Every value is below 2^12 on the scaled query,
// so what underflow can lose (≤ 2^-1075 per product, times factors < 2^11) is covered by
// the absolute term 2^-1050. An exact zero is never decided here (the interval filter
// sees those): so when this stage decides, no decision value the region's margin needs is
// zero, and the region is the exact one (each decided sign is).
constexpr double plain_u = 0x1p-53, plain_floor = 0x1p-1050;
using Plain3 = std::array<double, 3>;

double pdot(const Plain3& a, const Plain3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double pdot_abs(const Plain3& a, const Plain3& b) {
  return std::abs(a[0] * b[0]) + std::abs(a[1] * b[1]) + std::abs(a[2] * b[2]);
}
Plain3 pcross(const Plain3& a, const Plain3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Plain3 pcross_abs(const Plain3& a, const Plain3& b) {  // the P̂ of each component
  return {std::abs(a[1] * b[2]) + std::abs(a[2] * b[1]), std::abs(a[2] * b[0]) + std::abs(a[0] * b[2]),
          std::abs(a[0] * b[1]) + std::abs(a[1] * b[0])};
}

// A decision value, its error bound and its certified sign (+1, -1; 0: undecided); `mag`
// is the computed Σ|…| of its formula (the bound's P̂ or Σ̂), which the double-double stage's
// static bounds reuse.
struct PlainValue {
  double v = 0, bound = 0, mag = 0;
  int sign = 0;
  void set(double value, double m, double units) {
    v = value;
    mag = m;
    bound = units * plain_u * m + plain_floor;
    sign = int(v > bound) - int(-v > bound);  // branch-free: random signs mispredict
  }
};

struct PlainStage {
  std::array<Plain3, 3> e, w;
  Plain3 n, n_abs;
  std::array<PlainValue, 3> dn, dp, s;
  std::array<double, 3> e2;  // |e_j|^2, relative error < 6u
  double n2;                  // |n|^2, relative error < 2^-43 when normal_conditioned()

  explicit PlainStage(const std::array<cases::Vec3, 4>& q) {
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        e[j][i] = q[1 + (j + 1) % 3][i] - q[1 + j][i];
        w[j][i] = q[0][i] - q[1 + j][i];
      }
    const Plain3 f = {-e[2][0], -e[2][1], -e[2][2]};  // v_2 - v_0, exactly -e_2 in double
    n = pcross(e[0], f);
    n_abs = pcross_abs(e[0], f);
    n2 = pdot(n, n);
    for (int j = 0; j < 3; ++j) {
      e2[j] = pdot(e[j], e[j]);
      dn[j].set(pdot(w[j], e[j]), pdot_abs(w[j], e[j]), 8);
      const Plain3& prev = e[(j + 2) % 3];
      dp[j].set(-pdot(w[j], prev), pdot_abs(w[j], prev), 8);
    }
  }
  bool normal_nonzero() const {
    for (int i = 0; i < 3; ++i)
      if (std::abs(n[i]) > 8 * plain_u * n_abs[i] + plain_floor) return true;
    return false;
  }
  // |n̂ − n| ≤ 4.01u·|P̂_n| < 2^-45 |n̂|: the computed n2 then errs by < 2^-43 relative.
  bool normal_conditioned() const {
    return 5 * plain_u * (n_abs[0] + n_abs[1] + n_abs[2]) < 0x1p-45 * std::sqrt(n2);
  }
  const PlainValue& side(int j) {  // s_j, computed on first use
    if (s[j].bound == 0) {
      const Plain3 c = pcross(e[j], w[j]), c_abs = pcross_abs(e[j], w[j]);
      s[j].set(pdot(n, c), n_abs[0] * c_abs[0] + n_abs[1] * c_abs[1] + n_abs[2] * c_abs[2], 16);
    }
    return s[j];
  }
};

// The region rule of interval_region in three-valued logic on the certified signs; nullopt
// when a needed sign is undecided, when the normal may be 0, or when a decision value the
// region's margin needs is undecided (the face: all three s_k).
std::optional<Region> plain_region(PlainStage& st) {
  if (!st.normal_nonzero()) return std::nullopt;
  enum Truth { no, yes, unknown };
  auto le0 = [](const PlainValue& x) { return x.sign < 0 ? yes : (x.sign > 0 ? no : unknown); };
  auto gt0 = [](const PlainValue& x) { return x.sign > 0 ? yes : (x.sign < 0 ? no : unknown); };
  auto both = [](Truth a, Truth b) { return a == no || b == no ? no : (a == yes && b == yes ? yes : unknown); };
  for (int k = 0; k < 3; ++k) {
    const Truth t = both(le0(st.dn[k]), le0(st.dp[k]));
    if (t == unknown) return std::nullopt;
    if (t == yes) return static_cast<Region>(4 + k);
  }
  for (int k = 0; k < 3; ++k) {
    const Truth ends = both(gt0(st.dn[k]), gt0(st.dp[(k + 1) % 3]));
    if (ends == no) continue;
    const Truth t = both(le0(st.side(k)), ends);
    if (t == unknown) return std::nullopt;
    if (t == yes) return static_cast<Region>(1 + k);
  }
  for (int k = 0; k < 3; ++k)
    if (st.side(k).sign == 0) return std::nullopt;
  return Region::face;
}

// Of the margin terms value²/norm² (values certified nonzero by the plain stage, norms
// positive doubles with relative error < 2^-48), the one certainly below all others, when
// the plain enclosures [(|v| − b)²/N, (|v| + b)²/N], widened by 2^-40 relative for the
// roundings, separate it; -1 otherwise (the double-double stage then takes the enclosed
// minimum of all). Compared by cross-multiplication, (|v_b| + b_b)²·N_i against
// (|v_i| − b_i)²·N_b, without the six divisions (each side has at most five roundings of u
// and N's 2^-48, well inside the 2^-40). Values and norms outside [2^-200, 2^100] and
// [2^-400, 2^100] are not separated, so every square and product stays a normal double.
template <std::size_t M>
int certainly_least(const std::array<const PlainValue*, M>& value, const std::array<double, M>& norm2) {
  std::array<double, M> lo, hi;  // (|v| ∓ b)²: the term's ends times its norm
  for (std::size_t i = 0; i < M; ++i) {
    const double a = std::abs(value[i]->v);
    if (!(norm2[i] >= 0x1p-400 && norm2[i] <= 0x1p100 && a - value[i]->bound >= 0x1p-200 && a <= 0x1p100)) return -1;
    lo[i] = (a - value[i]->bound) * (a - value[i]->bound);
    hi[i] = (a + value[i]->bound) * (a + value[i]->bound);
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < M; ++i)
    if (hi[i] * norm2[best] < hi[best] * norm2[i]) best = i;
  for (std::size_t i = 0; i < M; ++i)
    if (i != best && !(hi[best] * norm2[i] * (1 + 0x1p-40) < lo[i] * norm2[best] * (1 - 0x1p-40))) return -1;
  return static_cast<int>(best);
}

// a + b for the static bounds only (see static_units): the high parts by two_sum, its error
// and the low parts added in double, then renormalised by two_sum (14 operations against
// dd::add's 20; ~5 % of a random query's time, 2026-12-02). With s + t = a.hi + b.hi exactly,
// v = fl(a.lo + b.lo), w = fl(t + v) and r = s + w exactly, r − (a + b) = (a.lo + b.lo)δ₁ +
// (t + v)δ₂ with |δ| ≤ u; since |lo| ≤ u|hi| for both operands and |t| ≤ u|s|, this is at
// most 3.0001u²(|a.hi| + |b.hi|) < 0.19U(|a| + |b|)(1 + 2u): a relative perturbation of each
// operand by less than U, as the static bounds' derivation needs. (The error is relative to
// the operands, not to the result as dd::add's is, so it has no running bound: err is set to
// inf, which certifies nothing unless a static bound replaces it.) Below 2^-1022 the two
// roundings lose at most 2^-1074 each in absolute terms, inside static_floor.
template <bool F>
[[gnu::always_inline]] inline BoundedT<F> static_sum(const BoundedT<F>& a, const BoundedT<F>& b) {
  double s, t;
  dd::two_sum(a.hi, b.hi, s, t);
  BoundedT<F> r;
  dd::two_sum(s, t + (a.lo + b.lo), r.hi, r.lo);
  r.err = dd::inf;
  return r;
}
// a + b: static_sum under the static bounds, dd::add with running bounds.
template <bool Static, bool F>
[[gnu::always_inline]] inline BoundedT<F> plus(const BoundedT<F>& a, const BoundedT<F>& b) {
  if constexpr (Static) return static_sum(a, b);
  else return a + b;
}

// dot and cross of vectors known exactly (differences of inputs as double pairs): the
// products' bounds need no propagated terms (dd::mul_exact). bdot: the dot of enclosed
// vectors. Summed left to right, as exact::dot.
template <bool Static, bool F>
BoundedT<F> edot(const V3<BoundedT<F>>& a, const V3<BoundedT<F>>& b) {
  using dd::mul_exact;
  return plus<Static>(plus<Static>(mul_exact(a[0], b[0]), mul_exact(a[1], b[1])), mul_exact(a[2], b[2]));
}
template <bool Static, bool F>
V3<BoundedT<F>> ecross(const V3<BoundedT<F>>& a, const V3<BoundedT<F>>& b) {
  using dd::mul_exact;
  return {plus<Static>(mul_exact(a[1], b[2]), -mul_exact(a[2], b[1])),
          plus<Static>(mul_exact(a[2], b[0]), -mul_exact(a[0], b[2])),
          plus<Static>(mul_exact(a[0], b[1]), -mul_exact(a[1], b[0]))};
}
template <bool Static, bool F>
BoundedT<F> bdot(const V3<BoundedT<F>>& a, const V3<BoundedT<F>>& b) {
  return plus<Static>(plus<Static>(a[0] * b[0], a[1] * b[1]), a[2] * b[2]);
}

// a/b enclosed as dd::operator/ encloses it, by one correction step instead of its
// three-term long division (a fifth of the operations; the division was a fifth of the
// stage's time). With x = a.hi + a.lo, y = b.hi + b.lo (|lo| ≤ u|hi|, u = 2^-53), away from
// under- and overflow:
//   q1 = fl(a.hi/b.hi), so |a.hi − b.hi·q1| ≤ u|b.hi·q1|; p + pe = b.hi·q1 exactly
//   (two_prod); a.hi − p is exact (Sterbenz: p is within a factor 1 ± 2u of a.hi);
//   ρ = x − y·q1 = ((a.hi − p) − pe) + (a.lo − b.lo·q1) exactly, |ρ| ≤ 3u|b.hi·q1|(1 + 2u);
//   its evaluation rounds four times: (· − pe) ≤ u²|b.hi q1|, b.lo·q1 ≤ u²|b.hi q1|,
//   (a.lo − ·) ≤ 2u²|b.hi q1|(1 + 2u), the final sum ≤ u·3u|b.hi q1|(1 + 3u): ρ̂ within
//   7.01u²|b.hi q1| of ρ;
//   q2 = fl(ρ̂/b.hi) against the exact rest ρ/y (x/y = q1 + ρ/y): ρ̂ for ρ 7.01u²|q1|, b.hi
//   for y |ρ|·|b.lo|/(|b.hi||y|) ≤ 3.01u²|q1|, the division's rounding u|q2| ≤ 3.01u²|q1|;
//   q1 + q2 by quick_two_sum, exact (|q2| ≤ 3.1u|q1|).
// So |x/y − (hi + lo)| ≤ 13.1u²|q1| ≤ 13.2u²|hi| < 2U|hi| (U = 16u²: a factor 2.4 of slack).
// The propagated part (operands' bounds) and the underflow terms are dd::operator/'s: a
// quotient, operand or result below 2^-800 adds T + T/|b| (each operation here then loses
// at most 2^-1075 in the numerator's units or the quotient's; a q1 that underflows leaves
// a.hi − p exact: p = 0, or q1 within a factor 2 of a.hi/b.hi). A zero b, or a bound of b
// reaching |b|, gives an infinite bound; overflow gives a non-finite hi: neither certifies.
template <bool F>
BoundedT<F> quotient(const BoundedT<F>& a, const BoundedT<F>& b) {
  const double q1 = a.hi / b.hi;
  double p, pe;
  dd::two_prod<F>(b.hi, q1, p, pe);
  const double rho = ((a.hi - p) - pe) + (a.lo - b.lo * q1);
  BoundedT<F> q;
  dd::quick_two_sum(q1, rho / b.hi, q.hi, q.lo);
  const double bm = std::abs(b.hi) * (1 - 0x1p-50);
  const double qb = q.mag() * b.err, num = a.err + qb;
  if (!(b.err < bm)) return {q.hi, q.lo, dd::inf};
  const double spread = num / (bm - b.err) * (1 + 0x1p-50);
  q.err = spread + 2 * dd::U * q.mag();
  // The underflow terms, as dd::mul's: certainly 0 (one branch) unless a value is tiny.
  if (!(std::min(std::abs(a.hi), std::abs(q.hi)) >= 0x1p-800 && std::min(qb, spread) >= 0x1p-960)) [[unlikely]]
    q.err = q.err + (a.hi != 0 && (dd::tiny(a.hi) || dd::tiny(q.hi)) ? dd::T + dd::T / bm : 0) +
            (dd::bound_underflows(q.mag(), b.err) || (num != 0 && spread < 0x1p-960) ? dd::T + dd::T / (bm - b.err) : 0);
  return q;
}

// The index of the certainly largest of three positive doubles with relative error < 2^-44
// each (the plain |e_j|^2), -1 when two are within the roundings of each other.
int certainly_largest(const std::array<double, 3>& x) {
  const int best = x[0] >= x[1] ? (x[0] >= x[2] ? 0 : 2) : (x[1] >= x[2] ? 1 : 2);
  if (!(x[best] >= 0x1p-900 && std::isfinite(x[best]))) return -1;  // relative errors hold above
  for (int i = 0; i < 3; ++i)
    if (i != best && !(x[i] * (1 + 0x1p-40) < x[best])) return -1;
  return best;
}

// Static bounds: the double-double stage's first attempt, when the plain stage decided the
// region (its magnitudes are reused). The stage's polynomials — |e_j|², w_j·e_k, the cross
// products n = e_0 × (v_2 − v_0) and e_j × w_j (w_j × e_j), n·(e_j × w_j), |n|², n·w_0,
// |w_j × e_j|² — are evaluated by static_sum, dd::mul and dd::mul_exact on exact leaves (the
// differences of the scaled inputs as double pairs). Each product r̂ lies within
// U|r̂|(1 + 2^-50) of the exact product of its computed operands (double_double.hpp; U =
// 2^-102), so r̂ = (â·b̂)(1 + δ) with |δ| < 1.0001U; each sum is â(1 + δ₁) + b̂(1 + δ₂) with
// |δ| < U (static_sum). Expanded into monomials of the leaves,
// the computed value multiplies each monomial by the (1 + δ) of the operations it passes
// through, at most K of them (edot: a product and two sums, K = 3; a cross component, 2; a
// dot of two cross products, 2 + 2 + 1 + 2 = 7; of n with w_0, 5), so |f̂ − f| ≤ γ_K·M with
// γ_7 < 7.001U and M = Σ|monomials|: the formula on absolute values with every − a +. The
// plain stage's Σ̂ and P̂ (and Σ P̂_n,i P̂_c,i, |ê|², Σ P̂²) are M on the rounded differences
// in double, within (1 + u)^10 < 1 + 2^-49 of it (u = 2^-53). Hence the bound 8U·M̂ (its own
// rounding, u relative, is inside the slack of 8 against 7.001(1 + 2^-49)). Underflow: a
// product with an operand or result below 2^-800 may lose T = 2^-1000 more
// (double_double.hpp); on the scaled query every leaf is below 4 and every cross component
// below 2^5, so such a loss reaches the result times a cofactor below 2^7, from at most 15
// products: below 2^-985, inside static_floor. The running bounds' terms of those operations
// are then unused and compiled out. An output these bounds cannot round sends the query to
// the running bounds (dd::add's sums; their bounds are tighter where a formula cancels),
// not to the exact path; either way an accepted double is the exact path's.
constexpr double static_units = 8 * dd::U, static_floor = 0x1p-980;

// The region's point, squared distance and margin in double-double (Static: the
// polynomials with the static bounds above, only for a region the plain stage decided;
// else running bounds throughout), each accepted only when its enclosure rounds to one
// double; nullopt otherwise, except for the squared distance, left NaN (the integers give it
// alone: its formula is the one that cancels when p lies in the plane up to rounding, and
// the exact |p − v|² of a far query often lies on a tie). The margin's square root
// (irrational in general, MPFR on the exact path) is the double-double root here: its
// upward rounding is certified like the others, and the MPFR path's rounding (up at 256
// bits, then up to 53) lands on the same double whenever the enclosure does not straddle one (it is much wider than 2^-256
// relative). Only what the region needs is computed in double-double: of the margin terms
// the one the plain stage certifies least (all of them when it cannot), of the edges'
// squared lengths the one it certifies longest, of the differences p − v_j those used.
template <bool F, bool Static>
[[gnu::always_inline]] inline std::optional<cases::ClosestFeatureResult> stage_outputs(
    const cases::ClosestFeatureQuery& q, const std::array<cases::Vec3, 4>& qs, int k, PlainStage& st, bool plain,
    const IntervalVerdict& verdict) {
  using Bounded = BoundedT<F>;
  // A polynomial's value with its static bound (M̂ its magnitude), or as evaluated.
  auto poly = [](Bounded v, double mag) {
    if constexpr (Static) v.err = static_units * mag + static_floor;
    return v;
  };
  // Differences of input doubles are exact as double pairs (error 0). Every difference is
  // built from its values in place (guaranteed elision), and the values computed on first
  // use live in a Lazy: zero-initialising them first (rep stos) and copying a vector whose
  // doubles were just stored one by one (a 16-byte load waiting on two 8-byte stores, a
  // store-forwarding stall) were ~20 % of a vertex query's time (perf, 2026-12-02).
  auto diff = [&](int a, int b) {
    double hi[3], lo[3];
    for (int i = 0; i < 3; ++i) dd::two_sum(qs[a][i], -qs[b][i], hi[i], lo[i]);
    return V3<Bounded>{{Bounded(hi[0], lo[0], 0), Bounded(hi[1], lo[1], 0), Bounded(hi[2], lo[2], 0)}};
  };
  const std::array<V3<Bounded>, 3> e = {diff(2, 1), diff(3, 2), diff(1, 3)};  // e_j = v_(j+1) - v_j
  const std::array<V3<Bounded>, 3> w = {diff(0, 1), diff(0, 2), diff(0, 3)};  // w_j = p - v_j
  std::array<Lazy<Bounded>, 3> e2_cache;
  auto e2 = [&](int j) -> const Bounded& {
    return e2_cache[j].get([&] { return poly(edot<Static>(e[j], e[j]), st.e2[j]); });
  };
  Lazy<V3<Bounded>> n_cache;
  auto n = [&]() -> const V3<Bounded>& {
    return n_cache.get([&] {
      const V3<Bounded> c = ecross<Static>(e[0], -e[2]);
      return V3<Bounded>{{poly(c[0], st.n_abs[0]), poly(c[1], st.n_abs[1]), poly(c[2], st.n_abs[2])}};
    });
  };
  auto n2 = [&] { return poly(bdot<Static>(n(), n()), pdot(st.n_abs, st.n_abs)); };
  auto side = [&](int j) { return poly(bdot<Static>(n(), ecross<Static>(e[j], w[j])), Static ? st.side(j).mag : 0); };  // s_j
  cases::ClosestFeatureResult r;
  r.region = verdict.region;
  const int kind = static_cast<int>(r.region);
  // Margin terms value^2 / norm^2, as in the exact path, here already divided by L^2 (the
  // longest edge's squared length: the one the plain stage certifies longest, else the
  // enclosed maximum); a decision value that is exactly 0 (interval [0, 0]) makes the margin
  // exactly 0. `pick` is the term the plain stage certifies least (-1: none; then every term
  // is enclosed and the least enclosure taken).
  bool zero_margin = false;
  std::optional<Bounded> least, L2;
  auto term = [&](const Bounded& value, const Bounded& norm2) {
    if (!L2) {
      const int longest = plain ? certainly_largest(st.e2) : -1;
      L2 = longest >= 0 ? e2(longest) : enclosed_max(enclosed_max(e2(0), e2(1)), e2(2));
    }
    const Bounded t = quotient(value * value, norm2 * *L2);
    least = least ? enclosed_min(*least, t) : t;
  };
  const bool normal_ok = plain && st.normal_conditioned();
  Bounded d2;
  if (kind >= 4) {
    const int j = kind - 4, prev = (j + 2) % 3;
    const V3<Bounded>& wj = w[j];
    zero_margin = verdict.zero_dn[j] || verdict.zero_dp[j];
    const int pick = plain ? certainly_least<2>({&st.dn[j], &st.dp[j]}, {st.e2[j], st.e2[prev]}) : -1;
    if (pick != 1) term(poly(edot<Static>(wj, e[j]), st.dn[j].mag), e2(j));
    if (pick != 0) term(poly(edot<Static>(wj, e[prev]), st.dp[j].mag), e2(prev));
    r.point = j == 0 ? q.a : (j == 1 ? q.b : q.c);
    d2 = poly(edot<Static>(wj, wj), pdot(st.w[j], st.w[j]));
  } else if (kind >= 1) {  // open edge j: v_j + (dn / |e_j|^2) e_j
    const int j = kind - 1, next = (j + 1) % 3;
    const V3<Bounded>& wj = w[j];
    const Bounded dn = poly(edot<Static>(wj, e[j]), st.dn[j].mag);
    zero_margin = verdict.zero_s[j] || verdict.zero_dn[j] || verdict.zero_dp[next];
    const int pick = normal_ok ? certainly_least<3>({&st.s[j], &st.dn[j], &st.dp[next]},
                                                    {st.n2 * st.e2[j], st.e2[j], st.e2[j]})
                               : -1;
    if (pick == -1 || pick == 0) term(side(j), n2() * e2(j));
    if (pick == -1 || pick == 1) term(dn, e2(j));
    // = -(|e_j|^2 - dn), without cancellation; its M is dp_next's
    if (pick == -1 || pick == 2) term(poly(edot<Static>(w[next], e[j]), st.dp[next].mag), e2(j));
    V3<Bounded> c = ecross<Static>(wj, e[j]);  // |w|^2 |e|^2 - dn^2 = |w x e|^2 (Lagrange)
    Plain3 c_abs{};
    if constexpr (Static) {
      c_abs = pcross_abs(st.w[j], st.e[j]);
      for (int i = 0; i < 3; ++i) c[i] = poly(c[i], c_abs[i]);
    }
    auto undecided = [](const Bounded& x) { return std::abs(x.hi) <= 2 * x.err; };
    if (undecided(c[0]) && undecided(c[1]) && undecided(c[2]) && on_edge_line(qs, j)) {
      d2 = Bounded(0);  // p lies on the open edge: it is its own closest point
      r.point = q.p + cases::Vec3::Zero();  // -0 + 0 = +0, as the exact path's rounding
    } else {
      const Bounded t = quotient(dn, e2(j));
      for (int i = 0; i < 3; ++i)
        if (std::isnan(r.point[i] = unscaled(Bounded(qs[1 + j][i]) + t * e[j][i], k)) &&
            !(edge_coordinate_zero(qs, j, i) && (r.point[i] = 0, true)))
          return std::nullopt;
      d2 = quotient(poly(bdot<Static>(c, c), pdot(c_abs, c_abs)), e2(j));
    }
  } else {  // open face: p minus its offset along n
    const Bounded n2f = n2();
    const int pick = normal_ok ? certainly_least<3>({&st.s[0], &st.s[1], &st.s[2]},
                                                    {st.n2 * st.e2[0], st.n2 * st.e2[1], st.n2 * st.e2[2]})
                               : -1;
    for (int j = 0; j < 3; ++j) {
      zero_margin = zero_margin || verdict.zero_s[j];
      if (pick == -1 || pick == j) term(side(j), n2f * e2(j));
    }
    const Bounded h = poly(bdot<Static>(n(), w[0]), pdot_abs(st.n_abs, st.w[0]));
    if (std::abs(h.hi) <= 2 * h.err && in_plane(qs)) {
      d2 = Bounded(0);  // p lies on the open face
      r.point = q.p + cases::Vec3::Zero();
    } else {
      const Bounded t = quotient(h, n2f);
      for (int i = 0; i < 3; ++i)
        if (std::isnan(r.point[i] = unscaled(Bounded(qs[0][i]) - t * n()[i], k)) &&
            !(face_coordinate_zero(qs, i) && (r.point[i] = 0, true)))
          return std::nullopt;
      d2 = h * t;
    }
  }
  r.squared_distance = unscaled(d2, 2 * k);  // NaN: left to the integers (see closest_feature)
  if (zero_margin) {
    r.margin = 0;
  } else {
    r.margin = dd::certain_up_double(dd::sqrt(*least));  // scale-free
    if (std::isnan(r.margin)) return std::nullopt;
  }
  return r;
}

// The outputs with running bounds, out of line (the retry of ~1 % of random queries): inlined
// into the filtered stage it more than doubled the stage's code (55 → 130 KB), which random
// queries, taking a different region's code each time, run through (i-cache; measured gain
// ~2 %, within the noise). One per clone below.
using RunningOutputs = std::optional<cases::ClosestFeatureResult> (*)(const cases::ClosestFeatureQuery&,
                                                                      const std::array<cases::Vec3, 4>&, int,
                                                                      PlainStage&, bool, const IntervalVerdict&);

// The filtered stage of closest_feature: region from the plain-double stage (or, when it
// cannot decide, the interval filter), then the outputs, first with static bounds (plain
// regions only), then with running bounds (also when only the squared distance was left
// NaN). nullopt sends the query to the exact path.
template <bool F, RunningOutputs running>
[[gnu::always_inline]] inline std::optional<cases::ClosestFeatureResult> filtered_stage(const cases::ClosestFeatureQuery& q) {
  std::array<cases::Vec3, 4> qs;
  int k = 0;
  if (!scaled(q, qs, k)) return std::nullopt;
  PlainStage st(qs);
  IntervalVerdict verdict{};
  const std::optional<Region> plain = plain_region(st);
  if (plain) {
    verdict.region = *plain;  // no decision value it needs is zero (see PlainStage)
    if (auto r = stage_outputs<F, true>(q, qs, k, st, true, verdict); r && !std::isnan(r->squared_distance)) return r;
    ++closest_feature_filter_stats().static_deferred;
  } else {
    std::optional<IntervalVerdict> iv;
    {
      exact::ProtectRounding guard;
      iv = interval_region(qs);
    }
    if (!iv) return std::nullopt;
    verdict = *iv;
  }
  return running(q, qs, k, st, plain.has_value(), verdict);
}

// The stage twice: with two_prod on std::fma in code compiled for FMA, chosen at run time
// when the CPU has it, and with Dekker's split otherwise (the same exact products: the same
// answers). flatten inlines every helper into each, so no BoundedT<true> arithmetic is left
// in default-target code, where std::fma would be a libm call.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CONTACTBENCH_FMA_STAGE 1
[[gnu::noinline, gnu::flatten]] __attribute__((target("fma"))) std::optional<cases::ClosestFeatureResult>
running_fma(const cases::ClosestFeatureQuery& q, const std::array<cases::Vec3, 4>& qs, int k, PlainStage& st,
            bool plain, const IntervalVerdict& verdict) {
  return stage_outputs<true, false>(q, qs, k, st, plain, verdict);
}
[[gnu::flatten]] __attribute__((target("fma"))) std::optional<cases::ClosestFeatureResult> filtered_fma(
    const cases::ClosestFeatureQuery& q) {
  return filtered_stage<true, running_fma>(q);
}
#endif
[[gnu::noinline, gnu::flatten]] std::optional<cases::ClosestFeatureResult> running_split(
    const cases::ClosestFeatureQuery& q, const std::array<cases::Vec3, 4>& qs, int k, PlainStage& st, bool plain,
    const IntervalVerdict& verdict) {
  return stage_outputs<false, false>(q, qs, k, st, plain, verdict);
}
[[gnu::flatten]] std::optional<cases::ClosestFeatureResult> filtered_split(const cases::ClosestFeatureQuery& q) {
  return filtered_stage<false, running_split>(q);
}

}  // namespace

ClosestFeatureFilterStats& closest_feature_filter_stats() {
  thread_local ClosestFeatureFilterStats stats;
  return stats;
}

namespace {

// The filtered stage's answer, its squared distance NaN where only that output could not be
// rounded (a tie of the exact value, or a formula that cancels: p in the plane up to
// rounding); nullopt where it defers to the exact path.
std::optional<cases::ClosestFeatureResult> filtered_answer(const cases::ClosestFeatureQuery& q, bool use_fma) {
#ifdef CONTACTBENCH_FMA_STAGE
  if (use_fma && __builtin_cpu_supports("fma")) return filtered_fma(q);
#endif
  return filtered_split(q);
}

}  // namespace

std::optional<cases::ClosestFeatureResult> closest_feature_filtered_stage(const cases::ClosestFeatureQuery& q,
                                                                          bool use_fma) {
  auto r = filtered_answer(q, use_fma);
  if (r && std::isnan(r->squared_distance)) return std::nullopt;
  return r;
}

cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
  auto& stats = closest_feature_filter_stats();
  if (auto r = filtered_answer(q, true)) {
    if (std::isnan(r->squared_distance)) {  // the region, point and margin stand: the integers for d² alone
      ++stats.exact_squared_distance;
      r->squared_distance =
          exact_squared_distance(exact::to_integers<4, cases::Vec3>({&q.p, &q.a, &q.b, &q.c}), r->region);
    } else {
      ++stats.filtered;
    }
    return *r;
  }
  ++stats.exact;
  return closest_feature_exact(q);
}

std::optional<Region> closest_feature_plain_region(const cases::ClosestFeatureQuery& q) {
  std::array<cases::Vec3, 4> qs;
  int k = 0;
  if (!scaled(q, qs, k)) return std::nullopt;
  PlainStage st(qs);
  return plain_region(st);
}

namespace {

// One closed half-space g·(x - o) >= 0 in exact rationals.
struct HalfSpace {
  V3<mpq_class> g, o;
};

// The closure of the set of points p whose closest point lies in `region` (the sets of
// cases::Region), as half-spaces: vertex k {dn_k <= 0, dp_k <= 0}; edge k {s_k <= 0,
// dn_k >= 0, dp_(k+1) >= 0}; face {s_k >= 0 for all k}.
std::vector<HalfSpace> region_halfspaces(const std::array<V3<mpq_class>, 3>& v, Region region) {
  std::array<V3<mpq_class>, 3> e, side;  // side[k] = n × e_k: s_k(p) = side[k]·(p - v_k)
  for (int k = 0; k < 3; ++k) e[k] = v[(k + 1) % 3] - v[k];
  const V3<mpq_class> n = cross(e[0], v[2] - v[0]);
  for (int k = 0; k < 3; ++k) side[k] = cross(n, e[k]);
  const int kind = static_cast<int>(region);
  if (kind >= 4) {
    const int k = kind - 4;
    return {{-e[k], v[k]}, {e[(k + 2) % 3], v[k]}};
  }
  if (kind >= 1) {
    const int k = kind - 1;
    return {{-side[k], v[k]}, {e[k], v[k]}, {-e[k], v[(k + 1) % 3]}};
  }
  return {{side[0], v[0]}, {side[1], v[1]}, {side[2], v[2]}};
}

bool inside(const std::vector<HalfSpace>& hs, const V3<mpq_class>& x) {
  for (const auto& h : hs)
    if (sgn(dot(h.g, x - h.o)) < 0) return false;
  return true;
}

// Solves the 1x1, 2x2 or 3x3 system G y = r exactly (Cramer); false when G is singular.
bool solve(const std::vector<std::vector<mpq_class>>& G, const std::vector<mpq_class>& r,
           std::vector<mpq_class>& y) {
  const std::size_t m = G.size();
  auto det = [&](const std::vector<std::vector<mpq_class>>& A) -> mpq_class {
    if (m == 1) return A[0][0];
    if (m == 2) return A[0][0] * A[1][1] - A[0][1] * A[1][0];
    return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
           A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
           A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  };
  const mpq_class d = det(G);
  if (sgn(d) == 0) return false;
  y.assign(m, 0);
  for (std::size_t i = 0; i < m; ++i) {
    auto A = G;
    for (std::size_t row = 0; row < m; ++row) A[row][i] = r[row];
    y[i] = det(A) / d;
  }
  return true;
}

}  // namespace

double closest_feature_distance_to_region(const cases::ClosestFeatureQuery& q, Region region) {
  auto qv = [](const cases::Vec3& x) { return V3<mpq_class>{x[0], x[1], x[2]}; };
  const std::array<V3<mpq_class>, 3> v = {qv(q.a), qv(q.b), qv(q.c)};
  const V3<mpq_class> p = qv(q.p);
  const auto hs = region_halfspaces(v, region);
  if (inside(hs, p)) return 0;
  // The nearest point of a polyhedron is the projection of p onto the intersection of the
  // planes active there; with at most three half-spaces, try every independent subset.
  std::optional<mpq_class> best;
  const std::size_t m = hs.size();
  for (unsigned mask = 1; mask < (1u << m); ++mask) {
    std::vector<const HalfSpace*> act;
    for (std::size_t i = 0; i < m; ++i)
      if (mask & (1u << i)) act.push_back(&hs[i]);
    std::vector<std::vector<mpq_class>> G(act.size(), std::vector<mpq_class>(act.size()));
    std::vector<mpq_class> r(act.size()), lambda;
    for (std::size_t i = 0; i < act.size(); ++i) {
      for (std::size_t j = 0; j < act.size(); ++j) G[i][j] = dot(act[i]->g, act[j]->g);
      r[i] = dot(act[i]->g, p - act[i]->o);
    }
    if (!solve(G, r, lambda)) continue;
    V3<mpq_class> y = p;  // y = p - sum lambda_i g_i lies on every active plane
    for (std::size_t i = 0; i < act.size(); ++i)
      for (int c = 0; c < 3; ++c) y[c] -= lambda[i] * act[i]->g[c];
    if (!inside(hs, y)) continue;
    const auto d = p - y;
    const mpq_class d2 = dot(d, d);
    if (!best || d2 < *best) best = d2;
  }
  if (!best) throw std::logic_error("closest_feature_distance_to_region: empty region");
  mpq_class L2 = 0;
  for (int k = 0; k < 3; ++k) {
    const auto ek = v[(k + 1) % 3] - v[k];
    L2 = std::max(L2, mpq_class(dot(ek, ek)));
  }
  return exact::sqrt_up_to_double(*best / L2);
}

double cgal_epick_squared_distance(const cases::ClosestFeatureQuery& q) {
  using K = CGAL::Exact_predicates_inexact_constructions_kernel;
  const K::Point_3 p(q.p.x(), q.p.y(), q.p.z());
  const K::Triangle_3 t(K::Point_3(q.a.x(), q.a.y(), q.a.z()), K::Point_3(q.b.x(), q.b.y(), q.b.z()),
                        K::Point_3(q.c.x(), q.c.y(), q.c.z()));
  return CGAL::squared_distance(p, t);
}

}  // namespace contactbench::reference
