// Cost of one ball-wall resolution (pfc_resolution, issue 10 item 6) against the number of
// facet contacts k: a flat fan of k triangles around the origin (rim radius 1; k >= 3 closes
// the fan, k = 1, 2 span 120 degrees each) and a ball of radius 1 at (0.01, 0.007, 0.5), whose
// foot point lies near the fan's centre, so every facet has a contact with positive overlap
// and all are linked through the centre vertex. Full mode, Theta = 10 degrees, one previous
// contact on facet k/2 (so continuity runs its path search). Names:
// pfc_resolution/facets=<k>/<impl> (impl reference, fast); one iteration = one resolution.
// The generic pfc_resolution/random/* and /degenerate/* come from the registry.
#include "fast/pfc_resolution.hpp"
#include "reference/pfc_resolution.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace {

using namespace contactbench;
using cases::Vec3;

cases::PfcQuery fan_query(int k) {
  const double pi = std::acos(-1.0), span = k >= 3 ? 2 * pi / k : 2 * pi / 3;
  std::vector<Vec3> v = {Vec3::Zero()};
  const int rim = k >= 3 ? k : k + 1;
  for (int j = 0; j < rim; ++j) v.emplace_back(std::cos(j * span), std::sin(j * span), 0);
  std::vector<std::array<int, 3>> f;
  for (int j = 0; j < k; ++j) f.push_back({0, 1 + j, 1 + (j + 1) % rim});
  cases::PfcQuery q;
  q.wall = std::make_shared<const cases::Mesh>(std::move(v), std::move(f),
                                               cases::Where{"pfc_fan", ""});
  q.centre = Vec3(0.01, 0.007, 0.5);
  q.radius = 1;
  q.mode = cases::PfcMode::full;
  q.cos_cutoff = std::cos(10 * pi / 180);
  q.previous = {{k / 2, Vec3(0.005, 0.005, 0)}};
  return q;
}

template <cases::PfcResult (*Fn)(const cases::PfcQuery&)>
void run(benchmark::State& st, const cases::PfcQuery& q, int k) {
  int positive = 0;
  for (const auto& c : Fn(q).contacts) positive += c.positive;
  if (positive != k) {  // the wall must give exactly k contacts
    st.SkipWithError(fmt::format("{} positive contacts, expected {}", positive, k).c_str());
    return;
  }
  for (auto _ : st) benchmark::DoNotOptimize(Fn(q));
  st.SetItemsProcessed(st.iterations());
  st.counters["facets"] = k;
}

cases::PfcResult fast_resolution(const cases::PfcQuery& q) { return fast::pfc_resolution(q); }

const bool registered = [] {
  for (int k : {1, 2, 4, 8, 16, 32, 64}) {
    const auto q = std::make_shared<const cases::PfcQuery>(fan_query(k));
    benchmark::RegisterBenchmark(fmt::format("pfc_resolution/facets={}/reference", k).c_str(),
                                 [q, k](benchmark::State& st) {
                                   run<&reference::pfc_resolution>(st, *q, k);
                                 })
        ->MinTime(0.2);
    benchmark::RegisterBenchmark(fmt::format("pfc_resolution/facets={}/fast", k).c_str(),
                                 [q, k](benchmark::State& st) {
                                   run<&fast_resolution>(st, *q, k);
                                 });
  }
  return true;
}();

}  // namespace
