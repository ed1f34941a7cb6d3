#pragma once
#include "harness/scenario.hpp"

namespace contactbench::harness {
// Writes <out_dir>/closest_feature_regions.json: one triangle in the plane z = 0, a grid of
// points labelled with the exact region, and boundary-heavy queries (points within rounding
// of a region boundary) with reference and fast labels. Parameter: per_boundary (400).
int run_closest_feature_regions(const ScenarioOptions& o);
}  // namespace contactbench::harness
