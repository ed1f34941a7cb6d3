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
  static Query random(cases::Rng& rng) { return cases::random_barrier(rng); }
  static Query degenerate(cases::Rng& rng) { return cases::degenerate_barrier(rng); }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast);
  static nlohmann::json query_to_json(const Query& q);
  // JSON Lines record {"d": 0.005, "dhat": 0.01, "kappa": 1e5, "area": 0.25}; dhat, kappa
  // and area default to the book's values; any other key is rejected (a misspelling must
  // not run with a default). d <= 0 and queries outside the domain of the stated bound
  // (cases/barrier.hpp) are rejected with one InputError naming the field.
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w);
  static nlohmann::json result_to_json(const Result& r);
};

}  // namespace contactbench::harness
