// Fast (double) ground CCD of the book (ipc-square-drop.txt, Implementation 8.3.2,
// BarrierEnergy.init_step_size), operation for operation:
//   alpha = 1; for i with p_y < 0: alpha = min(alpha, 0.9 * (y_ground - y_i) / p_y)
// i.e. (0.9 * (y_ground - y_i)) / p_y rounded after each operation, and Python's min,
// which keeps the earlier value on ties.
//
// Deviations from the reference (reference/ground_ccd.hpp: the exact rational value of
// the same formula with the decimal 9/10, rounded once): the subtraction, the product by
// the double 0.9 (itself 2.2e-17 above 9/10) and the division each round, so alpha is
// within 4 ULP of the reference and `binding` may differ only where two candidates are
// within a relative 8·2^-53 of each other (ground_ccd_bounds) — in the domain of
// ground_ccd_in_domain, outside which queries are `out_of_domain`.
//
// Precondition y_i > y_ground for every node; a violation throws std::domain_error.
#pragma once
#include "cases/ground_ccd.hpp"

#include <cstddef>
#include <stdexcept>

namespace contactbench::fast {

struct GroundCcdStep {
  double alpha;
  int binding;
};

// Heights y[i*stride], directions py[i*stride] for i < n: the scenario passes its
// interleaved (x, y) arrays directly (stride 2), the pair its plain vectors (stride 1).
inline GroundCcdStep ground_ccd_step(const double* y, const double* py, std::size_t n,
                                     std::ptrdiff_t stride, double y_ground) {
  GroundCcdStep r{1.0, -1};
  for (std::size_t i = 0; i < n; ++i) {
    const double yi = y[static_cast<std::ptrdiff_t>(i) * stride];
    const double pi = py[static_cast<std::ptrdiff_t>(i) * stride];
    if (!(yi > y_ground)) throw std::domain_error("ground_ccd: node on or below the ground");
    if (pi < 0) {
      const double c = 0.9 * (y_ground - yi) / pi;
      if (c < r.alpha) r = {c, static_cast<int>(i)};  // min(alpha, c) keeps alpha on ties
    }
  }
  return r;
}

// The stated domain of the bounds above (cases/ground_ccd.hpp): magnitudes <= 1e300, every
// node >= 1e-300 above the ground, every candidate's raw ratio >= 1e-300.
inline bool ground_ccd_in_domain(const cases::GroundCcdQuery& q) {
  return cases::ground_ccd_in_fast_domain(q);
}

// Fast error bound: (0.9·(y_g - y))/p rounds three times (the subtraction is exact when
// y is within a factor 2 of y_g, by Sterbenz) and its double 0.9 is 0.22u above 9/10:
// relative error < 3.3u < 3.3 ULP; with the reference's own 0.5 ULP, 4 ULP. The fast
// minimum can pick another node only if two exact candidates are within 2·3.3u < 8u of
// each other, relatively: that is the margin bound of `binding`.
struct GroundCcdBounds {
  double alpha_ulp;       // ULP of the reference's alpha
  double binding_margin;  // exact relative gap between the two nodes' candidates
};
inline GroundCcdBounds ground_ccd_bounds(const cases::GroundCcdQuery&) { return {4, 8 * 0x1p-53}; }

// The pair's entry point (same signature as reference::ground_ccd).
cases::GroundCcdResult ground_ccd(const cases::GroundCcdQuery& q);

}  // namespace contactbench::fast
