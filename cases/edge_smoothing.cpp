#include "cases/edge_smoothing.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace contactbench::cases {

const char* to_string(Zone z) {
  switch (z) {
    case Zone::none: return "none";
    case Zone::blue: return "blue";
    case Zone::red: return "red";
    case Zone::green: return "green";
    case Zone::vertex_cone: return "vertex_cone";
  }
  return "?";
}

std::vector<std::pair<int, int>> oriented_fan(const Mesh& m, int f, int v) {
  return m.oriented_fan(f, v);  // the walk and its consistency check: cases/mesh.cpp
}

namespace {

struct PatchLists {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> f;
  std::array<int, 3> neighbour_index{-1, -1, -1};  // facet index of the neighbour across edge k
};

PatchLists patch_lists(const Vec3& a, const Vec3& b, const Vec3& c, const std::array<Vec3, 3>& q,
                       const std::array<bool, 3>& has, const std::array<bool, 3>& close) {
  PatchLists p;
  p.v = {a, b, c, q[0], q[1], q[2]};
  p.f.push_back({0, 1, 2});
  // Neighbour across edge k = (k, k+1) traverses it backwards: consistent orientation.
  for (int k = 0; k < 3; ++k) {
    if (!has[k]) continue;
    const std::array<int, 3> t{(k + 1) % 3, k, 3 + k};
    if (exactly_collinear(p.v[t[0]], p.v[t[1]], p.v[t[2]])) continue;
    p.neighbour_index[k] = static_cast<int>(p.f.size());
    p.f.push_back(t);
  }
  // Fan closers: at vertex k the neighbours across edges k (apex q[k]) and k-1 (apex q[k-1])
  // are joined by [k, q[k-1], q[k]].
  for (int k = 0; k < 3; ++k) {
    const int km = (k + 2) % 3;
    if (!close[k] || p.neighbour_index[k] < 0 || p.neighbour_index[km] < 0) continue;
    const std::array<int, 3> t{k, 3 + km, 3 + k};
    if (exactly_collinear(p.v[t[0]], p.v[t[1]], p.v[t[2]])) continue;
    p.f.push_back(t);
  }
  return p;
}

// Random orientation flips and facet order; returns the mesh and where facet `track` went.
std::shared_ptr<const Mesh> scramble(PatchLists p, Rng& rng, double flip_probability, int& track) {
  for (auto& t : p.f)
    if (uniform(rng, 0, 1) < flip_probability) std::swap(t[1], t[2]);
  std::vector<int> perm(p.f.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<std::array<int, 3>> f(p.f.size());
  for (std::size_t i = 0; i < perm.size(); ++i) f[perm[i]] = p.f[i];
  track = perm[track];
  return std::make_shared<const Mesh>(std::move(p.v), std::move(f), Where{"generator", ""});
}

// Integer frame of the degenerate generator and the canonical cases: edge0 of facet 1 runs
// from u = (0, -E, 0) to v = (0, E, 0) along +y; facet 1 lies on x < 0 in z = 0, so n1 = +z
// and the edge's outward in-plane direction is +x. The neighbour's apex is (dx, y, dz): its
// consistently oriented normal is proportional to (-dz, 0, dx), so n_lim = dx / |(dx, dz)|.
struct Frame {
  Vec3 u, v, w;
  std::array<Vec3, 3> q;
};

Frame integer_frame(long E, long A, long yw, long dx, long dz, long yq) {
  Frame fr;
  fr.u = Vec3(0, -E, 0);
  fr.v = Vec3(0, E, 0);
  fr.w = Vec3(-A, yw, 0);
  fr.q[0] = Vec3(dx, yq, dz);
  fr.q[1] = fr.v + fr.w - fr.u;  // parallelogram points: across edges 1 and 2, flat
  fr.q[2] = fr.u + fr.w - fr.v;
  return fr;
}

EdgeSmoothingQuery make_query(std::shared_ptr<const Mesh> m, int facet, const Vec3& centre,
                              double radius) {
  EdgeSmoothingQuery q;
  q.mesh = std::move(m);
  q.facet = facet;
  q.centre = centre;
  q.radius = radius;
  return q;
}

}  // namespace

std::shared_ptr<const Mesh> smoothing_patch(const Vec3& a, const Vec3& b, const Vec3& c,
                                            const std::array<Vec3, 3>& q,
                                            const std::array<bool, 3>& has,
                                            const std::array<bool, 3>& close) {
  auto p = patch_lists(a, b, c, q, has, close);
  return std::make_shared<const Mesh>(std::move(p.v), std::move(p.f), Where{"patch", ""});
}

std::vector<Named<EdgeSmoothingQuery>> EdgeSmoothing::canonical() {
  std::vector<Named<EdgeSmoothingQuery>> out;
  const std::array<bool, 3> all{true, true, true}, none{false, false, false};
  // Facet 1 = [u, v, w] with u = (0,-2,0), v = (0,2,0), w = (-2,0,0); edge0 = uv on x = 0.
  auto patch = [&](long dx, long dz, std::array<bool, 3> has, std::array<bool, 3> close) {
    const Frame fr = integer_frame(2, 2, 0, dx, dz, 0);
    return smoothing_patch(fr.u, fr.v, fr.w, fr.q, has, close);
  };
  auto add = [&](std::string name, std::shared_ptr<const Mesh> m, const Vec3& c, double r) {
    out.push_back({std::move(name), make_query(std::move(m), 0, c, r)});
  };
  const auto convex45 = patch(4, -3, all, none);  // n2 = (3, 0, 4)/5, n_lim = 4/5, o_lim = 3/5
  add("face_front", convex45, Vec3(-0.5, 0, 1), 1.5);
  add("face_behind", convex45, Vec3(-0.5, 0, -1), 1.5);
  add("edge_boundary", patch(4, -3, {false, true, true}, none), Vec3(3, 0, 4), 6);
  add("blue_convex", convex45, Vec3(1, 0, 4), 5);       // n.n1 = 4/sqrt(17) > 4/5
  add("blue_red_boundary", convex45, Vec3(3, 0, 4), 6);  // n.n1 = 4/5 = n_lim: blue
  add("red_convex", convex45, Vec3(4, 0, 1), 5);        // n.n1 = 1/sqrt(17)
  add("red_green_boundary", convex45, Vec3(4, 0, -3), 6);  // n.n1 = -3/5 = -o_lim: green
  add("green_behind", convex45, Vec3(1, 0, -4), 5);     // n.n1 = -4/sqrt(17) < -3/5
  add("in_plane_right_angle", patch(0, -4, all, none), Vec3(1, 0, 0), 1.5);  // n_lim = 0: blue
  add("in_plane_fold", convex45, Vec3(1, 0, 0), 1.5);             // 0 < n_lim < 1: red
  add("in_plane_flat", patch(4, 0, all, none), Vec3(1, 0, 0), 1.5);  // n_lim = 1: green
  add("above_edge_flat", patch(4, 0, all, none), Vec3(0, 0, 1), 1.5);  // n = n1: blue
  add("red_flat", patch(4, 0, all, none), Vec3(1, 0, 2), 3);  // tilted n, flat: red, n' = n1
  // n_lim = -12/13 < -1/sqrt(2): blue and green overlap; blue is tested first and wins.
  add("sharp_edge_blue_wins", patch(-12, -5, all, none), Vec3(3, 0, -4), 6);
  // Concave edge seen from the front: n2 = (-3, 0, 4)/5; centre beyond the edge, n.n1 < 4/5.
  add("red_concave_front", patch(4, 3, all, none), Vec3(4, 0, 1), 5);
  // Vertex u = (0,-2,0) with a closed fan; facet 1 flat neighbours except the fold at uv.
  const auto fan = patch(4, -3, all, all);
  add("vertex_inside_cone", fan, Vec3(0.5, -2.25, 4), 5);  // d = (1/2, -1/4, 4): inside
  add("vertex_outside_cone", fan, Vec3(4, -4, 1), 6);
  add("vertex_flat_fan", patch(4, 0, all, all), Vec3(1, -3, 2), 4);  // n' = n1
  add("vertex_not_internal", patch(4, -3, {true, true, false}, none), Vec3(1, -3, 2), 4);
  add("edge_end_point", fan, Vec3(4, -2, 1), 5);  // c - u is orthogonal to uv: vertex u
  add("vertex_behind", fan, Vec3(1, -3, -2), 4);  // cone negated behind the facet
  add("centre_on_facet", convex45, Vec3(-0.5, 0, 0), 1);
  return out;
}

namespace {

// A triangle of the given quality in the plane z = 0, longest edge ~1 (issue 8's taxonomy):
// equilateral; generic (area > 0.1 longest^2); needle (one short edge: angles theta, ~90,
// ~90); cap (one angle near 180: theta, <= theta, ~180); sliver (a short edge AND an angle
// near 180: theta, (k-1) theta, 180 - k theta). theta, the smallest angle, is log-uniform in
// [1e-4, 6] degrees, so aspect ratios reach ~1e6.
std::array<Vec3, 3> planar_triangle(Rng& rng, const std::string& shape) {
  const double pi = 3.14159265358979323846;
  const double theta = log_uniform(rng, 1e-4, 6.0) * pi / 180;
  if (shape == "equilateral") {
    std::array<Vec3, 3> t;
    for (int k = 0; k < 3; ++k) {
      const double phi = pi / 2 + 2 * pi * k / 3 + uniform(rng, -1e-3, 1e-3);
      t[k] = Vec3(std::cos(phi), std::sin(phi), 0) / std::sqrt(3.0);
    }
    return t;
  }
  if (shape == "needle") {
    const double rho = 1 + theta * uniform(rng, -1, 1);  // short edge ~theta, base angles ~90
    return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(rho * std::cos(theta), rho * std::sin(theta), 0)};
  }
  if (shape == "cap") {
    const double t = uniform(rng, 0.2, 0.8);
    return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(t, t * std::tan(theta), 0)};
  }
  if (shape == "sliver") {
    const double phi = std::min(1.0, uniform(rng, 4, 40) * theta);
    const double s = theta / (std::sin(phi) - theta * std::cos(phi));
    return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1 + s * std::cos(phi), s * std::sin(phi), 0)};
  }
  for (;;) {  // generic
    std::array<Vec3, 3> t;
    for (auto& x : t) x = Vec3(uniform(rng, -0.5, 0.5), uniform(rng, -0.5, 0.5), 0);
    const double longest = std::max({(t[1] - t[0]).norm(), (t[2] - t[1]).norm(), (t[0] - t[2]).norm()});
    if ((t[1] - t[0]).cross(t[2] - t[0]).norm() > 0.1 * longest * longest) return t;
  }
}

