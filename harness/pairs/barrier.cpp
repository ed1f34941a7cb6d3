#include "harness/pairs/barrier.hpp"

#include "cases/json_input.hpp"
#include "harness/pairs/ulp.hpp"

#include <algorithm>
#include <cmath>

namespace contactbench::harness {

std::vector<cases::Named<cases::BarrierQuery>> BarrierPair::canonical(const CheckOptions&) {
  // The book's constants (d̂ = 0.01, κ = 1e5, A = 0.25 for n_seg = 4) at distances that
  // matter: s = 1/2 exactly (0.005 is exactly half of the double 0.01), decades down to
  // s = 1e-12, s -> 1 from below, the boundary d = d̂ and one ulp either side, and the
  // smallest height of the square drop (6.388 mm).
  auto book = [](double d) { return Query{d, 0.01, 1e5, 0.25}; };
  return {
      {"half_dhat", book(0.005)},
      {"tenth_dhat", book(0.001)},
      {"s_1e-6", book(1e-8)},
      {"s_1e-12", book(1e-14)},
      {"s_1_minus_1e-4", book(0.01 * (1 - 1e-4))},
      {"s_1_minus_1e-8", book(0.01 * (1 - 1e-8))},
      {"one_ulp_inside", book(std::nextafter(0.01, 0.0))},
      {"at_dhat", book(0.01)},
      {"one_ulp_outside", book(std::nextafter(0.01, 1.0))},
      {"far_above", book(0.5)},
      {"square_drop_min_height", book(0.0063880713)},
      {"unit_dhat_half", Query{0.5, 1.0, 1.0, 1.0}},
      // Beyond the fast domain (out_of_domain; the reference answers): both distances
      // subnormal with s = 1/2, and the book's s = 1/2 at d̂ = 2^1000.
      {"subnormal_half", Query{0x1p-1074, 0x1p-1073, 1e5, 0.25}},
      {"huge_dhat_half", Query{0x1p999, 0x1p1000, 1e5, 0.25}},
  };
}

// Fast error bound, in units of u = 2^-53 relative (fast/barrier.hpp):
//   s = d/d̂: 1 rounding. s - 1: 1 rounding ((d - d̂) exact for d >= d̂/2; for s < 1/2 the
//   propagated error of s is at most s/(1-s) < 1 times it). ln s: log/log1p are < 1 ulp in
//   glibc, and the propagated error of their argument is at most 1/ln 2 = 1.44 times it.
//   value: A·d̂, ·κ, ·(s-1), ·ln s: 4 roundings (/2 exact). Total < 8.5u relative.
//   gradient: ln s/d̂, (s-1)/d, their sum (same sign, no cancellation), ·κ/2, ·A·d̂:
//   < 8.5u. hessian: 7 roundings of products/quotients and one sum of positives: < 7u.
// A relative error e·u is less than e ULP of the result (ulp(r) > u|r|), and the reference
// adds at most 0.5 ULP: bound 10 ULP for all three fields.
Comparison BarrierPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                     double ulp_bound) {
  Comparison c;
  // d < d̂ is an exact comparison in both variants. Coverage: margin |d - d̂|/d̂ (0 exactly
  // at d = d̂), stated bound 0. A mismatch is never excused, not even at d = d̂ where the
  // rule is inactive: bound -1.
  const double margin = reference::barrier_active_margin(q);
  c.reached("active", ref.active ? "active" : "inactive", margin, 0.0);
  c.discrete("active", ref.active, fast.active, margin, -1.0);
  c.continuous("value_ulp", ulp_error(fast.value, ref.value), ulp_bound);
  c.continuous("gradient_ulp", ulp_error(fast.gradient, ref.gradient), ulp_bound);
  c.continuous("hessian_ulp", ulp_error(fast.hessian, ref.hessian), ulp_bound);
  return c;
}

std::vector<DecisionSpace> BarrierPair::decision_space() {
  return {{"active", {"active", "inactive"}}};
}

namespace {

// The honest kernel's shape with the pieces a fault replaces.
struct Slip {
  bool le = false, literal = false, grad_sign = false, hess_term = false, clamp = false;
};

cases::BarrierResult slipped(const cases::BarrierQuery& q, Slip f) {
  cases::BarrierResult r;
  r.active = f.le ? q.d <= q.dhat : q.d < q.dhat;
  if (!r.active) return r;
  const double d = f.clamp ? std::max(q.d, 1e-9 * q.dhat) : q.d, dhat = q.dhat;
  const double s = d / dhat;
  double sm1, ln_s;
  if (f.literal) {
    sm1 = s - 1;
    ln_s = std::log(s);
  } else {
    sm1 = s >= 0.5 ? (d - dhat) / dhat : s - 1;
    ln_s = s >= 0.5 ? std::log1p(sm1) : std::log(s);
  }
  const double a_dhat = q.area * dhat, kappa = q.kappa;
  r.value = a_dhat * kappa / 2 * sm1 * ln_s;
  r.gradient = a_dhat * (kappa / 2 * (f.grad_sign ? ln_s / dhat - sm1 / d : ln_s / dhat + sm1 / d));
  r.hessian = a_dhat * kappa / (2 * d * d * dhat) * (f.hess_term ? d : d + dhat);
  return r;
}

}  // namespace

BarrierPair::Result BarrierActiveLeFault::fast(const Query& q) { return slipped(q, {.le = true}); }
BarrierPair::Result BarrierNoLog1pFault::fast(const Query& q) { return slipped(q, {.literal = true}); }
BarrierPair::Result BarrierGradientSignFault::fast(const Query& q) {
  return slipped(q, {.grad_sign = true});
}
BarrierPair::Result BarrierHessianTermFault::fast(const Query& q) {
  return slipped(q, {.hess_term = true});
}
BarrierPair::Result BarrierClampFault::fast(const Query& q) { return slipped(q, {.clamp = true}); }

nlohmann::json BarrierPair::query_to_json(const Query& q) {
  return {{"d", q.d}, {"dhat", q.dhat}, {"kappa", q.kappa}, {"area", q.area}};
}

BarrierPair::Query BarrierPair::query_from_json(const nlohmann::json& j, const cases::Where& w) {
  cases::reject_unknown_keys(j, {"d", "dhat", "kappa", "area"}, w);
  Query q;
  q.d = cases::read_double(j, "d", w);
  if (j.contains("dhat")) q.dhat = cases::read_double(j, "dhat", w);
  if (j.contains("kappa")) q.kappa = cases::read_double(j, "kappa", w);
  if (j.contains("area")) q.area = cases::read_double(j, "area", w);
  cases::validate(q, w);  // bad input only: the fast domain is in_domain()
  return q;
}

nlohmann::json BarrierPair::result_to_json(const Result& r) {
  return {{"active", r.active}, {"value", r.value}, {"gradient", r.gradient}, {"hessian", r.hessian}};
}

}  // namespace contactbench::harness
