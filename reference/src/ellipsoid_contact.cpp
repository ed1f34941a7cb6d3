// Reference of the ellipsoid_contact pair (see reference/ellipsoid_contact.hpp). f's
// definition (the pencil in A's unit-sphere frame and E = det(λI + C), same roots as f) is
// the family's vocabulary, cases/ellipsoid_contact.hpp, instantiated here on intervals,
// rationals and MPFR.
#include "reference/ellipsoid_contact.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/double_double.hpp"
#include "reference/src/polynomial.hpp"

#include <algorithm>
#include <cmath>
#include <bit>
#include <cstdint>
#include <optional>

namespace contactbench::cases {
// R = Q(q)/|q|² in double-double with one division (the generic form divides nine times).
template <>
Mat3<reference::dd::Bounded> rotation(const Eigen::Vector4d& quaternion) {
  using B = reference::dd::Bounded;
  const B w = quaternion[0], x = quaternion[1], y = quaternion[2], z = quaternion[3];
  const B ww = w * w, xx = x * x, yy = y * y, zz = z * z;
  const B inv = B(1) / (ww + xx + yy + zz);
  Mat3<B> r;
  r[0][0] = ww + xx - yy - zz; r[0][1] = 2 * (x * y - w * z); r[0][2] = 2 * (x * z + w * y);
  r[1][0] = 2 * (x * y + w * z); r[1][1] = ww - xx + yy - zz; r[1][2] = 2 * (y * z - w * x);
  r[2][0] = 2 * (x * z - w * y); r[2][1] = 2 * (y * z + w * x); r[2][2] = ww - xx - yy + zz;
  for (auto& row : r)
    for (auto& v : row) v = v * inv;
  return r;
}
}  // namespace contactbench::cases

namespace contactbench::reference {

namespace {

using cases::EllipsoidContactQuery;
using cases::EllipsoidContactResult;
using cases::Mat3;
using cases::Pencil;
using exact::Interval;
using mpfr::mpreal;
using V3 = std::array<double, 3>;

constexpr int mp_bits = 128;  // MPFR precision of F, point, normal, overlap, filtered roots

// Solves M x = b (M symmetric positive definite 3×3) by the adjugate, for any scalar.
template <class T>
std::array<T, 3> solve3(const Mat3<T>& m, const std::array<T, 3>& b) {
  const T c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1], c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2],
          c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const T c11 = m[0][0] * m[2][2] - m[0][2] * m[2][0], c12 = m[0][1] * m[2][0] - m[0][0] * m[2][1];
  const T c22 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
  const T det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
  // adj(M) is symmetric for symmetric M: rows (c00 c01 c02), (c01 c11 c12), (c02 c12 c22).
  return {(c00 * b[0] + c01 * b[1] + c02 * b[2]) / det, (c01 * b[0] + c11 * b[1] + c12 * b[2]) / det,
          (c02 * b[0] + c12 * b[1] + c22 * b[2]) / det};
}

// The same solution with one division (x = adj(M) b · (1/det)): for double-double the
// division dominates the cost; the exact value is the same, the bound tracks the rounding.
template <>
std::array<dd::Bounded, 3> solve3(const Mat3<dd::Bounded>& m, const std::array<dd::Bounded, 3>& b) {
  using B = dd::Bounded;
  const B c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1], c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2],
          c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const B c11 = m[0][0] * m[2][2] - m[0][2] * m[2][0], c12 = m[0][1] * m[2][0] - m[0][0] * m[2][1];
  const B c22 = m[0][0] * m[1][1] - m[0][1] * m[1][0];
  const B inv = B(1) / (m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02);
  return {(c00 * b[0] + c01 * b[1] + c02 * b[2]) * inv, (c01 * b[0] + c11 * b[1] + c12 * b[2]) * inv,
          (c02 * b[0] + c12 * b[1] + c22 * b[2]) * inv};
}

