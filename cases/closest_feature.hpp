// Closest feature of a triangle to a point: the closest point of the closed triangle
// a, b, c to p, its squared distance, and the region where that exact closest point lies.
// Source: PFC faceted walls (../shared/sources/pfc-faceted-walls.txt), parametric facet
// form; regions as in the Voronoi partition of a triangle's features.
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

namespace contactbench::cases {

struct ClosestFeatureQuery {
  Vec3 p, a, b, c;  // query point and triangle vertices (length units); a,b,c not collinear
};

// Where the exact closest point lies. Edge k joins vertex k and vertex (k+1)%3:
// edge0 = ab, edge1 = bc, edge2 = ca. The sets are disjoint: a closest point equal to a
// vertex is that vertex; one strictly inside an edge is that open edge; otherwise the
// open face. (A point exactly above an edge, or exactly on a vertex's boundary plane,
// therefore belongs to the edge, resp. the vertex.)
enum class Region { face, edge0, edge1, edge2, vertex0, vertex1, vertex2 };
inline constexpr std::array<const char*, 7> region_names = {
    "face", "edge0", "edge1", "edge2", "vertex0", "vertex1", "vertex2"};
const char* to_string(Region r);
Region region_from_string(const std::string& s, const Where& where, const std::string& field);

struct ClosestFeatureResult {
  Vec3 point = Vec3::Zero();     // closest point (length units), nearest double to the exact one
  double squared_distance = 0;   // |p - point|^2 (length^2), >= 0
  Region region = Region::face;  // see Region
  // Distance from p to the nearest plane bounding its region, divided by the triangle's
  // longest edge: how far p must move (in units of the triangle's size) to change region.
  // 0 means p lies exactly on a region boundary. Reference only; fast leaves it NaN.
  double margin = std::numeric_limits<double>::quiet_NaN();
};

// The triangle's longest edge length: the length scale of a query.
double longest_edge(const ClosestFeatureQuery& q);

// A canonical case with its hand-derived answer.
struct ClosestFeatureCase {
  std::string name;
  ClosestFeatureQuery query;
  Region region;
  Vec3 point;
  double squared_distance;
  bool on_boundary;  // p exactly on a region boundary: the reference's margin is 0
};

// Triangle shapes of the generators (regime axis "shape"). Thin shapes have a smallest
// angle log-uniform in [5e-5, 6] degrees (aspect ratio up to ~1e6):
//   needle: two long edges of nearly equal length and a short one (apex angle theta);
//   cap: one angle near 180 degrees (the apex projects inside the longest edge);
//   sliver: a short edge at one end of a long one, in any direction (the issue's
//   (0,0,0), (1,0,0), (0.99999..., 0.00314, 0) is one).
enum class TriangleShape { equilateral, generic, needle, cap, sliver };
const char* to_string(TriangleShape s);
// Where p is put relative to the triangle (regime axis "config") in random queries: above
// the open face, beyond an edge, near a vertex, (nearly) in the triangle's plane, far away
// (10 to 1e4 longest edges), or anywhere in a box around the triangle.
enum class ContactConfig { face, edge, vertex, in_plane, far, box };
const char* to_string(ContactConfig c);

// One random query of the given shape and configuration: a triangle of longest edge ~scale
// with smallest angle theta_deg (thin shapes; ignored otherwise), randomly rotated, its
// vertices in a random order, translated by `offset` (a point at that distance from the
// origin, 0 for none). Plain doubles: nothing is exact. The thin-triangle sweep uses it.
ClosestFeatureQuery shaped_closest_feature(Rng& rng, TriangleShape shape, ContactConfig config,
                                           double theta_deg, double scale, double offset);

// The family's vocabulary (see cases/common.hpp).
struct ClosestFeature {
  using Query = ClosestFeatureQuery;
  using Result = ClosestFeatureResult;
  static std::vector<ClosestFeatureCase> cases();  // hand-derived (cases/closest_feature.cpp)
  static std::vector<Named<Query>> canonical();    // cases(), by name
  // Generators, each query labelled shape/config/place/scale.
  // random: shapes equilateral, generic, needle, cap, sliver; configurations as ContactConfig;
  // place origin or far (translated by 1e3 to 1e9 times the triangle's size, e.g. a
  // size-1e-3 triangle at 1e6); scale 1e-3, 1, 1e3, the ends of the fast variant's domain
  // (domain_min = 2^-190, domain_max = 2^240) and beyond it (1e-300, 1e300, subnormal), which
  // check counts as out_of_domain for fast while the reference answers.
  // degenerate: dyadic grid so that boundaries are exact in double (verified exactly, else
  // redrawn): p exactly on a region boundary plane, above an edge or a vertex, above the open
  // face, in the plane, on the closed triangle, near a vertex; shapes generic, needle, cap,
  // sliver (grid offsets down to 2^-21); translated far as far as stays exact; power-of-two
  // scales including the domain ends and 1e-300 / 1e300. A fifth of the degenerate queries are
  // instead within rounding of a boundary of a generic or thin triangle (rounded_boundary).
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);  // margin only when set (reference)
  // Validating JSON reader (fields p, a, b, c; numbers or exact strings such as "0x1p-3").
  // Rejects unknown keys, NaN/Inf, wrong types and exactly collinear triangles (decided
  // exactly). Every other finite double is valid: subnormal, 1e-300 and 1e300 coordinates
  // included (the fast variant's narrower domain is fast::closest_feature_in_domain).
  static Query from_json(const nlohmann::json& j, const Where& where);
};

}  // namespace contactbench::cases
