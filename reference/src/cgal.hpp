// The one header that includes CGAL, GMP and MPFR. Only reference/src/*.cpp include it
// (it is also the reference target's precompiled header). The exact toolkit it brings in:
// exact_vector.hpp (one 3-vector algebra on any scalar), filtered_sign.hpp (interval filter
// with exact fallback), polynomial.hpp (included where needed: Sturm sequences, algebraic
// numbers), the roundings to double below, and mpfr::mpreal.
//
// MPFR values: mpfr::mpreal (mpreal.h) is the one wrapper. The square drop's reference run
// needs it anyway (Eigen's MPRealSupport instantiates the scenario on it); it frees its
// value on every path (RAII) and still hands out the mpfr_t for directed roundings
// (mpfr_*(x.mpfr_ptr(), ..., MPFR_RNDU)). It needs mpfr.h without function-like macros
// and with the intmax_t API: the target defines MPFR_USE_NO_MACRO and MPFR_USE_INTMAX_T.
// The three one-shot roundings below stay on the C API (init, two or three calls, clear;
// nothing can throw in between): they run for every closest-feature query, and mpreal's
// construction (default rounding mode from thread-local storage) cost 5% of it there.
#pragma once
#include "reference/src/exact_vector.hpp"
#include "reference/src/filtered_sign.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <gmpxx.h>
#include <mpfr.h>
#include <mpreal.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

namespace contactbench::reference::exact {

// Nearest double (ties to even) to num / den · 2^exp2, den > 0. MPFR's exponent range is
// unbounded, so its 53-bit rounding is the double rounding exactly when the result is a
// normal double; subnormal results are rounded to a multiple of 2^-1074 in integers.
inline double quotient_to_double(const mpz_class& num, const mpz_class& den, long exp2 = 0) {
  mpfr_t x, r;
  mpfr_init2(x, std::max<long>(64, static_cast<long>(mpz_sizeinbase(num.get_mpz_t(), 2)) + 1));
  mpfr_init2(r, 53);
  mpfr_set_z(x, num.get_mpz_t(), MPFR_RNDN);  // exact: the precision covers num
  mpfr_mul_2si(x, x, exp2, MPFR_RNDN);        // exact: a power of two
  mpfr_div_z(r, x, den.get_mpz_t(), MPFR_RNDN);
  const double d = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(x);
  mpfr_clear(r);
  if (std::abs(d) >= 0x1p-1021 || sgn(num) == 0) return d;
  mpz_class a = abs(num), b = den;
  const long shift = exp2 + 1074;  // result in units of 2^-1074
  if (shift >= 0) a <<= static_cast<unsigned long>(shift); else b <<= static_cast<unsigned long>(-shift);
  mpz_class q, rem;
  mpz_fdiv_qr(q.get_mpz_t(), rem.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
  const int half = cmp(mpz_class(2 * rem), b);
  if (half > 0 || (half == 0 && mpz_odd_p(q.get_mpz_t()))) ++q;
  return std::copysign(std::ldexp(q.get_d(), -1074), sgn(num));
}

inline double to_nearest_double(const mpq_class& q) {
  return quotient_to_double(q.get_num(), q.get_den());
}

// The smallest double >= q, for margins: a margin below the true one could excuse a real
// error. Exact rationals that are doubles stay exact; subnormals and overflow round up too.
inline double up_to_double(const mpq_class& q) {
  mpfr_t t;
  mpfr_init2(t, 53);
  mpfr_set_q(t, q.get_mpq_t(), MPFR_RNDU);
  const double v = mpfr_get_d(t, MPFR_RNDU);
  mpfr_clear(t);
  return v;
}

// An upper bound of sqrt(num / den) as a double, for margins: a margin below the true one
// could excuse a real error, so every step rounds towards +infinity. A square root of a
// rational is irrational in general, hence MPFR (the quotient is exact up to 256 bits and
// rounded up); exact squares of doubles stay exact.
inline double sqrt_up_to_double(const mpz_class& num, const mpz_class& den) {
  mpfr_t x;
  mpfr_init2(x, 256);
  mpfr_set_z(x, num.get_mpz_t(), MPFR_RNDU);
  mpfr_div_z(x, x, den.get_mpz_t(), MPFR_RNDU);
  mpfr_sqrt(x, x, MPFR_RNDU);
  const double d = mpfr_get_d(x, MPFR_RNDU);
  mpfr_clear(x);
  return d;
}
inline double sqrt_up_to_double(const mpq_class& q) {
  return sqrt_up_to_double(q.get_num(), q.get_den());
}

}  // namespace contactbench::reference::exact
