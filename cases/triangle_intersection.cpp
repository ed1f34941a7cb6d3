#include "cases/triangle_intersection.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

namespace contactbench::cases {

double longest_edge(const TriangleIntersectionQuery& q) {
  double L = 0;
  for (const auto* t : {&q.p, &q.q})
    for (int i = 0; i < 3; ++i) L = std::max(L, ((*t)[(i + 1) % 3] - (*t)[i]).norm());
  return L;
}

bool triangle_in_fast_domain(const TriangleIntersectionQuery& q) {
  for (const auto* t : {&q.p, &q.q})
    for (const Vec3& v : *t)
      for (int d = 0; d < 3; ++d) {
        const double a = std::abs(v[d]);
        if (a != 0 && !(a >= triangle_domain_min && a <= triangle_domain_max)) return false;
      }
  return true;
}

namespace {

std::array<Vec3, 3> read_triangle(const nlohmann::json& j, const char* key, const Where& where) {
  const std::vector<Vec3> v = read_vec3_list(j, key, where);
  if (v.size() != 3) where.fail(key, fmt::format("a triangle has 3 vertices, not {}", v.size()));
  if (exactly_collinear(v[0], v[1], v[2]))
    where.fail(key, "degenerate triangle: the vertices are collinear (zero area), so it has no plane");
  return {v[0], v[1], v[2]};
}

nlohmann::json triangle_json(const std::array<Vec3, 3>& t) {
  return {cases::to_json(t[0]), cases::to_json(t[1]), cases::to_json(t[2])};
}

}  // namespace

TriangleIntersectionQuery TriangleIntersection::from_json(const nlohmann::json& j, const Where& where) {
  reject_unknown_keys(j, {"p", "q"}, where);
  return {read_triangle(j, "p", where), read_triangle(j, "q", where)};
}

nlohmann::json TriangleIntersection::to_json(const Query& q) {
  return {{"p", triangle_json(q.p)}, {"q", triangle_json(q.q)}};
}

nlohmann::json TriangleIntersection::to_json(const Result& r) {
  nlohmann::json j = {{"intersect", r.intersect}, {"coplanar", r.coplanar}};
  if (!r.configuration.empty()) j["configuration"] = r.configuration;
  if (!std::isnan(r.intersect_margin)) j["intersect_margin"] = r.intersect_margin;
  if (!std::isnan(r.coplanar_margin)) j["coplanar_margin"] = r.coplanar_margin;
  return j;
}

std::vector<TriangleIntersectionCase> TriangleIntersection::cases() {
  // p = T = (0,0,0), (4,0,0), (0,4,0) in the plane z = 0 unless said otherwise; T's closed
  // set is x, y >= 0, x + y <= 4. Answers derived by hand in the comments.
  const std::array<Vec3, 3> T = {Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, 4, 0)};
  const Vec3 far(1024, -2048, 512);
  auto shifted = [](std::array<Vec3, 3> t, const Vec3& s) {
    for (auto& v : t) v += s;
    return t;
  };
  return {
      // q in z = 1, parallel: every vertex of q strictly above T's plane.
      {"parallel_above", {T, {Vec3(0, 0, 1), Vec3(4, 0, 1), Vec3(0, 4, 1)}}, false, false, "separated"},
      // Edge q0q1 pierces z = 0 at (1,1,0), inside T; q's plane x = y has T's vertices
      // (4,0,0) and (0,4,0) on both sides.
      {"crossing", {T, {Vec3(1, 1, -1), Vec3(1, 1, 1), Vec3(5, 5, 0)}}, true, false, "crossing"},
      // q0 = (1,1,0) inside T, q1 and q2 at z = 2: q rests on T at one point.
      {"vertex_on_face", {T, {Vec3(1, 1, 0), Vec3(1, 2, 2), Vec3(2, 1, 2)}}, true, false, "touching"},
      // q0 = (2,0,0) on T's edge p0p1, the others at z = 2.
      {"vertex_on_edge", {T, {Vec3(2, 0, 0), Vec3(2, 1, 2), Vec3(3, -1, 2)}}, true, false, "touching"},
      // q0 = p1 = (4,0,0), the others at z = 1.
      {"vertex_on_vertex", {T, {Vec3(4, 0, 0), Vec3(5, 0, 1), Vec3(5, 1, 1)}}, true, false, "touching"},
      // q in the plane x = 2; edge q0q1 passes through (2,0,0) on T's edge p0p1. T ∩ {x=2}
      // is y in [0,2] at z = 0; q ∩ {z=0} is y in [-1/2, 0]: the single point (2,0,0).
      {"edge_through_edge_point", {T, {Vec3(2, -1, 1), Vec3(2, 1, -1), Vec3(2, -2, 1)}}, true, false, "crossing"},
      // Edge q0q1 pierces z = 0 at (3,3,0), outside T (x + y = 6 > 4); q's plane x = y
      // cuts T along (0,0,0)-(2,2,0), q meets z = 0 along (3,3,0)-(6,6,0): no common point.
      {"pierces_plane_outside", {T, {Vec3(3, 3, -1), Vec3(3, 3, 1), Vec3(6, 6, 0)}}, false, false, "disjoint"},
      // q shares T's edge p0p1, q2 above: they meet along that edge.
      {"shared_edge", {T, {Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, 0, 4)}}, true, false, "touching"},
      // Edge q0q1 lies in T's face, q2 above.
      {"edge_in_face", {T, {Vec3(1, 1, 0), Vec3(2, 1, 0), Vec3(1, 1, 3)}}, true, false, "touching"},
      // Coplanar: q0 = (1,1) inside T.
      {"coplanar_overlap", {T, {Vec3(1, 1, 0), Vec3(5, 1, 0), Vec3(1, 5, 0)}}, true, true, "coplanar_overlap"},
      // Coplanar, every point of q has x + y >= 6 > 4.
      {"coplanar_disjoint", {T, {Vec3(3, 3, 0), Vec3(6, 3, 0), Vec3(3, 6, 0)}}, false, true, "coplanar_disjoint"},
      // Coplanar, q touches T at its vertex (4,0,0) only (q has y <= 0, x >= 4 - y/2... its
      // other points have y < 0 or x > 4).
      {"coplanar_vertex_touch", {T, {Vec3(4, 0, 0), Vec3(6, 0, 0), Vec3(5, -2, 0)}}, true, true, "coplanar_overlap"},
      // Coplanar, q below the x axis sharing T's edge p0p1.
      {"coplanar_shared_edge", {T, {Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, -4, 0)}}, true, true, "coplanar_overlap"},
      // Coplanar, q's vertex (2,0,0) on T's edge, the rest at y < 0.
      {"coplanar_vertex_on_edge", {T, {Vec3(2, 0, 0), Vec3(3, -2, 0), Vec3(1, -2, 0)}}, true, true, "coplanar_overlap"},
      // Coplanar star: no vertex of either triangle inside the other (q's vertices have
      // x + y = 6, x = -1 < 0, y = -1 < 0; T's vertex (0,0) has x + y < 1 = q's edge line
      // x + y = 1, (4,0) and (0,4) lie beyond q's edges), yet the edges cross.
      {"coplanar_star", {T, {Vec3(3, 3, 0), Vec3(-1, 2, 0), Vec3(2, -1, 0)}}, true, true, "coplanar_overlap"},
      // q lifted 2^-40 above the coplanar overlap: parallel, strictly above.
      {"nearly_coplanar_above", {T, {Vec3(1, 1, 0x1p-40), Vec3(5, 1, 0x1p-40), Vec3(1, 5, 0x1p-40)}}, false, false, "separated"},
      // "crossing" translated by (1024, -2048, 512): every coordinate stays exact.
      {"crossing_translated", {shifted(T, far), shifted({Vec3(1, 1, -1), Vec3(1, 1, 1), Vec3(5, 5, 0)}, far)},
       true, false, "crossing"},
      // "vertex_on_edge" scaled by 2^-20.
      {"vertex_on_edge_scaled_2^-20",
       {{Vec3(0, 0, 0), Vec3(0x1p-18, 0, 0), Vec3(0, 0x1p-18, 0)},
        {Vec3(0x1p-19, 0, 0), Vec3(0x1p-19, 0x1p-20, 0x1p-19), Vec3(3 * 0x1p-20, -0x1p-20, 0x1p-19)}},
       true, false, "touching"},
  };
}

