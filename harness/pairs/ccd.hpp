// Registry traits of the ccd pair (vertex-face and edge-edge continuous collision detection;
// see harness/pair.hpp for the contract). Agreement class: conservative.
#pragma once
#include "cases/ccd.hpp"
#include "fast/ccd.hpp"
#include "harness/pair.hpp"
#include "reference/ccd.hpp"

namespace contactbench::harness {

struct CcdPair {
  using Query = cases::CcdQuery;
  using Result = cases::CcdResult;
  static constexpr std::string_view stem = "ccd";

  static Result reference(const Query& q) { return reference::ccd(q); }
  static Result fast(const Query& q) { return fast::ccd(q); }
  // The hand-made cases (source "canonical", ground truth = the hand-derived hit flag) and
  // the 7,279 public queries of <shared>/data/ccd-queries (source "<scene>/<kind>").
  static std::vector<cases::Named<Query>> canonical(const CheckOptions& o);
  static Query random(cases::Rng& rng) { return cases::random_ccd(rng); }
  static Query degenerate(cases::Rng& rng) { return cases::degenerate_ccd(rng); }
  // The rule (conservative class; bounds stated and derived in fast/ccd.hpp):
  //  - reference hit != ground truth (data sets and canonical cases): wrong (field
  //    "reference_vs_ground_truth"; the oracle itself is off);
  //  - fast misses a contact: wrong (field "hit", infinite margin);
  //  - fast reports a contact that is not there: a counted false positive only when the
  //    fast result is flagged cut_short (node budget / input range: no distance claim) or
  //    the reference's separation is <= fast::ccd_separation_bound_at(q, fast toi) / 2
  //    (the separation is a long-double upper estimate, accurate to ~2^-60 of the scale;
  //    half the bound keeps that error far on the safe side); otherwise wrong (field
  //    "hit", margin = separation);
  //  - both hit and fast toi > exact toi (reference toi is t* rounded down, so this is
  //    exactly fast toi > t*): wrong (field "toi_lower_bound");
  //  - both hit: "toi_gap" = reference toi - fast toi, bound fast::ccd_toi_gap_bound (one
  //    leaf); a larger gap is allowed only at a near contact: continuous
  //    "toi_early_distance" = distance between the primitives at the fast toi / scale, bound
  //    ccd_separation_bound_at / 2 (unless cut_short: then a counted false positive).
  static Comparison compare(const Query& q, const Result& ref, const Result& fast);
  static nlohmann::json query_to_json(const Query& q) { return cases::to_json(q); }
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w) {
    return cases::ccd_query_from_json(j, w);
  }
  static nlohmann::json result_to_json(const Result& r) { return cases::to_json(r); }
};

// The public set as Named queries (source "<scene>/<kind>"); shared_dir empty means
// default_shared_dir(). Throws InputError when the folder or a file is missing or bad.
std::vector<cases::Named<cases::CcdQuery>> ccd_public_queries(const std::string& shared_dir);

}  // namespace contactbench::harness
