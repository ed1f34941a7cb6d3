// Exact reference of the rounded-triangle contact pair (implementation in
// reference/src/rounded_triangle_contact.cpp; no CGAL in this header).
#pragma once
#include "cases/rounded_triangle_contact.hpp"

namespace contactbench::reference {

// Exact on the double inputs: the facing signs, c, the projections, S (convex hull of the
// candidate points, closed sets), c_p and h² are exact rationals (GMP), rounded once to the
// nearest double; δ_s and δ_t need square roots: MPFR at 256 bits from cancellation-free
// forms, rounded once. Margins (rounded up, scale-free):
//   facing_margin  = min over the two eq. (37) quantities of |n_i·d| / (l_i² |d|), l_i the
//                    longest edge of triangle i, d = c2 − c1 (the smaller one decides);
//   overlap_margin = |(R1+R2)² − |d|²| / ((R1+R2)² + |d|²);
//   contact_margin = |r_c² − h²| / L², L = max(R1, R2);
//   count_margin   = the smallest distance from a vertex of P' to the closed edges of Q'
//                    or back, over L: S's vertex count changes only when a vertex of one
//                    projection crosses an edge of the other.
cases::RoundedTriangleContactResult rounded_triangle_contact(const cases::RoundedTriangleContactQuery& q);

}  // namespace contactbench::reference