std::vector<Named<TriangleIntersectionQuery>> TriangleIntersection::canonical() {
  std::vector<Named<Query>> out;
  for (const auto& c : cases()) out.push_back({c.name, c.query});
  return out;
}

namespace {

Vec3 unit_vector(Rng& rng) {
  for (;;) {
    const Vec3 v(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const double n = v.norm();
    if (n > 0.1 && n <= 1) return v / n;
  }
}

// A triangle of the shape with longest edge about 1 around the origin, in the plane z = 0.
std::array<Vec3, 3> flat_triangle(Rng& rng, const std::string& shape) {
  const double theta = log_uniform(rng, 1e-4, 0.1);  // thin shapes' small angle (rad)
  std::array<Vec3, 3> t;
  if (shape == "equilateral") {
    t = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, std::sqrt(3.0) / 2, 0)};
  } else if (shape == "needle") {
    t = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(std::cos(theta), std::sin(theta), 0)};
  } else if (shape == "sliver") {
    t = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1 + theta * 0.5, theta, 0)};
  } else {
    for (;;) {
      t = {Vec3(uniform(rng, 0, 1), uniform(rng, 0, 1), 0), Vec3(uniform(rng, 0, 1), uniform(rng, 0, 1), 0),
           Vec3(uniform(rng, 0, 1), uniform(rng, 0, 1), 0)};
      if (std::abs((t[1] - t[0]).cross(t[2] - t[0]).z()) > 0.1) break;
    }
  }
  const Vec3 c = (t[0] + t[1] + t[2]) / 3;
  for (auto& v : t) v -= c;
  return t;
}

