// barrier/batch/{scalar_loop,scalar,avx2,avx512}: the barrier on the family's random set
// (seed 1, 4096 queries): barrier() looped over an array of structures, the structure-of-
// arrays batch with the scalar kernel per query (width 1), and with AVX2 (4) and AVX-512 (8)
// lanes. Counter ns_per_query.
#include "fast/barrier.hpp"
#include "harness/pairs/barrier.hpp"

#include <benchmark/benchmark.h>

namespace {

const std::vector<contactbench::cases::BarrierQuery>& random_queries() {
  static const auto qs = [] {
    std::vector<contactbench::cases::BarrierQuery> qs;
    for (std::size_t i = 0; i < 4096; ++i) {
      auto rng = contactbench::cases::query_rng(1, "barrier", "random", 2 * i);
      qs.push_back(contactbench::cases::Barrier::random(rng).query);
    }
    return qs;
  }();
  return qs;
}

void per_query(double n, benchmark::State& st) {
  st.SetItemsProcessed(static_cast<std::int64_t>(n));
  st.counters["ns_per_query"] =
      benchmark::Counter(n * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void run_loop(benchmark::State& st) {
  const auto& qs = random_queries();
  std::vector<contactbench::cases::BarrierResult> out(qs.size());
  for (auto _ : st) {
    for (std::size_t i = 0; i < qs.size(); ++i) out[i] = contactbench::fast::barrier(qs[i]);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  per_query(static_cast<double>(st.iterations() * qs.size()), st);
}

void run(benchmark::State& st, int width) {
  static const contactbench::fast::BarrierSoA set(random_queries());
  contactbench::fast::BarrierSoAResult out;
  out.resize(set.size());
  for (auto _ : st) {
    contactbench::fast::barrier(set, out, width);
    benchmark::DoNotOptimize(out.value.data());
    benchmark::ClobberMemory();
  }
  per_query(static_cast<double>(st.iterations() * set.size()), st);
}

const bool registered = [] {
  benchmark::RegisterBenchmark("barrier/batch/scalar_loop", run_loop);
  benchmark::RegisterBenchmark("barrier/batch/scalar", [](benchmark::State& st) { run(st, 1); });
  if (contactbench::fast::barrier_batch_width() >= 4)  // registered only where the CPU runs that many lanes
    benchmark::RegisterBenchmark("barrier/batch/avx2", [](benchmark::State& st) { run(st, 4); });
  if (contactbench::fast::barrier_batch_width() >= 8)
    benchmark::RegisterBenchmark("barrier/batch/avx512", [](benchmark::State& st) { run(st, 8); });
  return true;
}();

}  // namespace