template <class T>
T dot3(const std::array<T, 3>& a, const std::array<T, 3>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

template <class T>
std::array<T, 3> mul3(const Mat3<T>& m, const std::array<T, 3>& v) {
  return {m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2], m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
          m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]};
}

// Perram–Wertheim in A's unit-sphere frame (A = unit ball at 0, B = {y : yᵀKy + 2kᵀy + κ < 0}):
//   h(t) = min_y t|y|² + (1 − t)(yᵀKy + 2kᵀy + κ + 1),
// minimiser S y = −(1 − t)k with S = tI + (1 − t)K; h'(t) = |y|² − (yᵀKy + 2kᵀy + κ + 1);
// S y' = (Ky + k) − y, h''(t) = −2 y'ᵀ S y' < 0: concave, F = max h. F is invariant under
// the common affine map to this frame (scaling about the centres commutes with it).
template <class T>
struct PwStep {
  std::array<T, 3> y, yd;  // minimiser and its derivative in t
  T h, dh, ddh;
};

template <class T>
PwStep<T> pw_step(const Pencil<T>& p, const T& t) {
  Mat3<T> s;
  const T u = 1 - t;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s[i][j] = u * p.K[i][j] + (i == j ? t : T(0));
  PwStep<T> r;
  r.y = solve3(s, {-u * p.k[0], -u * p.k[1], -u * p.k[2]});
  const std::array<T, 3> ky = mul3(p.K, r.y);
  const T qa = dot3(r.y, r.y);
  const T qb = dot3(r.y, ky) + 2 * dot3(p.k, r.y) + p.kappa + 1;
  r.h = t * qa + u * qb;
  r.dh = qa - qb;
  r.yd = solve3(s, {ky[0] + p.k[0] - r.y[0], ky[1] + p.k[1] - r.y[1], ky[2] + p.k[2] - r.y[2]});
  r.ddh = -2 * dot3(r.yd, mul3(s, r.yd));
  return r;
}

// The maximiser of h on (0, 1): Newton kept inside the bracket (h' > 0 left of the maximiser,
// h' < 0 right of it), bisecting when a step leaves it; stops when a step is below `tol`.
template <class T>
T pw_maximise(const Pencil<T>& p, T t, T lo, T hi, double tol) {
  using std::abs;
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const auto s = pw_step(p, t);
    if (s.dh == 0) break;
    if (s.dh > 0) lo = t; else hi = t;
    T next = t - s.dh / s.ddh;
    if (!(next > lo && next < hi)) next = lo + (hi - lo) / 2;
    const T step = next - t;
    t = next;
    if (abs(step) <= tol) break;
  }
  return t;
}

double nearest(exact::Algebraic& a) {
  auto [lo, hi] = exact::round_out(a);
  if (lo == hi) return lo;
  const mpq_class mid = (mpq_class(lo) + mpq_class(hi)) / 2;
  const int c = exact::compare(a, mid);
  if (c != 0) return c < 0 ? lo : hi;
  return (std::bit_cast<std::uint64_t>(lo) & 1) ? hi : lo;  // tie: to even
}

exact::Polynomial exact_E(const EllipsoidContactQuery& q) {
  const auto e = cases::characteristic(cases::pencil<mpq_class>(q));
  return exact::Polynomial(std::vector<mpq_class>(e.begin(), e.end()));
}

// E(μ) over intervals (Horner), rounding protected by the caller.
Interval eval(const std::array<Interval, 5>& e, double mu) {
  Interval r = e[4];
  for (int i = 3; i >= 0; --i) r = r * mu + e[i];
  return r;
}

