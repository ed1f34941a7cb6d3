#include "cases/closest_feature.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace contactbench::cases {

const char* to_string(Region r) { return region_names[static_cast<int>(r)]; }

Region region_from_string(const std::string& s, const Where& where, const std::string& field) {
  for (int i = 0; i < 7; ++i)
    if (s == region_names[i]) return static_cast<Region>(i);
  where.fail(field, fmt::format("unknown region \"{}\" (face, edge0..2, vertex0..2)", s));
}

double longest_edge(const ClosestFeatureQuery& q) {
  return std::max({(q.b - q.a).norm(), (q.c - q.b).norm(), (q.a - q.c).norm()});
}

ClosestFeatureQuery closest_feature_query_from_json(const nlohmann::json& j, const Where& where) {
  reject_unknown_keys(j, {"p", "a", "b", "c"}, where);
  ClosestFeatureQuery q{read_vec3(j, "p", where), read_vec3(j, "a", where),
                        read_vec3(j, "b", where), read_vec3(j, "c", where)};
  // The pair's domain: the fast kernel's degree-4 tests must neither overflow nor underflow.
  const std::pair<const char*, const Vec3*> fields[] = {{"p", &q.p}, {"a", &q.a}, {"b", &q.b}, {"c", &q.c}};
  for (const auto& [name, v] : fields)
    for (int i = 0; i < 3; ++i) {
      const double x = std::abs((*v)[i]);
      if (x != 0 && (x < 0x1p-200 || x > 0x1p200))
        where.fail(fmt::format("{}[{}]", name, i),
                   fmt::format("|{}| outside the supported range [2^-200, 2^200]", (*v)[i]));
    }
  if (exactly_collinear(q.a, q.b, q.c))
    where.fail("a,b,c", "degenerate triangle: the vertices are collinear (zero area)");
  return q;
}

nlohmann::json to_json(const ClosestFeatureQuery& q) {
  return {{"p", to_json(q.p)}, {"a", to_json(q.a)}, {"b", to_json(q.b)}, {"c", to_json(q.c)}};
}

nlohmann::json to_json(const ClosestFeatureResult& r) {
  nlohmann::json j = {{"point", to_json(r.point)},
                      {"squared_distance", r.squared_distance},
                      {"region", to_string(r.region)}};
  if (!std::isnan(r.margin)) j["margin"] = r.margin;
  return j;
}

std::string closest_feature_cases_path() {
  return std::string(CONTACTBENCH_SOURCE_DIR) + "/cases/data/closest_feature.json";
}

std::vector<ClosestFeatureCase> load_closest_feature_cases(const std::string& path) {
  const auto doc = read_json_file(path);
  const Where top{path, ""};
  if (doc.value("family", "") != "closest_feature")
    top.fail("family", "expected \"closest_feature\"");
  const auto& list = require(doc, "cases", top);
  if (!list.is_array()) top.fail("cases", "expected an array");
  std::vector<ClosestFeatureCase> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& c = list[i];
    const std::string name = c.is_object() ? c.value("name", "") : "";
    const Where where{path, fmt::format("case {} (\"{}\")", i, name)};
    if (name.empty()) where.fail("name", "missing or empty");
    const auto& expect = require(c, "expect", where);
    const auto& region = require(expect, "region", where, "expect.");
    if (!region.is_string()) where.fail("expect.region", "expected a string");
    out.push_back({name, closest_feature_query_from_json(require(c, "query", where), where),
                   region_from_string(region, where, "expect.region"),
                   read_vec3(expect, "point", where, "expect."),
                   read_nonnegative(expect, "squared_distance", where, "expect.")});
  }
  return out;
}

namespace {

Vec3 dyadic_vec(Rng& rng, int bits, long range, double scale) {
  return {dyadic(rng, bits, range, scale), dyadic(rng, bits, range, scale),
          dyadic(rng, bits, range, scale)};
}

// Vertices on the grid k/16 (|k| <= 32): differences and cross products of them are exact.
std::array<Vec3, 3> grid_triangle(Rng& rng) {
  for (;;) {
    Vec3 a = dyadic_vec(rng, 4, 32, 1), b = dyadic_vec(rng, 4, 32, 1),
         c = dyadic_vec(rng, 4, 32, 1);
    if (uniform_int(rng, 0, 3) == 0) {  // sliver: c just off the line ab
      const double lambda = std::ldexp(static_cast<double>(uniform_int(rng, -8, 24)), -4);
      c = a + lambda * (b - a) + dyadic_vec(rng, 10, 2, 1);
    }
    if (uniform_int(rng, 0, 3) == 0) {  // axis-aligned plane z = const, common in meshes
      b.z() = a.z();
      c.z() = a.z();
    }
    if (!exactly_collinear(a, b, c)) return {a, b, c};
  }
}

}  // namespace

