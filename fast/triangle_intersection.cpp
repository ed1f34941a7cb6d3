#include "fast/triangle_intersection.hpp"

#include "fast/error_free.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace contactbench::fast {

namespace {

using cases::Vec3;

constexpr double u = 0x1p-53;  // unit roundoff

// A non-overlapping expansion, components in increasing magnitude, zeros dropped (Shewchuk's
// Grow-Expansion-ZeroElim): its sum is exact and its sign is its last component's.
struct Expansion {
  double h[256];
  int n = 0;
  void add(double b) {
    if (b == 0) return;
    double q = b;
    int k = 0;
    for (int i = 0; i < n; ++i) {
      double s, t;
      two_sum(q, h[i], s, t);
      if (t != 0) h[k++] = t;
      q = s;
    }
    if (q != 0) h[k++] = q;
    n = k;
  }
  // Adds sign·x·y·z exactly, x, y, z doubles: x·y = p + e, then p·z and e·z by two-product.
  void add_product(double sign, double x, double y, double z) {
    if (x == 0 || y == 0 || z == 0) return;
    double p, e, a, b;
    two_prod(x, y, p, e);
    two_prod(p, z, a, b);
    add(sign * b), add(sign * a);
    if (e != 0) {
      two_prod(e, z, a, b);
      add(sign * b), add(sign * a);
    }
  }
  int sign() const { return n == 0 ? 0 : h[n - 1] > 0 ? 1 : -1; }
};

// The exact sign of the sum of n exact terms (n <= 192). Distillation: a pass of two-sums
// carries the running sum q through the terms and keeps every rounding error as a new
// term, so the exact sum never changes; once |q| exceeds a safe over-estimate of the sum
// of the |errors| (fl of m non-negative terms is within a factor 1 + m·u of the exact sum,
// doubled here), q's sign is the sum's; when no error is left, q is the sum. A few passes
// settle it in practice; after 8 the expansion above decides (it always can).
int sign_of_sum(double* x, int n) {
  for (int pass = 0; pass < 8; ++pass) {
    double q = 0, abs_sum = 0;
    int m = 0;
    for (int i = 0; i < n; ++i) {
      double t;
      two_sum(q, x[i], q, t);
      if (t != 0) x[m++] = t, abs_sum += std::abs(t);
    }
    if (m == 0) return q > 0 ? 1 : q < 0 ? -1 : 0;
    if (std::abs(q) > abs_sum * (1 + 4 * m * u)) return q > 0 ? 1 : -1;
    x[m++] = q;
    n = m;
  }
  Expansion e;
  for (int i = 0; i < n; ++i) e.add(x[i]);
  return e.sign();
}

// Exact terms of sums of products: x·y·z = (p + e)·z = a + b + c + d by two-products.
struct Terms {
  double x[192];
  int n = 0;
  void add_product(double sign, double a, double b, double c) {
    if (a == 0 || b == 0 || c == 0) return;
    double p, e, hi, lo;
    two_prod(a, b, p, e);
    two_prod(p, c, hi, lo);
    x[n++] = sign * hi;
    if (lo != 0) x[n++] = sign * lo;
    if (e != 0) {
      two_prod(e, c, hi, lo);
      x[n++] = sign * hi;
      if (lo != 0) x[n++] = sign * lo;
    }
  }
  int sign() { return sign_of_sum(x, n); }
};

}  // namespace

// The exact stages run one std::fma per two-product: on x86-64 without -mfma that is a libm
// call; an FMA clone (chosen at load time when the CPU has FMA) inlines it.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CONTACTBENCH_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define CONTACTBENCH_FMA_CLONES
#endif


