// The `triangle_intersection` pair: do two closed triangles in 3D share a point, and do they
// lie in one plane. Both answers are decisions on exact orientation signs of the input
// doubles (issue 11, item 2): the family is `exact`, nothing is excused.
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <string>
#include <vector>

namespace contactbench::cases {

struct TriangleIntersectionQuery {
  std::array<Vec3, 3> p, q;  // the two triangles' vertices (length units); neither collinear
};

// How the two triangles meet, as the reference found it (reference only; fast leaves it
// empty). With o(T, x) the orientation of x against T's plane:
//   separated          one triangle strictly on one side of the other's plane;
//   disjoint           not coplanar, no plane of the two separates them, no common point;
//   touching           not coplanar, common points, and one triangle lies in a closed half
//                      space of the other's plane (the contact is on that plane's boundary
//                      side: a vertex, an edge or a face resting on the other);
//   crossing           not coplanar, common points, each triangle has vertices strictly on
//                      both sides of the other's plane;
//   coplanar_overlap   coplanar with common points (overlap, touch at a vertex or an edge);
//   coplanar_disjoint  coplanar, no common point.
inline constexpr std::array<const char*, 6> triangle_configuration_names = {
    "separated", "disjoint", "touching", "crossing", "coplanar_overlap", "coplanar_disjoint"};

struct TriangleIntersectionResult {
  bool intersect = false;  // the closed triangles share at least one point
  bool coplanar = false;   // all six vertices lie in one plane (exactly)
  std::string configuration;  // see triangle_configuration_names; reference only
  // Margins (reference only; fast leaves NaN), in units of L^3, L the longest edge of the
  // two triangles: for `intersect`, the smallest |orientation| whose sign the reference's
  // decision used; for `coplanar`, the largest |orientation| of a vertex of q against p's
  // plane. A margin is 0 exactly when such an orientation is exactly 0 (decided exactly);
  // a positive margin's size is a double estimate (only its sign is exact).
  double intersect_margin = std::numeric_limits<double>::quiet_NaN();
  double coplanar_margin = std::numeric_limits<double>::quiet_NaN();
};

// The longest edge of the two triangles: the length scale of a query.
double longest_edge(const TriangleIntersectionQuery& q);

// A canonical case with its hand-derived answer.
struct TriangleIntersectionCase {
  std::string name;
  TriangleIntersectionQuery query;
  bool intersect, coplanar;
  std::string configuration;
};

// The fast variant's stated domain (fast::triangle_intersection_in_domain): every coordinate
// is 0 or of magnitude in [2^-250, 2^300]. Inside it no product of up to three coordinate
// differences underflows or overflows, so the double filter's error bound and the
// expansion arithmetic of the exact fallback hold (derivation in fast/triangle_intersection.hpp).
inline constexpr double triangle_domain_min = 0x1p-250;
inline constexpr double triangle_domain_max = 0x1p300;
bool triangle_in_fast_domain(const TriangleIntersectionQuery& q);

// The family's vocabulary (see cases/common.hpp).
struct TriangleIntersection {
  using Query = TriangleIntersectionQuery;
  using Result = TriangleIntersectionResult;
  static std::vector<TriangleIntersectionCase> cases();  // hand-derived
  static std::vector<Named<Query>> canonical();          // cases(), by name
  // random: two random triangles (shapes generic, equilateral, needle, sliver) in
  // configurations box (both in one box: every outcome), crossing (q built to pierce p),
  // near (q a small random offset of a point of p), far (q 10-1000 sizes away); place
  // origin or far (translated 1e3-1e9 sizes); scale 1e-3, 1, 1e3, and 1e-300 / 1e300
  // (outside the fast domain: the reference alone answers, verdict out_of_domain).
  // degenerate: dyadic grid (exact in double, checked): coplanar (random, overlapping,
  // star, touching at a vertex, along an edge, disjoint), vertex_on_edge, vertex_on_face,
  // vertex_on_vertex, shared_edge, shared_vertex, edge_on_edge (crossing at a point),
  // edge_in_face, nearly_coplanar (a coplanar pair with one vertex moved 1-4 ulps);
  // shapes generic, needle, sliver; place origin or far (a dyadic translation that keeps
  // every coordinate exact); scale 2^-10, 1, 2^10, domain_max (2^280), outside (2^-600).
  // Full-mantissa classes (fm_: random doubles, not the grid, so a product of differences
  // rounds and an interval filter cannot settle an exactly zero orientation; the
  // degeneracies of meshes with real coordinates, still exact): fm_coplanar (two triangles
  // on a tilted plane z = k1/4·x + k2/4·y, any coordinate the dependent one),
  // fm_coplanar_edge (flat mesh neighbours: that plane, a shared edge), fm_nearly_coplanar
  // (either, the dependent coordinate of one vertex 1-4 ulps off), fm_shared_edge (a crease:
  // shared edge, third vertex anywhere), fm_shared_vertex, fm_vertex_on_edge (a T-junction:
  // q's vertex the exact midpoint of p's edge), fm_vertex_on_face (q's vertex the exact
  // point (a + b + 2·c)/4 of p's vertices a, b, c), fm_nearly_on_edge (the T-junction vertex 1-4 ulps off);
  // place origin or far (translated 1e3-1e9 sizes before snapping); same scales.
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);  // configuration and margins when set
  // Validating reader: {"p": [[x,y,z],[x,y,z],[x,y,z]], "q": [...]} (numbers or exact
  // strings such as "0x1p-3"). Rejects unknown keys, NaN/Inf, lists that are not three
  // points and exactly collinear (zero-area) triangles, decided exactly: an orientation
  // test needs a plane. Every other finite double is accepted.
  static Query from_json(const nlohmann::json& j, const Where& where);
};

}  // namespace contactbench::cases
