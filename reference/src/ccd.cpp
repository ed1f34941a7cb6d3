// Exact CCD oracle. Everything that decides the answer is exact rational arithmetic (GMP
// mpq): inputs are doubles, hence exact rationals; every quantity below is a polynomial in t
// with rational coefficients; roots are isolated exactly with Sturm sequences and signs at
// irrational roots are decided by gcd tests (exact zero) and refinement of the isolating
// interval until an exact rational interval bound excludes zero (sign != 0 is then certain);
// all of that is exact::Polynomial / exact::Algebraic (reference/src/polynomial.hpp).
//
// Why the candidate set below is complete. Let S be the set of contact times; it is closed
// (projection of a compact set), so t* = min S exists when S is not empty.
//  * vertex-face: either t* = 0, or p(t*) lies on a closed edge of the triangle (a
//    point-edge sub-problem), or p(t*) is in the relative interior of a non-degenerate
//    triangle. In the last case the coplanarity cubic f(t) = det(b-a, c-a, p-a) vanishes at
//    t*, and f is not identically zero: otherwise the barycentric coordinates, continuous
//    near t*, would keep p inside for slightly smaller t.
//  * edge-edge: either t* = 0, or an endpoint lies on the other closed segment (4
//    point-edge sub-problems; this covers parallel, collinear and degenerate edges), or the
//    segments are non-parallel and meet at interior points of both, where the cubic
//    det(a1-a0, b1-b0, b0-a0) vanishes and is not identically zero (same continuity
//    argument).
//  * point-edge: t* = 0, or p(t*) equals an endpoint (point-point: linear equations), or p
//    is interior to a non-degenerate segment: all components of (p-x) x (y-x) vanish, and
//    they are not all identically zero.
// For every polynomial we test its roots in [0, 1] in increasing order with an exact
// "do they touch at time r" predicate and keep the first one that touches; t* is the
// smallest of these candidates. Each candidate is verified exactly, so nothing is reported
// that does not happen.
#include "reference/ccd.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/double_double.hpp"
#include "reference/src/exact_vector.hpp"
#include "reference/src/lazy.hpp"
#include "reference/src/polynomial.hpp"

#include <Eigen/Geometry>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace contactbench::reference {
namespace {

using exact::Algebraic;
using exact::Polynomial;
using Q = mpq_class;
// Vectors of polynomials: the linear motion of a point and everything built from it.
using PVec = exact::Vector3<Polynomial>;

// The motion from x0 to x1: integer coordinates (exact::to_integers scales the whole query by
// one power of two; every sign and every root in t the exact path computes is unchanged by a
// common positive scale of space), so the polynomials built from them (the motions, crosses
// and dots) have integer coefficients, which GMP adds and multiplies without fraction gcds.
PVec motion(const exact::Vector3<mpz_class>& x0, const exact::Vector3<mpz_class>& x1) {
  PVec r;
  for (int k = 0; k < 3; ++k) r[k] = Polynomial({Q(x0[k]), Q(x1[k] - x0[k])});
  return r;
}

// ---------------------------------------------------------------------------------------
// The problems. Each holds the polynomials of one primitive pair; touch(r) decides exactly
// whether they touch at time r; earliest() returns t* or nothing.

bool nonzero_at(const PVec& v, Algebraic& r) {
  return sign_at(v[0], r) != 0 || sign_at(v[1], r) != 0 || sign_at(v[2], r) != 0;
}

bool all_zero(const PVec& v) { return v[0].is_zero() && v[1].is_zero() && v[2].is_zero(); }

// Polynomials computed on first use (reference/src/lazy.hpp): most are needed only at a root
// where the cheaper conditions before them hold (the same polynomial either way, so the same
// signs).
using LazyPolynomial = Lazy<Polynomial>;

// Exact AABB filter: if the boxes swept by the two vertex sets over [0, 1] are disjoint
// along some axis, no contact is possible (comparisons of doubles are exact).
bool boxes_disjoint(const std::vector<const cases::Vec3*>& a,
                    const std::vector<const cases::Vec3*>& b) {
  for (int k = 0; k < 3; ++k) {
    double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
    for (auto* p : a) alo = std::min(alo, (*p)[k]), ahi = std::max(ahi, (*p)[k]);
    for (auto* p : b) blo = std::min(blo, (*p)[k]), bhi = std::max(bhi, (*p)[k]);
    if (ahi < blo || bhi < alo) return true;
  }
  return false;
}

std::optional<Algebraic> earliest_of(std::vector<Algebraic>& cands) {
  if (cands.empty()) return std::nullopt;
  std::size_t best = 0;
  for (std::size_t i = 1; i < cands.size(); ++i)
    if (compare(cands[i], cands[best]) < 0) best = i;
  return std::move(cands[best]);
}

// Pushes the first root of f in [0, 1] (increasing order) at which `touch` holds exactly.
template <class Touch>
void push_first_root(const Polynomial& f, Touch&& touch, std::vector<Algebraic>& cands) {
  if (f.is_zero()) return;
  for (auto& r : exact::real_roots(f, Q(0), Q(1)))
    if (touch(r)) {
      cands.push_back(std::move(r));
      return;
    }
}

// Point vs point: d(t) = p(t) - x(t) is linear per coordinate.
struct PointPoint {
  PVec d;
  PointPoint(const PVec& p, const PVec& x) : d(p - x) {}
  bool touch(Algebraic& r) const { return !nonzero_at(d, r); }
  std::optional<Algebraic> earliest() const {
    std::optional<Q> root;
    for (const auto& c : d) {
      if (c.is_zero()) continue;
      if (c.degree() == 0) return std::nullopt;  // a constant non-zero gap
      Q t = -c.c[0] / c.c[1];
      if (root && *root != t) return std::nullopt;
      root = std::move(t);
    }
    if (!root) return Algebraic::rational(0);  // identical motion: touching all the time
    if (*root < 0 || *root > 1) return std::nullopt;
    return Algebraic::rational(*root);
  }
};

// Point p vs closed segment [x, y].
struct PointEdge {
  PointPoint px, py;
  PVec e;            // y - x
  PVec cr;           // (p - x) x (y - x)
  LazyPolynomial along_;       // (p - x) . (y - x)
  LazyPolynomial rest_;        // |y - x|^2 - along
  PointEdge(const PVec& p, const PVec& x, const PVec& y)
      : px(p, x), py(p, y), e(y - x), cr(cross(px.d, e)) {}
  // p - x is px.d.
  const Polynomial& along() const { return along_.get([this] { return dot(px.d, e); }); }
  const Polynomial& rest() const { return rest_.get([this] { return dot(e, e) - along(); }); }
  bool interior_touch(Algebraic& r) const {
    return nonzero_at(e, r) && !nonzero_at(cr, r) && sign_at(along(), r) >= 0 &&
           sign_at(rest(), r) >= 0;
  }
  bool touch(Algebraic& r) const { return px.touch(r) || py.touch(r) || interior_touch(r); }
  std::optional<Algebraic> earliest() const {
    Algebraic zero = Algebraic::rational(0);
    if (touch(zero)) return zero;
    std::vector<Algebraic> cands;
    if (auto a = px.earliest()) cands.push_back(std::move(*a));
    if (auto a = py.earliest()) cands.push_back(std::move(*a));
    if (!all_zero(cr)) {
      Polynomial g;  // common roots of the components: roots of their gcd
      for (const auto& c : cr) g = gcd(g, c);
      push_first_root(g, [this](Algebraic& r) { return interior_touch(r); }, cands);
    }
    return earliest_of(cands);
  }
};

// The search shared by vertex-face and edge-edge: contact at t = 0; else the smallest of
// the first root of the coplanarity cubic f where `main_touch` holds (the point inside the
// non-degenerate triangle / the edges crossing at interior points) and the earliest
// contact of every point-edge sub-problem whose swept boxes can meet.
// sub[k] = {point vertex, segment end, segment end} (indices into the query's x).
template <class Touch, class AnyTouch, std::size_t N>
std::optional<Algebraic> earliest_contact(const cases::CcdQuery& q, const Polynomial& f,
                                          Touch&& main_touch, AnyTouch&& any_touch,
                                          const std::array<PointEdge, N>& edges,
                                          const std::array<std::array<int, 3>, N>& sub) {
  Algebraic zero = Algebraic::rational(0);
  if (any_touch(zero)) return zero;
  std::vector<Algebraic> cands;
  push_first_root(f, main_touch, cands);
  const auto& x = q.x;
  for (std::size_t k = 0; k < N; ++k) {
    const auto [p, s0, s1] = sub[k];
    if (boxes_disjoint({&x[p], &x[p + 4]}, {&x[s0], &x[s1], &x[s0 + 4], &x[s1 + 4]})) continue;
    if (auto t = edges[k].earliest()) cands.push_back(std::move(*t));
  }
  return earliest_of(cands);
}

struct VertexFace {
  PVec p, a, b, c;
  PVec n;        // (b - a) x (c - a)
  Polynomial f;  // n . (p - a): coplanarity cubic
  // n . (edge x (p - edge start)): >= 0 all three <=> inside (n != 0)
  std::array<LazyPolynomial, 3> g_;
  std::array<PointEdge, 3> edges;
  VertexFace(const PVec& p_, const PVec& a_, const PVec& b_, const PVec& c_)
      : p(p_), a(a_), b(b_), c(c_), n(cross(b - a, c - a)), f(dot(n, p - a)),
        edges{PointEdge(p, a, b), PointEdge(p, b, c), PointEdge(p, c, a)} {}
  const Polynomial& g(int k) const {
    return g_[k].get([&] {
      const PVec& x = k == 0 ? a : (k == 1 ? b : c);
      const PVec& y = k == 0 ? b : (k == 1 ? c : a);
      return dot(n, cross(y - x, p - x));
    });
  }
  bool face_touch(Algebraic& r) const {
    return sign_at(f, r) == 0 && nonzero_at(n, r) && sign_at(g(0), r) >= 0 &&
           sign_at(g(1), r) >= 0 && sign_at(g(2), r) >= 0;
  }
  bool touch(Algebraic& r) const {
    if (face_touch(r)) return true;
    for (const auto& e : edges)
      if (e.touch(r)) return true;
    return false;
  }
  std::optional<Algebraic> earliest(const cases::CcdQuery& q) const {
    return earliest_contact(
        q, f, [this](Algebraic& r) { return face_touch(r); },
        [this](Algebraic& r) { return touch(r); },
        edges, std::array<std::array<int, 3>, 3>{{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}}});
  }
  // The feature p touches at the contact time r (exact): a vertex, else an open edge, else
  // the open face.
  cases::CcdFeature feature(Algebraic& r) const {
    for (const auto& e : edges)
      if (e.px.touch(r)) return cases::CcdFeature::vf_vertex;
    for (const auto& e : edges)
      if (e.interior_touch(r)) return cases::CcdFeature::vf_edge;
    return cases::CcdFeature::vf_face;
  }
};

