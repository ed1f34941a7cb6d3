// Fast PFC faceted-wall resolution in double (the logic is cases::resolve_pfc, shared with
// the reference; only the predicates and constructions differ).
//
// Per facet: fast::closest_feature (region, wall point, d^2); the side from the sign of
// ((b-a) x (c-a)).(x-a); d^2 against R*R; overlaps ordered by d^2; theta <= Theta as
// (n_f/|n_f|).(n_g/|n_g|) >= cos(Theta); the full-mode segment test and the hole-check plane
// sides as the reference's formulas evaluated in double.
//
// Deviations from the reference: every decision is a sign of a double expression, so a query
// within rounding of a boundary (closer than the stated bound below) may take the other
// branch. The kernel records its decisions (result.decisions, without margins) in the
// reference's order; the harness excuses a discrete difference as `boundary` only when the
// first decision where the two traces part has its exact margin within the bound stated here
// for it. Wall points, overlaps, normals and contact points carry rounding error within the
// stated bounds.
//
// Domain (pfc_resolution_in_domain): R in [2^-100, 2^100], |coordinates| <= 2^100 and every
// facet inside fast::closest_feature's domain with the centre as query point (the segment
// test's triple products are of degree 4 in coordinates: <= 2^400 there, no overflow).
#pragma once
#include "cases/pfc_resolution.hpp"

namespace contactbench::fast {

// Planted faults only (harness/pairs/pfc_resolution.*): each flag is one slip of the kind
// real resolution kernels have. All false: the honest kernel.
struct PfcSlips {
  bool link_no_vertex = false;   // a wall point on a vertex links nothing
  bool winner_smallest = false;  // comparison flipped: the smallest overlap wins
  bool angle_unsigned = false;   // theta <= Theta squared without sign handling
  bool full_as_reduced = false;  // full mode's segment test never blocks
  bool side_flipped = false;     // front and back swapped
  bool pc_unweighted = false;    // proximity normal: plain sum of unit normals
};

cases::PfcResult pfc_resolution(const cases::PfcQuery& q, const PfcSlips& slips = {});

bool pfc_resolution_in_domain(const cases::PfcQuery& q);

// Stated bounds, per query, in the units of the reference's margins (u = 2^-53; R the
// radius; per facet f: L_f longest edge, kappa_f = L_f^2/(2 area), and fast::closest_feature's
// bounds decision_f, point_across_f (relative to L_f), squared_distance_across_f (relative to
// L_f^2); D = largest |vertex - x|):
//   region  = max_f decision_f L_f / R              (closest_feature's own bound, in R)
//   point   = max_f point_across_f L_f / R          (wall point, relative to R)
//   E2      = max_f squared_distance_across_f L_f^2 (d^2, absolute)
//   overlap = E2/R^2 + 4u                           (d^2 vs R*R: R*R rounds by u R^2)
//   order   = 2 E2/R^2                              (two d^2 compared)
//   side    = max_f 16u kappa_f (|x - a_f| + L_f)/R (the triple product's rounding,
//             ~8u |b-a||c-a||x-a|, over |n| = 2 area; factor 2 slack)
//   angle   = 32u max kappa + 16u                   (each cross product's direction errs by
//             <= 4u kappa; normalizing and the dot product add a few u; factor 2 slack)
//   segment = 2 point + 32u max kappa (D + R)/R     (the reference's margin divides the
//             crossing point's distance to the edges by its sensitivity to the wall point,
//             so moving WP by point·R moves the decision by at most that; plus the rounding
//             of the orientation tests)
//   plane   = 4 point + 64u (D + R)/R               (the margin is divided by the plane's
//             sensitivity to WP and to the normals, each moved by at most point·R)
struct PfcResolutionBounds {
  double side, region, overlap, order, segment, angle, plane;  // decisions
  double point, squared_distance;  // point relative to R; squared_distance = E2 (absolute)
};
PfcResolutionBounds pfc_resolution_bounds(const cases::PfcQuery& q);

}  // namespace contactbench::fast
