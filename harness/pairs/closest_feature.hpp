// Registry traits of the closest-feature pair (see harness/pair.hpp for the contract), and
// the two deliberately faulty variants the tests use to show that the gate bites.
#pragma once
#include "cases/closest_feature.hpp"
#include "fast/closest_feature.hpp"
#include "harness/pair.hpp"
#include "reference/closest_feature.hpp"

namespace contactbench::harness {

struct ClosestFeaturePair {
  using Query = cases::ClosestFeatureQuery;
  using Result = cases::ClosestFeatureResult;
  static constexpr std::string_view stem = "closest_feature";

  static Result reference(const Query& q) { return reference::closest_feature(q); }
  static Result fast(const Query& q) { return fast::closest_feature(q); }
  static std::vector<cases::Named<Query>> canonical(const CheckOptions&);
  static Query random(cases::Rng& rng) { return cases::random_closest_feature(rng); }
  static Query degenerate(cases::Rng& rng) { return cases::degenerate_closest_feature(rng); }
  // Region: discrete, excused within fast::closest_feature_bounds().decision of a boundary.
  // Point (relative to the longest edge) and squared distance (relative to its square)
  // within the stated bounds.
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::closest_feature_bounds(q));
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::ClosestFeatureBounds& bounds);
  static nlohmann::json query_to_json(const Query& q) { return cases::to_json(q); }
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w) {
    return cases::closest_feature_query_from_json(j, w);
  }
  static nlohmann::json result_to_json(const Result& r) { return cases::to_json(r); }
  static std::vector<Peer<Query>> peers() {
    return {{"cgal_epick", &reference::cgal_epick_squared_distance}};
  }
};

// Planted fault 1: the classic "snap to the vertex within epsilon" bug — closest points
// within 1e-2 of the longest edge from vertex a are labelled vertex0.
struct ClosestFeatureVertexSnapFault : ClosestFeaturePair {
  static Result fast(const Query& q);
};

// Planted fault 2: the honest double kernel, but claiming exact decisions (bound 0), as a
// fast variant that forgot its own rounding would.
struct ClosestFeatureTightBoundFault : ClosestFeaturePair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    auto b = fast::closest_feature_bounds(q);
    b.decision = 0;
    return compare_with(q, ref, fast, b);
  }
};

}  // namespace contactbench::harness