template <class T>
T pick(Rng& rng, std::initializer_list<std::pair<T, int>> weighted) {
  int total = 0;
  for (const auto& w : weighted) total += w.second;
  long x = uniform_int(rng, 0, total - 1);
  for (const auto& w : weighted) {
    if (x < w.second) return w.first;
    x -= w.second;
  }
  return weighted.begin()->first;
}

}  // namespace

Generated<EdgeSmoothingQuery> EdgeSmoothing::random(Rng& rng) {
  static const std::string shapes[] = {"equilateral", "generic", "needle", "cap", "sliver"};
  const std::string& shape = pick<std::string>(
      rng, {{shapes[0], 1}, {shapes[1], 3}, {shapes[2], 2}, {shapes[3], 2}, {shapes[4], 2}});
  static const std::string configs[] = {"face", "edge", "vertex", "grazing", "deep", "in_plane"};
  const std::string& config = pick<std::string>(
      rng, {{configs[0], 6}, {configs[1], 6}, {configs[2], 3}, {configs[3], 2}, {configs[4], 2},
            {configs[5], 2}});
  // Scale: 1e-3, 1, 1e3 (powers of two), or the ends of the fast domain (2^-90, 2^90).
  double s = pick_scale(rng);
  std::string scale = scale_tag(s);
  const long ends = uniform_int(rng, 0, 39);
  if (ends < 2) {  // near the ends of the fast domain [2^-120, 2^120]
    s = ends ? 0x1p90 : 0x1p-90;
    scale = "extreme";
  } else if (ends == 2) {  // beyond it: the reference answers, fast is out_of_domain
    s = uniform_int(rng, 0, 1) ? 0x1p200 : 0x1p-200;
    scale = "beyond_domain";
  }
  bool far = uniform_int(rng, 0, 3) == 0;
  Vec3 origin;
  for (int i = 0; i < 3; ++i)
    origin[i] = far ? (uniform_int(rng, 0, 1) ? 1 : -1) * uniform(rng, 1, 2) * 0x1p20 * std::max(1.0, s)
                    : uniform(rng, -8, 8) * s;
  const Eigen::Matrix3d rot = random_rotation(rng);
  const auto t2 = planar_triangle(rng, shape);
  std::array<Vec3, 3> corner;
  for (int k = 0; k < 3; ++k) corner[k] = origin + s * (rot * t2[k]);
  Vec3 n1 = rot.col(2);  // the local frame's normal (rounding apart, the facet's)
  if (exactly_collinear(corner[0], corner[1], corner[2])) {  // rounding flattened it: retry by shape
    for (int k = 0; k < 3; ++k) corner[k] = s * t2[k];  // unrotated, at the origin,
    n1 = Vec3::UnitZ();                                 // so the frame and label follow
    far = false;
  }
  const double size = s * std::max({(t2[1] - t2[0]).norm(), (t2[2] - t2[1]).norm(), (t2[0] - t2[2]).norm()});
  std::array<Vec3, 3> q, out;
  std::array<bool, 3> has, close;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e0 = corner[k], e1 = corner[(k + 1) % 3], opp = corner[(k + 2) % 3];
    const Vec3 mid = 0.5 * (e0 + e1);
    const Vec3 t = n1.cross(e1 - e0).normalized();  // in-plane, orthogonal to the edge
    out[k] = t.dot(opp - mid) > 0 ? Vec3(-t) : t;   // away from the opposite corner
    const double l = (e1 - e0).norm();
    q[k] = mid + l * uniform(rng, 0.3, 1.0) * out[k] + l * uniform(rng, -1.2, 1.2) * n1;
    has[k] = uniform(rng, 0, 1) < 0.85;
    close[k] = uniform(rng, 0, 1) < 0.6;
  }
  auto lists = patch_lists(corner[0], corner[1], corner[2], q, has, close);
  // The sphere. Distance to the feature d = size * [1e-3, 1] (deep: 1e-9 .. 1e-3); the feature:
  // face (a point inside, straight above or below), edge (in the plane orthogonal to the edge,
  // at an angle psi from n1 towards outside: 0 blue side .. pi behind), vertex (any direction).
  const std::string feature =
      config == "face" || config == "edge" || config == "vertex" ? config
      : config == "in_plane"                                       ? std::string("edge")
          : pick<std::string>(rng, {{"face", 1}, {"edge", 1}, {"vertex", 1}});
  const double d = size * (config == "deep" ? log_uniform(rng, 1e-9, 1e-3) : log_uniform(rng, 1e-3, 1));
  Vec3 p, dir;
  std::string zone;
  if (feature == "face") {
    double x = uniform(rng, 0, 1), y = uniform(rng, 0, 1);
    if (x + y > 1) x = 1 - x, y = 1 - y;
    p = corner[0] + x * (corner[1] - corner[0]) + y * (corner[2] - corner[0]);
    dir = uniform_int(rng, 0, 3) ? n1 : Vec3(-n1);
  } else if (feature == "edge") {
    const int k = static_cast<int>(uniform_int(rng, 0, 2));
    p = corner[k] + uniform(rng, 0, 1) * (corner[(k + 1) % 3] - corner[k]);
    const double pi = 3.14159265358979323846;
    double psi = uniform(rng, 0, pi);
    if (config == "in_plane") psi = pi / 2 + (uniform_int(rng, 0, 1) ? 1 : -1) * log_uniform(rng, 1e-12, 1e-3);
    dir = std::cos(psi) * n1 + std::sin(psi) * out[k];
    if (lists.neighbour_index[k] < 0) {
      zone = "open";
    } else {  // the zone the generator aims at (double; the label, not the answer)
      const auto& t = lists.f[lists.neighbour_index[k]];
      const Vec3 n2 = (lists.v[t[1]] - lists.v[t[0]]).cross(lists.v[t[2]] - lists.v[t[0]]).normalized();
      const double x = std::cos(psi), nl = n1.dot(n2), ol = n1.cross(n2).norm();
      zone = nl <= x ? "blue" : -ol < x ? "red" : "green";
    }
  } else {
    p = corner[uniform_int(rng, 0, 2)];
    std::normal_distribution<double> g;
    dir = Vec3(g(rng), g(rng), g(rng)).normalized();
  }
  const Vec3 centre = p + d * dir;
  const double radius = config == "grazing" ? d * (1 + log_uniform(rng, 1e-12, 1e-4))
                        : config == "deep"  ? size * uniform(rng, 0.1, 1)
                                            : d * uniform(rng, 1.0, 1.5);
  int facet = 0;
  auto m = scramble(std::move(lists), rng, 0.25, facet);
  std::string cfg = config;
  if (!zone.empty()) cfg += "_" + zone;
  return {make_query(std::move(m), facet, centre, radius),
          regime({{"shape", shape}, {"config", cfg}, {"place", far ? "far" : "origin"}, {"scale", scale}})};
}

