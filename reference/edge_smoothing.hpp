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
cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q);

// The margin that excuses a fast `zone` different from the exact one: the distance of
// x = n.n1 to the claimed zone's interval (blue [n_lim, 1], red (-o_lim, n_lim), green
// x <= min(-o_lim, n_lim); first match wins), rounded up. +inf (always `wrong`) for a claim
// that is not adjacent to the exact zone (blue against green when the red interval between
// them is not empty, red when it is empty), for none / vertex_cone, and when the exact
// closest feature is not an internal edge or the centre is on the facet. 0 for the exact zone.
double edge_smoothing_zone_distance(const cases::EdgeSmoothingQuery& q, cases::Zone zone);

}  // namespace contactbench::reference
