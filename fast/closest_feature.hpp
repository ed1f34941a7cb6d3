// Fast closest feature in double precision (Ericson, Real-Time Collision Detection §5.1.5
// style: Voronoi-region tests on dot products, then one construction).
//
// Deviations from the reference: region decisions are signs of double expressions, so a
// point within rounding of a region boundary (closer than closest_feature_bounds().decision)
// may be labelled with the neighbouring region; such labels are excused as `boundary` by the
// harness exactly when the reference's margin says the point is that close. Point and
// squared distance carry rounding error within the stated bounds. No margin (NaN).
// Precondition: a, b, c not collinear (checked by the loaders, not here).
#pragma once
#include "cases/closest_feature.hpp"

#include <span>

namespace contactbench::fast {

cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q);

// Batched entry point: out[i] = closest_feature(in[i]); sizes must match.
void closest_feature(std::span<const cases::ClosestFeatureQuery> in,
                     std::span<cases::ClosestFeatureResult> out);

// Stated error bounds of this kernel for one query, all relative to the triangle's longest
// edge L (squared distance relative to L^2). With u = 2^-53, R = max |p - v_k|, the
// condition number kappa = L^2 / (2 area) and l the shortest edge:
//   decision = 32 u kappa (1 + R/L)^2 (L / l)
// from forward error analysis of the degree-4 region tests (each product of dot products
// has relative error <= ~8u of |d_i||d_j| <= L^2 R^2, while the exact value is the distance
// to the boundary plane times |n| |edge| = 2 area |edge|), with a factor 4 of slack.
// Differences of inputs round relative to the difference, so translation does not enter;
//   point = decision + 4 u M / L   (M = largest input |coordinate|: the output itself is
//                                   rounded at that magnitude)
//   squared_distance = 2 point (1 + R/L) + 4 u (1 + R/L)^2.
// The stated domain (outside it the harness reports out_of_domain and does not run fast):
// every coordinate |x| <= 2^250 and twice the triangle's area >= 2^-400 (decided exactly).
bool closest_feature_in_domain(const cases::ClosestFeatureQuery& q);

struct ClosestFeatureBounds {
  double decision, point, squared_distance;
};
ClosestFeatureBounds closest_feature_bounds(const cases::ClosestFeatureQuery& q);

}  // namespace contactbench::fast
