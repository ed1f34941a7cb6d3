#include "harness/pairs/ellipsoid_contact.hpp"

#include <cmath>

namespace contactbench::harness {

EllipsoidStateDecision ellipsoid_contact_certified_state(const cases::EllipsoidContactQuery& q) {
  int stage = 0;
  double t = -1;  // stage 2's Perram–Wertheim weight: the double-double certificate's start
  if (const int st = fast::ellipsoid_contact_state(q, &stage, &t); st >= 0) return {st, stage};
  const int st = reference::ellipsoid_contact_state(q, &stage, t);
  return {st, 2 + stage};
}

Comparison EllipsoidContactPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                              const fast::EllipsoidContactBounds& b) {
  Comparison c;
  c.reached("state", ref.state, ref.state_margin, b.state, "relative gap |√F − 1|");
  c.discrete("state", ref.state, fast.state, ref.state_margin, b.state, "relative gap |√F − 1|");
  if (std::isnan(fast.F)) return c;  // a state-only method: nothing else to judge
  const double L = cases::ellipsoid_scale(q);
  c.continuous("F", std::abs(fast.F - ref.F) / (ref.F > 0 ? ref.F : 1.0), b.F, "relative");
  c.continuous("point", (fast.point - ref.point).norm() / L, b.point, "× largest semi-axis");
  if (ref.normal.squaredNorm() > 0)
    c.continuous("normal", std::atan2(fast.normal.cross(ref.normal).norm(), fast.normal.dot(ref.normal)), b.normal,
                 "rad");
  if (!std::isnan(ref.overlap)) c.continuous("overlap", std::abs(fast.overlap - ref.overlap) / L, b.overlap, "× largest semi-axis");
  // Roots: compared one by one when both found the same number (a state within its bound
  // may differ, and then so does the count).
  if (ref.roots.size() == fast.roots.size()) {
    for (std::size_t i = 0; i < ref.roots.size(); ++i)
      c.continuous("roots", std::abs(fast.roots[i] - ref.roots[i]) / ref.roots[i], b.root(ref.roots[i]), "relative");
  } else if (ref.state == fast.state) {
    c.continuous("roots", INFINITY, 0, "relative");  // same state, different count: wrong
  }
  return c;
}

}  // namespace contactbench::harness