namespace {
using IVec = Eigen::Matrix<long, 3, 1>;

IVec ivec(const Vec3& v) { return v.cast<long>(); }

// An integer similarity (rotation times an integer scale, composed with an axis permutation
// and signs): applied to integer points it is exact and preserves every angle.
Eigen::Matrix<long, 3, 3> integer_similarity(Rng& rng) {
  Eigen::Matrix<long, 3, 3> r = Eigen::Matrix<long, 3, 3>::Identity();
  const long which = uniform_int(rng, 0, 3);
  Eigen::Matrix<long, 3, 3> r345, r51213;
  r345 << 3, -4, 0, 4, 3, 0, 0, 0, 5;
  r51213 << 13, 0, 0, 0, 5, -12, 0, 12, 5;
  if (which == 1) r = r345;
  if (which == 2) r = r51213;
  if (which == 3) r = r345 * r51213;
  std::array<int, 3> perm{0, 1, 2};
  std::shuffle(perm.begin(), perm.end(), rng);
  Eigen::Matrix<long, 3, 3> p = Eigen::Matrix<long, 3, 3>::Zero();
  for (int i = 0; i < 3; ++i) p(i, perm[i]) = uniform_int(rng, 0, 1) ? 1 : -1;
  return p * r;
}
}  // namespace

