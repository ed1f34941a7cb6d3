#include "harness/pairs/triangle_intersection.hpp"

namespace contactbench::harness {

Comparison TriangleIntersectionPair::compare(const Query& q, const Result& ref, const Result& fast) {
  const auto bounds = fast::triangle_intersection_bounds(q);
  Comparison c;
  c.reached("intersect", ref.intersect ? "true" : "false", ref.intersect_margin, bounds.intersect, "× longest edge³");
  c.reached("coplanar", ref.coplanar ? "true" : "false", ref.coplanar_margin, bounds.coplanar, "× longest edge³");
  c.reached("configuration", ref.configuration, ref.intersect_margin, bounds.intersect, "× longest edge³");
  // Exact family: a mismatch is `wrong` whatever the margin (judge gives no boundary).
  c.discrete("intersect", ref.intersect, fast.intersect, ref.intersect_margin, bounds.intersect, "× longest edge³");
  c.discrete("coplanar", ref.coplanar, fast.coplanar, ref.coplanar_margin, bounds.coplanar, "× longest edge³");
  if (!fast.configuration.empty()) c.note = "fast configuration " + fast.configuration;
  return c;
}

}  // namespace contactbench::harness