namespace {

// Integer stage: when every difference is exact and the three of each column (one
// coordinate axis) are integers of magnitude < 2^60 after scaling the column by one power
// of two (its significant bits span at most 60 binary orders), the determinant of the
// scaled matrix is evaluated exactly in 64/128-bit integer arithmetic. Its sign is the
// original's: scaling a column by a positive power of two scales the determinant.

// The binary exponent of a double: floor(log2 |x|) when normal, -1023 for 0 and subnormals.
inline int exponent_of(double x) { return static_cast<int>((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff) - 1023; }

// Scales the column x[0..n) to integers (as above); false when it cannot. Branch-light:
// this runs on every orientation the filter leaves undecided. One scale for the column, from
// its largest magnitude: every |y| < 2^bits.
template <int n, int bits = 60>
[[gnu::always_inline]] inline bool column_to_int(const double* x, std::int64_t* out) {
  double top_abs = std::abs(x[0]);
  for (int i = 1; i < n; ++i) top_abs = std::max(top_abs, std::abs(x[i]));
  // An all-zero column scales by anything; 2^(bits - 1 - top) stays normal.
  const int top = std::max(exponent_of(top_abs), -900);
  const double scale = std::bit_cast<double>(static_cast<std::uint64_t>(bits - 1 - top + 1023) << 52);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    const double y = x[i] * scale;
    out[i] = static_cast<std::int64_t>(y);
    ok &= static_cast<double>(out[i]) == y;
  }
  // Scaling by a power of two is exact unless y underflows: then y is below 1, not an
  // integer unless 0. A non-zero x (>= 2^-1074) can round to 0 only when scale < 1.
  if (top > bits - 1) [[unlikely]]
    for (int i = 0; i < n; ++i) ok &= (out[i] != 0) | (x[i] == 0);
  return ok;
}

using i128 = __int128;

// v x w exactly, entries |.| < 2^60: each component |.| < 2^121.
[[gnu::always_inline]] inline void cross_int(const std::int64_t v[3], const std::int64_t w[3], i128 n[3]) {
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    n[i] = static_cast<i128>(v[j]) * w[k] - static_cast<i128>(v[k]) * w[j];
  }
}

// Sign of u·n exactly, |u_i| < 2^60, |n_i| < 2^121. n_i = nh·2^63 + nl with nl in [0, 2^63)
// (so |nh| < 2^58): both halves are 64-bit signed integers and each product a single
// 64x64 -> 128-bit multiply; |Σ u_i·nh_i| < 3·2^118 and |Σ u_i·nl_i| < 3·2^123 fit.
[[gnu::always_inline]] inline int dot_sign(const std::int64_t u[3], const i128 n[3]) {
  constexpr std::int64_t low_mask = INT64_MAX;  // 2^63 - 1
  i128 high = 0, low = 0;  // u·n = high·2^63 + low
  for (int i = 0; i < 3; ++i) {
    const auto nh = static_cast<std::int64_t>(n[i] >> 63);
    const auto nl = static_cast<std::int64_t>(n[i]) & low_mask;
    high += static_cast<i128>(u[i]) * nh;
    low += static_cast<i128>(u[i]) * nl;
  }
  high += low >> 63;  // u·n = high·2^63 + (low mod 2^63), the last in [0, 2^63)
  if (high != 0) return high > 0 ? 1 : -1;
  return (static_cast<std::int64_t>(low) & low_mask) != 0 ? 1 : 0;
}

// Sign of u·(v x w), all entries |.| < 2^60.
[[gnu::always_inline]] inline int det3_sign(const std::int64_t u[3], const std::int64_t v[3], const std::int64_t w[3]) {
  i128 n[3];
  cross_int(v, w, n);
  return dot_sign(u, n);
}

}  // namespace

