// Fast (double) ground barrier of the book (ipc-square-drop.txt, Implementation 8.3.1).
//   b(d) = A d̂ (κ/2)(s - 1) ln s,   b'(d) = A d̂ (κ/2)(ln s / d̂ + (s - 1)/d),
//   b''(d) = A d̂ κ (d + d̂) / (2 d² d̂),   s = d/d̂, 0 < d < d̂; all zero for d >= d̂.
//
// Deviations from the reference (reference/barrier.hpp, MPFR at 256 bits rounded once):
// the book computes s - 1 and ln s from the rounded s = d/d̂; as s -> 1 that loses
// log2(1/(1-s)) bits of both (at d = d̂(1 - 1e-8), about 27). Here s - 1 = (d - d̂)/d̂,
// where d - d̂ is exact (Sterbenz) for d >= d̂/2, and ln s = log1p(s - 1) for s >= 1/2,
// log(s) below. With that every field is within 10 ULP of the correctly rounded value
// (barrier_bounds, derived below), in the domain of cases/barrier.hpp
// (d/d̂ >= 1e-12; d̂, κ, A in [1e-50, 1e50]), where no intermediate overflows or
// underflows; queries outside it are `out_of_domain` (barrier_in_domain). Otherwise the
// operations and their order are the book's.
//
// Precondition d > 0: the caller (the CCD-bounded line search) never lets a node reach
// the ground. A violation (d <= 0 or NaN) throws std::domain_error rather than returning
// a NaN that a line search comparing energies with `>` would silently accept.
#pragma once
#include "cases/barrier.hpp"

#include <cmath>
#include <stdexcept>

namespace contactbench::fast {

struct BarrierTerms {
  double value, gradient, hessian;
};

// The kernel on plain numbers, inlined into the square-drop scenario's inner loops.
// Only for 0 < d < dhat (the caller has tested d < dhat, as the book's loop does).
inline BarrierTerms barrier_terms(double d, double dhat, double kappa, double area) {
  if (!(d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  const double s = d / dhat;
  const double sm1 = s >= 0.5 ? (d - dhat) / dhat : s - 1;  // s - 1, without cancellation
  const double ln_s = s >= 0.5 ? std::log1p(sm1) : std::log(s);
  const double a_dhat = area * dhat;
  BarrierTerms t;
  t.value = a_dhat * kappa / 2 * sm1 * ln_s;
  t.gradient = a_dhat * (kappa / 2 * (ln_s / dhat + sm1 / d));
  t.hessian = a_dhat * kappa / (2 * d * d * dhat) * (d + dhat);
  return t;
}

// The stated domain of the 10 ULP bound (cases/barrier.hpp): d̂, κ, A in [1e-50, 1e50] and,
// when active, d/d̂ >= 1e-12.
inline bool barrier_in_domain(const cases::BarrierQuery& q) { return cases::barrier_in_fast_domain(q); }

// Stated bounds, in ULP of the correctly rounded value, derived in units of u = 2^-53
// relative:
//   s = d/d̂: 1 rounding. s - 1: 1 rounding ((d - d̂) exact for d >= d̂/2; for s < 1/2 the
//   propagated error of s is at most s/(1-s) < 1 times it). ln s: log/log1p are < 1 ulp in
//   glibc, and the propagated error of their argument is at most 1/ln 2 = 1.44 times it.
//   value: A·d̂, ·κ, ·(s-1), ·ln s: 4 roundings (/2 exact). Total < 8.5u relative.
//   gradient: ln s/d̂, (s-1)/d, their sum (same sign, no cancellation), ·κ/2, ·A·d̂:
//   < 8.5u. hessian: 7 roundings of products/quotients and one sum of positives: < 7u.
// A relative error e·u is less than e ULP of the result (ulp(r) > u|r|), and the reference
// adds at most 0.5 ULP: 10 ULP for all three fields. `active` (d < d̂) is an exact
// comparison of the inputs: never in doubt, no bound.
struct BarrierBounds {
  double value_ulp, gradient_ulp, hessian_ulp;
};
inline BarrierBounds barrier_bounds(const cases::BarrierQuery&) { return {10, 10, 10}; }

// The pair's entry point (same signature as reference::barrier).
cases::BarrierResult barrier(const cases::BarrierQuery& q);

// The published method (fast/barrier_book.cpp): the book's formula as printed, s - 1 and
// ln s from the rounded s, losing log2(1/(1 - s)) bits of both as s -> 1. Measured beside
// barrier() under the same rule, not gated.
cases::BarrierResult barrier_book_formula(const cases::BarrierQuery& q);

}  // namespace contactbench::fast
