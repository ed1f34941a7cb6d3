#pragma once
#include "harness/scenario.hpp"

namespace contactbench::harness {
// Writes <out_dir>/ccd_public.json: both variants on every query of the public CCD set
// (../shared/data/ccd-queries) with per-query answers, ground truth and times, and the
// separation (how far from touching) of each fast false positive. Parameter: repeat (5):
// each variant is run that many times per query and the fastest time is kept.
int run_ccd_public(const ScenarioOptions& o);
}  // namespace contactbench::harness
