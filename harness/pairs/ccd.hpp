// Registry traits of the ccd pair (vertex-face and edge-edge continuous collision detection;
// see harness/pair.hpp for the contract). Agreement class: conservative.
#pragma once
#include "cases/ccd.hpp"
#include "fast/ccd.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/ccd.h"
#include "reference/ccd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactbench::harness {

// What is known of a query's reference answer and of a miss's separation (the estimate
// reference::ccd_separation_of_miss, ~1,300 distance evaluations; the rule needs its value
// only for a false positive, elsewhere only which side of the excuse threshold it is on).
struct CcdMemoEntry {
  cases::CcdResult ref;
  double sep = -1;       // the separation of a miss (< 0: a hit, or not computed)
  double sep_lower = 0;  // a proven lower bound of it (reference::ccd_separation_lower_bound)
  double sep_upper = std::numeric_limits<double>::infinity();  // a proven upper bound of it
};

struct CcdPair : Pair<cases::Ccd> {
  static constexpr std::string_view stem = "ccd";
  static constexpr Agreement agreement = Agreement::conservative;
  static constexpr std::string_view rule =
      "never a miss; a false positive is counted only when the exact motion comes within "
      "2^-39·kappa of the scale of touching (kappa: the conditioning at the fast toi, clamped "
      "to [4, 2^16], so 7.3e-12 to 1.2e-7 of the scale; or the search was cut short), else "
      "wrong; toi a certified lower bound of t*, at most 2^-47 early unless the primitives are "
      "that close";
  static Result reference(const Query& q) { return reference::ccd(q); }
  static Result fast(const Query& q) { return fast::ccd(q); }
  // The hand-made cases (source "canonical", ground truth = the hand-derived hit flag) and
  // the 7,279 public queries of <shared>/data/ccd-queries (source "<scene>/<kind>").
  static std::vector<cases::Named<Query>> canonical(const CheckOptions& o);
  // The fast variant's stated domain (fast::ccd_in_domain): |coordinates| <= 2^200 and
  // ccd_scale >= 2^-200; other queries are out_of_domain (the reference still answers).
  static bool in_domain(const Query& q) { return fast::ccd_in_domain(q); }
  // Decisions the reference takes (reported by compare through Comparison::reached):
  //  hit      hit / miss. margin: miss: the separation (cases::ccd_scale units, as the
  //           false-positive rule), bound: the excuse threshold below; hit: 1 - t* (how much
  //           shorter the step would have to be to miss it; 0: first touch exactly at t = 1),
  //           bound 0 (fast may never miss).
  //  toi      t0 (touching at t = 0) / interior / t1 (first touch exactly at t = 1); margin
  //           min(t*, 1 - t*) in time units, bound fast::ccd_toi_gap_bound.
  //  feature  cases::CcdFeature of the first contact; margin CcdResult::feature_margin,
  //           bound the excuse threshold (the fast resolution at its toi).
  static std::vector<DecisionSpace> decision_space();
  // The rule (conservative class; bounds stated and derived in fast/ccd.hpp):
  //  - reference hit != ground truth (data sets and canonical cases): wrong (field
  //    "reference_vs_ground_truth"; the oracle itself is off);
  //  - fast misses a contact: wrong (field "hit", infinite margin);
  //  - fast reports a contact that is not there: a counted false positive only when the
  //    fast result is flagged cut_short (node budget / input range: no distance claim) or
  //    the reference's separation is <= fast::ccd_separation_bound_at(q, fast toi) / 2
  //    (the separation is a long-double upper estimate, accurate to ~2^-60 of the scale;
  //    half the bound keeps that error far on the safe side); otherwise wrong (field
  //    "hit", margin = separation);
  //  - both hit and fast toi > exact toi (reference toi is t* rounded down, so this is
  //    exactly fast toi > t*): wrong (field "toi_lower_bound");
  //  - both hit: "toi_gap" = reference toi - fast toi, bound fast::ccd_toi_gap_bound (one
  //    leaf); a larger gap is allowed only at a near contact: continuous
  //    "toi_early_distance" = distance between the primitives at the fast toi / scale, bound
  //    ccd_separation_bound_at / 2 (unless cut_short: then a counted false positive).
  static Comparison compare(const Query& q, const Result& ref, const Result& fast);
  // The rule with the stated resolution bound multiplied by `claim` (1: the fast variant's
  // own claim; a planted fault states a tighter one). `known`: what is known of the
  // separation of a miss (ref is `ref`); what this computes is added to it. The separation's
  // value is computed only for a false positive (the rule and its note quote it); for the
  // other misses the count needs only whether it is <= the excuse threshold, which a proven
  // lower bound above it (reference::ccd_separation_lower_bound, also below the estimate)
  // or else reference::ccd_separation_of_miss_at_most (exact, early-exiting) settles. The
  // coverage decision "miss" then carries a bound on the same side of the threshold (the
  // counts are the same) and records compute the separation itself
  // (Comparison::Decision::exact_margin, explain).
  static Comparison compare_claim(const Query& q, const Result& ref, const Result& fast,
                                  double claim, CcdMemoEntry& known);
  // C ABI (include/contactbench/ccd.h); toi_up, feature and its margin stay unset (fast's).
  using CQuery = contactbench_ccd_query;
  using CResult = contactbench_ccd_result;
  static CQuery to_c(const Query& q) {
    CQuery c;
    c.kind = q.kind == cases::CcdKind::edge_edge ? CONTACTBENCH_CCD_EDGE_EDGE : CONTACTBENCH_CCD_VERTEX_FACE;
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 3; ++k) c.x[i][k] = q.x[i][k];
    return c;
  }
  static Result from_c(const CResult& c, const Query&) {
    for (auto [name, v] : {std::pair{"hit", c.hit}, std::pair{"cut_short", c.cut_short}})
      if (v != 0 && v != 1) throw PluginError(fmt::format("field {}: {} is neither 0 nor 1", name, v));
    Result r;
    r.hit = c.hit == 1;
    r.toi = c.toi;
    r.toi_up = std::numeric_limits<double>::quiet_NaN();
    r.cut_short = c.cut_short == 1;
    return r;
  }
};

