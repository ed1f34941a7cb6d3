#include "harness/pairs/edge_smoothing.hpp"

#include "fast/closest_feature.hpp"
#include "reference/closest_feature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace contactbench::harness {

std::vector<cases::Named<EdgeSmoothingPair::Query>> EdgeSmoothingPair::canonical(const CheckOptions&) {
  std::vector<cases::Named<Query>> out;
  for (auto& [name, q] : cases::canonical_edge_smoothing()) out.push_back({name, q});
  return out;
}

Comparison EdgeSmoothingPair::compare(const Query& q, const Result& ref, const Result& fast) {
  Comparison c;
  // Bounds from the query and the reference's exact distance |centre - closest point|
  // (on_facet_margin), never from the fast output being judged.
  const auto b = fast::edge_smoothing_bound(q, ref.centre_on_facet ? 0.0 : ref.on_facet_margin);
  double L = q.centre.cwiseAbs().maxCoeff();
  for (int k = 0; k < 3; ++k) L = std::max(L, q.mesh->vertex(q.facet, k).cwiseAbs().maxCoeff());
  // Overlap = radius - |centre - closest point| does not depend on any decision below (not
  // even the region: the distance is continuous across regions), so it is always compared.
  c.continuous("overlap", std::abs(fast.overlap - ref.overlap) / L, b.length / L);

  // Discrete fields in decision order; after a mismatch the later fields follow different
  // rules and are not compared. A mismatch is excused only by the exact margin of the value
  // the fast variant claimed.
  auto agree = [&] { return c.mismatches.empty(); };
  const cases::ClosestFeatureQuery cq{q.centre, q.mesh->vertex(q.facet, 0),
                                      q.mesh->vertex(q.facet, 1), q.mesh->vertex(q.facet, 2)};
  // Region: the distance of the centre to the region fast claimed (relative to the longest
  // edge), against closest_feature's own bound (harness/pairs/closest_feature.cpp).
  if (ref.region != fast.region)
    c.discrete("region", std::string(cases::to_string(ref.region)),
               std::string(cases::to_string(fast.region)),
               reference::closest_feature_distance_to_region(cq, fast.region),
               fast::closest_feature_bounds(cq).decision);
  if (!agree()) return c;
  // Side: the distance to the facet's plane is the distance to either other side value.
  c.discrete("side", ref.side, fast.side, ref.side_margin, b.length);
  if (!agree()) return c;
  // n undefined (centre at its closest point) is an explicit state, decided before the zone.
  c.discrete("centre_on_facet", ref.centre_on_facet, fast.centre_on_facet, ref.on_facet_margin,
             b.on_facet);
  if (!agree()) return c;
  if (ref.zone != fast.zone)
    c.discrete("zone", std::string(cases::to_string(ref.zone)),
               std::string(cases::to_string(fast.zone)),
               reference::edge_smoothing_zone_distance(q, fast.zone), b.angle);
  if (!agree()) return c;
  // Equal zones: adjusted differs only inside a vertex cone (in or out of the cone: the
  // distance of d/|d| to the cone's boundary is the distance to the other state).
  c.discrete("adjusted", ref.adjusted, fast.adjusted,
             ref.zone == cases::Zone::vertex_cone ? ref.cone_margin : ref.zone_margin, b.angle);
  if (!agree()) return c;
  double condition = 1;  // the smooth piece's conditioning (finite by construction)
  if (ref.zone == cases::Zone::vertex_cone && ref.adjusted) {
    c.discrete("polar", ref.polar, fast.polar, ref.polar_margin, b.angle);
    if (!agree()) return c;
    // The piece of the cone n' comes from. Margin, for the piece the fast variant claimed: in
    // the polar case the reference's exact gap to its generator (so a clearly worse generator
    // is wrong even when the best two tie); in the projected case the exact distance of d/|d|
    // to the directions that project onto the claimed piece (a whole face plane counts as one
    // piece, whatever pair labels it).
    if (ref.cone_i != fast.cone_i || ref.cone_j != fast.cone_j) {
      double margin = std::numeric_limits<double>::infinity();
      if (!ref.polar)
        margin = reference::edge_smoothing_cone_piece_distance(q, fast.cone_i, fast.cone_j);
      else if (fast.cone_i >= 0 && fast.cone_i < static_cast<int>(ref.generator_gap.size()) &&
               fast.cone_j < 0)
        margin = ref.generator_gap[fast.cone_i];
      c.discrete("cone_feature", fmt::format("{},{}", ref.cone_i, ref.cone_j),
                 fmt::format("{},{}", fast.cone_i, fast.cone_j), margin, b.angle);
    }
    if (!agree()) return c;
    condition = ref.condition;
  }
  // n' is as sensitive as its smooth piece (condition > 1 only on a vertex-cone face); the
  // point moves with n' times |centre - vertex| <= L.
  const double normal_bound = b.angle * condition;
  c.continuous("normal", (fast.normal - ref.normal).norm(), normal_bound);
  c.continuous("point", (fast.point - ref.point).norm() / L, b.length / L + normal_bound);
  return c;
}

}  // namespace contactbench::harness
