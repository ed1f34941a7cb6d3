// The `ellipsoid_contact` pair (issue 12; Vyatkin & Dolgovesov 2024 after Wang, Wang & Kim,
// CAGD 18(6), 2001): are two ellipsoids separated, touching or overlapping, decided from the
// characteristic polynomial f(λ) = det(λA + B) of their quadrics; with the Perram–Wertheim
// contact function F, a contact point, a unit normal and a centre-line overlap.
//
// Conventions (sources/README.md, "Vyatkin & Dolgovesov"): an ellipsoid with centre c,
// semi-axes s and rotation R is {x : (x − c)ᵀ P (x − c) < 1} (interior), P = R diag(1/s²) Rᵀ;
// its 4×4 matrix in homogeneous coordinates X = (x, 1) is
//   A = [[P, −P c], [−cᵀP, cᵀP c − 1]],  Xᵀ A X < 0 inside.
// R = Q(q)/|q|² for the quaternion q = (w, x, y, z), which need not be unit: exactly
// rational, exactly orthogonal. f(λ) = det(λA + B) is a quartic with f(0) = det B < 0 and
// leading coefficient det A < 0; it always has two negative roots, and its distinct positive
// roots number 2 (separated), 1 (a double root: touching externally) or 0 (overlapping:
// the interiors share a point; also one inside the other, touching from inside or not).
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace contactbench::cases {

struct Ellipsoid {
  Vec3 centre = Vec3::Zero();       // length units
  Vec3 semi_axes = Vec3::Ones();    // s_1, s_2, s_3 > 0, along R's columns, length units
  Eigen::Vector4d quaternion{1, 0, 0, 0};  // (w, x, y, z), non-zero, any norm
};

struct EllipsoidContactQuery {
  Ellipsoid a, b;
};

inline constexpr std::array<const char*, 3> ellipsoid_state_names = {"separated", "touching",
                                                                       "overlapping"};

struct EllipsoidContactResult {
  std::string state;  // see ellipsoid_state_names
  // The relative gap's size |√F − 1| (reference only; fast leaves NaN): by how much (as a
  // fraction) both ellipsoids must be scaled about their centres for the state to flip.
  // 0 exactly when touching (decided exactly); a positive margin is an MPFR value rounded up.
  double state_margin = std::numeric_limits<double>::quiet_NaN();
  // The distinct positive roots of f, increasing: two when separated, the double root when
  // touching, none when overlapping (empty also for a method that only gives the state).
  std::vector<double> roots;
  // Perram–Wertheim contact function F = max over t in [0, 1] of
  // min_x t (x − c_A)ᵀP_A(x − c_A) + (1 − t)(x − c_B)ᵀP_B(x − c_B): both ellipsoids scaled
  // by √F about their centres touch. F > 1 separated, F = 1 touching, F < 1 overlapping;
  // dimensionless. NaN for a state-only method (the published shortcut, FCL): then only
  // the state is judged. F = 0 when the centres coincide.
  double F = std::numeric_limits<double>::quiet_NaN();
  // Where the scaled ellipsoids touch (the contact point when touching; between the bodies
  // when separated, inside both when overlapping), length units; the common centre when
  // the centres coincide.
  Vec3 point = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
  // Unit outward normal of A at `point` (from A towards B); (0, 0, 0) when the centres
  // coincide (no direction).
  Vec3 normal = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
  // Centre-line overlap t_A + t_B − |c_B − c_A|, length units, t_X the distance from c_X to
  // X's surface along the centre line: positive when the two chords overlap. NaN when the
  // centres coincide (no centre line).
  double overlap = std::numeric_limits<double>::quiet_NaN();
};

// The length scale of a query: the largest semi-axis of the two.
double ellipsoid_scale(const EllipsoidContactQuery& q);
// The largest ratio of semi-axes within one ellipsoid, and across the two (largest over
// smallest of all six): the shape measures the fast domain and bounds are stated in.
double axis_ratio(const Ellipsoid& e);
double axis_spread(const EllipsoidContactQuery& q);

// The fast variant's stated domain (fast::ellipsoid_contact_in_domain): each ellipsoid's
// axis ratio at most 1024, the six semi-axes within a factor 2^20 of each other, semi-axes
// and quaternion norms in [2^-200, 2^200], centres within 2^30 of the largest semi-axis
// of the origin and of each other. The reference answers every finite input.
inline constexpr double ellipsoid_max_axis_ratio = 1024;
bool ellipsoid_in_fast_domain(const EllipsoidContactQuery& q);

// ---- f's definition, generic over the scalar (double, intervals, rationals, MPFR) ---------
// Used by both sides so that "f" means one thing; each side supplies its own arithmetic.
// With L = R_A diag(s_A) and T = [[L, c_A], [0, 1]], Tᵀ A T = D = diag(1, 1, 1, −1) exactly
// (R orthogonal), and Tᵀ B T = B' = [[K, k], [kᵀ, κ]] is B in A's unit-sphere frame
// (x = c_A + L y). Then det(λA + B) = det(T)^-2 det(λD + B') = −(s_A1 s_A2 s_A3)^-2 E(λ) with
// the monic E(λ) = det(λI + C), C = D B': the same roots as f. E's coefficients are the sums
// of C's principal minors.
template <class T>
using Mat3 = std::array<std::array<T, 3>, 3>;

template <class T>
struct Pencil {
  Mat3<T> K;             // B's shape in A's unit-sphere frame: Lᵀ P_B L
  std::array<T, 3> k;    // Lᵀ P_B (c_A − c_B)
  T kappa;               // (c_A − c_B)ᵀ P_B (c_A − c_B) − 1 (< 0: A's centre inside B)
};

// R = Q(q)/|q|² (exact for rational T).
template <class T>
Mat3<T> rotation(const Eigen::Vector4d& quaternion) {
  const T w = quaternion[0], x = quaternion[1], y = quaternion[2], z = quaternion[3];
  const T n = w * w + x * x + y * y + z * z;
  const T ww = w * w, xx = x * x, yy = y * y, zz = z * z;
  Mat3<T> r;
  r[0][0] = ww + xx - yy - zz; r[0][1] = 2 * (x * y - w * z); r[0][2] = 2 * (x * z + w * y);
  r[1][0] = 2 * (x * y + w * z); r[1][1] = ww - xx + yy - zz; r[1][2] = 2 * (y * z - w * x);
  r[2][0] = 2 * (x * z - w * y); r[2][1] = 2 * (y * z + w * x); r[2][2] = ww - xx - yy + zz;
  for (auto& row : r)
    for (auto& v : row) v = v / n;
  return r;
}

template <class T>
Pencil<T> pencil(const EllipsoidContactQuery& q) {
  const Mat3<T> ra = rotation<T>(q.a.quaternion), rb = rotation<T>(q.b.quaternion);
  Mat3<T> g;  // G = R_Bᵀ R_A diag(s_A)
  std::array<T, 3> d, ib;  // d = R_Bᵀ (c_A − c_B); ib = 1/s_B²
  for (int i = 0; i < 3; ++i) {
    const T si = q.a.semi_axes[i];
    for (int j = 0; j < 3; ++j) {
      T s = rb[0][i] * ra[0][j];
      for (int m = 1; m < 3; ++m) s = s + rb[m][i] * ra[m][j];
      g[i][j] = s;
    }
    const T sb = q.b.semi_axes[i];
    ib[i] = 1 / (sb * sb);
    T s = rb[0][i] * (T(q.a.centre[0]) - T(q.b.centre[0]));
    for (int m = 1; m < 3; ++m) s = s + rb[m][i] * (T(q.a.centre[m]) - T(q.b.centre[m]));
    d[i] = s;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) g[i][j] = g[i][j] * T(q.a.semi_axes[j]);
  Pencil<T> p;
  for (int i = 0; i < 3; ++i) {
    for (int j = i; j < 3; ++j) {
      T s = g[0][i] * g[0][j] * ib[0];
      for (int m = 1; m < 3; ++m) s = s + g[m][i] * g[m][j] * ib[m];
      p.K[i][j] = s;
      p.K[j][i] = s;
    }
    T s = g[0][i] * ib[0] * d[0];
    for (int m = 1; m < 3; ++m) s = s + g[m][i] * ib[m] * d[m];
    p.k[i] = s;
  }
  T s = ib[0] * d[0] * d[0];
  for (int m = 1; m < 3; ++m) s = s + ib[m] * d[m] * d[m];
  p.kappa = s - 1;
  return p;
}

// E's coefficients e[0..4] (e[4] = 1), E(λ) = Σ e_i λ^i = det(λI + C), C = [[K, k], [−kᵀ, −κ]].
template <class T>
std::array<T, 5> characteristic(const Pencil<T>& p) {
  T c[4][4];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) c[i][j] = p.K[i][j];
    c[i][3] = p.k[i];
    c[3][i] = -p.k[i];
  }
  c[3][3] = -p.kappa;
  auto m2 = [&](int i, int j) -> T { return c[i][i] * c[j][j] - c[i][j] * c[j][i]; };
  // 3×3 principal minor on rows/columns i < j < l.
  auto m3 = [&](int i, int j, int l) -> T {
    const T a = c[j][j] * c[l][l] - c[j][l] * c[l][j];
    const T b = c[j][i] * c[l][l] - c[j][l] * c[l][i];
    const T e = c[j][i] * c[l][j] - c[j][j] * c[l][i];
    return c[i][i] * a - c[i][j] * b + c[i][l] * e;
  };
  std::array<T, 5> e;
  e[4] = T(1);
  e[3] = c[0][0] + c[1][1] + c[2][2] + c[3][3];
  e[2] = m2(0, 1) + m2(0, 2) + m2(0, 3) + m2(1, 2) + m2(1, 3) + m2(2, 3);
  e[1] = m3(0, 1, 2) + m3(0, 1, 3) + m3(0, 2, 3) + m3(1, 2, 3);
  // det C by expansion along the last row (its 3×3 minors on columns other than j).
  auto minor3 = [&](int skip) -> T {
    int col[3], n = 0;
    for (int j = 0; j < 4; ++j)
      if (j != skip) col[n++] = j;
    const T a = c[1][col[1]] * c[2][col[2]] - c[1][col[2]] * c[2][col[1]];
    const T b = c[1][col[0]] * c[2][col[2]] - c[1][col[2]] * c[2][col[0]];
    const T d = c[1][col[0]] * c[2][col[1]] - c[1][col[1]] * c[2][col[0]];
    return c[0][col[0]] * a - c[0][col[1]] * b + c[0][col[2]] * d;
  };
  T det = T(0);
  for (int j = 0; j < 4; ++j) {
    const T term = c[3][j] * minor3(j);
    if (j % 2 == 1) det = det + term; else det = det - term;  // cofactor sign (−1)^(3+j)
  }
  e[0] = det;
  return e;
}

