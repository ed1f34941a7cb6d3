// Fast rounded-triangle contact in double precision (Smeets et al. 2014, SI 1, with the
// errata of ../shared/sources/README.md): facing test (37) first; the contact plane's
// centre c and an orthonormal frame (u1, u2) of the plane, counter-clockwise about
// d = c2 − c1; both triangles in plane coordinates relative to c; S by Sutherland–Hodgman
// clipping of P' against Q' (closed half-planes, Q' reversed to counter-clockwise), instead
// of the paper's eqs. (33)–(35) and its sort by dot product with p1 (which does not give a
// counter-clockwise order); c_p the nearest point of S to the plane's origin.
//
// Deviations from the reference: decisions are signs of double expressions, so a query
// within rounding of a boundary may get the other value (excused as `boundary` when the
// reference's exact margin is within the bound below). S's vertices are clipped in double:
// a vertex within the merge tolerance of a neighbour, or of the line through its two
// neighbours, is dropped (the reference's S has no repeated or collinear vertices), so the
// vertex count can differ from the exact one only where a vertex of one projection is
// within count_margin of an edge of the other. Intersection points of nearly parallel edges
// are ill-conditioned along the edges, but S as a set is not: the polygon is compared as a
// set (Hausdorff distance). No margins (NaN).
#pragma once
#include "cases/rounded_triangle_contact.hpp"

#include <utility>
#include <vector>

namespace contactbench::fast {

cases::RoundedTriangleContactResult rounded_triangle_contact(const cases::RoundedTriangleContactQuery& q);

// The same kernel with deliberate faults switched on: the planted faults of
// harness/pairs/rounded_triangle_contact.hpp (all false: the kernel above).
struct RoundedTriangleContactVariant {
  bool open_half_planes = false;  // eqs. (34)-(35)'s strict inequalities: open sets
  bool paper_delta_s = false;     // the paper's δ_s = |c2 − c1| − R1 − R2
  bool h_for_h2 = false;          // "h = |c − c_p|²" read literally: h² squared again in (36)
  bool dot_order = false;         // vertices sorted by dot product with the first one
  bool facing_last = false;       // facing (37) evaluated but not used to stop first
};
cases::RoundedTriangleContactResult rounded_triangle_contact(const cases::RoundedTriangleContactQuery& q,
                                                             const RoundedTriangleContactVariant& faults);

// Stated bounds for one query (u = 2^-53; L = max(R1, R2) the query's scale; decisions in
// the unit of the reference's margins, continuous fields relative to L or L²).
//
// Derivation. Facing: n_i = e1 × e2 from rounded edge differences (each component errs by
// <= 3u|e1||e2| with |e| <= l_i), the dot with d (itself rounded, u|d|) adds 3u more:
// |fl(n·d) − n·d| <= 8u·l_i²|d| per component sum, 32u with slack — the margin's unit.
// Overlap: (R1+R2)² and |d|² each within 3u of themselves: 8u of their sum.
// S: every plane coordinate is (x − c)·u_k with c = c1 + t d; the absolute error is at most
// ~6u·(|c| + |x − c|) (c's rounding at its own magnitude |c|, which translation far from the
// origin makes dominant, plus the frame's non-orthonormality ~4u) — with X = max(|c1|, |c2|)
// + 2 max(R1, R2) + |d| bounding both, the picture errs by <= 8u X. A clipped vertex lies on
// a subject edge at a signed side value of the clip edge that errs by ~4u X·|edge|, i.e.
// <= 4u X off the clip line; the set S therefore moves by <= 16u X in Hausdorff distance,
// stated as eps = 64u X. Merging within tol = 4 eps moves it by <= 2 tol: polygon bound
// 12 eps / L. Count: a vertex count differs only where a vertex of one projection is within
// tol + 2 eps of an edge of the other: count bound (tol + 2 eps)/L = 6 eps / L.
// c_p: projection of c onto a convex set moved by e = 12 eps (Hausdorff) with c itself off
// by <= eps: |Δc_p| <= 2 eps + 2 sqrt(e (h + e)) (obtuse-angle property of the projection,
// h = |c − c_p|). h² within (2h + e) e + 4u h². δ_s within 8u (R1 + R2 + |d|).
// r_c² = R1² − (t|d|)², t|d| = (|d|² + R1² − R2²)/(2|d|): within 8u (R1² + |t d| E + (t d)²),
// E = (|d|² + R1² + R2²) / (2|d|); contact bound (that + h²'s)/L². δ_t = a + b − |d| with
// a = sqrt(R1² − h²): |Δa| <= sqrt(|Δ(R1² − h²)|), plus 8u (a + b + |d|).
struct RoundedTriangleContactBounds {
  double facing = 0, overlap = 0, count = 0, contact = 0;  // decisions (margin units)
  double polygon = 0, delta_s = 0;                          // relative to L
  double eps = 0, L = 1;                                    // absolute picture error, scale
  // The h-dependent bounds (h = |c − c_p| of the reference).
  double contact_point(double h) const;  // relative to L
  double h2(double h) const;             // relative to L²
  double contact_with(double h, const cases::RoundedTriangleContactQuery& q) const;  // L² units
  double delta_t(double h, const cases::RoundedTriangleContactQuery& q) const;       // relative to L
};
RoundedTriangleContactBounds rounded_triangle_contact_bounds(const cases::RoundedTriangleContactQuery& q);

// Domain: every coordinate and radius within [2^-400, 2^400] in magnitude or zero, so no
// product of the formulas (degree <= 4 in lengths) overflows or underflows.
bool rounded_triangle_contact_in_domain(const cases::RoundedTriangleContactQuery& q);

// The merge tolerance of the clipped polygon (absolute length).
double rounded_triangle_contact_merge_tolerance(const cases::RoundedTriangleContactQuery& q);

// δ_t(h) for a fixed pair of spheres: eq. (36) with the README's δ_s = R1 + R2 − |c2 − c1|,
// for offsets h in [0, r_c] (NaN outside). The data of the δ_t(h) curve.
double delta_t_of_h(double r1, double r2, double distance, double h);
// The curve's data: samples + 1 points (h_i, δ_t(h_i)), h_i = r_c·i/samples from 0 to the
// contact circle's radius r_c (empty when the spheres do not overlap).
std::vector<std::pair<double, double>> delta_t_curve(double r1, double r2, double distance, int samples);

}  // namespace contactbench::fast
