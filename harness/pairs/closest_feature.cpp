#include "harness/pairs/closest_feature.hpp"

#include <cmath>

namespace contactbench::harness {

std::vector<cases::Named<cases::ClosestFeatureQuery>> ClosestFeaturePair::canonical(
    const CheckOptions&) {
  std::vector<cases::Named<Query>> out;
  for (const auto& c : cases::load_closest_feature_cases(cases::closest_feature_cases_path()))
    out.push_back({c.name, c.query});
  return out;
}

Comparison ClosestFeaturePair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                            const fast::ClosestFeatureBounds& bounds) {
  const double L = cases::longest_edge(q);
  Comparison c;
  // A different label is excused only as far as p is from the region fast claimed.
  const double margin = ref.region == fast.region
                            ? ref.margin
                            : reference::closest_feature_distance_to_region(q, fast.region);
  c.discrete("region", std::string(cases::to_string(ref.region)),
             std::string(cases::to_string(fast.region)), margin, bounds.decision);
  c.continuous("point", (fast.point - ref.point).norm() / L, bounds.point);
  c.continuous("squared_distance", std::abs(fast.squared_distance - ref.squared_distance) / (L * L),
               bounds.squared_distance);
  return c;
}

ClosestFeaturePair::Result ClosestFeatureVertexSnapFault::fast(const Query& q) {
  Result r = fast::closest_feature(q);
  if ((r.point - q.a).norm() < 1e-2 * cases::longest_edge(q)) {
    r.region = cases::Region::vertex0;  // label only: the point stays right
  }
  return r;
}

}  // namespace contactbench::harness
