// Fast triangle-triangle intersection, certified: a Guigue–Devillers-style test (2003:
// orientations only, no divisions, no constructions) whose every orientation sign is
// certified. Each orient3d/orient2d is first evaluated in double with a static-relative
// error bound (Shewchuk 1997, "errboundA": |computed - exact| <= (7 + 56u)u · permanent for
// orient3d, (3 + 16u)u · permanent for orient2d, u = 2^-53, the permanent being the same
// expression with every product replaced by the product of absolute values, evaluated in
// double; the bound holds for any vertex taken as the base of the differences). When
// |det| exceeds it the sign is the exact sign. Otherwise the exact sign, in stages
// (fast/triangle_intersection.cpp), each exact and tried in turn: two equal points (a vertex
// shared by the triangles) give 0; with exact differences, the double evaluation checked
// operation by operation by error-free transformations (two-sum, two-product by std::fma;
// exact on few-bit grid data), then the differences as integers (each coordinate axis
// scaled by one power of two to integers below 2^60, the determinant in 64/128-bit integer
// arithmetic: full-mantissa data whose bits per axis span at most 60 binary orders); the
// coordinates themselves as integers below 2^59 (any differences, e.g. nearly coplanar
// points an ulp off); the exact sum of the determinant's <= 192 exact product terms, signed
// by distillation (two-sum passes until the running sum dominates the remaining errors);
// and, should that not settle within 8 passes, a floating-point expansion (Grow-Expansion
// with zero elimination) whose most significant component has the exact sign. No GMP:
// fast/ links no exact library.
//
// Deviations from the reference: none. Both decisions (intersect, coplanar) are exact, so
// triangle_intersection_bounds states 0 for both and any difference from the reference is
// `wrong`. The algorithm differs from the reference's (see reference/triangle_intersection.hpp):
// the same answer reached two ways.
//
// Domain (triangle_intersection_in_domain = cases::triangle_in_fast_domain): every coordinate
// 0 or of magnitude in [2^-250, 2^300]. Coordinate differences are then 0 or of magnitude
// in [2^-302, 2^301] (multiples of the smallest ulp 2^-302), so every product of up to three
// of them, every two-product tail and every permanent term is 0 or a normal double below
// 2^906: no underflow (the error bound assumes relative rounding, two-product exactness
// assumes a representable tail) and no overflow. Outside (1e-300, 1e300 coordinates) only
// the reference answers; the verdict is out_of_domain.
//
// Preconditions: neither triangle collinear (checked by the loaders).
#pragma once
#include "cases/triangle_intersection.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace contactbench::fast {

cases::TriangleIntersectionResult triangle_intersection(const cases::TriangleIntersectionQuery& q);
bool triangle_intersection_in_domain(const cases::TriangleIntersectionQuery& q);

// Stated bounds of the decisions, in the reference's margin units: 0, both are exact.
struct TriangleIntersectionBounds {
  double intersect = 0, coplanar = 0;
};
TriangleIntersectionBounds triangle_intersection_bounds(const cases::TriangleIntersectionQuery& q);

// The certified predicates (exposed for the tests and the orientation-level benchmarks).
// orient3d: sign of det[b - a, c - a, d - a] (the reference's exact::orientation convention:
// +1 when d lies on the side (b - a) x (c - a) points to). orient2d: sign of the 2D
// determinant of the projections onto the coordinate plane without axis k (the plane
// (x_{k+1}, x_{k+2}), indices mod 3).
inline int orient3d(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d);
inline int orient2d(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k);
// Their stages apart: the double filter with the bound scaled by `bound_factor` (1: the
// certified bound; 0 on exactly 0 only) returning 2 when it cannot decide, and the exact
// evaluation (the stages listed at the top).
inline int orient3d_filter(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d,
                           double bound_factor = 1);
int orient3d_exact(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d);
// The exact sign of an orientation the filter left undecided, `bound` the filter's bound
// (|det| <= bound): a shared point, then the few-bit zero certificate (few_bit_zero), then
// orient3d_exact's stages.
int orient3d_undecided(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d,
                       double bound);
// The exact signs of the entries of s that are 0 (undecided), s[i] for orient3d(t0, t1, t2,
// x_i): t's exact normal shared when the six points' coordinates allow it. With `bound`
// >= 0 (the largest of the filter's bounds of the undecided entries) the few-bit zero
// certificate runs first.
// Returns whether a point of x is a vertex of t (a shared point: the triangles meet); such
// an entry is always undecided by the filter (an exact 0).
bool plane_sides_exact(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x, std::array<int, 3>& s,
                       double bound = -1);
