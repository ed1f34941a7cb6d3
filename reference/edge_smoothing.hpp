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

cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q);

}  // namespace contactbench::reference
