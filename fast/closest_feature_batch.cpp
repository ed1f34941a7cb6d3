// Batched closest feature: queries in structure-of-arrays layout, eight at a time in AVX-512
// lanes or four in AVX2 lanes (chosen at run time; otherwise the scalar kernel per query).
// The lane body is fast/closest_feature_lanes.inc, compiled once per instruction set. Every
// lane evaluates the scalar kernel's expressions in its order (+, -, *, / are correctly
// rounded in both; no FMA: the scalar kernel's baseline x86-64 target has none, and the lane
// code is compiled with fp-contract=off), then picks the region with the same precedence,
// so the results are bit-identical to closest_feature(q)
// (harness/tests/closest_feature_batch.cpp). A face lane whose triangle is flat in double
// (n·n < DBL_MIN) is redone by the scalar kernel (its edge-point fallback). The
// array-of-structures entry point loops the scalar kernel: measured faster than converting
// to structure of arrays and back.
#include "fast/closest_feature.hpp"

#include <immintrin.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace contactbench::fast {

using cases::Region;

namespace {

cases::ClosestFeatureQuery query_at(const ClosestFeatureSoA& in, std::size_t i) {
  cases::ClosestFeatureQuery q;
  for (int k = 0; k < 3; ++k) {
    q.p[k] = in.p[k][i];
    q.a[k] = in.a[k][i];
    q.b[k] = in.b[k][i];
    q.c[k] = in.c[k][i];
  }
  return q;
}

void store(const cases::ClosestFeatureResult& r, ClosestFeatureSoAResult& out, std::size_t i) {
  for (int k = 0; k < 3; ++k) out.point[k][i] = r.point[k];
  out.squared_distance[i] = r.squared_distance;
  out.region[i] = r.region;
}

void scalar_range(const ClosestFeatureSoA& in, ClosestFeatureSoAResult& out, std::size_t begin,
                  std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) store(closest_feature(query_at(in, i)), out, i);
}

#if defined(__x86_64__)
// GCC takes the target for a region; clang needs it as an attribute on each function there.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#pragma GCC optimize("fp-contract=off")
#endif
namespace avx2 {
constexpr int W = 4;
using V = __m256d;
using M = __m256d;  // all-ones lanes
inline V add(V a, V b) { return _mm256_add_pd(a, b); }
inline V sub(V a, V b) { return _mm256_sub_pd(a, b); }
inline V mul(V a, V b) { return _mm256_mul_pd(a, b); }
inline V div(V a, V b) { return _mm256_div_pd(a, b); }
inline M le(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
inline M ge(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
inline M eq(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
inline M not_ge(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_NGE_UQ); }
inline M land(M a, M b) { return _mm256_and_pd(a, b); }
inline M lor(M a, M b) { return _mm256_or_pd(a, b); }
inline M andnot(M a, M b) { return _mm256_andnot_pd(a, b); }  // b and not a
inline V pick(M mask, V yes, V no) { return _mm256_blendv_pd(no, yes, mask); }
inline V set1(double x) { return _mm256_set1_pd(x); }
inline V negate(V a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }  // exact
inline int bits(M m) { return _mm256_movemask_pd(m); }
inline void storeu(double* to, V a) { _mm256_storeu_pd(to, a); }
inline V code(Region r) { return set1(static_cast<int>(r)); }
inline V load1(const std::vector<double>& s, std::size_t i) { return _mm256_loadu_pd(&s[i]); }
#include "fast/closest_feature_lanes.inc"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#if defined(__clang__)  // clang contracts only within one source expression: none here
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq")
#pragma GCC optimize("fp-contract=off")  // AVX-512 brings FMA: no contraction
#endif
namespace avx512 {
constexpr int W = 8;
using V = __m512d;
using M = __mmask8;
inline V add(V a, V b) { return _mm512_add_pd(a, b); }
inline V sub(V a, V b) { return _mm512_sub_pd(a, b); }
inline V mul(V a, V b) { return _mm512_mul_pd(a, b); }
inline V div(V a, V b) { return _mm512_div_pd(a, b); }
inline M le(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
inline M ge(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
inline M eq(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
inline M not_ge(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_NGE_UQ); }
inline M land(M a, M b) { return a & b; }
inline M lor(M a, M b) { return a | b; }
inline M andnot(M a, M b) { return static_cast<M>(~a & b); }  // b and not a
inline V pick(M mask, V yes, V no) { return _mm512_mask_blend_pd(mask, no, yes); }
inline V set1(double x) { return _mm512_set1_pd(x); }
inline V negate(V a) { return _mm512_xor_pd(a, _mm512_set1_pd(-0.0)); }  // exact
inline int bits(M m) { return m; }
inline void storeu(double* to, V a) { _mm512_storeu_pd(to, a); }
inline V code(Region r) { return set1(static_cast<int>(r)); }
inline V load1(const std::vector<double>& s, std::size_t i) { return _mm512_loadu_pd(&s[i]); }
#include "fast/closest_feature_lanes.inc"
}  // namespace avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif

}  // namespace

ClosestFeatureSoA::ClosestFeatureSoA(std::span<const cases::ClosestFeatureQuery> qs) {
  for (int k = 0; k < 3; ++k) {
    p[k].resize(qs.size());
    a[k].resize(qs.size());
    b[k].resize(qs.size());
    c[k].resize(qs.size());
  }
  for (std::size_t i = 0; i < qs.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      p[k][i] = qs[i].p[k];
      a[k][i] = qs[i].a[k];
      b[k][i] = qs[i].b[k];
      c[k][i] = qs[i].c[k];
    }
}

void ClosestFeatureSoAResult::resize(std::size_t n) {
  for (auto& v : point) v.resize(n);
  squared_distance.resize(n);
  region.resize(n);
}

int closest_feature_batch_width() {
#if defined(__x86_64__)
  static const int width = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")
                               ? 8
                               : (__builtin_cpu_supports("avx2") ? 4 : 1);
  return width;
#else
  return 1;
#endif
}

void closest_feature(const ClosestFeatureSoA& in, ClosestFeatureSoAResult& out, int max_width) {
  out.resize(in.size());
  const int width = std::min(max_width, closest_feature_batch_width());
#if defined(__x86_64__)
  if (width >= 8) return avx512::range(in, out);
  if (width >= 4) return avx2::range(in, out);
#endif
  scalar_range(in, out, 0, in.size());
}

void closest_feature(std::span<const cases::ClosestFeatureQuery> in,
                     std::span<cases::ClosestFeatureResult> out) {
  if (in.size() != out.size()) throw std::invalid_argument("closest_feature: size mismatch");
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = closest_feature(in[i]);
}

}  // namespace contactbench::fast
