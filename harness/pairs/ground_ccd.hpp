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
  static Query random(cases::Rng& rng) { return cases::random_ground_ccd(rng); }
  static Query degenerate(cases::Rng& rng) { return cases::degenerate_ground_ccd(rng); }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast);
  static nlohmann::json query_to_json(const Query& q);
  // JSON Lines record {"y_ground": -1, "y": [...], "py": [...]}; y_ground defaults to -1.
  // Numbers as JSON numbers or strings strtod reads ("0x1.8p-3"); any other key is
  // rejected. Nodes on or below the ground, and queries outside the domain
  // (cases/ground_ccd.hpp), are rejected with one InputError naming the field (y[i], py[i]).
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w);
  static nlohmann::json result_to_json(const Result& r);
};

}  // namespace contactbench::harness
