#include "harness/pairs/edge_smoothing.hpp"

#include "fast/closest_feature.hpp"

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
  const auto b = fast::edge_smoothing_bound(q, fast);
  // Region: closest_feature's own margin (relative to the facet's longest edge) and bound.
  const cases::ClosestFeatureQuery cq{q.centre, q.mesh->vertex(q.facet, 0),
                                      q.mesh->vertex(q.facet, 1), q.mesh->vertex(q.facet, 2)};
  c.discrete("region", std::string(cases::to_string(ref.region)),
             std::string(cases::to_string(fast.region)), ref.region_margin,
             fast::closest_feature_bounds(cq).decision);
  if (!c.mismatches.empty()) return c;
  c.discrete("side", ref.side, fast.side, ref.side_margin, b.length);
  if (!c.mismatches.empty()) return c;
  // n undefined (centre at its closest point) is an explicit state, decided before the zone.
  c.discrete("centre_on_facet", ref.centre_on_facet, fast.centre_on_facet, ref.on_facet_margin,
             b.on_facet);
  if (!c.mismatches.empty()) return c;
  c.discrete("zone", std::string(cases::to_string(ref.zone)), std::string(cases::to_string(fast.zone)),
             ref.zone_margin, b.angle);
  if (!c.mismatches.empty()) return c;
  c.discrete("adjusted", ref.adjusted, fast.adjusted,
             ref.zone == cases::Zone::vertex_cone ? ref.cone_margin : ref.zone_margin, b.angle);
  if (!c.mismatches.empty()) return c;
  double condition = 1;  // the smooth piece's conditioning (finite by construction)
  if (ref.zone == cases::Zone::vertex_cone && ref.adjusted) {
    c.discrete("polar", ref.polar, fast.polar, ref.polar_margin, b.angle);
    if (!c.mismatches.empty()) return c;
    // The piece of the cone n' comes from. Margin: in the polar case the reference's exact
    // gap to the fast variant's generator (so a clearly worse generator is wrong even when
    // the best two tie); in the projected case the distance of d to its piece's boundary.
    const bool polar_pick = ref.polar && fast.cone_i >= 0 &&
                            fast.cone_i < static_cast<int>(ref.generator_gap.size());
    const double margin = polar_pick ? ref.generator_gap[fast.cone_i] : ref.feature_margin;
    c.discrete("cone_feature", fmt::format("{},{}", ref.cone_i, ref.cone_j),
               fmt::format("{},{}", fast.cone_i, fast.cone_j), margin, b.angle);
    if (!c.mismatches.empty()) return c;
    condition = ref.condition;
  }
  double L = q.centre.cwiseAbs().maxCoeff();
  for (int k = 0; k < 3; ++k) L = std::max(L, q.mesh->vertex(q.facet, k).cwiseAbs().maxCoeff());
  // n' is as sensitive as its smooth piece (condition > 1 only on a vertex-cone face); the
  // point moves with n' times |centre - vertex| <= L.
  const double normal_bound = b.angle * condition;
  c.continuous("normal", (fast.normal - ref.normal).norm(), normal_bound);
  c.continuous("point", (fast.point - ref.point).norm() / L, b.length / L + normal_bound);
  c.continuous("overlap", std::abs(fast.overlap - ref.overlap) / L, b.length / L);
  return c;
}

}  // namespace contactbench::harness
