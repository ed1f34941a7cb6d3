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
// throughput of independent zmm (ymm) adds (12 chains, latency 4), counter per_ns; the
// throughput of zmm (ymm) divisions (4 chains), counter ns_per_division. Rates per CPU second.
void imul_chain(benchmark::State& st) {
  std::uint64_t x = 3;
  for (auto _ : st)
    for (int i = 0; i < 1000; ++i)
      asm volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0" : "+r"(x));
  benchmark::DoNotOptimize(x);
  st.counters["GHz"] = benchmark::Counter(3.0 * 4000e-9 * static_cast<double>(st.iterations()),
                                          benchmark::Counter::kIsRate);
}
// Twelve named registers (an array would live in memory and chain through it). OP_ONE(op, v)
// is one instruction on the register v with the constant e; "v" allows every vector register
// of the width (zmm16-31 with AVX-512, ymm0-15 otherwise).
#define OP_ONE(op, v) asm volatile(op " %1, %0, %0" : "+v"(v) : "v"(e))
// <prefix>_adds (12 add chains) and <prefix>_divs (4 division chains) for one vector type.
#define MACHINE_BENCHMARKS(prefix, V, set1, isa)                                                   \
  __attribute__((target(isa))) void prefix##_adds(benchmark::State& st) {                         \
    V a0 = set1(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0,       \
      a9 = a0, a10 = a0, a11 = a0;                                                                \
    const V e = set1(1e-300);                                                                     \
    for (auto _ : st)                                                                             \
      for (int i = 0; i < 1000; ++i) {                                                            \
        OP_ONE("vaddpd", a0); OP_ONE("vaddpd", a1); OP_ONE("vaddpd", a2); OP_ONE("vaddpd", a3);   \
        OP_ONE("vaddpd", a4); OP_ONE("vaddpd", a5); OP_ONE("vaddpd", a6); OP_ONE("vaddpd", a7);   \
        OP_ONE("vaddpd", a8); OP_ONE("vaddpd", a9); OP_ONE("vaddpd", a10); OP_ONE("vaddpd", a11); \
      }                                                                                           \
    for (V v : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11}) benchmark::DoNotOptimize(v);   \
    st.counters["per_ns"] =                                                                       \
        benchmark::Counter(12000e-9 * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate); \
  }                                                                                               \
  __attribute__((target(isa))) void prefix##_divs(benchmark::State& st) {                         \
    V a0 = set1(1.5), a1 = a0, a2 = a0, a3 = a0;                                                  \
    const V e = set1(1.0000001);                                                                  \
    for (auto _ : st)                                                                             \
      for (int i = 0; i < 100; ++i) {                                                             \
        OP_ONE("vdivpd", a0); OP_ONE("vdivpd", a1); OP_ONE("vdivpd", a2); OP_ONE("vdivpd", a3);   \
      }                                                                                           \
    for (V v : {a0, a1, a2, a3}) benchmark::DoNotOptimize(v);                                     \
    st.counters["ns_per_division"] = benchmark::Counter(                                          \
        400e-9 * static_cast<double>(st.iterations()),                                            \
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);                               \
  }
MACHINE_BENCHMARKS(zmm, __m512d, _mm512_set1_pd, "avx512f")
MACHINE_BENCHMARKS(ymm, __m256d, _mm256_set1_pd, "avx2")
#undef MACHINE_BENCHMARKS
// Six add and six multiply chains interleaved: CPUs with separate add and multiply ports
// (AMD's Zen) retire both in one cycle. x + 1 and x·1 stay normal for the whole run.
__attribute__((target("avx2"))) void ymm_adds_muls(benchmark::State& st) {
  __m256d a0 = _mm256_set1_pd(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, m0 = a0, m1 = a0,
          m2 = a0, m3 = a0, m4 = a0, m5 = a0;
  const __m256d e = _mm256_set1_pd(1.0);
  for (auto _ : st)
    for (int i = 0; i < 1000; ++i) {
      OP_ONE("vaddpd", a0); OP_ONE("vmulpd", m0); OP_ONE("vaddpd", a1); OP_ONE("vmulpd", m1);
      OP_ONE("vaddpd", a2); OP_ONE("vmulpd", m2); OP_ONE("vaddpd", a3); OP_ONE("vmulpd", m3);
      OP_ONE("vaddpd", a4); OP_ONE("vmulpd", m4); OP_ONE("vaddpd", a5); OP_ONE("vmulpd", m5);
    }
  for (__m256d v : {a0, a1, a2, a3, a4, a5, m0, m1, m2, m3, m4, m5}) benchmark::DoNotOptimize(v);
  st.counters["per_ns"] = benchmark::Counter(12000e-9 * static_cast<double>(st.iterations()),
                                             benchmark::Counter::kIsRate);
}
#undef OP_ONE
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
