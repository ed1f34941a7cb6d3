// Batched barrier: queries in structure-of-arrays layout, eight at a time in AVX-512 lanes
// or four in AVX2 lanes (chosen at run time; otherwise the scalar kernel per query). The
// lane body is fast/barrier_lanes.inc, compiled once per instruction set
// (fast/batch_isa.inc). Every lane evaluates barrier_terms and barrier_log (fast/barrier.hpp) in their order with correctly
// rounded +, -, *, / and exact bit operations (no FMA: fp-contract off, as the scalar
// kernel's baseline x86-64 target has none), so the results are bit-identical to
// barrier(q) (harness/tests/barrier_batch.cpp). Each lane runs all of it (both reductions
// of the log, active or not); inactive lanes are zeroed.
#include "fast/barrier.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace contactbench::fast {

namespace {

cases::BarrierQuery query_at(const BarrierSoA& in, std::size_t i) {
  return {in.d[i], in.dhat[i], in.kappa[i], in.area[i]};
}

void scalar_range(const BarrierSoA& in, BarrierSoAResult& out, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) {
    const cases::BarrierResult r = barrier(query_at(in, i));
    out.value[i] = r.value;
    out.gradient[i] = r.gradient;
    out.hessian[i] = r.hessian;
    out.active[i] = r.active;
  }
}

#define BATCH_LANES "fast/barrier_lanes.inc"
#include "fast/batch_isa.inc"
#undef BATCH_LANES

}  // namespace

BarrierSoA::BarrierSoA(std::span<const cases::BarrierQuery> qs)
    : d(qs.size()), dhat(qs.size()), kappa(qs.size()), area(qs.size()) {
  for (std::size_t i = 0; i < qs.size(); ++i) {
    d[i] = qs[i].d;
    dhat[i] = qs[i].dhat;
    kappa[i] = qs[i].kappa;
    area[i] = qs[i].area;
  }
}

void BarrierSoAResult::resize(std::size_t n) {
  value.resize(n);
  gradient.resize(n);
  hessian.resize(n);
  active.resize(n);
}

int barrier_batch_width() { return cpu_batch_width(); }

void barrier(const BarrierSoA& in, BarrierSoAResult& out, int max_width) {
  out.resize(in.size());
  run_batch(in, out, max_width);
}

}  // namespace contactbench::fast
