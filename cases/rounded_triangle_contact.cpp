#include "cases/rounded_triangle_contact.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>

#include <gmpxx.h>

#include <algorithm>
#include <cmath>

namespace contactbench::cases {

double scale(const RoundedTriangleContactQuery& q) { return std::max(q.r1, q.r2); }

std::string polygon_kind(std::size_t n) {
  if (n == 0) return "empty";
  if (n == 1) return "point";
  if (n == 2) return "segment";
  return std::to_string(n);
}

namespace {

// |x - c|^2 <= r^2 for every vertex, exactly.
bool sphere_contains(const Vec3& c, double r, const std::array<Vec3, 3>& t) {
  const mpq_class r2 = mpq_class(r) * mpq_class(r);
  for (const Vec3& x : t) {
    mpq_class s = 0;
    for (int k = 0; k < 3; ++k) {
      const mpq_class d = mpq_class(x[k]) - mpq_class(c[k]);
      s += d * d;
    }
    if (s > r2) return false;
  }
  return true;
}

std::array<Vec3, 3> read_triangle(const nlohmann::json& j, const std::string& key, const Where& w) {
  const auto v = read_vec3_list(j, key, w);
  if (v.size() != 3) w.fail(key, fmt::format("expected 3 vertices, got {}", v.size()));
  return {v[0], v[1], v[2]};
}

double read_radius(const nlohmann::json& j, const std::string& key, const Where& w) {
  const double r = read_double(j, key, w);
  if (!(r > 0)) w.fail(key, fmt::format("radius must be > 0, got {}", r));
  return r;
}

}  // namespace

RoundedTriangleContactQuery RoundedTriangleContact::from_json(const nlohmann::json& j, const Where& w) {
  reject_unknown_keys(j, {"p", "q", "c1", "c2", "r1", "r2"}, w);
  Query q;
  q.p = read_triangle(j, "p", w);
  q.q = read_triangle(j, "q", w);
  q.c1 = read_vec3(j, "c1", w);
  q.c2 = read_vec3(j, "c2", w);
  q.r1 = read_radius(j, "r1", w);
  q.r2 = read_radius(j, "r2", w);
  if (exactly_collinear(q.p[0], q.p[1], q.p[2]))
    w.fail("p", "degenerate triangle: the vertices are collinear (zero area)");
  if (exactly_collinear(q.q[0], q.q[1], q.q[2]))
    w.fail("q", "degenerate triangle: the vertices are collinear (zero area)");
  if (q.c1 == q.c2) w.fail("c2", "coincident sphere centres: no contact plane");
  if (!sphere_contains(q.c1, q.r1, q.p))
    w.fail("r1", "the sphere (c1, r1) does not contain triangle p (it must encompass it)");
  if (!sphere_contains(q.c2, q.r2, q.q))
    w.fail("r2", "the sphere (c2, r2) does not contain triangle q (it must encompass it)");
  return q;
}

nlohmann::json RoundedTriangleContact::to_json(const Query& q) {
  using cases::to_json;
  auto tri = [](const std::array<Vec3, 3>& t) {
    return nlohmann::json::array({to_json(t[0]), to_json(t[1]), to_json(t[2])});
  };
  return {{"p", tri(q.p)}, {"q", tri(q.q)}, {"c1", to_json(q.c1)}, {"c2", to_json(q.c2)},
          {"r1", q.r1}, {"r2", q.r2}};
}

nlohmann::json RoundedTriangleContact::to_json(const Result& r) {
  auto num = [](double x) { return std::isnan(x) ? nlohmann::json() : nlohmann::json(x); };
  nlohmann::json poly = nlohmann::json::array();
  for (const Vec3& v : r.polygon) poly.push_back(cases::to_json(v));
  nlohmann::json j = {{"facing", r.facing}, {"spheres_overlap", r.spheres_overlap},
                      {"polygon", poly}, {"contact_point", r.contact_point.allFinite()
                                                               ? cases::to_json(r.contact_point)
                                                               : nlohmann::json()},
                      {"h2", num(r.h2)}, {"contact", r.contact}, {"delta_s", num(r.delta_s)},
                      {"delta_t", num(r.delta_t)}};
  if (!std::isnan(r.facing_margin)) j["facing_margin"] = r.facing_margin;
  if (!std::isnan(r.overlap_margin)) j["overlap_margin"] = r.overlap_margin;
  if (!std::isnan(r.contact_margin)) j["contact_margin"] = r.contact_margin;
  if (!std::isnan(r.count_margin)) j["count_margin"] = r.count_margin;
  return j;
}

namespace {

using V2 = std::array<double, 2>;

// The query of a picture drawn in the contact plane x = 0: P's vertices project to a (y, z),
// Q's to b; P's vertex i sits at x = c1.x + sp[i], Q's at x = c2.x - sq[i]; c1 = (x1, 0, 0),
// c2 = (x2, 0, 0). Whatever the radii, the projections onto the contact plane are a and b
// (the plane is perpendicular to x) and its centre c projects to the origin.
RoundedTriangleContactQuery lift(const std::array<V2, 3>& a, const std::array<V2, 3>& b,
                                 const std::array<double, 3>& sp, const std::array<double, 3>& sq,
                                 double x1, double x2, double r1, double r2) {
  RoundedTriangleContactQuery q;
  for (int i = 0; i < 3; ++i) {
    q.p[i] = Vec3(x1 + sp[i], a[i][0], a[i][1]);
    q.q[i] = Vec3(x2 - sq[i], b[i][0], b[i][1]);
  }
  q.c1 = Vec3(x1, 0, 0);
  q.c2 = Vec3(x2, 0, 0);
  q.r1 = r1;
  q.r2 = r2;
  return q;
}

RoundedTriangleContactQuery symmetric(const std::array<V2, 3>& a, const std::array<V2, 3>& b,
                                      double xp, double xq, double half, double r) {
  // P at x = xp, Q at x = xq, centres at -half and +half, both radii r.
  return lift(a, b, {xp + half, xp + half, xp + half}, {half - xq, half - xq, half - xq}, -half,
              half, r, r);
}

constexpr double nan = RoundedTriangleContactResult::nan;
const Vec3 none = Vec3::Constant(nan);

}  // namespace

std::vector<RoundedTriangleContactCase> RoundedTriangleContact::cases() {
  // The contact plane is x = 0 (equal radii, centres at x = ∓half), its normal +x, its centre
  // the origin. Facing needs P's projection counter-clockwise in (y, z) (n1.x > 0) and Q's
  // clockwise. r_c² = r² − half². Answers derived by hand in the (y, z) picture.
  const std::array<V2, 3> big_q{{{-3, -3}, {-3, 6}, {6, -3}}};  // CW; y, z >= -3, y + z <= 3
  std::vector<RoundedTriangleContactCase> out = {
      {"c_inside_triangle", symmetric({{{-2, -2}, {4, -2}, {-2, 4}}}, big_q, -1, 1, 3, 8),
       true, true, true, {{0, -2, -2}, {0, 4, -2}, {0, -2, 4}}, {0, 0, 0}, 0},
      {"cp_on_edge", symmetric({{{1, -1}, {2, -1}, {1, 1}}}, big_q, -1, 1, 3, 8),
       true, true, true, {{0, 1, -1}, {0, 2, -1}, {0, 1, 1}}, {0, 1, 0}, 1},
      {"cp_at_vertex", symmetric({{{1, 1}, {2, 1}, {1, 2}}}, big_q, -1, 1, 3, 8),
       true, true, true, {{0, 1, 1}, {0, 2, 1}, {0, 1, 2}}, {0, 1, 1}, 2},
      // Star of David: S is the hexagon (−3,0), (−2,−2), (2,−2), (3,0), (2,2), (−2,2).
      {"hexagon", symmetric({{{-4, -2}, {4, -2}, {0, 6}}}, {{{-4, 2}, {4, 2}, {0, -6}}}, -1, 1, 3, 8),
       true, true, true,
       {{0, -3, 0}, {0, -2, -2}, {0, 2, -2}, {0, 3, 0}, {0, 2, 2}, {0, -2, 2}}, {0, 0, 0}, 0},
      // Touching at one vertex: S = {(1, 1)}.
      {"point_at_shared_vertex", symmetric({{{1, 1}, {4, 1}, {1, 4}}}, {{{1, 1}, {1, -2}, {-2, 1}}}, -1, 1, 3, 8),
       true, true, true, {{0, 1, 1}}, {0, 1, 1}, 2},
      // Shared edge y = 1, z in [−2, 2], the triangles on either side: S is that segment.
      {"segment_shared_edge", symmetric({{{1, -2}, {3, 0}, {1, 2}}}, {{{1, 2}, {1, -2}, {-1, 0}}}, -1, 1, 3, 8),
       true, true, true, {{0, 1, -2}, {0, 1, 2}}, {0, 1, 0}, 1},
      {"empty_apart_in_plane", symmetric({{{1, 1}, {2, 1}, {1, 2}}}, {{{-1, -1}, {-1, -2}, {-2, -1}}}, -1, 1, 3, 8),
       true, true, false, {}, none, nan},
      {"not_facing_p_reversed", symmetric({{{-2, -2}, {-2, 4}, {4, -2}}}, big_q, -1, 1, 3, 8),
       false, false, false, {}, none, nan},
      {"not_facing_q_reversed", symmetric({{{-2, -2}, {4, -2}, {-2, 4}}}, {{{-3, -3}, {6, -3}, {-3, 6}}}, -1, 1, 3, 8),
       false, false, false, {}, none, nan},
      {"spheres_apart", symmetric({{{-2, -2}, {4, -2}, {-2, 4}}}, big_q, -7, 7, 9, 8),
       true, false, false, {{0, -2, -2}, {0, 4, -2}, {0, -2, 4}}, {0, 0, 0}, 0},
      {"spheres_touching", symmetric({{{-2, -2}, {4, -2}, {-2, 4}}}, big_q, -7, 7, 8, 8),
       true, false, false, {{0, -2, -2}, {0, 4, -2}, {0, -2, 4}}, {0, 0, 0}, 0},
      // r = 5, half = 4: r_c = 3; S = P' whose edge y = 3 is at distance 3 from c: h² = r_c².
      {"h2_equals_rc2", symmetric({{{3, -1}, {4, 0}, {3, 1}}}, {{{4, 0}, {2, -3}, {2, 3}}}, -1, 1, 4, 5),
       true, true, false, {{0, 3, -1}, {0, 4, 0}, {0, 3, 1}}, {0, 3, 0}, 9},
  };
  // Facing exactly zero: P's projection is the segment (0,0)-(2,2) (P itself is not flat).
  RoundedTriangleContactCase zero{"facing_zero_p_edge_on",
                                  symmetric({{{0, 0}, {1, 1}, {2, 2}}}, big_q, -1, 1, 3, 8),
                                  false, false, false, {}, none, nan};
  zero.query.p[1].x() = -2;
  out.push_back(zero);
  return out;
}

std::vector<Named<RoundedTriangleContactQuery>> RoundedTriangleContact::canonical() {
  std::vector<Named<Query>> out;
  for (const auto& c : cases()) out.push_back({c.name, c.query});
  return out;
}

namespace {

Vec3 unit(Rng& rng) {
  for (;;) {
    const Vec3 v(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const double n = v.norm();
    if (n > 0.1 && n <= 1) return v / n;
  }
}

// Smallest radius (a double) whose sphere about c contains t, decided exactly.
double enclosing_radius(const Vec3& c, const std::array<Vec3, 3>& t, double at_least) {
  double r = at_least;
  for (const Vec3& x : t) r = std::max(r, (x - c).norm());
  while (!sphere_contains(c, r, t)) r = std::nextafter(r, INFINITY);
  return r;
}

double orient2(const V2& a, const V2& b, const V2& c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// Even-permutation-or-not axis map with signs, always a proper rotation (exact).
Vec3 rotate_exact(const Vec3& x, const std::array<int, 3>& perm, const std::array<int, 3>& sign) {
  return Vec3(sign[0] * x[perm[0]], sign[1] * x[perm[1]], sign[2] * x[perm[2]]);
}

}  // namespace

Generated<RoundedTriangleContactQuery> RoundedTriangleContact::random(Rng& rng) {
  const double s = pick_scale(rng);
  // P near x = -g, Q near x = +g, both roughly facing the contact direction +x.
  auto tri = [&](double x0, double dy, double dz) {
    for (;;) {
      std::array<Vec3, 3> t;
      for (auto& v : t) v = Vec3(x0 + uniform(rng, -0.3, 0.3), dy + uniform(rng, -1, 1), dz + uniform(rng, -1, 1));
      const double area = (t[1] - t[0]).cross(t[2] - t[0]).norm();
      if (area > 0.05) return t;
    }
  };
  const double gap = uniform(rng, -0.2, 1.5);
  auto p = tri(-gap / 2, 0, 0);
  auto q = tri(gap / 2, uniform(rng, -1.5, 1.5), uniform(rng, -1.5, 1.5));
  const long uf = uniform_int(rng, 0, 9);
  const char* facing = "yes";
  if ((p[1] - p[0]).cross(p[2] - p[0]).x() < 0) std::swap(p[1], p[2]);
  if ((q[1] - q[0]).cross(q[2] - q[0]).x() > 0) std::swap(q[1], q[2]);
  if (uf == 0) std::swap(p[1], p[2]), facing = "no";
  if (uf == 1) std::swap(q[1], q[2]), facing = "no";
  auto centroid = [](const std::array<Vec3, 3>& t) { return Vec3((t[0] + t[1] + t[2]) / 3); };
  Vec3 c1 = centroid(p) - Vec3(uniform(rng, 0, 1.5), uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3));
  Vec3 c2 = centroid(q) + Vec3(uniform(rng, 0, 1.5), uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3));
  const Eigen::Matrix3d rot = random_rotation(rng);
  const bool far = uniform_int(rng, 0, 9) < 3;
  const Vec3 shift = far ? Vec3(log_uniform(rng, 1e3, 1e6) * s * unit(rng)) : Vec3::Zero();
  auto map = [&](const Vec3& x) -> Vec3 { return (rot * x) * s + shift; };
  for (auto* t : {&p, &q})
    for (auto& v : *t) v = map(v);
  c1 = map(c1), c2 = map(c2);
  // Radii: at least the enclosing radius, enlarged by up to 60%.
  const double r1 = enclosing_radius(c1, p, 0) * (1 + uniform(rng, 0, 0.6));
  const double r2 = enclosing_radius(c2, q, 0) * (1 + uniform(rng, 0, 0.6));
  Query out{p, q, c1, c2, enclosing_radius(c1, p, r1), enclosing_radius(c2, q, r2)};
  if (exactly_collinear(p[0], p[1], p[2]) || exactly_collinear(q[0], q[1], q[2]) || c1 == c2)
    return random(rng);
  const double dist = (c2 - c1).norm(), sum = out.r1 + out.r2;
  return {out, regime({{"shape", "generic"}, {"config", facing[0] == 'y' ? "facing" : "not_facing"},
                       {"spheres", dist < sum ? "overlap" : "apart"},
                       {"place", far ? "far" : "origin"}, {"scale", scale_tag(s)}})};
}

Generated<RoundedTriangleContactQuery> RoundedTriangleContact::degenerate(Rng& rng) {
  // The picture in the contact plane (y, z): a (P', CCW) and b (Q', CW), small dyadics.
  std::array<V2, 3> a{}, b{};
  auto grid = [&](long range) { return V2{dyadic(rng, 1, range, 1), dyadic(rng, 1, range, 1)}; };
  auto random_triangle = [&](long range) {
    for (;;) {
      std::array<V2, 3> t = {grid(range), grid(range), grid(range)};
      if (orient2(t[0], t[1], t[2]) != 0) return t;
    }
  };
  auto translate = [](std::array<V2, 3>& t, const V2& o) {
    for (auto& v : t) v = {v[0] + o[0], v[1] + o[1]};
  };
  std::string config;
  bool rc_case = false;
  switch (uniform_int(rng, 0, 7)) {
    case 0:
    case 1: {  // independent grid triangles: vertices on edges, shared vertices, crossings
      a = random_triangle(8), b = random_triangle(8);
      config = "grid";
      break;
    }
    case 2: {  // star of David (hexagon) and its variants, shifted on the grid
      const double k = std::ldexp(1.0, static_cast<int>(uniform_int(rng, -1, 1)));
      a = {{{-4 * k, -2 * k}, {4 * k, -2 * k}, {0, 6 * k}}};
      b = {{{-4 * k, 2 * k}, {4 * k, 2 * k}, {0, -6 * k}}};
      translate(b, grid(4));
      config = "star";
      break;
    }
    case 3: {  // a shared edge; b on either side of it
      a = random_triangle(8);
      const V2 x = grid(8);
      b = {a[0], a[1], x};
      config = "shared_edge";
      break;
    }
    case 4: {  // a shared vertex, b the point reflection of a through it: S = that point
      a = random_triangle(8);
      b = {a[0], V2{2 * a[0][0] - a[1][0], 2 * a[0][1] - a[1][1]},
           V2{2 * a[0][0] - a[2][0], 2 * a[0][1] - a[2][1]}};
      config = uniform_int(rng, 0, 1) ? "point" : "point_shifted";
      if (config == "point_shifted") translate(b, {dyadic(rng, 2, 2, 1), dyadic(rng, 2, 2, 1)});
      break;
    }
    case 5: {  // b contains a, sharing a vertex (S = a) or not
      a = random_triangle(6);
      const double f = uniform_int(rng, 0, 1) ? 2 : 1.5;
      b = a;
      for (auto& v : b) v = {a[0][0] + f * (v[0] - a[0][0]), a[0][1] + f * (v[1] - a[0][1])};
      config = "contained";
      break;
    }
    case 6: {  // a vertex of b exactly on an edge of a
      a = random_triangle(8);
      const double t = std::ldexp(static_cast<double>(uniform_int(rng, 1, 7)), -3);
      const V2 on{a[0][0] + t * (a[1][0] - a[0][0]), a[0][1] + t * (a[1][1] - a[0][1])};
      b = {on, grid(8), grid(8)};
      if (orient2(b[0], b[1], b[2]) == 0) b[2] = {b[2][0] + 1, b[2][1] + 0.5};
      config = "vertex_on_edge";
      break;
    }
    default: {  // h² = r_c² exactly: nearest point of S = a at (3, 4)·k, r = 13k, half = 12k
      a = {{{3, 4}, {7, 1}, {4, 8}}};
      b = {{{3, 4}, {4.5, 10}, {9, -0.5}}};
      rc_case = true;
      config = "h2_equals_rc2";
      break;
    }
  }
  // c relative to the picture: anywhere on a coarse grid (inside S, on its edges and vertices
  // or outside), except in the h² = r_c² picture.
  if (!rc_case) {
    const V2 o = grid(4);
    translate(a, {-o[0], -o[1]});
    translate(b, {-o[0], -o[1]});
  }
  // Orientation for facing; then, sometimes, spoil it (reversed or exactly edge-on).
  if (orient2(a[0], a[1], a[2]) < 0) std::swap(a[1], a[2]);
  if (orient2(b[0], b[1], b[2]) > 0) std::swap(b[1], b[2]);
  std::string facing = "yes";
  const long uf = uniform_int(rng, 0, 11);
  if (uf == 0) std::swap(a[1], a[2]), facing = "p_reversed";
  if (uf == 1) std::swap(b[1], b[2]), facing = "q_reversed";
  if (uf == 2) a[2] = {2 * a[1][0] - a[0][0], 2 * a[1][1] - a[0][1]}, facing = "p_zero";
  if (uf == 3) b[2] = {2 * b[1][0] - b[0][0], 2 * b[1][1] - b[0][1]}, facing = "q_zero";
  // Heights of the vertices over their centre (edge-on triangles still have area in 3D).
  std::array<double, 3> sp{}, sq{};
  for (auto& h : sp) h = std::ldexp(static_cast<double>(uniform_int(rng, 1, 8)), -2);
  for (auto& h : sq) h = std::ldexp(static_cast<double>(uniform_int(rng, 1, 8)), -2);
  if (facing == "p_zero") sp[1] += 1;
  if (facing == "q_zero") sq[1] += 1;
  // Radii on the 1/16 grid, enclosing exactly; centre separation by the spheres' mode.
  auto enclosing16 = [](const std::array<V2, 3>& t, const std::array<double, 3>& h) {
    double m = 0;
    for (int i = 0; i < 3; ++i) m = std::max(m, h[i] * h[i] + t[i][0] * t[i][0] + t[i][1] * t[i][1]);
    double r = std::ceil(std::sqrt(m) * 16) / 16;
    while (r * r < m) r += 1.0 / 16;  // every term is exact: small dyadics
    return r;
  };
  double r1 = enclosing16(a, sp) + std::ldexp(static_cast<double>(uniform_int(rng, 0, 16)), -3);
  double r2 = enclosing16(b, sq) + std::ldexp(static_cast<double>(uniform_int(rng, 0, 16)), -3);
  std::string spheres;
  double dist = 0;
  if (rc_case) {
    r1 = r2 = 13, dist = 24, spheres = "h2_equals_rc2";
  } else {
    switch (uniform_int(rng, 0, 5)) {
      case 0: dist = r1 + r2, spheres = "touching"; break;
      case 1: dist = r1 + r2 + std::ldexp(static_cast<double>(uniform_int(rng, 1, 8)), -3), spheres = "apart"; break;
      default: {
        const double lo = std::abs(r1 - r2) + 0.0625, hi = r1 + r2 - 0.0625;
        dist = std::max(lo, std::floor(uniform(rng, lo, hi) * 16) / 16);
        spheres = dist < r1 + r2 ? "overlap" : "touching";
        break;
      }
    }
  }
  const double x1 = -std::ldexp(std::floor(dist * 8), -4);  // centres about the origin
  RoundedTriangleContactQuery q = lift(a, b, sp, sq, x1, x1 + dist, r1, r2);
  // Exact rigid motion: a signed axis permutation of determinant +1, a dyadic translation,
  // a power-of-two scale.
  std::array<int, 3> perm{0, 1, 2}, sign{1, 1, 1};
  std::shuffle(perm.begin(), perm.end(), rng);
  for (auto& x : sign) x = uniform_int(rng, 0, 1) ? 1 : -1;
  const bool odd = !(perm == std::array<int, 3>{0, 1, 2} || perm == std::array<int, 3>{1, 2, 0} ||
                     perm == std::array<int, 3>{2, 0, 1});
  if (odd != (sign[0] * sign[1] * sign[2] < 0)) sign[0] = -sign[0];
  const bool far = uniform_int(rng, 0, 3) == 0;
  const Vec3 shift = far ? Vec3(dyadic(rng, 0, 1 << 20, 1), dyadic(rng, 0, 1 << 20, 1), dyadic(rng, 0, 1 << 20, 1))
                         : Vec3(dyadic(rng, 2, 8, 1), dyadic(rng, 2, 8, 1), dyadic(rng, 2, 8, 1));
  const double s = pick_scale(rng);
  auto map = [&](const Vec3& x) -> Vec3 { return (rotate_exact(x, perm, sign) + shift) * s; };
  for (auto* t : {&q.p, &q.q})
    for (auto& v : *t) v = map(v);
  q.c1 = map(q.c1), q.c2 = map(q.c2);
  q.r1 *= s, q.r2 *= s;
  // Thin picture cases can be collinear in 3D only by construction errors: redraw.
  if (exactly_collinear(q.p[0], q.p[1], q.p[2]) || exactly_collinear(q.q[0], q.q[1], q.q[2]) ||
      !sphere_contains(q.c1, q.r1, q.p) || !sphere_contains(q.c2, q.r2, q.q))
    return degenerate(rng);
  return {q, regime({{"shape", "grid"}, {"config", config}, {"facing", facing},
                     {"spheres", spheres}, {"place", far ? "far" : "origin"},
                     {"scale", scale_tag(s)}})};
}

}  // namespace contactbench::cases
