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

// Validating JSON reader (fields p, a, b, c; numbers or exact strings such as "0x1p-3").
// Rejects unknown keys, NaN/Inf, wrong types, nonzero coordinates outside [2^-200, 2^200]
// in magnitude (the pair's domain) and exactly collinear triangles.
ClosestFeatureQuery closest_feature_query_from_json(const nlohmann::json& j, const Where& where);
nlohmann::json to_json(const ClosestFeatureQuery& q);
nlohmann::json to_json(const ClosestFeatureResult& r);

// A canonical case with its hand-derived expectation (cases/data/closest_feature.json).
struct ClosestFeatureCase {
  std::string name;
  ClosestFeatureQuery query;
  Region region;
  Vec3 point;
  double squared_distance;
};
std::vector<ClosestFeatureCase> load_closest_feature_cases(const std::string& path);
std::string closest_feature_cases_path();  // the catalogue shipped in cases/data

// Generators. random: vertices uniform in a box, p anywhere around the triangle, scales
// 1e-3 / 1 / 1e3. degenerate: dyadic grid so the boundary is exact in double: p exactly on
// a region boundary plane, exactly above an edge or a vertex, in the triangle's plane, on the
// triangle, near a vertex; slivers; translated far from the origin. A quarter of the
// degenerate queries are instead within rounding of a boundary of a generic triangle.
ClosestFeatureQuery random_closest_feature(Rng& rng);
ClosestFeatureQuery degenerate_closest_feature(Rng& rng);

}  // namespace contactbench::cases
