// Registry traits of the `ground_ccd` pair (see harness/pair.hpp for the contract).
#pragma once
#include "cases/ground_ccd.hpp"
#include "fast/ground_ccd.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/ground_ccd.h"
#include "reference/ground_ccd.hpp"

namespace contactbench::harness {

struct GroundCcdPair : Pair<cases::GroundCcd> {
  static constexpr std::string_view stem = "ground_ccd";
  static constexpr Agreement agreement = Agreement::approximate;
  static constexpr std::string_view rule =
      "alpha within 4 ULP of the exact rational rounded once (3 roundings + the double 0.9); "
      "binding excused only when the exact relative gap between the reference's binding "
      "candidate and the node fast picked is within 8u";
  static Result reference(const Query& q) { return reference::ground_ccd(q); }
  static Result fast(const Query& q) { return fast::ground_ccd(q); }
  static bool in_domain(const Query& q) { return fast::ground_ccd_in_domain(q); }
  static std::vector<DecisionSpace> decision_space() {
    return {{"binding", {"cap", "unique", "tie"}},
            {"direction", {"approaching", "resting", "receding"}}};
  }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::ground_ccd_bounds(q));
  }
  // The rule with the given bounds (a planted fault states tighter ones).
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::GroundCcdBounds& bounds);
  // C ABI (include/contactbench/ground_ccd.h); the query's arrays point into q.
  using CQuery = contactbench_ground_ccd_query;
  using CResult = contactbench_ground_ccd_result;
  static CQuery to_c(const Query& q) { return {q.y_ground, q.y.size(), q.y.data(), q.py.data()}; }
  static Result from_c(const CResult& c, const Query& q) {
    if (c.binding < -1 || c.binding >= static_cast<long long>(q.y.size()))
      throw PluginError(fmt::format("field binding: {} is not -1 or a node index 0..{}", c.binding, q.y.size() - 1));
    Result r;
    r.alpha = c.alpha;
    r.binding = c.binding;
    return r;
  }
};

// Planted faults (registry: ground_ccd_planted_<name>): the honest pair with one slip of the
// kind real CCD step bounds have. The mutation test requires each to be found `wrong`.

// The 0.9 safety factor dropped: the step lands exactly on the ground (late by 10%).
struct GroundCcdNoFactorFault : GroundCcdPair {
  static Result fast(const Query& q);
};
// `p <= 0` for `p < 0`: a resting node (p = +0) divides by zero, alpha = -inf.
struct GroundCcdZeroVelocityFault : GroundCcdPair {
  static Result fast(const Query& q);
};
// The binding index assigned for every approaching node, outside the min test: the last
// approaching node is reported, alpha itself right.
struct GroundCcdBindingLastFault : GroundCcdPair {
  static Result fast(const Query& q);
};
// Velocity sign convention flipped: p taken as the downward speed, so receding nodes bind.
struct GroundCcdReversedVelocityFault : GroundCcdPair {
  static Result fast(const Query& q);
};
// alpha not capped at 1 (the minimum starts at +inf): a slow approach allows a step > 1.
struct GroundCcdUncappedFault : GroundCcdPair {
  static Result fast(const Query& q);
};
// The ground offset forgotten: heights measured from y = 0 instead of y_ground.
struct GroundCcdGroundAtOriginFault : GroundCcdPair {
  static Result fast(const Query& q);
};
// The honest kernel claiming alpha correctly rounded (0 ULP from the reference), as if its
// three roundings and the double 0.9 were one.
struct GroundCcdTightBoundFault : GroundCcdPair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    auto bounds = fast::ground_ccd_bounds(q);
    bounds.alpha_ulp = 0;
    return compare_with(q, ref, fast, bounds);
  }
};

}  // namespace contactbench::harness