// The magnitude scalar: a − b and a + b both give |a| + |b|, a·b gives |a||b|, a/b |a|/|b|.
// Evaluating the formulas above on it gives each value's sum of absolute terms, the
// factor in the a-priori rounding bound |fl(x) − x| ≤ γ_N · magnitude(x) (N the depth of
// the evaluation): the fast variant's bound on E's coefficients.
struct Magnitude {
  double v = 0;
  Magnitude() = default;
  Magnitude(double x) : v(std::abs(x)) {}  // NOLINT: implicit, like a scalar
  friend Magnitude operator+(Magnitude a, Magnitude b) { return Magnitude(a.v + b.v); }
  friend Magnitude operator-(Magnitude a, Magnitude b) { return Magnitude(a.v + b.v); }
  friend Magnitude operator*(Magnitude a, Magnitude b) { return Magnitude(a.v * b.v); }
  friend Magnitude operator/(Magnitude a, Magnitude b) { return Magnitude(a.v / b.v); }
  Magnitude operator-() const { return *this; }
};

// ---- canonical cases, generators, JSON ------------------------------------------------
struct EllipsoidContactCase {
  std::string name;
  EllipsoidContactQuery query;
  std::string state;             // hand-derived
  std::vector<double> roots;     // hand-derived positive roots (exact doubles), or empty
};