// The filter: 2 when E(μ) < 0 is certain at a candidate μ > 0 (with E(0) > 0 and E(+∞) > 0:
// a root on each side; at most two are positive since two are negative); 0 when a candidate
// point y is certainly inside both (|y|² < 1 and yᵀKy + 2kᵀy + κ < 0): the interiors meet,
// so the ellipsoids are neither separated nor externally touching, which by Wang, Wang &
// Kim's theorem means no positive root. Empty when neither certificate holds.
std::optional<int> filter(const EllipsoidContactQuery& q, const std::vector<double>& mus,
                          const std::vector<V3>& points) {
  exact::ProtectRounding guard;
  const Pencil<Interval> p = cases::pencil<Interval>(q);
  const auto e = cases::characteristic(p);
  for (double mu : mus)
    if (mu > 0 && std::isfinite(mu) && CGAL::certainly(eval(e, mu) < 0)) return 2;
  for (const V3& y : points) {
    const std::array<Interval, 3> yi = {y[0], y[1], y[2]};
    const Interval in_a = dot3(yi, yi) - 1;
    const Interval in_b = dot3(yi, mul3(p.K, yi)) + 2 * dot3(p.k, yi) + p.kappa;
    if (CGAL::certainly(in_a < 0) && CGAL::certainly(in_b < 0)) return 0;
  }
  return std::nullopt;
}

// E's minimiser on (0, ∞) near μ0 in double (Newton on E'), for the separation certificate.
double min_E(const std::array<double, 5>& e, double mu) {
  for (int i = 0; i < 30; ++i) {
    const double d1 = ((4 * e[4] * mu + 3 * e[3]) * mu + 2 * e[2]) * mu + e[1];
    const double d2 = (12 * e[4] * mu + 6 * e[3]) * mu + 2 * e[2];
    if (!(d2 > 0)) break;
    const double next = mu - d1 / d2;
    if (!(next > 0) || !std::isfinite(next)) break;
    if (std::abs(next - mu) <= 1e-15 * mu) return next;
    mu = next;
  }
  return mu;
}

double horner(const std::array<double, 5>& e, double x) {
  return (((e[4] * x + e[3]) * x + e[2]) * x + e[1]) * x + e[0];
}

