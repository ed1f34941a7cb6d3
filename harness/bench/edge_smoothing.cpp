// Scenario steps per second for rolling_sphere (smoothing per contact is registered from the
// registry as edge_smoothing/<set>/<impl>). Names: rolling_sphere/<surface>_<mode>/<impl>;
// one iteration = one DEM step; the run restarts every 5000 steps (0.5 s) so the sphere
// stays on the mesh.
// Also edge_smoothing_reference/<set>/<stage>: the filtered reference against its exact path
// alone, per query, on the registry's sets (seed 1, 4096 queries); run them interleaved
// (--benchmark_enable_random_interleaving=true --benchmark_repetitions=N) to compare.
#include "cases/edge_smoothing.hpp"
#include "harness/scenarios/rolling_sphere.hpp"
#include "reference/edge_smoothing.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

namespace {

using namespace contactbench;
using namespace contactbench::harness;

template <class K>
void steps(benchmark::State& st, std::shared_ptr<const cases::Mesh> mesh, dem::Params p, dem::State s0) {
  auto make = [&] { return std::make_unique<dem::Stepper<K>>(mesh, p, s0); };
  auto stepper = make();
  long k = 0;
  for (auto _ : st) {
    stepper->step();
    if (++k % 5000 == 0) {
      st.PauseTiming();
      stepper = make();
      st.ResumeTiming();
    }
  }
  st.SetItemsProcessed(st.iterations());
}

const bool registered_reference = [] {
  for (const char* gen : {"random", "degenerate"}) {
    auto set = std::make_shared<std::vector<cases::EdgeSmoothingQuery>>();
    for (std::size_t i = 0; i < 4096; ++i) {  // as harness/pair.hpp's register_benchmarks
      auto rng = cases::query_rng(1, "edge_smoothing", gen, 2 * i + (gen[0] == 'd'));
      set->push_back(gen[0] == 'd' ? cases::EdgeSmoothing::degenerate(rng).query
                                   : cases::EdgeSmoothing::random(rng).query);
    }
    for (auto [stage, fn] : {std::pair{"filtered", &reference::edge_smoothing},
                             std::pair{"exact", &reference::edge_smoothing_exact}})
      benchmark::RegisterBenchmark(fmt::format("edge_smoothing_reference/{}/{}", gen, stage).c_str(),
                                   [set, fn](benchmark::State& st) {
                                     std::size_t i = 0;
                                     for (auto _ : st) {
                                       benchmark::DoNotOptimize(fn((*set)[i]));
                                       if (++i == set->size()) i = 0;
                                     }
                                     st.SetItemsProcessed(st.iterations());
                                   });
  }
  return true;
}();

const bool registered = [] {
  const auto grid = std::make_shared<const cases::Mesh>(cases::grid_plane(14, 4, 0.1));
  const auto trough = std::make_shared<const cases::Mesh>(cases::half_cylinder_trough(0.5, 64, 3, 0.6));
  for (auto mode : {dem::ContactMode::raw, dem::ContactMode::smoothed}) {
    dem::Params p;
    p.mode = mode;
    const double rho = p.radius - rolling::rest_overlap(p);
    dem::State roll;
    roll.x = cases::Vec3(0.13, 0.175, rho);
    roll.v = cases::Vec3(0.5, 0, 0);
    roll.w = cases::Vec3(0, 0.5 / p.radius, 0);
    dem::Params pt = p;
    pt.kn = 1e5;
    dem::State swing;
    swing.x = cases::Vec3(0.45 * std::sin(0.2), 0, 0.5 - 0.45 * std::cos(0.2));
    for (const char* impl : {"fast", "reference"}) {
      const bool ref = impl[0] == 'r';
      auto reg = [&](const std::string& name, auto mesh, dem::Params pp, dem::State s) {
        auto* b = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
          if (ref) steps<dem::ReferenceKernels>(st, mesh, pp, s);
          else steps<dem::FastKernels>(st, mesh, pp, s);
        });
        if (ref) b->MinTime(0.2);
      };
      reg(fmt::format("rolling_sphere/grid_{}/{}", dem::to_string(mode), impl), grid, p, roll);
      reg(fmt::format("rolling_sphere/trough64_{}/{}", dem::to_string(mode), impl), trough, pt, swing);
    }
  }
  return true;
}();

}  // namespace
