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
// closer than 64 eps in angle are treated as parallel. Candidates of the cone projection
// (and, in the polar case, generators) within 32 eps |d| of the best are ties, resolved like
// the reference's exact ties: first in fan order, rays before faces; that labels the piece
// (cone_i, cone_j). A centre closer than 2^-26 L_f to its closest point (L_f: the largest
// coordinate magnitude of the centre and the facet) is reported as on the facet
// (centre_on_facet, zone none, n1): there n = (centre - closest point) / d would carry an
// error of up to eps L / d, i.e. no information. Margins and the condition factor are not
// computed (left NaN).
//
// Stated error bound (used by the harness), computed from the query and the exact distance
// d = |centre - closest point| (the harness passes the reference's value; never from this
// variant's output): with L the largest coordinate magnitude of the centre and the facets
// involved (the contacted facet and the fans of its vertices), h the smallest altitude of those
// facets and eps = 2^-52 (numeric_limits<double>::epsilon()), kappa = L / min(h, d) and
// kappa_h = L / h. Every difference of inputs carries an absolute error <= eps L, so unit facet
// normals carry an error <= ~8 eps kappa_h and the unit contact direction <= ~8 eps kappa,
// and each dot/cross product of unit vectors adds a few eps. We state 64 eps kappa for the
// dimensionless quantities (zone and cone tests, the normal n') and 64 eps kappa_h L for
// lengths: the side decision (a plane test (centre - a).n1: 1 / d does not enter), the
// contact point's length part and the overlap. The closest-feature region uses
// fast::closest_feature_bounds. Centre on the facet: the tolerance 2^-26 L_f plus
// 64 eps kappa_h L for the closest point's error, against the exact distance. Away from it,
// d > 2^-26 L_f (for an agreeing centre_on_facet), so kappa <= 2^26 L / L_f: finite.
// Vertex cone piece (cone_i, cone_j): 64 eps kappa against the reference's exact margin of
// the choice (for a polar generator, the gap in cosine to the fast's choice). Within an
// agreeing piece n' is compared within 64 eps kappa times the piece's condition (1 for n' = n
// and for a generator; 1 / (ratio sin_ij) on a face: the projection's |P(d)| / |d| = ratio
// and the face plane's normal carries the generators' error divided by sin_ij), which is
// finite: ratio > 0 off the polar cone and sin_ij > 0 for a face. The contact point adds
// that times |centre - vertex| <= L.
#pragma once
#include "cases/edge_smoothing.hpp"

namespace contactbench::fast {

cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q);

struct EdgeSmoothingBound {
  double angle;     // dimensionless: zone/cone decisions, |n' - n'_ref| (times the condition)
  double length;    // length: side decision, contact point (length part), overlap
  double on_facet;  // length: the centre_on_facet decision against the exact distance
};
// The fast variant's threshold for centre_on_facet: 2^-26 L_f (length).
double on_facet_tolerance(const cases::EdgeSmoothingQuery& q);
// d: the exact distance |centre - closest point| (0 when the centre is on the facet).
EdgeSmoothingBound edge_smoothing_bound(const cases::EdgeSmoothingQuery& q, double d);

}  // namespace contactbench::fast