struct EdgeEdge {
  PVec a0, a1, b0, b1;
  PVec m;           // (a1 - a0) x (b1 - b0)
  Polynomial f;     // m . (b0 - a0): coplanarity cubic
  LazyPolynomial mm_;         // |m|^2
  LazyPolynomial s_, u_;      // intersection parameters times |m|^2 on a and on b
  std::array<PointEdge, 4> ends;
  EdgeEdge(const PVec& a0_, const PVec& a1_, const PVec& b0_, const PVec& b1_)
      : a0(a0_), a1(a1_), b0(b0_), b1(b1_), m(cross(a1 - a0, b1 - b0)), f(dot(m, b0 - a0)),
        ends{PointEdge(a0, b0, b1), PointEdge(a1, b0, b1), PointEdge(b0, a0, a1),
             PointEdge(b1, a0, a1)} {}
  const Polynomial& mm() const { return mm_.get([this] { return dot(m, m); }); }
  const Polynomial& s() const { return s_.get([this] { return dot(cross(b0 - a0, b1 - b0), m); }); }
  const Polynomial& u() const { return u_.get([this] { return dot(cross(b0 - a0, a1 - a0), m); }); }
  bool cross_touch(Algebraic& r) const {
    return sign_at(f, r) == 0 && nonzero_at(m, r) && sign_at(s(), r) >= 0 &&
           sign_at(mm() - s(), r) >= 0 && sign_at(u(), r) >= 0 && sign_at(mm() - u(), r) >= 0;
  }
  bool touch(Algebraic& r) const {
    if (cross_touch(r)) return true;
    for (const auto& e : ends)
      if (e.touch(r)) return true;
    return false;
  }
  std::optional<Algebraic> earliest(const cases::CcdQuery& q) const {
    return earliest_contact(
        q, f, [this](Algebraic& r) { return cross_touch(r); },
        [this](Algebraic& r) { return touch(r); },
        ends, std::array<std::array<int, 3>, 4>{{{0, 2, 3}, {1, 2, 3}, {2, 0, 1}, {3, 0, 1}}});
  }
  // Two endpoints meeting, else an endpoint on the other open segment, else interior points.
  cases::CcdFeature feature(Algebraic& r) const {
    for (const auto& e : ends)
      if (e.px.touch(r) || e.py.touch(r)) return cases::CcdFeature::ee_vertex_vertex;
    for (const auto& e : ends)
      if (e.interior_touch(r)) return cases::CcdFeature::ee_edge_vertex;
    return cases::CcdFeature::ee_interior;
  }
};

// ---------------------------------------------------------------------------------------
// Separation (report quantity, long double, not exact).
using L3 = Eigen::Matrix<long double, 3, 1>;

