// Fast closest feature in double precision (Ericson, Real-Time Collision Detection §5.1.5
// style: Voronoi-region tests on dot products, then one construction). The face point is
// not Ericson's barycentric a + v·ab + w·ac but a projection (see "Face point" below).
//
// Deviations from the reference: region decisions are signs of double expressions, so a
// point within rounding of a region boundary (closer than closest_feature_bounds().decision)
// may be labelled with the neighbouring region; such labels are excused as `boundary` by the
// harness exactly when the reference's margin says the point is that close. Point and
// squared distance carry rounding error within the stated bounds. No margin (NaN).
// Precondition: a, b, c not collinear (checked by the loaders, not here).
//
// Domain (closest_feature_in_domain; outside it the harness says out_of_domain): every
// coordinate |x| <= 2^250 and twice the area |(b-a) × (c-a)| >= 2^-400, decided exactly.
// Why: the region tests are degree-4 polynomials of coordinate differences (|diff| <= 2^251,
// so every value stays below 288·2^1000 < DBL_MAX); and the analysis below assumes relative
// rounding, which underflow breaks: with 2·area >= 2^-400 the longest edge L >= 2^-200 and
// R >= L/2, so the scale L^2 R^2 of the region tests is >= 2^-802 and an underflowed
// product's absolute error (<= 2^-1075) is below 2^-200 of the stated 8u·L^2 R^2; n·n >=
// 2^-800 is normal. Subnormal coordinates inside this domain (a unit triangle, p.x = 2^-1074)
// are fine. Outside (e.g. whole queries at 1e-300 or 1e300) only the reference answers.
//
// Face point. Ericson's a + v·ab + w·ac takes v, w as quotients of degree-4 differences whose
// absolute error ~u·L^2·R^2 is divided by (2·area)^2: an error ~u·kappa^2·(R/L)^2 in L,
// beyond the stated bound on needles and caps (smallest angle 1e-4..6 degrees: error/bound up
// to ~1.7e3 in the thin-triangle sweep, i.e. the 5.5e-9 vs 3.5e-9). Better
// conditioning instead of a looser bound: point = p - ((p - o)·n / n·n) n with o the vertex
// opposite the longest edge and n = (x - o) × (y - o) from the two edges at o. |n| = 2·area
// for every choice of o, and this choice minimises |x - o|·|y - o|, so n's direction error is
// smallest: each component errs by <= 4u·|x-o||y-o| (differences and products), so the
// angle error is <= 7u·|x-o||y-o|/(2·area) <= 7u·kappa. The projection moves that to at most
// 2·|p - o|·7u·kappa <= 14u·kappa·R, plus ~6u·R for the dot product, the quotient and the
// scaling, and u·M for the final subtraction (the output is rounded at magnitude M): in units
// of L, <= 14u·kappa·R/L + 6u·R/L + u·M/L, inside the stated point bound below (the
// sweep's worst error/bound is now 4e-4). Translation enters only through M (p - o is a
// difference). If n·n rounds below DBL_MIN (kappa beyond ~2^50 — the bounds then exceed the
// triangle's size) the nearest of the three edge points is returned instead: finite, within
// R of p.
#pragma once
#include "cases/closest_feature.hpp"

#include <span>
#include <vector>

namespace contactbench::fast {

cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q);

// Batched entry points (fast/closest_feature_batch.cpp), bit-identical to the scalar kernel
// per query. Queries as structure of arrays (coordinate k of every p in p[k], ...):
struct ClosestFeatureSoA {
  std::vector<double> p[3], a[3], b[3], c[3];
  ClosestFeatureSoA() = default;
  explicit ClosestFeatureSoA(std::span<const cases::ClosestFeatureQuery> qs);
  std::size_t size() const { return p[0].size(); }
};
struct ClosestFeatureSoAResult {
  std::vector<double> point[3], squared_distance;
  std::vector<cases::Region> region;
  void resize(std::size_t n);
};
// min(max_width, closest_feature_batch_width()) queries per instruction: 8 (AVX-512), 4
// (AVX2) or 1 (the scalar kernel per query), the instruction set chosen at run time. out is
// resized to in.size().
void closest_feature(const ClosestFeatureSoA& in, ClosestFeatureSoAResult& out,
                     int max_width = 8);
int closest_feature_batch_width();  // 8, 4 or 1: what this CPU supports
// The same on arrays of structures (the scalar kernel per query); sizes must match.
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
// The constructions, when fast's region is the reference's (u = 2^-53; "Face point" above;
// an edge point x + t·e has t from two dot products whose errors ~3u|e|R move it by <= 24u·R;
// a vertex is copied exactly):
//   point = 32 u (1 + kappa)(1 + R/L) + 4 u M / L   (M = largest input |coordinate|: the
//                                                    output is rounded at that magnitude)
// and, when fast's region is a neighbour excused as `boundary`, the two closest points are
// within the decision bound of each other besides:
//   point_across = decision + point
// squared distance (relative to L^2), with P the point bound that applies:
//   squared_distance = 2 P (1 + R/L) + 4 u (1 + R/L)^2.
// The stated domain (outside it the harness reports out_of_domain and does not run fast):
// every coordinate |x| <= 2^250 and twice the triangle's area >= 2^-400 (decided exactly).
bool closest_feature_in_domain(const cases::ClosestFeatureQuery& q);

struct ClosestFeatureBounds {
  double decision, point, squared_distance;  // point, squared distance: same region
  double point_across, squared_distance_across;  // fast's region a neighbour (boundary)
};
ClosestFeatureBounds closest_feature_bounds(const cases::ClosestFeatureQuery& q);

}  // namespace contactbench::fast
