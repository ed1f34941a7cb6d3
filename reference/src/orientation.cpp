#include "reference/src/orientation.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/filtered_sign.hpp"

namespace contactbench::reference::exact {

namespace {
const auto orient = [](const auto& a, const auto& b, const auto& c, const auto& d) {
  return dot(cross(b - a, c - a), d - a);
};
}  // namespace

int orientation(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c,
                const cases::Vec3& d) {
  return filtered_sign(orient, a, b, c, d);
}

std::optional<int> orientation_filter(const cases::Vec3& a, const cases::Vec3& b,
                                      const cases::Vec3& c, const cases::Vec3& d) {
  return interval_sign(orient, a, b, c, d);
}

int orientation_exact(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c,
                      const cases::Vec3& d) {
  return exact_sign(orient, a, b, c, d);
}

int cgal_epick_orientation(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c,
                           const cases::Vec3& d) {
  using K = CGAL::Exact_predicates_inexact_constructions_kernel;
  auto point = [](const cases::Vec3& v) { return K::Point_3(v.x(), v.y(), v.z()); };
  // CGAL's POSITIVE: d on the side (b - a) x (c - a) points to, as ours (checked in the
  // triangle_intersection tests).
  return static_cast<int>(CGAL::orientation(point(a), point(b), point(c), point(d)));
}

}  // namespace contactbench::reference::exact
