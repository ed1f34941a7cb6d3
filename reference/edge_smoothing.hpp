// Reference edge smoothing (Woo; rule and decisions: ../shared/sources/README.md "Woo").
// Exact on the double inputs: the closest feature (reference::closest_feature), the side of
// the facet, the blue/red/green tests (after squaring, with sign handling; no square roots)
// and the vertex-cone membership are decided in rational arithmetic; the projected contact
// point of the red and green zones is an exact rational rounded once. Only where a square
// root cannot be avoided -- unit normals, the overlap, the vertex-cone boundary direction and
// the margins -- is the value evaluated in 256-bit MPFR and rounded to double.
#pragma once
#include "cases/edge_smoothing.hpp"

namespace contactbench::reference {

// Margins are exact decisions with their values evaluated in 256-bit MPFR and rounded UP
// (never below the true margin, so a rounded margin never excuses a mismatch the exact one
// would not); exact zeros stay 0.
// Filtered: the whole kernel is first evaluated in double-double with a running error bound
// on the query scaled by a power of two; its decisions are kept when their enclosures
// exclude 0 and its doubles when each enclosure rounds to one double. Otherwise the exact
// path below answers. Bit-identical to it (harness/tests/filtered_reference.cpp).
cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q);

// The exact path alone (rationals, and 256-bit MPFR where a square root forces it): for tests.
cases::EdgeSmoothingResult edge_smoothing_exact(const cases::EdgeSmoothingQuery& q);

// The margin that excuses a fast `zone` different from the exact one: the distance of
// x = n.n1 to the claimed zone's interval (blue [n_lim, 1], red (-o_lim, n_lim), green
// x <= min(-o_lim, n_lim); first match wins), rounded up. +inf (always `wrong`) for a claim
// that is not adjacent to the exact zone (blue against green when the red interval between
// them is not empty, red when it is empty), for none / vertex_cone, and when the exact
// closest feature is not an internal edge or the centre is on the facet. 0 for the exact zone.
double edge_smoothing_zone_distance(const cases::EdgeSmoothingQuery& q, cases::Zone zone);

// The margin that excuses a fast vertex-cone piece (cone_i, cone_j) different from the exact
// one in the projected case (d = centre - vertex outside the cone, not polar): the distance
// of d/|d| to the closed set S of directions whose cone projection P(d) lies on the claimed
// piece (unit as feature_margin), exact in rationals and one square root rounded up. Ray i:
// S = R+ g_i + N(ray); face (i, j): S = F + N(F) with F the cone's whole face in the plane of
// g_i, g_j, so any pair spanning the same face plane is the same piece (coplanar generators).
// 0 when d is in S (exact ties, the same face under another label); a far piece gets its true,
// large distance; +inf (always `wrong`) when S holds no such d (a plane that does not support
// the cone, a ray inside the cone, parallel or out-of-range indices) and when the exact case
// is not a projected vertex cone.
double edge_smoothing_cone_piece_distance(const cases::EdgeSmoothingQuery& q, int cone_i,
                                          int cone_j);

}  // namespace contactbench::reference