long double clamp01(long double x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

// Squared distance from p to the closed segment [a, b], and the distance.
// The distances below are minima of norms; they take the minimum of the squared norms and
// one square root: sqrt is correctly rounded, hence monotone, so sqrt(min x_i) = min
// sqrt(x_i) bit for bit (and Eigen's norm() is sqrt(squaredNorm())).
long double point_segment_squared(const L3& p, const L3& a, const L3& b) {
  const L3 e = b - a;
  const long double ee = e.squaredNorm();
  const long double s = ee > 0 ? clamp01((p - a).dot(e) / ee) : 0;
  return (p - a - s * e).squaredNorm();
}
long double point_segment(const L3& p, const L3& a, const L3& b) { return std::sqrt(point_segment_squared(p, a, b)); }

// Squared distance from p to the closed triangle a b c: to the in-plane projection if it lies
// inside, otherwise to the nearest edge (also right for degenerate triangles). Every
// candidate is the distance from p to an actual point of the triangle (the projection is
// rebuilt from its barycentric coordinates, all >= 0), so rounding can only make the result
// larger than the true distance, never smaller, apart from the rounding of the final norm
// and of the positions (relative 2^-60 or so). The barycentric coordinates are signed areas
// over |n|^2 with n = (b - a) x (c - a) computed directly (not the Gram determinant
// |e1|^2 |e2|^2 - (e1.e2)^2, which cancels catastrophically for thin triangles): accurate to
// about 2^-64 / sin(smallest angle), so a point over the face of a 1e-4 degree sliver is
// still measured to the face.
long double point_triangle_squared(const L3& p, const L3& a, const L3& b, const L3& c) {
  long double d = std::min({point_segment_squared(p, a, b), point_segment_squared(p, b, c),
                            point_segment_squared(p, c, a)});
  const L3 n = (b - a).cross(c - a);
  const long double nn = n.squaredNorm();
  if (nn > 0) {
    const long double la = n.dot((c - b).cross(p - b)) / nn, lb = n.dot((a - c).cross(p - c)) / nn,
                      lc = n.dot((b - a).cross(p - a)) / nn;
    if (la >= 0 && lb >= 0 && lc >= 0) {
      const long double sum = la + lb + lc;
      d = std::min(d, (p - (la * a + lb * b + lc * c) / sum).squaredNorm());
    }
  }
  return d;
}

// Closest parameters (s on a0 + s da, u on b0 + u db) of two non-parallel lines, from the
// cross product m = da x db (accurate for nearly parallel edges, unlike A C - B^2).
bool line_params(const L3& a0, const L3& da, const L3& b0, const L3& db, long double& s,
                 long double& u) {
  const L3 m = da.cross(db), w = b0 - a0;
  const long double mm = m.squaredNorm();
  if (!(mm > 0)) return false;
  s = w.cross(db).dot(m) / mm;
  u = w.cross(da).dot(m) / mm;
  return true;
}

// Squared distance between closed segments [a0, a1] and [b0, b1]: the interior critical point if
// both parameters are inside, otherwise the best of the four endpoint-segment distances.
long double segment_segment_squared(const L3& a0, const L3& a1, const L3& b0, const L3& b1) {
  long double d = std::min({point_segment_squared(a0, b0, b1), point_segment_squared(a1, b0, b1),
                            point_segment_squared(b0, a0, a1), point_segment_squared(b1, a0, a1)});
  const L3 da = a1 - a0, db = b1 - b0;
  long double s, u;
  if (line_params(a0, da, b0, db, s, u) && s >= 0 && s <= 1 && u >= 0 && u <= 1)
    d = std::min(d, ((a0 + s * da) - (b0 + u * db)).squaredNorm());
  return d;
}

// The query's coordinates in long double, converted once for the many distance_at calls of
// a separation estimate (the conversion is exact; a subnormal double costs x87 an assist
// each time it is loaded).
struct LongQuery {
  cases::CcdKind kind;
  std::array<L3, 8> x;
  explicit LongQuery(const cases::CcdQuery& q) : kind(q.kind) {
    for (int i = 0; i < 8; ++i) x[i] = q.x[i].cast<long double>();
  }
};
long double distance_at(const LongQuery& q, long double t) {
  std::array<L3, 4> v;
  for (int i = 0; i < 4; ++i) v[i] = (1 - t) * q.x[i] + t * q.x[i + 4];
  return std::sqrt(q.kind == cases::CcdKind::vertex_face ? point_triangle_squared(v[0], v[1], v[2], v[3])
                                                         : segment_segment_squared(v[0], v[1], v[2], v[3]));
}
long double distance_at(const cases::CcdQuery& q, long double t) { return distance_at(LongQuery(q), t); }

// The margin of the feature decision (see cases::CcdResult::feature_margin): long double at
// t (the contact time rounded down; the positions move by at most 2^-53 of the scale from
// those at t*).
double feature_margin(const cases::CcdQuery& q, cases::CcdFeature f, double t) {
  if (f != cases::CcdFeature::vf_face && f != cases::CcdFeature::ee_interior) return 0;
  std::array<L3, 4> v;
  for (int i = 0; i < 4; ++i)
    v[i] = (1 - static_cast<long double>(t)) * q.x[i].cast<long double>() +
           static_cast<long double>(t) * q.x[i + 4].cast<long double>();
  long double d;
  if (f == cases::CcdFeature::vf_face) {
    d = std::min({point_segment(v[0], v[1], v[2]), point_segment(v[0], v[2], v[3]),
                  point_segment(v[0], v[3], v[1])});
  } else {
    const L3 da = v[1] - v[0], db = v[3] - v[2];
    long double s, u;
    if (!line_params(v[0], da, v[2], db, s, u)) return std::numeric_limits<double>::denorm_min();
    s = clamp01(s), u = clamp01(u);
    d = std::min(std::min(s, 1 - s) * da.norm(), std::min(u, 1 - u) * db.norm());
  }
  // The feature is decided exactly (open face / interior points): the margin is positive even
  // where the estimate at the rounded time says 0.
  return std::max(static_cast<double>(d / cases::ccd_scale(q)), std::numeric_limits<double>::denorm_min());
}

// ---------------------------------------------------------------------------------------
// The filtered stage (CGAL-style filter: a cheap certified stage; every query it cannot
// settle runs the exact path above unchanged).
//
// Necessary conditions for contact. Write f for the coplanarity cubic of the query.
//  * vertex-face: contact at t means p(t) is in the closed triangle a b c, so p - a is a
//    combination of b - a and c - a and f(t) = det(b - a, c - a, p - a) = 0. Moreover, with
//    n = (b - a) x (c - a) and p - a = beta (b - a) + gamma (c - a) (barycentric
//    coordinates alpha, beta, gamma >= 0 of a point of the closed triangle), the three
//    g_k = n . (edge_k x (p - edge_k start)) of VertexFace are gamma |n|^2, alpha |n|^2,
//    beta |n|^2 >= 0; when n = 0 they are all 0. So contact => f = 0 and g_0, g_1, g_2 >= 0.
//  * edge-edge: contact means a0 + sigma da = b0 + tau db with sigma, tau in [0, 1]
//    (da = a1 - a0, db = b1 - b0, w = b0 - a0 = sigma da - tau db), so f = (da x db) . w
//    = 0, and with m = da x db: s = (w x db) . m = sigma |m|^2, u = (w x da) . m = tau |m|^2;
//    hence s, |m|^2 - s, u, |m|^2 - u >= 0 (all 0 when m = 0).
// Certified MISS on a time interval J: f has one strict sign on J, or one of the g_k (resp.
// s, |m|^2 - s, u, |m|^2 - u) is < 0 on all of J. A miss over [0, 1] is a cover of [0, 1] by
// such intervals: no contact at any t, the point-edge sub-problems and t = 0, 1 included (they
// are contacts, so they satisfy the necessary conditions).
// Certified HIT on J = [l, h] when every interval left of l is a certified miss, f(l) and f(h)
// are nonzero of opposite signs, f is strictly monotone on J, and the g_k (resp. s, |m|^2 - s,
// u, |m|^2 - u) are > 0 on all of J. Then f has exactly one root r in (l, h); no contact in
// [0, r) (left of l: the cover; in [l, r): f != 0 there); at r the contact is in the open face
// (all barycentric coordinates > 0, n != 0 since g_k > 0), resp. at interior points of both
// edges (m != 0: non-parallel coplanar lines meet in exactly one point, at parameters s/|m|^2,
// u/|m|^2 in (0, 1)). So t* = r and the exact path's feature is vf_face (p is no vertex and
// on no edge line: that would make a g_k 0), resp. ee_interior (an endpoint on the other
// segment would be the one meeting point, at parameter 0 or 1). The toi is then settled by
// signs of f at doubles: f(d) with the sign of f(l) and f(next_up d) with the sign of f(h),
// l <= d < next_up d <= h, put r strictly between two adjacent doubles: toi = d, toi_up =
// next_up d (the rounding down and up of r); or f(d) = 0 exactly (rationals) at a double d
// in [l, h]: r = d, toi = toi_up = d. Likewise a node whose f has a strict sign on [l, h)
// and f(h) = 0 exactly (Bernstein: b_0 .. b_{n-1} of one strict sign, b_n an exact 0), the
// conditions > 0: t* = h (dyadic inputs put t* on node ends). feature_margin is then the
// same long-double function of (q, feature, toi) as on the exact path.
//
// Signs on an interval: Bernstein coefficients. A polynomial of degree n on [l, h] is
// sum_j b_j B_j(x) with B_j >= 0, sum_j B_j = 1; all b_j > 0 (< 0) proves the sign on the
// closed interval; b_0 = value at l, b_n = value at h; n (b_{j+1} - b_j) are the Bernstein
// coefficients of the derivative (all > 0: strictly increasing). From monomial coefficients c_i
// on [0, 1]: b_j = sum_{i<=j} C(j,i)/C(n,i) c_i; we keep L b_j with L = lcm_i C(n,i) (3 for
// n = 3, 12 for n = 4): integer weights, and a positive factor common to all b_j changes no
// sign above. The halves of [l, h] by de Casteljau at 1/2: averages of neighbours.
// Everything first in CGAL interval arithmetic (rounding protected), then, where that cannot
// decide, again in double-double with a running error bound (reference/src/double_double.hpp;
// resolves contacts perturbed by the rounding of the inputs, ~2^-53 of the scale): every
// enclosure contains the exact value of its formula at the exact double inputs, so each sign
// taken from one is the exact sign of the exact coefficient. Signs at a double d: f(d) in
// double-double, kept only when the enclosure excludes 0.
// Contact at t = 0 (and at t = 1 once [0, 1) is a certified miss, see search) is decided by
// exact signs of the static positions (end_touch below), with the exact path's feature rule.
namespace filter {

using I = exact::Interval;
using dd::Bounded;

// The two number types of the search: CGAL intervals (rounding protected), then, where they
// cannot decide, double-double with a running error bound (round to nearest). Both enclose
// the exact value of every formula at the exact double inputs.
bool positive(const I& x) { return x.inf() > 0; }
bool negative(const I& x) { return x.sup() < 0; }
bool positive(const Bounded& x) { return dd::certain_compare(x, Bounded(0)) > 0; }
bool negative(const Bounded& x) { return dd::certain_compare(x, Bounded(0)) < 0; }
double approx(const I& x) { return x.inf() / 2 + x.sup() / 2; }
bool is_point(const I& x) { return x.inf() == x.sup(); }
bool is_point(const Bounded& x) { return x.err == 0; }
bool is_zero(const I& x) { return x.inf() == 0 && x.sup() == 0; }  // the exact value is 0
bool is_zero(const Bounded& x) { return dd::exact_zero(x); }
double approx(const Bounded& x) { return x.hi + x.lo; }

template <class S, int D>
using Poly = std::array<S, D + 1>;  // monomial coefficients in t
template <class S, int D>
using PVec3 = std::array<Poly<S, D>, 3>;

template <class S, int A, int B>
Poly<S, A + B> mul(const Poly<S, A>& a, const Poly<S, B>& b) {
  Poly<S, A + B> r;
  r.fill(S(0));
  for (int i = 0; i <= A; ++i)
    for (int j = 0; j <= B; ++j) r[i + j] = r[i + j] + a[i] * b[j];
  return r;
}
template <class S, int D>
Poly<S, D> sub(const Poly<S, D>& a, const Poly<S, D>& b) {
  Poly<S, D> r;
  for (int i = 0; i <= D; ++i) r[i] = a[i] - b[i];
  return r;
}
template <class S, int D>
PVec3<S, D> sub(const PVec3<S, D>& a, const PVec3<S, D>& b) {
  return {sub<S, D>(a[0], b[0]), sub<S, D>(a[1], b[1]), sub<S, D>(a[2], b[2])};
}
template <class S, int A, int B>
PVec3<S, A + B> cross(const PVec3<S, A>& a, const PVec3<S, B>& b) {
  return {sub<S, A + B>(mul<S, A, B>(a[1], b[2]), mul<S, A, B>(a[2], b[1])),
          sub<S, A + B>(mul<S, A, B>(a[2], b[0]), mul<S, A, B>(a[0], b[2])),
          sub<S, A + B>(mul<S, A, B>(a[0], b[1]), mul<S, A, B>(a[1], b[0]))};
}
template <class S, int A, int B>
Poly<S, A + B> dot(const PVec3<S, A>& a, const PVec3<S, B>& b) {
  Poly<S, A + B> r = mul<S, A, B>(a[0], b[0]);
  const Poly<S, A + B> y = mul<S, A, B>(a[1], b[1]), z = mul<S, A, B>(a[2], b[2]);
  for (int i = 0; i <= A + B; ++i) r[i] = r[i] + (y[i] + z[i]);
  return r;
}

// Up to five polynomials of degree <= 4 as scaled Bernstein coefficients on one interval.
constexpr int max_polys = 5;
template <class S>
using Coefficients = std::array<S, 5>;
template <class S>
struct Node {
  double lo, hi;
  int depth;
  std::array<Coefficients<S>, max_polys> b;
};

// L b_j from monomial coefficients (see above): weights L C(j,i)/C(n,i).
template <class S, int D>
Coefficients<S> bernstein(const Poly<S, D>& c) {
  static_assert(D == 3 || D == 4);
  // w[j][i] = L C(j,i)/C(D,i), L = 3 (D = 3) or 12 (D = 4).
  constexpr int w3[4][4] = {{3, 0, 0, 0}, {3, 1, 0, 0}, {3, 2, 1, 0}, {3, 3, 3, 3}};
  constexpr int w4[5][5] = {{12, 0, 0, 0, 0}, {12, 3, 0, 0, 0}, {12, 6, 2, 0, 0}, {12, 9, 6, 3, 0}, {12, 12, 12, 12, 12}};
  Coefficients<S> b;
  b.fill(S(0));
  for (int j = 0; j <= D; ++j) {
    S s(0);
    for (int i = 0; i <= j; ++i) s = s + S(D == 3 ? w3[j][i] : w4[j][i]) * c[i];
    b[j] = s;
  }
  return b;
}

// De Casteljau at 1/2: the coefficients on the left and right halves.
template <class S>
void halve(const Coefficients<S>& b, int n, Coefficients<S>& left, Coefficients<S>& right) {
  Coefficients<S> t = b;
  left = right = b;
  for (int k = 1; k <= n; ++k) {
    for (int i = 0; i + k <= n; ++i) t[i] = (t[i] + t[i + 1]) * S(0.5);
    left[k] = t[0];
    right[n - k] = t[n - k];
  }
}

template <class S>
bool all_positive(const Coefficients<S>& b, int n) {
  for (int j = 0; j <= n; ++j)
    if (!positive(b[j])) return false;
  return true;
}
template <class S>
bool all_negative(const Coefficients<S>& b, int n) {
  for (int j = 0; j <= n; ++j)
    if (!negative(b[j])) return false;
  return true;
}
// +1 / -1 when every b_{j+1} - b_j is certainly > 0 / < 0, else 0.
template <class S>
int monotone(const Coefficients<S>& b, int n) {
  bool up = true, down = true;
  for (int j = 0; j < n; ++j) {
    const S d = b[j + 1] - b[j];
    up = up && positive(d);
    down = down && negative(d);
  }
  return up ? 1 : (down ? -1 : 0);
}

// What the search found.
struct Search {
  // crossing: the one root of f in (lo, hi) is t*; root_at_hi: t* = hi exactly.
  enum { miss, crossing, root_at_hi, undecided } outcome = undecided;
  double lo = 0, hi = 0;  // the crossing interval
  int sign_lo = 0;        // the sign of f at lo (that at hi is the opposite)
  std::array<double, 4> f{};  // f's monomial coefficients, approximately (for Newton only)
  bool exact = false;  // every Bernstein coefficient on [0, 1] was computed without rounding
};

// Node budget and depth: a random query settles in a few nodes; touching, grazing and
// coplanar queries would not settle at any depth, so the budget bounds the time they waste
// before the exact path. Intervals resolve about 2^-50 of the scale, double-double about
// 2^-100: a contact perturbed by the rounding of the inputs (2^-53) needs the second, and
// nodes down to the spacing of doubles (depth ~ 55).
template <class S>
struct Limits;
template <>
struct Limits<I> {
  static constexpr int nodes = 96, depth = 40;
};
template <>
struct Limits<Bounded> {
  static constexpr int nodes = 160, depth = 70;
};

// Polynomial 0 is f (degree 3); 1 .. k-1 the conditions of degree 4 that contact needs >= 0.
// f1_zero: f(1) is known to be exactly 0 (an exact sign); then a node [l, 1] whose other
// coefficients b_0 .. b_2 of f are all > 0 (all < 0) has f > 0 (< 0) on [l, 1): b_3 = 0 and
// B_0(x) > 0 for x < 1. Such a node excludes contact on [l, 1) only; the outcome `miss` then
// means "no contact in [0, 1)", and the caller decides t = 1 exactly.
// Intervals: rounding must be protected by the caller; double-double: must not be.
template <class S>
Search search(const std::array<Coefficients<S>, max_polys>& b0, int k, bool f1_zero) {
  constexpr int max_depth = Limits<S>::depth, max_nodes = Limits<S>::nodes;
  Search out;
  std::array<Node<S>, max_depth + 2> stack;
  int top = 0, nodes = 0;
  stack[top++] = Node<S>{0.0, 1.0, 0, b0};
  auto but_last = [](const Coefficients<S>& b, bool pos) {
    for (int j = 0; j < 3; ++j)
      if (pos ? !positive(b[j]) : !negative(b[j])) return false;
    return true;
  };
  while (top > 0) {
    const Node<S> node = stack[--top];
    if (++nodes > max_nodes) return out;
    bool excluded = all_positive(node.b[0], 3) || all_negative(node.b[0], 3) ||
                    (f1_zero && node.hi == 1 && (but_last(node.b[0], true) || but_last(node.b[0], false)));
    for (int i = 1; i < k && !excluded; ++i) excluded = all_negative(node.b[i], 4);
    if (excluded) continue;
    bool inside = true;
    for (int i = 1; i < k && inside; ++i) inside = all_positive(node.b[i], 4);
    const auto& f = node.b[0];
    const int s0 = positive(f[0]) ? 1 : (negative(f[0]) ? -1 : 0);
    const int s3 = positive(f[3]) ? 1 : (negative(f[3]) ? -1 : 0);
    // f's b_0 .. b_2 of one strict sign and b_3 exactly 0: f != 0 on [lo, hi) and f(hi) = 0,
    // so (conditions > 0) the first contact is at hi, in the open face / interior points.
    if (inside && is_zero(f[3]) && (but_last(f, true) || but_last(f, false))) {
      out.outcome = Search::root_at_hi;
      out.lo = out.hi = node.hi;
      return out;
    }
    if (inside && s0 != 0 && s3 == -s0 && monotone(f, 3) == s3) {
      out.outcome = Search::crossing;
      out.lo = node.lo;
      out.hi = node.hi;
      out.sign_lo = s0;
      return out;
    }
    // The halves only while the midpoint is a double (then exactly the midpoint: hi - lo is
    // a power of two, and lo + (hi - lo)/2 rounds to lo or hi when it is not representable).
    const double mid = node.lo + (node.hi - node.lo) / 2;
    if (node.depth == max_depth || !(mid > node.lo && mid < node.hi)) return out;
    Node<S> left{node.lo, mid, node.depth + 1, {}}, right{mid, node.hi, node.depth + 1, {}};
    for (int i = 0; i < k; ++i) halve(node.b[i], i == 0 ? 3 : 4, left.b[i], right.b[i]);
    stack[top++] = right;  // the left half first: the earliest crossing is found first
    stack[top++] = left;
  }
  out.outcome = Search::miss;
  return out;
}

// Linear motion of vertex i: x0 + t (x1 - x0).
template <class S>
PVec3<S, 1> motion(const cases::CcdQuery& q, int i) {
  PVec3<S, 1> r;
  for (int k = 0; k < 3; ++k) r[k] = Poly<S, 1>{S(q.x[i][k]), S(q.x[i + 4][k]) - S(q.x[i][k])};
  return r;
}

// The polynomials of the query in scaled Bernstein form on [0, 1], then the search.
template <class S>
Search polynomial_search(const cases::CcdQuery& q, bool f1_zero) {
  std::array<PVec3<S, 1>, 4> v;
  for (int i = 0; i < 4; ++i) v[i] = motion<S>(q, i);
  std::array<Coefficients<S>, max_polys> b{};
  Poly<S, 3> f;
  int k;
  if (q.kind == cases::CcdKind::vertex_face) {
    const auto &p = v[0], &a = v[1], &bb = v[2], &c = v[3];
    const PVec3<S, 2> n = cross<S, 1, 1>(sub<S, 1>(bb, a), sub<S, 1>(c, a));
    f = dot<S, 2, 1>(n, sub<S, 1>(p, a));
    b[1] = bernstein<S, 4>(dot<S, 2, 2>(n, cross<S, 1, 1>(sub<S, 1>(bb, a), sub<S, 1>(p, a))));
    b[2] = bernstein<S, 4>(dot<S, 2, 2>(n, cross<S, 1, 1>(sub<S, 1>(c, bb), sub<S, 1>(p, bb))));
    b[3] = bernstein<S, 4>(dot<S, 2, 2>(n, cross<S, 1, 1>(sub<S, 1>(a, c), sub<S, 1>(p, c))));
    k = 4;
  } else {
    const auto &a0 = v[0], &a1 = v[1], &b0 = v[2], &b1 = v[3];
    const PVec3<S, 1> da = sub<S, 1>(a1, a0), db = sub<S, 1>(b1, b0), w = sub<S, 1>(b0, a0);
    const PVec3<S, 2> m = cross<S, 1, 1>(da, db);
    f = dot<S, 2, 1>(m, w);
    const Poly<S, 4> mm = dot<S, 2, 2>(m, m), s = dot<S, 2, 2>(cross<S, 1, 1>(w, db), m),
                     u = dot<S, 2, 2>(cross<S, 1, 1>(w, da), m);
    b[1] = bernstein<S, 4>(s);
    b[2] = bernstein<S, 4>(sub<S, 4>(mm, s));
    b[3] = bernstein<S, 4>(u);
    b[4] = bernstein<S, 4>(sub<S, 4>(mm, u));
    k = 5;
  }
  b[0] = bernstein<S, 3>(f);
  Search out = search<S>(b, k, f1_zero);
  for (int i = 0; i < 4; ++i) out.f[i] = approx(f[i]);
  out.exact = true;
  for (int i = 0; i < k; ++i)
    for (const S& x : b[i]) out.exact = out.exact && is_point(x);
  return out;
}

// Intervals first (rounding protected here), then double-double where they cannot decide.
Search certified_search(const cases::CcdQuery& q, bool f1_zero) {
  Search s;
  {
    exact::ProtectRounding guard;
    s = polynomial_search<I>(q, f1_zero);
  }
  // Exact coefficients (small dyadic inputs): double-double would take the same signs.
  if (s.outcome != Search::undecided || s.exact) return s;
  return polynomial_search<Bounded>(q, f1_zero);
}

// f at the double t in double-double with its error bound (the exact polynomial's value at
// t is within err of hi + lo); round to nearest (outside the interval stage's protection).
dd::Bounded coplanarity_at(const cases::CcdQuery& q, double t) {
  using dd::Bounded;
  using V = std::array<Bounded, 3>;
  std::array<V, 4> v;
  const Bounded bt(t);
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k)
      v[i][k] = Bounded(q.x[i][k]) + bt * (Bounded(q.x[i + 4][k]) - Bounded(q.x[i][k]));
  auto minus = [](const V& a, const V& b) { return V{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; };
  auto cross3 = [](const V& a, const V& b) {
    return V{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  };
  auto dot3 = [](const V& a, const V& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
  if (q.kind == cases::CcdKind::vertex_face)
    return dot3(cross3(minus(v[2], v[1]), minus(v[3], v[1])), minus(v[0], v[1]));
  return dot3(cross3(minus(v[1], v[0]), minus(v[3], v[2])), minus(v[2], v[0]));
}

// The exact sign of f at the double t: double-double, and rationals where its enclosure
// contains 0 (then f(t) may be exactly 0: t* a double, common on dyadic inputs).
int sign_at(const cases::CcdQuery& q, double t) {
  const int s = dd::certain_compare(coplanarity_at(q, t), dd::Bounded(0));
  if (s != 0) return s;
  std::array<exact::Vector3<Q>, 4> v;
  const Q tq(t);
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k) v[i][k] = Q(q.x[i][k]) + tq * (Q(q.x[i + 4][k]) - Q(q.x[i][k]));
  const Q f = q.kind == cases::CcdKind::vertex_face ? dot(cross(v[2] - v[1], v[3] - v[1]), v[0] - v[1])
                                                    : dot(cross(v[1] - v[0], v[3] - v[2]), v[2] - v[0]);
  return sgn(f);
}

// toi and toi_up of the unique root r in (lo, hi) of the monotone f (sign sign_lo at lo),
// when certified: the adjacent doubles d < r < next_up d (see the top of the filter).
std::optional<std::pair<double, double>> round_root(const cases::CcdQuery& q, const Search& s) {
  // An approximation: Newton on f's approximate coefficients (double), then two steps with
  // the accurate value of f (double-double). Only where to look; nothing rests on it.
  const auto& c = s.f;
  auto value = [&](double t) { return ((c[3] * t + c[2]) * t + c[1]) * t + c[0]; };
  auto slope = [&](double t) { return (3 * c[3] * t + 2 * c[2]) * t + c[1]; };
  double t = (s.lo + s.hi) / 2;
  for (int it = 0; it < 50; ++it) {
    const double d = slope(t), next = std::clamp(t - value(t) / d, s.lo, s.hi);
    if (!std::isfinite(next)) return std::nullopt;
    if (next == t) break;
    t = next;
  }
  for (int it = 0; it < 2; ++it) {
    const dd::Bounded v = coplanarity_at(q, t);
    const double next = std::clamp(t - (v.hi + v.lo) / slope(t), s.lo, s.hi);
    if (!std::isfinite(next)) return std::nullopt;
    t = next;
  }
  // The walk: d with the sign of f(lo) and next_up d with the sign of f(hi), or a double in
  // [lo, hi] where f is exactly 0 (the unique root: toi = toi_up = it).
  double d = t;
  if (!(d >= 0x1p-900)) return std::nullopt;  // next_up / next_down of normal doubles only
  int sd = sign_at(q, d);
  if (sd == 0) return std::pair{d, d};
  for (int step = 0; step < 6; ++step) {
    if (sd == s.sign_lo) {
      const double u = dd::next_up(d);
      if (u > s.hi) return std::nullopt;
      const int su = sign_at(q, u);
      if (su == 0) return std::pair{u, u};
      if (su == -s.sign_lo) return std::pair{d, u};
      d = u, sd = su;
    } else {
      const double l = dd::next_down(d);
      if (l < s.lo || !(l >= 0x1p-900)) return std::nullopt;
      const int sl = sign_at(q, l);
      if (sl == 0) return std::pair{l, l};
      if (sl == s.sign_lo) return std::pair{l, d};
      d = l, sd = sl;
    }
  }
  return std::nullopt;
}

// Contact at an end of the step (t = 0: positions x[0..3]; t = 1: x[4..7]), decided
// exactly: the exact path's touch(r) and feature(r) at r = 0 or 1 written on the static
// positions (doubles), each polynomial sign by exact::filtered_sign (interval, else
// rationals). The feature (or nothing when they do not touch) follows the same order as
// VertexFace::feature / EdgeEdge::feature.
namespace end_touch {

using P = cases::Vec3;
template <class F, class... V>
int sign(F&& f, const V&... v) {
  return exact::filtered_sign(std::forward<F>(f), v...);
}

// PointPoint::touch: equal positions (doubles: exact).
bool point_point(const P& p, const P& x) { return p == x; }
// PointEdge::interior_touch: y != x, (p - x) x (y - x) = 0, (p - x).(y - x) >= 0,
// |y - x|^2 - (p - x).(y - x) >= 0.
bool interior(const P& p, const P& x, const P& y) {
  if (x == y) return false;
  for (int k = 0; k < 3; ++k)
    if (sign([k](const auto& p, const auto& x, const auto& y) { return cross(p - x, y - x)[k]; }, p, x, y) != 0)
      return false;
  return sign([](const auto& p, const auto& x, const auto& y) { return dot(p - x, y - x); }, p, x, y) >= 0 &&
         sign([](const auto& p, const auto& x, const auto& y) {
           auto r = dot(y - x, y - x);
           r -= dot(p - x, y - x);
           return r;
         }, p, x, y) >= 0;
}
bool point_edge(const P& p, const P& x, const P& y) {
  return point_point(p, x) || point_point(p, y) || interior(p, x, y);
}

std::optional<cases::CcdFeature> vertex_face(const P& p, const P& a, const P& b, const P& c) {
  const std::array<std::array<const P*, 2>, 3> e{{{&a, &b}, {&b, &c}, {&c, &a}}};
  bool face = sign([](const auto& p, const auto& a, const auto& b, const auto& c) {
                return dot(cross(b - a, c - a), p - a);
              }, p, a, b, c) == 0;
  if (face) {
    bool n_zero = true;
    for (int k = 0; k < 3 && n_zero; ++k)
      n_zero = sign([k](const auto& a, const auto& b, const auto& c) { return cross(b - a, c - a)[k]; }, a, b, c) == 0;
    face = !n_zero;
    for (int k = 0; k < 3 && face; ++k) {  // n . (edge x (p - edge start)) >= 0
      const P &x = *e[k][0], &y = *e[k][1];
      face = sign([](const auto& p, const auto& a, const auto& b, const auto& c, const auto& x, const auto& y) {
               return dot(cross(b - a, c - a), cross(y - x, p - x));
             }, p, a, b, c, x, y) >= 0;
    }
  }
  bool touch = face;
  for (int k = 0; k < 3 && !touch; ++k) touch = point_edge(p, *e[k][0], *e[k][1]);
  if (!touch) return std::nullopt;
  for (int k = 0; k < 3; ++k)
    if (point_point(p, *e[k][0])) return cases::CcdFeature::vf_vertex;
  for (int k = 0; k < 3; ++k)
    if (interior(p, *e[k][0], *e[k][1])) return cases::CcdFeature::vf_edge;
  return cases::CcdFeature::vf_face;
}

std::optional<cases::CcdFeature> edge_edge(const P& a0, const P& a1, const P& b0, const P& b1) {
  // ends: {point, segment start, segment end} as EdgeEdge::ends.
  const std::array<std::array<const P*, 3>, 4> ends{{{&a0, &b0, &b1}, {&a1, &b0, &b1}, {&b0, &a0, &a1}, {&b1, &a0, &a1}}};
  bool cross_touch = sign([](const auto& a0, const auto& a1, const auto& b0, const auto& b1) {
                       return dot(cross(a1 - a0, b1 - b0), b0 - a0);
                     }, a0, a1, b0, b1) == 0;
  if (cross_touch) {
    bool m_zero = true;
    for (int k = 0; k < 3 && m_zero; ++k)
      m_zero = sign([k](const auto& a0, const auto& a1, const auto& b0, const auto& b1) {
                 return cross(a1 - a0, b1 - b0)[k];
               }, a0, a1, b0, b1) == 0;
    cross_touch = !m_zero;
    // s = (w x db).m, u = (w x da).m and |m|^2 - s, |m|^2 - u, all >= 0 (w = b0 - a0).
    for (int which = 0; which < 4 && cross_touch; ++which)
      cross_touch = sign([which](const auto& a0, const auto& a1, const auto& b0, const auto& b1) {
                      const auto m = cross(a1 - a0, b1 - b0);
                      auto v = dot(cross(b0 - a0, which < 2 ? b1 - b0 : a1 - a0), m);
                      if (which % 2 == 0) return v;
                      auto r = dot(m, m);
                      r -= v;
                      return r;
                    }, a0, a1, b0, b1) >= 0;
  }
  bool touch = cross_touch;
  for (int k = 0; k < 4 && !touch; ++k) touch = point_edge(*ends[k][0], *ends[k][1], *ends[k][2]);
  if (!touch) return std::nullopt;
  for (int k = 0; k < 4; ++k)
    if (point_point(*ends[k][0], *ends[k][1]) || point_point(*ends[k][0], *ends[k][2]))
      return cases::CcdFeature::ee_vertex_vertex;
  for (int k = 0; k < 4; ++k)
    if (interior(*ends[k][0], *ends[k][1], *ends[k][2])) return cases::CcdFeature::ee_edge_vertex;
  return cases::CcdFeature::ee_interior;
}

// The feature of the contact at t = end (0 or 1), or nothing when there is none.
std::optional<cases::CcdFeature> at(const cases::CcdQuery& q, int end) {
  const int o = 4 * end;
  return q.kind == cases::CcdKind::vertex_face ? vertex_face(q.x[o], q.x[o + 1], q.x[o + 2], q.x[o + 3])
                                               : edge_edge(q.x[o], q.x[o + 1], q.x[o + 2], q.x[o + 3]);
}

// The exact sign of f(1) (f as VertexFace::f / EdgeEdge::f at the positions x[4..7]).
int coplanarity_at_one(const cases::CcdQuery& q) {
  if (q.kind == cases::CcdKind::vertex_face)
    return sign([](const auto& p, const auto& a, const auto& b, const auto& c) { return dot(cross(b - a, c - a), p - a); },
                q.x[4], q.x[5], q.x[6], q.x[7]);
  return sign([](const auto& a0, const auto& a1, const auto& b0, const auto& b1) {
    return dot(cross(a1 - a0, b1 - b0), b0 - a0);
  }, q.x[4], q.x[5], q.x[6], q.x[7]);
}

}  // namespace end_touch

}  // namespace filter

}  // namespace

namespace {

// The query times 2^k, when that is exact for every coordinate (no overflow, no bits lost
// below the subnormal grid: scaling back gives each coordinate again), else nothing.
std::optional<cases::CcdQuery> scaled_exactly(const cases::CcdQuery& q, int k) {
  cases::CcdQuery s = q;
  for (auto& v : s.x)
    for (int i = 0; i < 3; ++i) {
      const double y = std::ldexp(v[i], k);
      if (!std::isfinite(y) || std::ldexp(y, -k) != v[i]) return std::nullopt;
      v[i] = y;
    }
  return s;
}

// The filtered stage on q, whose scale lies in [2^-200, 2^200]: q is `original` times an
// exact power of two (or `original` itself), see ccd_filtered.
std::optional<cases::CcdResult> filtered_in_range(const cases::CcdQuery& q, const cases::CcdQuery& original) {
  cases::CcdResult res;
  res.hit = false;
  res.toi = res.toi_up = 1;
  filter::Search s = filter::certified_search(q, false);
  // Contact at an end of the step: the exact path's answer is then t* = 0, resp. t* = 1 when
  // no contact happens in [0, 1) (the search with f(1) = 0 known exactly).
  auto at_end = [&](int end, cases::CcdFeature feature) {
    res.hit = true;
    res.toi = res.toi_up = end;
    res.feature = feature;
    res.feature_margin = feature_margin(original, feature, res.toi);
    return res;
  };
  if (s.outcome == filter::Search::undecided) {
    if (const auto f0 = filter::end_touch::at(q, 0)) return at_end(0, *f0);
    if (filter::end_touch::coplanarity_at_one(q) == 0) {
      s = filter::certified_search(q, true);
      if (s.outcome == filter::Search::miss) {  // no contact in [0, 1)
        if (const auto f1 = filter::end_touch::at(q, 1)) return at_end(1, *f1);
        return res;
      }
    }
  }
  if (s.outcome == filter::Search::miss) return res;
  const auto toi = s.outcome == filter::Search::root_at_hi ? std::optional(std::pair{s.hi, s.hi})
                   : s.outcome == filter::Search::crossing ? filter::round_root(q, s)
                                                           : std::nullopt;
  if (!toi) return std::nullopt;
  res.hit = true;
  std::tie(res.toi, res.toi_up) = *toi;
  res.feature = q.kind == cases::CcdKind::vertex_face ? cases::CcdFeature::vf_face : cases::CcdFeature::ee_interior;
  res.feature_margin = feature_margin(original, res.feature, res.toi);
  return res;
}

}  // namespace

// The filtered answer, or nothing (the exact path decides).
std::optional<cases::CcdResult> ccd_filtered(const cases::CcdQuery& q) {
  for (const auto& v : q.x)
    if (!v.allFinite()) return std::nullopt;  // the exact path raises the error
  cases::CcdResult res;
  res.hit = false;
  res.toi = res.toi_up = 1;
  const auto& x = q.x;
  // The exact path's own box filter (exact comparisons of doubles): a miss.
  if (q.kind == cases::CcdKind::edge_edge && boxes_disjoint({&x[0], &x[1], &x[4], &x[5]}, {&x[2], &x[3], &x[6], &x[7]}))
    return res;
  if (q.kind == cases::CcdKind::vertex_face &&
      boxes_disjoint({&x[0], &x[4]}, {&x[1], &x[2], &x[3], &x[5], &x[6], &x[7]}))
    return res;
  // Far from under- and overflow: the degree-4 conditions stay within [2^-1000, 2^800]
  // times their relative size, so the intervals keep their precision (they would be sound
  // anyway; this only spares hopeless work), and the double-double f stays normal.
  const double scale = cases::ccd_scale(q);
  if (scale >= 0x1p-200 && scale <= 0x1p200) return filtered_in_range(q, q);
  // Outside that range: the query times 2^k with its scale in [1, 2), when that scaling is
  // exact (always when scaling up; scaling down fails when a small coordinate would lose
  // bits below the subnormal grid, e.g. subnormals next to 1e300: those run the exact path).
  // Every position at every t is then multiplied by the same 2^k, so the primitives touch
  // at t in the scaled query exactly when they do in the original: hit and t* are the same,
  // hence toi and toi_up (t* rounded down and up), and so is the feature (which vertices,
  // edges or face the contact point lies on); cut_short is false in both. feature_margin is
  // computed from the original query (filtered_in_range), as the exact path computes it.
  const auto scaled = scaled_exactly(q, -std::ilogb(scale));
  if (!scaled) return std::nullopt;
  return filtered_in_range(*scaled, q);
}

namespace {
void require_finite(const cases::CcdQuery& q) {
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(q.x[i][k]))
        cases::Where{"", "ccd query"}.fail(fmt::format("x[{}][{}]", i, k), "NaN or Inf");
}
}  // namespace