namespace {

// Whether every coordinate of the four points has its low 27 significand bits zero (at
// most 26 significant bits: grid data). Only steers the order of the exact stages below
// (each stage checks its own exactness), never the answer.
[[gnu::always_inline]] inline bool few_bits(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  constexpr std::uint64_t low = (std::uint64_t{1} << 27) - 1;
  std::uint64_t bits = 0;
  for (int i = 0; i < 3; ++i)
    bits |= std::bit_cast<std::uint64_t>(a[i]) | std::bit_cast<std::uint64_t>(b[i]) | std::bit_cast<std::uint64_t>(c[i]) |
            std::bit_cast<std::uint64_t>(d[i]);
  return (bits & low) == 0;
}

// Stage "coordinates as integers": each axis of the four points scaled by one power of two
// to integers below 2^59, so that their differences are exact integers below 2^60 (any
// differences, exact or not, e.g. nearly coplanar points an ulp off). 2 when the
// coordinates do not allow it (an axis spanning more than 59 binary orders).
[[gnu::always_inline]] inline int orient3d_coordinates_int(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  std::int64_t u[3], v[3], w[3];
  bool ok = true;
  for (int i = 0; i < 3; ++i) {
    const double col[4] = {a[i], b[i], c[i], d[i]};
    std::int64_t x[4];
    ok &= column_to_int<4, 59>(col, x);
    u[i] = x[1] - x[0], v[i] = x[2] - x[0], w[i] = x[3] - x[0];
  }
  return ok ? det3_sign(u, v, w) : 2;
}

// orient3d_exact without its equal-points test (the caller has made it, or knows the
// points distinct). Stages, each exact, tried in turn:
//  - full-mantissa data (few_bits false): the coordinates as integers first, no error-free
//    transformation needed (the full-mantissa classes' points: snapped to a common quantum,
//    or nearly coplanar an ulp off);
//  - with exact differences (two-difference tails all 0): the double evaluation checked
//    operation by operation by error-free transformations (two-sum, two-product by fma;
//    when every tail is 0 the double value is the exact determinant: few-bit grid data),
//    then the differences as integers (each column below 2^60: far from the origin with
//    small exact differences);
//  - the coordinates as integers (few-bit data with inexact differences);
//  - the exact sum of the product terms (sign_of_sum).
// Out of line (with its FMA clone): inlined twice into plane_sides_exact it made that
// function's frame and prologue heavier for the queries that need no exact stage at all
// (measured: shared vertices and edges 3-4 ns slower).
CONTACTBENCH_FMA_CLONES [[gnu::noinline]] int orient3d_exact_distinct(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const bool grid = few_bits(a, b, c, d);
  if (!grid) {
    const int s = orient3d_coordinates_int(a, b, c, d);
    if (s != 2) return s;
  }
  double U[3][2], V[3][2], W[3][2];
  double tails = 0;
  for (int i = 0; i < 3; ++i) {
    two_diff(b[i], a[i], U[i][0], U[i][1]);
    two_diff(c[i], a[i], V[i][0], V[i][1]);
    two_diff(d[i], a[i], W[i][0], W[i][1]);
    tails += std::abs(U[i][1]) + std::abs(V[i][1]) + std::abs(W[i][1]);  // 0 iff every tail is 0
  }
  if (tails == 0) {
    // The double evaluation, checked: it gives up at the first non-zero tail.
    double m[3], t[3], hi, lo, err = 0;
    for (int i = 0; i < 3 && err == 0; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      double p1, e1, p2, e2;
      two_prod(V[j][0], W[k][0], p1, e1);
      two_prod(V[k][0], W[j][0], p2, e2);
      two_diff(p1, p2, m[i], lo);
      two_prod(U[i][0], m[i], t[i], hi);
      err = std::abs(e1) + std::abs(e2) + std::abs(lo) + std::abs(hi);
    }
    if (err == 0) {
      double s, det;
      two_sum(t[0], t[1], s, lo);
      two_sum(s, t[2], det, hi);
      if (lo == 0 && hi == 0) return det > 0 ? 1 : det < 0 ? -1 : 0;
    }
    // The differences as integers.
    std::int64_t u[3], v[3], w[3];
    bool ok = true;
    for (int i = 0; i < 3; ++i) {
      const double col[3] = {U[i][0], V[i][0], W[i][0]};
      std::int64_t out[3];
      ok &= column_to_int<3>(col, out);
      u[i] = out[0], v[i] = out[1], w[i] = out[2];
    }
    if (ok) return det3_sign(u, v, w);
  }
  if (grid) {
    const int s = orient3d_coordinates_int(a, b, c, d);
    if (s != 2) return s;
  }
  // Last: det[u, v, w] = Σ over permutations of ±u_i v_j w_k, each difference an exact
  // two-component expansion (the tail is 0 when the difference is exact, the grid's case).
  static constexpr int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
  Terms e;
  for (int t = 0; t < 6; ++t) {
    const double sign = t < 3 ? 1 : -1;
    const int i = perm[t][0], j = perm[t][1], k = perm[t][2];
    for (double x : U[i])
      for (double y : V[j])
        for (double z : W[k]) e.add_product(sign, x, y, z);
  }
  return e.sign();
}

}  // namespace

CONTACTBENCH_FMA_CLONES int orient3d_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  // Two equal points (a vertex shared by the two triangles): exactly 0.
  if (a == b || a == c || a == d || b == c || b == d || c == d) return 0;
  return orient3d_exact_distinct(a, b, c, d);
}

