// The edge_smoothing pair: traits for harness/pair.hpp (Woo edge smoothing; rule and decisions
// in ../shared/sources/README.md "Woo").
#pragma once
#include "cases/edge_smoothing.hpp"
#include "fast/edge_smoothing.hpp"
#include "harness/pair.hpp"
#include "reference/edge_smoothing.hpp"

namespace contactbench::harness {

struct EdgeSmoothingPair {
  using Query = cases::EdgeSmoothingQuery;
  using Result = cases::EdgeSmoothingResult;
  static constexpr std::string_view stem = "edge_smoothing";
  static Result reference(const Query& q) { return reference::edge_smoothing(q); }
  static Result fast(const Query& q) { return fast::edge_smoothing(q); }
  static std::vector<cases::Named<Query>> canonical(const CheckOptions&);
  static Query random(cases::Rng& rng) { return cases::random_edge_smoothing(rng); }
  static Query degenerate(cases::Rng& rng) { return cases::degenerate_edge_smoothing(rng); }
  // Overlap always compared (|overlap - overlap_ref| / L within 64 eps (L/h)). Discrete fields
  // in decision order (region, side, centre_on_facet, zone, adjusted, and for an adjusted
  // vertex cone polar and cone_feature), a mismatch excused only by the exact margin of the
  // value fast claimed (region: reference::closest_feature_distance_to_region; zone:
  // reference::edge_smoothing_zone_distance, +inf for a non-adjacent zone) within
  // fast::edge_smoothing_bound, computed from the query and the reference's exact distance. A
  // discrete mismatch ends the comparison (the other continuous fields then describe different
  // rules). Continuous fields relative to the largest coordinate L: |n' - n'_ref| within
  // 64 eps kappa condition, |point - point_ref| / L within 64 eps (L/h) + that.
  static Comparison compare(const Query& q, const Result& ref, const Result& fast);
  static nlohmann::json query_to_json(const Query& q) { return cases::edge_smoothing_query_to_json(q); }
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w) {
    return cases::edge_smoothing_query_from_json(j, w);
  }
  static nlohmann::json result_to_json(const Result& r) { return cases::edge_smoothing_result_to_json(r); }
};

}  // namespace contactbench::harness
