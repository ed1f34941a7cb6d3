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
// The same for a query already known to miss (skips the exact decision).
double ccd_separation_of_miss(const cases::CcdQuery& q);

// Distance between the primitives at time t divided by nothing (absolute; long double, not
// exact, an upper estimate in the sense above): the independent check the tests use on the
// exact answers, the basis of ccd_separation, and the gate's test of an early fast toi.
double ccd_distance_at(const cases::CcdQuery& q, double t);

}  // namespace contactbench::reference
