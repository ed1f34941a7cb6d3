#include "cases/barrier.hpp"

#include <cmath>

namespace contactbench::cases {

void validate(const BarrierQuery& q, const Where& where) {
  auto positive_finite = [&](double v, const char* field) {
    if (!std::isfinite(v) || !(v > 0)) where.fail(field, "must be finite and > 0");
  };
  // d = +inf is a node infinitely far above the ground: valid, inactive.
  if (std::isnan(q.d) || !(q.d > 0))
    where.fail("d", "distance to the ground must be > 0 (the node has reached the ground)");
  auto in_domain = [&](double v, const char* field) {
    positive_finite(v, field);
    if (v < barrier_param_min || v > barrier_param_max)
      where.fail(field, "outside the barrier's domain [1e-50, 1e50] (intermediates of the "
                        "double formula would overflow or underflow)");
  };
  in_domain(q.dhat, "dhat");
  in_domain(q.kappa, "kappa");
  in_domain(q.area, "area");
  if (q.d < q.dhat && q.d / q.dhat < barrier_min_ratio)
    where.fail("d", "d/dhat below the barrier's domain limit 1e-12 (the node is closer to the "
                    "ground than 1e-12 dhat)");
}

BarrierQuery random_barrier(Rng& rng) {
  BarrierQuery q;
  q.dhat = 0.01 * pick_scale(rng);
  q.d = q.dhat * log_uniform(rng, barrier_min_ratio, 2.0);
  while (q.d / q.dhat < barrier_min_ratio) q.d = std::nextafter(q.d, INFINITY);  // rounding
  q.kappa = log_uniform(rng, 1.0, 1e8);
  q.area = log_uniform(rng, 1e-3, 1.0);
  return q;
}

BarrierQuery degenerate_barrier(Rng& rng) {
  BarrierQuery q;
  // d̂ either the book's 0.01 (scaled by a power of two) or a dyadic grid value.
  q.dhat = uniform_int(rng, 0, 1) ? 0.01 * pick_scale(rng)
                                  : std::ldexp(static_cast<double>(uniform_int(rng, 1, 1023)), -10) *
                                        pick_scale(rng);
  if (uniform_int(rng, 0, 1)) {
    q.kappa = 1e5;
    q.area = 0.25;
  } else {
    q.kappa = std::ldexp(1.0, static_cast<int>(uniform_int(rng, 0, 30)));
    q.area = std::ldexp(1.0, static_cast<int>(uniform_int(rng, -10, 0)));
  }
  switch (uniform_int(rng, 0, 5)) {
    case 0: q.d = q.dhat; break;                                   // exactly at d̂: inactive
    case 1: q.d = std::nextafter(q.dhat, 0.0); break;              // one ulp inside
    case 2: q.d = std::nextafter(q.dhat, INFINITY); break;         // one ulp outside
    case 3:                                                        // s = 1 - 2^-k
      q.d = q.dhat - std::ldexp(q.dhat, -static_cast<int>(uniform_int(rng, 1, 52)));
      break;
    case 4: q.d = std::ldexp(q.dhat, -static_cast<int>(uniform_int(rng, 1, 39))); break;  // s = 2^-k >= 1.8e-12
    default: q.d = q.dhat * std::ldexp(static_cast<double>(uniform_int(rng, 1, 1023)), -10); break;
  }
  return q;
}

}  // namespace contactbench::cases
