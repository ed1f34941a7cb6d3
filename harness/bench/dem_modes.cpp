// Benchmarks of the DEM stepper per contact mode (harness/scenarios/dem.hpp): scenario steps
// per second, as dem_modes/<case>/<mode>/<kernels>, for
//   plane    the rolling sphere on the 14 x 4 grid plane (rolling_sphere's "grid"), rolling
//            at 0.5 m/s from its start;
//   trough   the sphere released at 0.2 rad in the 32-facet half-cylinder trough;
//   concave  concave_edge's wall, the sphere pressed in with overlap 2 mm and moved along the
//            prescribed path through the edge region (the part with two contacts).
// One iteration = `window` steps from the case's start state (construction excluded, timing
// paused). Counter steps_per_second is the mean rate over all iterations (CPU time: the
// stepper is single-threaded). None of these names contains "/random/": they are not part of
// the ctest smoke run.
#include "harness/scenarios/pfc_walls.hpp"
#include "harness/scenarios/rolling_sphere.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

namespace {

using namespace contactbench;
using namespace contactbench::harness;
using cases::Vec3;

struct Case {
  std::shared_ptr<const cases::Mesh> mesh;
  dem::Params p;
  dem::State s;
  Vec3 prescribed = Vec3::Zero();  // non-zero: prescribed velocity instead of dynamics
};

Case make_case(const std::string& name, dem::ContactMode mode) {
  Case c;
  c.p.mode = mode;
  if (name == "plane") {
    c.mesh = std::make_shared<const cases::Mesh>(cases::grid_plane(14, 4, 0.1));
    c.s.x = Vec3(0.13, 0.175, c.p.radius - rolling::rest_overlap(c.p));
    c.s.v = Vec3(0.5, 0, 0);
    c.s.w = Vec3(0, 0.5 / c.p.radius, 0);
  } else if (name == "trough") {
    const double R = 0.5;
    c.mesh = std::make_shared<const cases::Mesh>(cases::half_cylinder_trough(R, 32, 3, 0.6));
    c.p.kn = 1e5;
    const double rho = R - (c.p.radius - rolling::rest_overlap(c.p));
    c.s.x = Vec3(rho * std::sin(0.2), 0, R - rho * std::cos(0.2));
  } else {
    c.mesh = std::make_shared<const cases::Mesh>(
        pfc_walls::extruded_wall(pfc_walls::fold_profile(0.1, 30 / 57.29577951308232, 4), 0.1, 2));
    c.p.damping_ratio = 0;
    const double rho = c.p.radius - 2e-3;
    c.s.x = Vec3(-rho * std::tan(15 / 57.29577951308232) - 0.005, 0.04, rho);
    c.prescribed = Vec3(0.5, 0, 0);
  }
  return c;
}

template <class K>
void dem_steps(benchmark::State& state, const std::string& name, dem::ContactMode mode, int window) {
  const Case c = make_case(name, mode);
  long steps = 0;
  for (auto _ : state) {
    state.PauseTiming();
    dem::Stepper<K> st(c.mesh, c.p, c.s);
    state.ResumeTiming();
    for (int k = 0; k < window; ++k) {
      if (c.prescribed.squaredNorm() > 0)
        st.step_prescribed(c.prescribed);
      else
        st.step();
    }
    steps += window;
    benchmark::DoNotOptimize(st.state().x.data());
  }
  state.SetItemsProcessed(steps);
  state.counters["steps_per_second"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}

const bool registered = [] {
  for (const std::string name : {"plane", "trough", "concave"})
    for (auto mode : dem::all_modes) {
      benchmark::RegisterBenchmark(fmt::format("dem_modes/{}/{}/fast", name, dem::to_string(mode)).c_str(),
                                   dem_steps<dem::FastKernels>, name, mode, 200)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(
          fmt::format("dem_modes/{}/{}/reference", name, dem::to_string(mode)).c_str(),
          dem_steps<dem::ReferenceKernels>, name, mode, 20)
          ->Unit(benchmark::kMillisecond);
    }
  return true;
}();

}  // namespace
