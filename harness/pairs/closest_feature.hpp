// Registry traits of the closest-feature pair (see harness/pair.hpp for the contract), and
// the two deliberately faulty variants the tests use to show that the gate bites.
#pragma once
#include "cases/closest_feature.hpp"
#include "fast/closest_feature.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/closest_feature.h"
#include "reference/closest_feature.hpp"

namespace contactbench::harness {

struct ClosestFeaturePair : Pair<cases::ClosestFeature> {
  static constexpr std::string_view stem = "closest_feature";
  static constexpr Agreement agreement = Agreement::approximate;
  static constexpr std::string_view rule =
      "fast's region excused only when p's exact distance to that region is within "
      "32u·kappa·(1+R/L)^2·(L/l) (forward error of the degree-4 side tests); point within "
      "32u(1+kappa)(1+R/L)+4u·M/L when the regions agree (plus the region bound for an "
      "excused neighbour), squared distance within 2·point·(1+R/L)+4u(1+R/L)^2";
  static Result reference(const Query& q) { return reference::closest_feature(q); }
  static Result fast(const Query& q) { return fast::closest_feature(q); }
  static bool in_domain(const Query& q) { return fast::closest_feature_in_domain(q); }
  static std::vector<DecisionSpace> decision_space() {
    return {{"region", {cases::region_names.begin(), cases::region_names.end()}}};
  }
  // Region: discrete, excused within fast::closest_feature_bounds().decision of a boundary;
  // reported as reached with the reference's margin. Point (relative to the longest edge)
  // and squared distance (relative to its square) within the stated bounds.
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::closest_feature_bounds(q));
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::ClosestFeatureBounds& bounds);
  static std::vector<Peer<Query>> peers() {
    return {{"cgal_epick", &reference::cgal_epick_squared_distance}};
  }
  // C ABI (include/contactbench/closest_feature.h): region numbered as cases::Region.
  using CQuery = contactbench_closest_feature_query;
  using CResult = contactbench_closest_feature_result;
  static CQuery to_c(const Query& q) {
    CQuery c;
    for (int k = 0; k < 3; ++k) c.p[k] = q.p[k], c.a[k] = q.a[k], c.b[k] = q.b[k], c.c[k] = q.c[k];
    return c;
  }
  static Result from_c(const CResult& c, const Query&) {
    if (c.region < 0 || c.region >= static_cast<int>(cases::region_names.size()))
      throw PluginError(fmt::format("field region: {} is not a region (0 face .. 6 vertex2)", c.region));
    Result r;
    r.point = {c.point[0], c.point[1], c.point[2]};
    r.squared_distance = c.squared_distance;
    r.region = static_cast<cases::Region>(c.region);
    return r;
  }
};

// Planted faults (registered with make_planted in harness/registry.cpp; the tests require the
// CI-size check to find each `wrong`). Kinds real kernels have:
//   vertex_snap   closest points within 1e-2 of the longest edge from vertex a labelled
//                 vertex0 (a "snap to vertex within epsilon");
//   tight_bound   the honest kernel claiming exact decisions (bound 0), as a fast variant
//                 that forgot its own rounding would;
//   strict_ties   vertex0 and edge0 tests both strict (d1 < 0, d1 > 0): a point exactly on
//                 vertex0's boundary plane across ab falls through to the face;
//   edge_as_face  edge0's side test with an "inside" tolerance (vc <= -1e-3·|ab|^2·|n|):
//                 points just beyond edge ab are labelled face and projected off the triangle;
//   in_plane_shortcut  the degenerate branch "p in the triangle's plane: p is its own
//                 closest point" without the inside test;
//   projection_sign    a sign error in the face projection, p + (h / |n|^2) n;
//   edge1_weights the barycentric weights of edge bc swapped (c + t (b - c)).
enum class ClosestFeatureFault { strict_ties, edge_as_face, in_plane_shortcut, projection_sign,
                                 edge1_weights };
// The fast kernel with one planted fault (a copy of fast::closest_feature's logic).
cases::ClosestFeatureResult closest_feature_with_fault(const cases::ClosestFeatureQuery& q,
                                                       ClosestFeatureFault fault);

struct ClosestFeatureVertexSnapFault : ClosestFeaturePair {
  static Result fast(const Query& q);
};

struct ClosestFeatureTightBoundFault : ClosestFeaturePair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    auto b = fast::closest_feature_bounds(q);
    b.decision = 0;
    return compare_with(q, ref, fast, b);
  }
};

template <ClosestFeatureFault F>
struct ClosestFeatureKernelFault : ClosestFeaturePair {
  static Result fast(const Query& q) { return closest_feature_with_fault(q, F); }
};

}  // namespace contactbench::harness