Generated<EdgeSmoothingQuery> EdgeSmoothing::degenerate(Rng& rng) {
  // Facet 1 = [u, v, w], u = (0,-E,0), v = (0,E,0), w = (-A, yw, 0). Ordinary: E, A in 1..6.
  // Thin (one in three): A = 1 and E = 2^10..2^20, smallest angle down to ~5e-5 degrees; the
  // apex w near the middle of uv, near v (short edge vw) or beyond v.
  long E, A, yw;
  if (uniform_int(rng, 0, 2) == 0) {
    E = 1L << uniform_int(rng, 10, 20);
    A = 1;
    const long kind = uniform_int(rng, 0, 2);
    if (kind == 0) yw = uniform_int(rng, -E / 2, E / 2);
    else if (kind == 1) yw = E - uniform_int(rng, 0, 4);
    else yw = E + uniform_int(rng, 1, E / 8);
  } else {
    E = uniform_int(rng, 1, 6), A = uniform_int(rng, 1, 6), yw = uniform_int(rng, -E, E);
  }
  // The label is measured, not intended: the facet's own angles decide it.
  const std::string shape = triangle_shape(Vec3(0, -E, 0), Vec3(0, E, 0), Vec3(-A, yw, 0));
  // Fold directions with rational cosines: n_lim in {+-1, 0, +-3/5, +-4/5, +-5/13, +-12/13}.
  static constexpr long dirs[][2] = {{1, 0}, {0, 1}, {3, 4}, {4, 3}, {5, 12}, {12, 5}};
  long dx, dz;
  do {
    const auto& d = dirs[uniform_int(rng, 0, 5)];
    dx = d[0] * (uniform_int(rng, 0, 1) ? 1 : -1);
    dz = d[1] * (uniform_int(rng, 0, 1) ? 1 : -1);
  } while (dz == 0 && dx < 0);  // folding back onto facet 1 itself
  const long s0 = uniform_int(rng, 1, 3);
  Frame fr = integer_frame(E, A, yw, dx * s0, dz * s0, uniform_int(rng, -E, E));
  for (int k = 1; k < 3; ++k) fr.q[k].z() = static_cast<double>(uniform_int(rng, -2, 2));
  std::array<bool, 3> has{true, uniform_int(rng, 0, 4) > 0, uniform_int(rng, 0, 4) > 0};
  std::array<bool, 3> close{uniform_int(rng, 0, 4) > 1, uniform_int(rng, 0, 4) > 1,
                            uniform_int(rng, 0, 4) > 1};
  auto lists = patch_lists(fr.u, fr.v, fr.w, fr.q, has, close);

  // The centre: c = P + lambda * m with dyadic P and integer m chosen to sit on a decision
  // boundary (or exactly on the facet).
  const long ax = std::abs(dx), az = std::abs(dz);
  Vec3 P, m;
  std::string config;
  const long kind = uniform_int(rng, 0, 12);
  const IVec n2(-dz, 0, dx);
  long lambda = uniform_int(rng, 1, 3);
  if (kind < 6) {
    P = Vec3(0, static_cast<double>(uniform_int(rng, -E, E)), 0);  // y = +-E: edge end point
    static const char* names[] = {"edge_blue_red", "edge_red_green", "in_plane", "edge_above",
                                  "edge_along_n2", "edge"};
    config = names[kind];
    switch (kind) {
      case 0: m = Vec3(az, 0, dx); break;        // n.n1 = n_lim (blue/red boundary)
      case 1: m = Vec3(ax, 0, -az); break;       // n.n1 = -o_lim (red/green boundary)
      case 2: m = Vec3(1, 0, 0); break;          // centre in facet 1's plane
      case 3: m = Vec3(0, 0, uniform_int(rng, 0, 1) ? 1 : -1); break;  // above/below the edge
      case 4: m = n2.cast<double>(); break;      // along n2
      default: m = Vec3(uniform_int(rng, 0, 5), 0, uniform_int(rng, -5, 5));
    }
    if (m.x() < 0) m = Vec3(-m.x(), 0, -m.z());  // keep the centre beyond the edge (x >= 0)
    if (m.isZero()) m = Vec3(1, 0, 0);
  } else if (kind < 10) {
    // Vertex u or v with directions on the cone's rays and faces: facet normals (exact
    // integer cross products) and sums of two of them.
    P = uniform_int(rng, 0, 1) ? fr.u : fr.v;
    const Mesh tmp(lists.v, lists.f, Where{"generator", ""});
    std::vector<Vec3> gens;
    for (int g = 0; g < tmp.facet_count(); ++g)
      if (tmp.local_index(g, P.y() < 0 ? 0 : 1) >= 0) gens.push_back(tmp.normal(g));
    const Vec3 g1 = gens[uniform_int(rng, 0, static_cast<long>(gens.size()) - 1)];
    const Vec3 g2 = gens[uniform_int(rng, 0, static_cast<long>(gens.size()) - 1)];
    static const char* names[] = {"vertex_ray", "vertex_face", "vertex", "vertex_polar"};
    config = names[kind - 6];
    if (kind == 6) m = g1;
    else if (kind == 7) m = g1 + g2;
    else if (kind == 8) m = Vec3(uniform_int(rng, -3, 3), uniform_int(rng, -3, 3), uniform_int(rng, -3, 3));
    else m = -(g1 + g2);
    if (m.isZero()) m = Vec3(0, 0, 1);
  } else {
    // Face contacts on the dyadic grid (thin facets included): P = w/4 + 3u/8 + 3v/8 strictly
    // inside, straight above or below; or the centre exactly on the facet (face interior, an
    // edge's interior, a vertex): n undefined, the centre_on_facet state.
    const Vec3 inside = 0.25 * fr.w + 0.375 * fr.u + 0.375 * fr.v;
    m = Vec3(0, 0, uniform_int(rng, 0, 1) ? 1 : -1);
    if (kind == 10) {
      P = inside;
      config = "face";
    } else {
      const long where = uniform_int(rng, 0, 2);
      P = where == 0 ? inside : where == 1 ? Vec3(0.5 * (fr.u + fr.v)) : fr.u;
      lambda = 0;
      config = "centre_on_facet";
    }
  }
  const Vec3 centre_i = P + static_cast<double>(lambda) * m;

  // Exact transform: integer similarity, integer translation (far: ~2^36..2^40), power-of-two
  // scale. Coordinates stay below 2^44 with 3 fractional bits: exact in double.
  const auto T = integer_similarity(rng);
  const bool far = uniform_int(rng, 0, 4) == 0;
  IVec t;
  for (int i = 0; i < 3; ++i)
    t[i] = far ? (uniform_int(rng, 0, 1) ? 1 : -1) * uniform_int(rng, 1L << 36, 1L << 40)
               : uniform_int(rng, -64, 64);
  const double base = pick_scale(rng);
  const double scale = std::ldexp(base, static_cast<int>(uniform_int(rng, -3, 3)));
  auto xf = [&](const Vec3& x) {
    // x has at most 3 fractional bits: 8x is an integer, transformed exactly in long.
    const IVec y = T * (8.0 * x).cast<long>() + 8 * t;
    return (y.cast<double>() * (scale / 8)).eval();
  };
  for (auto& x : lists.v) x = xf(x);
  const Vec3 centre = xf(centre_i), Pw = xf(P);
  int facet = 0;
  auto mesh = scramble(std::move(lists), rng, 0.3, facet);
  const double dist = (centre - Pw).norm();
  const double r = dist > 0 ? dist * uniform(rng, 1.05, 1.5) : scale * uniform(rng, 0.5, 2);
  return {make_query(std::move(mesh), facet, centre, r),
          regime({{"shape", shape}, {"config", config}, {"place", far ? "far" : "origin"},
                  {"scale", scale_tag(base)}})};
}