// The same, randomly rotated in space (rotate = true) or in the plane z = 0.
std::array<Vec3, 3> random_triangle(Rng& rng, const std::string& shape, bool rotate = true) {
  std::array<Vec3, 3> t = flat_triangle(rng, shape);
  const Eigen::Matrix3d R =
      rotate ? random_rotation(rng)
             : Eigen::AngleAxisd(uniform(rng, 0, 2 * std::numbers::pi), Vec3::UnitZ()).toRotationMatrix();
  for (auto& v : t) v = R * v;
  if (!rotate)
    for (auto& v : t) v.z() = 0;
  if (uniform_int(rng, 0, 1)) std::swap(t[1], t[2]);
  return t;
}

std::string pick_shape(Rng& rng, bool equilateral) {
  const long u = uniform_int(rng, equilateral ? 0 : 1, 9);
  return u == 0 ? "equilateral" : u <= 5 ? "generic" : u <= 7 ? "needle" : "sliver";
}

bool finite(const TriangleIntersectionQuery& q) {
  for (const auto* t : {&q.p, &q.q})
    for (const Vec3& v : *t)
      if (!v.allFinite()) return false;
  return true;
}

bool non_degenerate(const TriangleIntersectionQuery& q) {
  return !exactly_collinear(q.p[0], q.p[1], q.p[2]) && !exactly_collinear(q.q[0], q.q[1], q.q[2]);
}

}  // namespace