cases::CcdResult ccd(const cases::CcdQuery& q) {
  require_finite(q);
  if (auto r = ccd_filtered(q)) return *r;
  return ccd_exact(q);
}

cases::CcdResult ccd_exact(const cases::CcdQuery& q) {
  require_finite(q);
  cases::CcdResult res;
  res.hit = false;
  res.toi = res.toi_up = 1;
  const auto& x = q.x;
  if (boxes_disjoint({&x[0], &x[1], &x[4], &x[5]}, {&x[2], &x[3], &x[6], &x[7]}) &&
      q.kind == cases::CcdKind::edge_edge)
    return res;
  if (q.kind == cases::CcdKind::vertex_face &&
      boxes_disjoint({&x[0], &x[4]}, {&x[1], &x[2], &x[3], &x[5], &x[6], &x[7]}))
    return res;
  std::array<const cases::Vec3*, 8> points;
  for (int i = 0; i < 8; ++i) points[i] = &x[i];
  const auto xi = exact::to_integers<8>(points).v;
  std::array<PVec, 4> m;
  for (int i = 0; i < 4; ++i) m[i] = motion(xi[i], xi[i + 4]);
  std::optional<Algebraic> t;
  if (q.kind == cases::CcdKind::vertex_face) {
    const VertexFace vf(m[0], m[1], m[2], m[3]);
    t = vf.earliest(q);
    if (t) res.feature = vf.feature(*t);
  } else {
    const EdgeEdge ee(m[0], m[1], m[2], m[3]);
    t = ee.earliest(q);
    if (t) res.feature = ee.feature(*t);
  }
  if (!t) return res;
  res.hit = true;
  std::tie(res.toi, res.toi_up) = round_out(*t);
  res.feature_margin = feature_margin(q, res.feature, res.toi);
  return res;
}

