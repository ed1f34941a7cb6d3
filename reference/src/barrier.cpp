#include "reference/barrier.hpp"

#include "reference/src/barrier_mp.hpp"

#include <stdexcept>

namespace contactbench::reference {

cases::BarrierResult barrier(const cases::BarrierQuery& q) {
  if (!(q.d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  cases::BarrierResult r;
  r.active = q.d < q.dhat;  // exact comparison of the double inputs
  if (!r.active) return r;
  const int p = barrier_precision_bits;
  // Doubles convert exactly (53 <= 256 bits).
  const auto t = detail::barrier_terms_mp(mpfr::mpreal(q.d, p), mpfr::mpreal(q.dhat, p),
                                          mpfr::mpreal(q.kappa, p), mpfr::mpreal(q.area, p));
  r.value = t.value.toDouble(MPFR_RNDN);
  r.gradient = t.gradient.toDouble(MPFR_RNDN);
  r.hessian = t.hessian.toDouble(MPFR_RNDN);
  return r;
}

}  // namespace contactbench::reference
