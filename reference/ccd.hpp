// Exact continuous collision detection (vertex-face, edge-edge) over t in [0, 1].
// Source: Wang et al., ACM TOG 40(5) 188, 2021 (problem statement and public query set);
// the algorithm is ours (see reference/src/ccd.cpp): exact rational polynomials in t,
// Sturm-sequence root isolation and exact sign decisions at the algebraic roots.
#pragma once
#include "cases/ccd.hpp"

#include <optional>

namespace contactbench::reference {

// Exact for every finite double input: hit is decided exactly (closed sets, contact at
// t = 0 and t = 1 included) and toi is the exact earliest contact time t* rounded down to a
// double (toi_up: rounded up). No tolerance anywhere. Throws cases::InputError on NaN/Inf.
// Filtered: certified misses (the coplanarity cubic or a necessary inside-condition has a
// proven strict sign on each piece of [0, 1]: Bernstein coefficients in intervals, then in
// double-double), certified first crossings in the open face / at interior points (a proven
// simple root, rounded to doubles by certified signs of f at doubles, exact where f is 0
// there) and contacts at t = 0 and t = 1 (exact signs of the static positions) are answered
// without the exact path; every other query runs ccd_exact. Bit-identical to it
// (harness/tests/ccd_filtered_reference.cpp).
// Queries whose scale (cases::ccd_scale) lies outside [2^-200, 2^200] are filtered as the
// query times the power of two that brings the scale to [1, 2), when that is exact for every
// coordinate (the answer does not change under it); otherwise they run ccd_exact.
cases::CcdResult ccd(const cases::CcdQuery& q);
// The exact path alone (GMP rationals, Sturm sequences): for tests.
cases::CcdResult ccd_exact(const cases::CcdQuery& q);
// The filtered stage alone (finite inputs): its answer, or nothing where ccd runs the exact
// path. For tests.
std::optional<cases::CcdResult> ccd_filtered(const cases::CcdQuery& q);

// How far a non-colliding query is from touching: the minimum over t in [0, 1] of the
// distance between the primitives, divided by the query's scale (cases::ccd_scale). Not
// exact: sampled on 1025 times, then refined by golden-section search in long double around
// the best samples. It is an UPPER estimate: every value it takes the minimum of is the
// distance between two actual points of the primitives at some time, so sampling and search
// can only over-estimate; the only error below the true value is long-double rounding of
// positions and norms (about 2^-60 of the scale). 0 for a hit.
double ccd_separation(const cases::CcdQuery& q);
// The same for a query already known to miss (skips the exact decision). It evaluates only
// the samples that can matter (the grid best first, as ccd_separation_of_miss_at_most); the
// estimate on every grid sample, for tests: ccd_separation_of_miss_full_grid (the same double).
// Both throw cases::InputError on NaN/Inf (as ccd does).
double ccd_separation_of_miss(const cases::CcdQuery& q);
double ccd_separation_of_miss_full_grid(const cases::CcdQuery& q);

// A proven lower bound L of the separation (same units as ccd_separation): L <= the exact
// minimum distance over t in [0, 1] / ccd_scale, and L <= the estimate
// ccd_separation_of_miss(q) (its rounding error is part of the margin). Cheap: the swept
// boxes and a gap along the closest-point direction on sub-intervals of [0, 1] (double, with
// a derived error margin of 2^-43 of the scale), bisected until L > target (or at most 128
// sub-intervals, 24 levels); returns as soon as L > target is proven or cannot be (then L <=
// target, possibly 0). For callers that only need to know that the separation exceeds a
// threshold. Throws cases::InputError on NaN/Inf.
double ccd_separation_lower_bound(const cases::CcdQuery& q, double target);

// Exactly ccd_separation_of_miss(q) <= x (the same samples, the same rounding), but only the
// samples that can decide it are evaluated: the grid best first (cells the lower bound puts
// above the three smallest are skipped), the searches only in windows the bound does not put
// above x, stopping at the first sample <= x. For the count of misses within a threshold
// (call ccd_separation_lower_bound first for far misses: it is cheaper there).
bool ccd_separation_of_miss_at_most(const cases::CcdQuery& q, double x);

// Distance between the primitives at time t divided by nothing (absolute; long double, not
// exact, an upper estimate in the sense above): the independent check the tests use on the
// exact answers, the basis of ccd_separation, and the gate's test of an early fast toi.
double ccd_distance_at(const cases::CcdQuery& q, double t);

}  // namespace contactbench::reference
