#include "cases/closest_feature.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>

#include <gmpxx.h>

#include <algorithm>
#include <cmath>
#include <numbers>

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

ClosestFeatureQuery ClosestFeature::from_json(const nlohmann::json& j, const Where& where) {
  reject_unknown_keys(j, {"p", "a", "b", "c"}, where);
  ClosestFeatureQuery q{read_vec3(j, "p", where), read_vec3(j, "a", where),
                        read_vec3(j, "b", where), read_vec3(j, "c", where)};
  if (exactly_collinear(q.a, q.b, q.c))
    where.fail("a,b,c", "degenerate triangle: the vertices are collinear (zero area)");
  return q;
}

nlohmann::json ClosestFeature::to_json(const Query& q) {
  using cases::to_json;
  return {{"p", to_json(q.p)}, {"a", to_json(q.a)}, {"b", to_json(q.b)}, {"c", to_json(q.c)}};
}

nlohmann::json ClosestFeature::to_json(const Result& r) {
  nlohmann::json j = {{"point", cases::to_json(r.point)},
                      {"squared_distance", r.squared_distance},
                      {"region", to_string(r.region)}};
  if (!std::isnan(r.margin)) j["margin"] = r.margin;
  return j;
}

std::vector<ClosestFeatureCase> ClosestFeature::cases() {
  // T1 = the right triangle (0,0,0), (4,0,0), (0,4,0); T2 = (0,0,0), (4,0,0), (-2,2,0),
  // obtuse at a. Answers derived by hand; every coordinate, closest point and squared
  // distance is an exact double.
  return {
      {"face_above_interior", {{1, 1, 3}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::face, {1, 1, 0}, 9, false},
      {"edge0_outside", {{2, -1, 1}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::edge0, {2, 0, 0}, 2, false},
      {"edge1_outside_in_plane", {{3, 3, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::edge1, {2, 2, 0}, 2, false},
      {"edge2_outside_below", {{-2, 1, -1}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::edge2, {0, 1, 0}, 5, false},
      {"vertex0_outside", {{-1, -1, 2}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex0, {0, 0, 0}, 6, false},
      {"vertex1_outside", {{5, -1, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex1, {4, 0, 0}, 2, false},
      {"vertex2_outside", {{-1, 5, 1}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex2, {0, 4, 0}, 3, false},
      {"exactly_above_vertex0", {{0, 0, 1}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex0, {0, 0, 0}, 1, true},
      {"on_vertex0_edge0_boundary_plane", {{0, -1, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex0, {0, 0, 0}, 1, true},
      {"exactly_above_edge0", {{2, 0, 5}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::edge0, {2, 0, 0}, 25, true},
      {"in_plane_inside", {{1, 1, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::face, {1, 1, 0}, 0, false},
      {"on_edge0", {{2, 0, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::edge0, {2, 0, 0}, 0, true},
      {"on_vertex1", {{4, 0, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex1, {4, 0, 0}, 0, true},
      {"exactly_above_edge1_midpoint", {{2, 2, 7}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::edge1, {2, 2, 0}, 49, true},
      {"on_vertex2_edge1_boundary_plane", {{1, 5, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex2, {0, 4, 0}, 2, true},
      {"on_vertex1_edge1_boundary_plane", {{5, 1, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}},
       Region::vertex1, {4, 0, 0}, 2, true},
      {"obtuse_vertex0_boundary_plane", {{-1, -1, 1}, {0, 0, 0}, {4, 0, 0}, {-2, 2, 0}},
       Region::vertex0, {0, 0, 0}, 3, true},
      {"obtuse_edge2_outside", {{-2, 0, 0}, {0, 0, 0}, {4, 0, 0}, {-2, 2, 0}},
       Region::edge2, {-1, 1, 0}, 2, false},
      {"tilted_face_centroid", {{2, 2, 2}, {3, 0, 0}, {0, 3, 0}, {0, 0, 3}},
       Region::face, {1, 1, 1}, 3, false},
      {"face_above_translated", {{1025, -2047, 515}, {1024, -2048, 512}, {1028, -2048, 512}, {1024, -2044, 512}},
       Region::face, {1025, -2047, 512}, 9, false},
      {"edge0_outside_scaled_2^-10", {{0x1p-9, -0x1p-10, 0x1p-10}, {0, 0, 0}, {0x1p-8, 0, 0}, {0, 0x1p-8, 0}},
       Region::edge0, {0.001953125, 0, 0}, 1.9073486328125e-06, false},
  };
}

std::vector<Named<ClosestFeatureQuery>> ClosestFeature::canonical() {
  std::vector<Named<Query>> out;
  for (const auto& c : cases()) out.push_back({c.name, c.query});
  return out;
}

const char* to_string(TriangleShape s) {
  static constexpr const char* names[] = {"equilateral", "generic", "needle", "cap", "sliver"};
  return names[static_cast<int>(s)];
}

const char* to_string(ContactConfig c) {
  static constexpr const char* names[] = {"face", "edge", "vertex", "in_plane", "far", "box"};
  return names[static_cast<int>(c)];
}

namespace {

constexpr double pi = std::numbers::pi;

Vec3 unit_vector(Rng& rng) {
  for (;;) {
    const Vec3 v(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const double n = v.norm();
    if (n > 0.1 && n <= 1) return v / n;
  }
}

// A triangle of the shape in the plane z = 0, longest edge about 1, smallest angle theta (rad).
std::array<Vec3, 3> planar_shape(Rng& rng, TriangleShape shape, double theta) {
  switch (shape) {
    case TriangleShape::equilateral:
      return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, std::sqrt(3.0) / 2, 0)};
    case TriangleShape::generic:
      for (;;) {  // random, but not thin: twice the area at least 0.1
        const Vec3 a(uniform(rng, 0, 1), uniform(rng, 0, 1), 0),
            b(uniform(rng, 0, 1), uniform(rng, 0, 1), 0), c(uniform(rng, 0, 1), uniform(rng, 0, 1), 0);
        if (std::abs((b - a).cross(c - a).z()) > 0.1) return {a, b, c};
      }
    case TriangleShape::needle: {
      const double r = 1 + uniform(rng, -0.5, 0.5) * theta;
      return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(r * std::cos(theta), r * std::sin(theta), 0)};
    }
    case TriangleShape::cap: {
      const double t = uniform(rng, 0.05, 0.5);
      return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(t, t * std::tan(theta), 0)};
    }
    case TriangleShape::sliver: {
      const double phi = uniform(rng, 0.25 * pi, 0.75 * pi), ell = std::tan(theta) / std::sin(phi);
      return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1 + ell * std::cos(phi), ell * std::sin(phi), 0)};
    }
  }
  return {};
}

// p for a configuration, in the frame of the planar triangle v (normal +z).
Vec3 place_point(Rng& rng, const std::array<Vec3, 3>& v, ContactConfig config) {
  const double L = std::max({(v[1] - v[0]).norm(), (v[2] - v[1]).norm(), (v[0] - v[2]).norm()});
  auto height = [&](double lo, double hi) {
    return (uniform_int(rng, 0, 1) ? 1 : -1) * log_uniform(rng, lo, hi) * L;
  };
  const int k = static_cast<int>(uniform_int(rng, 0, 2));
  switch (config) {
    case ContactConfig::face: {
      double r1 = uniform(rng, 0, 1), r2 = uniform(rng, 0, 1);
      if (r1 + r2 > 1) r1 = 1 - r1, r2 = 1 - r2;
      return v[0] + r1 * (v[1] - v[0]) + r2 * (v[2] - v[0]) + Vec3(0, 0, height(1e-4, 2));
    }
    case ContactConfig::edge: {
      const Vec3 e = v[(k + 1) % 3] - v[k];
      Vec3 out(e.y(), -e.x(), 0);  // in-plane normal of the edge, away from the third vertex
      if (out.dot(v[(k + 2) % 3] - v[k]) > 0) out = -out;
      return v[k] + uniform(rng, 0, 1) * e + log_uniform(rng, 1e-6, 1) * L * out.normalized() +
             Vec3(0, 0, height(1e-4, 1));
    }
    case ContactConfig::vertex:
      return v[k] + log_uniform(rng, 1e-6, 1) * L * unit_vector(rng);
    case ContactConfig::in_plane:
      return Vec3(uniform(rng, -0.5, 1.5), uniform(rng, -0.5, 1.5), 0) * L;
    case ContactConfig::far:
      return (v[0] + v[1] + v[2]) / 3 + log_uniform(rng, 10, 1e4) * L * unit_vector(rng);
    case ContactConfig::box:
      return Vec3(uniform(rng, -1, 2), uniform(rng, -1, 2), uniform(rng, -1, 1)) * L;
  }
  return Vec3::Zero();
}

}  // namespace

ClosestFeatureQuery shaped_closest_feature(Rng& rng, TriangleShape shape, ContactConfig config,
                                           double theta_deg, double scale, double offset) {
  for (;;) {
    auto v = planar_shape(rng, shape, theta_deg * pi / 180);
    const Vec3 p = place_point(rng, v, config);
    const int shift = static_cast<int>(uniform_int(rng, 0, 2));  // random vertex order
    std::rotate(v.begin(), v.begin() + shift, v.end());
    if (uniform_int(rng, 0, 1)) std::swap(v[1], v[2]);
    const Eigen::Matrix3d R = random_rotation(rng);
    const Vec3 t = offset > 0 ? Vec3(offset * unit_vector(rng)) : Vec3::Zero();
    auto map = [&](const Vec3& x) -> Vec3 { return (R * x) * scale + t; };
    ClosestFeatureQuery q{map(p), map(v[0]), map(v[1]), map(v[2])};
    if (!exactly_collinear(q.a, q.b, q.c)) return q;
  }
}

namespace {

TriangleShape pick_shape(Rng& rng, bool with_equilateral) {
  const long u = uniform_int(rng, with_equilateral ? 0 : 1, 9);
  if (u == 0) return TriangleShape::equilateral;
  if (u <= 3) return TriangleShape::generic;
  return static_cast<TriangleShape>(2 + (u - 4) / 2);  // needle, cap, sliver: 2 each
}

double thin_angle_deg(Rng& rng) { return log_uniform(rng, 5e-5, 6); }

// The scale axis: 1e-3, 1, 1e3 (powers of two) mostly; the ends of the fast variant's
// domain; and beyond it, where only the reference is asked.
std::pair<double, std::string> pick_scale_tagged(Rng& rng) {
  const long u = uniform_int(rng, 0, 99);
  if (u < 86) {
    const double s = pick_scale(rng);
    return {s, scale_tag(s)};
  }
  if (u < 89) return {0x1p-190, "domain_min"};
  if (u < 92) return {0x1p240, "domain_max"};
  if (u < 94) return {0x1p-997, "1e-300"};
  if (u < 96) return {0x1p997, "1e300"};
  return {0x1p-1066, "subnormal"};
}

}  // namespace

Generated<ClosestFeatureQuery> ClosestFeature::random(Rng& rng) {
  auto [s, stag] = pick_scale_tagged(rng);
  const TriangleShape shape = pick_shape(rng, true);
  const long uc = uniform_int(rng, 0, 19);
  ContactConfig config = uc < 6    ? ContactConfig::face
                         : uc < 10 ? ContactConfig::edge
                         : uc < 13 ? ContactConfig::vertex
                         : uc < 15 ? ContactConfig::in_plane
                         : uc < 17 ? ContactConfig::far
                                   : ContactConfig::box;
  // Far from the origin: a size-s triangle at 1e3·s .. 1e9·s (not beyond the double range).
  const bool far = uniform_int(rng, 0, 9) < 3 && s <= 1e200;
  if (s > 1e200 && config == ContactConfig::far) config = ContactConfig::box;
  const double offset = far ? log_uniform(rng, 1e3, 1e9) * s : uniform(rng, 0, 1) * s;
  // Subnormal coordinates keep a few bits only: a thin shape would collapse.
  const TriangleShape sh = stag == "subnormal" ? TriangleShape::generic : shape;
  const auto q = shaped_closest_feature(rng, sh, config, thin_angle_deg(rng), s, offset);
  // At 1e300 a point placed beyond the triangle can overflow: not a valid query, draw again.
  if (!(q.p.allFinite() && q.a.allFinite() && q.b.allFinite() && q.c.allFinite())) return random(rng);
  return {q, regime({{"shape", to_string(sh)},
                  {"config", to_string(config)},
                  {"place", far ? "far" : "origin"},
                  {"scale", stag}})};
}

namespace {

using Q3 = std::array<mpq_class, 3>;
Q3 exact(const Vec3& v) { return {mpq_class(v[0]), mpq_class(v[1]), mpq_class(v[2])}; }
bool equal(const Vec3& v, const Q3& q) {
  return mpq_class(v[0]) == q[0] && mpq_class(v[1]) == q[1] && mpq_class(v[2]) == q[2];
}
Q3 operator-(const Q3& x, const Q3& y) { return {x[0] - y[0], x[1] - y[1], x[2] - y[2]}; }
Q3 operator+(const Q3& x, const Q3& y) { return {x[0] + y[0], x[1] + y[1], x[2] + y[2]}; }
Q3 operator*(double c, const Q3& x) {
  const mpq_class k(c);
  return {k * x[0], k * x[1], k * x[2]};
}
Q3 cross(const Q3& x, const Q3& y) {
  return {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
}

Vec3 dyadic_vec(Rng& rng, int bits, long range, double scale) {
  return {dyadic(rng, bits, range, scale), dyadic(rng, bits, range, scale),
          dyadic(rng, bits, range, scale)};
}

// Vertices on the grid k/16 (|k| <= 32); thin shapes put the third vertex a grid offset
// 2^-j·w (j up to 21, w a small integer vector) off the line of the first two.
std::array<Vec3, 3> grid_triangle(Rng& rng, TriangleShape shape) {
  for (;;) {
    Vec3 a = dyadic_vec(rng, 4, 32, 1), b = dyadic_vec(rng, 4, 32, 1),
         c = dyadic_vec(rng, 4, 32, 1);
    const Vec3 off = std::ldexp(1.0, -static_cast<int>(uniform_int(rng, 4, 21))) *
                     Vec3(static_cast<double>(uniform_int(rng, -3, 3)),
                          static_cast<double>(uniform_int(rng, -3, 3)),
                          static_cast<double>(uniform_int(rng, -3, 3)));
    switch (shape) {
      case TriangleShape::needle: c = b + off; break;  // short edge bc
      case TriangleShape::cap:  // apex near the inside of ab
        c = a + std::ldexp(static_cast<double>(uniform_int(rng, 1, 15)), -4) * (b - a) + off;
        break;
      case TriangleShape::sliver:  // apex near the line ab, beyond an end
        c = a + std::ldexp(static_cast<double>(uniform_int(rng, 17, 40) * (uniform_int(rng, 0, 1) ? 1 : -1) +
                                               (uniform_int(rng, 0, 1) ? 0 : 16)), -4) * (b - a) + off;
        break;
      default:
        if (uniform_int(rng, 0, 3) == 0) b.z() = c.z() = a.z();  // axis-aligned plane
        break;
    }
    if (!exactly_collinear(a, b, c)) return {a, b, c};
  }
}

// Within rounding of a boundary: a generic or thin (non-dyadic) triangle and p constructed
// on a boundary plane in double, so p is off the plane by a rounding error only. This is
// where a plain double kernel mislabels.
ClosestFeatureQuery rounded_boundary_query(Rng& rng, TriangleShape shape, double s) {
  ClosestFeatureQuery q =
      shaped_closest_feature(rng, shape, ContactConfig::box, thin_angle_deg(rng), s, uniform(rng, 0, 1) * s);
  const Vec3 v[3] = {q.a, q.b, q.c};
  const int k = static_cast<int>(uniform_int(rng, 0, 2));
  const Vec3 &p0 = v[k], &p1 = v[(k + 1) % 3];
  const Vec3 e = p1 - p0, n = e.cross(v[(k + 2) % 3] - p0);
  const Vec3 side = e.cross(n).normalized() * e.norm(), up = n.normalized() * e.norm();
  const double t = uniform(rng, -0.5, 1.5), h = uniform(rng, -1, 1);
  switch (uniform_int(rng, 0, 2)) {
    case 0: q.p = p0 + t * e + h * up; break;     // edge side plane
    case 1: q.p = p0 + t * side + h * up; break;  // vertex plane at p0
    default: q.p = p1 + t * side + h * up; break; // vertex plane at p1
  }
  return q;
}

}  // namespace

Generated<ClosestFeatureQuery> ClosestFeature::degenerate(Rng& rng) {
  const TriangleShape shape = pick_shape(rng, false);
  // Power-of-two scales only (exact); the domain ends and beyond as in random.
  auto [s, stag] = pick_scale_tagged(rng);
  if (stag == "subnormal") s = 0x1p-1060;  // still exact for the coarse grid cases below
  if (uniform_int(rng, 0, 4) == 0) {
    const TriangleShape sh = stag == "subnormal" ? TriangleShape::generic : shape;
    if (stag == "subnormal") s = 0x1p-1066;
    const bool far = uniform_int(rng, 0, 3) == 0 && s <= 1e200;
    ClosestFeatureQuery q = rounded_boundary_query(rng, sh, s);
    if (far) {
      const Vec3 t = log_uniform(rng, 1e3, 1e9) * s * unit_vector(rng);
      q = {q.p + t, q.a + t, q.b + t, q.c + t};
      if (exactly_collinear(q.a, q.b, q.c)) q = rounded_boundary_query(rng, sh, s);  // rare
    }
    // At 1e300 the constructed point can overflow: not a valid query, draw again.
    if (!(q.p.allFinite() && q.a.allFinite() && q.b.allFinite() && q.c.allFinite())) return degenerate(rng);
    return {q, regime({{"shape", to_string(sh)}, {"config", "rounded_boundary"},
                       {"place", far ? "far" : "origin"}, {"scale", stag}})};
  }
  for (;;) {
    const auto tri = grid_triangle(rng, shape);
    const Vec3 &a = tri[0], &b = tri[1], &c = tri[2];
    const Vec3 v[3] = {a, b, c};
    const Q3 qv[3] = {exact(a), exact(b), exact(c)};
    const int k = static_cast<int>(uniform_int(rng, 0, 2));
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const Vec3 &p0 = v[k], &p1 = v[k1], &p2 = v[k2];
    const Q3 qe = qv[k1] - qv[k], qn = cross(qe, qv[k2] - qv[k]), qen = cross(qe, qn);
    const Vec3 e = p1 - p0, n = e.cross(p2 - p0), en = e.cross(n);  // checked exact below
    auto coef = [&](int bits, long range) { return dyadic(rng, bits, range, 1); };
    Vec3 p;
    Q3 qp;  // the intended p, exactly
    const char* config = "";
    switch (uniform_int(rng, 0, 8)) {
      case 0: {  // on the vertex/edge boundary plane (x - p0)·e = 0: both directions ⟂ e
        const double c1 = coef(3, 8), c2 = coef(3, 8);
        p = p0 + c1 * en + c2 * n, qp = qv[k] + c1 * qen + c2 * qn;
        config = "on_boundary_plane";
        break;
      }
      case 1: {  // on the edge's side plane: the edge line plus the normal direction
        const double c1 = coef(4, 24), c2 = coef(3, 8);
        p = p0 + c1 * e + c2 * n, qp = qv[k] + c1 * qe + c2 * qn;
        config = "on_boundary_plane";
        break;
      }
      case 2: {  // exactly above a vertex
        const double c2 = coef(3, 8);
        p = p0 + c2 * n, qp = qv[k] + c2 * qn;
        config = "vertex";
        break;
      }
      case 3: {  // exactly above the open edge, near its end points too
        const double c1 = std::ldexp(static_cast<double>(uniform_int(rng, 1, 63)), -6), c2 = coef(3, 8);
        p = p0 + c1 * e + c2 * n, qp = qv[k] + c1 * qe + c2 * qn;
        config = "edge";
        break;
      }
      case 4: {  // in the triangle's plane
        const double c1 = coef(4, 24), c2 = coef(4, 24);
        p = p0 + c1 * e + c2 * (p2 - p0), qp = qv[k] + c1 * qe + c2 * (qv[k2] - qv[k]);
        config = "in_plane";
        break;
      }
      case 5: {  // on the closed triangle (inside, on an edge or a vertex)
        const long i = uniform_int(rng, 0, 8), j = uniform_int(rng, 0, 8 - i);
        const double c1 = std::ldexp(static_cast<double>(i), -3), c2 = std::ldexp(static_cast<double>(j), -3);
        p = p0 + c1 * e + c2 * (p2 - p0), qp = qv[k] + c1 * qe + c2 * (qv[k2] - qv[k]);
        config = "on_triangle";
        break;
      }
      case 6: {  // near a vertex, a grid step away in the plane and off it
        const Vec3 d = dyadic_vec(rng, 8, 4, 1);
        p = p0 + d, qp = qv[k] + exact(d);
        config = "near_vertex";
        break;
      }
      case 7: {  // above the open face: a dyadic interior point, off the plane
        const double c1 = std::ldexp(static_cast<double>(uniform_int(rng, 1, 6)), -3),
                     c2 = std::ldexp(static_cast<double>(uniform_int(rng, 1, 7 - static_cast<long>(c1 * 8))), -3),
                     c3 = coef(3, 8);
        p = p0 + c1 * e + c2 * (p2 - p0) + c3 * n;
        qp = qv[k] + c1 * qe + c2 * (qv[k2] - qv[k]) + c3 * qn;
        config = "face";
        break;
      }
      default: {  // the other vertex boundary plane at p1: (x - p1)·e = 0
        const double c1 = coef(3, 8), c2 = coef(3, 8);
        p = p1 + c1 * en + c2 * n, qp = qv[k1] + c1 * qen + c2 * qn;
        config = "on_boundary_plane";
        break;
      }
    }
    if (!equal(p, qp)) continue;  // a rounding crept in: not the exact case meant, redraw
    // Far from the origin: an integer shift as large as keeps every coordinate exact.
    const Vec3* const pts[] = {&p, &a, &b, &c};
    Vec3 shift = Vec3::Zero();
    if (uniform_int(rng, 0, 9) < 3) {
      shift = dyadic_vec(rng, 0, 1024, std::ldexp(1.0, static_cast<int>(uniform_int(rng, 0, 40))));
      auto exact_shift = [&] {
        for (const Vec3* x : pts)
          if (!equal(*x + shift, exact(*x) + exact(shift))) return false;
        return true;
      };
      // Halve towards zero (integers stay exact) until every coordinate is exact.
      while (!exact_shift()) shift = (shift / 2).unaryExpr([](double x) { return std::trunc(x); });
    }
    // Exact power-of-two scaling (an underflow to subnormals could round: then scale 1).
    double sc = s;
    std::string sctag = stag;
    for (const Vec3* x : pts)
      if (((*x + shift) * sc) / sc != *x + shift) sc = 1, sctag = "1";
    const bool far = shift.cwiseAbs().maxCoeff() >= 1024;
    return {{(p + shift) * sc, (a + shift) * sc, (b + shift) * sc, (c + shift) * sc},
            regime({{"shape", to_string(shape)}, {"config", config},
                    {"place", far ? "far" : "origin"}, {"scale", sctag}})};
  }
}

}  // namespace contactbench::cases
