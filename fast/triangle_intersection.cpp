#include "fast/triangle_intersection.hpp"

#include "fast/error_free.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

CONTACTBENCH_FMA_CLONES int orient3d_undecided(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, double bound) {
  if (a == b || a == c || a == d || b == c || b == d || c == d) return 0;
  // Few-bit data: the zero certificate first (it only ever answers 0; full-mantissa data
  // would fail it, so they skip it).
  if (few_bits(a, b, c, d) && few_bit_zero<3>({&a, &b, &c, &d}, bound)) return 0;
  return orient3d_exact_distinct(a, b, c, d);
}

CONTACTBENCH_FMA_CLONES bool plane_sides_exact(const std::array<Vec3, 3>& t, const std::array<Vec3, 3>& x,
                                               std::array<int, 3>& s, double bound) {
  // The entries of s that are 0 are undecided. A point equal to a vertex of t (a shared
  // vertex) lies in t's plane: exactly 0. Three others: the six points' coordinates as
  // integers below 2^59 (each axis scaled by one power of two, as in orient3d_exact), t's
  // exact integer normal once, then one exact dot product per point; when the coordinates
  // do not allow it, and for one or two points, orient3d_exact.
  bool todo[3], shared = false;
  int left = 0;
  for (int i = 0; i < 3; ++i) {
    const bool vertex = s[i] == 0 && (x[i] == t[0] || x[i] == t[1] || x[i] == t[2]);  // s[i] stays 0: exact
    shared |= vertex;
    todo[i] = s[i] == 0 && !vertex;
    left += todo[i];
  }
  if (left == 0) return shared;
  // t's vertices are distinct (t is not collinear) and x[i] is none of them: the equal-points
  // test of orient3d_exact is already made.
  if (left < 3) {  // one or two: orient3d_exact's first stage is cheaper on few-bit data
    for (int i = 0; i < 3; ++i)
      if (todo[i])
        s[i] = bound >= 0 && few_bits(t[0], t[1], t[2], x[i]) && few_bit_zero<3>({&t[0], &t[1], &t[2], &x[i]}, bound)
                   ? 0
                   : orient3d_exact_distinct(t[0], t[1], t[2], x[i]);
    return shared;
  }
  // Three (coplanar grid data, mostly): on few-bit data the zero certificate, one for the
  // three.
  if (bound >= 0 && few_bits(t[0], t[1], t[2], x[0]) && few_bits(x[1], x[2], x[2], x[2]) &&
      few_bit_zero<3>({&t[0], &t[1], &t[2], &x[0], &x[1], &x[2]}, bound))
    return false;  // the undecided entries stay 0: exact (three undecided: no shared point)
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
    return false;
  }
  for (int i = 0; i < 3; ++i)
    if (todo[i]) s[i] = orient3d_exact_distinct(t[0], t[1], t[2], x[i]);
  return false;
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

CONTACTBENCH_FMA_CLONES int orient2d_undecided(const Vec3& a, const Vec3& b, const Vec3& c, int k, double bound) {
  // Few-bit data (as few_bits, the projected coordinates): the zero certificate first.
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  constexpr std::uint64_t low = (std::uint64_t{1} << 27) - 1;
  std::uint64_t bits = 0;
  for (const Vec3* p : {&a, &b, &c}) bits |= std::bit_cast<std::uint64_t>((*p)[i]) | std::bit_cast<std::uint64_t>((*p)[j]);
  if ((bits & low) == 0 && few_bit_zero<2>({&a, &b, &c}, bound, i, j)) return 0;
  return orient2d_exact(a, b, c, k);
}