nlohmann::json EdgeSmoothing::to_json(const Query& q) {
  return {{"centre", {q.centre.x(), q.centre.y(), q.centre.z()}},
          {"radius", q.radius},
          {"facet", q.facet},
          {"mesh", q.mesh->to_json()}};
}

EdgeSmoothingQuery EdgeSmoothing::from_json(const nlohmann::json& j, const Where& where) {
  if (!j.is_object()) where.fail("", "query must be a JSON object");
  reject_unknown_keys(j, {"centre", "radius", "facet", "mesh"}, where);
  EdgeSmoothingQuery q;
  // Numbers as cases::read_double reads them: JSON numbers or strings such as "0x1.8p-3".
  q.centre = read_vec3(j, "centre", where);
  q.radius = read_double(j, "radius", where);
  if (!(q.radius > 0)) where.fail("radius", "must be finite and > 0");
  q.mesh = std::make_shared<const Mesh>(mesh_from_json(require(j, "mesh", where), where));
  // Both kernels compare the facets around a corner pairwise: the fan size bounds the cost.
  for (std::size_t v = 0; v < q.mesh->vertices().size(); ++v)
    if (q.mesh->vertex_facets(static_cast<int>(v)).size() > max_fan_facets)
      where.fail(fmt::format("mesh.vertices[{}]", v),
                 fmt::format("{} facets around this vertex, more than the limit of {}",
                             q.mesh->vertex_facets(static_cast<int>(v)).size(), max_fan_facets));
  q.facet = static_cast<int>(read_integer(j, "facet", 0, q.mesh->facet_count() - 1, where));
  return q;
}

nlohmann::json EdgeSmoothing::to_json(const Result& r) {
  return {{"region", to_string(r.region)},
          {"side", r.side},
          {"zone", to_string(r.zone)},
          {"adjusted", r.adjusted},
          {"normal", {r.normal.x(), r.normal.y(), r.normal.z()}},
          {"point", {r.point.x(), r.point.y(), r.point.z()}},
          {"overlap", r.overlap},
          {"region_margin", r.region_margin},
          {"side_margin", r.side_margin},
          {"zone_margin", r.zone_margin},
          {"cone_margin", r.cone_margin},
          {"centre_on_facet", r.centre_on_facet},
          {"on_facet_margin", r.on_facet_margin},
          {"polar", r.polar},
          {"polar_margin", r.polar_margin},
          {"cone_i", r.cone_i},
          {"cone_j", r.cone_j},
          {"feature_margin", r.feature_margin},
          {"generator_gap", r.generator_gap},
          {"condition", r.condition}};
}

}  // namespace contactbench::cases