inline int orient2d_filter(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k,
                           double bound_factor = 1);
int orient2d_exact(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k);
int orient2d_undecided(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k, double bound);

// Few-bit zero certificate of an undecided sign (|det| <= bound, the filter's bound: the
// exact value lies within bound of det, so in [-2·bound, 2·bound]). When every coordinate
// of the points is a multiple of 2^g, every coordinate difference is one too, and the exact
// determinant, a sum of products of `degree` differences (one per axis), is a multiple of
// 2^(degree·g). With 2·bound < 2^(degree·g) its only such multiple in range is 0: true
// means the exact sign is 0; false decides nothing (a later stage does). g is the least
// integer with degree·g >= E + 2, 2^E <= bound < 2^(E+1). Grid data (k/16, 2^-20 offsets,
// translated by 2^30) pass; full-mantissa data or points an ulp off do not.
// "x is a multiple of 2^g" is read from (x + C) - C == x, C = 1.5·2^(g+52), guarded by
// |x| <= 2^(g+51): then x + C lies in [2^(g+52), 2^(g+53)], where doubles are the multiples
// of 2^g, and the subtraction is exact, so equality holds iff x is one. (Without the guard
// it can hold for others: x = -(2^52 - 1/2), g = 0.) Any bound (E in [-1023, 1023]) gives
// |g| <= 511: C and the guard are normal doubles.
// degree 3: the points' three coordinates; degree 2: coordinates i and j only (orient2d
// along axis k, i, j the other two).
namespace detail {
using v2 = double __attribute__((vector_size(16)));
using m2 = std::int64_t __attribute__((vector_size(16)));
// Lanes of v that are not multiples of 2^g (guard = 2^(g+51), c = 1.5·2^(g+52)), all bits set.
inline m2 not_multiple(v2 v, double guard, double c) {
  const v2 a = std::bit_cast<v2>(std::bit_cast<m2>(v) & INT64_MAX);  // |v|
  return (a > guard) | (((v + c) - c) != v);
}
}  // namespace detail

template <int degree, int n>
inline bool few_bit_zero(const cases::Vec3* const (&pts)[n], double bound, int i = 0, int j = 1) {
  static_assert(degree == 2 || degree == 3);
  const int e = static_cast<int>((std::bit_cast<std::uint64_t>(bound) >> 52) & 0x7ff) - 1023;  // bound >= 0
  const int g = (e + 2 + degree * 600 + degree - 1) / degree - 600;  // ceil((e + 2) / degree), numerator > 0
  const auto guard_bits = static_cast<std::uint64_t>(g + 51 + 1023) << 52;
  const double guard = std::bit_cast<double>(guard_bits);
  // 1.5·2^(g+52) from its bits: no product, so nothing for the compiler to fuse with the sums.
  const double c = std::bit_cast<double>(guard_bits + (std::uint64_t{1} << 52) + (std::uint64_t{1} << 51));
  // Two lanes at a time, without branches, from the points' own memory (no staging array:
  // wide loads of narrow stores stall).
  detail::m2 bad = {0, 0};
  for (int p = 0; p < n; ++p) bad |= detail::not_multiple(detail::v2{(*pts[p])[i], (*pts[p])[j]}, guard, c);
  if constexpr (degree == 3)
    for (int p = 0; p < n; p += 2)
      bad |= detail::not_multiple(detail::v2{(*pts[p])[2], p + 1 < n ? (*pts[p + 1])[2] : 0.0}, guard, c);
  return (bad[0] | bad[1]) == 0;
}
// orient3d(t0, t1, t2, x_i) for the three points x, t's normal and its permanent's products
// computed once (the same sum of difference-times-minor terms, so the same bound); the
// filter's bound scaled by bound_factor (0: plain double signs, no exact stage).
inline std::array<int, 3> plane_sides(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x,
                                      double bound_factor = 1);
// The certified plane_sides, and whether a point of x is a vertex of t (found by the exact
// stage: such an entry is always undecided by the filter).
struct SidesShared {
  std::array<int, 3> s;
  bool shared;
};
inline SidesShared plane_sides_shared(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x);
// Plain double signs (no bound): what the published methods use.
int orient3d_plain(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d);
int orient2d_plain(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k);

// Shewchuk's static-relative orient3d factor, u = 2^-53 (derivation in this header's top comment).
inline constexpr double orient3d_bound = (7 + 56 * 0x1p-53) * 0x1p-53;
// Shewchuk's static-relative orient2d factor.
inline constexpr double orient2d_bound = (3 + 16 * 0x1p-53) * 0x1p-53;

