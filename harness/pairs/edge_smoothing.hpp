// The edge_smoothing pair: traits for harness/pair.hpp (Woo edge smoothing; rule and decisions
// in ../shared/sources/README.md "Woo").
#pragma once
#include "cases/edge_smoothing.hpp"
#include "fast/edge_smoothing.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/edge_smoothing.h"
#include "reference/edge_smoothing.hpp"

#include <limits>

namespace contactbench::harness {

struct EdgeSmoothingPair : Pair<cases::EdgeSmoothing> {
  static constexpr std::string_view stem = "edge_smoothing";
  static constexpr Agreement agreement = Agreement::approximate;
  static constexpr std::string_view rule =
      "a decision excused only when the exact distance to the value fast claimed (region, "
      "zone, cone piece; non-adjacent zone: wrong) is within 64eps·kappa (zone), "
      "64eps·(kappa + 1/sin_min) (cone), 64eps·M (side, on-facet) or the closest-feature "
      "bound, eps = 2^-52, kappa = 1 + M/d + 2eps·R from the query (M: centre-corner "
      "distance, d: exact distance, R: 1/sin of the facets' angles, sin_min: thinnest fan "
      "wedge); face n' within 16eps + 64eps^2 R; other n' within the decision's bound times "
      "the piece's condition; overlap within 64eps·M + eps(r + d)";
  static Result reference(const Query& q) { return reference::edge_smoothing(q); }
  static Result fast(const Query& q) { return fast::edge_smoothing(q); }
  // The fast kernel's stated domain: coordinates 0 or of magnitude in [2^-120, 2^120].
  static bool in_domain(const Query& q) { return fast::edge_smoothing_in_domain(q); }
  static std::vector<DecisionSpace> decision_space();
  // Overlap always compared (within fast::edge_smoothing_bounds's overlap) and n' always a unit
  // vector. Discrete fields in decision order (region, side, centre_on_facet, zone, adjusted,
  // and for an adjusted vertex cone polar and cone_feature), a mismatch excused only by the
  // exact margin of the value fast claimed (region: reference::closest_feature_distance_to_region;
  // zone: reference::edge_smoothing_zone_distance, +inf for a non-adjacent zone) within
  // fast::edge_smoothing_bounds, computed from the query and the reference's exact distance. A
  // discrete mismatch ends the comparison (the other continuous fields then describe different
  // rules). n' within the face bound (face contacts), the cone bound times the piece's
  // condition (vertex cones) or the angle bound; the point relative to L. Every decision the
  // reference took is reported with reached() (coverage).
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::edge_smoothing_bounds(q, exact_distance(ref)));
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::EdgeSmoothingBounds& b);
  // The reference's exact |centre - closest point| (0 on the facet), for the stated bound.
  static double exact_distance(const Result& ref) {
    return ref.centre_on_facet ? 0.0 : ref.on_facet_margin;
  }
  // C ABI (include/contactbench/edge_smoothing.h). The mesh is passed as pointers into the
  // query's own arrays (the query outlives the call).
  using CQuery = contactbench_edge_smoothing_query;
  using CResult = contactbench_edge_smoothing_result;
  static CQuery to_c(const Query& q) {
    static_assert(sizeof(cases::Vec3) == 3 * sizeof(double) && sizeof(std::array<int, 3>) == 3 * sizeof(int));
    const auto& m = *q.mesh;
    return {{q.centre[0], q.centre[1], q.centre[2]}, q.radius,
            m.vertices().empty() ? nullptr : m.vertices().front().data(), static_cast<int>(m.vertices().size()),
            m.facets().empty() ? nullptr : m.facets().front().data(), m.facet_count(), q.facet};
  }
  static Result from_c(const CResult& c, const Query& q);
};

// Planted faults (harness/pairs/edge_smoothing.cpp; registry: edge_smoothing_planted_*). Each
// is the honest kernel with one bug of a kind real kernels have.
// Zone mislabelled near the blue/red boundary: blue claimed for n.n1 >= n_lim - 1e-2.
struct EdgeSmoothingBlueSlackFault : EdgeSmoothingPair {
  static Result fast(const Query& q);
};
// Comparison flipped: the polar case keeps the generator with the SMALLEST d.g.
struct EdgeSmoothingPolarFlipFault : EdgeSmoothingPair {
  static Result fast(const Query& q);
};
// Sign error in n': the neighbour's normal is used as stored, never flipped to agree with n1.
struct EdgeSmoothingNeighbourSignFault : EdgeSmoothingPair {
  static Result fast(const Query& q);
};
// Degenerate branch dropped: no centre_on_facet state; n = D / |D| even when D = 0.
struct EdgeSmoothingOnFacetDroppedFault : EdgeSmoothingPair {
  static Result fast(const Query& q);
};
// Raw facet normal in the red zone: n' = n1 instead of n2.
struct EdgeSmoothingRedRawNormalFault : EdgeSmoothingPair {
  static Result fast(const Query& q);
};
// Bound stated too tight: the honest kernel claiming 4 eps for every angle, whatever the
// conditioning.
struct EdgeSmoothingTightBoundFault : EdgeSmoothingPair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    auto b = fast::edge_smoothing_bounds(q, exact_distance(ref));
    b.angle = b.face = b.cone = 4 * std::numeric_limits<double>::epsilon();
    return compare_with(q, ref, fast, b);
  }
};
// Zone mislabelled near the red/green boundary: green claimed for n.n1 < -o_lim + 1e-2.
struct EdgeSmoothingGreenSlackFault : EdgeSmoothingPair {
  static Result fast(const Query& q);
};

}  // namespace contactbench::harness
