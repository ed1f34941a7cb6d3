// The one header that includes CGAL, GMP and MPFR. Only reference/src/*.cpp include it
// (it is also the reference target's precompiled header).
#pragma once
#include <CGAL/FPU.h>
#include <CGAL/Gmpq.h>
#include <CGAL/Gmpz.h>
#include <CGAL/Interval_nt.h>
#include <CGAL/Uncertain.h>
#include <gmpxx.h>
#include <mpfr.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>

namespace contactbench::reference::exact {

using Rational = CGAL::Gmpq;          // exact value of any double and of +,-,*,/ on them
using Interval = CGAL::Interval_nt<false>;  // filter: needs Protect_FPU_rounding in scope
using ProtectRounding = CGAL::Protect_FPU_rounding<true>;

// Nearest double to an exact rational (ties to even). mpq_get_d truncates, so go through
// MPFR at 53 bits with round-to-nearest, which is the correctly rounded value.
inline double to_nearest_double(const Rational& q) {
  mpfr_t x;
  mpfr_init2(x, 53);
  mpfr_set_q(x, q.mpq(), MPFR_RNDN);
  const double d = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  return d;
}

// sqrt of a non-negative rational, rounded to the nearest double: a square root of a
// rational is in general irrational, so this is a high-precision (MPFR, 256-bit) evaluation
// rounded once more to 53 bits, not an exact one. Double rounding can only matter for
// values within 2^-200 relative of a rounding midpoint.
inline double sqrt_to_double(const Rational& q) {
  mpfr_t x;
  mpfr_init2(x, 256);
  mpfr_set_q(x, q.mpq(), MPFR_RNDN);
  mpfr_sqrt(x, x, MPFR_RNDN);
  const double d = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  return d;
}

// Sign of an interval: certain only when 0 is not inside (or the interval is exactly 0).
inline CGAL::Uncertain<CGAL::Sign> sign_of(const Interval& i) { return CGAL::sign(i); }

}  // namespace contactbench::reference::exact
