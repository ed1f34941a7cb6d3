// closest_feature/batch/{aos_loop,scalar,avx2,avx512}, batch/machine/*: the closest feature on the registry's random
// set (seed 1, 4096 queries in the fast domain): the scalar kernel looped over an array of
// structures (the batch as it was), the structure-of-arrays batch with the scalar kernel
// per query (width 1), and with AVX2 (4) and AVX-512 (8) lanes. Counter ns_per_query.
#include "fast/closest_feature.hpp"
#include "harness/pairs/closest_feature.hpp"

#include <benchmark/benchmark.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

#if defined(__x86_64__)
// The machine's side of the batches' arithmetic limit (README "Speed against the arithmetic
// limit"): the core clock from a chain of dependent imuls (3 cycles each), counter GHz; the
// throughput of independent zmm adds (12 chains, latency 4), counter per_ns; the
// throughput of zmm divisions (4 chains), counter ns_per_division. Rates per CPU second.
void imul_chain(benchmark::State& st) {
  std::uint64_t x = 3;
  for (auto _ : st)
    for (int i = 0; i < 1000; ++i)
      asm volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0" : "+r"(x));
  benchmark::DoNotOptimize(x);
  st.counters["GHz"] = benchmark::Counter(3.0 * 4000e-9 * static_cast<double>(st.iterations()),
                                          benchmark::Counter::kIsRate);
}
// Twelve named registers (an array would live in memory and chain through it).
#define ADD_ONE(v) asm volatile("vaddpd %1, %0, %0" : "+v"(v) : "v"(e))
__attribute__((target("avx512f"))) void zmm_adds(benchmark::State& st) {
  __m512d a0 = _mm512_set1_pd(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0,
          a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  const __m512d e = _mm512_set1_pd(1e-300);
  for (auto _ : st)
    for (int i = 0; i < 1000; ++i) {
      ADD_ONE(a0); ADD_ONE(a1); ADD_ONE(a2); ADD_ONE(a3); ADD_ONE(a4); ADD_ONE(a5);
      ADD_ONE(a6); ADD_ONE(a7); ADD_ONE(a8); ADD_ONE(a9); ADD_ONE(a10); ADD_ONE(a11);
    }
  for (__m512d v : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11}) benchmark::DoNotOptimize(v);
  st.counters["per_ns"] = benchmark::Counter(12000e-9 * static_cast<double>(st.iterations()),
                                             benchmark::Counter::kIsRate);
}
#undef ADD_ONE
__attribute__((target("avx512f"))) void zmm_divs(benchmark::State& st) {
  __m512d a0 = _mm512_set1_pd(1.5), a1 = a0, a2 = a0, a3 = a0;
  const __m512d e = _mm512_set1_pd(1.0000001);
  for (auto _ : st)
    for (int i = 0; i < 100; ++i) {
      asm volatile("vdivpd %1, %0, %0" : "+v"(a0) : "v"(e));
      asm volatile("vdivpd %1, %0, %0" : "+v"(a1) : "v"(e));
      asm volatile("vdivpd %1, %0, %0" : "+v"(a2) : "v"(e));
      asm volatile("vdivpd %1, %0, %0" : "+v"(a3) : "v"(e));
    }
  for (__m512d v : {a0, a1, a2, a3}) benchmark::DoNotOptimize(v);
  st.counters["ns_per_division"] = benchmark::Counter(
      400e-9 * static_cast<double>(st.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
// The same for ymm registers (machines without AVX-512): adds alone, adds and multiplies
// interleaved (six chains each: CPUs with separate add and multiply ports, such as AMD's
// Zen, retire both in one cycle), and divisions.
#define ADD_ONE(v) asm volatile("vaddpd %1, %0, %0" : "+x"(v) : "x"(e))
#define MUL_ONE(v) asm volatile("vmulpd %1, %0, %0" : "+x"(v) : "x"(e))
__attribute__((target("avx2"))) void ymm_adds(benchmark::State& st) {
  __m256d a0 = _mm256_set1_pd(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0,
          a8 = a0, a9 = a0, a10 = a0, a11 = a0;
  const __m256d e = _mm256_set1_pd(1e-300);
  for (auto _ : st)
    for (int i = 0; i < 1000; ++i) {
      ADD_ONE(a0); ADD_ONE(a1); ADD_ONE(a2); ADD_ONE(a3); ADD_ONE(a4); ADD_ONE(a5);
      ADD_ONE(a6); ADD_ONE(a7); ADD_ONE(a8); ADD_ONE(a9); ADD_ONE(a10); ADD_ONE(a11);
    }
  for (__m256d v : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11}) benchmark::DoNotOptimize(v);
  st.counters["per_ns"] = benchmark::Counter(12000e-9 * static_cast<double>(st.iterations()),
                                             benchmark::Counter::kIsRate);
}
__attribute__((target("avx2"))) void ymm_adds_muls(benchmark::State& st) {
  __m256d a0 = _mm256_set1_pd(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, m0 = a0, m1 = a0,
          m2 = a0, m3 = a0, m4 = a0, m5 = a0;
  const __m256d e = _mm256_set1_pd(1.0);  // x·1 and x + 1 stay normal for the whole run
  for (auto _ : st)
    for (int i = 0; i < 1000; ++i) {
      ADD_ONE(a0); MUL_ONE(m0); ADD_ONE(a1); MUL_ONE(m1); ADD_ONE(a2); MUL_ONE(m2);
      ADD_ONE(a3); MUL_ONE(m3); ADD_ONE(a4); MUL_ONE(m4); ADD_ONE(a5); MUL_ONE(m5);
    }
  for (__m256d v : {a0, a1, a2, a3, a4, a5, m0, m1, m2, m3, m4, m5}) benchmark::DoNotOptimize(v);
  st.counters["per_ns"] = benchmark::Counter(12000e-9 * static_cast<double>(st.iterations()),
                                             benchmark::Counter::kIsRate);
}
#undef ADD_ONE
#undef MUL_ONE
__attribute__((target("avx2"))) void ymm_divs(benchmark::State& st) {
  __m256d a0 = _mm256_set1_pd(1.5), a1 = a0, a2 = a0, a3 = a0;
  const __m256d e = _mm256_set1_pd(1.0000001);
  for (auto _ : st)
    for (int i = 0; i < 100; ++i) {
      asm volatile("vdivpd %1, %0, %0" : "+x"(a0) : "x"(e));
      asm volatile("vdivpd %1, %0, %0" : "+x"(a1) : "x"(e));
      asm volatile("vdivpd %1, %0, %0" : "+x"(a2) : "x"(e));
      asm volatile("vdivpd %1, %0, %0" : "+x"(a3) : "x"(e));
    }
  for (__m256d v : {a0, a1, a2, a3}) benchmark::DoNotOptimize(v);
  st.counters["ns_per_division"] = benchmark::Counter(
      400e-9 * static_cast<double>(st.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
#endif

const bool registered = [] {
#if defined(__x86_64__)
  benchmark::RegisterBenchmark("batch/machine/imul_chain", imul_chain);
  if (__builtin_cpu_supports("avx512f")) {
    benchmark::RegisterBenchmark("batch/machine/zmm_adds", zmm_adds);
    benchmark::RegisterBenchmark("batch/machine/zmm_divs", zmm_divs);
  }
  if (__builtin_cpu_supports("avx2")) {
    benchmark::RegisterBenchmark("batch/machine/ymm_adds", ymm_adds);
    benchmark::RegisterBenchmark("batch/machine/ymm_adds_muls", ymm_adds_muls);
    benchmark::RegisterBenchmark("batch/machine/ymm_divs", ymm_divs);
  }
#endif
  benchmark::RegisterBenchmark("closest_feature/batch/aos_loop", run_aos);
  benchmark::RegisterBenchmark("closest_feature/batch/scalar", [](benchmark::State& st) { run(st, 1); });
  if (contactbench::fast::closest_feature_batch_width() >= 4)  // registered only where the CPU runs that many lanes
    benchmark::RegisterBenchmark("closest_feature/batch/avx2", [](benchmark::State& st) { run(st, 4); });
  if (contactbench::fast::closest_feature_batch_width() >= 8)
    benchmark::RegisterBenchmark("closest_feature/batch/avx512", [](benchmark::State& st) { run(st, 8); });
  return true;
}();

}  // namespace
