#include "reference/barrier.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/double_double.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace contactbench::reference {

namespace {

using mpfr::mpreal;  // every operation below is an mpfr_* call with its own rounding

// The exact rational parts, all positive for 0 < d < d̂ (see barrier()).
struct Parts {
  mpq_class p;  // A·κ·(d̂ - d)/2       value = p · |ln s|
  mpq_class k;  // A·κ/2               |gradient| = k · |ln s| + r
  mpq_class r;  // A·κ·(d̂ - d)/(2d)
};

// [lo, hi] of x·|ln s| (+ y) at precision prec, both bounds rounded to double; true when
// they agree (the correctly rounded value is then that double).
bool enclose(const mpq_class& x, const mpq_class* y, const mpreal& ln_lo, const mpreal& ln_hi,
             mpfr_prec_t prec, double& out) {
  mpreal lo(0, prec), hi(0, prec), t(0, prec);
  mpfr_set_q(lo.mpfr_ptr(), x.get_mpq_t(), MPFR_RNDD);
  mpfr_set_q(hi.mpfr_ptr(), x.get_mpq_t(), MPFR_RNDU);
  mpfr_mul(lo.mpfr_ptr(), lo.mpfr_srcptr(), ln_lo.mpfr_srcptr(), MPFR_RNDD);
  mpfr_mul(hi.mpfr_ptr(), hi.mpfr_srcptr(), ln_hi.mpfr_srcptr(), MPFR_RNDU);
  if (y) {
    mpfr_set_q(t.mpfr_ptr(), y->get_mpq_t(), MPFR_RNDD);
    mpfr_add(lo.mpfr_ptr(), lo.mpfr_srcptr(), t.mpfr_srcptr(), MPFR_RNDD);
    mpfr_set_q(t.mpfr_ptr(), y->get_mpq_t(), MPFR_RNDU);
    mpfr_add(hi.mpfr_ptr(), hi.mpfr_srcptr(), t.mpfr_srcptr(), MPFR_RNDU);
  }
  const double a = mpfr_get_d(lo.mpfr_srcptr(), MPFR_RNDN);
  const double b = mpfr_get_d(hi.mpfr_srcptr(), MPFR_RNDN);
  out = a;
  return a == b;
}

using dd::Bounded;

// x·2^-k as a double when x is certified (dd::certain_double) and the result normal: the
// exact path then rounds to the same double (scaling by 2^-k commutes with rounding). NaN
// otherwise.
double unscaled(const Bounded& x, int k) {
  const double y = dd::scale2(dd::certain_double(x), -k);
  return std::abs(y) >= 0x1p-1022 && std::isfinite(y) ? y : std::nan("");
}

// The filtered stage for an active query (0 < d < d̂): the same three terms in double-double
// with a running bound, each kept when its enclosure rounds to one double; false sends the
// query to the next stage. ln s is transcendental (the exact path's MPFR Ziv loop); here
// `log_ratio` (dd::log_ratio_short, then dd::log_ratio) encloses it with a proven bound,
// and the result is kept under the same rule. A and κ are scaled by powers of two into [1, 2) and d, d̂ by one
// common power (d̂ into [1, 2)); value, gradient and Hessian scale by known powers of two.
template <Bounded (*log_ratio)(double, double)>
bool barrier_filtered(const cases::BarrierQuery& q, cases::BarrierResult& r) {
  if (!(std::isfinite(q.dhat) && std::isfinite(q.kappa) && std::isfinite(q.area) && q.kappa > 0 && q.area > 0))
    return false;
  const int a = -dd::exponent(q.area), b = -dd::exponent(q.kappa), c = -dd::exponent(q.dhat);
  const double area = dd::scale2(q.area, a), kappa = dd::scale2(q.kappa, b);
  const double d = dd::scale2(q.d, c), dhat = dd::scale2(q.dhat, c);
  if (dd::scale2(d, -c) != q.d || dd::scale2(area, -a) != q.area || dd::scale2(kappa, -b) != q.kappa)
    return false;  // a scaling fell into the subnormal range
  // With L = |ln s| = -ln(d/d̂): b = P·L, b' = -(K·L + R), b'' = K (d + d̂)/d² (see barrier()).
  const Bounded Ak = dd::mul_exact(area, kappa);
  const Bounded K(Ak.hi / 2, Ak.lo / 2, Ak.err / 2);  // exact: A, κ in [1, 2)
  const Bounded gap = Bounded(dhat) - Bounded(d);  // exact
  const Bounded L = -log_ratio(d, dhat);
  const Bounded P = K * gap;
  const Bounded R = P / Bounded(d);
  const Bounded H = K * (Bounded(d) + Bounded(dhat)) / dd::mul_exact(d, d);
  r.value = unscaled(P * L, a + b + c);
  r.gradient = -unscaled(K * L + R, a + b);
  r.hessian = unscaled(H, a + b - c);
  return !std::isnan(r.value) && !std::isnan(r.gradient) && !std::isnan(r.hessian);
}

}  // namespace