// Inline: the hot paths (the exact stages stay out of line).
namespace detail {
// The orient2d filter's sign (0: undecided) and its bound.
inline int orient2d_signed(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k,
                           double bound_factor, double& bound) {
  const int i = k == 2 ? 0 : k + 1, j = k == 0 ? 2 : k - 1;  // (k + 1) % 3, (k + 2) % 3
  const double ux = b[i] - a[i], uy = b[j] - a[j], vx = c[i] - a[i], vy = c[j] - a[j];
  const double l = ux * vy, r = uy * vx, det = l - r;
  bound = bound_factor * orient2d_bound * (std::abs(l) + std::abs(r));
  return (det > bound) - (det < -bound);  // without branches, as orient3d_filter
}
}  // namespace detail

inline int orient2d_filter(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k,
                           double bound_factor) {
  double bound;
  const int s = detail::orient2d_signed(a, b, c, k, bound_factor, bound);
  if (s != 0 || bound_factor == 0) [[likely]]
    return s;
  return 2;
}

inline int orient2d(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k) {
  double bound;
  const int s = detail::orient2d_signed(a, b, c, k, 1, bound);
  if (s != 0) [[likely]]
    return s;
  return orient2d_undecided(a, b, c, k, bound);
}

namespace detail {
// The orient3d filter's sign (0: undecided) and its bound.
inline int orient3d_signed(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d,
                           double bound_factor, double& bound) {
  const double ux = b.x() - a.x(), uy = b.y() - a.y(), uz = b.z() - a.z();
  const double vx = c.x() - a.x(), vy = c.y() - a.y(), vz = c.z() - a.z();
  const double wx = d.x() - a.x(), wy = d.y() - a.y(), wz = d.z() - a.z();
  const double vywz = vy * wz, vzwy = vz * wy, vzwx = vz * wx, vxwz = vx * wz, vxwy = vx * wy, vywx = vy * wx;
  const double det = ux * (vywz - vzwy) + uy * (vzwx - vxwz) + uz * (vxwy - vywx);
  const double permanent = std::abs(ux) * (std::abs(vywz) + std::abs(vzwy)) +
                           std::abs(uy) * (std::abs(vzwx) + std::abs(vxwz)) +
                           std::abs(uz) * (std::abs(vxwy) + std::abs(vywx));
  bound = bound_factor * orient3d_bound * permanent;
  return (det > bound) - (det < -bound);  // without branches: random signs would mispredict
}
}  // namespace detail

inline int orient3d_filter(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d,
                           double bound_factor) {
  double bound;
  const int s = detail::orient3d_signed(a, b, c, d, bound_factor, bound);
  if (s != 0 || bound_factor == 0) [[likely]]
    return s;  // plain double (bound 0): the rounded value's sign
  return 2;
}

inline int orient3d(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d) {
  double bound;
  const int s = detail::orient3d_signed(a, b, c, d, 1, bound);
  if (s != 0) [[likely]]
    return s;
  return orient3d_undecided(a, b, c, d, bound);
}

namespace detail {
// Whether an entry of s is 0, without a branch per entry.
inline bool any_zero(const std::array<int, 3>& s) { return ((s[0] == 0) | (s[1] == 0) | (s[2] == 0)) != 0; }

inline SidesShared plane_sides(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x,
                               double bound_factor) {
  const double ux = t[1].x() - t[0].x(), uy = t[1].y() - t[0].y(), uz = t[1].z() - t[0].z();
  const double vx = t[2].x() - t[0].x(), vy = t[2].y() - t[0].y(), vz = t[2].z() - t[0].z();
  const double uyvz = uy * vz, uzvy = uz * vy, uzvx = uz * vx, uxvz = ux * vz, uxvy = ux * vy, uyvx = uy * vx;
  const double nx = uyvz - uzvy, ny = uzvx - uxvz, nz = uxvy - uyvx;
  const double px = std::abs(uyvz) + std::abs(uzvy), py = std::abs(uzvx) + std::abs(uxvz),
               pz = std::abs(uxvy) + std::abs(uyvx);
  const double factor = bound_factor * orient3d_bound;
  // Signs without branches (random signs would mispredict); 0 marks undecided.
  std::array<int, 3> s;
  double bound[3];
  for (int i = 0; i < 3; ++i) {
    const double wx = x[i].x() - t[0].x(), wy = x[i].y() - t[0].y(), wz = x[i].z() - t[0].z();
    const double det = nx * wx + ny * wy + nz * wz;
    bound[i] = factor * (std::abs(wx) * px + std::abs(wy) * py + std::abs(wz) * pz);
    s[i] = (det > bound[i]) - (det < -bound[i]);
  }
  bool shared = false;
  if (bound_factor != 0 && any_zero(s)) [[unlikely]] {  // one branch for the three
    // The largest bound of an undecided entry, taken here only: in the loop (GCC made the
    // selection a branch there) it cost 5 % on the random and degenerate sets.
    double largest = 0;
    for (int i = 0; i < 3; ++i) largest = std::max(largest, s[i] == 0 ? bound[i] : 0.0);
    shared = plane_sides_exact(t, x, s, largest);
  }
  return {s, shared};
}
}  // namespace detail