double ccd_distance_at(const cases::CcdQuery& q, double t) {
  return static_cast<double>(distance_at(q, t));
}

double ccd_separation(const cases::CcdQuery& q) {
  if (ccd(q).hit) return 0;
  return ccd_separation_of_miss(q);
}

namespace {
constexpr int separation_grid = 1024;  // the estimate's samples i / separation_grid

// The window of the estimate's golden-section search around grid sample i.
std::pair<long double, long double> separation_window(int i) {
  constexpr int n = separation_grid;
  return {std::max(0, i - 1) / static_cast<long double>(n), std::min(n, i + 1) / static_cast<long double>(n)};
}

// The estimate's golden-section search over [lo, hi] (100 steps): the smaller of its two last
// samples. `stop(d)` is asked of every new sample d; true ends the search with that sample.
template <class Stop>
long double separation_search(const LongQuery& q, long double lo, long double hi, Stop stop) {
  const long double g = (std::sqrt(5.0L) - 1) / 2;
  long double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  long double f1 = distance_at(q, x1), f2 = distance_at(q, x2);
  if (stop(f1)) return f1;
  if (stop(f2)) return f2;
  for (int it = 0; it < 100; ++it) {
    if (f1 < f2) {
      hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = distance_at(q, x1);
      if (stop(f1)) return f1;
    } else {
      lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = distance_at(q, x2);
      if (stop(f2)) return f2;
    }
  }
  return std::min(f1, f2);
}
}  // namespace

