// Registry traits of the rounded-triangle contact pair (see harness/pair.hpp for the
// contract) and its planted faults.
#pragma once
#include "cases/rounded_triangle_contact.hpp"
#include "fast/rounded_triangle_contact.hpp"
#include "harness/pair.hpp"
#include "include/contactbench/rounded_triangle_contact.h"
#include "reference/rounded_triangle_contact.hpp"

namespace contactbench::harness {

struct RoundedTriangleContactPair : Pair<cases::RoundedTriangleContact> {
  static constexpr std::string_view stem = "rounded_triangle_contact";
  static constexpr Agreement agreement = Agreement::approximate;
  static constexpr std::string_view rule =
      "facing, spheres_overlap, contact and S's vertex count excused only within the stated "
      "bound of their exact margins (32u, 8u, rounding of r_c^2 - h^2, picture error of S); "
      "S within 12 eps/L in Hausdorff distance and vertex by vertex within that over the "
      "sine of its angle when the counts agree (eps = 64u·(|c|max + 2L + |d|)); c_p, h^2, "
      "delta_s, delta_t within the bounds propagated from S's (fast/rounded_triangle_contact.hpp)";
  static Result reference(const Query& q) { return reference::rounded_triangle_contact(q); }
  static Result fast(const Query& q) { return fast::rounded_triangle_contact(q); }
  static bool in_domain(const Query& q) { return fast::rounded_triangle_contact_in_domain(q); }
  static std::vector<DecisionSpace> decision_space() {
    return {{"facing", {"facing", "not_facing"}},
            {"spheres_overlap", {"overlap", "apart"}},
            {"polygon", {"empty", "point", "segment", "3", "4", "5", "6"}},
            {"contact", {"contact", "no_contact"}}};
  }
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    return compare_with(q, ref, fast, fast::rounded_triangle_contact_bounds(q));
  }
  static Comparison compare_with(const Query& q, const Result& ref, const Result& fast,
                                 const fast::RoundedTriangleContactBounds& bounds);
  // C ABI (include/contactbench/rounded_triangle_contact.h).
  using CQuery = contactbench_rounded_triangle_contact_query;
  using CResult = contactbench_rounded_triangle_contact_result;
  static constexpr int max_polygon = CONTACTBENCH_ROUNDED_TRIANGLE_CONTACT_MAX_POLYGON;
  static CQuery to_c(const Query& q) {
    CQuery c;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) c.p[i][k] = q.p[i][k], c.q[i][k] = q.q[i][k];
    for (int k = 0; k < 3; ++k) c.c1[k] = q.c1[k], c.c2[k] = q.c2[k];
    c.r1 = q.r1, c.r2 = q.r2;
    return c;
  }
  static Result from_c(const CResult& c, const Query&) {
    for (auto [name, v] : {std::pair{"facing", c.facing}, std::pair{"spheres_overlap", c.spheres_overlap},
                           std::pair{"contact", c.contact}})
      if (v != 0 && v != 1) throw PluginError(fmt::format("field {}: {} is neither 0 nor 1", name, v));
    if (c.polygon_count < 0 || c.polygon_count > max_polygon)
      throw PluginError(fmt::format("field polygon_count: {} is outside 0 .. {}", c.polygon_count, max_polygon));
    Result r;
    r.facing = c.facing == 1;
    r.spheres_overlap = c.spheres_overlap == 1;
    for (int i = 0; i < c.polygon_count; ++i) r.polygon.emplace_back(c.polygon[i][0], c.polygon[i][1], c.polygon[i][2]);
    r.contact_point = {c.contact_point[0], c.contact_point[1], c.contact_point[2]};
    r.h2 = c.h2;
    r.contact = c.contact == 1;
    r.delta_s = c.delta_s;
    r.delta_t = c.delta_t;
    return r;
  }
};

// Planted faults (harness/registry.cpp; the mutation suite requires each found `wrong`):
//   open_half_planes   eqs. (34)-(35)'s strict inequalities: vertices exactly on the other
//                      triangle's edge are dropped from S;
//   paper_delta_s      the paper's sign of δ_s (|c2 − c1| − R1 − R2);
//   h_for_h2           "h = |c − c_p|²" read literally: δ_t from h⁴;
//   dot_order          S sorted by dot product with its first vertex (the paper's erratum);
//   facing_last        facing evaluated after the contact test: non-facing pairs get S,
//                      c_p and contact;
//   tight_bound        the honest kernel claiming exact decisions and fields (bounds 0).
template <bool open, bool dels, bool hh, bool dot, bool last>
struct RoundedTriangleContactKernelFault : RoundedTriangleContactPair {
  static Result fast(const Query& q) {
    return fast::rounded_triangle_contact(q, {open, dels, hh, dot, last});
  }
};
using RoundedTriangleContactOpenFault = RoundedTriangleContactKernelFault<true, false, false, false, false>;
using RoundedTriangleContactDeltaSFault = RoundedTriangleContactKernelFault<false, true, false, false, false>;
using RoundedTriangleContactHFault = RoundedTriangleContactKernelFault<false, false, true, false, false>;
using RoundedTriangleContactDotOrderFault = RoundedTriangleContactKernelFault<false, false, false, true, false>;
using RoundedTriangleContactFacingLastFault = RoundedTriangleContactKernelFault<false, false, false, false, true>;

struct RoundedTriangleContactTightBoundFault : RoundedTriangleContactPair {
  static Comparison compare(const Query& q, const Result& ref, const Result& fast) {
    fast::RoundedTriangleContactBounds b;  // everything 0, eps 0
    b.L = fast::rounded_triangle_contact_bounds(q).L;
    return compare_with(q, ref, fast, b);
  }
};

}  // namespace contactbench::harness