Generated<TriangleIntersectionQuery> TriangleIntersection::random(Rng& rng) {
  for (;;) {
    const std::string shape = pick_shape(rng, true);
    double s = pick_scale(rng);
    std::string stag = scale_tag(s);
    const long us = uniform_int(rng, 0, 99);
    if (us < 2) s = 0x1p-997, stag = "1e-300";
    else if (us < 4) s = 0x1p997, stag = "1e300";
    const long uc = uniform_int(rng, 0, 9);
    const char* config = uc < 4 ? "box" : uc < 7 ? "crossing" : uc < 9 ? "near" : "far";
    auto p = random_triangle(rng, shape);
    auto q = random_triangle(rng, pick_shape(rng, true));
    if (std::string(config) == "box") {
      const Vec3 off(uniform(rng, -0.5, 0.5), uniform(rng, -0.5, 0.5), uniform(rng, -0.5, 0.5));
      for (auto& v : q) v += off;
    } else if (std::string(config) == "crossing") {
      // q's vertex 0 moved so that its edge q0q1 passes through a random point of p.
      double r1 = uniform(rng, 0, 1), r2 = uniform(rng, 0, 1);
      if (r1 + r2 > 1) r1 = 1 - r1, r2 = 1 - r2;
      const Vec3 x = p[0] + r1 * (p[1] - p[0]) + r2 * (p[2] - p[0]);
      const Vec3 shift = x - (q[0] + q[1]) / 2;
      for (auto& v : q) v += shift;
    } else if (std::string(config) == "near") {
      double r1 = uniform(rng, 0, 1), r2 = uniform(rng, 0, 1);
      if (r1 + r2 > 1) r1 = 1 - r1, r2 = 1 - r2;
      const Vec3 x = p[0] + r1 * (p[1] - p[0]) + r2 * (p[2] - p[0]) +
                     log_uniform(rng, 1e-8, 1e-1) * unit_vector(rng);
      const Vec3 shift = x - q[0];
      for (auto& v : q) v += shift;
    } else {
      const Vec3 shift = log_uniform(rng, 10, 1000) * unit_vector(rng);
      for (auto& v : q) v += shift;
    }
    const bool far = uniform_int(rng, 0, 9) < 3 && s < 1e200;
    const Vec3 t = far ? Vec3(log_uniform(rng, 1e3, 1e9) * unit_vector(rng)) : Vec3::Zero();
    TriangleIntersectionQuery out;
    for (int i = 0; i < 3; ++i) out.p[i] = (p[i] + t) * s, out.q[i] = (q[i] + t) * s;
    if (!finite(out) || !non_degenerate(out)) continue;
    return {out, regime({{"shape", shape}, {"config", config}, {"place", far ? "far" : "origin"}, {"scale", stag}})};
  }
}

