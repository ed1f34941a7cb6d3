// Registry traits of the `pfc_resolution` pair (see harness/pair.hpp for the contract).
#pragma once
#include "cases/pfc_resolution.hpp"
#include "fast/pfc_resolution.hpp"
#include "harness/pair.hpp"
#include "reference/pfc_resolution.hpp"

namespace contactbench::harness {

struct PfcResolutionPair : Pair<cases::PfcResolution> {
  static constexpr std::string_view stem = "pfc_resolution";
  static constexpr Agreement agreement = Agreement::approximate;
  static constexpr std::string_view rule =
      "contacts, regions, links, active flags, inheritance and proximity groups equal; a "
      "difference is excused only when the first decision where fast's trace parts from the "
      "reference's (side, region, overlap, order, segment, angle, plane; never a link) has its "
      "exact margin within fast's stated bound for it; wall points, overlaps, normals and "
      "contact points within the stated bounds";
  static Result reference(const Query& q) { return reference::pfc_resolution(q); }
  static Result fast(const Query& q) { return fast::pfc_resolution(q); }
  static bool in_domain(const Query& q) { return fast::pfc_resolution_in_domain(q); }
  static std::vector<DecisionSpace> decision_space();
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::pfc_resolution_bounds(q));
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::PfcResolutionBounds& bounds);
};

// Planted faults (registry: pfc_resolution_planted_<name>): the honest kernel with one slip
// (fast::PfcSlips), or the honest kernel claiming bounds of 0.
template <bool fast::PfcSlips::*Slip>
struct PfcResolutionSlipFault : PfcResolutionPair {
  static Result fast(const Query& q) {
    fast::PfcSlips s;
    s.*Slip = true;
    return fast::pfc_resolution(q, s);
  }
};

struct PfcResolutionTightBoundFault : PfcResolutionPair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, {});
  }
};

}  // namespace contactbench::harness
