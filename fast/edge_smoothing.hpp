// Fast edge smoothing in double (Woo; rule and decisions: ../shared/sources/README.md "Woo").
//
// Deviations from the reference: every decision (closest feature via fast::closest_feature,
// side of the facet, blue/red/green, vertex-cone membership) is taken on double values
// computed from unit vectors, with no exact fallback, so a query whose exact margin is within
// the stated bound below may land on the other side (`boundary`). n_lim and o_lim are
// computed as n1.n2 and |n1 x n2| (never sqrt(1 - n_lim^2), which loses half the digits near
// flat edges). The vertex cone uses small tolerances where the exact test compares with
// zero: d within 32 eps |d| of a candidate face counts as inside; outside needs a candidate
// as close to d as the best (|q|^2 within 64 eps |d|^2) whose unit residual r = d - q is
// polar up to g.r <= 1e-9 (exact zeros come out as +-1e-16; near-tied candidates swap order
// under rounding); the projection (the piece of n') is then the largest candidate whose
// residual is polar within its own error, 64 eps |d| / |r| (1 + 1 / sin_ij) (thin fans:
// a neighbouring ray passes the coarse 1e-9 test); generator pairs closer than 64 eps in
// angle are treated as parallel. Candidates of the cone projection
// (and, in the polar case, generators) within 32 eps |d| of the best are ties, resolved like
// the reference's exact ties: first in fan order, rays before faces; that labels the piece
// (cone_i, cone_j). A centre closer than 2^-26 M to its closest point (M: the largest
// distance of the centre to the facet's corners) is reported as on the facet
// (centre_on_facet, zone none, n1): there n = (centre - closest point) / d would carry an
// error of up to eps M / d, i.e. no information. Margins and the condition factor are not
// computed (left NaN).
//
// Thin facets (issue 8). A sliver/needle/cap made the old kernel `wrong` by up to 4.5e5 times
// its bound on face contacts: n was (centre - closest point) / d with the closest point from
// fast::closest_feature, whose error grows with the facet's aspect ratio, and facet normals
// were plain cross products of rounded edges (relative error ~ eps / sin(angle)). Fixed by a
// better-conditioned computation AND a bound derived for it:
//  - facet normals (n1, n2, cone generators) by facet_unit_normal: the edges b - a, c - a
//    split exactly into hi + lo (two-sum), the cross product as hi x hi with Kahan's fma
//    difference of products per component plus hi x lo + lo x hi. Per component the error is
//    <= 3u |N_i| + 22 u^2 |e1| |e2| (u = eps / 2; the dropped lo x lo term included), so the
//    unit normal is within 9u + 80 u^2 R, R = |e1| |e2| / |e1 x e2| = 1 / sin(angle at a):
//    a few ulps for every shape that is not within 1e-16 of collinear.
//  - a face contact's n is exactly +-n1 in exact arithmetic, so n' = side * n1 (no
//    difference of two nearby points), and d = |h1| with h1 = (centre - a).n1.
//  - the closest point is computed here for the region closest_feature returns (face:
//    centre - h1 n1; edge: u + t e; vertex: the vertex), so this kernel's bounds never depend
//    on closest_feature's point bound (which a parallel fix may change).
//  - D = centre - closest point from differences of inputs only (face h1 n1; edge
//    (centre - u) - t e; vertex centre - v), never through the rounded point, whose
//    coordinates round at the input's magnitude (1e-10 at 1e6), not at the facet's size.
// The sliver of issue 8 now errs by < 4e-16 (test edge_smoothing/issue8/
// issue8_sliver_face_contact_agrees).
//
// Stated error bound (used by the harness), computed from the query and the exact distance
// d = |centre - closest point| (the harness passes the reference's value; never from this
// variant's output). Differences of inputs round relative to themselves (Sterbenz aside, a
// double subtraction is correctly rounded), so sizes are distances, not coordinates: M the
// largest distance of the centre to a corner of the facets involved (the contacted facet and
// the fans of its vertices), eps = 2^-52; L (largest coordinate magnitude) only for output
// rounding. (The old form L / min(h, d), h the smallest altitude, grew with translation and
// still missed the thin-fan cone error below.)
//  - face (n' of a face contact): 16 eps + 64 eps^2 R, twice the facet_unit_normal error.
//  - angle (zone tests, n' of edge contacts): 64 eps kappa with kappa = 1 + M/d + 2 eps R,
//    R the largest 1 / sin(angle at a) of the involved facets. The edge contact direction
//    errs by <= 8 eps (1 + l / d) (l <= 2M the edge's length), the vertex one by eps, the
//    facet normals by <= 4.5 eps + 20 eps^2 R; a zone test (n.n1 against n1.n2, |n1 x n2|)
//    adds up to 8 eps (1 + 2M/d) + 32 eps + 120 eps^2 R.
//  - cone (vertex-cone decisions: in/out, polar, piece; n' there times the condition):
//    64 eps (kappa + 1 / sin_min), sin_min the smallest sine between two generators of the
//    corners' fans (above 64 eps): a cone face's plane normal carries the generators' error
//    divided by that sine (a degenerate needle fan far away showed 3.4e-5 in a 2e5 run when
//    this term was missing).
//  - length (side decision, centre_on_facet, overlap's distance part): 64 eps M; h1 errs by
//    <= 20u |centre - a| <= 20u M, the distance by <= 24u M.
//  - overlap: length + eps (radius + d) (the final subtraction; a radius far larger than M).
//  - point: length + 4 eps L (the output coordinates round at magnitude L) + M times the
//    normal's bound (the point moves with n' times |centre - feature| <= M).
//  - on_facet (centre_on_facet against the exact distance): the tolerance 2^-26 M + length.
//    Away from it, d > 2^-26 M (for an agreeing centre_on_facet), so kappa is finite.
// The bound does not grow when the query is translated far from the origin (issue 8's
// "size-1e-3 triangle at 1e6" keeps its resolution).
// The closest-feature region uses fast::closest_feature_bounds. Vertex cone piece (cone_i,
// cone_j): the cone bound against the reference's exact margin of the choice (for a polar
// generator, the gap in cosine to the fast's choice). Within an agreeing piece n' is compared
// within the cone bound times the piece's condition (1 for n' = n and for a generator;
// 1 / (ratio sin_ij) on a face: the projection's |P(d)| / |d| = ratio and the face plane's
// normal carries the generators' error divided by sin_ij), which is finite: ratio > 0 off the
// polar cone and sin_ij > 0 for a face. The contact point adds that times |centre - vertex|.
//
// Domain (edge_smoothing_in_domain): every coordinate of the centre and of the facets around the contacted
// facet's vertices is 0 or of magnitude in [2^-120, 2^120]; any radius. Then every nonzero
// difference is >= 2^-172 and products of up to four of them stay normal (>= 2^-688) and
// finite (<= 2^488), so the relative error analysis above applies. Outside it the harness
// reports out_of_domain (the reference still answers).
#pragma once
#include "cases/edge_smoothing.hpp"

