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
#include "reference/src/exact_vector.hpp"
#include "reference/src/polynomial.hpp"

#include <Eigen/Geometry>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace contactbench::reference {
namespace {

using exact::Algebraic;
using exact::Polynomial;
using Q = mpq_class;
// Vectors of polynomials: the linear motion of a point and everything built from it.
using PVec = exact::Vector3<Polynomial>;

PVec motion(const cases::Vec3& x0, const cases::Vec3& x1) {
  PVec r;
  for (int k = 0; k < 3; ++k) {
    const Q a(x0[k]), b(x1[k]);  // exact: mpq from double
    r[k] = Polynomial({a, b - a});
  }
  return r;
}

// ---------------------------------------------------------------------------------------
// The problems. Each holds the polynomials of one primitive pair; touch(r) decides exactly
// whether they touch at time r; earliest() returns t* or nothing.

bool nonzero_at(const PVec& v, Algebraic& r) {
  return sign_at(v[0], r) != 0 || sign_at(v[1], r) != 0 || sign_at(v[2], r) != 0;
}

bool all_zero(const PVec& v) { return v[0].is_zero() && v[1].is_zero() && v[2].is_zero(); }

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
  Polynomial along;  // (p - x) . (y - x)
  Polynomial rest;   // |y - x|^2 - along
  PointEdge(const PVec& p, const PVec& x, const PVec& y)
      : px(p, x), py(p, y), e(y - x), cr(cross(p - x, e)), along(dot(p - x, e)),
        rest(dot(e, e) - along) {}
  bool interior_touch(Algebraic& r) const {
    return nonzero_at(e, r) && !nonzero_at(cr, r) && sign_at(along, r) >= 0 &&
           sign_at(rest, r) >= 0;
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
  std::array<Polynomial, 3> g;
  std::array<PointEdge, 3> edges;
  VertexFace(const PVec& p_, const PVec& a_, const PVec& b_, const PVec& c_)
      : p(p_), a(a_), b(b_), c(c_), n(cross(b - a, c - a)), f(dot(n, p - a)),
        g{dot(n, cross(b - a, p - a)), dot(n, cross(c - b, p - b)), dot(n, cross(a - c, p - c))},
        edges{PointEdge(p, a, b), PointEdge(p, b, c), PointEdge(p, c, a)} {}
  bool face_touch(Algebraic& r) const {
    return sign_at(f, r) == 0 && nonzero_at(n, r) && sign_at(g[0], r) >= 0 &&
           sign_at(g[1], r) >= 0 && sign_at(g[2], r) >= 0;
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
  Polynomial mm;    // |m|^2
  Polynomial s, u;  // intersection parameters times |m|^2 on a and on b
  std::array<PointEdge, 4> ends;
  EdgeEdge(const PVec& a0_, const PVec& a1_, const PVec& b0_, const PVec& b1_)
      : a0(a0_), a1(a1_), b0(b0_), b1(b1_), m(cross(a1 - a0, b1 - b0)), f(dot(m, b0 - a0)),
        mm(dot(m, m)), s(dot(cross(b0 - a0, b1 - b0), m)), u(dot(cross(b0 - a0, a1 - a0), m)),
        ends{PointEdge(a0, b0, b1), PointEdge(a1, b0, b1), PointEdge(b0, a0, a1),
             PointEdge(b1, a0, a1)} {}
  bool cross_touch(Algebraic& r) const {
    return sign_at(f, r) == 0 && nonzero_at(m, r) && sign_at(s, r) >= 0 &&
           sign_at(mm - s, r) >= 0 && sign_at(u, r) >= 0 && sign_at(mm - u, r) >= 0;
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

// Distance from p to the closed segment [a, b].
long double point_segment(const L3& p, const L3& a, const L3& b) {
  const L3 e = b - a;
  const long double ee = e.squaredNorm();
  const long double s = ee > 0 ? clamp01((p - a).dot(e) / ee) : 0;
  return (p - a - s * e).norm();
}

// Distance from p to the closed triangle a b c: to the in-plane projection if it lies
// inside, otherwise to the nearest edge (also right for degenerate triangles). Every
// candidate is the distance from p to an actual point of the triangle (the projection is
// rebuilt from its barycentric coordinates, all >= 0), so rounding can only make the result
// larger than the true distance, never smaller, apart from the rounding of the final norm
// and of the positions (relative 2^-60 or so). The barycentric coordinates are signed areas
// over |n|^2 with n = (b - a) x (c - a) computed directly (not the Gram determinant
// |e1|^2 |e2|^2 - (e1.e2)^2, which cancels catastrophically for thin triangles): accurate to
// about 2^-64 / sin(smallest angle), so a point over the face of a 1e-4 degree sliver is
// still measured to the face.
long double point_triangle(const L3& p, const L3& a, const L3& b, const L3& c) {
  long double d = std::min({point_segment(p, a, b), point_segment(p, b, c), point_segment(p, c, a)});
  const L3 n = (b - a).cross(c - a);
  const long double nn = n.squaredNorm();
  if (nn > 0) {
    const long double la = n.dot((c - b).cross(p - b)) / nn, lb = n.dot((a - c).cross(p - c)) / nn,
                      lc = n.dot((b - a).cross(p - a)) / nn;
    if (la >= 0 && lb >= 0 && lc >= 0) {
      const long double sum = la + lb + lc;
      d = std::min(d, (p - (la * a + lb * b + lc * c) / sum).norm());
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

// Distance between closed segments [a0, a1] and [b0, b1]: the interior critical point if
// both parameters are inside, otherwise the best of the four endpoint-segment distances.
long double segment_segment(const L3& a0, const L3& a1, const L3& b0, const L3& b1) {
  long double d = std::min({point_segment(a0, b0, b1), point_segment(a1, b0, b1),
                            point_segment(b0, a0, a1), point_segment(b1, a0, a1)});
  const L3 da = a1 - a0, db = b1 - b0;
  long double s, u;
  if (line_params(a0, da, b0, db, s, u) && s >= 0 && s <= 1 && u >= 0 && u <= 1)
    d = std::min(d, ((a0 + s * da) - (b0 + u * db)).norm());
  return d;
}

long double distance_at(const cases::CcdQuery& q, long double t) {
  std::array<L3, 4> v;
  for (int i = 0; i < 4; ++i)
    v[i] = (1 - t) * q.x[i].cast<long double>() + t * q.x[i + 4].cast<long double>();
  return q.kind == cases::CcdKind::vertex_face ? point_triangle(v[0], v[1], v[2], v[3])
                                               : segment_segment(v[0], v[1], v[2], v[3]);
}

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

}  // namespace

cases::CcdResult ccd(const cases::CcdQuery& q) {
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(q.x[i][k]))
        cases::Where{"", "ccd query"}.fail(fmt::format("x[{}][{}]", i, k), "NaN or Inf");
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
  std::array<PVec, 4> m;
  for (int i = 0; i < 4; ++i) m[i] = motion(x[i], x[i + 4]);
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

double ccd_separation_of_miss(const cases::CcdQuery& q) {
  constexpr int n = 1024;
  std::array<long double, n + 1> d;
  for (int i = 0; i <= n; ++i) d[i] = distance_at(q, static_cast<long double>(i) / n);
  // Golden-section refinement around the three smallest samples.
  std::vector<int> idx(n + 1);
  for (int i = 0; i <= n; ++i) idx[i] = i;
  std::partial_sort(idx.begin(), idx.begin() + 3, idx.end(), [&](int a, int b) { return d[a] < d[b]; });
  long double best = d[idx[0]];
  for (int k = 0; k < 3; ++k) {
    long double lo = std::max(0, idx[k] - 1) / static_cast<long double>(n);
    long double hi = std::min(n, idx[k] + 1) / static_cast<long double>(n);
    const long double g = (std::sqrt(5.0L) - 1) / 2;
    long double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    long double f1 = distance_at(q, x1), f2 = distance_at(q, x2);
    for (int it = 0; it < 100; ++it) {
      if (f1 < f2) {
        hi = x2; x2 = x1; f2 = f1; x1 = hi - g * (hi - lo); f1 = distance_at(q, x1);
      } else {
        lo = x1; x1 = x2; f1 = f2; x2 = lo + g * (hi - lo); f2 = distance_at(q, x2);
      }
    }
    best = std::min({best, f1, f2});
  }
  return static_cast<double>(best / cases::ccd_scale(q));
}

}  // namespace contactbench::reference