inline std::array<int, 3> plane_sides(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x,
                                      double bound_factor) {
  return detail::plane_sides(t, x, bound_factor).s;
}
inline SidesShared plane_sides_shared(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x) {
  return detail::plane_sides(t, x, 1);
}

// The test's logic over a predicate policy P (static orient3(a,b,c,d), orient2(a,b,c,k) and
// the flags below; the certified test's are all false but exact_signs). Planted faults
// (harness/pairs) and the published plain-double Guigue–Devillers instantiate it with
// other policies.
struct TriangleTestPolicy {
  static int orient3(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d) {
    return orient3d(a, b, c, d);
  }
  static int orient2(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k) {
    return orient2d(a, b, c, k);
  }
  static std::array<int, 3> sides(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x) {
    return plane_sides(t, x);
  }
  static constexpr bool strict_interval = false;  // fault: "< 0" for "<= 0" in the final test
  static constexpr bool drop_coplanar = false;    // fault: coplanar pairs reported disjoint
  static constexpr bool forget_flip = false;      // fault: q's vertex order not swapped
  static constexpr bool no_edge_crossing = false; // fault: coplanar test without edge crossings
  static constexpr bool swapped_final = false;    // fault: q1, q2 exchanged in step 4
  // Exact signs (the certified test only, CertifiedTrianglePolicy): p in q's plane then
  // implies q in p's, so q's sides are skipped. False here so that the published and planted
  // variants deriving from this policy evaluate both sides, as their algorithms do.
  static constexpr bool exact_signs = false;
};
struct CertifiedTrianglePolicy : TriangleTestPolicy {
  static constexpr bool exact_signs = true;
  // sides, and whether a point of x is a vertex of t (exact_signs policies only).
  static SidesShared sides_shared(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x) {
    return plane_sides_shared(t, x);
  }
};

