#include "harness/pairs/barrier.hpp"

#include "harness/pairs/ulp.hpp"

#include <algorithm>
#include <cmath>

namespace contactbench::harness {

Comparison BarrierPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                     const fast::BarrierBounds& bounds) {
  Comparison c;
  // d < d̂ is an exact comparison in both variants. Coverage: margin |d - d̂|/d̂ (0 exactly
  // at d = d̂), stated bound 0. A mismatch is never excused, not even at d = d̂ where the
  // rule is inactive: bound -1.
  const double margin = reference::barrier_active_margin(q);
  c.reached("active", ref.active ? "active" : "inactive", margin, 0.0, "× d̂");
  c.discrete("active", ref.active, fast.active, margin, -1.0, "× d̂");
  c.continuous("value_ulp", ulp_error(fast.value, ref.value), bounds.value_ulp, "ULP");
  c.continuous("gradient_ulp", ulp_error(fast.gradient, ref.gradient), bounds.gradient_ulp, "ULP");
  c.continuous("hessian_ulp", ulp_error(fast.hessian, ref.hessian), bounds.hessian_ulp, "ULP");
  return c;
}

namespace {

// The honest kernel's shape with the pieces a fault replaces.
struct Slip {
  bool le = false, grad_sign = false, hess_term = false, clamp = false;
};

cases::BarrierResult slipped(const cases::BarrierQuery& q, Slip f) {
  cases::BarrierResult r;
  r.active = f.le ? q.d <= q.dhat : q.d < q.dhat;
  if (!r.active) return r;
  const double d = f.clamp ? std::max(q.d, 1e-9 * q.dhat) : q.d, dhat = q.dhat;
  const double s = d / dhat;
  const double sm1 = s >= 0.5 ? (d - dhat) / dhat : s - 1;
  const double ln_s = s >= 0.5 ? std::log1p(sm1) : std::log(s);
  const double a_dhat = q.area * dhat, kappa = q.kappa;
  r.value = a_dhat * kappa / 2 * sm1 * ln_s;
  r.gradient = a_dhat * (kappa / 2 * (f.grad_sign ? ln_s / dhat - sm1 / d : ln_s / dhat + sm1 / d));
  r.hessian = a_dhat * kappa / (2 * d * d * dhat) * (f.hess_term ? d : d + dhat);
  return r;
}

}  // namespace

BarrierPair::Result BarrierActiveLeFault::fast(const Query& q) { return slipped(q, {.le = true}); }
BarrierPair::Result BarrierGradientSignFault::fast(const Query& q) {
  return slipped(q, {.grad_sign = true});
}
BarrierPair::Result BarrierHessianTermFault::fast(const Query& q) {
  return slipped(q, {.hess_term = true});
}
BarrierPair::Result BarrierClampFault::fast(const Query& q) { return slipped(q, {.clamp = true}); }

}  // namespace contactbench::harness
