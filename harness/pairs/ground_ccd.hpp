// Registry traits of the `ground_ccd` pair (see harness/pair.hpp for the contract).
#pragma once
#include "cases/ground_ccd.hpp"
#include "fast/ground_ccd.hpp"
#include "harness/pair.hpp"
#include "reference/ground_ccd.hpp"

namespace contactbench::harness {

struct GroundCcdPair {
  using Query = cases::GroundCcdQuery;
  using Result = cases::GroundCcdResult;
  static constexpr std::string_view stem = "ground_ccd";
  // alpha within 4 ULP of the reference; `binding` excused when the exact relative gap
  // between the reference's binding candidate and the candidate of the node fast picked
  // is within 8u = 8·2^-53 (derivation in ground_ccd.cpp).
  static constexpr double alpha_ulp_bound = 4;
  static constexpr double binding_margin_bound = 8 * 0x1p-53;

  static Result reference(const Query& q) { return reference::ground_ccd(q); }
  static Result fast(const Query& q) { return fast::ground_ccd(q); }
  static std::vector<cases::Named<Query>> canonical(const CheckOptions&);
  static cases::Generated<Query> random(cases::Rng& rng) { return cases::random_ground_ccd(rng); }
  static cases::Generated<Query> degenerate(cases::Rng& rng) {
    return cases::degenerate_ground_ccd(rng);
  }
  // The fast variant's stated domain (cases/ground_ccd.hpp); outside it: out_of_domain.
  static bool in_domain(const Query& q) { return fast::ground_ccd_in_domain(q); }
  static std::vector<DecisionSpace> decision_space();
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, alpha_ulp_bound);
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 double alpha_bound);
  static nlohmann::json query_to_json(const Query& q);
  // JSON Lines record {"y_ground": -1, "y": [...], "py": [...]}; y_ground defaults to -1.
  // Numbers as JSON numbers or strings strtod reads ("0x1.8p-3"); any other key is
  // rejected. Bad input (sizes, NaN/Inf, nodes on or below the ground) is one InputError
  // naming the field (y[i], py[i]); any finite magnitude is otherwise accepted (outside the
  // fast domain the verdict is out_of_domain, the reference answers).
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w);
  static nlohmann::json result_to_json(const Result& r);
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
    return compare_with(q, ref, fast, 0.0);
  }
};

}  // namespace contactbench::harness