namespace detail {

// The lone vertex of a triangle against the other's plane, from the three signs s (not all
// equal and non-zero, not all zero): the index i and whether the other triangle's
// orientation must be flipped so that s[i] >= 0 >= the other two, with s[i] > 0 unless the
// other two are < 0. One strictly positive vertex (others <= 0): no flip. One strictly
// negative (others >= 0): flip. Otherwise two of one strict sign and a zero: the zero one,
// flipped if the others are positive. Then the triangle meets the other's plane along
// [x on edge i,i+1 ; x on edge i,i+2] (one point when s[i] = 0).
constexpr void lone_vertex(const std::array<int, 3>& s, int& i, bool& flip) {
  const int pos = (s[0] > 0) + (s[1] > 0) + (s[2] > 0), neg = (s[0] < 0) + (s[1] < 0) + (s[2] < 0);
  if (pos == 1) {
    i = s[0] > 0 ? 0 : s[1] > 0 ? 1 : 2, flip = false;
  } else if (neg == 1) {
    i = s[0] < 0 ? 0 : s[1] < 0 ? 1 : 2, flip = true;
  } else {
    i = s[0] == 0 ? 0 : s[1] == 0 ? 1 : 2, flip = pos == 2;
  }
}

// A sign triple as one number: code(s) = 13 + s0 + 3·s1 + 9·s2 in [0, 27). 0 and 26: all
// strictly on one side; 13: all zero.
constexpr int sign_code(int s0, int s1, int s2) { return 13 + s0 + 3 * s1 + 9 * s2; }
constexpr bool one_side_code(int code) { return ((1u | 1u << 26) >> code) & 1u; }
// lone_vertex of every code packed into constants (i in two bits at 2·code, flip at bit
// code), read by shifts: the renaming without branches (the lone vertex of random inputs
// is unpredictable) and without a memory table (one made the random set slower).
struct LoneVertexCodes {
  std::uint64_t index = 0;
  std::uint32_t flip = 0;
};
inline constexpr LoneVertexCodes lone_vertex_codes = [] {
  LoneVertexCodes t;
  for (int code = 0; code < 27; ++code) {
    if (one_side_code(code) || code == 13) continue;
    int i = 0;
    bool flip = false;
    lone_vertex({code % 3 - 1, code / 3 % 3 - 1, code / 9 - 1}, i, flip);
    t.index |= static_cast<std::uint64_t>(i) << (2 * code);
    t.flip |= static_cast<std::uint32_t>(flip) << code;
  }
  return t;
}();
inline int lone_index(int code) { return static_cast<int>((lone_vertex_codes.index >> (2 * code)) & 3); }
inline int lone_flip(int code) { return static_cast<int>((lone_vertex_codes.flip >> code) & 1); }
// n mod 3 for n in [0, 7), from a constant.
inline int mod3(int n) { return static_cast<int>((0b00'10'01'00'10'01'00u >> (2 * n)) & 3u); }

// Coplanar triangles (P's plane projected one to one along axis k): they meet iff a vertex
// of one lies in the other (closed) or two edges cross properly. Up to 20 orientations,
// each computed when first needed (a vertex found inside ends the test early).
template <class P>
bool coplanar_meet(const std::array<cases::Vec3, 3>& p, const std::array<cases::Vec3, 3>& q, int k) {
  const int op = P::orient2(p[0], p[1], p[2], k), oq = P::orient2(q[0], q[1], q[2], k);
  // a[i][j]: q_j against p's edge i; b[j][i]: p_i against q's edge j (2: not yet computed).
  int a[3][3] = {{2, 2, 2}, {2, 2, 2}, {2, 2, 2}}, b[3][3] = {{2, 2, 2}, {2, 2, 2}, {2, 2, 2}};
  auto A = [&](int i, int j) {
    if (a[i][j] == 2) a[i][j] = P::orient2(p[i], p[(i + 1) % 3], q[j], k) * op;
    return a[i][j];
  };
  auto B = [&](int j, int i) {
    if (b[j][i] == 2) b[j][i] = P::orient2(q[j], q[(j + 1) % 3], p[i], k) * oq;
    return b[j][i];
  };
  for (int j = 0; j < 3; ++j)
    if (A(0, j) >= 0 && A(1, j) >= 0 && A(2, j) >= 0) return true;
  for (int i = 0; i < 3; ++i)
    if (B(0, i) >= 0 && B(1, i) >= 0 && B(2, i) >= 0) return true;
  if (P::no_edge_crossing) return false;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (A(i, j) * A(i, (j + 1) % 3) < 0 && B(j, i) * B(j, (i + 1) % 3) < 0) return true;
  return false;
}

// The certified test's coplanar stage (the same decision as coplanar_meet, p's projection
// along axis k non-degenerate): all 20 orientations at once, in double with orient2d's
// filter, without branches; the decision from bit masks. Only signs the filter leaves
// undecided (shared points, points on an edge's line, few per query) go one by one to the
// exact stages. Out of line.
bool coplanar_meet_certified(const std::array<cases::Vec3, 3>& p, const std::array<cases::Vec3, 3>& q, int k);

// The coplanar branch of triangle_test: the 2D test on the projection along an axis where
// p's normal has a non-zero component (the largest in double, confirmed by an exact
// orient2d of p's projection). Out of line: the hot path stays small.
template <class P>
[[gnu::noinline]] bool coplanar_branch(const std::array<cases::Vec3, 3>& p, const std::array<cases::Vec3, 3>& q) {
  if (P::drop_coplanar) return false;
  const cases::Vec3 n = (p[1] - p[0]).cross(p[2] - p[0]).cwiseAbs();
  int k = n[0] >= n[1] && n[0] >= n[2] ? 0 : n[1] >= n[2] ? 1 : 2;
  for (int t = 0; t < 3 && P::orient2(p[0], p[1], p[2], k) == 0; ++t) k = (k + 1) % 3;
  if constexpr (P::exact_signs)
    return coplanar_meet_certified(p, q, k);
  else
    return coplanar_meet<P>(p, q, k);
}

}  // namespace detail

