#include "harness/pairs/ground_ccd.hpp"

#include "harness/pairs/ulp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactbench::harness {

// The margin of a `binding` mismatch is the exact gap between the reference's binding
// candidate and the candidate of the node fast actually picked — not the reference's
// runner-up gap, which would excuse a fast pick far above the minimum whenever some other
// node happened to be close to it.
Comparison GroundCcdPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                       const fast::GroundCcdBounds& bounds) {
  Comparison c;
  // Decisions of the reference, for coverage. `binding`: cap (alpha = 1, no candidate below
  // it; margin 0 when a candidate is exactly 1), unique (one node attains the minimum) or
  // tie (several do, the first binds; margin 0); margin the runner-up gap, bound 8u.
  // `direction` of each node: approaching (p < 0), resting (p = 0: margin 0), receding;
  // decided exactly by fast too (bound 0).
  c.reached("binding", ref.binding < 0 ? "cap" : ref.margin == 0 ? "tie" : "unique", ref.margin,
            bounds.binding_margin, "relative gap of candidates");
  for (std::size_t i = 0; i < q.y.size(); ++i)
    c.reached("direction", q.py[i] < 0 ? "approaching" : q.py[i] == 0 ? "resting" : "receding",
              reference::ground_ccd_direction_margin(q, i), 0.0,
              "× node height");
  const double margin = ref.binding == fast.binding
                            ? ref.margin
                            : reference::ground_ccd_candidate_gap(q, ref.binding, fast.binding);
  c.discrete("binding", ref.binding, fast.binding, margin, bounds.binding_margin, "relative gap of candidates");
  c.continuous("alpha_ulp", ulp_error(fast.alpha, ref.alpha), bounds.alpha_ulp, "ULP");
  return c;
}

namespace {

struct Slip {
  bool no_factor = false, le = false, last = false, reversed = false, uncapped = false,
       origin = false;
};

cases::GroundCcdResult slipped(const cases::GroundCcdQuery& q, Slip f) {
  cases::GroundCcdResult r;
  r.alpha = f.uncapped ? std::numeric_limits<double>::infinity() : 1.0;
  r.binding = -1;
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    const double yi = q.y[i], pi = f.reversed ? -q.py[i] : q.py[i];
    if (!(f.le ? pi <= 0 : pi < 0)) continue;
    const double down = (f.origin ? 0.0 : q.y_ground) - yi;
    const double c = f.no_factor ? down / pi : 0.9 * down / pi;
    if (f.last) {
      r.alpha = std::min(r.alpha, c);
      r.binding = static_cast<int>(i);
    } else if (c < r.alpha) {
      r.alpha = c;
      r.binding = static_cast<int>(i);
    }
  }
  return r;
}

}  // namespace

GroundCcdPair::Result GroundCcdNoFactorFault::fast(const Query& q) { return slipped(q, {.no_factor = true}); }
GroundCcdPair::Result GroundCcdZeroVelocityFault::fast(const Query& q) { return slipped(q, {.le = true}); }
GroundCcdPair::Result GroundCcdBindingLastFault::fast(const Query& q) { return slipped(q, {.last = true}); }
GroundCcdPair::Result GroundCcdReversedVelocityFault::fast(const Query& q) {
  return slipped(q, {.reversed = true});
}
GroundCcdPair::Result GroundCcdUncappedFault::fast(const Query& q) { return slipped(q, {.uncapped = true}); }
GroundCcdPair::Result GroundCcdGroundAtOriginFault::fast(const Query& q) {
  return slipped(q, {.origin = true});
}

}  // namespace contactbench::harness
