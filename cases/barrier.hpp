// The `barrier` pair: the book's ground barrier for one node (ipc-square-drop.txt,
// Implementation 8.3.1, BarrierEnergy.py val/grad/hess), as a function of the node's
// distance to the ground d = y - y_ground:
//   b(d) = A * d̂ * (κ/2) * (s - 1) * ln s,  s = d / d̂,  for 0 < d < d̂;  b = 0 for d >= d̂.
// Derivatives are with respect to d (the node's y coordinate), the only non-zero entries
// of the book's per-node gradient g[i][1] and Hessian diagonal (2i+1, 2i+1).
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace contactbench::cases {

struct BarrierQuery {
  // Distance to the ground, metres. Precondition d > 0 (d = +inf is allowed: inactive).
  // d <= 0 or NaN means the node has reached or crossed the ground: the CCD that bounds
  // every step exists so that this never happens. The loader rejects such queries with
  // InputError naming the field; the kernels throw std::domain_error (see fast/barrier.hpp).
  // Any positive double is valid, subnormals included.
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

// The fast kernel's stated domain (fast::barrier_in_domain; derivation of its 10 ULP bound
// in fast/barrier.hpp): d̂, κ and A each in [1e-50, 1e50], and, when active
// (d < d̂), s = d/d̂ >= 1e-12 (the double quotient). Inside it every intermediate of the
// fast formula is a normal, finite double: e.g. the Hessian's A·d̂·κ / (2·d·d·d̂) lies within
// [5e-201, 5e223] and every other product or quotient within [1e-267, 1e275]. Outside it the
// double formula overflows or underflows (κ = 1e306 at the book's d, d̂: the Hessian is
// +inf; d = 1e-320: 2·d·d·d̂ is 0); such queries are `out_of_domain` (the reference still
// answers them). d >= d̂ (inactive, nothing is computed) may be any positive value.
inline constexpr double barrier_min_ratio = 1e-12;
inline constexpr double barrier_param_min = 1e-50;
inline constexpr double barrier_param_max = 1e50;
// The predicate of that domain (fast::barrier_in_domain is this; the generators label by it).
bool barrier_in_fast_domain(const BarrierQuery& q);

// Bad input, not a domain question: throws InputError naming the first offending field
// unless d > 0 (d = +inf allowed), and d̂, κ, A finite and > 0. Every such query, whatever
// its magnitudes (subnormal, 1e-300, 1e300), is answered by the reference.
void validate(const BarrierQuery& q, const Where& where);

// The family's vocabulary (see cases/common.hpp).
struct Barrier {
  using Query = BarrierQuery;
  using Result = BarrierResult;
  // The book's constants at the distances that matter (cases/barrier.cpp).
  static std::vector<Named<Query>> canonical();
  // Generators with regime labels. Axes: config (far_below: s in [1e-9, 1e-3]; tiny:
  // s in [1e-12, 1e-9], the largest values; mid: s in [1e-3, 1/2); near: s in [1/2, 1) with
  // 1 - s down to 1e-16, where ln s needs log1p; just_inside / at_dhat / just_outside: d a
  // few ulps from d̂ or exactly d̂; inactive: d > d̂), scale (d̂'s decade), params (book:
  // κ = 1e5, A = 0.25; typical: log-uniform κ in [1, 1e12], A in [1e-6, 1e2]; end: κ, A at
  // the domain ends 1e-50 / 1e50), domain (inside; end: d̂ or s at the edge of the fast
  // domain; outside: subnormal, 1e-300, 1e300 inputs beyond it, answered by the reference
  // only). degenerate: the same configurations on a dyadic grid (d̂ = m·2^e, κ and A powers
  // of two), so d = d̂, s = 1 - 2^-k and s = 2^-k are exact.
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);
  // JSON Lines record {"d": 0.005, "dhat": 0.01, "kappa": 1e5, "area": 0.25}; dhat, kappa
  // and area default to the book's values; any other key is rejected (a misspelling must
  // not run with a default). Bad input is one InputError naming the field (validate); any
  // other magnitude is accepted (the reference answers it; outside the fast domain the
  // verdict is out_of_domain).
  static Query from_json(const nlohmann::json& j, const Where& w);
};

}  // namespace contactbench::cases
