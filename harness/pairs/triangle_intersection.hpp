// Registry traits of the triangle_intersection pair (see harness/pair.hpp for the contract),
// its published methods and its planted faults.
#pragma once
#include "cases/triangle_intersection.hpp"
#include "fast/triangle_intersection.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/triangle_intersection.h"
#include "reference/triangle_intersection.hpp"

namespace contactbench::harness {

struct TriangleIntersectionPair : Pair<cases::TriangleIntersection> {
  static constexpr std::string_view stem = "triangle_intersection";
  static constexpr Agreement agreement = Agreement::exact;
  static constexpr std::string_view rule =
      "intersect and coplanar exact, never excused: every orientation sign of the fast test "
      "is certified (double filter with Shewchuk's static bound, exact expansion fallback)";
  static Result reference(const Query& q) { return reference::triangle_intersection(q); }
  static Result fast(const Query& q) { return fast::triangle_intersection(q); }
  static bool in_domain(const Query& q) { return fast::triangle_intersection_in_domain(q); }
  static std::vector<DecisionSpace> decision_space() {
    return {{"intersect", {"true", "false"}},
            {"coplanar", {"true", "false"}},
            {"configuration", {cases::triangle_configuration_names.begin(), cases::triangle_configuration_names.end()},
             {{"boundary", "the configuration's margin is intersect's; its boundary is counted there"}}}};
  }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast);
  static std::vector<Peer<Query>> peers() {
    return {{"cgal_epick_do_intersect", &reference::cgal_epick_triangles_intersect}};
  }
  // C ABI (include/contactbench/triangle_intersection.h).
  using CQuery = contactbench_triangle_intersection_query;
  using CResult = contactbench_triangle_intersection_result;
  static CQuery to_c(const Query& q) {
    CQuery c;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) c.p[i][k] = q.p[i][k], c.q[i][k] = q.q[i][k];
    return c;
  }
  static Result from_c(const CResult& c, const Query&) {
    for (auto [name, v] : {std::pair{"intersect", c.intersect}, std::pair{"coplanar", c.coplanar}})
      if (v != 0 && v != 1) throw PluginError(fmt::format("field {}: {} is neither 0 nor 1", name, v));
    Result r;
    r.intersect = c.intersect == 1;
    r.coplanar = c.coplanar == 1;
    return r;
  }
};

// Published methods (registry: triangle_intersection_published_<name>), plain double,
// measured under the same rule, not gated.
struct TriangleIntersectionMoller : TriangleIntersectionPair {
  static Result fast(const Query& q) { return fast::triangle_intersection_moller(q); }
};
struct TriangleIntersectionGuigueDevillers : TriangleIntersectionPair {
  static Result fast(const Query& q) { return fast::triangle_intersection_guigue_devillers(q); }
};

// Planted faults (registry: triangle_intersection_planted_<name>): the certified test with
// one slip of the kind real implementations have; the mutation test requires each `wrong`.
//   strict_touch    the final interval test strict ("< 0"): touching pairs missed;
//   drop_coplanar   the coplanar branch dropped: coplanar pairs reported disjoint;
//   small_bound     the filter's bound 1/64 of the derived one: trusts wrong double signs
//                   on nearly coplanar input (uncertified);
//   forget_flip     q's vertices not swapped when p's lone vertex is below q's plane;
//   no_edge_cross   the coplanar test without the edge-crossing case (a star of two
//                   triangles, no vertex inside the other, reported disjoint);
//   swapped_final   q1 and q2 exchanged in the final two orientations (a transcription slip).
template <class Policy>
struct TriangleIntersectionFault : TriangleIntersectionPair {
  static Result fast(const Query& q) { return fast::triangle_test<Policy>(q); }
};
struct StrictTouchPolicy : fast::TriangleTestPolicy { static constexpr bool strict_interval = true; };
struct DropCoplanarPolicy : fast::TriangleTestPolicy { static constexpr bool drop_coplanar = true; };
struct ForgetFlipPolicy : fast::TriangleTestPolicy { static constexpr bool forget_flip = true; };
struct NoEdgeCrossPolicy : fast::TriangleTestPolicy { static constexpr bool no_edge_crossing = true; };
struct SmallBoundPolicy : fast::TriangleTestPolicy {
  static int orient3(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, const cases::Vec3& d) {
    const int s = fast::orient3d_filter(a, b, c, d, 1.0 / 64);
    return s != 2 ? s : fast::orient3d_exact(a, b, c, d);
  }
  static int orient2(const cases::Vec3& a, const cases::Vec3& b, const cases::Vec3& c, int k) {
    const int s = fast::orient2d_filter(a, b, c, k, 1.0 / 64);
    return s != 2 ? s : fast::orient2d_exact(a, b, c, k);
  }
  static std::array<int, 3> sides(const std::array<cases::Vec3, 3>& t, const std::array<cases::Vec3, 3>& x) {
    return {orient3(t[0], t[1], t[2], x[0]), orient3(t[0], t[1], t[2], x[1]), orient3(t[0], t[1], t[2], x[2])};
  }
};
struct SwappedFinalPolicy : fast::TriangleTestPolicy { static constexpr bool swapped_final = true; };

}  // namespace contactbench::harness