// Perram–Wertheim's F in double by golden-section search on t (no derivatives): the
// generators' own way to place a pair at a chosen relative gap (F(t·r) = t² F(r) along a
// fixed direction r), independent of the fast kernel's Newton. Accurate to a few ulps in F.
double contact_function_golden(const EllipsoidContactQuery& q);

struct EllipsoidContact {
  using Query = EllipsoidContactQuery;
  using Result = EllipsoidContactResult;
  static std::vector<EllipsoidContactCase> cases();  // hand-derived
  static std::vector<Named<Query>> canonical();
  // random: shapes sphere, generic (ratios to 4), elongated / flat (ratios to 1000),
  // identical (B a copy of A, equally oriented); config box (centres uniform in a box of
  // the bodies' size: every state), near (placed along a random direction at relative gap
  // ±10^-k, k = 3..15, through F(t r) = t² F(r)), far, inside (B small, at A's centre);
  // place origin or far (2^20 sizes off); scale 2^-10, 1, 2^10; quaternions random, any norm.
  // degenerate: exactly touching by construction (aligned along a principal axis; rotated
  // by an integer quaternion with B along A's rotated axis; spheres), the same one ulp off
  // (in / out), identical equally oriented shapes at grid offsets, coincident centres,
  // internally touching spheres, elongated / flat (ratio 512, 1024 and, outside the fast
  // domain, 4096), scales 2^-20 … 2^20, non-unit integer quaternions.
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);
  // Validating reader: {"a": E, "b": E}, E = {"centre": [x,y,z], "semi_axes": [s1,s2,s3],
  // "quaternion": [w,x,y,z]} (numbers or exact strings such as "0x1p-3"). Rejects unknown
  // keys, NaN/Inf, non-positive semi-axes and the zero quaternion.
  static Query from_json(const nlohmann::json& j, const Where& where);
};

}  // namespace contactbench::cases
