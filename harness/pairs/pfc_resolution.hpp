// Registry traits of the `pfc_resolution` pair (see harness/pair.hpp for the contract).
#pragma once
#include "cases/pfc_resolution.hpp"
#include "fast/pfc_resolution.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/pfc_resolution.h"
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
      "contact points within the stated bounds. A plugin reports no trace: a difference is "
      "excused when any decision the reference took (but a link) has its exact margin "
      "within fast's bound for it";
  static Result reference(const Query& q) { return reference::pfc_resolution(q); }
  static Result fast(const Query& q) { return fast::pfc_resolution(q); }
  static bool in_domain(const Query& q) { return fast::pfc_resolution_in_domain(q); }
  static std::vector<DecisionSpace> decision_space();
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::pfc_resolution_bounds(q));
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::PfcResolutionBounds& bounds);
  // C ABI (include/contactbench/pfc_resolution.h). The wall, its sides and the previous
  // contacts are passed as pointers into the query's own arrays (the query outlives the
  // call). Walls of more than CONTACTBENCH_PFC_MAX_CONTACTS facets are outside a plugin's
  // domain (a contact's links are a bit mask over the contact slots).
  using CQuery = contactbench_pfc_resolution_query;
  using CResult = contactbench_pfc_resolution_result;
  static bool plugin_in_domain(const Query& q) {
    return in_domain(q) && q.wall->facet_count() <= CONTACTBENCH_PFC_MAX_CONTACTS;
  }
  static CQuery to_c(const Query& q);
  static Result from_c(const CResult& c, const Query& q);
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
