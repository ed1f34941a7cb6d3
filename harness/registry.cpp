#include "harness/registry.hpp"

#include "harness/pairs/barrier.hpp"
#include "harness/pairs/ccd.hpp"
#include "harness/pairs/closest_feature.hpp"
#include "harness/pairs/edge_smoothing.hpp"
#include "harness/pairs/ground_ccd.hpp"
#include "harness/scenarios/ccd_public.hpp"
#include "harness/scenarios/closest_feature_regions.hpp"
#include "harness/scenarios/rolling_sphere.hpp"
#include "harness/scenarios/square_drop.hpp"

#include <cstdlib>

namespace contactbench::harness {

// The registry: one line per pair — agreement class and why its tolerance is what it is.
const std::vector<Family>& families() {
  static const std::vector<Family> table = {
      make_family<ClosestFeaturePair>(
          Agreement::approximate,
          "fast's region excused only when p's exact distance to that region is within "
          "32u·kappa·(1+R/L)^2·(L/l) (forward error of the degree-4 side tests); point within "
          "32u(1+kappa)(1+R/L)+4u·M/L when the regions agree (plus the region bound for an "
          "excused neighbour), squared distance within 2·point·(1+R/L)+4u(1+R/L)^2"),
      make_family<CcdPair>(
          Agreement::conservative,
          "never a miss; a false positive is counted only when the exact motion comes within "
          "2^-39·kappa of the scale of touching (or the search was cut short), else wrong; toi a "
          "certified lower bound of t*, at most 2^-47 early unless the primitives are that close"),
      make_family<EdgeSmoothingPair>(
          Agreement::approximate,
          "a decision excused only when the exact distance to the value fast claimed (region, "
          "zone, cone piece; non-adjacent zone: wrong) is within 64eps·kappa (zone), "
          "64eps·(kappa + 1/sin_min) (cone), 64eps·M (side, on-facet) or the closest-feature "
          "bound, eps = 2^-52, kappa = 1 + M/d + 2eps·R from the query (M: centre-corner "
          "distance, d: exact distance, R: 1/sin of the facets' angles, sin_min: thinnest fan "
          "wedge); face n' within 16eps + 64eps^2 R; other n' within the decision's bound times "
          "the piece's condition; overlap within 64eps·M + eps(r + d)"),
      make_family<BarrierPair>(
          Agreement::approximate,
          "value, gradient, Hessian within 10 ULP of the correctly rounded value (<= 8.5u forward "
          "error of the cancellation-free double formula, + 0.5 ULP); `active` exact (d < dhat), "
          "never excused"),
      make_family<GroundCcdPair>(
          Agreement::approximate,
          "alpha within 4 ULP of the exact rational rounded once (3 roundings + the double 0.9); "
          "binding excused only when the exact relative gap between the reference's binding "
          "candidate and the node fast picked is within 8u"),
      // Planted faults: never part of a default run; the tests run them to see `wrong`.
      make_planted<ClosestFeatureVertexSnapFault>(Agreement::approximate, "vertex_snap",
                                                  "labels points near vertex a as vertex0"),
      make_planted<ClosestFeatureTightBoundFault>(Agreement::approximate, "tight_bound",
                                                  "honest kernel claiming exact decisions"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::strict_ties>>(
          Agreement::approximate, "strict_ties",
          "vertex0 and edge0 tests both strict: a tie on vertex0's plane falls to the face"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::edge_as_face>>(
          Agreement::approximate, "edge_as_face",
          "edge0's side test with an inside tolerance: points just beyond ab called face"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::in_plane_shortcut>>(
          Agreement::approximate, "in_plane_shortcut",
          "degenerate branch: a point in the triangle's plane taken as its own closest point"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::projection_sign>>(
          Agreement::approximate, "projection_sign",
          "sign error in the face projection (p + h n instead of p - h n)"),
      make_planted<ClosestFeatureKernelFault<ClosestFeatureFault::edge1_weights>>(
          Agreement::approximate, "edge1_weights", "barycentric weights of edge bc swapped"),
      make_planted<BarrierActiveLeFault>(Agreement::approximate, "active_le",
                                         "d <= dhat for d < dhat: active boundary flipped"),
      make_planted<BarrierNoLog1pFault>(Agreement::approximate, "no_log1p",
                                        "literal s - 1 and log(s): cancellation as s -> 1"),
      make_planted<BarrierGradientSignFault>(Agreement::approximate, "gradient_sign",
                                             "sign slip in the gradient's product rule"),
      make_planted<BarrierHessianTermFault>(Agreement::approximate, "hessian_term",
                                            "Hessian missing its dhat/d^2 term"),
      make_planted<BarrierClampFault>(Agreement::approximate, "clamp_d",
                                      "distance clamped at 1e-9 dhat"),
      make_planted<BarrierTightBoundFault>(Agreement::approximate, "tight_bound",
                                           "honest kernel claiming 1 ULP"),
      make_planted<GroundCcdNoFactorFault>(Agreement::approximate, "no_factor",
                                           "0.9 safety factor dropped: late step"),
      make_planted<GroundCcdZeroVelocityFault>(Agreement::approximate, "zero_velocity",
                                               "p <= 0 for p < 0: resting node divides by 0"),
      make_planted<GroundCcdBindingLastFault>(Agreement::approximate, "binding_last",
                                              "binding index set outside the min test"),
      make_planted<GroundCcdReversedVelocityFault>(Agreement::approximate, "reversed_velocity",
                                                   "velocity sign flipped: receding nodes bind"),
      make_planted<GroundCcdUncappedFault>(Agreement::approximate, "uncapped",
                                           "alpha not capped at 1"),
      make_planted<GroundCcdGroundAtOriginFault>(Agreement::approximate, "ground_at_origin",
                                                 "heights from y = 0, ground offset forgotten"),
      make_planted<GroundCcdTightBoundFault>(Agreement::approximate, "tight_bound",
                                             "honest kernel claiming alpha correctly rounded"),
      make_planted<EdgeSmoothingBlueSlackFault>(Agreement::approximate, "blue_slack",
                                                "zone mislabelled near blue/red: blue for n.n1 >= n_lim - 1e-2"),
      make_planted<EdgeSmoothingGreenSlackFault>(Agreement::approximate, "green_slack",
                                                 "zone mislabelled near red/green: green for n.n1 < -o_lim + 1e-2"),
      make_planted<EdgeSmoothingPolarFlipFault>(Agreement::approximate, "polar_flip",
                                                "comparison flipped: polar case keeps the generator of smallest d.g"),
      make_planted<EdgeSmoothingNeighbourSignFault>(Agreement::approximate, "neighbour_sign",
                                                    "sign error in n2: neighbour normal never flipped to agree with n1"),
      make_planted<EdgeSmoothingOnFacetDroppedFault>(Agreement::approximate, "on_facet_dropped",
                                                     "degenerate branch dropped: no centre_on_facet, n = D/|D| at D = 0"),
      make_planted<EdgeSmoothingRedRawNormalFault>(Agreement::approximate, "red_raw_normal",
                                                   "raw facet normal n1 instead of the smoothed n2 in the red zone"),
      make_planted<EdgeSmoothingTightBoundFault>(Agreement::approximate, "tight_bound",
                                                 "honest kernel claiming 4 eps for every angle"),
      make_planted<CcdLateToiFault>(Agreement::conservative, "late_toi",
                                    "toi is the right end of the surviving leaf (after t*)"),
      make_planted<CcdCoarseToiFault>(Agreement::conservative, "coarse_toi",
                                      "toi refined only to depth 8 (early by up to 2^-8)"),
      make_planted<CcdEndOfStepFault>(Agreement::conservative, "end_of_step",
                                      "last leaf kept only if t0 < 1 - w: contact at t = 1 missed"),
      make_planted<CcdDropCoplanarFault>(Agreement::conservative, "drop_coplanar",
                                         "a vanishing coplanarity cubic taken as no crossing"),
      make_planted<CcdEdgeCrossSignFault>(Agreement::conservative, "ee_cross_sign",
                                          "edge-edge inside test with db x w for w x db"),
      make_planted<CcdTightBoundFault>(Agreement::conservative, "tight_bound",
                                       "honest kernel claiming 2^-24 of its resolution bound"),
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

std::string default_shared_dir() {
  if (const char* env = std::getenv("CONTACTBENCH_SHARED")) return env;
  return std::string(CONTACTBENCH_SOURCE_DIR) + "/../shared";
}

}  // namespace contactbench::harness
