// Benchmarks of the square drop (cases/square_drop.hpp): time per time step
// of the fast (double) run, as square_drop/n_seg=<n>/fast.
//
// One benchmark iteration simulates the first 100 steps from the initial state (free
// fall, first contact at step 32, compression and rebound); construction and symbolic
// analysis are excluded (timing paused). `real_time` is per 100 steps; the counter
// seconds_per_step (an inverted rate, so on CPU time: the run is single-threaded, so it
// equals the wall time on an idle machine and is less disturbed by a busy one) is the
// mean time per step, the number the report plots. UseRealTime or Iterations would
// append "/real_time" or "/iterations:N" to the name, so neither is used. Counter
// newton_per_step tells how much of the growth with n_seg is more Newton iterations
// rather than larger solves. n_seg = 64 takes about 80 s (one iteration).
#include "harness/scenarios/square_drop.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>


namespace {

using contactbench::cases::square_drop::Simulator;
using contactbench::harness::square_drop::FastKernels;

constexpr int window = 100;

void square_drop_fast(benchmark::State& state, int n_seg) {
  long newton = 0, steps = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Simulator<FastKernels> sim(n_seg);
    state.ResumeTiming();
    for (int k = 0; k < window; ++k) newton += sim.step();
    steps += window;
    benchmark::DoNotOptimize(sim.x().data());
  }
  state.SetItemsProcessed(steps);
  state.counters["seconds_per_step"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["newton_per_step"] = static_cast<double>(newton) / static_cast<double>(steps);
  state.counters["nodes"] = (n_seg + 1) * (n_seg + 1);
}

const bool registered = [] {
  for (int n : {4, 8, 16, 32, 64})
    benchmark::RegisterBenchmark(fmt::format("square_drop/n_seg={}/fast", n).c_str(),
                                 square_drop_fast, n)
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
