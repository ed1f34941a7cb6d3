// Benchmarks of the square drop (cases/square_drop.hpp), fast (double) run.
//
// square_drop/n_seg=<n>/fast: one benchmark iteration simulates the first 100 steps from
// the initial state (free fall, first contact at step 32, compression and rebound);
// construction and symbolic analysis are excluded (timing paused). `real_time` is per 100
// steps; the counter seconds_per_step (an inverted rate, so on CPU time: the run is
// single-threaded, so it equals the wall time on an idle machine and is less disturbed by
// a busy one) is the mean time per step, the number the report plots. UseRealTime or
// Iterations would append "/real_time" or "/iterations:N" to the name, so neither is used.
// Counter newton_per_step tells how much of the growth with n_seg is more Newton
// iterations rather than larger solves.
//
// square_drop/n_seg=<n>/profile: the whole drop, the scenario's 600 steps (free fall,
// impact, the contact steps, rest), once per benchmark iteration, with a Profile attached:
// besides seconds_per_step and newton_per_step, the seconds per step spent in assembly,
// numeric factorization, solve, line-search CCD and line-search energy evaluations
// (*_per_step, wall time), the one-off symbolic analysis (symbolic_seconds, excluded from
// the timing), factorizations per step (Newton updates, plus one for the whole run) and
// energy evaluations per Newton iteration. The phases are wall time, so
// on a busy machine read them as shares; n_seg = 64 takes about a minute.
#include "harness/scenarios/square_drop.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>


namespace {

using contactbench::cases::square_drop::Profile;
using contactbench::cases::square_drop::Simulator;
using contactbench::harness::square_drop::FastKernels;

void set_common(benchmark::State& state, int n_seg, long steps, long newton) {
  state.SetItemsProcessed(steps);
  state.counters["seconds_per_step"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["newton_per_step"] = static_cast<double>(newton) / static_cast<double>(steps);
  state.counters["nodes"] = (n_seg + 1) * (n_seg + 1);
}

void square_drop_fast(benchmark::State& state, int n_seg) {
  constexpr int window = 100;
  long newton = 0, steps = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Simulator<FastKernels> sim(n_seg);
    state.ResumeTiming();
    for (int k = 0; k < window; ++k) newton += sim.step();
    steps += window;
    benchmark::DoNotOptimize(sim.x().data());
  }
  set_common(state, n_seg, steps, newton);
}

void square_drop_profile(benchmark::State& state, int n_seg) {
  constexpr int drop = 600;  // the scenario's default run: the square is at rest by then
  long steps = 0;
  double symbolic_ns = 0;
  Profile prof;
  for (auto _ : state) {
    state.PauseTiming();
    Simulator<FastKernels> sim(n_seg);
    symbolic_ns += sim.symbolic_ns();
    sim.attach_profile(&prof);
    state.ResumeTiming();
    for (int k = 0; k < drop; ++k) sim.step();
    steps += drop;
    benchmark::DoNotOptimize(sim.x().data());
  }
  set_common(state, n_seg, steps, prof.newton);
  const double per_step = 1e-9 / static_cast<double>(steps);
  state.counters["assembly_per_step"] = prof.assembly_ns * per_step;
  state.counters["factorization_per_step"] = prof.factorization_ns * per_step;
  state.counters["solve_per_step"] = prof.solve_ns * per_step;
  state.counters["ccd_per_step"] = prof.ccd_ns * per_step;
  state.counters["energy_per_step"] = prof.energy_ns * per_step;
  state.counters["symbolic_seconds"] = symbolic_ns * 1e-9 / static_cast<double>(state.iterations());
  state.counters["factorizations_per_step"] =
      static_cast<double>(prof.factorizations) / static_cast<double>(steps);
  state.counters["energy_evals_per_newton"] =
      static_cast<double>(prof.energy_evaluations) / static_cast<double>(std::max(1L, prof.newton));
}

const bool registered = [] {
  for (int n : {4, 8, 16, 32, 64})
    benchmark::RegisterBenchmark(fmt::format("square_drop/n_seg={}/fast", n).c_str(),
                                 square_drop_fast, n)
        ->Unit(benchmark::kMillisecond);
  for (int n : {4, 8, 16, 32, 64})
    benchmark::RegisterBenchmark(fmt::format("square_drop/n_seg={}/profile", n).c_str(),
                                 square_drop_profile, n)
        ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