// The reference's answer and what is known of a miss's separation for one query, memoised:
// `check --planted` runs the same queries for the family and each planted fault, and the
// exact reference (the costliest of all the references) would dominate seven times over.
// CcdPair::compare (check and eval only, never the benchmarks) stores what it computed; the
// planted faults read it (computing the reference on a miss of the memo) and add what they
// computed (the separation, tighter bounds of it; an entry is never otherwise changed).
// Pure functions of the query, so the verdicts are the same; at most 2^20 queries are kept.
CcdMemoEntry ccd_memo(const cases::CcdQuery& q);
void ccd_memo_store(const cases::CcdQuery& q, const CcdMemoEntry& e);
// compare_claim on the memo's entry, storing what it computed.
Comparison ccd_compare_memo(const cases::CcdQuery& q, const cases::CcdResult& ref,
                            const cases::CcdResult& fast, double claim);

// Planted faults (registered in harness/registry.cpp as ccd_planted_<name>; `check --family
// ccd --planted` must find each one `wrong`). Each is a bug a real CCD kernel could have.
struct CcdPlanted : CcdPair {
  static Result reference(const Query& q) { return ccd_memo(q).ref; }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return ccd_compare_memo(q, ref, fast, 1.0);
  }
};
// Not registered: "a contact at t = 0 for every query" is too blunt to count towards the
// mutation score; harness/tests/ccd.cpp uses it to show the conservative rule bites.
struct CcdAlwaysHitFault : CcdPlanted {
  static Result fast(const Query&) {
    return {.hit = true, .toi = 0, .toi_up = std::numeric_limits<double>::quiet_NaN()};
  }
};
struct CcdLateToiFault : CcdPlanted {  // toi = right end of the surviving leaf, not its left end
  static Result fast(const Query& q) {
    auto r = fast::ccd(q);
    if (r.hit) r.toi = std::min(1.0, r.toi + 0x1p-48);
    return r;
  }
};
struct CcdCoarseToiFault : CcdPlanted {  // stops refining toi at depth 8 (early by up to 2^-8)
  static Result fast(const Query& q) {
    auto r = fast::ccd(q);
    if (r.hit) r.toi = std::floor(r.toi * 256) / 256;
    return r;
  }
};
struct CcdEndOfStepFault : CcdPlanted {  // last leaf kept only if t0 < 1 - w: `<` for `<=` at t = 1
  static Result fast(const Query& q) {
    auto r = fast::ccd(q);
    if (r.hit && !(r.toi < 1 - 0x1p-48)) r = {.hit = false, .toi = 1, .toi_up = r.toi_up};
    return r;
  }
};
struct CcdDropCoplanarFault : CcdPlanted {
  static Result fast(const Query& q) { return fast::ccd_planted(q, fast::CcdFault::drop_coplanar); }
};
struct CcdEdgeCrossSignFault : CcdPlanted {
  static Result fast(const Query& q) { return fast::ccd_planted(q, fast::CcdFault::ee_cross_sign); }
};
struct CcdTightBoundFault : CcdPlanted {  // the honest kernel claiming 2^-24 of its resolution
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return ccd_compare_memo(q, ref, fast, 0x1p-24);
  }
};

}  // namespace contactbench::harness
