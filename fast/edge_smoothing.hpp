// Fast edge smoothing in double (Woo; rule and decisions: ../shared/sources/README.md "Woo").
//
// Deviations from the reference: every decision (closest feature via fast::closest_feature,
// side of the facet, blue/red/green, vertex-cone membership) is taken on double values
// computed from unit vectors, with no exact fallback, so a query whose exact margin is within
// the stated bound below may land on the other side (`boundary`). n_lim and o_lim are
// computed as n1.n2 and |n1 x n2| (never sqrt(1 - n_lim^2), which loses half the digits near
// flat edges). The vertex cone uses three small tolerances where the exact test compares
// with zero: d within 32 eps |d| of a candidate face counts as inside; the polar test needs
// g.r > 1e-9 for the unit residual r (exact zeros come out as +-1e-16); generator pairs
// closer than 64 eps in angle are treated as parallel. Margins and the condition factor are
// not computed (left NaN).
//
// Stated error bound (used by the harness): with L the largest coordinate magnitude of the
// centre and the facets involved (the contacted facet and the fans of its vertices), h the
// smallest altitude of those facets and d = |centre - closest point|, kappa = L / min(h, d).
// Every difference of inputs carries an absolute error <= eps L, so unit facet normals and
// the unit contact direction carry an error <= ~8 eps kappa, and each dot/cross product of
// unit vectors adds a few eps. We state 64 eps kappa for the dimensionless quantities (zone
// and cone tests, the normal n') and 64 eps kappa L for lengths (closest-feature region and
// side decisions, contact point, overlap).
#pragma once
#include "cases/edge_smoothing.hpp"

namespace contactbench::fast {

cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q);

struct EdgeSmoothingBound {
  double angle;   // dimensionless: zone/cone decisions, |n' - n'_ref|
  double length;  // length: region/side decisions, contact point, overlap
};
EdgeSmoothingBound edge_smoothing_bound(const cases::EdgeSmoothingQuery& q,
                                        const cases::EdgeSmoothingResult& fast_result);

}  // namespace contactbench::fast