CONTACTBENCH_FMA_CLONES void plane_sides_exact(const std::array<Vec3, 3>& t, const std::array<Vec3, 3>& x,
                                               std::array<int, 3>& s) {
  // The entries of s that are 0 are undecided. A point equal to a vertex of t (a shared
  // vertex) lies in t's plane: exactly 0. Three others: the six points' coordinates as
  // integers below 2^59 (each axis scaled by one power of two, as in orient3d_exact), t's
  // exact integer normal once, then one exact dot product per point; when the coordinates
  // do not allow it, and for one or two points, orient3d_exact.
  bool todo[3];
  int left = 0;
  for (int i = 0; i < 3; ++i) {
    todo[i] = s[i] == 0 && x[i] != t[0] && x[i] != t[1] && x[i] != t[2];  // else s[i] stays 0: exact
    left += todo[i];
  }
  // t's vertices are distinct (t is not collinear) and x[i] is none of them: the equal-points
  // test of orient3d_exact is already made.
  if (left < 3) {  // one or two: orient3d_exact's first stage is cheaper on few-bit data
    for (int i = 0; i < 3; ++i)
      if (todo[i]) s[i] = orient3d_exact_distinct(t[0], t[1], t[2], x[i]);
    return;
  }
  std::int64_t u[3], v[3], w[3][3];
  bool ok = true;
  for (int k = 0; k < 3; ++k) {
    const double col[6] = {t[0][k], t[1][k], t[2][k], x[0][k], x[1][k], x[2][k]};
    std::int64_t c[6];
    ok &= column_to_int<6, 59>(col, c);
    u[k] = c[1] - c[0], v[k] = c[2] - c[0];
    for (int i = 0; i < 3; ++i) w[i][k] = c[3 + i] - c[0];
  }
  if (ok) {
    i128 n[3];
    cross_int(u, v, n);  // det[u, v, w] = (u x v)·w
    for (int i = 0; i < 3; ++i)
      if (todo[i]) s[i] = dot_sign(w[i], n);
    return;
  }
  for (int i = 0; i < 3; ++i)
    if (todo[i]) s[i] = orient3d_exact_distinct(t[0], t[1], t[2], x[i]);
}

int orient3d_plain(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return orient3d_filter(a, b, c, d, 0);
}

CONTACTBENCH_FMA_CLONES int orient2d_exact(const Vec3& a, const Vec3& b, const Vec3& c, int k) {
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  // Two equal projected points: exactly 0.
  if ((a[i] == b[i] && a[j] == b[j]) || (a[i] == c[i] && a[j] == c[j]) || (b[i] == c[i] && b[j] == c[j])) return 0;
  double U[2][2], V[2][2];
  two_diff(b[i], a[i], U[0][0], U[0][1]);
  two_diff(b[j], a[j], U[1][0], U[1][1]);
  two_diff(c[i], a[i], V[0][0], V[0][1]);
  two_diff(c[j], a[j], V[1][0], V[1][1]);
  if (U[0][1] == 0 && U[1][1] == 0 && V[0][1] == 0 && V[1][1] == 0) {  // exact differences
    // The integer stage (see orient3d_exact): |products| < 2^120, their difference fits.
    const double cx[2] = {U[0][0], V[0][0]}, cy[2] = {U[1][0], V[1][0]};
    std::int64_t x[2], y[2];
    if (column_to_int<2>(cx, x) & column_to_int<2>(cy, y)) {
      const i128 det = static_cast<i128>(x[0]) * y[1] - static_cast<i128>(y[0]) * x[1];
      return det > 0 ? 1 : det < 0 ? -1 : 0;
    }
  }
  {  // The coordinates as integers below 2^59 (see orient3d_exact), any differences.
    const double cx[3] = {a[i], b[i], c[i]}, cy[3] = {a[j], b[j], c[j]};
    std::int64_t x[3], y[3];
    if (column_to_int<3, 59>(cx, x) & column_to_int<3, 59>(cy, y)) {
      const i128 det = static_cast<i128>(x[1] - x[0]) * (y[2] - y[0]) - static_cast<i128>(y[1] - y[0]) * (x[2] - x[0]);
      return det > 0 ? 1 : det < 0 ? -1 : 0;
    }
  }
  if (U[0][1] == 0 && U[1][1] == 0 && V[0][1] == 0 && V[1][1] == 0) {
    double l, el, r, er, det, lo;
    two_prod(U[0][0], V[1][0], l, el);
    two_prod(U[1][0], V[0][0], r, er);
    two_diff(l, r, det, lo);
    if (el == 0 && er == 0 && lo == 0) return det > 0 ? 1 : det < 0 ? -1 : 0;
  }
  Terms e;
  for (double x : U[0])
    for (double y : V[1]) e.add_product(1, x, y, 1);
  for (double x : U[1])
    for (double y : V[0]) e.add_product(-1, x, y, 1);
  return e.sign();
}

int orient2d_plain(const Vec3& a, const Vec3& b, const Vec3& c, int k) { return orient2d_filter(a, b, c, k, 0); }

cases::TriangleIntersectionResult triangle_intersection(const cases::TriangleIntersectionQuery& q) {
  return triangle_test<CertifiedTrianglePolicy>(q);
}

bool triangle_intersection_in_domain(const cases::TriangleIntersectionQuery& q) {
  return cases::triangle_in_fast_domain(q);
}

TriangleIntersectionBounds triangle_intersection_bounds(const cases::TriangleIntersectionQuery&) { return {}; }

}  // namespace contactbench::fast
