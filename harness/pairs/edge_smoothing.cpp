#include "harness/pairs/edge_smoothing.hpp"

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
  const auto region = [](cases::Region r) {
    static const char* names[] = {"face", "edge0", "edge1", "edge2", "vertex0", "vertex1", "vertex2"};
    return std::string(names[static_cast<int>(r)]);
  };
  c.discrete("region", region(ref.region), region(fast.region), ref.region_margin, b.length);
  if (!c.mismatches.empty()) return c;
  c.discrete("side", ref.side, fast.side, ref.side_margin, b.length);
  if (!c.mismatches.empty()) return c;
  c.discrete("zone", std::string(cases::to_string(ref.zone)), std::string(cases::to_string(fast.zone)),
             ref.zone_margin, b.angle);
  if (!c.mismatches.empty()) return c;
  c.discrete("adjusted", ref.adjusted, fast.adjusted,
             ref.zone == cases::Zone::vertex_cone ? ref.cone_margin : ref.zone_margin, b.angle);
  if (!c.mismatches.empty()) return c;
  double L = q.centre.cwiseAbs().maxCoeff();
  for (int k = 0; k < 3; ++k) L = std::max(L, q.mesh->vertex(q.facet, k).cwiseAbs().maxCoeff());
  c.continuous("normal", (fast.normal - ref.normal).norm(), b.angle);
  c.continuous("point", (fast.point - ref.point).norm() / L, b.length / L);
  c.continuous("overlap", std::abs(fast.overlap - ref.overlap) / L, b.length / L);
  return c;
}

}  // namespace contactbench::harness
