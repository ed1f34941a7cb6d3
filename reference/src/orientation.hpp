// Internal to reference/src (and its tests; no CGAL here): the exact orientation of four
// points, the predicate of the orientation-based families (triangle-triangle intersection,
// PFC contact resolution), through exact::filtered_sign (filtered_sign.hpp).
#pragma once
#include "cases/common.hpp"

#include <optional>

namespace contactbench::reference::exact {

// Sign of det[b - a, c - a, d - a] = ((b - a) x (c - a)) . (d - a): +1 when d lies on the
// side of the plane abc that (b - a) x (c - a) points to, -1 on the other side, 0 when the
// four points are coplanar (decided exactly for any finite doubles).
int orientation(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c,
                const cases::Vec3& d);
// Its two stages apart: the interval filter (nothing when it cannot decide) and the exact
// rational evaluation. orientation() is the first when it decides, else the second.
std::optional<int> orientation_filter(const cases::Vec3& a, const cases::Vec3& b,
                                      const cases::Vec3& c, const cases::Vec3& d);
int orientation_exact(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c,
                      const cases::Vec3& d);
// CGAL's filtered Epick orientation(a, b, c, d) in the same sign convention: the packaged
// peer of the orientation-level benchmarks (its static filter, interval filter, then exact
// arithmetic when both fail).
int cgal_epick_orientation(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c,
                           const cases::Vec3& d);

}  // namespace contactbench::reference::exact
