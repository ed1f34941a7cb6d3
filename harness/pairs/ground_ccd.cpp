#include "harness/pairs/ground_ccd.hpp"

#include "cases/json_input.hpp"
#include "harness/pairs/ulp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
      {"cap_exact", {0, V{0.625}, V{-0.5625}}},  // 9/10 · 10/9 = 1 exactly: not below the cap
      // Beyond the fast domain (out_of_domain; the reference answers exactly): subnormal
      // heights (candidate 9/10 · 3/4), and a gap 2e308 that overflows in double.
      {"subnormal_heights", {0, V{0x3p-1074}, V{-0x4p-1074}}},
      {"gap_beyond_doubles", {-1e308, V{1e308}, V{-1e308}}},
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
Comparison GroundCcdPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                       double alpha_bound) {
  Comparison c;
  // Decisions of the reference, for coverage. `binding`: cap (alpha = 1, no candidate below
  // it; margin 0 when a candidate is exactly 1), unique (one node attains the minimum) or
  // tie (several do, the first binds; margin 0); margin the runner-up gap, bound 8u.
  // `direction` of each node: approaching (p < 0), resting (p = 0: margin 0), receding;
  // decided exactly by fast too (bound 0).
  c.reached("binding", ref.binding < 0 ? "cap" : ref.margin == 0 ? "tie" : "unique", ref.margin,
            binding_margin_bound);
  for (std::size_t i = 0; i < q.y.size(); ++i)
    c.reached("direction", q.py[i] < 0 ? "approaching" : q.py[i] == 0 ? "resting" : "receding",
              reference::ground_ccd_direction_margin(q, i), 0.0);
  const double margin = ref.binding == fast.binding
                            ? ref.margin
                            : reference::ground_ccd_candidate_gap(q, ref.binding, fast.binding);
  c.discrete("binding", ref.binding, fast.binding, margin, binding_margin_bound);
  c.continuous("alpha_ulp", ulp_error(fast.alpha, ref.alpha), alpha_bound);
  return c;
}

std::vector<DecisionSpace> GroundCcdPair::decision_space() {
  return {{"binding", {"cap", "unique", "tie"}},
          {"direction", {"approaching", "resting", "receding"}}};
}

namespace {

struct Slip {
  bool no_factor = false, le = false, last = false, reversed = false, uncapped = false,
       origin = false;
};

cases::GroundCcdResult slipped(const cases::GroundCcdQuery& q, Slip f) {
  cases::GroundCcdResult r;
  r.alpha = f.uncapped ? std::numeric_limits<double>::infinity() : 1.0;
  r.binding = -1;
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    const double yi = q.y[i], pi = f.reversed ? -q.py[i] : q.py[i];
    if (!(f.le ? pi <= 0 : pi < 0)) continue;
    const double down = (f.origin ? 0.0 : q.y_ground) - yi;
    const double c = f.no_factor ? down / pi : 0.9 * down / pi;
    if (f.last) {
      r.alpha = std::min(r.alpha, c);
      r.binding = static_cast<int>(i);
    } else if (c < r.alpha) {
      r.alpha = c;
      r.binding = static_cast<int>(i);
    }
  }
  return r;
}

}  // namespace

GroundCcdPair::Result GroundCcdNoFactorFault::fast(const Query& q) { return slipped(q, {.no_factor = true}); }
GroundCcdPair::Result GroundCcdZeroVelocityFault::fast(const Query& q) { return slipped(q, {.le = true}); }
GroundCcdPair::Result GroundCcdBindingLastFault::fast(const Query& q) { return slipped(q, {.last = true}); }
GroundCcdPair::Result GroundCcdReversedVelocityFault::fast(const Query& q) {
  return slipped(q, {.reversed = true});
}
GroundCcdPair::Result GroundCcdUncappedFault::fast(const Query& q) { return slipped(q, {.uncapped = true}); }
GroundCcdPair::Result GroundCcdGroundAtOriginFault::fast(const Query& q) {
  return slipped(q, {.origin = true});
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
  cases::validate(q, w);  // bad input only: the fast domain is in_domain()
  return q;
}

nlohmann::json GroundCcdPair::result_to_json(const Result& r) {
  nlohmann::json j = {{"alpha", r.alpha}, {"binding", r.binding}};
  if (!std::isnan(r.margin)) j["margin"] = r.margin;  // reference only
  return j;
}

}  // namespace contactbench::harness
