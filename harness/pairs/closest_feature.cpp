#include "harness/pairs/closest_feature.hpp"

#include <cmath>

namespace contactbench::harness {

Comparison ClosestFeaturePair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                            const fast::ClosestFeatureBounds& bounds) {
  const double L = cases::longest_edge(q);
  Comparison c;
  // A different label is excused only as far as p is from the region fast claimed.
  const double margin = ref.region == fast.region
                            ? ref.margin
                            : reference::closest_feature_distance_to_region(q, fast.region);
  c.reached("region", cases::to_string(ref.region), ref.margin, bounds.decision, "× longest edge");
  c.discrete("region", std::string(cases::to_string(ref.region)),
             std::string(cases::to_string(fast.region)), margin, bounds.decision, "× longest edge");
  // Constructions: the tight bound when the regions agree, the decision bound on top when
  // fast's region is an excused neighbour.
  const bool same = ref.region == fast.region;
  c.continuous("point", (fast.point - ref.point).norm() / L,
               same ? bounds.point : bounds.point_across, "× longest edge");
  c.continuous("squared_distance", std::abs(fast.squared_distance - ref.squared_distance) / (L * L),
               same ? bounds.squared_distance : bounds.squared_distance_across,
               "× longest edge²");
  return c;
}

ClosestFeaturePair::Result ClosestFeatureVertexSnapFault::fast(const Query& q) {
  Result r = fast::closest_feature(q);
  if ((r.point - q.a).norm() < 1e-2 * cases::longest_edge(q)) {
    r.region = cases::Region::vertex0;  // label only: the point stays right
  }
  return r;
}

cases::ClosestFeatureResult closest_feature_with_fault(const cases::ClosestFeatureQuery& q,
                                                       ClosestFeatureFault fault) {
  using cases::Region;
  using cases::Vec3;
  using F = ClosestFeatureFault;
  const Vec3 ab = q.b - q.a, ac = q.c - q.a, ap = q.p - q.a;
  cases::ClosestFeatureResult r;
  auto finish = [&](const Vec3& point, Region region) {
    r.point = point;
    r.region = region;
    r.squared_distance = (q.p - point).squaredNorm();
    return r;
  };
  const Vec3 n = ab.cross(ac);
  if (fault == F::in_plane_shortcut && ap.dot(n) == 0) return finish(q.p, Region::face);
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  const bool strict = fault == F::strict_ties;
  if (strict ? (d1 < 0 && d2 < 0) : (d1 <= 0 && d2 <= 0)) return finish(q.a, Region::vertex0);
  const Vec3 bp = q.p - q.b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return finish(q.b, Region::vertex1);
  const Vec3 cp = q.p - q.c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return finish(q.c, Region::vertex2);
  const double vc = d1 * d4 - d3 * d2;
  const double vc_limit = fault == F::edge_as_face ? -1e-3 * ab.squaredNorm() * n.norm() : 0.0;
  if (vc <= vc_limit && (strict ? d1 > 0 : d1 >= 0) && d3 <= 0)
    return finish(q.a + (d1 / (d1 - d3)) * ab, Region::edge0);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return finish(q.a + (d2 / (d2 - d6)) * ac, Region::edge2);
  const double va = d3 * d6 - d5 * d4;
  const double e43 = d4 - d3, e56 = d5 - d6;
  if (va <= 0 && e43 >= 0 && e56 >= 0) {
    const double t = e43 / (e43 + e56);
    return finish(fault == F::edge1_weights ? Vec3(q.c + t * (q.b - q.c)) : Vec3(q.b + t * (q.c - q.b)),
                  Region::edge1);
  }
  const double h = ap.dot(n) / n.dot(n);
  return finish(fault == F::projection_sign ? Vec3(q.p + h * n) : Vec3(q.p - h * n), Region::face);
}

}  // namespace contactbench::harness
