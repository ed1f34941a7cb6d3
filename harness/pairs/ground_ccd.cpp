#include "harness/pairs/ground_ccd.hpp"

#include "cases/json_input.hpp"
#include "harness/pairs/ulp.hpp"

#include <cmath>

namespace contactbench::harness {

std::vector<cases::Named<cases::GroundCcdQuery>> GroundCcdPair::canonical(const CheckOptions&) {
  using V = std::vector<double>;
  return {
      // The square's bottom row (y = -0.5) in free fall towards y = -1: 0.9·0.5/0.6 = 0.75.
      {"bottom_row_falling", {-1, V{-0.5, -0.5, -0.5, -0.5, -0.5}, V{-0.6, -0.6, -0.6, -0.6, -0.6}}},
      {"no_downward_motion", {-1, V{-0.5, -0.25, 0.0}, V{0.0, 0.1, 0.0}}},
      {"touches_exactly_at_1", {-1, V{-0.5}, V{-0.5}}},       // raw ratio 1: alpha 0.9
      {"node_at_dhat", {0, V{0.01, 0.02}, V{-0.01, -0.01}}},  // node exactly d̂ above ground
      {"exact_tie_two_nodes", {-1, V{-0.75, -0.5}, V{-0.5, -1.0}}},  // equal ratios 1/2
      {"capped_slow_approach", {-1, V{-0.5}, V{-0.25}}},      // 0.9·2 > 1: alpha 1
      {"near_cap", {-1, V{-0.5}, V{-0.45}}},                  // 0.9·0.5/0.45 ~ 1: the cap decision
      {"deep_penetrating_step", {-1, V{-0.99, -0.5}, V{-1.0, -1.0}}},
  };
}

// Fast error bound: (0.9·(y_g - y))/p rounds three times (the subtraction is exact when
// y is within a factor 2 of y_g, by Sterbenz) and its double 0.9 is 0.22u above 9/10:
// relative error < 3.3u < 3.3 ULP; with the reference's own 0.5 ULP, 4 ULP. The fast
// minimum can pick another node only if two exact candidates are within 2·3.3u < 8u of
// each other, relatively: that is the margin bound of `binding`. The margin of a mismatch
// is therefore the exact gap between the reference's binding candidate and the candidate of
// the node fast actually picked — not the reference's runner-up gap, which would excuse a
// fast pick far above the minimum whenever some other node happened to be close to it.
Comparison GroundCcdPair::compare(const Query& q, const Result& ref, const Result& fast) {
  Comparison c;
  const double margin = ref.binding == fast.binding
                            ? ref.margin
                            : reference::ground_ccd_candidate_gap(q, ref.binding, fast.binding);
  c.discrete("binding", ref.binding, fast.binding, margin, binding_margin_bound);
  c.continuous("alpha_ulp", ulp_error(fast.alpha, ref.alpha), alpha_ulp_bound);
  return c;
}

nlohmann::json GroundCcdPair::query_to_json(const Query& q) {
  return {{"y_ground", q.y_ground}, {"y", q.y}, {"py", q.py}};
}

GroundCcdPair::Query GroundCcdPair::query_from_json(const nlohmann::json& j, const cases::Where& w) {
  cases::reject_unknown_keys(j, {"y_ground", "y", "py"}, w);
  Query q;
  if (j.contains("y_ground")) q.y_ground = cases::read_double(j, "y_ground", w);
  q.y = cases::read_double_array(j, "y", w);
  q.py = cases::read_double_array(j, "py", w);
  cases::validate(q, w);
  return q;
}

nlohmann::json GroundCcdPair::result_to_json(const Result& r) {
  nlohmann::json j = {{"alpha", r.alpha}, {"binding", r.binding}};
  if (!std::isnan(r.margin)) j["margin"] = r.margin;  // reference only
  return j;
}

}  // namespace contactbench::harness
