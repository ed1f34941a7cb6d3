// Batched closest feature: queries in structure-of-arrays layout, eight at a time in AVX-512
// lanes or four in AVX2 lanes (chosen at run time; otherwise the scalar kernel per query).
// The lane body is fast/closest_feature_lanes.inc, compiled once per instruction set
// (fast/batch_isa.inc). Every lane evaluates the scalar kernel's expressions in its order
// (+, -, *, / are correctly rounded in both; no FMA: the scalar kernel's baseline x86-64
// target has none, and the lane code is compiled with fp-contract=off), then picks the
// region with the same precedence, so the results are bit-identical to closest_feature(q)
// (harness/tests/closest_feature_batch.cpp). Face lanes whose triangle is flat in double
// (n·n < DBL_MIN: the scalar edge-point fallback) or whose p has a zero coordinate (the sign
// of a zero, see the lane body) are redone by the scalar kernel. The array-of-structures
// entry point loops the scalar kernel: measured faster than converting to structure of
// arrays and back.
#include "fast/closest_feature.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace contactbench::fast {

using cases::Region;
static_assert(sizeof(Region) == sizeof(std::int32_t), "regions are stored as 32-bit lanes");

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

#define BATCH_LANES "fast/closest_feature_lanes.inc"
#include "fast/batch_isa.inc"
#undef BATCH_LANES

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

int closest_feature_batch_width() { return cpu_batch_width(); }

void closest_feature(const ClosestFeatureSoA& in, ClosestFeatureSoAResult& out, int max_width) {
  out.resize(in.size());
  run_batch(in, out, max_width);
}

void closest_feature(std::span<const cases::ClosestFeatureQuery> in,
                     std::span<cases::ClosestFeatureResult> out) {
  if (in.size() != out.size()) throw std::invalid_argument("closest_feature: size mismatch");
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = closest_feature(in[i]);
}

}  // namespace contactbench::fast
