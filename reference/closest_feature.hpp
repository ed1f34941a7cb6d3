// Exact reference of the closest-feature pair. No CGAL here: the implementation lives in
// reference/src/closest_feature.cpp.
#pragma once
#include "cases/closest_feature.hpp"

namespace contactbench::reference {

// Exact on the double inputs. Region decided exactly (interval filter, exact integer
// fallback); point and squared distance are the exact rationals rounded to the nearest
// double; margin is sqrt of an exact rational (MPFR, see reference/src/cgal.hpp).
// Throws cases::InputError for an exactly collinear triangle.
cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q);

// CGAL's filtered kernel (Epick) squared_distance(Point_3, Triangle_3): the packaged peer
// for benchmarks. Distance only, no region.
double cgal_epick_squared_distance(const cases::ClosestFeatureQuery& q);

}  // namespace contactbench::reference
