// The `barrier` pair: the book's ground barrier for one node (ipc-square-drop.txt,
// Implementation 8.3.1, BarrierEnergy.py val/grad/hess), as a function of the node's
// distance to the ground d = y - y_ground:
//   b(d) = A * d̂ * (κ/2) * (s - 1) * ln s,  s = d / d̂,  for 0 < d < d̂;  b = 0 for d >= d̂.
// Derivatives are with respect to d (the node's y coordinate), the only non-zero entries
// of the book's per-node gradient g[i][1] and Hessian diagonal (2i+1, 2i+1).
#pragma once
#include "cases/common.hpp"

#include <string>
#include <vector>

namespace contactbench::cases {

struct BarrierQuery {
  // Distance to the ground, metres. Precondition d > 0 (d = +inf is allowed: inactive).
  // d <= 0 or NaN means the node has reached or crossed the ground: the CCD that bounds
  // every step exists so that this never happens. The loader rejects such queries with
  // InputError naming the field; the kernels throw std::domain_error (see fast/barrier.hpp).
  double d = 0.005;
  double dhat = 0.01;   // activation distance d̂ > 0, metres (book: dhat = 0.01)
  double kappa = 1e5;   // barrier stiffness κ > 0 (book: kappa = 1e5)
  double area = 0.25;   // contact-area weight A > 0, metres (book: side / n_seg)
};

struct BarrierResult {
  bool active = false;   // d < d̂ (an exact comparison of the inputs, so never in doubt)
  double value = 0;      // b(d) >= 0, zero when inactive
  double gradient = 0;   // db/dd <= 0 (the force -db/dd pushes the node up), zero when inactive
  double hessian = 0;    // d²b/dd² > 0 when active, zero when inactive
};

// The domain in which the fast kernel's stated error bound holds (10 ULP, derivation in
// harness/pairs/barrier.cpp): d̂, κ and A each in [1e-50, 1e50], and, when active (d < d̂),
// s = d/d̂ >= 1e-12 (the double quotient). Inside it every intermediate of the fast formula
// is a normal, finite double: e.g. the Hessian's A·d̂·κ / (2·d·d·d̂) lies within
// [5e-201, 5e223] and every other product or quotient within [1e-267, 1e275]. Outside it the
// double formula overflows or underflows (κ = 1e306 at the book's d, d̂: the Hessian is
// +inf; d = 1e-320: 2·d·d·d̂ is 0). d >= d̂ (inactive, nothing is computed) may be any
// positive value, +inf included.
inline constexpr double barrier_min_ratio = 1e-12;
inline constexpr double barrier_param_min = 1e-50;
inline constexpr double barrier_param_max = 1e50;

// Throws InputError naming the first offending field unless d > 0, d̂, κ, A finite and > 0,
// and the query lies in the domain above (d̂, κ, A in range: that field; s < 1e-12: "d").
void validate(const BarrierQuery& q, const Where& where);

// Generators (every query inside the domain above). random: s = d/d̂ log-uniform over
// [1e-12, 2] (about 1 in 40 inactive), d̂ at the three generator scales, κ and A
// log-uniform. degenerate: d on the boundary d = d̂, one ulp either side of it,
// s = 1 - 2^-k (cancellation in s - 1 and ln s), s = 2^-k (k <= 39), the book's constants,
// d̂ from the dyadic grid.
BarrierQuery random_barrier(Rng& rng);
BarrierQuery degenerate_barrier(Rng& rng);

}  // namespace contactbench::cases