namespace {

Vec3 grid_point(Rng& rng) {
  return {dyadic(rng, 4, 32, 1), dyadic(rng, 4, 32, 1), dyadic(rng, 4, 32, 1)};
}

// A triangle on the grid k/16 (|k| <= 32); needle and sliver put the third vertex a grid
// offset 2^-j·w (j up to 20) from the second vertex, resp. from the line of the first two.
std::array<Vec3, 3> grid_triangle(Rng& rng, const std::string& shape) {
  for (;;) {
    const Vec3 a = grid_point(rng), b = grid_point(rng);
    Vec3 c = grid_point(rng);
    const Vec3 off = std::ldexp(1.0, -static_cast<int>(uniform_int(rng, 4, 20))) *
                     Vec3(static_cast<double>(uniform_int(rng, -3, 3)), static_cast<double>(uniform_int(rng, -3, 3)),
                          static_cast<double>(uniform_int(rng, -3, 3)));
    if (shape == "needle") c = b + off;
    if (shape == "sliver") c = a + std::ldexp(static_cast<double>(uniform_int(rng, 17, 40)), -4) * (b - a) + off;
    if (!exactly_collinear(a, b, c)) return {a, b, c};
  }
}

// a + s·(b - a) + t·(c - a) for dyadic s, t: exact on the grid (checked by the caller).
Vec3 affine(const std::array<Vec3, 3>& t, double s, double u) {
  return t[0] + s * (t[1] - t[0]) + u * (t[2] - t[0]);
}

double eighth(Rng& rng, long lo, long hi) { return std::ldexp(static_cast<double>(uniform_int(rng, lo, hi)), -3); }

// A point of the grid strictly on one side of p's plane (the given side), or anywhere.
Vec3 off_plane(Rng& rng, const std::array<Vec3, 3>& p, int side) {
  const Vec3 n = (p[1] - p[0]).cross(p[2] - p[0]);
  for (int tries = 0; tries < 64; ++tries) {
    const Vec3 x = grid_point(rng);
    const double o = n.dot(x - p[0]);  // sign only steers the generator; the reference decides
    if (side == 0 || (side > 0 ? o > 0 : o < 0)) return x;
  }
  // p's plane leaves (almost) no grid point on that side (e.g. p lies in a face of the
  // grid's box): a point a unit off p0 along the normal instead.
  return p[0] + (side < 0 ? -1.0 : 1.0) * n.normalized();
}

// Full-mantissa degenerate classes ("fm_"): the degeneracies of meshes with real
// coordinates (shared vertices and edges, T-junctions, flat regions on a tilted plane),
// exact in double, built on random doubles rather than on the few-bit grid. Shared
// vertices and edges keep all 53 bits. Points that a construction combines are snapped to
// multiples of a common quantum Q = 2^(E-51), 2^E > every |coordinate|, so they have up to
// 51 significant bits: products of differences still round in double (which is what makes
// a filter fail on an exactly zero orientation), while midpoints, the point (a + b + 2·c)/4
// and a plane z = k1/4·x + k2/4·y (x, y snapped to 4Q) are exact. Exactness is checked
// (two-sum tails; fma for products), the caller retries otherwise.

bool exact_sum(double a, double b) {  // Knuth's two-sum: a + b is exact iff the tail is 0
  const double s = a + b, bv = s - a, av = s - bv;
  return (a - av) + (b - bv) == 0;
}

// (a + b) / 2, exact coordinates only (nullopt otherwise).
std::optional<Vec3> exact_midpoint(const Vec3& a, const Vec3& b) {
  for (int d = 0; d < 3; ++d)
    if (!exact_sum(a[d], b[d])) return std::nullopt;
  return (a + b) / 2;
}

double snapped(double x, double quantum) { return std::nearbyint(x / quantum) * quantum; }

// The query of one fm_ class (p's shape given) with its points placed (translated by `shift`,
// scaled by the power of two s) before snapping; nullopt when an exactness check failed.
std::optional<TriangleIntersectionQuery> full_mantissa_query(Rng& rng, const std::string& config,
                                                             const std::string& shape, const Vec3& shift,
                                                             double s) {
  const bool planar = config == "fm_coplanar" || config == "fm_coplanar_edge" || config == "fm_nearly_coplanar";
  auto p = random_triangle(rng, shape, !planar);
  auto random_point = [&] {
    return Vec3(uniform(rng, -0.7, 0.7), uniform(rng, -0.7, 0.7), planar ? 0.0 : uniform(rng, -0.7, 0.7));
  };
  std::array<Vec3, 3> q;
  if (planar) {  // q's own shape in the same plane, or a mesh neighbour across p's edge 0-1
    const bool neighbour = config == "fm_coplanar_edge" || (config == "fm_nearly_coplanar" && uniform_int(rng, 0, 1));
    if (neighbour) {
      const Vec3 e = p[1] - p[0];
      Vec3 away(-e.y(), e.x(), 0);  // perpendicular to the edge, away from p2
      if (away.dot(p[2] - p[0]) > 0) away = -away;
      const bool overlap = uniform_int(rng, 0, 3) == 0;  // else q lies across the edge: they share it only
      q = {p[0], p[1], p[0] + uniform(rng, overlap ? 0.0 : -0.2, overlap ? 1.0 : 1.2) * e +
                           (overlap ? -1.0 : 1.0) * uniform(rng, 0.1, 1.0) * away};
    } else {
      q = random_triangle(rng, pick_shape(rng, true), false);
      const Vec3 off(uniform(rng, -0.6, 0.6), uniform(rng, -0.6, 0.6), 0);
      for (auto& v : q) v += off;
    }
  } else {
    q = {random_point(), random_point(), random_point()};
  }
  // Place, then snap the points a construction combines to the common quantum (4Q in the
  // plane's x, y): every point of the coplanar classes, p's vertices for a point on p's
  // edge or face. Shared vertices and edges need no snapping: they keep all 53 bits.
  double top = 0;
  for (auto* t : {&p, &q})
    for (Vec3& v : *t) v = (v + shift) * s, top = std::max(top, v.cwiseAbs().maxCoeff());
  const double quantum = std::ldexp(1.0, std::ilogb(top) + 1 - 51) * (planar ? 4 : 1);
  const bool snap_p = planar || config.find("_on_") != std::string::npos;
  for (auto* t : {&p, &q})
    if (snap_p && (planar || t == &p))
      for (Vec3& v : *t)
        for (int d = 0; d < 3; ++d) v[d] = snapped(v[d], quantum);
  int dependent = 0;
  if (planar) {  // z = k1/4·x + k2/4·y, not both slopes 0 (an axis plane keeps every product exact)
    long k1 = 0, k2 = 0;
    while (k1 == 0 && k2 == 0) k1 = uniform_int(rng, -8, 8), k2 = uniform_int(rng, -8, 8);
    const double a = k1 / 4.0, b = k2 / 4.0;
    for (auto* t : {&p, &q})
      for (Vec3& v : *t) {
        if (!exact_sum(a * v.x(), b * v.y()) || std::fma(a, v.x(), -a * v.x()) != 0 ||
            std::fma(b, v.y(), -b * v.y()) != 0)
          return std::nullopt;
        v.z() = a * v.x() + b * v.y();
      }
    const int axis = static_cast<int>(uniform_int(rng, 0, 2));  // which coordinate is the dependent one
    for (auto* t : {&p, &q})
      for (Vec3& v : *t) v = Vec3(v[(axis + 1) % 3], v[(axis + 2) % 3], v[axis]);
    dependent = axis == 2 ? 2 : axis == 1 ? 0 : 1;  // where z went
  }
  const int k = static_cast<int>(uniform_int(rng, 0, 2));
  const std::array<Vec3, 3> pr = {p[k], p[(k + 1) % 3], p[(k + 2) % 3]};
  if (config == "fm_shared_edge") {
    q[0] = pr[0], q[1] = pr[1];
  } else if (config == "fm_shared_vertex") {
    q[0] = pr[0];
  } else if (config == "fm_vertex_on_edge" || config == "fm_nearly_on_edge") {
    const auto m = exact_midpoint(pr[0], pr[1]);
    if (!m) return std::nullopt;
    q[0] = *m;
  } else if (config == "fm_vertex_on_face") {
    const auto m = exact_midpoint(pr[0], pr[1]);
    const auto f = m ? exact_midpoint(*m, pr[2]) : std::nullopt;
    if (!f) return std::nullopt;
    q[0] = *f;
  }
  if (config == "fm_nearly_on_edge" || config == "fm_nearly_coplanar") {  // one coordinate 1-4 ulps off
    Vec3& v = config == "fm_nearly_on_edge" ? q[0] : (uniform_int(rng, 0, 1) ? p : q)[uniform_int(rng, 0, 2)];
    // Off the plane: the dependent coordinate (the plane is a graph over the other two).
    const int d = config == "fm_nearly_coplanar" ? dependent : static_cast<int>(uniform_int(rng, 0, 2));
    if (v[d] == 0) return std::nullopt;  // a few ulps of 0 are subnormal: outside the fast domain
    const double toward = uniform_int(rng, 0, 1) ? HUGE_VAL : -HUGE_VAL;
    for (long i = uniform_int(rng, 1, 4); i > 0; --i) v[d] = std::nextafter(v[d], toward);
  }
  return TriangleIntersectionQuery{p, q};
}

}  // namespace

