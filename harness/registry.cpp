#include "harness/registry.hpp"

#include "harness/pairs/barrier.hpp"
#include "harness/pairs/ccd.hpp"
#include "harness/pairs/closest_feature.hpp"
#include "harness/pairs/edge_smoothing.hpp"
#include "harness/pairs/ellipsoid_contact.hpp"
#include "harness/pairs/ground_ccd.hpp"
#include "harness/pairs/pfc_resolution.hpp"
#include "harness/pairs/rounded_triangle_contact.hpp"
#include "harness/pairs/triangle_intersection.hpp"
#include "harness/scenarios/ccd_public.hpp"
#include "harness/scenarios/closest_feature_regions.hpp"
#include "harness/scenarios/ellipsoid_pour.hpp"
#include "harness/scenarios/pfc_static.hpp"
#include "harness/scenarios/rolling_sphere.hpp"
#include "harness/scenarios/smeets_figures.hpp"
#include "harness/scenarios/smeets_hertz.hpp"
#include "harness/scenarios/pfc_walls.hpp"
#include "harness/scenarios/square_drop.hpp"


namespace contactbench::harness {

// The registry: one line per pair (its agreement class and rule are in its traits), its
// published methods and its planted faults.
const std::vector<Family>& families() {
  static const std::vector<Family> table = {
      make_family<ClosestFeaturePair>(),
      make_family<CcdPair>(),
      make_family<EdgeSmoothingPair>(),
      make_family<BarrierPair>(),
      make_family<GroundCcdPair>(),
      make_family<PfcResolutionPair>(),
      make_family<RoundedTriangleContactPair>(),
      make_family<TriangleIntersectionPair>(),
      make_family<EllipsoidContactPair>(),
      // Published methods: measured beside the family's own fast variant, not gated.
      make_published<BarrierBookFormula>("book",
                                         "the book's BarrierEnergy.py formula: s - 1 and log(s) "
                                         "from the rounded s = d/dhat"),
      make_published<TriangleIntersectionMoller>("moller",
          "Moller 1997, plain double: plane distances, intervals on the planes' line (divisions)"),
      make_published<TriangleIntersectionGuigueDevillers>("guigue_devillers",
          "Guigue-Devillers 2003, plain double orientation signs"),
      make_published<EllipsoidContactShortcut>("shortcut",
          "the paper's classifier: discriminant of f and its coefficient signs (double), state only"),
      make_published<EllipsoidContactFcl>("fcl_collide",
          "FCL 0.7 collide (GJK/EPA via libccd) on two fcl::Ellipsoidd, state only"),
      make_published<EllipsoidContactCertifiedState>("certified_state",
          "ours beside FCL collide: the certified state alone (fast certificates, else the reference's exact state)"),
      // Planted faults: never part of a default run; the tests run them to see `wrong`.
      make_planted<ClosestFeatureVertexSnapFault>("vertex_snap",
                                                  "labels points near vertex a as vertex0"),
      make_planted<ClosestFeatureTightBoundFault>("tight_bound",
                                                  "honest kernel claiming exact decisions"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::strict_ties>>("strict_ties",
          "vertex0 and edge0 tests both strict: a tie on vertex0's plane falls to the face"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::edge_as_face>>("edge_as_face",
          "edge0's side test with an inside tolerance: points just beyond ab called face"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::in_plane_shortcut>>("in_plane_shortcut",
          "degenerate branch: a point in the triangle's plane taken as its own closest point"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::projection_sign>>("projection_sign",
          "sign error in the face projection (p + h n instead of p - h n)"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::edge1_weights>>("edge1_weights", "barycentric weights of edge bc swapped"),
      make_planted<BarrierActiveLeFault>("active_le",
                                         "d <= dhat for d < dhat: active boundary flipped"),
      make_planted<BarrierGradientSignFault>("gradient_sign",
                                             "sign slip in the gradient's product rule"),
      make_planted<BarrierHessianTermFault>("hessian_term",
                                            "Hessian missing its dhat/d^2 term"),
      make_planted<BarrierClampFault>("clamp_d",
                                      "distance clamped at 1e-9 dhat"),
      make_planted<BarrierTightBoundFault>("tight_bound",
                                           "honest kernel claiming 1 ULP"),
      make_planted<GroundCcdNoFactorFault>("no_factor",
                                           "0.9 safety factor dropped: late step"),
      make_planted<GroundCcdZeroVelocityFault>("zero_velocity",
                                               "p <= 0 for p < 0: resting node divides by 0"),
      make_planted<GroundCcdBindingLastFault>("binding_last",
                                              "binding index set outside the min test"),
      make_planted<GroundCcdReversedVelocityFault>("reversed_velocity",
                                                   "velocity sign flipped: receding nodes bind"),
      make_planted<GroundCcdUncappedFault>("uncapped",
                                           "alpha not capped at 1"),
      make_planted<GroundCcdGroundAtOriginFault>("ground_at_origin",
                                                 "heights from y = 0, ground offset forgotten"),
      make_planted<GroundCcdTightBoundFault>("tight_bound",
                                             "honest kernel claiming alpha correctly rounded"),
      make_planted<EdgeSmoothingBlueSlackFault>("blue_slack",
                                                "zone mislabelled near blue/red: blue for n.n1 >= n_lim - 1e-2"),
      make_planted<EdgeSmoothingGreenSlackFault>("green_slack",
                                                 "zone mislabelled near red/green: green for n.n1 < -o_lim + 1e-2"),
      make_planted<EdgeSmoothingPolarFlipFault>("polar_flip",
                                                "comparison flipped: polar case keeps the generator of smallest d.g"),
      make_planted<EdgeSmoothingNeighbourSignFault>("neighbour_sign",
                                                    "sign error in n2: neighbour normal never flipped to agree with n1"),
      make_planted<EdgeSmoothingOnFacetDroppedFault>("on_facet_dropped",
                                                     "degenerate branch dropped: no centre_on_facet, n = D/|D| at D = 0"),
      make_planted<EdgeSmoothingRedRawNormalFault>("red_raw_normal",
                                                   "raw facet normal n1 instead of the smoothed n2 in the red zone"),
      make_planted<EdgeSmoothingTightBoundFault>("tight_bound",
                                                 "honest kernel claiming 4 eps for every angle"),
      make_planted<CcdLateToiFault>("late_toi",
                                    "toi is the right end of the surviving leaf (after t*)"),
      make_planted<CcdCoarseToiFault>("coarse_toi",
                                      "toi refined only to depth 8 (early by up to 2^-8)"),
      make_planted<CcdEndOfStepFault>("end_of_step",
                                      "last leaf kept only if t0 < 1 - w: contact at t = 1 missed"),
      make_planted<CcdDropCoplanarFault>("drop_coplanar",
                                         "a vanishing coplanarity cubic taken as no crossing"),
      make_planted<CcdEdgeCrossSignFault>("ee_cross_sign",
                                          "edge-edge inside test with db x w for w x db"),
      make_planted<TriangleIntersectionFault<StrictTouchPolicy>>("strict_touch",
          "final interval test strict: touching pairs missed"),
      make_planted<TriangleIntersectionFault<DropCoplanarPolicy>>("drop_coplanar",
          "coplanar branch dropped: coplanar pairs reported disjoint"),
      make_planted<TriangleIntersectionFault<SmallBoundPolicy>>("small_bound",
          "filter bound 1/64 of the derived one: wrong double signs trusted"),
      make_planted<TriangleIntersectionFault<ForgetFlipPolicy>>("forget_flip",
          "q's vertices not swapped when p's lone vertex is below q's plane"),
      make_planted<TriangleIntersectionFault<NoEdgeCrossPolicy>>("no_edge_cross",
          "coplanar test without the edge-crossing case"),
      make_planted<TriangleIntersectionFault<SwappedFinalPolicy>>("swapped_final",
          "q1 and q2 exchanged in the final two orientations"),
      make_planted<CcdTightBoundFault>("tight_bound",
                                       "honest kernel claiming 2^-24 of its resolution bound"),
      make_planted<PfcResolutionSlipFault<&fast::PfcSlips::link_no_vertex>>("link_no_vertex",
          "link test ignores vertex regions: contacts meeting at a vertex stay apart"),
      make_planted<PfcResolutionSlipFault<&fast::PfcSlips::winner_smallest>>("winner_smallest",
          "overlap comparison flipped: the smallest overlap of a linked set is active"),
      make_planted<PfcResolutionSlipFault<&fast::PfcSlips::angle_unsigned>>("angle_unsigned",
          "theta <= Theta squared without sign handling: opposite normals count as within"),
      make_planted<PfcResolutionSlipFault<&fast::PfcSlips::full_as_reduced>>("full_as_reduced",
          "full mode's segment test never blocks (reduced logic in full mode)"),
      make_planted<PfcResolutionSlipFault<&fast::PfcSlips::side_flipped>>("side_flipped",
          "front and back sides swapped"),
      make_planted<PfcResolutionSlipFault<&fast::PfcSlips::pc_unweighted>>("pc_unweighted",
          "proximity-contact normal the plain sum of unit normals, not overlap-weighted"),
      make_planted<PfcResolutionTightBoundFault>("tight_bound",
                                                 "honest kernel claiming every bound 0"),
      make_planted<RoundedTriangleContactOpenFault>("open_half_planes",
          "eqs. (34)-(35) strict: vertices exactly on the other's edge dropped from S"),
      make_planted<RoundedTriangleContactDeltaSFault>("paper_delta_s",
          "the paper's delta_s = |c2 - c1| - R1 - R2 (sign not fixed)"),
      make_planted<RoundedTriangleContactHFault>("h_for_h2",
          "h = |c - c_p|^2 read literally: delta_t from h^4"),
      make_planted<RoundedTriangleContactDotOrderFault>("dot_order",
          "S sorted by dot product with its first vertex (the paper's erratum)"),
      make_planted<RoundedTriangleContactFacingLastFault>("facing_last",
          "facing test run after the contact test: non-facing pairs get S and contact"),
      make_planted<RoundedTriangleContactTightBoundFault>("tight_bound",
          "honest kernel claiming exact decisions and fields"),
      make_planted<EllipsoidContactFault<&fast::EllipsoidSlips::descartes>>("descartes",
          "positive roots counted by Descartes' rule of signs instead of Sturm"),
      make_planted<EllipsoidContactFault<&fast::EllipsoidSlips::minus_pencil>>("minus_pencil",
          "det(lambda A - B)'s convention read as det(lambda A + B)'s"),
      make_planted<EllipsoidContactFault<&fast::EllipsoidSlips::unsafe_newton>>("unsafe_newton",
          "Perram-Wertheim Newton from t = 1/2 without its bracket, 6 steps"),
      make_planted<EllipsoidContactFault<&fast::EllipsoidSlips::normal_from_b>>("normal_from_b",
          "normal of B at the point: from B towards A"),
      make_planted<EllipsoidContactFault<&fast::EllipsoidSlips::chord_squared>>("chord_squared",
          "centre-line reach without its square root"),
      make_planted<EllipsoidContactTightBoundFault>("tight_bound",
          "honest kernel claiming exact state and fields"),
  };
  return table;
}

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> table = {
      {"closest_feature_regions",
       "regions of one triangle and boundary-heavy queries, reference vs fast labels",
       &run_closest_feature_regions},
      {"ccd_public",
       "both CCD variants on the 7,279 public queries (Wang et al. 2021) with per-query times",
       &run_ccd_public},
      {"rolling_sphere",
       "sphere rolling on triangulated planes and in a half-cylinder trough, raw vs smoothed "
       "(Woo), fast vs reference kernels",
       &run_rolling_sphere},
      {"square_drop",
       "the book's mass-spring square dropped on an IPC-barrier ground: fast (double) and "
       "reference (MPFR-128, exact CCD) runs, per-step positions, iterations, energies",
       &run_square_drop},
      {"smeets_figures",
       "Smeets figures S1, S2 and delta_t(h) from exact constructions, reference and fast kernels",
       &run_smeets_figures},
      {"smeets_hertz",
       "force between two meshed spheres (icospheres, 20 ... 20,480 triangles) summed over "
       "rounded-triangle facet pairs against Hertz; fast sweep, reference spot checks",
       &run_smeets_hertz},
      {"pfc_static",
       "PFC faceted-wall resolution, static (Figures 7 and 8): active contacts and effective "
       "normal stiffness on a rough wall against the cutoff angle; wedge sliver and stacked "
       "segments, reduced vs full; fast vs reference",
       &run_pfc_static},
      {"pfc_coplanar",
       "PFC Figures 4 and 9: sphere pressed on a coplanar multi-facet wall and translated "
       "(prescribed), every contact mode, shear history against one large facet",
       &run_pfc_coplanar},
      {"pfc_convex_edge",
       "PFC Figure 5: sphere carried around a convex edge (prescribed), every contact mode",
       &run_pfc_convex_edge},
      {"concave_edge",
       "PFC Figures 6 and 11: sphere moved into a concave edge (prescribed), every contact "
       "mode, with and without proximity contacts",
       &run_concave_edge},
      {"pfc_holes",
       "PFC Figure 10: state propagation across a whole wall, a one-cell hole and a gap "
       "(full mode, prescribed)",
       &run_pfc_holes},
      {"ellipsoid_pour",
       "Vyatkin & Dolgovesov: N ellipsoids poured through an inclined tube onto a plane, per-body "
       "velocity-level affine constraints; statistics, phase times, scaling over N, certified "
       "narrow-phase decisions",
       &run_ellipsoid_pour},
  };
  return table;
}

const Family* find_family(std::string_view name) {
  for (const auto& f : families())
    if (f.name == name) return &f;
  return nullptr;
}

const Scenario* find_scenario(std::string_view name) {
  for (const auto& s : scenarios())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace contactbench::harness
