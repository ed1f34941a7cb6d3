// contactbench_bench: every registered pair on its random and degenerate sets, as
// <stem>/<case>/<impl> (reference, fast, packaged peers), plus the scenario benchmarks
// registered by the other files of this folder.
#include "harness/registry.hpp"

#include <benchmark/benchmark.h>

int main(int argc, char** argv) {
  for (const auto& f : contactbench::harness::families())
    if (!f.planted()) f.register_benchmarks({});
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
