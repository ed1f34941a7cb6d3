// Exact reference of the closest-feature pair. No CGAL here: the implementation lives in
// reference/src/closest_feature.cpp.
#pragma once
#include "cases/closest_feature.hpp"

#include <cstdint>
#include <optional>

namespace contactbench::reference {

// Exact on the double inputs. Region decided exactly (interval filter, exact integer
// fallback); point and squared distance are the exact rationals rounded to the nearest
// double; margin is sqrt of an exact rational rounded up (MPFR, see reference/src/cgal.hpp).
// Filtered: the region is first decided in plain double with semi-static error bounds
// (else by the interval filter), the constructions evaluated in double-double with one
// static error bound per polynomial (then, where those cannot round, a running bound) and
// kept when each enclosure rounds to one double; otherwise the exact path below answers (the
// squared distance alone when only it cannot be rounded). Bit-identical to it
// (harness/tests/filtered_reference.cpp).
// Throws cases::InputError for an exactly collinear triangle.
cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q);

// The exact path alone (integers and MPFR for every construction): for tests.
cases::ClosestFeatureResult closest_feature_exact(const cases::ClosestFeatureQuery& q);

// How many closest_feature calls on this thread the filtered stage answered, how many it
// answered but for the squared distance (a tie, or p in the plane up to rounding: that one
// output from the exact integers) and how many went on to the exact path, and how many
// filtered-stage calls had an output its static bounds could not round (it then retries
// with running bounds): for tests (a query built to need a path must reach it).
struct ClosestFeatureFilterStats {
  std::uint64_t filtered = 0, exact_squared_distance = 0, exact = 0, static_deferred = 0;
};
ClosestFeatureFilterStats& closest_feature_filter_stats();

// The plain-double stage alone: the region when its bounds decide every sign the region
// needs (never at an exact zero), nullopt when it defers to the interval filter: for tests.
std::optional<cases::Region> closest_feature_plain_region(const cases::ClosestFeatureQuery& q);

// The filtered stage alone (nullopt where it defers to the exact path, for every output or
// for the squared distance alone), with two_prod on
// std::fma (use_fma, honoured when the CPU has FMA) or Dekker's split, the clone
// closest_feature runs on CPUs without FMA: for tests, which would otherwise run one clone.
std::optional<cases::ClosestFeatureResult> closest_feature_filtered_stage(const cases::ClosestFeatureQuery& q,
                                                                          bool use_fma);

// Exact distance from p to the set of points whose region is `region` (its closure),
// divided by the longest edge: how far p must move for that region to become right. This
// is the margin that excuses a fast label `region` different from the exact one.
// sqrt of an exact rational: MPFR evaluation (reference/src/cgal.hpp).
double closest_feature_distance_to_region(const cases::ClosestFeatureQuery& q, cases::Region region);

// CGAL's filtered kernel (Epick) squared_distance(Point_3, Triangle_3): the packaged peer
// for benchmarks. Distance only, no region.
double cgal_epick_squared_distance(const cases::ClosestFeatureQuery& q);

}  // namespace contactbench::reference
