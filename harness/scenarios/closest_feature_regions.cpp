#include "harness/scenarios/closest_feature_regions.hpp"

#include "cases/json_input.hpp"
#include "harness/pairs/closest_feature.hpp"
#include "harness/output.hpp"
#include "reference/closest_feature.hpp"

#include <fmt/format.h>

namespace contactbench::harness {

int run_closest_feature_regions(const ScenarioOptions& o) {
  using cases::Vec3;
  // Vertices with non-dyadic coordinates, so that points on boundaries are inexact in double.
  const Vec3 a(0.1, 0.2, 0), b(1.3, 0.1, 0), c(0.45, 0.9, 0);
  const Vec3 v[3] = {a, b, c};
  ParamReader in("closest_feature_regions", o);
  const int per_boundary = in.get_int("per_boundary", 400, 1, 100000);  // 900,000 queries at most
  in.done();
  nlohmann::json out = scenario_header("closest_feature_regions");
  out["triangle"] = {{a.x(), a.y()}, {b.x(), b.y()}, {c.x(), c.y()}};
  out["regions"] = cases::region_names;
  auto& samples = out["samples"] = nlohmann::json::array();
  const int grid = 160;
  for (int i = 0; i < grid; ++i)
    for (int j = 0; j < grid; ++j) {
      const double x = -1.0 + 3.2 * (i + 0.5) / grid, y = -1.2 + 3.2 * (j + 0.5) / grid;
      const auto r = reference::closest_feature({Vec3(x, y, 0), a, b, c});
      samples.push_back({x, y, static_cast<int>(r.region)});
    }
  // Boundary-heavy queries: points on the nine boundary lines (edge lines and the
  // perpendiculars at each vertex), rounded to double, at heights z in [-0.5, 0.5].
  auto rng = cases::query_rng(1, "closest_feature", "regions", 0);
  std::vector<cases::ClosestFeatureQuery> qs;
  for (int k = 0; k < 3; ++k) {
    const Vec3 &p0 = v[k], &p1 = v[(k + 1) % 3];
    const Vec3 e = p1 - p0, perp(-e.y(), e.x(), 0);
    const Vec3 lines[3][2] = {{p0, e}, {p0, perp}, {p1, perp}};
    for (const auto& line : lines)
      for (int s = 0; s < per_boundary; ++s) {
        const double t = cases::uniform(rng, -0.6, 1.6);
        qs.push_back({line[0] + t * line[1] + Vec3(0, 0, cases::uniform(rng, -0.5, 0.5)), a, b, c});
      }
  }
  // Judged by the family's own rule (ClosestFeaturePair::compare through evaluate): the
  // margin shown is the one the rule used (p's distance to fast's region where the labels
  // differ), the bound the decision's stated bound.
  const auto evaluations = evaluate<ClosestFeaturePair>(qs);
  auto& queries = out["queries"] = nlohmann::json::array();
  std::size_t disagree = 0, wrong = 0;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const auto& e = evaluations[i];
    const auto& region = e.comparison.decisions.front();  // the reference's region decision
    const bool differ = !e.comparison.mismatches.empty();
    disagree += differ;
    wrong += e.verdict == Verdict::wrong;
    queries.push_back({{"p", cases::to_json(qs[i].p)},
                       {"reference", cases::to_string(e.reference.region)},
                       {"fast", cases::to_string(e.fast.value().region)},
                       {"margin", differ ? e.comparison.mismatches.front().margin : region.margin},
                       {"bound", region.bound},
                       {"verdict", to_string(e.verdict)}});
  }
  out["disagreements"] = disagree;
  write_json(o.out_dir + "/closest_feature_regions.json", out);
  fmt::print("closest_feature_regions: {} boundary-heavy queries, {} labelled differently by fast\n",
             queries.size(), disagree);
  return wrong ? 1 : 0;
}

}  // namespace contactbench::harness