namespace detail {

namespace {

using v2 = double __attribute__((vector_size(16)));

// The sign bits of the two lanes (bit 0: lane 0).
inline unsigned sign_bits(v2 v) {
#if defined(__SSE2__)
  return static_cast<unsigned>(_mm_movemask_pd(v));
#else
  return static_cast<unsigned>(std::signbit(v[0])) | static_cast<unsigned>(std::signbit(v[1])) << 1;
#endif
}

// 3x3 sign matrices as 9-bit masks, bit 3r + c for entry (r, c).
// Entry (r, c + 1 mod 3) moved to (r, c).
constexpr unsigned next_column(unsigned m) { return ((m >> 1) & 0b011011011u) | ((m << 2) & 0b100100100u); }
// Entry (r, c) moved to (c, r).
constexpr unsigned transposed(unsigned m) {
  return (m & 0x111u) | ((m & 0x22u) << 2) | ((m & 0x88u) >> 2) | ((m & 0x4u) << 4) | ((m & 0x40u) >> 4);
}

// The 2D points of a triangle, as (x_i, x_j) lanes.
struct Flat {
  v2 v[3];
};

// The signs of the three points o against the edge lines of triangle s (entry (e, m) at bit
// 3e + m: o_m against (s_e, s_e+1)), and of s's own orientation (from each edge e with the
// third vertex s_e+2, the same sign three ways), decided against the common bound `bound`
// (0 in neither mask: undecided). det = u_x·v_y - u_y·v_x, u = s_e+1 - s_e, v = point - s_e,
// as orient2d_filter evaluates it.
struct Signs {
  unsigned pos = 0, neg = 0, orientation_pos = 0, orientation_neg = 0;
};
inline Signs edge_signs(const Flat& s, const Flat& o, double bound) {
  Signs r;
  const v2 ox = {o.v[0][0], o.v[1][0]}, oy = {o.v[0][1], o.v[1][1]};  // points 0 and 1
  for (int e = 0; e < 3; ++e) {
    const int f = e == 2 ? 0 : e + 1, g = e == 0 ? 2 : e - 1;
    const v2 u = s.v[f] - s.v[e];
    const v2 sx = {s.v[e][0], s.v[e][0]}, sy = {s.v[e][1], s.v[e][1]};
    const v2 ux = {u[0], u[0]}, uy = {u[1], u[1]};
    const v2 low = ux * (oy - sy) - uy * (ox - sx);  // points 0, 1
    const v2 hx = {o.v[2][0], s.v[g][0]}, hy = {o.v[2][1], s.v[g][1]};
    const v2 high = ux * (hy - sy) - uy * (hx - sx);  // point 2, s's third vertex
    const v2 b = {bound, bound};
    // det > bound iff bound - det < 0; det < -bound iff det + bound < 0 (no underflow to 0 in
    // the fast domain, and x - x = +0).
    const unsigned lp = sign_bits(b - low), ln = sign_bits(low + b);
    const unsigned hp = sign_bits(b - high), hn = sign_bits(high + b);
    r.pos |= (lp | (hp & 1u) << 2) << (3 * e);
    r.neg |= (ln | (hn & 1u) << 2) << (3 * e);
    r.orientation_pos |= hp >> 1;
    r.orientation_neg |= hn >> 1;
  }
  return r;
}

}  // namespace

bool coplanar_meet_certified(const std::array<Vec3, 3>& p, const std::array<Vec3, 3>& q, int k) {
  const int i = k == 2 ? 0 : k + 1, j = k == 0 ? 2 : k - 1;  // (k + 1) % 3, (k + 2) % 3
  Flat fp, fq;
  for (int v = 0; v < 3; ++v) fp.v[v] = v2{p[v][i], p[v][j]}, fq.v[v] = v2{q[v][i], q[v][j]};
  // One bound for all 20 orientations: every coordinate difference they use is at most the
  // six points' extent D per axis (rounding is monotone), so |u_x·v_y| + |u_y·v_x| in double is
  // at most 2·D_x·D_y in double, and orient2d's bound with it is at least each one's own.
  v2 top = fp.v[0], bottom = fp.v[0];
  for (const Flat* t : {&fp, &fq})
    for (const v2& x : t->v) top = x > top ? x : top, bottom = x < bottom ? x : bottom;
  const v2 extent = top - bottom;
  const double bound = orient2d_bound * (2 * (extent[0] * extent[1]));
  Signs a = edge_signs(fp, fq, bound);  // a: q_m against p's edge e, bit 3e + m
  Signs b = edge_signs(fq, fp, bound);  // b: p_e against q's edge m, bit 3m + e
  unsigned open_a = ~(a.pos | a.neg) & 0x1ffu, open_b = ~(b.pos | b.neg) & 0x1ffu;
  if ((open_a | open_b) != 0 || (a.orientation_pos | a.orientation_neg) == 0 ||
      (b.orientation_pos | b.orientation_neg) == 0) [[unlikely]] {
    // Exact signs for the undecided entries. The triangles' orientations are not 0 (p's
    // projection is non-degenerate, q is in p's plane and not collinear).
    if ((a.orientation_pos | a.orientation_neg) == 0)
      (orient2d_exact(p[0], p[1], p[2], k) > 0 ? a.orientation_pos : a.orientation_neg) = 1;
    if ((b.orientation_pos | b.orientation_neg) == 0)
      (orient2d_exact(q[0], q[1], q[2], k) > 0 ? b.orientation_pos : b.orientation_neg) = 1;
    // A shared point (p_e = q_m in the projection) gives 0 at once: a's (e, m) when q_m is
    // p_e or p_e+1; b's (m, e) when p_e is q_m or q_m+1.
    unsigned equal = 0;  // bit 3e + m: p_e = q_m
    for (int e = 0; e < 3; ++e)
      for (int m = 0; m < 3; ++m)
        equal |= static_cast<unsigned>((p[e][i] == q[m][i]) & (p[e][j] == q[m][j])) << (3 * e + m);
    open_a &= ~(equal | (equal >> 3) | ((equal & 7u) << 6));  // (e, m) or (e + 1, m)
    open_b &= ~transposed(equal | next_column(equal));        // (e, m) or (e, m + 1), at 3m + e
    // The rest (a point on an edge's line, or nearly): one few-bit zero certificate for all
    // (the common bound), else one by one.
    if ((open_a | open_b) != 0) {
      constexpr std::uint64_t low = (std::uint64_t{1} << 27) - 1;
      std::uint64_t bits = 0;
      for (int v = 0; v < 3; ++v)
        bits |= std::bit_cast<std::uint64_t>(p[v][i]) | std::bit_cast<std::uint64_t>(p[v][j]) |
                std::bit_cast<std::uint64_t>(q[v][i]) | std::bit_cast<std::uint64_t>(q[v][j]);
      if ((bits & low) == 0 && few_bit_zero<2>({&p[0], &p[1], &p[2], &q[0], &q[1], &q[2]}, bound, i, j))
        open_a = open_b = 0;
    }
    for (int t = 0; t < 2; ++t) {
      const std::array<Vec3, 3>& s = t == 0 ? p : q;  // the edges' triangle
      const std::array<Vec3, 3>& o = t == 0 ? q : p;  // the points
      Signs& x = t == 0 ? a : b;
      for (unsigned open = t == 0 ? open_a : open_b; open != 0; open &= open - 1) {
        const int bit = std::countr_zero(open), e = bit / 3, m = bit % 3;
        const int sign = orient2d_exact(s[e], s[e == 2 ? 0 : e + 1], o[m], k);
        x.pos |= static_cast<unsigned>(sign > 0) << bit;
        x.neg |= static_cast<unsigned>(sign < 0) << bit;
      }
    }
  }
  // Relative to each triangle's orientation: inside is non-negative.
  const unsigned na = a.orientation_pos ? a.neg : a.pos, pa = a.orientation_pos ? a.pos : a.neg;
  const unsigned nb = b.orientation_pos ? b.neg : b.pos, pb = b.orientation_pos ? b.pos : b.neg;
  // A vertex of one in the other (closed): q_m has no negative entry in column m of a, p_e
  // none in column e of b.
  bool meet = false;
  for (int m = 0; m < 3; ++m) meet |= ((na & (0b001001001u << m)) == 0) | ((nb & (0b001001001u << m)) == 0);
  // Proper edge crossings: edge (q_m, q_m+1) strictly across p's edge line e (a's (e, m) and
  // (e, m + 1) of opposite strict signs) and edge (p_e, p_e+1) strictly across q's edge line
  // m (b's (m, e) and (m, e + 1)).
  const unsigned cross_a = (pa & next_column(na)) | (na & next_column(pa));
  const unsigned cross_b = (pb & next_column(nb)) | (nb & next_column(pb));
  return meet | ((cross_a & transposed(cross_b)) != 0);
}

}  // namespace detail

cases::TriangleIntersectionResult triangle_intersection(const cases::TriangleIntersectionQuery& q) {
  return triangle_test<CertifiedTrianglePolicy>(q);
}

bool triangle_intersection_in_domain(const cases::TriangleIntersectionQuery& q) {
  return cases::triangle_in_fast_domain(q);
}

TriangleIntersectionBounds triangle_intersection_bounds(const cases::TriangleIntersectionQuery&) { return {}; }

}  // namespace contactbench::fast
