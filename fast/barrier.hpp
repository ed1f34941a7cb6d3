// Fast (double) ground barrier of the book (ipc-square-drop.txt, Implementation 8.3.1).
//   b(d) = A d̂ (κ/2)(s - 1) ln s,   b'(d) = A d̂ (κ/2)(ln s / d̂ + (s - 1)/d),
//   b''(d) = A d̂ κ (d + d̂) / (2 d² d̂),   s = d/d̂, 0 < d < d̂; all zero for d >= d̂.
//
// Deviations from the reference (reference/barrier.hpp, MPFR at 256 bits rounded once):
// the book computes s - 1 and ln s from the rounded s = d/d̂; as s -> 1 that loses
// log2(1/(1-s)) bits of both (at d = d̂(1 - 1e-8), about 27). Here s - 1 = (d - d̂)/d̂,
// where d - d̂ is exact (Sterbenz) for d >= d̂/2, and ln s is ln(1 + (s - 1)) for s >= 1/2,
// ln s below, both by barrier_log (our own, vectorizable, <= 2.5u; since issue 16, before
// that glibc's log1p/log). With that every field is within 10 ULP of the correctly rounded value
// (barrier_bounds, derived below), in the domain of cases/barrier.hpp
// (d/d̂ >= 1e-12; d̂, κ, A in [1e-50, 1e50]), where no intermediate overflows or
// underflows; queries outside it are `out_of_domain` (barrier_in_domain). Otherwise the
// book's formulas, with d̂ cancelled algebraically and 1/d̂, 1/d taken once (barrier_terms).
//
// Precondition d > 0: the caller (the CCD-bounded line search) never lets a node reach
// the ground. A violation (d <= 0 or NaN) throws std::domain_error rather than returning
// a NaN that a line search comparing energies with `>` would silently accept.
#pragma once
#include "cases/barrier.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace contactbench::fast {

struct BarrierTerms {
  double value, gradient, hessian;
};

// 2/(2j + 1), the Taylor coefficients of 2 atanh(t)/t - 2 in t^(2j), rounded once.
constexpr double barrier_log_coefficient(int j) { return 2.0 / (2 * j + 1); }

// sum_{j=1..15} c_j z^(j-1) with c_j = barrier_log_coefficient(j), by Estrin's scheme (pairs,
// then z^2, z^4, z^8: a dependency chain of 4 multiply-adds instead of Horner's 14, so the
// batch's lanes do not wait on it). All terms are positive (z >= 0): no cancellation, the
// sum errs by a few u of itself, and it enters ln s weighted by t R / ln s <= 0.04.
// The batch (fast/barrier_lanes.inc) spells out the same sums in the same order.
inline double barrier_log_series(double z) {
  auto c = [](int j) { return barrier_log_coefficient(j); };
  const double z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
  const double q0 = c(1) + c(2) * z, q1 = c(3) + c(4) * z, q2 = c(5) + c(6) * z,
               q3 = c(7) + c(8) * z, q4 = c(9) + c(10) * z, q5 = c(11) + c(12) * z,
               q6 = c(13) + c(14) * z, q7 = c(15);
  const double r0 = q0 + q1 * z2, r1 = q2 + q3 * z2, r2 = q4 + q5 * z2, r3 = q6 + q7 * z2;
  return (r0 + r1 * z4) + (r2 + r3 * z4) * z8;
}

// ln(2^k (1 + f)) for f in [-1/2, sqrt(2) - 1], k integral (see barrier_log).
inline double barrier_log_reduced(double f, double k) {
  constexpr double ln2_hi = 0x1.62e42fefp-1, ln2_lo = 0x1.473de6af278edp-34;  // hi: 33 bits
  const double t = f / (2 + f), z = t * t, hfsq = 0.5 * f * f;
  const double big_r = z * barrier_log_series(z);
  return k * ln2_hi - ((hfsq - (t * (hfsq + big_r) + k * ln2_lo)) - f);
}

// ln s for the barrier, given s = d/d̂ (rounded) and sm1 = s - 1 as (d - d̂)/d̂ (accurate when
// s >= 1/2: d - d̂ is exact there). Written with +, -, *, / and bit operations only, in one
// order that the batch (fast/barrier_batch.cpp) repeats lane by lane, so the scalar kernel
// and the batch agree bit for bit (libm's log is not vectorizable bit-exactly).
//   s >= 1/2: k = 0, f = sm1 in [-1/2, 0) (also s rounded up to 1: f tiny, accurate).
//   s <  1/2: s = 2^k m with m in [sqrt(1/2), sqrt(2)) (integer arithmetic on the bits,
//             exact), f = m - 1 exact (Sterbenz), k <= -1.
//   ln(1 + f) = 2 atanh(t), t = f/(2 + f), |t| <= 1/3: 2t + t R with R = sum_{j=1..15}
//   2 t^(2j) / (2j + 1) (Taylor, summed by barrier_log_series; the truncated tail is < 0.16 u of ln(1 + f) for t^2 <= 1/9),
//   rearranged as f - (f^2/2 - t (f^2/2 + R)) so that f, exact, leads.
//   ln s = k ln2_hi - ((f^2/2 - (t (f^2/2 + R) + k ln2_lo)) - f), k ln2_hi exact.
// Error (relative to ln s, u = 2^-53; header of barrier_bounds): <= 2.5u. s >= 1/2: the final
// rounding 1u; the correction f - ln(1 + f) is <= 0.28 |ln s| and carries ~2u of it (0.56u);
// t (f^2/2 + R) <= 0.1 |ln s| with ~5u (0.5u); the tail 0.16u; R's own rounding
// (a few u of R) < 0.3u.
// s < 1/2: |ln s| >= ln 2 and k ln 2 has the sign of ln(1 + f) or dominates it (|k ln 2| <=
// 1.33 |ln s|): the final rounding 1u, the inner terms (|f| <= 0.414, correction <= 0.1)
// at most ~1u of ln 2. Checked against long double on sweeps (harness/tests/barrier_batch.cpp).
inline double barrier_log(double s, double sm1) {
  double f = sm1, k = 0;
  if (!(s >= 0.5)) {
    constexpr std::uint64_t sqrt_half = 0x3fe6a09e667f3bcd, bias = std::uint64_t{0x400} << 52;
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(s);
    const std::uint64_t e = (bits - sqrt_half + bias) >> 52;  // k + 1024
    f = std::bit_cast<double>(bits - (e << 52) + bias) - 1;   // m - 1, exact
    k = static_cast<double>(static_cast<std::int64_t>(e) - 1024);
  }
  return barrier_log_reduced(f, k);
}

