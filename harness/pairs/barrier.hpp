// Registry traits of the `barrier` pair (see harness/pair.hpp for the contract).
#pragma once
#include "cases/barrier.hpp"
#include "fast/barrier.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/barrier.h"
#include "reference/barrier.hpp"

namespace contactbench::harness {

struct BarrierPair : Pair<cases::Barrier> {
  static constexpr std::string_view stem = "barrier";
  static constexpr Agreement agreement = Agreement::approximate;
  static constexpr std::string_view rule =
      "value, gradient, Hessian within 10 ULP of the correctly rounded value (<= 8.9u forward "
      "error of the cancellation-free double formula, + 0.5 ULP); `active` exact (d < dhat), "
      "never excused";
  static Result reference(const Query& q) { return reference::barrier(q); }
  static Result fast(const Query& q) { return fast::barrier(q); }
  static bool in_domain(const Query& q) { return fast::barrier_in_domain(q); }
  static std::vector<DecisionSpace> decision_space() { return {{"active", {"active", "inactive"}}}; }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::barrier_bounds(q));
  }
  // The rule with the given bounds (a planted fault states tighter ones).
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::BarrierBounds& bounds);
  // C ABI (include/contactbench/barrier.h).
  using CQuery = contactbench_barrier_query;
  using CResult = contactbench_barrier_result;
  static CQuery to_c(const Query& q) { return {q.d, q.dhat, q.kappa, q.area}; }
  static Result from_c(const CResult& c, const Query&) {
    if (c.active != 0 && c.active != 1)
      throw PluginError(fmt::format("field active: {} is neither 0 nor 1", c.active));
    return {c.active == 1, c.value, c.gradient, c.hessian};
  }
};

// Published method (registry: barrier_published_book): the book's own formula, measured
// under the same rule, not gated.
struct BarrierBookFormula : BarrierPair {
  static Result fast(const Query& q) { return fast::barrier_book_formula(q); }
};

// Planted faults (registry: barrier_planted_<name>): the honest pair with one slip of the
// kind real barrier kernels have. The mutation test requires each to be found `wrong`.

// `d <= d̂` for `d < d̂`: the active boundary flipped; at d = d̂ the Hessian A·κ/d̂ leaks in.
struct BarrierActiveLeFault : BarrierPair {
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
    return compare_with(q, ref, fast, {1, 1, 1});
  }
};

}  // namespace contactbench::harness