// The estimate as defined: every grid sample, then golden-section searches around the three
// smallest (ccd_separation_of_miss evaluates the samples that can matter, best first).
double ccd_separation_of_miss_full_grid(const cases::CcdQuery& q) {
  constexpr int n = separation_grid;
  const LongQuery lq(q);
  std::array<long double, n + 1> d;
  for (int i = 0; i <= n; ++i) d[i] = distance_at(lq, static_cast<long double>(i) / n);
  // Golden-section refinement around the three smallest samples.
  std::vector<int> idx(n + 1);
  for (int i = 0; i <= n; ++i) idx[i] = i;
  std::partial_sort(idx.begin(), idx.begin() + 3, idx.end(), [&](int a, int b) { return d[a] < d[b]; });
  long double best = d[idx[0]];
  for (int k = 0; k < 3; ++k) {
    const auto [lo, hi] = separation_window(idx[k]);
    best = std::min(best, separation_search(lq, lo, hi, [](long double) { return false; }));
  }
  return static_cast<double>(best / cases::ccd_scale(q));
}


// ---------------------------------------------------------------------------------------
// A proven lower bound of the separation (double arithmetic with explicit error margins).
// Linear motion: over [t0, t1] a primitive stays in the convex hull of its vertices at t0
// and t1, so the distance between the two hulls bounds the distance at every t in between
// from below. Two certified lower bounds of that hull distance are taken, the larger kept:
// the distance between the hulls' axis-aligned boxes, and the gap of the hulls along one
// unit axis n (min over B of n.x - max over A of n.x), n the direction between the closest
// points of the primitives at the middle of the interval (any n gives a valid bound; this
// one makes the bound converge to the distance as the interval shrinks). [0, 1] is bisected
// where the bound does not yet exceed the target.
namespace {

using D3 = Eigen::Vector3d;

D3 closest_on_segment(const D3& p, const D3& a, const D3& b) {
  const D3 e = b - a;
  const double ee = e.squaredNorm();
  return ee > 0 ? D3(a + std::clamp((p - a).dot(e) / ee, 0.0, 1.0) * e) : a;
}

// The closest points (approximate: they only choose the axis) of the primitives: A = the
// vertex (vertex-face) or edge x0 x1; B = the face or edge x2 x3.
std::pair<D3, D3> closest_points(cases::CcdKind kind, const std::array<D3, 4>& v) {
  std::pair<D3, D3> best{v[0], v[1]};
  double bd = std::numeric_limits<double>::infinity();
  auto take = [&](const D3& a, const D3& b) {
    const double d = (b - a).squaredNorm();
    if (d < bd) bd = d, best = {a, b};
  };
  if (kind == cases::CcdKind::vertex_face) {
    const D3 &p = v[0], &a = v[1], &b = v[2], &c = v[3];
    take(p, closest_on_segment(p, a, b));
    take(p, closest_on_segment(p, b, c));
    take(p, closest_on_segment(p, c, a));
    const D3 n = (b - a).cross(c - a);
    const double nn = n.squaredNorm();
    if (nn > 0) {
      const double la = n.dot((c - b).cross(p - b)) / nn, lb = n.dot((a - c).cross(p - c)) / nn,
                   lc = n.dot((b - a).cross(p - a)) / nn;
      if (la >= 0 && lb >= 0 && lc >= 0) take(p, D3((la * a + lb * b + lc * c) / (la + lb + lc)));
    }
  } else {
    const D3 &a0 = v[0], &a1 = v[1], &b0 = v[2], &b1 = v[3];
    take(a0, closest_on_segment(a0, b0, b1));
    take(a1, closest_on_segment(a1, b0, b1));
    take(closest_on_segment(b0, a0, a1), b0);
    take(closest_on_segment(b1, a0, a1), b1);
    const D3 da = a1 - a0, db = b1 - b0, m = da.cross(db), w = b0 - a0;
    const double mm = m.squaredNorm();
    if (mm > 0) {
      const double s = w.cross(db).dot(m) / mm, u = w.cross(da).dot(m) / mm;
      if (s >= 0 && s <= 1 && u >= 0 && u <= 1) take(D3(a0 + s * da), D3(b0 + u * db));
    }
  }
  return best;
}

// Lower bound (before the slack below) of the distance between the primitives over
// [t0, t1], coordinates scaled to max |x| in [1, 2): the larger of the box distance and the
// axis gap (0 when neither is positive); and the distance at the middle (approximate).
struct IntervalBound {
  double bound, mid;
};
IntervalBound interval_bound(cases::CcdKind kind, const std::array<D3, 8>& x, double t0, double t1) {
  const int a_end = kind == cases::CcdKind::vertex_face ? 1 : 2;  // A = vertices [0, a_end)
  std::array<D3, 8> p;  // vertex i at t0 (p[2i]) and at t1 (p[2i + 1])
  for (int i = 0; i < 4; ++i) {
    p[2 * i] = (1 - t0) * x[i] + t0 * x[i + 4];
    p[2 * i + 1] = (1 - t1) * x[i] + t1 * x[i + 4];
  }
  D3 lo_a = p[0], hi_a = p[0], lo_b = p[2 * a_end], hi_b = p[2 * a_end];
  for (int j = 0; j < 8; ++j) {
    D3& lo = j < 2 * a_end ? lo_a : lo_b;
    D3& hi = j < 2 * a_end ? hi_a : hi_b;
    lo = lo.cwiseMin(p[j]), hi = hi.cwiseMax(p[j]);
  }
  const D3 gap = (lo_b - hi_a).cwiseMax(lo_a - hi_b).cwiseMax(D3::Zero());
  double bound = gap.norm();
  const double tm = t0 / 2 + t1 / 2;
  std::array<D3, 4> mid;
  for (int i = 0; i < 4; ++i) mid[i] = (1 - tm) * x[i] + tm * x[i + 4];
  const auto [ca, cb] = closest_points(kind, mid);
  const D3 d = cb - ca;
  const double len = d.norm();
  if (len > 0x1p-400) {  // squares far from underflow: |n| = 1 within 4u
    const D3 n = d / len;
    double max_a = -std::numeric_limits<double>::infinity(), min_b = -max_a;
    for (int j = 0; j < 8; ++j) {
      const double s = n.dot(p[j]);
      if (j < 2 * a_end) max_a = std::max(max_a, s);
      else min_b = std::min(min_b, s);
    }
    bound = std::max(bound, min_b - max_a);
  }
  return {std::isfinite(bound) ? std::max(bound, 0.0) : 0.0, len};
}

// The query scaled by a power of two to max |x| = s in [1, 2) (exact, or underflowing by at
// most 2^-1074), and the bound over [t0, t1] relative to the scale, with the slack derived
// below (2^-43 of the scale).
struct ScaledQuery {
  cases::CcdKind kind;
  std::array<D3, 8> x;
  double s;
  explicit ScaledQuery(const cases::CcdQuery& q) : kind(q.kind) {
    const double scale = cases::ccd_scale(q);
    const int e = std::ilogb(scale);
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 3; ++k) x[i][k] = std::ldexp(q.x[i][k], -e);
    s = std::ldexp(scale, -e);
  }
  // {bound, distance at the middle}, both relative to the scale.
  IntervalBound over(double t0, double t1) const {
    const auto b = interval_bound(kind, x, t0, t1);
    return {std::max(0.0, (b.bound - 0x1p-43) / s), b.mid / s};
  }
};

}  // namespace

