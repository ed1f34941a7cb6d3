// The exact constructions behind the Smeets figures (harness/scenarios/smeets_figures.hpp):
// the S1/S2 pair and the queries of the δ_t(h) curve. Both are built in a contact plane
// x = const (centres on the x axis), so projecting onto it drops x and plane coordinates are
// (y, z); every coordinate is dyadic.
#pragma once
#include "cases/rounded_triangle_contact.hpp"

namespace contactbench::cases {

// Figures S1 and S2: equal spheres r = 13/4 about (∓11/4, 0, 0), so the contact plane is
// x = 0, c the origin and r_c² = r² − (11/4)² = 3. P projects to (1/2, −1), (5/2, −1/2),
// (1/2, 1) (counter-clockwise in (y, z): n1·x > 0), its vertices tilted towards c1 (x = −1/4,
// −3/2, −1/2); Q projects to (0, −3/4), (0, 3/4), (3, −5/8) (clockwise: n2·x < 0), at x = 1/4,
// 1/4, 2. Each sphere contains its triangle. By hand: S = P' ∩ Q' is a pentagon inside the
// half-plane y >= 1/2 that contains the segment y = 1/2, |z| <= 1/2 (Q' spans |z| <= 3/4 at y = 0
// and about 0.73 at y = 1/2), so c_p = (0, 1/2, 0) and h² = 1/4 < r_c²: contact; the vertex
// (5/2, −1/2) of S lies outside the contact circle (|.|² = 6.5 > 3). δ_s = 13/2 − 11/2 = 1,
// δ_t = 1 − 13/2 + 2·sqrt(169/16 − 1/4).
RoundedTriangleContactCase smeets_figure_case();

// A pair whose S is the triangle (h, −w), (h + w, 0), (h, w) in plane coordinates (y, z),
// w = r_c/16, so c_p = (x_c, h, 0) and h² = h² exactly: spheres (0, r1) and ((distance, 0, 0),
// r2), P just on c1's side of the contact plane and Q just on c2's (both contain their
// triangle for h <= r_c when r1 = 1, r2 = 1/2, distance = 5/4). Requires overlapping spheres.
RoundedTriangleContactQuery smeets_offset_query(double r1, double r2, double distance, double h);

}  // namespace contactbench::cases
