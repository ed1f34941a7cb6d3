// Exact reference of triangle_intersection (see reference/triangle_intersection.hpp).
#include "reference/triangle_intersection.hpp"

#include "cases/json_input.hpp"
#include "reference/src/cgal.hpp"
#include "reference/src/filtered_sign.hpp"
#include "reference/src/orientation.hpp"

#include <CGAL/intersections.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace contactbench::reference {

namespace {

using cases::Vec3;
using Triangle = std::array<Vec3, 3>;

// The orientations a decision uses, with the smallest |value| / L^degree seen (a double
// estimate; exactly 0 when an exact sign was 0).
struct Signs {
  double L;
  double min_margin = std::numeric_limits<double>::infinity();

  void note(int sign, double estimate) {
    min_margin = std::min(min_margin, sign == 0 ? 0.0 : std::max(std::abs(estimate), std::numeric_limits<double>::denorm_min()));
  }
  int orient3(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const int s = exact::orientation(a, b, c, d);
    note(s, (b - a).cross(c - a).dot(d - a) / (L * L * L));
    return s;
  }
  // Orientation of the projections of a, b, c onto the coordinate plane without axis k.
  int orient2(const Vec3& a, const Vec3& b, const Vec3& c, int k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const int s = exact::filtered_sign(
        [i, j](const auto& x, const auto& y, const auto& z) {
          using T = std::decay_t<decltype(x[0])>;
          return T((y[i] - x[i]) * (z[j] - x[j]) - (y[j] - x[j]) * (z[i] - x[i]));
        },
        a, b, c);
    note(s, ((b[i] - a[i]) * (c[j] - a[j]) - (b[j] - a[j]) * (c[i] - a[i])) / (L * L));
    return s;
  }
};

// A coordinate axis along which t's plane projects one to one (t's normal has a non-zero
// component along it, decided exactly).
int projection_axis(const Triangle& t) {
  for (int k = 2; k >= 0; --k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    const int s = exact::filtered_sign(
        [i, j](const auto& x, const auto& y, const auto& z) {
          using T = std::decay_t<decltype(x[0])>;
          return T((y[i] - x[i]) * (z[j] - x[j]) - (y[j] - x[j]) * (z[i] - x[i]));
        },
        t[0], t[1], t[2]);
    if (s != 0) return k;
  }
  return 2;  // unreachable for a non-degenerate triangle
}

// x in the closed triangle t, all in one plane, projected along k.
bool in_triangle_2d(Signs& s, const Vec3& x, const Triangle& t, int k) {
  const int o = s.orient2(t[0], t[1], t[2], k);
  for (int e = 0; e < 3; ++e)
    if (s.orient2(t[e], t[(e + 1) % 3], x, k) * o < 0) return false;
  return true;
}

// Open segments ab and cd cross at one point interior to both (strict signs).
bool proper_cross_2d(Signs& s, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, int k) {
  const int o1 = s.orient2(a, b, c, k), o2 = s.orient2(a, b, d, k);
  const int o3 = s.orient2(c, d, a, k), o4 = s.orient2(c, d, b, k);
  return o1 * o2 < 0 && o3 * o4 < 0;
}

// x on the closed segment ab, all three collinear in the projection.
bool on_segment_2d(Signs& s, const Vec3& x, const Vec3& a, const Vec3& b, int k) {
  if (s.orient2(a, b, x, k) != 0) return false;
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  // Collinear: x between a and b in both projected coordinates (exact comparisons).
  return std::min(a[i], b[i]) <= x[i] && x[i] <= std::max(a[i], b[i]) &&
         std::min(a[j], b[j]) <= x[j] && x[j] <= std::max(a[j], b[j]);
}

// The closed segment ab meets the closed triangle t, all in one plane.
bool segment_meets_triangle_2d(Signs& s, const Vec3& a, const Vec3& b, const Triangle& t, int k) {
  if (in_triangle_2d(s, a, t, k) || in_triangle_2d(s, b, t, k)) return true;
  for (int e = 0; e < 3; ++e) {
    if (on_segment_2d(s, t[e], a, b, k)) return true;
    if (proper_cross_2d(s, a, b, t[e], t[(e + 1) % 3], k)) return true;
  }
  return false;
}

// The closed segment ab meets the closed triangle t; sa, sb: orientations of a, b against t.
bool segment_meets_triangle(Signs& s, const Vec3& a, const Vec3& b, const Triangle& t, int sa, int sb) {
  if (sa * sb > 0) return false;
  if (sa == 0 && sb == 0) return segment_meets_triangle_2d(s, a, b, t, projection_axis(t));
  // The line ab crosses t's plane at one point of the segment; it lies in the closed
  // triangle iff the three edge orientations about the line agree in sign (zeros allowed).
  const int o0 = s.orient3(a, b, t[0], t[1]), o1 = s.orient3(a, b, t[1], t[2]),
            o2 = s.orient3(a, b, t[2], t[0]);
  return !((o0 > 0 || o1 > 0 || o2 > 0) && (o0 < 0 || o1 < 0 || o2 < 0));
}

bool both_sides(const std::array<int, 3>& o) {
  return std::max({o[0], o[1], o[2]}) > 0 && std::min({o[0], o[1], o[2]}) < 0;
}
bool strictly_one_side(const std::array<int, 3>& o) {
  return (o[0] > 0 && o[1] > 0 && o[2] > 0) || (o[0] < 0 && o[1] < 0 && o[2] < 0);
}

}  // namespace