template <class P>
cases::TriangleIntersectionResult triangle_test(const cases::TriangleIntersectionQuery& query) {
  using cases::Vec3;
  const std::array<Vec3, 3>& p = query.p;
  const std::array<Vec3, 3>& q = query.q;
  cases::TriangleIntersectionResult r;
  // 1. p against q's plane, q against p's plane: a triangle strictly on one side of the
  //    other's plane cannot meet it. Each sign triple as one code: one branch per early out.
  bool shared = false;  // a vertex of p is one of q (exact_signs only: found by the side tests)
  std::array<int, 3> sp;
  if constexpr (P::exact_signs) {
    const SidesShared r = P::sides_shared(q, p);
    sp = r.s, shared = r.shared;
  } else {
    sp = P::sides(q, p);
  }
  const int cp = detail::sign_code(sp[0], sp[1], sp[2]);
  // p on one side; or a shared vertex: the triangles meet, coplanar iff all of p lies in
  // q's plane. One branch for both.
  if (detail::one_side_code(cp) | shared) {
    r.intersect = shared;
    r.coplanar = shared & (cp == 13);
    return r;
  }
  // 2. Coplanar (all of p on q's plane; with exact signs exactly then all of q on p's, so
  //    q's sides are not needed): the 2D test.
  if (P::exact_signs && cp == 13) [[unlikely]] {
    r.coplanar = true, r.intersect = detail::coplanar_branch<P>(p, q);
    return r;
  }
  std::array<int, 3> sq = P::sides(p, q);
  const int cq = detail::sign_code(sq[0], sq[1], sq[2]);
  if (detail::one_side_code(cq)) return r;
  if (cp == 13 || cq == 13) [[unlikely]] {
    r.coplanar = true, r.intersect = detail::coplanar_branch<P>(p, q);
    return r;
  }
  // 3. Both triangles cross (or touch) the line L of the two planes. Bring p's lone vertex
  //    first (a rotation keeps p's orientation) and, if needed, swap q1, q2 so that it lies
  //    on the non-negative side of q's plane; then the same for q against p's plane.
  //    Vertices are renamed through pointers (copying them costs more than the test), their
  //    indices computed from the codes (no branch).
  const int ip = detail::lone_index(cp);
  const int swap_q = P::forget_flip ? 0 : detail::lone_flip(cp);  // q renamed (q0, q2, q1)
  const int cq_renamed = swap_q ? detail::sign_code(sq[0], sq[2], sq[1]) : cq;  // q's signs move with it
  const int iq = detail::lone_index(cq_renamed), swap_p = detail::lone_flip(cq_renamed);
  // p renamed (p_ip, p_ip+1, p_ip+2), or (p_ip, p_ip+2, p_ip+1) when q's lone vertex swaps.
  const Vec3* a[3] = {&p[ip], &p[detail::mod3(ip + 1 + swap_p)], &p[detail::mod3(ip + 2 - swap_p)]};
  // q renamed: b_j = q_j, or q_(-j mod 3) when swapped; then c_k = b_(iq+k).
  const Vec3* c[3];
  for (int k = 0; k < 3; ++k) c[k] = &q[swap_q ? detail::mod3(6 - iq - k) : detail::mod3(iq + k)];
  // 4. p meets L in [B, A] with A on edge p0p1, B on edge p0p2 and q in [C, D] with C on
  //    q0q1, D on q0q2, in the order of L's direction n_p x n_q. The closed intervals
  //    overlap iff C is not beyond A and B not beyond D; each comparison is the sign of
  //    one orientation (no intersection point is constructed).
  if (P::swapped_final) std::swap(c[1], c[2]);
  const int o1 = P::orient3(*a[0], *a[1], *c[0], *c[1]);
  if (P::strict_interval ? o1 >= 0 : o1 > 0) return r;
  const int o2 = P::orient3(*a[0], *a[2], *c[0], *c[2]);
  r.intersect = P::strict_interval ? o2 > 0 : o2 >= 0;
  return r;
}

// Published methods, plain double (measured beside the certified test, not gated):
// Möller 1997 ("A fast triangle-triangle intersection test": plane distances, intervals on
// the planes' line projected on its largest axis, with divisions; no epsilon: a distance is
// 0 only when it rounds to 0) and Guigue–Devillers 2003 (the logic above with plain double
// orientation signs). Both use this file's coplanar 2D test with plain double signs for the
// coplanar branch rather than their papers' own 2D routines.
cases::TriangleIntersectionResult triangle_intersection_moller(const cases::TriangleIntersectionQuery& q);
cases::TriangleIntersectionResult triangle_intersection_guigue_devillers(const cases::TriangleIntersectionQuery& q);

}  // namespace contactbench::fast
