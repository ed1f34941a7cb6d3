// closest_feature/batch/{aos_loop,scalar,avx2,avx512}: the closest feature on the registry's random
// set (seed 1, 4096 queries in the fast domain): the scalar kernel looped over an array of
// structures (the batch as it was), the structure-of-arrays batch with the scalar kernel
// per query (width 1), and with AVX2 (4) and AVX-512 (8) lanes. Counter ns_per_query.
#include "fast/closest_feature.hpp"
#include "harness/pairs/closest_feature.hpp"

#include <benchmark/benchmark.h>

namespace {

const std::vector<contactbench::cases::ClosestFeatureQuery>& random_queries() {
  static const auto qs = [] {
    using P = contactbench::harness::ClosestFeaturePair;
    std::vector<contactbench::cases::ClosestFeatureQuery> qs;
    for (std::size_t i = 0; i < 4096; ++i) {
      auto rng = contactbench::cases::query_rng(1, P::stem, "random", 2 * i);
      const auto g = P::random(rng);
      if (P::in_domain(g.query)) qs.push_back(g.query);
    }
    return qs;
  }();
  return qs;
}
const contactbench::fast::ClosestFeatureSoA& random_set() {
  static const contactbench::fast::ClosestFeatureSoA soa(random_queries());
  return soa;
}

void per_query(double n, benchmark::State& st) {
  st.SetItemsProcessed(static_cast<std::int64_t>(n));
  st.counters["ns_per_query"] =
      benchmark::Counter(n * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void run_aos(benchmark::State& st) {
  const auto& qs = random_queries();
  std::vector<contactbench::cases::ClosestFeatureResult> out(qs.size());
  for (auto _ : st) {
    for (std::size_t i = 0; i < qs.size(); ++i) out[i] = contactbench::fast::closest_feature(qs[i]);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  per_query(static_cast<double>(st.iterations() * qs.size()), st);
}

void run(benchmark::State& st, int width) {
  const auto& set = random_set();
  contactbench::fast::ClosestFeatureSoAResult out;
  out.resize(set.size());
  for (auto _ : st) {
    contactbench::fast::closest_feature(set, out, width);
    benchmark::DoNotOptimize(out.squared_distance.data());
    benchmark::ClobberMemory();
  }
  per_query(static_cast<double>(st.iterations() * set.size()), st);
}

const bool registered = [] {
  benchmark::RegisterBenchmark("closest_feature/batch/aos_loop", run_aos);
  benchmark::RegisterBenchmark("closest_feature/batch/scalar", [](benchmark::State& st) { run(st, 1); });
  benchmark::RegisterBenchmark("closest_feature/batch/avx2", [](benchmark::State& st) { run(st, 4); });
  benchmark::RegisterBenchmark("closest_feature/batch/avx512", [](benchmark::State& st) { run(st, 8); });
  return true;
}();

}  // namespace