Generated<TriangleIntersectionQuery> TriangleIntersection::degenerate(Rng& rng) {
  static const char* const configs[] = {"coplanar",        "coplanar_star",  "coplanar_vertex",
                                        "coplanar_edge",   "vertex_on_edge", "vertex_on_face",
                                        "vertex_on_vertex", "shared_edge",   "shared_vertex",
                                        "edge_on_edge",    "edge_in_face",   "nearly_coplanar",
                                        "fm_coplanar",     "fm_coplanar_edge", "fm_nearly_coplanar",
                                        "fm_shared_edge",  "fm_shared_vertex", "fm_vertex_on_edge",
                                        "fm_vertex_on_face", "fm_nearly_on_edge"};
  for (;;) {
    const std::string shape = pick_shape(rng, false);
    const std::string config = configs[uniform_int(rng, 0, std::size(configs) - 1)];
    if (config.starts_with("fm_")) {  // full-mantissa classes: placed and scaled before snapping
      const long us = uniform_int(rng, 0, 19);
      const double s = us < 5 ? 0x1p-10 : us < 12 ? 1 : us < 17 ? 0x1p10 : us < 19 ? 0x1p280 : 0x1p-600;
      const char* stag = us < 5 ? "1e-3" : us < 12 ? "1" : us < 17 ? "1e3" : us < 19 ? "domain_max" : "outside";
      const bool far = uniform_int(rng, 0, 3) == 0 && s <= 0x1p10;
      const Vec3 shift = far ? Vec3(log_uniform(rng, 1e3, 1e9) * unit_vector(rng)) : Vec3::Zero();
      auto out = full_mantissa_query(rng, config, shape, shift, s);
      if (!out) continue;
      if (uniform_int(rng, 0, 1)) std::swap(out->q[1], out->q[2]);
      std::rotate(out->q.begin(), out->q.begin() + uniform_int(rng, 0, 2), out->q.end());
      if (uniform_int(rng, 0, 1)) std::swap(out->p, out->q);
      if (!finite(*out) || !non_degenerate(*out)) continue;
      return {*out, regime({{"shape", shape}, {"config", config}, {"place", far ? "far" : "origin"}, {"scale", stag}})};
    }
    const auto p = grid_triangle(rng, shape);
    std::array<Vec3, 3> q;
    const int side = uniform_int(rng, 0, 1) ? 1 : -1;
    const int k = static_cast<int>(uniform_int(rng, 0, 2));
    std::array<Vec3, 3> pr = {p[k], p[(k + 1) % 3], p[(k + 2) % 3]};  // p rotated
    if (config == "coplanar" || config == "nearly_coplanar") {
      for (auto& v : q) v = affine(p, eighth(rng, -8, 16), eighth(rng, -8, 16));
    } else if (config == "coplanar_star") {  // parameters (3/4,3/4), (-1/4,1/2), (1/2,-1/4)
      q = {affine(pr, 0.75, 0.75), affine(pr, -0.25, 0.5), affine(pr, 0.5, -0.25)};
    } else if (config == "coplanar_vertex") {  // q0 = a vertex of p, q outside near it
      q = {pr[0], affine(pr, eighth(rng, -16, -1), eighth(rng, -8, 8)), affine(pr, eighth(rng, -8, 8), eighth(rng, -16, -1))};
    } else if (config == "coplanar_edge") {  // q0, q1 on the line of p's edge, q2 beyond it
      q = {affine(pr, eighth(rng, -4, 12), 0), affine(pr, eighth(rng, -4, 12), 0), affine(pr, eighth(rng, -8, 16), eighth(rng, -16, -1))};
    } else if (config == "vertex_on_edge") {
      q = {affine(pr, eighth(rng, 1, 7), 0), off_plane(rng, p, side), off_plane(rng, p, uniform_int(rng, 0, 3) ? side : 0)};
    } else if (config == "vertex_on_face") {
      const double s = eighth(rng, 1, 6), u = eighth(rng, 1, 7 - static_cast<long>(s * 8));
      q = {affine(pr, s, u), off_plane(rng, p, side), off_plane(rng, p, uniform_int(rng, 0, 3) ? side : 0)};
    } else if (config == "vertex_on_vertex") {
      q = {pr[0], off_plane(rng, p, side), off_plane(rng, p, uniform_int(rng, 0, 3) ? side : 0)};
    } else if (config == "shared_edge") {
      q = {pr[0], pr[1], off_plane(rng, p, 0)};
    } else if (config == "shared_vertex") {
      q = {pr[0], grid_point(rng), grid_point(rng)};
    } else if (config == "edge_on_edge") {  // q0q1 through a point x of p's edge, q2 anywhere
      const Vec3 x = affine(pr, eighth(rng, 0, 8), 0), w = grid_point(rng);
      const double a = eighth(rng, 1, 8), b = eighth(rng, 1, 8);
      q = {x + a * w, x - b * w, off_plane(rng, p, 0)};
    } else {  // edge_in_face: q0, q1 in p's closed face, q2 off its plane
      const double s = eighth(rng, 0, 8), u = eighth(rng, 0, 8 - static_cast<long>(s * 8));
      const double s2 = eighth(rng, 0, 8), u2 = eighth(rng, 0, 8 - static_cast<long>(s2 * 8));
      q = {affine(pr, s, u), affine(pr, s2, u2), off_plane(rng, p, side)};
    }
    if (uniform_int(rng, 0, 1)) std::swap(q[1], q[2]);
    const int r = static_cast<int>(uniform_int(rng, 0, 2));
    std::rotate(q.begin(), q.begin() + r, q.end());
    TriangleIntersectionQuery out{p, q};
    if (uniform_int(rng, 0, 1)) std::swap(out.p, out.q);
    // Scale (powers of two: exact) and place (a dyadic translation, kept only if exact).
    const long us = uniform_int(rng, 0, 19);
    const double s = us < 5 ? 0x1p-10 : us < 12 ? 1 : us < 17 ? 0x1p10 : us < 19 ? 0x1p280 : 0x1p-600;
    const char* stag = us < 5 ? "1e-3" : us < 12 ? "1" : us < 17 ? "1e3" : us < 19 ? "domain_max" : "outside";
    const bool far = uniform_int(rng, 0, 3) == 0 && s <= 0x1p10;
    Vec3 t = Vec3::Zero();
    if (far) t = std::ldexp(1.0, static_cast<int>(uniform_int(rng, 10, 30))) * Vec3(static_cast<double>(uniform_int(rng, -7, 7)),
                 static_cast<double>(uniform_int(rng, -7, 7)), static_cast<double>(uniform_int(rng, -7, 7)));
    bool exact = true;
    for (auto* tri : {&out.p, &out.q})
      for (Vec3& v : *tri) {
        const Vec3 moved = v + t;
        if ((moved - t) != v) exact = false;
        v = moved * s;
      }
    if (!exact || !non_degenerate(out)) continue;
    if (config == "nearly_coplanar") {  // one vertex of one triangle 1-4 ulps off, after placing
      Vec3& v = (uniform_int(rng, 0, 1) ? out.p : out.q)[uniform_int(rng, 0, 2)];
      const int d = static_cast<int>(uniform_int(rng, 0, 2));
      if (v[d] == 0) continue;  // a few ulps of 0 are subnormal: outside the fast domain
      const long steps = uniform_int(rng, 1, 4);
      const double toward = uniform_int(rng, 0, 1) ? HUGE_VAL : -HUGE_VAL;
      for (long i = 0; i < steps; ++i) v[d] = std::nextafter(v[d], toward);
      if (!non_degenerate(out)) continue;
    }
    return {out, regime({{"shape", shape}, {"config", config}, {"place", far ? "far" : "origin"}, {"scale", stag}})};
  }
}

}  // namespace contactbench::cases
