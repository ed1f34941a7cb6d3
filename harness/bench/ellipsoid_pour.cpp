// Benchmarks of the ellipsoid pour (harness/scenarios/ellipsoid_pour.hpp), fast kernels, as
// ellipsoid_pour/N=<n>/<threads>: one iteration = `window` steps from the pour's state after
// `warmup` steps (the column collapsed onto the tube's floor and sliding: every body in
// contact), the simulator copied in with timing paused. Counters: steps_per_second (wall
// time for the TBB variant, which uses both cores, named .../tbb/real_time; CPU time for the
// serial one, far less disturbed on a shared machine), contacts per step, and the mean time of
// each phase (the simulator's own clocks: wall for tbb, thread CPU time for serial). `tbb` runs the narrow phase and the per-body resolution on TBB's
// threads (the scenario's default), `serial` on one thread. N = 1000 is the paper's size;
// 100 … 10000 the scaling series. None of these names contains "/random/" (not in the ctest
// smoke run).
#include "harness/scenarios/ellipsoid_pour.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <map>
#include <memory>

namespace {

using namespace contactbench::harness::pour;

constexpr int warmup = 150, window = 10;

// The warm state per (N, parallel), built on first use.
const Simulator<FastKernels>& warm(int n, bool parallel) {
  static std::map<std::pair<int, bool>, std::unique_ptr<Simulator<FastKernels>>> cache;
  auto& slot = cache[{n, parallel}];
  if (!slot) {
    PourParams p;
    p.n = n;
    slot = std::make_unique<Simulator<FastKernels>>(pour_scene(p), parallel);
    for (int k = 0; k < warmup; ++k) slot->step();
  }
  return *slot;
}

void pour_steps(benchmark::State& state, int n, bool parallel) {
  const Simulator<FastKernels>& start = warm(n, parallel);
  long steps = 0;
  double contacts = 0;
  std::array<double, 4> phase{};
  for (auto _ : state) {
    state.PauseTiming();
    Simulator<FastKernels> sim = start;
    state.ResumeTiming();
    for (int k = 0; k < window; ++k) {
      const StepStats st = sim.step();
      contacts += st.contacts;
      for (int p = 0; p < 4; ++p) phase[p] += static_cast<double>(st.phase_ns[p]);
    }
    steps += window;
    benchmark::DoNotOptimize(sim.bodies().data());
  }
  const double s = static_cast<double>(steps);
  state.counters["steps_per_second"] = benchmark::Counter(s, benchmark::Counter::kIsRate);
  state.counters["contacts"] = contacts / s;
  state.counters["N"] = n;
  const char* names[4] = {"precomputation_ms", "detection_ms", "resolution_ms", "final_ms"};
  for (int p = 0; p < 4; ++p) state.counters[names[p]] = phase[p] / s / 1e6;
}

const bool registered = [] {
  for (int n : {100, 300, 1000, 3000, 10000})
    for (bool parallel : {true, false}) {
      if (!parallel && n != 1000) continue;
      auto* b = benchmark::RegisterBenchmark(
          fmt::format("ellipsoid_pour/N={}/{}", n, parallel ? "tbb" : "serial").c_str(),
          pour_steps, n, parallel);
      b->Unit(benchmark::kMillisecond);
      if (parallel) b->UseRealTime();  // two threads: wall time; serial: CPU time
    }
  return true;
}();

}  // namespace
