#include "fast/barrier.hpp"

#include <cmath>

namespace contactbench::fast {

// BarrierEnergy.py as printed: s = d/d̂ rounded, then s - 1 and log(s) from it.
cases::BarrierResult barrier_book_formula(const cases::BarrierQuery& q) {
  if (!(q.d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  cases::BarrierResult r;
  r.active = q.d < q.dhat;
  if (!r.active) return r;
  const double d = q.d, dhat = q.dhat, s = d / dhat;
  const double a_dhat = q.area * dhat, kappa = q.kappa;
  r.value = a_dhat * kappa / 2 * (s - 1) * std::log(s);
  r.gradient = a_dhat * (kappa / 2 * (std::log(s) / dhat + (s - 1) / d));
  r.hessian = a_dhat * kappa / (2 * d * d * dhat) * (d + dhat);
  return r;
}

}  // namespace contactbench::fast
