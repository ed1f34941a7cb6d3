#include "fast/barrier.hpp"

namespace contactbench::fast {

cases::BarrierResult barrier(const cases::BarrierQuery& q) {
  if (!(q.d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  cases::BarrierResult r;
  r.active = q.d < q.dhat;  // the book's `if d < dhat`
  if (!r.active) return r;
  const BarrierTerms t = barrier_terms(q.d, q.dhat, q.kappa, q.area);
  r.value = t.value;
  r.gradient = t.gradient;
  r.hessian = t.hessian;
  return r;
}

}  // namespace contactbench::fast
