// Published method, plain double: Guigue & Devillers 2003, "Fast and robust triangle-triangle
// overlap test using orientation predicates" — the certified test's logic
// (fast/triangle_intersection.hpp) with every orientation the sign of the rounded double
// determinant, as the paper's code evaluates it.
#include "fast/triangle_intersection.hpp"

namespace contactbench::fast {

namespace {
struct PlainDoublePolicy : TriangleTestPolicy {
  static int orient3(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d) {
    return orient3d_plain(a, b, c, d);
  }
  static int orient2(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k) {
    return orient2d_plain(a, b, c, k);
  }
  static std::array<int, 3> sides(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x) {
    return plane_sides(t, x, 0);
  }
};
}  // namespace

cases::TriangleIntersectionResult triangle_intersection_guigue_devillers(const cases::TriangleIntersectionQuery& q) {
  return triangle_test<PlainDoublePolicy>(q);
}

}  // namespace contactbench::fast