// Error margin (scaled units: max |x| = s' in [1, 2), u = 2^-53). Scaling by a power of two
// is exact (or underflows by at most 2^-1074). Dyadic t0, t1 with at most 50 bits: 1 - t is
// exact, so each computed position is within 2.01 u s' of the exact one per coordinate
// (two products and a sum), 7u in norm: the exact hulls lie within 7u of the computed ones,
// costing 14u. The box distance: one subtraction, three squares, two sums and a square root
// (relative <= 5u on a value <= 4 sqrt(3) < 7: 35u). The axis gap: |n|_2 <= 1 + 4u and
// |n|_1 <= sqrt(3) |n|_2; each dot product n.p is within gamma_3 |n|_1 max|p| <= 10.5u of
// exact, the difference rounds once (relative u, <= 7u) and dividing by |n|_2 costs 4u
// relative (<= 28u): <= 56u. So the computed bound exceeds a true lower bound by at most
// 14u + 56u < 2^-46.8. Against ccd_separation_of_miss (the estimate this must also stay
// under): its candidates are distances between computed points within ~30 u_L of actual
// points of the primitives at times in [0, 1] (u_L = 2^-64: positions, the projection
// rebuilt from barycentric weights, the segment points), their norms and the division by
// the scale cost 3 u_L relative and the conversion to double 2^-53 relative, so it is at
// least (true - 2^-58)(1 - 2^-52) of the scale, i.e. at least true - 2^-46 s' here for a
// true value <= 7. Slack 2^-43 (scaled units) covers the sum (< 2^-45) four times over;
// dividing by s' >= 1 rounds once (relative u, < 2^-50).
double ccd_separation_lower_bound(const cases::CcdQuery& q, double target) {
  require_finite(q);
  const ScaledQuery sq(q);
  constexpr int max_depth = 24, max_intervals = 128;
  struct Interval {
    double t0, t1;
    int depth;
    double parent;  // the parent's bound (valid here too), relative
  };
  std::array<Interval, max_depth + 2> stack;
  int top = 0;
  stack[top++] = {0, 1, 0, 0};
  double lower = std::numeric_limits<double>::infinity();
  for (int evaluated = 0; top > 0;) {
    const Interval iv = stack[--top];
    if (evaluated++ == max_intervals) {  // out of budget: the unexplored keep their parents' bounds
      lower = std::min(lower, iv.parent);
      for (int k = 0; k < top; ++k) lower = std::min(lower, stack[k].parent);
      return lower;
    }
    const auto ib = sq.over(iv.t0, iv.t1);
    const double b = ib.bound;
    // Not above the target at the depth limit, or the primitives come within the target at
    // the middle (no bound can exceed it then): stop, with the bound found so far.
    if (b > target || iv.depth == max_depth || !(ib.mid > target)) {
      lower = std::min(lower, b);
      if (b > target) continue;
      for (int k = 0; k < top; ++k) lower = std::min(lower, stack[k].parent);
      return lower;  // not above the target: no need to look further
    }
    const double tm = iv.t0 / 2 + iv.t1 / 2;
    stack[top++] = {tm, iv.t1, iv.depth + 1, b};
    stack[top++] = {iv.t0, tm, iv.depth + 1, b};
  }
  return lower;
}


