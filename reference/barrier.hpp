// Reference ground barrier (ipc-square-drop.txt, Implementation 8.3.1): the exact value
// of b, b' and b'' at the exact double inputs, rounded once to the nearest double.
//
// Why MPFR and not CGAL's rationals: b contains ln s, which is transcendental, so no
// rational evaluation exists. MPFR's log is correctly rounded at any precision; at 256
// bits every operation is exact or rounded at 2^-256 relative, so the final rounding to
// double gives the correctly rounded result unless the exact value lies within ~2^-250
// (relative) of a midpoint between two doubles.
//
// Same precondition and error reporting as fast::barrier (d > 0, else std::domain_error).
#pragma once
#include "cases/barrier.hpp"

namespace contactbench::reference {

inline constexpr int barrier_precision_bits = 256;

cases::BarrierResult barrier(const cases::BarrierQuery& q);

}  // namespace contactbench::reference
