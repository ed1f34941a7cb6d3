// Reference ground CCD (ipc-square-drop.txt, Implementation 8.3.2): the exact rational
// value of the book's formula
//   alpha = min(1, min over i with p_y < 0 of (9/10) (y_ground - y_i) / p_y)
// at the exact double inputs (GMP rationals), rounded once to the nearest double. The
// book's 0.9 is taken as the decimal 9/10 it stands for; the double 0.9 is one of the
// fast variant's roundings. `binding` follows the book's loop (first node attaining the
// minimum, -1 when the cap 1 is not beaten) and `margin` is its exact relative gap to the
// runner-up.
//
// Exact for every finite double input (rationals have no exponent range; the one rounding,
// to_nearest_double, handles subnormal results): a node 1e-320 above the ground or 1e308
// apart from it is answered like any other.
//
// Same precondition and error reporting as fast::ground_ccd (y_i > y_ground, else
// std::domain_error).
#pragma once
#include "cases/ground_ccd.hpp"

namespace contactbench::reference {

// Filtered: candidates, comparisons, alpha and margin are first evaluated in double-double
// with a running error bound and kept when every comparison is certain and each value's
// enclosure rounds to one double; otherwise (exact or near ties) the rational path below
// answers. Bit-identical to it (harness/tests/filtered_reference.cpp).
cases::GroundCcdResult ground_ccd(const cases::GroundCcdQuery& q);

// The exact path alone (GMP rationals): for tests.
cases::GroundCcdResult ground_ccd_exact(const cases::GroundCcdQuery& q);

// The margin of a `binding` mismatch: the exact relative gap |c_j - c_i| / min(c_i, c_j)
// between the candidates of i and j, where node k's candidate is 9/10 (y_ground - y_k)/p_k
// when p_k < 0 and k = -1 stands for the cap 1. A node with p_k >= 0, or an index outside
// [-1, n), is no candidate at all: +inf. Rounded upward, so it never understates the gap;
// 0 exactly when the two candidates are equal (i == j included).
double ground_ccd_candidate_gap(const cases::GroundCcdQuery& q, int i, int j);

// The margin of node i's decision "approaching" (p_i < 0, a candidate) against "resting"
// (p_i = 0) and "receding" (p_i > 0): the exact |p_i| / (y_i - y_ground), the fraction of
// its height the step moves it, rounded upward; 0 exactly when p_i = 0.
// Filtered like ground_ccd; ground_ccd_direction_margin_exact is the exact path alone.
double ground_ccd_direction_margin(const cases::GroundCcdQuery& q, std::size_t i);
double ground_ccd_direction_margin_exact(const cases::GroundCcdQuery& q, std::size_t i);

}  // namespace contactbench::reference
