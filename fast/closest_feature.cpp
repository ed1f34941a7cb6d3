#include "fast/closest_feature.hpp"

#include "cases/json_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactbench::fast {

using cases::Region;
using cases::Vec3;

namespace {

// The face point by projection, p - ((p - o)·n / n·n) n, with o the vertex opposite the
// longest edge and n the cross product of the two edges at o: of the three cross products
// it has the smallest |e1||e2| for the same |n| = 2·area, so the smallest rounding of its
// direction (see the header). A normal that rounds to (nearly) zero — a triangle flat in
// double, kappa beyond ~2^50 — falls back to the nearest of the three edge points; the
// bounds there exceed the triangle's size anyway.
Vec3 segment_point(const Vec3& p, const Vec3& x, const Vec3& y) {
  const Vec3 e = y - x;
  const double t = std::clamp(e.dot(p - x) / e.dot(e), 0.0, 1.0);
  return x + t * e;
}

Vec3 face_point(const cases::ClosestFeatureQuery& q) {
  const double lab = (q.b - q.a).squaredNorm(), lbc = (q.c - q.b).squaredNorm(),
               lca = (q.a - q.c).squaredNorm();
  const Vec3 *o = &q.c, *x = &q.a, *y = &q.b;  // ab longest: o = c
  if (lbc >= lab && lbc >= lca) o = &q.a, x = &q.b, y = &q.c;
  else if (lca >= lab && lca >= lbc) o = &q.b, x = &q.c, y = &q.a;
  const Vec3 n = (*x - *o).cross(*y - *o);
  const double nn = n.dot(n);
  if (!(nn >= std::numeric_limits<double>::min())) {
    Vec3 best = segment_point(q.p, q.a, q.b);
    for (const Vec3& s : {segment_point(q.p, q.b, q.c), segment_point(q.p, q.c, q.a)})
      if ((q.p - s).squaredNorm() < (q.p - best).squaredNorm()) best = s;
    return best;
  }
  return q.p - ((q.p - *o).dot(n) / nn) * n;
}

}  // namespace

cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
  const Vec3 ab = q.b - q.a, ac = q.c - q.a, ap = q.p - q.a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  cases::ClosestFeatureResult r;
  auto finish = [&](const Vec3& point, Region region) {
    r.point = point;
    r.region = region;
    r.squared_distance = (q.p - point).squaredNorm();
    return r;
  };
  if (d1 <= 0 && d2 <= 0) return finish(q.a, Region::vertex0);
  const Vec3 bp = q.p - q.b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return finish(q.b, Region::vertex1);
  const Vec3 cp = q.p - q.c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return finish(q.c, Region::vertex2);
  // Edge tests: vc, vb, va are (n × edge)·(p - vertex), the signed side of each edge.
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return finish(q.a + (d1 / (d1 - d3)) * ab, Region::edge0);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return finish(q.a + (d2 / (d2 - d6)) * ac, Region::edge2);
  const double va = d3 * d6 - d5 * d4;
  const double e43 = d4 - d3, e56 = d5 - d6;
  if (va <= 0 && e43 >= 0 && e56 >= 0)
    return finish(q.b + (e43 / (e43 + e56)) * (q.c - q.b), Region::edge1);
  return finish(face_point(q), Region::face);
}

bool closest_feature_in_domain(const cases::ClosestFeatureQuery& q) {
  for (const Vec3* v : {&q.p, &q.a, &q.b, &q.c})
    if (!(v->cwiseAbs().maxCoeff() <= 0x1p250)) return false;
  return cases::twice_area_at_least(q.a, q.b, q.c, -400);
}

ClosestFeatureBounds closest_feature_bounds(const cases::ClosestFeatureQuery& q) {
  constexpr double u = 0x1p-53;
  // Work on differences scaled by a power of two (exact) so that the area, a square of
  // lengths, neither overflows nor underflows: every ratio below is scale-free.
  Vec3 ab = q.b - q.a, ac = q.c - q.a, ap = q.p - q.a;
  int e = 0;
  std::frexp(std::max(ab.cwiseAbs().maxCoeff(), ac.cwiseAbs().maxCoeff()), &e);
  const double s = std::ldexp(1.0, -e);
  ab *= s, ac *= s, ap *= s;
  const Vec3 bc = ac - ab, bp = ap - ab, cp = ap - ac;
  const double e0 = ab.norm(), e1 = bc.norm(), e2 = ac.norm();
  const double L = std::max({e0, e1, e2}), l = std::min({e0, e1, e2});
  const double twice_area = ab.cross(ac).norm();
  const double R = std::max({ap.norm(), bp.norm(), cp.norm()});
  const double M = s * std::max({q.p.cwiseAbs().maxCoeff(), q.a.cwiseAbs().maxCoeff(),
                                 q.b.cwiseAbs().maxCoeff(), q.c.cwiseAbs().maxCoeff()});
  const double kappa = L * L / twice_area, rr = 1 + R / L;
  ClosestFeatureBounds b;
  b.decision = 32 * u * kappa * rr * rr * (L / l);
  b.point = 32 * u * (1 + kappa) * rr + 4 * u * (M / L);
  b.squared_distance = 2 * b.point * rr + 4 * u * rr * rr;
  b.point_across = b.decision + b.point;
  b.squared_distance_across = 2 * b.point_across * rr + 4 * u * rr * rr;
  return b;
}

}  // namespace contactbench::fast