namespace {

// The three smallest grid samples of the estimate, found best first over dyadic cells of the
// grid with ccd_separation_lower_bound's bound (valid for every grid value in a cell: it also
// stays below the long-double samples, see its margin); a cell whose bound exceeds the third
// smallest value found cannot hold one of them. `stop(d)` is asked of every sample d
// evaluated; true ends the search (stopped). With a tie at the third place the estimate's
// std::partial_sort picks an order this cannot reproduce: ambiguous (the caller then runs the
// estimate on the full grid).
struct GridMinima {
  std::array<int, 3> idx{};  // indices of the three smallest samples
  long double smallest = 0;  // the smallest sample
  bool stopped = false, ambiguous = false;
};
template <class Stop>
GridMinima grid_minima(const cases::CcdQuery& q, const LongQuery& lq, Stop stop) {
  constexpr int n = separation_grid;
  const long double scale = cases::ccd_scale(q);
  const ScaledQuery sq(q);
  auto bound = [&](double t0, double t1) { return sq.over(t0, t1).bound; };
  std::array<long double, n + 1> d;
  std::array<bool, n + 1> known{};
  std::vector<int> evaluated;
  long double third = std::numeric_limits<long double>::infinity();  // 3rd smallest so far
  std::array<long double, 3> smallest;
  smallest.fill(third);
  struct Cell {
    double bound;
    int a, b;  // grid indices a < b
    bool operator<(const Cell& o) const { return bound > o.bound; }  // smallest bound first
  };
  std::vector<Cell> heap{{0.0, 0, n}};
  GridMinima out;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end());
    const Cell c = heap.back();
    heap.pop_back();
    if (c.bound > third / scale) break;  // every cell left is above the third smallest
    if (c.b - c.a <= 2) {
      for (int i = c.a; i <= c.b; ++i) {
        if (known[i]) continue;
        known[i] = true;
        d[i] = distance_at(lq, static_cast<long double>(i) / n);
        if (stop(d[i])) {
          out.stopped = true;
          return out;
        }
        evaluated.push_back(i);
        if (d[i] < smallest[2]) {
          smallest[2] = d[i];
          std::sort(smallest.begin(), smallest.end());
          third = smallest[2];
        }
      }
      continue;
    }
    const int m = (c.a + c.b) / 2;
    for (auto [a, b] : {std::pair{c.a, m}, std::pair{m, c.b}}) {
      heap.push_back({bound(static_cast<double>(a) / n, static_cast<double>(b) / n), a, b});
      std::push_heap(heap.begin(), heap.end());
    }
  }
  // The three smallest, unique when the fourth smallest evaluated value is larger (every
  // value not evaluated is larger than the third: its cell's bound is).
  std::sort(evaluated.begin(), evaluated.end(), [&](int i, int j) { return d[i] < d[j]; });
  if (evaluated.size() < 3 || (evaluated.size() > 3 && !(d[evaluated[3]] > d[evaluated[2]]))) {
    out.ambiguous = true;
    return out;
  }
  for (int k = 0; k < 3; ++k) out.idx[k] = evaluated[k];
  out.smallest = d[evaluated[0]];
  return out;
}

}  // namespace

// The samples of the estimate that can matter (grid_minima): the same minimum. The grid's
// minimum is among its three smallest samples, and the searches run around those three.
double ccd_separation_of_miss(const cases::CcdQuery& q) {
  require_finite(q);
  const LongQuery lq(q);
  const GridMinima g = grid_minima(q, lq, [](long double) { return false; });
  if (g.ambiguous) return ccd_separation_of_miss_full_grid(q);
  long double best = g.smallest;
  for (int k = 0; k < 3; ++k) {
    const auto [lo, hi] = separation_window(g.idx[k]);
    best = std::min(best, separation_search(lq, lo, hi, [](long double) { return false; }));
  }
  return static_cast<double>(best / cases::ccd_scale(q));
}

// Exactly ccd_separation_of_miss(q) <= x, evaluating only the samples that can matter. The
// estimate is the minimum of double(d / scale) over its samples d (rounding is monotone, so
// that is double(min d / scale)): it is <= x as soon as one sample is. Its samples are the
// grid i/1024 and three golden-section searches over the windows around the three smallest
// grid values (grid_minima, stopping at the first sample <= x). A window whose bound exceeds
// x cannot bring the minimum to x; the others run the estimate's own search.
bool ccd_separation_of_miss_at_most(const cases::CcdQuery& q, double x) {
  require_finite(q);
  const long double scale = cases::ccd_scale(q);
  auto at_most = [&](long double d) { return static_cast<double>(d / scale) <= x; };
  const LongQuery lq(q);
  const GridMinima g = grid_minima(q, lq, at_most);
  if (g.stopped) return true;
  if (g.ambiguous) return ccd_separation_of_miss_full_grid(q) <= x;
  const ScaledQuery sq(q);
  for (int k = 0; k < 3; ++k) {
    const auto [lo, hi] = separation_window(g.idx[k]);
    if (sq.over(static_cast<double>(lo), static_cast<double>(hi)).bound > x) continue;
    if (at_most(separation_search(lq, lo, hi, at_most))) return true;  // the estimate's own search
  }
  return false;
}

}  // namespace contactbench::reference
