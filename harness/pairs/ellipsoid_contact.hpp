// Registry traits of the ellipsoid_contact pair (see harness/pair.hpp for the contract), its
// published methods (the paper's shortcut, FCL's collide) and its planted faults.
#pragma once
#include "cases/ellipsoid_contact.hpp"
#include "fast/ellipsoid_contact.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/ellipsoid_contact.h"
#include "reference/ellipsoid_contact.hpp"

namespace contactbench::harness {

// FCL 0.7 (Debian's libfcl-dev), harness/pairs/ellipsoid_contact_fcl.cpp: fcl::collide of
// two fcl::Ellipsoidd (GJK/EPA through libccd) with the unit-quaternion rotation. 1 when
// FCL reports a collision, else 0. Only collide: FCL 0.7's distance() aborts on exactly
// touching axis-aligned pairs (issue 12), so it is left out rather than run in a child.
double fcl_ellipsoids_collide(const cases::EllipsoidContactQuery& q);

// The certified state, what FCL's collide answers (issue 12): fast::ellipsoid_contact_state
// (the centre line's certificates, then Perram–Wertheim's point certified in double) where
// one holds, else the reference's state started from stage 2's t (its double-double
// certificate, its interval filter, else the exact Sturm count on rational coefficients).
// Exact on every finite input: never a bound. stage: 1 the centre line, 2 the
// Perram–Wertheim certificate in double, 3 the reference's filter, 4 its double-double
// certificate (tried before the filter), 5 its exact count.
struct EllipsoidStateDecision {
  int state;  // index in cases::ellipsoid_state_names
  int stage;
};
EllipsoidStateDecision ellipsoid_contact_certified_state(const cases::EllipsoidContactQuery& q);

struct EllipsoidContactPair : Pair<cases::EllipsoidContact> {
  static constexpr std::string_view stem = "ellipsoid_contact";
  static constexpr Agreement agreement = Agreement::approximate;
  static constexpr std::string_view rule =
      "state exact where certified (Sturm chain with running error bounds, or F bracketed "
      "at the kernel's point), else excused within the certified gap bound on |sqrt(F) - 1|; "
      "F, point, normal, overlap within 2^10 u kappa (point and overlap plus the centres' "
      "size over L); each positive root within E's certified perturbation over its slope or "
      "curvature (fast/ellipsoid_contact.hpp)";
  static Result reference(const Query& q) { return reference::ellipsoid_contact(q); }
  static Result fast(const Query& q) { return fast::ellipsoid_contact(q); }
  static bool in_domain(const Query& q) { return fast::ellipsoid_contact_in_domain(q); }
  static std::vector<DecisionSpace> decision_space() {
    return {{"state", {cases::ellipsoid_state_names.begin(), cases::ellipsoid_state_names.end()}}};
  }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::ellipsoid_contact_bounds(q));
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::EllipsoidContactBounds& bounds);
  static std::vector<Peer<Query>> peers() { return {{"fcl_collide", &fcl_ellipsoids_collide}}; }
  // C ABI (include/contactbench/ellipsoid_contact.h); state i is ellipsoid_state_names[i].
  using CQuery = contactbench_ellipsoid_contact_query;
  using CResult = contactbench_ellipsoid_contact_result;
  static constexpr int max_roots = CONTACTBENCH_ELLIPSOID_CONTACT_MAX_ROOTS;
  static contactbench_ellipsoid to_c(const cases::Ellipsoid& e) {
    contactbench_ellipsoid c;
    for (int k = 0; k < 3; ++k) c.centre[k] = e.centre[k], c.semi_axes[k] = e.semi_axes[k];
    for (int k = 0; k < 4; ++k) c.quaternion[k] = e.quaternion[k];
    return c;
  }
  static CQuery to_c(const Query& q) { return {to_c(q.a), to_c(q.b)}; }
  static Result from_c(const CResult& c, const Query&) {
    if (c.state < 0 || c.state >= int(cases::ellipsoid_state_names.size()))
      throw PluginError(fmt::format("field state: {} is not a state", c.state));
    if (c.root_count < 0 || c.root_count > max_roots)
      throw PluginError(fmt::format("field root_count: {} is outside 0 .. {}", c.root_count, max_roots));
    Result r;
    r.state = cases::ellipsoid_state_names[c.state];
    r.roots.assign(c.roots, c.roots + c.root_count);
    r.F = c.F;
    r.point = {c.point[0], c.point[1], c.point[2]};
    r.normal = {c.normal[0], c.normal[1], c.normal[2]};
    r.overlap = c.overlap;
    return r;
  }
};

// Published methods (registry: ellipsoid_contact_published_<name>), state only, measured
// under the same rule, not gated.
struct EllipsoidContactShortcut : EllipsoidContactPair {
  static Result fast(const Query& q) { return fast::ellipsoid_contact_shortcut(q); }
};
struct EllipsoidContactFcl : EllipsoidContactPair {
  static Result fast(const Query& q) {
    Result r;
    r.state = fcl_ellipsoids_collide(q) != 0 ? "overlapping" : "separated";
    return r;
  }
};

// Ours, registered beside the published methods (ellipsoid_contact_published_certified_state):
// the certified state alone, judged exact (a disagreement is `wrong`, never `boundary`).
struct EllipsoidContactCertifiedState : EllipsoidContactPair {
  static constexpr Agreement agreement = Agreement::exact;
  static constexpr std::string_view rule =
      "state only, exact (no bound): the centre line's and Perram-Wertheim's certificates in double, else "
      "the reference's double-double certificate, filter or exact count";
  static Result fast(const Query& q) {
    Result r;
    r.state = cases::ellipsoid_state_names[ellipsoid_contact_certified_state(q).state];
    return r;
  }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    fast::EllipsoidContactBounds b;  // every bound 0: the state judged exact
    return compare_with(q, ref, fast, b);
  }
};

// Planted faults (registry: ellipsoid_contact_planted_<name>; the mutation suite requires
// each found `wrong`):
//   descartes      positive roots counted by Descartes' rule of signs instead of Sturm,
//                  and trusted (no cross-check against F);
//   minus_pencil   det(λA − B)'s convention read as det(λA + B)'s: negative roots counted,
//                  trusted;
//   unsafe_newton  Perram–Wertheim Newton from t = 1/2 without its bracket, 6 steps;
//   normal_from_b  the normal of B at the point (from B towards A);
//   chord_squared  the centre-line reach 1/(r̂ᵀPr̂), the square root forgotten;
//   tight_bound    the honest kernel claiming exact state and fields (bounds 0).
template <bool fast::EllipsoidSlips::*slip>
struct EllipsoidContactFault : EllipsoidContactPair {
  static Result fast(const Query& q) {
    fast::EllipsoidSlips s;
    s.*slip = true;
    return fast::ellipsoid_contact(q, s);
  }
};
struct EllipsoidContactTightBoundFault : EllipsoidContactPair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    fast::EllipsoidContactBounds b;
    const auto honest = fast::ellipsoid_contact_bounds(q);
    b.e = honest.e, b.e_error = honest.e_error;  // everything else 0
    return compare_with(q, ref, fast, b);
  }
};

}  // namespace contactbench::harness
