// Benchmarks of the square drop (harness/scenarios/square_drop.hpp): wall time per time
// step of the fast (double) run, as square_drop/n_seg=<n>/fast.
//
// One benchmark iteration simulates the first 100 steps from the initial state (free
// fall, first contact at step 32, compression and rebound; the construction and symbolic
// analysis are excluded) and reports their mean per step as the manual time, so
// `real_time` is nanoseconds per step. Counter newton_per_step tells how much of the
// growth with n_seg is more Newton iterations rather than larger solves. The two large
// meshes run one iteration (3 s and about a minute on this machine).
#include "harness/scenarios/square_drop.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>

namespace {

using contactbench::harness::square_drop::FastKernels;
using contactbench::harness::square_drop::Simulator;

constexpr int steps_per_iteration = 100;

void square_drop_fast(benchmark::State& state, int n_seg) {
  long newton = 0, iterations = 0;
  for (auto _ : state) {
    Simulator<FastKernels> sim(n_seg);
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps_per_iteration; ++k) newton += sim.step();
    const auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(sim.x().data());
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / steps_per_iteration);
    ++iterations;
  }
  state.counters["newton_per_step"] =
      static_cast<double>(newton) / static_cast<double>(iterations * steps_per_iteration);
  state.counters["nodes"] = (n_seg + 1) * (n_seg + 1);
}

const bool registered = [] {
  for (int n : {4, 8, 16, 32, 64}) {
    auto* b = benchmark::RegisterBenchmark(fmt::format("square_drop/n_seg={}/fast", n).c_str(),
                                           square_drop_fast, n);
    b->UseManualTime()->Unit(benchmark::kMicrosecond);
    if (n >= 32) b->Iterations(1);
  }
  return true;
}();

}  // namespace
