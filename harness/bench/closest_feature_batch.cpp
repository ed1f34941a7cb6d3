// closest_feature/batch/{scalar,avx2}: the batched closest feature on the registry's random
// set (seed 1, 4096 queries in the fast domain, structure of arrays), per query: the scalar
// kernel per query (allow_simd = false) and the AVX2 lanes. Counter ns_per_query.
#include "fast/closest_feature.hpp"
#include "harness/pairs/closest_feature.hpp"

#include <benchmark/benchmark.h>

namespace {

const contactbench::fast::ClosestFeatureSoA& random_set() {
  static const auto soa = [] {
    using P = contactbench::harness::ClosestFeaturePair;
    std::vector<contactbench::cases::ClosestFeatureQuery> qs;
    for (std::size_t i = 0; i < 4096; ++i) {
      auto rng = contactbench::cases::query_rng(1, P::stem, "random", 2 * i);
      const auto g = P::random(rng);
      if (P::in_domain(g.query)) qs.push_back(g.query);
    }
    return contactbench::fast::ClosestFeatureSoA(qs);
  }();
  return soa;
}

void run(benchmark::State& st, bool simd) {
  const auto& set = random_set();
  contactbench::fast::ClosestFeatureSoAResult out;
  out.resize(set.size());
  for (auto _ : st) {
    contactbench::fast::closest_feature(set, out, simd);
    benchmark::DoNotOptimize(out.squared_distance.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * set.size()));
  st.counters["ns_per_query"] = benchmark::Counter(
      static_cast<double>(st.iterations() * set.size()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

const bool registered = [] {
  benchmark::RegisterBenchmark("closest_feature/batch/scalar", [](benchmark::State& st) { run(st, false); });
  benchmark::RegisterBenchmark("closest_feature/batch/avx2", [](benchmark::State& st) { run(st, true); });
  return true;
}();

}  // namespace
