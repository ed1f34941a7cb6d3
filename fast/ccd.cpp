#ifndef CONTACTBENCH_CCD_PASS
#include "fast/ccd.hpp"

#include "fast/error_free.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// The search is compiled more than once from this one file: the part after #else below is
// included here as `baseline` (the target's own instructions: SSE2 on x86-64) and, with GCC
// on x86-64, again under #pragma GCC target as `avx2` (AVX2 + FMA) and `avx512`
// (AVX-512F/DQ/VL), chosen per call by what the CPU has (ccd_planted below). Each pass has
// its own namespace and its own lane width (CONTACTBENCH_CCD_WIDTH: doubles per register of
// the lanes, see V8). The arithmetic is the same in every pass: lane operations are IEEE
// operations per lane, two_prod is an exact FMA either way (a libm call in the baseline pass),
// and this source is compiled with -fno-tree-slp-vectorize and without the precompiled
// header (CMakeLists.txt), because GCC 12's SLP vectorizer fuses a*b + c into vfmaddsub under
// -ffp-contract=off once FMA is enabled, which changed answers (measured: 261 of 3,902
// generated queries with -mfma). The passes give the same answers and searches bit for bit
// (test ccd/fast/instruction_sets_agree).
#define CONTACTBENCH_CCD_PASS baseline
#define CONTACTBENCH_CCD_WIDTH 2
#include "fast/ccd.cpp"
#undef CONTACTBENCH_CCD_PASS
#undef CONTACTBENCH_CCD_WIDTH
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define CONTACTBENCH_CCD_CLONES 1
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#define CONTACTBENCH_CCD_PASS avx2
#define CONTACTBENCH_CCD_WIDTH 4
#include "fast/ccd.cpp"
#undef CONTACTBENCH_CCD_PASS
#undef CONTACTBENCH_CCD_WIDTH
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx2,fma")
#define CONTACTBENCH_CCD_PASS avx512
#define CONTACTBENCH_CCD_WIDTH 8
#include "fast/ccd.cpp"
#undef CONTACTBENCH_CCD_PASS
#undef CONTACTBENCH_CCD_WIDTH
#pragma GCC pop_options
#endif

namespace contactbench::fast {

cases::CcdResult ccd(const cases::CcdQuery& q) { return ccd(q, nullptr); }

cases::CcdResult ccd(const cases::CcdQuery& q, CcdTrace* trace) { return ccd_planted(q, CcdFault::none, trace); }

bool ccd_in_domain(const cases::CcdQuery& q) {
  for (const auto& v : q.x)
    if (!(v.cwiseAbs().maxCoeff() <= 0x1p200)) return false;  // NaN fails too
  return cases::ccd_scale(q) >= 0x1p-200;
}

namespace {
using CcdImpl = cases::CcdResult (*)(const cases::CcdQuery&, CcdFault, CcdTrace*);
CcdImpl ccd_impl(CcdIsa isa) {
#ifdef CONTACTBENCH_CCD_CLONES
  if (isa == CcdIsa::avx512) return avx512::ccd_planted;
  if (isa == CcdIsa::avx2) return avx2::ccd_planted;
#endif
  (void)isa;
  return baseline::ccd_planted;
}
}  // namespace

CcdIsa ccd_best_isa() {
#ifdef CONTACTBENCH_CCD_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return CcdIsa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CcdIsa::avx2;
#endif
  return CcdIsa::baseline;
}

bool ccd_isa_available(CcdIsa isa) {
  switch (isa) {
    case CcdIsa::baseline: return true;
    case CcdIsa::avx2: return ccd_best_isa() != CcdIsa::baseline;
    case CcdIsa::avx512: return ccd_best_isa() == CcdIsa::avx512;
  }
  return false;
}

cases::CcdResult ccd_planted(const cases::CcdQuery& q, CcdFault fault, CcdTrace* trace) {
  static const CcdImpl impl = ccd_impl(ccd_best_isa());
  return impl(q, fault, trace);
}

cases::CcdResult ccd_planted(const cases::CcdQuery& q, CcdFault fault, CcdTrace* trace, CcdIsa isa) {
  if (!ccd_isa_available(isa)) throw std::invalid_argument("fast::ccd_planted: instruction set not available");
  return ccd_impl(isa)(q, fault, trace);
}

double ccd_separation_bound_at(const cases::CcdQuery& q, double t) {
  const cases::Vec3 p0 = q.at(0, t), p1 = q.at(1, t), p2 = q.at(2, t), p3 = q.at(3, t);
  double width;
  if (q.kind == cases::CcdKind::vertex_face) {
    const double longest = std::max({(p2 - p1).norm(), (p3 - p2).norm(), (p1 - p3).norm()});
    width = longest > 0 ? (p2 - p1).cross(p3 - p1).norm() / longest : 0;
  } else {
    const cases::Vec3 ea = p1 - p0, eb = p3 - p2;
    const double longest = std::max(ea.norm(), eb.norm());
    width = longest > 0 ? ea.cross(eb).norm() / longest : 0;
  }
  const double kappa = width > 0 ? cases::ccd_scale(q) / width : 0x1p16;
  return 0x1p-38 * std::clamp(kappa, 4.0, 0x1p16);
}

}  // namespace contactbench::fast