cases::TriangleIntersectionResult triangle_intersection(const cases::TriangleIntersectionQuery& q) {
  if (cases::exactly_collinear(q.p[0], q.p[1], q.p[2]) || cases::exactly_collinear(q.q[0], q.q[1], q.q[2]))
    throw cases::InputError("triangle_intersection: a triangle is degenerate (collinear vertices)");
  const Triangle &P = q.p, &Q = q.q;
  Signs s{cases::longest_edge(q)};
  std::array<int, 3> sp, sq;  // orientations of p's vertices against Q, of q's against P
  for (int i = 0; i < 3; ++i) sq[i] = s.orient3(P[0], P[1], P[2], Q[i]);
  double coplanar_margin = 0;
  for (int i = 0; i < 3; ++i)
    if (sq[i] != 0) {
      const double L = s.L, v = (P[1] - P[0]).cross(P[2] - P[0]).dot(Q[i] - P[0]) / (L * L * L);
      coplanar_margin = std::max({coplanar_margin, std::abs(v), std::numeric_limits<double>::denorm_min()});
    }
  cases::TriangleIntersectionResult r;
  r.coplanar = sq[0] == 0 && sq[1] == 0 && sq[2] == 0;
  r.coplanar_margin = coplanar_margin;
  if (r.coplanar) {
    const int k = projection_axis(P);
    bool meet = false;
    for (int i = 0; i < 3 && !meet; ++i) meet = in_triangle_2d(s, Q[i], P, k) || in_triangle_2d(s, P[i], Q, k);
    for (int i = 0; i < 3 && !meet; ++i)
      for (int j = 0; j < 3 && !meet; ++j) meet = proper_cross_2d(s, P[i], P[(i + 1) % 3], Q[j], Q[(j + 1) % 3], k);
    r.intersect = meet;
    r.configuration = meet ? "coplanar_overlap" : "coplanar_disjoint";
  } else {
    for (int i = 0; i < 3; ++i) sp[i] = s.orient3(Q[0], Q[1], Q[2], P[i]);
    if (strictly_one_side(sp) || strictly_one_side(sq)) {
      r.intersect = false;
      r.configuration = "separated";
    } else {
      bool meet = false;
      for (int e = 0; e < 3 && !meet; ++e)
        meet = segment_meets_triangle(s, P[e], P[(e + 1) % 3], Q, sp[e], sp[(e + 1) % 3]) ||
               segment_meets_triangle(s, Q[e], Q[(e + 1) % 3], P, sq[e], sq[(e + 1) % 3]);
      r.intersect = meet;
      r.configuration = !meet ? "disjoint" : both_sides(sp) && both_sides(sq) ? "crossing" : "touching";
    }
  }
  r.intersect_margin = s.min_margin;
  return r;
}

double cgal_epick_triangles_intersect(const cases::TriangleIntersectionQuery& q) {
  using K = CGAL::Exact_predicates_inexact_constructions_kernel;
  auto point = [](const Vec3& v) { return K::Point_3(v.x(), v.y(), v.z()); };
  const K::Triangle_3 a(point(q.p[0]), point(q.p[1]), point(q.p[2]));
  const K::Triangle_3 b(point(q.q[0]), point(q.q[1]), point(q.q[2]));
  return CGAL::do_intersect(a, b) ? 1.0 : 0.0;
}

}  // namespace contactbench::reference
