// Reference ground barrier (ipc-square-drop.txt, Implementation 8.3.1): the exact value
// of b, b' and b'' at the exact double inputs, correctly rounded to the nearest double
// (ties cannot occur: see below), for every positive double d and every positive finite
// d̂, κ, A — subnormals and magnitudes up to the largest double included. Values beyond the
// doubles round to ±inf, below them to 0 or a subnormal, as IEEE rounding to nearest does.
//
// The Hessian A·κ·(d + d̂)/(2d²) is rational: GMP rationals, rounded once. Value and gradient
// contain ln s, s = d/d̂, which is transcendental for rational s != 1, so no rational
// evaluation exists: MPFR there. Each is enclosed in an interval with directed roundings
// (lower and upper bound at p bits, p = 128, 256, 512, ...) until both bounds round to the
// same double (Ziv's strategy). That terminates because the exact value (a nonzero rational
// times ln s, plus a rational for the gradient) is transcendental, hence never a double nor
// a midpoint between two. MPFR's exponent range (about ±2^30) holds every intermediate, and
// mpfr_get_d rounds correctly into the subnormal range and to ±inf.
//
// Same precondition and error reporting as fast::barrier (d > 0, else std::domain_error).
#pragma once
#include "cases/barrier.hpp"

#include <optional>

namespace contactbench::reference {

// Filtered: value, gradient and Hessian are first evaluated in double-double with a running
// error bound (ln s included) and kept when each enclosure rounds to one double; otherwise
// the MPFR/GMP path below answers. Two such stages: ln s to ≈ 2^-65 (dd::log_ratio_short),
// then to ≈ 2^-100 (dd::log_ratio). Bit-identical to the exact path
// (harness/tests/filtered_reference.cpp, barrier_first_stage_reference.cpp).
cases::BarrierResult barrier(const cases::BarrierQuery& q);

// The first filtered stage alone (ln s by dd::log_ratio_short, ≈ 2^-65 relative): the
// answer when it certifies all three terms (or the query is inactive), nullopt when it defers
// to the double-double stage with the long log. For tests.
std::optional<cases::BarrierResult> barrier_first_stage(const cases::BarrierQuery& q);

// The exact path alone (GMP rationals, MPFR Ziv loop for ln s): for tests.
cases::BarrierResult barrier_exact(const cases::BarrierQuery& q);

// The margin of the decision `active` = (d < d̂): the exact |d - d̂| / d̂ rounded upward
// (0 exactly when d = d̂, +inf when d = +inf).
// Filtered like barrier; barrier_active_margin_exact is the exact path alone.
double barrier_active_margin(const cases::BarrierQuery& q);
double barrier_active_margin_exact(const cases::BarrierQuery& q);

}  // namespace contactbench::reference