ClosestFeatureQuery random_closest_feature(Rng& rng) {
  const double s = pick_scale(rng);
  for (;;) {
    ClosestFeatureQuery q;
    for (Vec3* v : {&q.a, &q.b, &q.c})
      *v = Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)) * s;
    q.p = Vec3(uniform(rng, -2, 2), uniform(rng, -2, 2), uniform(rng, -2, 2)) * s;
    if (!exactly_collinear(q.a, q.b, q.c)) return q;
  }
}

namespace {
// Within rounding of a boundary: a generic (non-dyadic) triangle and p constructed on a
// boundary plane in double, so p is off the plane by a rounding error only. This is where
// a plain double kernel mislabels.
ClosestFeatureQuery rounded_boundary_query(Rng& rng) {
  ClosestFeatureQuery q = random_closest_feature(rng);
  const Vec3 v[3] = {q.a, q.b, q.c};
  const int k = static_cast<int>(uniform_int(rng, 0, 2));
  const Vec3 &p0 = v[k], &p1 = v[(k + 1) % 3];
  const Vec3 e = p1 - p0, n = e.cross(v[(k + 2) % 3] - p0);
  const double t = uniform(rng, -0.5, 1.5), h = uniform(rng, -1, 1);
  switch (uniform_int(rng, 0, 2)) {
    case 0: q.p = p0 + t * e + h * n; break;                          // edge side plane
    case 1: q.p = p0 + t * e.cross(n) / n.norm() + h * n; break;      // vertex plane at p0
    default: q.p = p1 + t * e.cross(n) / n.norm() + h * n; break;     // vertex plane at p1
  }
  return q;
}
}  // namespace

ClosestFeatureQuery degenerate_closest_feature(Rng& rng) {
  if (uniform_int(rng, 0, 3) == 0) return rounded_boundary_query(rng);
  auto [a, b, c] = grid_triangle(rng);
  const Vec3 v[3] = {a, b, c};
  const int k = static_cast<int>(uniform_int(rng, 0, 2));
  const Vec3 &p0 = v[k], &p1 = v[(k + 1) % 3], &p2 = v[(k + 2) % 3];
  const Vec3 e = p1 - p0, n = (p1 - p0).cross(p2 - p0);  // exact on this grid
  auto coef = [&](int bits, long range) { return dyadic(rng, bits, range, 1); };
  Vec3 p;
  switch (uniform_int(rng, 0, 7)) {
    case 0:  // on the vertex/edge boundary plane (x - p0)·e = 0: both directions are ⟂ e
      p = p0 + coef(3, 8) * e.cross(n) + coef(3, 8) * n;
      break;
    case 1:  // on the edge's side plane: the edge line plus the normal direction
      p = p0 + coef(4, 24) * e + coef(3, 8) * n;
      break;
    case 2:  // exactly above a vertex
      p = p0 + coef(3, 8) * n;
      break;
    case 3:  // exactly above the open edge, near its end points too
      p = p0 + std::ldexp(static_cast<double>(uniform_int(rng, 1, 63)), -6) * e + coef(3, 8) * n;
      break;
    case 4:  // in the triangle's plane
      p = p0 + coef(4, 24) * e + coef(4, 24) * (p2 - p0);
      break;
    case 5:  // on the closed triangle (inside, on an edge or a vertex)
    {
      const long i = uniform_int(rng, 0, 8), j = uniform_int(rng, 0, 8 - i);
      p = p0 + std::ldexp(static_cast<double>(i), -3) * e +
          std::ldexp(static_cast<double>(j), -3) * (p2 - p0);
      break;
    }
    case 6:  // near a vertex, a grid step away in the plane and off it
      p = p0 + dyadic_vec(rng, 8, 4, 1);
      break;
    default:  // the other vertex boundary plane at p1: (x - p1)·e = 0
      p = p1 + coef(3, 8) * e.cross(n) + coef(3, 8) * n;
      break;
  }
  const double s = pick_scale(rng);
  const Vec3 shift = uniform_int(rng, 0, 3) == 0 ? dyadic_vec(rng, 0, 1024, 1) : Vec3::Zero();
  return {(p + shift) * s, (a + shift) * s, (b + shift) * s, (c + shift) * s};
}

}  // namespace contactbench::cases
