// Batched closest feature: queries in structure-of-arrays layout, four at a time in AVX2
// lanes (chosen at run time; otherwise the scalar kernel per query). Every lane evaluates
// the scalar kernel's expressions in the scalar kernel's order (+, -, *, / are correctly
// rounded in both, and the build does not contract into FMA: -std=c++20 implies
// -ffp-contract=off), then picks the region with the same precedence, so the results are
// bit-identical to closest_feature(q) (harness/tests/closest_feature_batch.cpp). The face
// point's fallback for a triangle flat in double (n·n < DBL_MIN) goes through the scalar
// kernel for that query.
#include "fast/closest_feature.hpp"

#include <immintrin.h>

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
#define AVX2 __attribute__((target("avx2")))
using V = __m256d;
struct V3 {
  V x, y, z;
};
AVX2 inline V add(V a, V b) { return _mm256_add_pd(a, b); }
AVX2 inline V sub(V a, V b) { return _mm256_sub_pd(a, b); }
AVX2 inline V mul(V a, V b) { return _mm256_mul_pd(a, b); }
AVX2 inline V div(V a, V b) { return _mm256_div_pd(a, b); }
AVX2 inline V le(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
AVX2 inline V ge(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
AVX2 inline V land(V a, V b) { return _mm256_and_pd(a, b); }
AVX2 inline V pick(V mask, V yes, V no) { return _mm256_blendv_pd(no, yes, mask); }
AVX2 inline V3 sub(const V3& a, const V3& b) { return {sub(a.x, b.x), sub(a.y, b.y), sub(a.z, b.z)}; }
// Eigen's order for a 3-vector: (x0 y0 + x1 y1) + x2 y2.
AVX2 inline V dot(const V3& a, const V3& b) { return add(add(mul(a.x, b.x), mul(a.y, b.y)), mul(a.z, b.z)); }
AVX2 inline V3 axpy(const V3& a, V t, const V3& e) {  // a + t e
  return {add(a.x, mul(t, e.x)), add(a.y, mul(t, e.y)), add(a.z, mul(t, e.z))};
}
AVX2 inline V3 pick(V mask, const V3& yes, const V3& no) {
  return {pick(mask, yes.x, no.x), pick(mask, yes.y, no.y), pick(mask, yes.z, no.z)};
}
AVX2 inline V3 cross(const V3& a, const V3& b) {
  return {sub(mul(a.y, b.z), mul(a.z, b.y)), sub(mul(a.z, b.x), mul(a.x, b.z)),
          sub(mul(a.x, b.y), mul(a.y, b.x))};
}
AVX2 inline V3 load(const std::vector<double>* s, std::size_t i) {
  return {_mm256_loadu_pd(&s[0][i]), _mm256_loadu_pd(&s[1][i]), _mm256_loadu_pd(&s[2][i])};
}

AVX2 inline V code(Region r) { return _mm256_set1_pd(static_cast<int>(r)); }
// Later calls take precedence: lanes in `mask` take the edge point's operands and region r.
AVX2 inline void choose(V mask, V n, V d, const V3& from, const V3& along, Region r, V& num,
                        V& den, V3& base, V3& dir, V& region) {
  num = pick(mask, n, num);
  den = pick(mask, d, den);
  base = pick(mask, from, base);
  dir = pick(mask, along, dir);
  region = pick(mask, code(r), region);
}

// Queries i .. i+3.
AVX2 void four(const ClosestFeatureSoA& in, ClosestFeatureSoAResult& out, std::size_t i) {
  const V3 p = load(in.p, i), a = load(in.a, i), b = load(in.b, i), c = load(in.c, i);
  const V zero = _mm256_setzero_pd();
  const V3 ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const V d1 = dot(ab, ap), d2 = dot(ac, ap);
  const V3 bp = sub(p, b);
  const V d3 = dot(ab, bp), d4 = dot(ac, bp);
  const V3 cp = sub(p, c);
  const V d5 = dot(ab, cp), d6 = dot(ac, cp);
  const V vc = sub(mul(d1, d4), mul(d3, d2));
  const V vb = sub(mul(d5, d2), mul(d1, d6));
  const V va = sub(mul(d3, d6), mul(d5, d4));
  const V e43 = sub(d4, d3), e56 = sub(d5, d6);
  // Region masks in the scalar kernel's order of precedence.
  const V in_v0 = land(le(d1, zero), le(d2, zero));
  const V in_v1 = land(ge(d3, zero), le(d4, d3));
  const V in_v2 = land(ge(d6, zero), le(d5, d6));
  const V in_e0 = land(land(le(vc, zero), ge(d1, zero)), le(d3, zero));
  const V in_e2 = land(land(le(vb, zero), ge(d2, zero)), le(d6, zero));
  const V in_e1 = land(land(le(va, zero), ge(e43, zero)), ge(e56, zero));
  // The face point by projection from the vertex opposite the longest edge (as face_point).
  const V3 cb = sub(c, b), ca = sub(a, c);
  const V lab = dot(ab, ab), lbc = dot(cb, cb), lca = dot(ca, ca);
  const V o_a = land(ge(lbc, lab), ge(lbc, lca));
  const V o_b = _mm256_andnot_pd(o_a, land(ge(lca, lab), ge(lca, lbc)));
  const V3 o = pick(o_a, a, pick(o_b, b, c)), x = pick(o_a, b, pick(o_b, c, a)),
           y = pick(o_a, c, pick(o_b, a, b));
  const V3 n = cross(sub(x, o), sub(y, o));
  const V nn = dot(n, n);
  const V flat = _mm256_cmp_pd(nn, _mm256_set1_pd(std::numeric_limits<double>::min()), _CMP_NGE_UQ);
  // Every non-vertex point is base + (num / den) dir: select the lane's (num, den, base, dir)
  // first, then divide once. The face point p - (dot / nn) n is p + ((-dot) / nn) n exactly
  // (negation is exact), so this is still the scalar kernel's arithmetic.
  const V neg = _mm256_set1_pd(-0.0);
  V num = _mm256_xor_pd(dot(sub(p, o), n), neg), den = nn;
  V3 base = p, dir = n;
  V region = code(Region::face);
  choose(in_e1, e43, add(e43, e56), b, cb, Region::edge1, num, den, base, dir, region);
  choose(in_e2, d2, sub(d2, d6), a, ac, Region::edge2, num, den, base, dir, region);
  choose(in_e0, d1, sub(d1, d3), a, ab, Region::edge0, num, den, base, dir, region);
  V3 point = axpy(base, div(num, den), dir);
  const V in_v = _mm256_or_pd(in_v0, _mm256_or_pd(in_v1, in_v2));
  point = pick(in_v, pick(in_v0, a, pick(in_v1, b, c)), point);
  region = pick(in_v2, code(Region::vertex2), region);
  region = pick(in_v1, code(Region::vertex1), region);
  region = pick(in_v0, code(Region::vertex0), region);
  const V3 dp = sub(p, point);
  const V sq = dot(dp, dp);
  _mm256_storeu_pd(&out.point[0][i], point.x);
  _mm256_storeu_pd(&out.point[1][i], point.y);
  _mm256_storeu_pd(&out.point[2][i], point.z);
  _mm256_storeu_pd(&out.squared_distance[i], sq);
  alignas(32) double reg[4];
  _mm256_store_pd(reg, region);
  for (int k = 0; k < 4; ++k) out.region[i + k] = static_cast<Region>(static_cast<int>(reg[k]));
  // A face lane whose triangle is flat in double: the scalar kernel's edge-point fallback.
  const int fallback = _mm256_movemask_pd(_mm256_cmp_pd(region, code(Region::face), _CMP_EQ_OQ)) &
                       _mm256_movemask_pd(flat);
  if (fallback)
    for (int k = 0; k < 4; ++k)
      if (fallback & (1 << k)) store(closest_feature(query_at(in, i + k)), out, i + k);
}

AVX2 void avx2_range(const ClosestFeatureSoA& in, ClosestFeatureSoAResult& out) {
  std::size_t i = 0;
  for (; i + 4 <= in.size(); i += 4) four(in, out, i);
  scalar_range(in, out, i, in.size());
}
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

bool closest_feature_batch_avx2() {
#if defined(__x86_64__)
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
#else
  return false;
#endif
}

void closest_feature(const ClosestFeatureSoA& in, ClosestFeatureSoAResult& out, bool allow_simd) {
  out.resize(in.size());
#if defined(__x86_64__)
  if (allow_simd && closest_feature_batch_avx2()) return avx2_range(in, out);
#endif
  scalar_range(in, out, 0, in.size());
}

void closest_feature(std::span<const cases::ClosestFeatureQuery> in,
                     std::span<cases::ClosestFeatureResult> out) {
  if (in.size() != out.size()) throw std::invalid_argument("closest_feature: size mismatch");
  const ClosestFeatureSoA soa(in);
  ClosestFeatureSoAResult r;
  closest_feature(soa, r);
  for (std::size_t i = 0; i < in.size(); ++i) {
    for (int k = 0; k < 3; ++k) out[i].point[k] = r.point[k][i];
    out[i].squared_distance = r.squared_distance[i];
    out[i].region = r.region[i];
    out[i].margin = std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace contactbench::fast