#else  // CONTACTBENCH_CCD_PASS: the search, once per instruction set
// Vectors wider than the baseline's registers pass by value only inside this file (every
// function here is internal): GCC's note that their ABI differs does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
namespace contactbench::fast::CONTACTBENCH_CCD_PASS {
namespace {

constexpr double u = 0x1p-53;             // unit roundoff of double
constexpr double round_up = 1 + 0x1p-50;  // makes a bound computed in round-to-nearest safe

// 2^-k for 0 <= k <= 1022 (interval widths; k <= 100 here), built from its exponent bits:
// the same double as std::ldexp(1.0, -k), without a libm call per search node.
inline double pow2_neg(int k) { return std::bit_cast<double>(std::uint64_t(1023 - k) << 52); }

// Eight lanes of doubles in registers of this pass's width (GCC's vector extension: two
// lanes per SSE2 register, four per AVX2, eight per AVX-512). The conditions g_j and the pair
// quadratics are held as lanes, coefficient k of every polynomial side by side, so de
// Casteljau and the sign tests treat all of them at once. Each lane runs exactly the scalar
// IEEE operations of DoubleTraits / DDTraits below in the same order (no fused or reordered
// arithmetic), so coefficients, bounds and decisions are bit for bit those of one
// polynomial at a time.
constexpr int nlanes = 8;
constexpr int vw = CONTACTBENCH_CCD_WIDTH;  // doubles per register (of this pass)
// The alignment is explicit: without -mavx, GCC caps a vector type's alignment at 16 bytes,
// while the code compiled under #pragma GCC target("avx2") assumes 32 (aligned loads).
using Reg = double __attribute__((vector_size(8 * vw), aligned(8 * vw)));        // one register
using RegMask = std::int64_t __attribute__((vector_size(8 * vw), aligned(8 * vw)));  // 0 or -1 per lane
constexpr int nreg = nlanes / vw;
struct V8 {
  Reg p[nreg];
  double operator[](int j) const { return p[j / vw][j % vw]; }
  void set(int j, double x) { p[j / vw][j % vw] = x; }  // (clang binds no reference to a lane)
};
struct M8 {
  RegMask p[nreg];
};
// Lane-wise operations, each the scalar operation on every lane.
template <class R, class A, class B, class F>
[[gnu::always_inline]] inline R lanewise(const A& a, const B& b, F f) {
  R r;
  for (int i = 0; i < nreg; ++i) r.p[i] = f(a.p[i], b.p[i]);
  return r;
}
[[gnu::always_inline]] inline V8 operator+(const V8& a, const V8& b) {
  return lanewise<V8>(a, b, [](Reg x, Reg y) { return x + y; });
}
[[gnu::always_inline]] inline V8 operator-(const V8& a, const V8& b) {
  return lanewise<V8>(a, b, [](Reg x, Reg y) { return x - y; });
}
[[gnu::always_inline]] inline V8 operator*(const V8& a, double k) {
  return lanewise<V8>(a, a, [k](Reg x, Reg) { return x * k; });
}
[[gnu::always_inline]] inline V8 operator*(double k, const V8& a) {
  return lanewise<V8>(a, a, [k](Reg x, Reg) { return k * x; });
}
[[gnu::always_inline]] inline V8 operator+(const V8& a, double k) {
  return lanewise<V8>(a, a, [k](Reg x, Reg) { return x + k; });
}
[[gnu::always_inline]] inline V8 operator-(const V8& a) {
  return lanewise<V8>(a, a, [](Reg x, Reg) { return -x; });
}
[[gnu::always_inline]] inline V8& operator+=(V8& a, const V8& b) { return a = a + b; }
[[gnu::always_inline]] inline M8 operator<(const V8& a, const V8& b) {
  return lanewise<M8>(a, b, [](Reg x, Reg y) { return x < y; });
}
[[gnu::always_inline]] inline M8 operator>(const V8& a, const V8& b) {
  return lanewise<M8>(a, b, [](Reg x, Reg y) { return x > y; });
}
[[gnu::always_inline]] inline M8 operator<(const V8& a, double k) {
  return lanewise<M8>(a, a, [k](Reg x, Reg) { return x < k; });
}
[[gnu::always_inline]] inline M8 operator>(const V8& a, double k) {
  return lanewise<M8>(a, a, [k](Reg x, Reg) { return x > k; });
}
[[gnu::always_inline]] inline M8 operator&(const M8& a, const M8& b) {
  return lanewise<M8>(a, b, [](RegMask x, RegMask y) { return x & y; });
}
[[gnu::always_inline]] inline M8 operator|(const M8& a, const M8& b) {
  return lanewise<M8>(a, b, [](RegMask x, RegMask y) { return x | y; });
}
[[gnu::always_inline]] inline M8& operator&=(M8& a, const M8& b) { return a = a & b; }
// std::abs and std::max(a, b) = (a < b ? b : a) per lane.
[[gnu::always_inline]] inline V8 vabs(const V8& a) {
  return lanewise<V8>(a, a, [](Reg x, Reg) { return (Reg)((RegMask)x & 0x7fffffffffffffffLL); });
}
[[gnu::always_inline]] inline V8 vmax(const V8& a, const V8& b) {
  return lanewise<V8>(a, b, [](Reg x, Reg y) { return x < y ? y : x; });
}
inline unsigned bits(const M8& m) {  // lane l true -> bit l
#if CONTACTBENCH_CCD_WIDTH == 8
  return _mm512_movepi64_mask((__m512i)m.p[0]);
#elif CONTACTBENCH_CCD_WIDTH == 4
  return unsigned(_mm256_movemask_pd((__m256d)m.p[0])) | unsigned(_mm256_movemask_pd((__m256d)m.p[1])) << 4;
#elif defined(__SSE2__)
  unsigned r = 0;
  for (int i = 0; i < nreg; ++i) r |= unsigned(_mm_movemask_pd((__m128d)m.p[i])) << (2 * i);
  return r;
#else
  unsigned r = 0;
  for (int l = 0; l < nlanes; ++l) r |= unsigned(m.p[l / vw][l % vw] & 1) << l;
  return r;
#endif
}

// ---------------------------------------------------------------------------------------
// Double-double numbers (unevaluated sums hi + lo) for the second stage. Algorithms and
// error bounds: Joldes, Muller, Popescu, "Tight and rigorous error bounds for basic
// building blocks of double-word arithmetic", ACM TOMS 44(2), 2017: AccurateDWPlusDW has
// relative error <= 3u^2 / (1 - 4u), DWTimesDW1 <= 7u^2. We use 8u^2 per operation. The
// error-free sums and products are fast/error_free.hpp's (products by FMA: exact unless the
// error underflows, which the absolute slack of the bounds covers).
struct DD {
  double hi = 0, lo = 0;
};
inline DD two_sum(double a, double b) {
  DD r;
  fast::two_sum(a, b, r.hi, r.lo);
  return r;
}
inline DD fast_two_sum(double a, double b) {
  DD r;
  fast::fast_two_sum(a, b, r.hi, r.lo);
  return r;
}
inline DD two_prod(double a, double b) {
  DD r;
  fast::two_prod(a, b, r.hi, r.lo);
  return r;
}
inline DD operator+(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  const DD t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = fast_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return fast_two_sum(s.hi, s.lo);
}
inline DD operator-(DD a) { return {-a.hi, -a.lo}; }
inline DD operator-(DD a, DD b) { return a + (-b); }
inline DD operator*(DD a, DD b) {
  DD p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum(p.hi, p.lo);
}
// Double-double sums of lanes (V8 here, V4 below), operation for operation operator+ above.
template <class V>
inline void two_sum(V a, V b, V& hi, V& lo) {
  hi = a + b;
  const V bv = hi - a, av = hi - bv;
  lo = (a - av) + (b - bv);
}
template <class V>
inline void fast_two_sum(V a, V b, V& hi, V& lo) {
  hi = a + b;
  lo = b - (hi - a);
}
template <class V>
inline void add(V ah, V al, V bh, V bl, V& hi, V& lo) {
  V sh, sl, th, tl;
  two_sum(ah, bh, sh, sl);
  two_sum(al, bl, th, tl);
  sl += th;
  fast_two_sum(sh, sl, sh, sl);
  sl += tl;
  fast_two_sum(sh, sl, hi, lo);
}
// 1/k to double-double accuracy (|error| <= u^2 relative).
inline DD inverse(double k) {
  const double h = 1.0 / k;
  const DD p = two_prod(k, h);  // exact
  return {h, ((1.0 - p.hi) - p.lo) / k};
}
// The constants of the Bernstein products, once per program (not a division per product).
const DD third = inverse(3), two_thirds{2 * third.hi, 2 * third.lo}, sixth = inverse(6);

// Scalar traits: the per-coefficient bound factor (>= gamma_13 of the scalar's unit
// roundoff, with slack for the double evaluation of the magnitude tree), the per-average
// bound of de Casteljau, and conservative sign tests of value +- e.
struct DoubleTraits {
  using S = double;
  static constexpr double coef_rel = 0x1p-49;  // 16 u >= gamma_13
  static constexpr double avg_rel = u * (1 + 0x1p-40);
  static S from(double a) { return a; }
  static S diff(double a, double b) { return a - b; }  // one rounding
  static double mag(S a) { return std::abs(a); }
  static S half_sum(S a, S b) { return (a + b) * 0.5; }
  static S scale(S a, double k) { return a * k; }
  static bool above(S a, double e) { return a > e; }
  static bool below(S a, double e) { return a < -e; }
  // The same on lanes.
  struct Lanes {
    V8 v;
    S get(int j) const { return v[j]; }
    void set(int j, S x) { v.set(j, x); }
  };
  static Lanes half_sum(const Lanes& a, const Lanes& b) { return {(a.v + b.v) * 0.5}; }
  static V8 mag(const Lanes& a) { return vabs(a.v); }
  static M8 above(const Lanes& a, V8 e) { return a.v > e; }
  static M8 below(const Lanes& a, V8 e) { return a.v < -e; }
};
struct DDTraits {
  using S = DD;
  // Leaves are exact (TwoSum), depth <= 12 roundings of <= 8u^2 each: 96 u^2 < 2^-99; the
  // constant 2^-97 leaves slack for the double evaluation of the magnitude tree.
  static constexpr double coef_rel = 0x1p-97;
  static constexpr double avg_rel = 8 * u * u * (1 + 0x1p-40);
  static S from(double a) { return {a, 0}; }
  static S diff(double a, double b) { return two_sum(a, -b); }  // exact
  static double mag(S a) { return std::abs(a.hi) * (1 + 0x1p-50); }
  static S half_sum(S a, S b) {
    const S s = a + b;
    return {s.hi * 0.5, s.lo * 0.5};
  }
  static S scale(S a, double k) {
    // k in {1/2, 1/3, 2/3, 1/6}: multiply by the double-double of k (one more rounding).
    if (k == 0.5) return {a.hi * 0.5, a.lo * 0.5};
    if (k == 1.0 / 3.0) return a * third;
    if (k == 2.0 / 3.0) return a * two_thirds;
    return a * sixth;  // 1/6
  }
  // value = hi + lo with |lo| <= u |hi|: hi (1 - 2u) bounds |value| from below.
  static bool above(S a, double e) { return a.hi > 0 && a.hi * (1 - 0x1p-51) > e * round_up; }
  static bool below(S a, double e) { return a.hi < 0 && -a.hi * (1 - 0x1p-51) > e * round_up; }
  // The same on lanes (high and low parts in separate vectors).
  struct Lanes {
    V8 hi, lo;
    S get(int j) const { return {hi[j], lo[j]}; }
    void set(int j, S x) { hi.set(j, x.hi), lo.set(j, x.lo); }
  };
  static Lanes half_sum(const Lanes& a, const Lanes& b) {
    Lanes s;
    add(a.hi, a.lo, b.hi, b.lo, s.hi, s.lo);
    return {s.hi * 0.5, s.lo * 0.5};
  }
  static V8 mag(const Lanes& a) { return vabs(a.hi) * (1 + 0x1p-50); }
  static M8 above(const Lanes& a, V8 e) { return (a.hi > 0) & (a.hi * (1 - 0x1p-51) > e * round_up); }
  static M8 below(const Lanes& a, V8 e) { return (a.hi < 0) & (-a.hi * (1 - 0x1p-51) > e * round_up); }
};

// A value and its absolute-value twin: the same expression tree evaluated on |inputs| with
// every subtraction turned into an addition (the A of the forward error bound), in double.
template <class T>
struct VM {
  typename T::S v;
  double m;
};
template <class T> VM<T> operator+(VM<T> a, VM<T> b) { return {a.v + b.v, a.m + b.m}; }
template <class T> VM<T> operator-(VM<T> a, VM<T> b) { return {a.v - b.v, a.m + b.m}; }
template <class T> VM<T> operator*(VM<T> a, VM<T> b) { return {a.v * b.v, a.m * b.m}; }
template <class T> VM<T> scale(VM<T> a, double k) { return {T::scale(a.v, k), a.m * k}; }

template <class T>
struct V3 {
  VM<T> x, y, z;
  VM<T> at(int k) const { return k == 0 ? x : (k == 1 ? y : z); }
};
template <class T> V3<T> operator+(const V3<T>& a, const V3<T>& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T> V3<T> operator-(const V3<T>& a, const V3<T>& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T> V3<T> scale(const V3<T>& a, double k) { return {scale(a.x, k), scale(a.y, k), scale(a.z, k)}; }
template <class T> V3<T> cross(const V3<T>& a, const V3<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class T> VM<T> dot(const V3<T>& a, const V3<T>& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Difference of two input points: the leaves of every tree.
template <class T>
V3<T> diff(const cases::Vec3& a, const cases::Vec3& b) {
  V3<T> r;
  VM<T>* c[3] = {&r.x, &r.y, &r.z};
  for (int k = 0; k < 3; ++k) {
    const auto d = T::diff(a[k], b[k]);
    *c[k] = {d, T::mag(d)};
  }
  return r;
}

// ---------------------------------------------------------------------------------------
// 3-vectors with the components as lanes x, y, z of four (the fourth 0): a difference, sum,
// cross or dot product is one lane operation instead of three. Every lane runs the scalar
// operation of the generic V3 in the same order, so values and magnitudes are the same bit
// for bit. Only in the passes with AVX2 and FMA: in the baseline pass the shuffles of four
// lanes in SSE2 registers cost more than the scalar code (doubles: median public query
// 0.31 -> 0.76 us), and double-double lanes would need a libm fma call per lane (1.6x
// slower). Four lanes also carry the swept boxes (Boxes), in every pass.
using V4 = double __attribute__((vector_size(32), aligned(32)));
using M4 = std::int64_t __attribute__((vector_size(32), aligned(32)));
inline V4 vmin(V4 a, V4 b) { return b < a ? b : a; }  // std::min(a, b) per lane
inline V4 vmax(V4 a, V4 b) { return a < b ? b : a; }  // std::max(a, b) per lane
inline V4 vabs(V4 x) { return (V4)((M4)x & 0x7fffffffffffffffLL); }
#if CONTACTBENCH_CCD_WIDTH >= 4
constexpr M4 yzx{1, 2, 0, 3}, zxy{2, 0, 1, 3};  // lane orders for cross products
// Doubles: the double stage's root node, most of a cheap query's time (GCC's SLP vectorizer
// did this before it had to be switched off, see CMakeLists.txt).
template <>
struct V3<DoubleTraits> {
  V4 v, m;
  VM<DoubleTraits> at(int k) const { return {v[k], m[k]}; }
};
using V3d = V3<DoubleTraits>;
inline V3d operator+(const V3d& a, const V3d& b) { return {a.v + b.v, a.m + b.m}; }
inline V3d operator-(const V3d& a, const V3d& b) { return {a.v - b.v, a.m + b.m}; }
inline V3d scale(const V3d& a, double k) { return {a.v * k, a.m * k}; }
inline V3d permute(const V3d& a, M4 order) { return {__builtin_shuffle(a.v, order), __builtin_shuffle(a.m, order)}; }
inline V3d cross(const V3d& a, const V3d& b) {
  const V3d a1 = permute(a, yzx), b1 = permute(b, zxy), a2 = permute(a, zxy), b2 = permute(b, yzx);
  return {a1.v * b1.v - a2.v * b2.v, a1.m * b1.m + a2.m * b2.m};
}
inline VM<DoubleTraits> dot(const V3d& a, const V3d& b) {
  const V3d p{a.v * b.v, a.m * b.m};
  return p.at(0) + p.at(1) + p.at(2);
}
template <>
inline V3d diff<DoubleTraits>(const cases::Vec3& a, const cases::Vec3& b) {
  const V4 d = V4{a[0], a[1], a[2], 0} - V4{b[0], b[1], b[2], 0};
  return {d, vabs(d)};
}
// Double-doubles: the double-double stage's span evaluations (most of its time); the
// products' error terms by an exact FMA per lane.
// fma(a, b, -p) per lane: exact for the error term of p = a·b (as fast::two_prod).
inline V4 fms(V4 a, V4 b, V4 p) { return (V4)_mm256_fmsub_pd((__m256d)a, (__m256d)b, (__m256d)p); }
struct DD4 {
  V4 hi, lo;
};
inline DD4 operator+(const DD4& a, const DD4& b) {  // as operator+(DD, DD)
  DD4 r;
  add(a.hi, a.lo, b.hi, b.lo, r.hi, r.lo);
  return r;
}
inline DD4 operator-(const DD4& a) { return {-a.hi, -a.lo}; }
inline DD4 operator*(const DD4& a, const DD4& b) {  // as operator*(DD, DD)
  const V4 p = a.hi * b.hi;
  V4 e = fms(a.hi, b.hi, p);
  e += a.hi * b.lo + a.lo * b.hi;
  DD4 r;
  fast_two_sum(p, e, r.hi, r.lo);
  return r;
}
inline DD4 splat(DD a) { return {V4{} + a.hi, V4{} + a.lo}; }
template <>
struct V3<DDTraits> {
  DD4 v;
  V4 m;
  VM<DDTraits> at(int k) const { return {{v.hi[k], v.lo[k]}, m[k]}; }
};
using V3D = V3<DDTraits>;
inline V3D operator+(const V3D& a, const V3D& b) { return {a.v + b.v, a.m + b.m}; }
inline V3D operator-(const V3D& a, const V3D& b) { return {a.v + -b.v, a.m + b.m}; }
inline V3D scale(const V3D& a, double k) {  // as DDTraits::scale per lane
  if (k == 0.5) return {{a.v.hi * 0.5, a.v.lo * 0.5}, a.m * k};
  return {a.v * splat(k == 1.0 / 3.0 ? third : (k == 2.0 / 3.0 ? two_thirds : sixth)), a.m * k};
}
inline V3D permute(const V3D& a, M4 order) {
  return {{__builtin_shuffle(a.v.hi, order), __builtin_shuffle(a.v.lo, order)}, __builtin_shuffle(a.m, order)};
}
inline V3D cross(const V3D& a, const V3D& b) {
  const V3D a1 = permute(a, yzx), b1 = permute(b, zxy), a2 = permute(a, zxy), b2 = permute(b, yzx);
  return {a1.v * b1.v + -(a2.v * b2.v), a1.m * b1.m + a2.m * b2.m};
}
inline VM<DDTraits> dot(const V3D& a, const V3D& b) {
  const V3D p{a.v * b.v, a.m * b.m};
  return p.at(0) + p.at(1) + p.at(2);
}
// The exact differences a - b of the three coordinates (TwoSum), and their magnitudes.
inline DD4 diff4(const cases::Vec3& a, const cases::Vec3& b) {
  const V4 x{a[0], a[1], a[2], 0}, y{b[0], b[1], b[2], 0};
  DD4 d;
  two_sum(x, -y, d.hi, d.lo);
  return d;
}
inline V4 mag(const DD4& d) { return vabs(d.hi) * (1 + 0x1p-50); }
#endif

// A linear vector function of t (Bernstein coefficients at t = 0 and t = 1), and quadratic
// ones (cross products of two linear ones).
template <class T> using Lin = std::array<V3<T>, 2>;
template <class T> using Quad = std::array<V3<T>, 3>;
// The sub-interval [ta, tb] of [0, 1] the coefficients are taken over (exact double-double
// numbers: the double-double stage places spans closer than a double's spacing).
struct Span {
  DD ta{0, 0}, tb{1, 0};
  DD sa = DD{1, 0} - ta, sb = DD{1, 0} - tb;  // 1 - t at both ends, once per span
  Span() = default;
  Span(DD a, DD b) : ta(a), tb(b) {}
  bool whole() const { return ta.hi == 0 && ta.lo == 0 && tb.hi == 1 && tb.lo == 0; }
};
// a(t) - b(t) at t in (0, 1), in double-double: (1 - t) d0 + t d1 with d0, d1 exact (TwoSum)
// and three roundings along any path (1 - t, each product, the sum; each <= 8u^2 relative
// to its exact result), so |computed - exact| <= gamma_3 ((1 - t) |d0| + t |d1|): that is its
// magnitude, no larger than at the ends (the form d0 + t (d1 - d0) would give
// |d0| + t (|d0| + |d1|), up to twice as much per leaf and 16 times for a degree-4 tree).
// (s = 1 - t.)
#if CONTACTBENCH_CCD_WIDTH >= 4
inline V3D diff_at(const DD4& d0, const DD4& d1, DD t, DD s) {
  const DD4 ss = splat(s), tt = splat(t);
  return {ss * d0 + tt * d1, DDTraits::mag(s) * mag(d0) + DDTraits::mag(t) * mag(d1)};
}
#else
inline V3<DDTraits> diff_at(const cases::Vec3& a0, const cases::Vec3& b0, const cases::Vec3& a1,
                            const cases::Vec3& b1, DD t, DD s) {
  V3<DDTraits> r;
  VM<DDTraits>* c[3] = {&r.x, &r.y, &r.z};
  for (int k = 0; k < 3; ++k) {
    const DD d0 = DDTraits::diff(a0[k], b0[k]), d1 = DDTraits::diff(a1[k], b1[k]);
    *c[k] = {s * d0 + t * d1, DDTraits::mag(s) * DDTraits::mag(d0) + DDTraits::mag(t) * DDTraits::mag(d1)};
  }
  return r;
}
#endif
template <class T>
Lin<T> lin(const cases::Vec3& a0, const cases::Vec3& b0, const cases::Vec3& a1, const cases::Vec3& b1,
           const Span& s) {
  // Only the double-double stage works on sub-intervals (the double stage's bound counts
  // one rounding per leaf, so it always runs over [0, 1]).
#if CONTACTBENCH_CCD_WIDTH >= 4
  if constexpr (std::is_same_v<T, DDTraits>) {
    const DD4 d0 = diff4(a0, b0), d1 = diff4(a1, b1);
    if (!s.whole()) return {diff_at(d0, d1, s.ta, s.sa), diff_at(d0, d1, s.tb, s.sb)};
    return {V3D{d0, mag(d0)}, V3D{d1, mag(d1)}};  // a(t) - b(t)
  } else {
    return {diff<T>(a0, b0), diff<T>(a1, b1)};
  }
#else
  if constexpr (std::is_same_v<T, DDTraits>)
    if (!s.whole()) return {diff_at(a0, b0, a1, b1, s.ta, s.sa), diff_at(a0, b0, a1, b1, s.tb, s.sb)};
  return {diff<T>(a0, b0), diff<T>(a1, b1)};
#endif
}
template <class T>
Quad<T> cross(const Lin<T>& a, const Lin<T>& b) {
  return {cross(a[0], b[0]), scale(cross(a[0], b[1]) + cross(a[1], b[0]), 0.5), cross(a[1], b[1])};
}
template <class T>
Quad<T> sub(const Quad<T>& a, const Quad<T>& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

// Bernstein coefficients (degree 3) of quadratic . linear.
template <class T>
std::array<VM<T>, 4> dot3(const Quad<T>& n, const Lin<T>& d) {
  constexpr double third = 1.0 / 3.0, two_thirds = 2.0 / 3.0;
  return {dot(n[0], d[0]), scale(dot(n[1], d[0]), two_thirds) + scale(dot(n[0], d[1]), third),
          scale(dot(n[2], d[0]), third) + scale(dot(n[1], d[1]), two_thirds), dot(n[2], d[1])};
}
// Bernstein coefficients (degree 4) of quadratic . quadratic.
template <class T>
std::array<VM<T>, 5> dot4(const Quad<T>& a, const Quad<T>& b) {
  constexpr double sixth = 1.0 / 6.0, two_thirds = 2.0 / 3.0;
  return {dot(a[0], b[0]), scale(dot(a[0], b[1]) + dot(a[1], b[0]), 0.5),
          scale(dot(a[0], b[2]), sixth) + scale(dot(a[1], b[1]), two_thirds) +
              scale(dot(a[2], b[0]), sixth),
          scale(dot(a[1], b[2]) + dot(a[2], b[1]), 0.5), dot(a[2], b[2])};
}
template <class T>
std::array<VM<T>, 5> minus(const std::array<VM<T>, 5>& a, const std::array<VM<T>, 5>& b) {
  std::array<VM<T>, 5> r;
  for (int k = 0; k < 5; ++k) r[k] = a[k] - b[k];
  return r;
}

// Polynomials of one query in Bernstein form on the current sub-interval, with bounds:
// f = 0 is necessary for contact, and so is g_j >= 0 for every j. The g_j and the pairs are
// lanes (see V8): g[k] holds coefficient k of g_0 .. g_5 (lanes 6, 7 zero), qa[k] and qb[k]
// coefficient k of the two quadratics of pair 0 .. 5.
template <class T>
struct Node {
  using S = typename T::S;
  using Lanes = typename T::Lanes;
  S f[4];
  double ef;
  Lanes g[5];
  V8 eg;
  // Pairs i = (qa, qb) = (n_k - c_k, n_k + c_k) of quadratics with c_k = lambda n_k,
  // lambda in [0, 1], at any contact: |c_k| <= |n_k|, so the two never have strictly
  // opposite signs. Linear in the gap, unlike the squared-norm conditions, so it separates
  // nearly parallel edges (degenerate triangles) at distances down to the error bound.
  Lanes qa[3], qb[3];
  V8 eqa, eqb;
  // Conditions still able to exclude a sub-interval: bit j for g_j, bit 8 + i for pair i.
  // A condition whose coefficients are certainly positive on an interval
  // (every one above its bound) cannot exclude any sub-interval of it: de Casteljau children
  // are convex combinations of the exact coefficients, so they stay > 0 exactly, and a
  // computed child coefficient is then > -(its bound), never below it. The same holds for a
  // pair both of whose quadratics have one certain sign (the pair excludes only with strictly
  // opposite signs). Search::run stops testing such a condition (dead); this
  // never turns a hit into a miss, since a dead condition's test could only have answered
  // "not excluded". For contact_certain a dead g_j is certainly positive on the interval (its
  // exact values were, on an ancestor holding it), which is what that test asks.
  unsigned live = ~0u;
};

// Which lanes of g (bit j) and of the pairs (bit i) certainly exclude the interval, and which
// are certainly positive (g) or of one certain sign each (pairs): every coefficient below -e,
// resp. above e (lane_all_below / lane_all_above below, for one lane), on all lanes at once.
struct LaneSigns {
  unsigned g_below, g_above, pair_excludes, pair_dead;
};
template <class T>
LaneSigns lane_signs(const Node<T>& n, bool pairs) {
  M8 gb = T::below(n.g[0], n.eg), ga = T::above(n.g[0], n.eg);
  for (int k = 1; k <= 4; ++k) {
    gb &= T::below(n.g[k], n.eg);
    ga &= T::above(n.g[k], n.eg);
  }
  LaneSigns r{bits(gb), bits(ga), 0, 0};
  if (pairs) {
    M8 ab = T::below(n.qa[0], n.eqa), aa = T::above(n.qa[0], n.eqa);
    M8 bb = T::below(n.qb[0], n.eqb), ba = T::above(n.qb[0], n.eqb);
    for (int k = 1; k <= 2; ++k) {
      ab &= T::below(n.qa[k], n.eqa);
      aa &= T::above(n.qa[k], n.eqa);
      bb &= T::below(n.qb[k], n.eqb);
      ba &= T::above(n.qb[k], n.eqb);
    }
    r.pair_excludes = bits((ab & ba) | (aa & bb));
    r.pair_dead = bits((aa & ba) | (ab & bb));
  }
  return r;
}
// The scalar tests of lane j (the root node's early exits, one condition at a time).
template <class T, int D>
bool lane_all_below(const typename T::Lanes* c, int j, double e) {
  for (int k = 0; k <= D; ++k)
    if (!T::below(c[k].get(j), e)) return false;
  return true;
}
template <class T, int D>
bool lane_all_above(const typename T::Lanes* c, int j, double e) {
  for (int k = 0; k <= D; ++k)
    if (!T::above(c[k].get(j), e)) return false;
  return true;
}

template <class T, std::size_t N>
double coefs_out(const std::array<VM<T>, N>& in, typename T::S* out) {
  double a = 0;
  for (std::size_t k = 0; k < N; ++k) {
    out[k] = in[k].v;
    a = std::max(a, in[k].m);
  }
  // The absolute slack covers gradual underflow (2^-1060 did before; larger only adds
  // margin). It is 2^-1022, the smallest normal double,
  // not a subnormal one (it was 2^-1060): a subnormal bound makes every operation on it a
  // microcode assist (~100 cycles), and conditions that vanish identically (parallel edges:
  // m = 0, every magnitude 0) carried only the slack, which made them the slowest queries
  // (5x). Why it cannot turn a hit into a miss: a larger bound only makes the exclusion tests
  // harder to pass; and where something can be excluded at all (scale >= 2^-200, degree-4
  // magnitudes >= 2^-800), 2^-1022 is still below 2^-220 of the values, so no test changed on
  // the generated sets (same nodes and answers per query).
  return (T::coef_rel * a + 0x1p-1022) * round_up;
}
// The same into lane j of coefficient lanes.
template <class T, std::size_t N>
double coefs_out(const std::array<VM<T>, N>& in, typename T::Lanes* out, int j) {
  typename T::S c[N];
  const double e = coefs_out<T>(in, c);
  for (std::size_t k = 0; k < N; ++k) out[k].set(j, c[k]);
  return e;
}

// De Casteljau at 1/2 of c[0..D] (halves: into l and r, h the average; split: also the
// bound it adds to the coefficients' error, returned): each average has error <= avg_rel
// |a + b| / 2 (+ underflow), and averages of bounded errors stay bounded, so D levels add
// D (avg_rel max|c| + 2^-1022) (a normal slack, as in coefs_out; it was 2^-1070, larger only
// makes exclusion harder). Written out per degree, every value in a local: the same averages
// in the same order as the triangle of de Casteljau (so bit for bit the same coefficients,
// nothing a test decides changes), but without the loop over a stack array, which the
// compiler turned into scalar stores read back as vector loads (store-forwarding stalls; the
// split was the double search's hot spot). r may alias c (the right half overwrites the
// parent): c is read first.
template <int D, class C, class H>
[[gnu::always_inline]] inline void halves(const C* c, C* l, C* r, H h) {
  static_assert(D >= 2 && D <= 4);
  if constexpr (D == 2) {
    const C c0 = c[0], c1 = c[1], c2 = c[2];
    const C a0 = h(c0, c1), a1 = h(c1, c2), b0 = h(a0, a1);
    l[0] = c0, l[1] = a0, l[2] = b0;
    r[0] = b0, r[1] = a1, r[2] = c2;
  } else if constexpr (D == 3) {
    const C c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
    const C a0 = h(c0, c1), a1 = h(c1, c2), a2 = h(c2, c3);
    const C b0 = h(a0, a1), b1 = h(a1, a2), d0 = h(b0, b1);
    l[0] = c0, l[1] = a0, l[2] = b0, l[3] = d0;
    r[0] = d0, r[1] = b1, r[2] = a2, r[3] = c3;
  } else {
    const C c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3], c4 = c[4];
    const C a0 = h(c0, c1), a1 = h(c1, c2), a2 = h(c2, c3), a3 = h(c3, c4);
    const C b0 = h(a0, a1), b1 = h(a1, a2), b2 = h(a2, a3);
    const C d0 = h(b0, b1), d1 = h(b1, b2), e0 = h(d0, d1);
    l[0] = c0, l[1] = a0, l[2] = b0, l[3] = d0, l[4] = e0;
    r[0] = e0, r[1] = d1, r[2] = b2, r[3] = a3, r[4] = c4;
  }
}
template <class T, int D>
double split(const typename T::S* c, typename T::S* l, typename T::S* r) {
  double mx = 0;
  for (int i = 0; i <= D; ++i) mx = std::max(mx, T::mag(c[i]));
  halves<D>(c, l, r, [](typename T::S a, typename T::S b) { return T::half_sum(a, b); });
  return D * (T::avg_rel * mx + 0x1p-1022) * round_up;
}
// The same on lanes: every lane is split as split() splits one polynomial (the same averages
// in the same order) and gets its own bound.
template <class T, int D>
V8 split(const typename T::Lanes* c, typename T::Lanes* l, typename T::Lanes* r) {
  V8 mx{};
  for (int i = 0; i <= D; ++i) mx = vmax(mx, T::mag(c[i]));
  using L = typename T::Lanes;
  halves<D>(c, l, r, [](const L& a, const L& b) { return T::half_sum(a, b); });
  return double(D) * (T::avg_rel * mx + 0x1p-1022) * round_up;
}

template <class T, int D>
bool no_root(const typename T::S* c, double e) {  // all > e or all < -e
  bool pos = true, neg = true;
  for (int i = 0; i <= D; ++i) {
    pos = pos && T::above(c[i], e);
    neg = neg && T::below(c[i], e);
  }
  return pos || neg;
}

// Swept boxes over a sub-interval [t0, t1]: x(t) = x0 + t (x1 - x0) is linear, so its range
// is spanned by the two end positions. They are computed in double with error at most
// 3 u (|x0| + |x1|) per coordinate (t in [0, 1]; one subtraction, one product, one sum);
// we widen by 4 u (|x0| + |x1|) + 2^-1022 (a normal number: see coefs_out), rounded up.
// The four vertices are the lanes of one vector per axis (minima and maxima are exact, so
// the lanes' order of evaluation changes nothing); inputs are finite here (ccd_planted).
struct Boxes {
  int split;  // vertices [0, split) against [split, 4); 1 or 2
  V4 a[3], d[3], e[3];  // per axis: start, displacement, widening (once per query)
  Boxes(const cases::CcdQuery* q, int split_) : split(split_) {
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k) {
        const double x0 = q->x[i][k], x1 = q->x[i + 4][k];
        a[k][i] = x0;
        d[k][i] = x1 - x0;
        e[k][i] = (4 * u * (std::abs(x0) + std::abs(x1)) + 0x1p-1022) * round_up;
      }
  }
  bool disjoint(double t0, double t1) const {
    for (int k = 0; k < 3; ++k) {
      const V4 p0 = a[k] + t0 * d[k], p1 = a[k] + t1 * d[k];
      const V4 lo = vmin(p0 - e[k], p1 - e[k]), hi = vmax(p0 + e[k], p1 + e[k]);
      const bool two = split == 2;  // vertex 1 with vertex 0, else with 2 and 3
      const double lo0 = two ? std::min(lo[0], lo[1]) : lo[0], hi0 = two ? std::max(hi[0], hi[1]) : hi[0];
      const double lo1 = std::min(two ? lo[2] : std::min(lo[1], lo[2]), lo[3]);
      const double hi1 = std::max(two ? hi[2] : std::max(hi[1], hi[2]), hi[3]);
      if (hi0 < lo1 || hi1 < lo0) return true;
    }
    return false;
  }
};

// What a refinement of a leaf found: the leaf is excluded after all, or not (then toi, and
// whether a contact was proven / the refinement stopped on its budget).
struct Refined {
  bool hit;
  double toi;
  bool certain;
  bool cut;
  bool settled = true;  // false: the refinement could not decide (only for Ask::jump)
};
// What the search asks of a refinement of [b, b + 2^-depth] (everything before `known` >= b
// excluded): jump: settle an unproven interval cheaply or say it cannot; leaf: the block
// around a surviving leaf; pending: an interval the node budget left unvisited; grow: exclude
// the interval by f alone in double-double (one f-only span evaluation) or say it cannot.
enum class Ask { jump, leaf, pending, grow };
// The refinement of the double-double stage itself: none (its leaves are final; what its
// node budget leaves is cut short).
struct NoRefinement {
  Refined operator()(double b, int, double, Ask ask, int&) const {
    return {true, b, false, ask == Ask::pending, ask != Ask::jump && ask != Ask::grow};
  }
};

template <class T>
struct Search {
  int ng;  // number of g polynomials
  int nq;  // number of quadratics in pairs (even)
  int nface;  // g_0 .. g_{nface-1} > 0 with a sign change of f certify a contact
  Boxes boxes;
  int budget;
  int max_depth;   // depth of the leaves below the root interval
  double start;    // the root interval is [start, start + 2^-base_depth] (start a double)
  int base_depth;
  int nodes = 0;  // visited sub-intervals
  int block = 4;  // a surviving leaf is refined with its ancestor this many levels up
  int jump_every = 0;  // unproven intervals at depths that are multiples of it: Ask::jump
  double toi = 1;
  bool certain = false;  // the reported leaf certainly holds a contact
  bool cut = false;      // the search stopped on its node budget, not at a leaf

  // The left end t0 of a sub-interval is tracked exactly as a double-double (a dyadic
  // number with at most base_depth + max_depth <= 100 bits); these give doubles around it.
  static double down(DD t) { return t.lo < 0 ? std::nextafter(t.hi, -1.0) : t.hi; }
  static double up(DD t) { return t.lo > 0 ? std::nextafter(t.hi, 2.0) : t.hi; }
  double width(int depth) const { return pow2_neg(base_depth + depth); }

  // The live lanes: g_0 .. g_(ng-1) and pairs 0 .. nq/2 - 1.
  unsigned live_g(const Node<T>& n) const { return n.live & ((1u << ng) - 1); }
  unsigned live_pairs(const Node<T>& n) const { return n.live >> 8 & ((1u << nq / 2) - 1); }
  // Excluded over [ta, tb]: f has no root, a live g_j is certainly < 0, a live pair has
  // strictly opposite signs, or the swept boxes are disjoint. `signs` keeps the lanes' signs
  // (when f did not decide) for contact_certain and the dead conditions.
  bool excluded_span(const Node<T>& n, double ta, double tb, LaneSigns& signs) const {
    if (no_root<T, 3>(n.f, n.ef)) return true;
    signs = lane_signs(n, live_pairs(n) != 0);
    if ((signs.g_below & live_g(n)) || (signs.pair_excludes & live_pairs(n))) return true;
    return boxes.disjoint(ta, tb);
  }
  bool excluded_span(const Node<T>& n, double ta, double tb) const {
    LaneSigns signs;
    return excluded_span(n, ta, tb, signs);
  }
  // A contact certainly exists in the sub-interval when f takes certified opposite signs at
  // its ends (c_0 and c_3 are the exact end values) and the strict inside conditions hold
  // on all of it: then f has a root there, where the point is strictly inside the triangle
  // (g_k = barycentric coordinate |n|^2 > 0 implies n != 0), resp. the edges cross at
  // interior points of both. Every root of f in such an interval is then a contact, so its
  // sub-intervals only need f: they are excluded when f has no root there, and the first
  // root of f there is t* (everything before the interval was excluded).
  bool contact_certain(const Node<T>& n, unsigned g_above) const {
    const bool change = (T::above(n.f[0], n.ef) && T::below(n.f[3], n.ef)) ||
                        (T::below(n.f[0], n.ef) && T::above(n.f[3], n.ef));
    const unsigned face = (1u << nface) - 1;  // every live g_j, j < nface, certainly > 0
    return change && ((g_above | ~n.live) & face) == face;
  }
  bool contact_certain(const Node<T>& n) const { return contact_certain(n, lane_signs(n, false).g_above); }
  // Depth-first, earliest half first, with an explicit stack (at most one pending right
  // sibling per level, so max_depth + 2 slots) kept per thread on the heap: the recursion
  // would need ~0.4 MB of call stack in double-double. `proven`: an ancestor interval
  // certainly holds a contact; below it only f is split and tested (see contact_certain),
  // and the answer is certain. A leaf that is neither excluded nor proven is handed to
  // `refine` (the double-double stage on that leaf); when it excludes the leaf the search
  // resumes with the next one. Returns true when a leaf survived (or the budget ran out),
  // with toi. The root node must already be in stack_of_thread(max_depth)[0].n.
  struct Item {
    Node<T> n;
    DD t0;
    int depth;
    bool proven;
  };
  static std::vector<Item>& stack_of_thread(int max_depth) {
    thread_local std::vector<Item> stack;
    if (stack.size() < static_cast<std::size_t>(max_depth) + 2) stack.resize(max_depth + 2);
    return stack;
  }
  // After the refinement excluded the aligned interval [b, b + 2^-k] (k below the root),
  // try its aligned ancestors 4, 8, ... levels up, each by f alone in double-double
  // (Ask::grow), until one is not excluded; the pending intervals inside an excluded one are
  // dropped. Why this never turns a hit into a miss: an ancestor is dropped only when the
  // certified f-only test proves f != 0 on all of it (no contact there, the same test that
  // excludes the outer spans of root_spans), and pending intervals are aligned dyadic
  // intervals after the current one, so each lies inside the ancestor or after it. It
  // replaces the descent to depth 48 and the leaf that a long stretch of near contact
  // (coplanar motion, f within the double bound but not within the double-double one)
  // otherwise costs per excluded block. An ancestor that failed is not tried again (the test
  // is deterministic); after a success the next unexcluded interval the search pops is tried
  // the same way first (growing).
  bool growing = false;
  // Stopping ancestors at least this deep are refined at once (see the leaf below; measured
  // on the ccd_tail sets: 12 beats 4, 8, 16 and 20; wider blocks cost more double-double
  // bisection than the double descent they save).
  int direct_min_depth = 12;
  double failed_b = -1;
  int failed_k = -1;
  // Returns the excluded interval reached, [b, b + width(k)], and the ancestor that stopped
  // the growth (up_k < 0: none, the root was reached).
  struct Grown {
    double b;
    int k;
    double up_b;
    int up_k;
  };
  template <class Refine>
  Grown grow(Refine& refine, int& refine_budget, double b, int k, std::size_t& sp) {
    growing = true;
    while (k > 0) {
      const int up_k = std::max(0, k - 4);
      const double w = width(up_k);
      const double b0 = start + std::floor((b - start) / w) * w;  // exact: dyadic
      if (b0 == failed_b && up_k == failed_k) return {b, k, b0, up_k};
      const Refined r = refine(b0, base_depth + up_k, b0, Ask::grow, refine_budget);
      if (!r.settled || r.hit) {
        failed_b = b0;
        failed_k = up_k;
        return {b, k, b0, up_k};
      }
      auto& stack = stack_of_thread(max_depth);
      while (sp > 0 && down(stack[sp - 1].t0) < b0 + w) --sp;
      b = b0;
      k = up_k;
    }
    return {b, k, 0, -1};
  }
  template <class Refine>
  bool run(Refine&& refine, int& refine_budget) {
    auto& stack = stack_of_thread(max_depth);
    stack[0].t0 = DD{start, 0};
    stack[0].depth = 0;
    stack[0].proven = false;
    std::size_t sp = 1;
    while (sp > 0) {
      Item& it = stack[--sp];
      const DD t0 = it.t0;
      const int depth = it.depth;
      if (++nodes > budget) {
        // Out of nodes: this interval and every pending one, earliest first, go to refine
        // (everything before them was excluded).
        for (std::size_t k = sp + 1; k-- > 0;) {
          const Item& p = stack[k];
          const Refined r = p.proven ? Refined{true, down(p.t0), true, false}
                                     : refine(down(p.t0), base_depth + p.depth, down(p.t0), Ask::pending, refine_budget);
          if (!r.hit) continue;
          toi = std::max(down(p.t0), r.toi);
          certain = r.certain;
          cut = r.cut;
          return true;
        }
        return false;
      }
      LaneSigns signs{};
      if (it.proven) {
        if (no_root<T, 3>(it.n.f, it.n.ef)) continue;
      } else if (excluded_span(it.n, down(t0), up(t0 + DD{width(depth), 0}), signs)) {
        continue;
      }
      const bool proven = it.proven || contact_certain(it.n, signs.g_above);
      if (growing && !proven && depth > 0) {
        // The same f-only test on this interval first, while the previous one succeeded
        // (dropping the interval only when f certainly has no root in it: see grow).
        const Refined r = refine(down(t0), base_depth + depth, down(t0), Ask::grow, refine_budget);
        if (r.settled && !r.hit) {
          grow(refine, refine_budget, down(t0), depth, sp);
          continue;
        }
        growing = false;
      }
      if (proven && base_depth + depth >= ccd_max_depth) {
        // A proven interval as narrow as the double stage's leaves is the answer in either
        // stage: a contact certainly exists in its proven ancestor, everything before t0 is
        // excluded (toi = t0 <= t*), and f's first root there is within the leaf or, where f
        // stays within its bound over several leaves, the leaf obeys the resolution bound of
        // a double leaf of the same width (smaller bounds, same variation). It ends a hit,
        // never a miss; the double-double stage used to bisect f alone on to 2^-100.
        toi = down(t0);
        certain = true;
        return true;
      }
      if (depth == max_depth) {
        if (proven) {
          toi = down(t0);
          certain = true;
          return true;
        }
        // The leaf's aligned ancestor `block` levels up goes to refine (the near contact that
        // stopped the double search usually spans several leaves); when it is excluded, so
        // are the pending intervals inside it, and the next refinement takes a block 2^4
        // times wider, so a stretch of any width is covered in a few refinements.
        const int k = std::max(0, depth - block);
        const double w = width(k);
        const double b0 = start + std::floor((down(t0) - start) / w) * w;  // exact: dyadic
        const Refined r = refine(b0, base_depth + k, down(t0), Ask::leaf, refine_budget);
        if (!r.hit) {
          block += 4;
          while (sp > 0 && down(stack[sp - 1].t0) < b0 + w) --sp;
          if constexpr (std::is_same_v<T, DoubleTraits>) {
            // The ancestor that stopped the growth holds the rest of the near contact: it is
            // refined at once (as the block of the next leaf would be), instead of the double
            // search descending to depth 48 in it again. Everything before the end of the
            // excluded interval reached is excluded, so that end is a lower bound of t*.
            const Grown g = grow(refine, refine_budget, b0, k, sp);
            if (g.up_k >= direct_min_depth) {
              const double known = g.b + width(g.k);
              const Refined r2 = refine(g.up_b, base_depth + g.up_k, known, Ask::leaf, refine_budget);
              if (!r2.hit) {
                const double w2 = width(g.up_k);
                while (sp > 0 && down(stack[sp - 1].t0) < g.up_b + w2) --sp;
                continue;
              }
              toi = std::max(known, r2.toi);
              certain = r2.certain;
              cut = r2.cut;
              return true;
            }
          }
          continue;
        }
        toi = std::max(down(t0), r.toi);  // both are certified lower bounds of t*
        certain = r.certain;
        cut = r.cut;
        return true;
      }
      if (!proven && jump_every > 0 && depth % jump_every == 0 && depth > 0) {
        const Refined r = refine(down(t0), base_depth + depth, down(t0), Ask::jump, refine_budget);
        if (!r.settled) jump_every = 0;  // no simple root here: no more jumps for this query
        if (r.settled && !r.hit) {
          grow(refine, refine_budget, down(t0), depth, sp);
          continue;
        }
        if (r.settled) {
          toi = std::max(down(t0), r.toi);
          certain = r.certain;
          cut = r.cut;
          return true;
        }
      }
      // Children: the right half overwrites the parent's slot (split() copies each
      // polynomial before writing), the left half goes on top and is visited first.
      Node<T>& n = it.n;
      Node<T>& l = stack[sp + 1].n;
      const double af = split<T, 3>(n.f, l.f, n.f);
      l.ef = n.ef = (n.ef + af) * round_up;
      if (!proven) {
        // Conditions certainly positive here (or a pair of one certain sign each) are dead
        // for both halves (see Node::live). The live ones are split, all lanes at once (a
        // dead lane's coefficients are never read again).
        n.live &= ~(signs.g_above & 0xffu) & ~((signs.pair_dead & 0xffu) << 8);
        l.live = n.live;
        if (live_g(n)) {
          const V8 ag = split<T, 4>(n.g, l.g, n.g);
          l.eg = n.eg = (n.eg + ag) * round_up;
        }
        if (live_pairs(n)) {
          const V8 aa = split<T, 2>(n.qa, l.qa, n.qa), ab = split<T, 2>(n.qb, l.qb, n.qb);
          l.eqa = n.eqa = (n.eqa + aa) * round_up;
          l.eqb = n.eqb = (n.eqb + ab) * round_up;
        }
      } else {
        l.live = n.live;
      }
      it.t0 = t0 + DD{width(depth + 1), 0};
      it.depth = depth + 1;
      it.proven = proven;
      stack[sp + 1].t0 = t0;
      stack[sp + 1].depth = depth + 1;
      stack[sp + 1].proven = proven;
      sp += 2;
    }
    return false;
  }
};

template <class T>
bool finite_node(const Node<T>& n, int ng) {
  double s = n.ef;
  for (const auto& c : n.f) s += T::mag(c);
  for (int j = 0; j < ng; ++j) {
    s += n.eg[j];
    for (const auto& c : n.g) s += T::mag(c.get(j));
  }
  return std::isfinite(s);
}

// The root node: Bernstein coefficients over [0, 1] of all conditions, with bounds.
// The pairs (n_k - c_k, n_k + c_k), k = x, y, z, of two quadratic vector functions.
template <class T>
void pairs_out(const Quad<T>& n, const Quad<T>& c, Node<T>& root, int& nq) {
  for (int k = 0; k < 3; ++k) {
    auto comp = [k](const V3<T>& v) { return v.at(k); };
    std::array<VM<T>, 3> lo, hi;
    for (int i = 0; i < 3; ++i) {
      lo[i] = comp(n[i]) - comp(c[i]);
      hi[i] = comp(n[i]) + comp(c[i]);
    }
    root.eqa.set(nq / 2, coefs_out<T>(lo, root.qa, nq / 2));
    root.eqb.set(nq / 2, coefs_out<T>(hi, root.qb, nq / 2));
    nq += 2;
  }
}

// With `exclude` (a span evaluation whose only question is "excluded?"), each condition is
// tested as soon as it is computed, with the same certified test as Search::excluded_span,
// and the evaluation stops at the first that excludes (returns true; `root` is then
// incomplete). Why this cannot turn a hit into a miss: exclusion is "some condition proves
// no contact", each test certified on its own coefficients and bound; a condition with
// non-finite values cannot pass its test (every comparison with Inf or NaN against a finite
// or infinite bound is false), so stopping early only skips conditions whose verdict is not
// needed. (The full evaluation then tested finite_node over all conditions first; in the
// domain nothing overflows, so the verdicts are the same.)
template <class T>
bool root_node(const cases::CcdQuery& q, Span span, int& nq, Node<T>& root, CcdFault fault,
               bool f_only = false, const Search<T>* exclude = nullptr) {
  auto f_out = [&] { return exclude && no_root<T, 3>(root.f, root.ef); };
  auto g_out = [&](int j) { return exclude && lane_all_below<T, 4>(root.g, j, root.eg[j]); };
  auto pairs_out_from = [&](int i0) {
    if (!exclude) return false;
    for (int i = i0 / 2; i < i0 / 2 + 3; ++i) {
      const double ea = root.eqa[i], eb = root.eqb[i];
      if ((lane_all_below<T, 2>(root.qa, i, ea) && lane_all_above<T, 2>(root.qb, i, eb)) ||
          (lane_all_above<T, 2>(root.qa, i, ea) && lane_all_below<T, 2>(root.qb, i, eb)))
        return true;
    }
    return false;
  };
  nq = 0;
  root.live = ~0u;
  for (int j = 6; j < nlanes; ++j) {  // unused lanes: zeros (split like the others)
    for (auto& c : root.g) c.set(j, {});
    root.eg.set(j, 0);
  }
  const auto& x = q.x;
  if (q.kind == cases::CcdKind::vertex_face) {
    // p = x0, triangle a = x1, b = x2, c = x3. g_0..2: barycentric coordinates times |n|^2.
    const auto ba = lin<T>(x[2], x[1], x[6], x[5], span), ca = lin<T>(x[3], x[1], x[7], x[5], span);
    const auto pa = lin<T>(x[0], x[1], x[4], x[5], span);
    const auto n = cross(ba, ca);
    root.ef = coefs_out<T>(dot3(n, pa), root.f);
    if (f_only || f_out()) return !f_only;
    const auto pb = lin<T>(x[0], x[2], x[4], x[6], span), pc = lin<T>(x[0], x[3], x[4], x[7], span);
    const auto cb = lin<T>(x[3], x[2], x[7], x[6], span), ac = lin<T>(x[1], x[3], x[5], x[7], span);
    const auto kv = cross(ba, pa);
    root.eg.set(0, coefs_out<T>(dot4(n, kv), root.g, 0));
    if (g_out(0)) return true;
    root.eg.set(1, coefs_out<T>(dot4(n, cross(cb, pb)), root.g, 1));
    if (g_out(1)) return true;
    root.eg.set(2, coefs_out<T>(dot4(n, cross(ac, pc)), root.g, 2));
    if (g_out(2)) return true;
    // p - a = u (b - a) + v (c - a) gives (b-a) x (p-a) = v n, (p-a) x (c-a) = u n,
    // (b-p) x (c-p) = (1-u-v) n, so |.|^2 <= |n|^2: necessary even when n = 0, and it
    // separates a point from a degenerate (collinear) triangle.
    const auto nn = dot4(n, n);
    const auto ku = cross(pa, ca);
    root.eg.set(3, coefs_out<T>(minus(nn, dot4(kv, kv)), root.g, 3));
    if (g_out(3)) return true;
    root.eg.set(4, coefs_out<T>(minus(nn, dot4(ku, ku)), root.g, 4));
    if (g_out(4)) return true;
    const auto bp = lin<T>(x[2], x[0], x[6], x[4], span), cp = lin<T>(x[3], x[0], x[7], x[4], span);
    const auto kw = cross(bp, cp);
    root.eg.set(5, coefs_out<T>(minus(nn, dot4(kw, kw)), root.g, 5));
    if (g_out(5)) return true;
    // (The pairs (n_k -+ lambda n_k) would apply here too; they double the cost per
    // sub-interval and were not needed on the public or generated sets, so they are off.)
  } else {
    // Edge a = x0 x1, edge b = x2 x3; w = b0 - a0; a common point has w = s da - u db.
    const auto da = lin<T>(x[1], x[0], x[5], x[4], span), db = lin<T>(x[3], x[2], x[7], x[6], span);
    const auto w = lin<T>(x[2], x[0], x[6], x[4], span);
    const auto m = cross(da, db);
    root.ef = coefs_out<T>(dot3(m, w), root.f);
    if (f_only || f_out()) return !f_only;
    // = s m and u m at a common point (the planted fault swaps the first cross product)
    const auto ks = fault == CcdFault::ee_cross_sign ? cross(db, w) : cross(w, db);
    const auto ku = cross(w, da);
    root.eg.set(0, coefs_out<T>(dot4(m, ks), root.g, 0));          // s |m|^2 >= 0
    if (g_out(0)) return true;
    root.eg.set(1, coefs_out<T>(dot4(m, sub(m, ks)), root.g, 1));  // (1 - s) |m|^2 >= 0
    if (g_out(1)) return true;
    root.eg.set(2, coefs_out<T>(dot4(m, ku), root.g, 2));          // u |m|^2 >= 0
    if (g_out(2)) return true;
    root.eg.set(3, coefs_out<T>(dot4(m, sub(m, ku)), root.g, 3));  // (1 - u) |m|^2 >= 0
    if (g_out(3)) return true;
    // |s m|^2 <= |m|^2 and |u m|^2 <= |m|^2 hold even for parallel edges (m = 0) and
    // separate parallel edges that are apart.
    const auto mm = dot4(m, m);
    root.eg.set(4, coefs_out<T>(minus(mm, dot4(ks, ks)), root.g, 4));
    if (g_out(4)) return true;
    root.eg.set(5, coefs_out<T>(minus(mm, dot4(ku, ku)), root.g, 5));
    if (g_out(5)) return true;
    for (int i = 6; i < nlanes; ++i) {
      for (auto* c : {&root.qa[0], &root.qa[1], &root.qa[2], &root.qb[0], &root.qb[1], &root.qb[2]}) c->set(i, {});
      root.eqa.set(i, 0);
      root.eqb.set(i, 0);
    }
    pairs_out(m, ks, root, nq);
    if (pairs_out_from(0)) return true;
    pairs_out(m, ku, root, nq);
    if (pairs_out_from(6)) return true;
  }
  return false;
}

// The double search hands unproven intervals at depths 12, 24, 36 to root_spans (Ask::jump).
constexpr int jump_every = 12;

// One stage over span = [ta, ta + 2^-base_depth]: hit (and toi) when the search cannot
// exclude every sub-interval; `certain` when it also proved a contact where it stopped.
template <class T, class Refine>
Refined stage(const cases::CcdQuery& q, Span span, int base_depth, int budget, int max_depth,
              CcdTrace& tr, CcdFault fault, Refine&& refine, int& refine_budget) {
  int nq = 0;
  Node<T>& root = Search<T>::stack_of_thread(max_depth)[0].n;  // built in place
  root_node<T>(q, span, nq, root, fault);
  if (fault == CcdFault::drop_coplanar) {
    // The planted fault: "the coplanarity cubic vanishes, so there is no crossing".
    bool flat = true;
    for (const auto& c : root.f) flat = flat && !T::above(c, root.ef) && !T::below(c, root.ef);
    if (flat) return {false, 1, false, false};
  }
  if (!finite_node(root, 6))  // overflow: no certified search possible
    return {true, Search<T>::down(span.ta), false, true};
  const bool vf = q.kind == cases::CcdKind::vertex_face;
  Search<T> s{6, nq, vf ? 3 : 4, Boxes{&q, vf ? 1 : 2}, budget, max_depth, span.ta.hi, base_depth};
  if (std::is_same_v<T, DoubleTraits>) s.jump_every = jump_every;
  const bool hit = s.run(refine, refine_budget);
  tr.nodes += std::min(s.nodes, budget);
  tr.budget_exhausted = tr.budget_exhausted || s.nodes > budget;
  return {hit, hit ? s.toi : 1, hit && s.certain, hit && s.cut};
}

// f alone on [ta, tb] in double-double proves that f has no root there (certified, as every
// exclusion test). One span evaluation; n holds f's coefficients afterwards.
bool f_excluded_dd(const cases::CcdQuery& q, DD ta, DD tb, CcdFault fault, int& nodes, Node<DDTraits>& n) {
  ++nodes;
  int nq = 0;
  root_node<DDTraits>(q, Span{ta, tb}, nq, n, fault, true);
  return finite_node(n, 0) && no_root<DDTraits, 3>(n.f, n.ef);
}

// The double-double stage's first try on an interval [b, b + w] (a block around a surviving
// leaf, or an unproven interval of the double search): when f has a simple root there (the
// usual case: a contact, or a near miss, on an edge or vertex, or at t = 0 / t = 1),
// bisecting down to 2^-100 costs two nodes per level. Instead, place the root r of f
// (Newton on f's coefficients: a guess only), take h = 8 e_f / |f'(r)|, so f is certainly
// nonzero at distance h from its root, and test the three spans [b, r - h], [r - h, r + h],
// [r + h, b + w] with coefficients computed directly on each. The outer two must be
// excluded by f alone (no root there; f is cheap to compute); the middle one by every
// condition, else it is the leaf of the answer: its width 2h <= 2^-49 puts its conditions
// within the bounds of a double leaf (the stated resolution holds), and everything before it
// is excluded, so toi = r - h (or `known`, if later) is a lower bound of t*. Anything else (f
// excluded on the whole interval: settled; no simple root: coplanar or parallel motion, a
// double root at a graze; a test that fails) returns false. `nodes`: span evaluations.
bool root_spans(const cases::CcdQuery& q, double b, double w, double known, CcdFault fault,
                int& nodes, Refined& out, bool& f_flat) {
  f_flat = false;
  using S = Search<DDTraits>;
  const bool vf = q.kind == cases::CcdKind::vertex_face;
  S s{6, 0, vf ? 3 : 4, Boxes{&q, vf ? 1 : 2}, 0, 0, 0, 0};
  Node<DDTraits> n;
  auto f_excluded = [&](DD ta, DD tb) { return f_excluded_dd(q, ta, tb, fault, nodes, n); };
  auto excluded = [&](DD ta, DD tb) {
    ++nodes;
    if (root_node<DDTraits>(q, Span{ta, tb}, s.nq, n, fault, false, &s)) return true;  // early
    return finite_node(n, 6) && s.excluded_span(n, S::down(ta), S::up(tb));
  };
  const DD lo{b, 0}, hi{b + w, 0};  // b + w is exact (b a multiple of w, w a power of 2)
  if (f_excluded(lo, hi)) {
    out = {false, 1, false, false};
    return true;
  }
  if (!finite_node(n, 0)) return false;
  const double c0 = n.f[0].hi, c1 = n.f[1].hi, c2 = n.f[2].hi, c3 = n.f[3].hi;
  auto value = [&](double x) {
    const double y = 1 - x;
    return y * y * y * c0 + 3 * y * x * (y * c1 + x * c2) + x * x * x * c3;
  };
  auto slope = [&](double x) {  // d/dx
    const double y = 1 - x;
    return 3 * (y * y * (c1 - c0) + 2 * y * x * (c2 - c1) + x * x * (c3 - c2));
  };
  double x = c0 != c3 ? std::clamp(c0 / (c0 - c3), 0.0, 1.0) : 0.5;
  for (int it = 0; it < 6; ++it) {
    const double d = slope(x);
    if (!(std::abs(d) > 0)) return f_flat = true, false;
    x = std::clamp(x - value(x) / d, 0.0, 1.0);
  }
  const double h = 8 * n.ef / std::abs(slope(x)) * w * round_up;  // time units
  if (!(h <= 0x1p-49 && h < w / 8)) return f_flat = true, false;
  DD r = two_sum(b, x * w);  // exact: x w is a double (w a power of 2)
  auto less = [](DD a, DD c) { return a.hi < c.hi || (a.hi == c.hi && a.lo < c.lo); };
  {
    // One Newton step in double-double (a guess still; the spans below certify): the double
    // iterate is only within ~2^-53 w of the root, far more than h on a wide block (a jump
    // of width 2^-12: 2^-65 against h ~ 2^-100), so the root missed the middle span unless
    // it was a dyadic time. f's value at x from its double-double coefficients (de
    // Casteljau) moves it to within about e_f / |f'(r)| = h / 8.
    DD v[4] = {n.f[0], n.f[1], n.f[2], n.f[3]};
    const DD xx{x, 0}, y = DD{1, 0} - xx;
    for (int l = 3; l > 0; --l)
      for (int k = 0; k < l; ++k) v[k] = y * v[k] + xx * v[k + 1];
    const double dx = (v[0].hi + v[0].lo) / slope(x);  // block units
    if (std::abs(dx) < 0x1p-20) {
      r = r + DD{-dx * w, 0};  // dx w exact (w a power of 2)
      if (less(r, lo)) r = lo;
      if (less(hi, r)) r = hi;
    }
  }
  DD r0 = r - DD{h, 0}, r1 = r + DD{h, 0};
  if (less(r0, lo)) r0 = lo;
  if (less(DD{1, 0}, r1)) r1 = DD{1, 0};
  if (less(lo, r0) && !f_excluded(lo, r0)) return false;
  if (!excluded(r0, r1)) {
    // A leaf much wider than the bisection's finest (f nearly flat: parallel, collapsing,
    // coplanar or grazing motion) would give up near misses the bisection down to 2^-100
    // separates (measured with 2^-49 instead: 6 new false positives and 3 fewer in the
    // 200,000 queries of check, seed 1; with 2^-92 none new): let it decide.
    if (h > 0x1p-92) return f_flat = true, false;
    out = {true, std::max(S::down(r0), known), finite_node(n, 6) && s.contact_certain(n), false};
    return true;
  }
  if (less(r1, hi) && !f_excluded(r1, hi)) return false;
  out = {false, 1, false, false};
  return true;
}

// The sweep, for blocks where f has no usable simple root (f identically or nearly zero:
// parallel edges, coplanar motion). Other conditions then decide where exclusion ends: for
// parallel edges the pair quadratics c_k (c = w x db or w x da; the pair (m_k - c_k,
// m_k + c_k) is strictly opposite while |c_k| > |m_k|, and m = 0), for coplanar motion the
// inside conditions g_j (a point entering the triangle across an edge, edges starting to
// cross). The candidate roots of these polynomials in the block (sign changes of their
// double approximations on a grid, bisection, one Newton step in double-double: guesses
// only) cut [b, b + w] into spans [cur, r - h] and [r - h, r + h], h = 8 e / |P'(r)| the
// distance at which P is certainly nonzero, in increasing order; each is tested with every
// condition (Search::excluded_span, certified). The first span that is not excluded ends the
// sweep: it is the answer's leaf when it is a middle span no wider than 2^-91 (as narrow as
// the root-span leaves of root_spans, so the same resolution argument holds; everything
// before it was excluded, so its left end is a lower bound of t*), else the sweep gives up
// (returns false, the block is bisected). All spans excluded up to b + w: no contact there.
// At most max_spans span evaluations (plus the block's own node).
// A span evaluation computes every condition afresh (about 7 bisection nodes' work), so the
// sweep only pays for itself where bisection would go deep: on the first blocks around a
// leaf of the double search (width <= 2^-40), not on the wider ones of a long near contact.
constexpr int sweep_min_depth = 40;
bool sweep_spans(const cases::CcdQuery& q, double b, double w, double known, CcdFault fault,
                 int max_spans, int& nodes, Refined& out) {
  using S = Search<DDTraits>;
  const bool vf = q.kind == cases::CcdKind::vertex_face;
  S s{6, 0, vf ? 3 : 4, Boxes{&q, vf ? 1 : 2}, 0, 0, 0, 0};
  Node<DDTraits> n;
  const DD lo{b, 0}, hi{b + w, 0};
  ++nodes;
  root_node<DDTraits>(q, Span{lo, hi}, s.nq, n, fault);
  if (!finite_node(n, 6)) return false;
  // Candidate polynomials (Bernstein coefficients on the block, degree <= 4) with bounds.
  struct Cand {
    DD c[5];
    int d;
    double e;
  };
  Cand cand[12];
  int nc = 0;
  for (int j = 0; j < s.nface; ++j) {
    cand[nc] = {{}, 4, n.eg[j]};
    for (int k = 0; k <= 4; ++k) cand[nc].c[k] = n.g[k].get(j);
    ++nc;
  }
  for (int i = 0; i < s.nq / 2; ++i) {  // (m_k + c_k) - (m_k - c_k) = 2 c_k
    cand[nc] = {{}, 2, (n.eqa[i] + n.eqb[i]) * round_up};
    for (int k = 0; k <= 2; ++k) cand[nc].c[k] = n.qb[k].get(i) - n.qa[k].get(i);
    ++nc;
  }
  // de Casteljau in double (a guess), per degree so that it unrolls into registers; on a
  // vector X, every lane is the scalar evaluation at its own x.
  auto casteljau = []<int D, class X>(const double* c, X x) {
    X v[D + 1];
    for (int k = 0; k <= D; ++k) v[k] = X{} + c[k];
    for (int l = D; l > 0; --l)
      for (int k = 0; k < l; ++k) v[k] = (1 - x) * v[k] + x * v[k + 1];
    return v[0];
  };
  auto eval = [&](const Cand& p, auto x) {
    double c[5];
    for (int k = 0; k <= p.d; ++k) c[k] = p.c[k].hi;
    return p.d == 4 ? casteljau.template operator()<4>(c, x) : casteljau.template operator()<2>(c, x);
  };
  auto eval_dd = [](const Cand& p, double x) {  // the same in double-double
    DD v[5];
    for (int k = 0; k <= p.d; ++k) v[k] = p.c[k];
    const DD xx{x, 0}, y = DD{1, 0} - xx;
    for (int l = p.d; l > 0; --l)
      for (int k = 0; k < l; ++k) v[k] = y * v[k] + xx * v[k + 1];
    return v[0];
  };
  auto slope = [&](const Cand& p, double x) {  // d/dx: degree d - 1 on the differences
    double c[4];
    for (int k = 0; k < p.d; ++k) c[k] = p.d * (p.c[k + 1].hi - p.c[k].hi);
    return p.d == 4 ? casteljau.template operator()<3>(c, x) : casteljau.template operator()<1>(c, x);
  };
  struct Root {
    DD t;
    double h;
  };
  Root roots[16];
  int nr = 0;
  constexpr int grid = 16;
  for (int i = 0; i < nc && nr < 16; ++i) {
    const Cand& p = cand[i];
    bool flat = true;  // identically zero within its bound: it cannot exclude anything
    for (int k = 0; k <= p.d; ++k) flat = flat && std::abs(p.c[k].hi) <= p.e;
    if (flat) continue;
    double at[24];  // p at the grid points g / grid, g = 0 .. grid, eight at a time
    for (int g0 = 0; g0 <= grid; g0 += nlanes) {
      V4 x0, x1;
      for (int l = 0; l < 4; ++l) x0[l] = double(g0 + l) / grid, x1[l] = double(g0 + 4 + l) / grid;
      const V4 v0 = eval(p, x0), v1 = eval(p, x1);
      for (int l = 0; l < 4; ++l) at[g0 + l] = v0[l], at[g0 + 4 + l] = v1[l];
    }
    double xa = 0, va = at[0];
    for (int g = 1; g <= grid && nr < 16; ++g) {
      const double xb = double(g) / grid, vb = at[g];
      if ((va < 0 && vb >= 0) || (va > 0 && vb <= 0)) {
        double l = xa, r = xb, vl = va;  // 8 bisections, then Newton inside the bracket
        for (int it = 0; it < 8; ++it) {
          const double m = 0.5 * (l + r), vm = eval(p, m);
          if ((vl < 0) == (vm < 0) && vm != 0) { l = m; vl = vm; } else r = m;
        }
        double x = 0.5 * (l + r);
        for (int it = 0; it < 4; ++it) {
          const double dv = slope(p, x);
          if (!(std::abs(dv) > 0)) break;
          x = std::clamp(x - eval(p, x) / dv, l, r);
        }
        r = x;
        const double d = slope(p, r);
        if (std::abs(d) > 0) {
          const DD v = eval_dd(p, r);
          const double dx = (v.hi + v.lo) / d;
          const double h = 8 * p.e / std::abs(d) * w * round_up;
          if (std::abs(dx) < 0x1p-20 && h <= 0x1p-92)  // wider middles could not be leaves
            roots[nr++] = {two_sum(b, r * w) + DD{-dx * w, 0}, h};  // r w, dx w exact
        }
      }
      xa = xb;
      va = vb;
    }
  }
  auto less = [](DD a, DD c) { return a.hi < c.hi || (a.hi == c.hi && a.lo < c.lo); };
  std::sort(roots, roots + nr, [&](const Root& a, const Root& c) { return less(a.t, c.t); });
  auto excluded = [&](DD ta, DD tb) {
    ++nodes;
    if (root_node<DDTraits>(q, Span{ta, tb}, s.nq, n, fault, false, &s)) return true;  // early
    return finite_node(n, 6) && s.excluded_span(n, S::down(ta), S::up(tb));
  };
  // A span that is not excluded is the answer's leaf when it is no wider than 2^-91, middle
  // span or not: the resolution argument needs only its width (every condition within its
  // double-double bound plus its variation over the span), and everything before it was
  // excluded, so its left end is a lower bound of t* (two roots of different conditions
  // closer than that: a vertex meeting a vertex in coplanar motion). Wider: give up.
  auto narrow_leaf = [&](DD a, DD c) {
    if (!((c - a).hi <= 0x1p-91)) return false;
    out = {true, std::max(S::down(a), known), false, false};
    return true;
  };
  DD cur = lo;
  int spans = 0;
  for (int i = 0; i < nr; ++i) {
    DD r0 = roots[i].t - DD{roots[i].h, 0}, r1 = roots[i].t + DD{roots[i].h, 0};
    if (less(r0, cur)) r0 = cur;
    if (less(hi, r1)) r1 = hi;
    if (!less(cur, r1)) continue;  // already excluded
    if (spans + 2 > max_spans) return false;
    if (less(cur, r0)) {
      ++spans;
      if (!excluded(cur, r0)) return narrow_leaf(cur, r0);
    }
    ++spans;
    if (!excluded(r0, r1)) return narrow_leaf(r0, r1);
    cur = r1;
  }
  if (less(cur, hi)) {
    if (spans + 1 > max_spans) return false;
    if (!excluded(cur, hi)) return narrow_leaf(cur, hi);
  }
  out = {false, 1, false, false};
  return true;
}

// A contact at the left end `known` of an interval (everything before `known` excluded): the
// span [known, known + 2^-92] is tested with every condition; when it is not excluded it is
// the answer's leaf (toi = known, a lower bound of t*; width 2^-92 <= 2^-91, the resolution
// of root-span and sweep leaves). Parallel or coplanar edges already touching at t = 0 (f
// identically zero, no root to place spans at) otherwise take ~60 double-double bisection
// levels. When the span is excluded nothing is concluded (the caller goes on as before).
bool touch_at_known(const cases::CcdQuery& q, double known, double end, CcdFault fault, int& nodes) {
  using S = Search<DDTraits>;
  const bool vf = q.kind == cases::CcdKind::vertex_face;
  S s{6, 0, vf ? 3 : 4, Boxes{&q, vf ? 1 : 2}, 0, 0, 0, 0};
  Node<DDTraits> n;
  const DD ta{known, 0}, tk = two_sum(known, 0x1p-92), te{end, 0};  // exact
  const DD tb = tk.hi < te.hi || (tk.hi == te.hi && tk.lo <= te.lo) ? tk : te;
  ++nodes;
  if (root_node<DDTraits>(q, Span{ta, tb}, s.nq, n, fault, false, &s)) return false;  // early
  return !(finite_node(n, 6) && s.excluded_span(n, S::down(ta), S::up(tb)));
}

// Exact swept-box test (comparisons of doubles): disjoint boxes over [0, 1] => no contact.
bool boxes_disjoint(const cases::CcdQuery& q) {
  return Boxes{&q, q.kind == cases::CcdKind::vertex_face ? 1 : 2}.disjoint(0, 1);
}

}  // namespace

cases::CcdResult ccd_planted(const cases::CcdQuery& q, CcdFault fault, CcdTrace* trace) {
  cases::CcdResult res;
  res.toi_up = std::numeric_limits<double>::quiet_NaN();
  CcdTrace local;
  CcdTrace& tr = trace ? *trace : local;
  tr = {};
  for (const auto& v : q.x)
    if (!(v.cwiseAbs().maxCoeff() <= 0x1p200)) {  // also catches NaN: report, never miss
      res.hit = true;
      res.toi = 0;
      res.cut_short = true;
      return res;
    }
  if (boxes_disjoint(q)) return res;
  // Stage 2, on each interval the double stage leaves unsettled (a leaf of width 2^-48 that
  // is neither excluded nor proven, or what its node budget left): the same search in
  // double-double over that interval only, down to width 2^-100, with ccd_max_nodes_dd
  // nodes for the whole query. Its bounds are ~2^48 times smaller: it decides the near
  // misses that double precision cannot separate from a touch.
  int dd_budget = ccd_max_nodes_dd;
  int jump_budget = ccd_max_nodes_jump;  // jumps never cut the search short: they stop
  bool sweep = true;  // sweep_spans until one fails
  bool touch = true;  // touch_at_known until it fails
  auto refine = [&](double t0, int depth, double known, Ask ask, int& dd_budget) -> Refined {
    if (ask == Ask::grow) {  // one f-only span evaluation from the jump budget
      if (jump_budget < 1) return {false, 1, false, false, false};
      int nodes = 0;
      Node<DDTraits> n;
      const bool ex = f_excluded_dd(q, DD{t0, 0}, DD{t0 + pow2_neg(depth), 0}, fault, nodes, n);
      tr.nodes += nodes;
      jump_budget -= nodes;
      tr.grown = tr.grown || ex;
      return {false, 1, false, false, ex};
    }
    int& budget = ask == Ask::jump ? jump_budget : dd_budget;
    if (budget < 4) {  // root_spans evaluates up to 4 spans
      if (ask == Ask::jump) return {false, 1, false, false, false};
      if (budget <= 0) return {true, t0, false, true};
    }
    tr.second_stage = true;
    Refined r;
    bool f_flat = false;  // f has no simple root that root_spans can use
    if (budget >= 4) {
      int nodes = 0;
      const bool settled = root_spans(q, t0, pow2_neg(depth), known, fault, nodes, r, f_flat);
      tr.nodes += nodes;
      budget -= nodes;
      if (settled) {
        tr.root_spans = true;
        return r;
      }
    }
    if (f_flat && touch && budget >= 1 && ask != Ask::pending) {
      // Once per query (a span that is excluded says nothing about the next one's start).
      touch = false;
      int nodes = 0;
      const bool hit = touch_at_known(q, known, t0 + pow2_neg(depth), fault, nodes);
      tr.nodes += nodes;
      budget -= nodes;
      if (hit) {
        tr.touch = true;
        return {true, known, false, false};
      }
    }
    if (ask == Ask::jump) return {false, 1, false, false, false};
    if (budget >= 4 && sweep && f_flat && depth >= sweep_min_depth) {
      int nodes = 0;
      const bool settled = sweep_spans(q, t0, pow2_neg(depth), known, fault,
                                       std::min(budget - 1, ccd_max_spans_sweep), nodes, r);
      tr.nodes += nodes;
      budget -= nodes;
      if (settled) {
        tr.sweep = true;
        return r;
      }
      sweep = false;  // the conditions have no usable simple roots here: bisect from now on
    }
    if (budget <= 0) return {true, t0, false, true};
    int none = 0;
    const int before = tr.nodes;
    r = stage<DDTraits>(q, Span{{t0, 0}, {t0 + pow2_neg(depth), 0}}, depth, budget,
                        ccd_max_depth_dd - depth, tr, fault, NoRefinement{}, none);
    budget -= tr.nodes - before;
    return r;
  };
  const Refined r = stage<DoubleTraits>(q, Span{}, 0, ccd_max_nodes, ccd_max_depth, tr, fault, refine, dd_budget);
  if (!r.hit) return res;
  res.hit = true;
  res.toi = r.toi;
  res.cut_short = r.cut && !r.certain;  // the final word came from a budget, not a leaf
  return res;
}

}  // namespace contactbench::fast::CONTACTBENCH_CCD_PASS
#pragma GCC diagnostic pop
#endif