// Bisection in double on E's double coefficients, from (lo, hi) with E(lo), E(hi) of
// opposite signs, to adjacent doubles: the start of both root paths.
double bisect(const std::array<double, 5>& ed, double lo, double hi) {
  const bool rising = horner(ed, lo) < 0;
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (((horner(ed, mid) < 0) == rising) ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

// A root of E in (lo, hi): Newton in MPFR (128 bits) on MPFR coefficients from the
// bisection's double; rounded once.
double root_mp(const std::array<double, 5>& ed, const std::array<mpreal, 5>& em, double lo, double hi) {
  mpreal x = bisect(ed, lo, hi);
  for (int i = 0; i < 8; ++i) {
    mpreal v = em[4], d = 0;
    for (int k = 3; k >= 0; --k) d = d * x + v, v = v * x + em[k];
    if (d == 0) break;
    const mpreal step = v / d;
    x -= step;
    if (abs(step) <= abs(x) * mpfr::ldexp(mpreal(1), -120)) break;
  }
  return x.toDouble();
}

// The exact path: Sturm count on E's rational coefficients; roots isolated exactly.
int exact_count(const EllipsoidContactQuery& q, std::vector<double>* roots) {
  const exact::Polynomial E = exact_E(q);
  const int n = exact::count_roots_above(E, 0);
  if (roots && n > 0) {
    // A power of two above Cauchy's bound: dyadic ends keep the bisection's numbers small.
    const mpq_class bound(std::ldexp(1.0, static_cast<int>(std::ceil(std::log2(exact::up_to_double(exact::root_bound(E))))) + 1));
    for (auto& a : exact::real_roots(E, 0, bound))
      if (exact::compare(a, mpq_class(0)) > 0) roots->push_back(nearest(a));
  }
  return n;
}

}  // namespace

std::array<double, 5> ellipsoid_characteristic(const EllipsoidContactQuery& q) {
  const exact::Polynomial E = exact_E(q);
  const mpq_class det_l = mpq_class(q.a.semi_axes[0]) * q.a.semi_axes[1] * q.a.semi_axes[2];
  const mpq_class scale = -1 / (det_l * det_l);  // f = −(s_1 s_2 s_3)^-2 E
  std::array<double, 5> c{};
  for (int i = 0; i <= E.degree(); ++i) c[i] = exact::to_nearest_double(mpq_class(E.c[i] * scale));
  return c;
}

int ellipsoid_positive_roots_exact(const EllipsoidContactQuery& q) { return exact_count(q, nullptr); }

namespace {

struct Presolve {
  Pencil<double> p;
  std::array<double, 5> e;
  double t = 0.5;      // PW maximiser in double
  std::vector<double> mus;
  std::vector<V3> points;
  bool coincident = false;
};

Presolve presolve(const EllipsoidContactQuery& q) {
  Presolve s;
  s.p = cases::pencil<double>(q);
  s.e = cases::characteristic(s.p);
  s.coincident = q.a.centre == q.b.centre;
  s.points.push_back({0, 0, 0});  // A's centre
  if (s.coincident) return s;
  s.t = pw_maximise<double>(s.p, 0.5, 0, 1, 0x1p-60);
  const auto st = pw_step(s.p, s.t);
  s.points.push_back(st.y);
  s.points.push_back(solve3(s.p.K, {-s.p.k[0], -s.p.k[1], -s.p.k[2]}));  // B's centre
  // At touching the pencil's singular member is μ = t/(1 − t) (PW's stationarity is the
  // first three rows of (μD + B')Y = 0); E's minimiser near it.
  const double mu = s.t / (1 - s.t);
  s.mus = {mu, min_E(s.e, mu)};
  return s;
}

}  // namespace

int ellipsoid_positive_roots_filtered(const EllipsoidContactQuery& q) {
  const Presolve s = presolve(q);
  const auto n = filter(q, s.mus, s.points);
  return n ? *n : -1;
}

// The state's double-double certificate (ellipsoid_contact_state only): at t, one Newton
// step from the double maximiser t0 taken as an exact point, h(t) and the minimiser y(t) in
// double-double with running bounds. F = max h ≥ h(t): h(t) > 1 separated; q_A(y), q_B(y)
// < 1 (q_A = h + (1 − t)h', q_B = h − t h'): y is inside both, overlapping (as the filter).
// Decides down to relative gaps near 1e-28; −1 when it cannot. Valid from any t0 in (0, 1)
// (the step only chooses the point); from a double maximiser one step reaches dd accuracy.
int pw_certificate_dd(const EllipsoidContactQuery& q, double t0) {
  using dd::Bounded;
  const Pencil<Bounded> p = cases::pencil<Bounded>(q);
  PwStep<Bounded> st = pw_step(p, Bounded(t0));
  if (!(st.ddh.hi < 0)) return -1;
  const Bounded t = dd::point(Bounded(t0) - st.dh / st.ddh);
  if (!(t.hi > 0 && t.hi < 1)) return -1;
  st = pw_step(p, t);
  // x − 1 beyond its bound, the two roundings of (hi − 1) + lo covered by 2^-50.
  auto above_one = [](const Bounded& x) { return ((x.hi - 1) + x.lo) * (1 - 0x1p-50) > x.err; };
  auto below_one = [](const Bounded& x) { return ((1 - x.hi) - x.lo) * (1 - 0x1p-50) > x.err; };
  if (above_one(st.h)) return 2;
  if (below_one(st.h + (1 - t) * st.dh) && below_one(st.h - t * st.dh)) return 0;
  return -1;
}

int ellipsoid_contact_state(const EllipsoidContactQuery& q, int* stage, double t0) {
  std::optional<int> n;
  int by = 1;
  const bool started = t0 > 0 && t0 < 1 && !(q.a.centre == q.b.centre);
  if (started) {  // the caller's maximiser: the double-double certificate first
    if (const int c = pw_certificate_dd(q, t0); c >= 0) n = c, by = 2;
  }
  if (!n) {
    const Presolve s = presolve(q);
    n = filter(q, s.mus, s.points), by = 1;
    if (!n && !s.coincident && !started) {
      if (const int c = pw_certificate_dd(q, s.t); c >= 0) n = c, by = 2;
    }
  }
  if (!n) n = exact_count(q, nullptr), by = 3;
  if (stage) *stage = by;
  return *n == 2 ? 0 : *n == 1 ? 1 : 2;
}

namespace {

// The brackets (0, split), (split, bound) of the two positive roots of a separated pair.
std::pair<double, double> root_brackets(const EllipsoidContactQuery& q, const Presolve& s) {
  const double split = CGAL::certainly(eval(cases::characteristic(cases::pencil<Interval>(q)), s.mus[0]) < 0) ? s.mus[0] : s.mus[1];
  double bound = 1;
  for (int i = 0; i < 4; ++i) bound = std::max(bound, 1 + std::abs(s.e[i]) * 2);  // Cauchy, doubled for rounding
  return {split, bound};
}

// The reported positive margin, rounded up: m is the exact |√F − 1| rounded to nearest (its
// error at most half an ulp plus the 128-bit path's, far below it), so the next double above
// m is above the exact margin.
double margin_up(double m) { return std::nextafter(m, INFINITY); }

// The constructions in MPFR, 128 bits, each value rounded to double once at the end: the
// path every query took before the filtered stage below, and its fallback.
void constructions_mp(const EllipsoidContactQuery& q, const Presolve& s, bool filtered, int n,
                      const std::vector<double>& exact_roots, EllipsoidContactResult& r) {
  // Everything below needs square roots or the iterative maximiser: MPFR, 128 bits, each
  // value rounded to double once at the end.
  const mpfr_prec_t saved = mpreal::get_default_prec();
  mpreal::set_default_prec(mp_bits);
  std::optional<Pencil<mpreal>> pm;  // the pencil at 128 bits, computed once when needed
  if (!s.coincident || (filtered && n == 2)) pm = cases::pencil<mpreal>(q);
  if (filtered && n == 2) {
    std::array<mpreal, 5> em = cases::characteristic(*pm);
    const auto [split, bound] = root_brackets(q, s);
    r.roots = {root_mp(s.e, em, 0, split), root_mp(s.e, em, split, bound)};
  } else {
    r.roots = exact_roots;
  }

  const Mat3<mpreal> ra = cases::rotation<mpreal>(q.a.quaternion);
  std::array<mpreal, 3> ca, cb;
  for (int i = 0; i < 3; ++i) ca[i] = q.a.centre[i], cb[i] = q.b.centre[i];
  if (s.coincident) {
    r.F = 0;
    r.point = q.a.centre;
    r.normal = cases::Vec3::Zero();
    r.state_margin = 1;  // |√0 − 1|
  } else {
    const Pencil<mpreal>& p = *pm;
    // Newton from the double maximiser (one or two steps), safeguarded on (0, 1).
    const mpreal t = pw_maximise<mpreal>(p, s.t, 0, 1, 0x1p-120);
    PwStep<mpreal> st = pw_step(p, t);
    const mpreal F = n == 1 ? mpreal(1) : st.h;
    r.F = F.toDouble();
    mpreal margin = abs(sqrt(F) - 1);
    r.state_margin = n == 1 ? 0.0 : margin_up(margin.toDouble());
    // Back to world coordinates: x = c_A + R_A diag(s_A) y; normal ∝ R_A diag(1/s_A) y.
    std::array<mpreal, 3> ys, yn;
    for (int i = 0; i < 3; ++i) ys[i] = st.y[i] * q.a.semi_axes[i], yn[i] = st.y[i] / q.a.semi_axes[i];
    const auto xs = mul3(ra, ys), ns = mul3(ra, yn);
    const mpreal nn = sqrt(dot3(ns, ns));
    for (int i = 0; i < 3; ++i) r.point[i] = (ca[i] + xs[i]).toDouble(), r.normal[i] = (ns[i] / nn).toDouble();
    // Centre-line overlap: t_X = |r| / √(rᵀ P_X r), rᵀ P_X r = Σ_i ((R_Xᵀ r)_i / s_X,i)².
    std::array<mpreal, 3> d;
    for (int i = 0; i < 3; ++i) d[i] = cb[i] - ca[i];
    auto reach = [&](const cases::Ellipsoid& e, const Mat3<mpreal>& re) {
      mpreal sum = 0;
      for (int i = 0; i < 3; ++i) {
        const mpreal c = (re[0][i] * d[0] + re[1][i] * d[1] + re[2][i] * d[2]) / e.semi_axes[i];
        sum += c * c;
      }
      return sqrt(sum);
    };
    const mpreal len = sqrt(dot3(d, d));
    r.overlap = (len / reach(q.a, ra) + len / reach(q.b, cases::rotation<mpreal>(q.b.quaternion)) - len).toDouble();
  }
  mpreal::set_default_prec(saved);
}


// The filtered stage of the constructions: the same formulas in double-double with a
// running error bound (reference/src/double_double.hpp). Why its doubles equal the MPFR
// path's: each output is an approximation of one exact real x (F = max h, the point and
// normal at the maximiser, the overlap, a root of E). This stage gives v and e with
// |x − v| ≤ e; the MPFR path evaluates the same formulas (up to where divisions are
// shared) at 128 bits, unit 2^-128 per operation against our U = 2^-102 on the same
// magnitudes, and its Newton iterates stop 2^-120 from the maximiser (root), whose effect on
// F is second order; so its value lies within about 2^-26·e of x, far inside 2e. An output
// is taken only when no midpoint between adjacent doubles lies in [v − 2e, v + 2e]
// (dd::certain_double): then x and the MPFR value both round to the same double. Otherwise (or when a bound is infinite) the caller runs the
// MPFR path unchanged. Iterations only choose the point t (or μ) where the formulas are
// evaluated; that point is taken as exact, and the distance to the true maximiser (root) is
// bounded by twice the Newton step |h'|/|h''| (|E|/|E'|), added to the bound.
// Returns false when any output is not certain; r's constructions are then untouched.
bool constructions_dd(const EllipsoidContactQuery& q, const Presolve& s, int n, EllipsoidContactResult& r) {
  using dd::Bounded;
  const Pencil<Bounded> p = cases::pencil<Bounded>(q);
  std::vector<double> roots;
  if (n == 2) {
    const std::array<Bounded, 5> e = cases::characteristic(p);
    const auto [split, bound] = root_brackets(q, s);
    for (const auto& [lo, hi] : {std::pair{0.0, split}, std::pair{split, bound}}) {
      Bounded x = bisect(s.e, lo, hi);
      Bounded v, d, d2;
      for (int i = 0; i < 4; ++i) {  // Newton from adjacent doubles: three steps
        v = e[4], d = 0, d2 = 0;
        for (int k = 3; k >= 0; --k) d2 = d2 * x + d, d = d * x + v, v = v * x + e[k];
        if (i == 3 || d == 0) break;
        x = dd::point(x - v / d);
      }
      // |x − root| ≤ |E(x)|/|E'(x)| to first order; doubled, and only while E' hardly
      // changes over that distance (|E''|·δ small against |E'|).
      const double den = std::abs(d.hi) - d.err, delta = 2 * (std::abs(v.hi) + v.err) / den;
      if (!(den > 0) || !(2 * (std::abs(d2.hi) + d2.err) * delta < 0x1p-10 * den)) return false;
      x.err = delta;
      const double root = dd::certain_double(x);
      if (std::isnan(root)) return false;
      roots.push_back(root);
    }
  }
  // One Newton step from the double maximiser (accurate to about 2^-53) reaches about
  // 2^-106; the bound below accounts for whatever distance to the maximiser is left.
  PwStep<Bounded> st = pw_step(p, Bounded(s.t));
  if (!(st.ddh.hi < 0)) return false;
  const Bounded t = dd::point(Bounded(s.t) - st.dh / st.ddh);
  if (!(t.hi > 0 && t.hi < 1)) return false;
  st = pw_step(p, t);
  const double slope = std::abs(st.dh.hi) + st.dh.err, curve = std::abs(st.ddh.hi) - st.ddh.err;
  if (!(curve > 0)) return false;
  const double dt = 2 * slope / curve;  // |t* − t|, doubled
  st.h.err += slope * dt;               // concave h: 0 ≤ h(t*) − h(t) ≤ |h'(t)|·|t* − t|
  for (int i = 0; i < 3; ++i) st.y[i].err += 2 * (std::abs(st.yd[i].hi) + st.yd[i].err) * dt;
  const Bounded& F = st.h;
  const Bounded margin = dd::abs(F - 1) / (dd::sqrt(F) + 1);  // |√F − 1| without cancellation
  const Mat3<Bounded> ra = cases::rotation<Bounded>(q.a.quaternion);
  std::array<Bounded, 3> ys, yn;
  for (int i = 0; i < 3; ++i) ys[i] = st.y[i] * q.a.semi_axes[i], yn[i] = st.y[i] / q.a.semi_axes[i];
  const auto xs = mul3(ra, ys), ns = mul3(ra, yn);
  const Bounded nn = dd::sqrt(dot3(ns, ns));
  std::array<Bounded, 3> d;
  for (int i = 0; i < 3; ++i) d[i] = Bounded(q.b.centre[i]) - Bounded(q.a.centre[i]);
  auto reach = [&](const cases::Ellipsoid& el, const Mat3<Bounded>& re) {
    Bounded sum = 0;
    for (int i = 0; i < 3; ++i) {
      const Bounded c = (re[0][i] * d[0] + re[1][i] * d[1] + re[2][i] * d[2]) / el.semi_axes[i];
      sum = sum + c * c;
    }
    return dd::sqrt(sum);
  };
  const Bounded len = dd::sqrt(dot3(d, d));
  const Bounded overlap = len / reach(q.a, ra) + len / reach(q.b, cases::rotation<Bounded>(q.b.quaternion)) - len;

  std::array<double, 9> out;
  std::array<Bounded, 9> in = {F, margin, overlap, Bounded(q.a.centre[0]) + xs[0], Bounded(q.a.centre[1]) + xs[1],
                               Bounded(q.a.centre[2]) + xs[2], ns[0] / nn, ns[1] / nn, ns[2] / nn};
  for (int i = 0; i < 9; ++i)
    if (std::isnan(out[i] = dd::certain_double(in[i]))) return false;
  r.roots = roots;
  r.F = out[0];
  r.state_margin = margin_up(out[1]);
  r.overlap = out[2];
  for (int i = 0; i < 3; ++i) r.point[i] = out[3 + i], r.normal[i] = out[6 + i];
  return true;
}

// The state (filter, else exact count), then the constructions: the double-double stage
// first when `staged` and the filter decided, MPFR otherwise or when the stage is unsure.
EllipsoidContactResult solve(const EllipsoidContactQuery& q, bool staged) {
  EllipsoidContactResult r;
  const Presolve s = presolve(q);
  const std::optional<int> filtered = filter(q, s.mus, s.points);
  std::vector<double> exact_roots;
  const int n = filtered ? *filtered : exact_count(q, &exact_roots);
  r.state = cases::ellipsoid_state_names[n == 2 ? 0 : n == 1 ? 1 : 2];
  if (!(staged && filtered && !s.coincident && constructions_dd(q, s, n, r)))
    constructions_mp(q, s, filtered.has_value(), n, exact_roots, r);
  return r;
}

}  // namespace

EllipsoidContactResult ellipsoid_contact(const EllipsoidContactQuery& q) { return solve(q, true); }

EllipsoidContactResult ellipsoid_contact_mpfr(const EllipsoidContactQuery& q) { return solve(q, false); }

}  // namespace contactbench::reference