cases::BarrierResult barrier(const cases::BarrierQuery& q) {
  if (!(q.d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  cases::BarrierResult r;
  r.active = q.d < q.dhat;  // exact comparison of the double inputs
  if (!r.active) return r;
  // Two filtered stages: ln s to ≈ 2^-65 (dd::log_ratio_short), then to ≈ 2^-100
  // (dd::log_ratio) for the few the first cannot round; the exact path behind both.
  if (barrier_filtered<dd::log_ratio_short>(q, r)) return r;
  if (barrier_filtered<dd::log_ratio>(q, r)) return r;
  return barrier_exact(q);
}

std::optional<cases::BarrierResult> barrier_first_stage(const cases::BarrierQuery& q) {
  if (!(q.d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  cases::BarrierResult r;
  r.active = q.d < q.dhat;
  if (!r.active) return r;
  if (barrier_filtered<dd::log_ratio_short>(q, r)) return r;
  return std::nullopt;
}

cases::BarrierResult barrier_exact(const cases::BarrierQuery& q) {
  if (!(q.d > 0)) throw std::domain_error("barrier: distance to the ground must be > 0");
  cases::BarrierResult r;
  r.active = q.d < q.dhat;  // exact comparison of the double inputs
  if (!r.active) return r;
  // Doubles convert exactly to rationals. With s = d/d̂ < 1 and ln s < 0:
  //   b   = A d̂ (κ/2)(s - 1) ln s          = [A κ (d̂ - d)/2] · |ln s|
  //   b'  = A d̂ (κ/2)(ln s/d̂ + (s - 1)/d)  = -([A κ/2] · |ln s| + A κ (d̂ - d)/(2d))
  //   b'' = A d̂ κ (d + d̂)/(2 d² d̂)         = A κ (d + d̂)/(2 d²)        (rational)
  // Both terms of b' have the same sign: no cancellation, so the enclosures stay tight.
  const mpq_class d(q.d), dhat(q.dhat), ak = mpq_class(q.area) * mpq_class(q.kappa);
  const mpq_class half_ak = ak / 2;
  const Parts parts{half_ak * (dhat - d), half_ak, half_ak * (dhat - d) / d};
  r.hessian = exact::to_nearest_double(half_ak * (d + dhat) / (d * d));
  // ln s is transcendental (s != 1 rational): no exact value exists, hence MPFR enclosures,
  // refined until the rounding to double is decided.
  bool value_done = false, gradient_done = false;
  // 1 - s >= 2^-54 for doubles d < d̂, so from 128 bits on s's upper bound is below 1 and
  // |ln s| has a positive lower bound.
  for (mpfr_prec_t prec = 128;; prec *= 2) {
    if (prec > (mpfr_prec_t{1} << 24))
      throw std::logic_error("barrier: rounding not decided at 16M bits");  // cannot happen
    mpreal s_lo(0, prec), s_hi(0, prec), ln_lo(0, prec), ln_hi(0, prec), x(0, prec);
    mpfr_set_q(x.mpfr_ptr(), d.get_mpq_t(), MPFR_RNDN);  // exact: a double, prec >= 53
    mpfr_div_d(s_lo.mpfr_ptr(), x.mpfr_srcptr(), q.dhat, MPFR_RNDD);
    mpfr_div_d(s_hi.mpfr_ptr(), x.mpfr_srcptr(), q.dhat, MPFR_RNDU);
    // |ln s| = -ln s is decreasing in s: the lower bound from s_hi, the upper from s_lo.
    mpfr_log(ln_lo.mpfr_ptr(), s_hi.mpfr_srcptr(), MPFR_RNDU);
    mpfr_neg(ln_lo.mpfr_ptr(), ln_lo.mpfr_srcptr(), MPFR_RNDN);  // exact
    mpfr_log(ln_hi.mpfr_ptr(), s_lo.mpfr_srcptr(), MPFR_RNDD);
    mpfr_neg(ln_hi.mpfr_ptr(), ln_hi.mpfr_srcptr(), MPFR_RNDN);
    if (!value_done) value_done = enclose(parts.p, nullptr, ln_lo, ln_hi, prec, r.value);
    if (!gradient_done) {
      gradient_done = enclose(parts.k, &parts.r, ln_lo, ln_hi, prec, r.gradient);
      if (gradient_done) r.gradient = -r.gradient;
    }
    if (value_done && gradient_done) break;
  }
  return r;
}

double barrier_active_margin(const cases::BarrierQuery& q) {
  if (std::isinf(q.d)) return std::numeric_limits<double>::infinity();
  // Filtered: |d − d̂| / d̂ in double-double (the difference is exact there), kept when its
  // upward rounding is certain (and not subnormal).
  const double up = dd::certain_up_double(dd::abs(Bounded(q.d) - Bounded(q.dhat)) / Bounded(q.dhat));
  if (!std::isnan(up) && (up == 0 || up >= 0x1p-1022)) return up;
  return barrier_active_margin_exact(q);
}

double barrier_active_margin_exact(const cases::BarrierQuery& q) {
  if (std::isinf(q.d)) return std::numeric_limits<double>::infinity();
  return exact::up_to_double(abs(mpq_class(q.d) - mpq_class(q.dhat)) / mpq_class(q.dhat));
}

}  // namespace contactbench::reference