namespace contactbench::fast {

cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q);

struct EdgeSmoothingBounds {
  double angle;     // dimensionless: zone decisions, |n' - n'_ref| of edge contacts
  double length;    // length: side decision, contact point (length part)
  double on_facet;  // length: the centre_on_facet decision against the exact distance
  double overlap;   // length: |overlap - overlap_ref| (length + the final subtraction)
  double face;      // dimensionless: |n' - n'_ref| for a face contact (n' = +-n1)
  double reach;     // length M: the largest distance of the centre to an involved corner
  double point;     // length: contact point, its length part (length + output rounding 4 eps L)
  double cone;      // dimensionless: vertex-cone decisions and n' (times the condition)
};
// The fast variant's stated domain: every coordinate of the centre and of the facets around
// the contacted facet's vertices is 0 or of magnitude in [2^-120, 2^120] (any radius).
bool edge_smoothing_in_domain(const cases::EdgeSmoothingQuery& q);
// Accurate unit normal of a triangle (compensated cross product; see the header comment).
cases::Vec3 facet_unit_normal(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c);
// The fast variant's threshold for centre_on_facet: 2^-26 M (length).
double on_facet_tolerance(const cases::EdgeSmoothingQuery& q);
// d: the exact distance |centre - closest point| (0 when the centre is on the facet).
EdgeSmoothingBounds edge_smoothing_bounds(const cases::EdgeSmoothingQuery& q, double d);

}  // namespace contactbench::fast
