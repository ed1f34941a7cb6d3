// Registry traits of the `barrier` pair (see harness/pair.hpp for the contract).
#pragma once
#include "cases/barrier.hpp"
#include "fast/barrier.hpp"
#include "harness/pair.hpp"
#include "reference/barrier.hpp"

namespace contactbench::harness {

struct BarrierPair {
  using Query = cases::BarrierQuery;
  using Result = cases::BarrierResult;
  static constexpr std::string_view stem = "barrier";
  // Every field of the fast kernel within this many ULP of the correctly rounded value
  // (derivation in barrier.cpp).
  static constexpr double ulp_bound = 10;

  static Result reference(const Query& q) { return reference::barrier(q); }
  static Result fast(const Query& q) { return fast::barrier(q); }
  static std::vector<cases::Named<Query>> canonical(const CheckOptions&);
  static cases::Generated<Query> random(cases::Rng& rng) { return cases::random_barrier(rng); }
  static cases::Generated<Query> degenerate(cases::Rng& rng) { return cases::degenerate_barrier(rng); }
  // The fast kernel's stated domain (cases/barrier.hpp); outside it: out_of_domain.
  static bool in_domain(const Query& q) { return fast::barrier_in_domain(q); }
  static std::vector<DecisionSpace> decision_space();
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, ulp_bound);
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 double ulp_bound);
  static nlohmann::json query_to_json(const Query& q);
  // JSON Lines record {"d": 0.005, "dhat": 0.01, "kappa": 1e5, "area": 0.25}; dhat, kappa
  // and area default to the book's values; any other key is rejected (a misspelling must
  // not run with a default). Bad input (d <= 0, d̂, κ or A not finite and > 0, NaN/Inf,
  // not a number) is one InputError naming the field; any other magnitude is accepted (the
  // reference answers it; outside the fast domain the verdict is out_of_domain).
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w);
  static nlohmann::json result_to_json(const Result& r);
};

// Planted faults (registry: barrier_planted_<name>): the honest pair with one slip of the
// kind real barrier kernels have. The mutation test requires each to be found `wrong`.

// `d <= d̂` for `d < d̂`: the active boundary flipped; at d = d̂ the Hessian A·κ/d̂ leaks in.
struct BarrierActiveLeFault : BarrierPair {
  static Result fast(const Query& q);
};
// The book's literal s - 1 and log(s) from the rounded s = d/d̂ (no log1p, no exact d - d̂):
// loses up to log2(1/(1 - s)) bits as s -> 1.
struct BarrierNoLog1pFault : BarrierPair {
  static Result fast(const Query& q);
};
// Sign slip in the product rule of the gradient: ln s/d̂ - (s - 1)/d.
struct BarrierGradientSignFault : BarrierPair {
  static Result fast(const Query& q);
};
// Hessian missing the d̂/d² term of A κ (1/d + d̂/d²)/2.
struct BarrierHessianTermFault : BarrierPair {
  static Result fast(const Query& q);
};
// Distance clamped at 1e-9 d̂ "to avoid huge values": wrong below it.
struct BarrierClampFault : BarrierPair {
  static Result fast(const Query& q);
};
// The honest kernel claiming to be correctly rounded to within 1 ULP.
struct BarrierTightBoundFault : BarrierPair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, 1.0);
  }
};

}  // namespace contactbench::harness