// The kernel on plain numbers, inlined into the square-drop scenario's inner loops.
// Only for 0 < d < dhat (the caller has tested d < dhat, as the book's loop does).
inline BarrierTerms barrier_terms(double d, double dhat, double kappa, double area) {
  if (!(d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  // d̂ cancels from the book's A d̂ (κ/2)(s - 1) = (Aκ/2)(d - d̂) and its derivatives, and
  // two reciprocals replace the five quotients (the division unit bounds the batch).
  const double inv_dhat = 1 / dhat, inv_d = 1 / d;
  const double s = d * inv_dhat;
  const double dmd = d - dhat;          // exact for d >= d̂/2 (Sterbenz)
  const double sm1 = dmd * inv_dhat;    // s - 1 without cancellation (used for s >= 1/2)
  const double ln_s = barrier_log(s, sm1);
  const double half_ak = area * kappa * 0.5;
  BarrierTerms t;
  t.value = half_ak * dmd * ln_s;                          // A d̂ (κ/2)(s - 1) ln s
  t.gradient = half_ak * (ln_s + dmd * inv_d);             // A d̂ (κ/2)(ln s/d̂ + (s - 1)/d)
  t.hessian = half_ak * ((d + dhat) * inv_d * inv_d);      // A d̂ κ (d + d̂)/(2 d² d̂)
  return t;
}

// The stated domain of the 10 ULP bound (cases/barrier.hpp): d̂, κ, A in [1e-50, 1e50] and,
// when active, d/d̂ >= 1e-12.
inline bool barrier_in_domain(const cases::BarrierQuery& q) { return cases::barrier_in_fast_domain(q); }

// Stated bounds, in ULP of the correctly rounded value, derived in units of u = 2^-53
// relative:
//   s = d·(1/d̂) and s - 1 = (d - d̂)·(1/d̂): 2 roundings each (d - d̂ exact for d >= d̂/2;
//   below, s - 1 is not used). ln s: barrier_log errs by <= 2.5u of ln s (2u for s < 1/2),
//   and the propagated error of its argument (s, or s - 1 for s >= 1/2) is at most
//   1/ln 2 = 1.44 times that argument's, 2.88u: ln s <= 5.38u.
//   value = (Aκ/2)(d - d̂) ln s: Aκ (1; /2 exact), d - d̂ (0 for s >= 1/2, else 1), two
//   products (2), ln s (5.38, or 4.88 for s < 1/2): < 8.9u relative.
//   gradient = (Aκ/2)(ln s + (d - d̂)/d): (d - d̂)·(1/d) <= 3u, the sum of two negatives
//   (no cancellation: the larger, 5.38, + 1), Aκ and the product (2): < 8.4u.
//   hessian = (Aκ/2)((d + d̂)(1/d)(1/d)): 7 roundings: < 7u.
// A relative error e·u is less than e ULP of the result (ulp(r) > u|r|), and the reference
// adds at most 0.5 ULP: 10 ULP for all three fields. `active` (d < d̂) is an exact
// comparison of the inputs: never in doubt, no bound.
struct BarrierBounds {
  double value_ulp, gradient_ulp, hessian_ulp;
};
inline BarrierBounds barrier_bounds(const cases::BarrierQuery&) { return {10, 10, 10}; }

// The pair's entry point (same signature as reference::barrier).
cases::BarrierResult barrier(const cases::BarrierQuery& q);

// Batched entry point (fast/barrier_batch.cpp), bit-identical to barrier() per query.
// Queries as structure of arrays; results likewise (active as 0/1).
struct BarrierSoA {
  std::vector<double> d, dhat, kappa, area;
  BarrierSoA() = default;
  explicit BarrierSoA(std::span<const cases::BarrierQuery> qs);
  std::size_t size() const { return d.size(); }
};
struct BarrierSoAResult {
  std::vector<double> value, gradient, hessian;
  std::vector<std::uint8_t> active;
  void resize(std::size_t n);
};
// min(max_width, barrier_batch_width()) queries per instruction: 8 (AVX-512), 4 (AVX2) or 1
// (the scalar kernel per query), chosen at run time. out is resized to in.size(). Throws
// std::domain_error, as barrier() does, if some d <= 0 or NaN.
void barrier(const BarrierSoA& in, BarrierSoAResult& out, int max_width = 8);
int barrier_batch_width();  // 8, 4 or 1: what this CPU supports

// The published method (fast/barrier_book.cpp): the book's formula as printed, s - 1 and
// ln s from the rounded s, losing log2(1/(1 - s)) bits of both as s -> 1. Measured beside
// barrier() under the same rule, not gated.
cases::BarrierResult barrier_book_formula(const cases::BarrierQuery& q);

}  // namespace contactbench::fast
