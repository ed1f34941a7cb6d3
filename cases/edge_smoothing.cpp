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
    if (collinear(p.v[t[0]], p.v[t[1]], p.v[t[2]])) continue;
    p.neighbour_index[k] = static_cast<int>(p.f.size());
    p.f.push_back(t);
  }
  // Fan closers: at vertex k the neighbours across edges k (apex q[k]) and k-1 (apex q[k-1])
  // are joined by [k, q[k-1], q[k]].
  for (int k = 0; k < 3; ++k) {
    const int km = (k + 2) % 3;
    if (!close[k] || p.neighbour_index[k] < 0 || p.neighbour_index[km] < 0) continue;
    const std::array<int, 3> t{k, 3 + km, 3 + k};
    if (collinear(p.v[t[0]], p.v[t[1]], p.v[t[2]])) continue;
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

std::vector<std::pair<std::string, EdgeSmoothingQuery>> canonical_edge_smoothing() {
  std::vector<std::pair<std::string, EdgeSmoothingQuery>> out;
  const std::array<bool, 3> all{true, true, true}, none{false, false, false};
  // Facet 1 = [u, v, w] with u = (0,-2,0), v = (0,2,0), w = (-2,0,0); edge0 = uv on x = 0.
  auto patch = [&](long dx, long dz, std::array<bool, 3> has, std::array<bool, 3> close) {
    const Frame fr = integer_frame(2, 2, 0, dx, dz, 0);
    return smoothing_patch(fr.u, fr.v, fr.w, fr.q, has, close);
  };
  auto add = [&](std::string name, std::shared_ptr<const Mesh> m, const Vec3& c, double r) {
    out.emplace_back(std::move(name), make_query(std::move(m), 0, c, r));
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

EdgeSmoothingQuery random_edge_smoothing(Rng& rng) {
  const double s = pick_scale(rng);
  const Vec3 origin(uniform(rng, -8, 8) * s, uniform(rng, -8, 8) * s, uniform(rng, -8, 8) * s);
  Vec3 a, b, c;
  auto point = [&] {
    return Vec3(origin + s * Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)));
  };
  for (;;) {  // a non-sliver facet
    a = point();
    b = point();
    c = point();
    const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    if ((b - a).cross(c - a).norm() > 0.1 * longest * longest) break;
  }
  const Vec3 n1 = (b - a).cross(c - a).normalized();
  const std::array<Vec3, 3> corner{a, b, c};
  std::array<Vec3, 3> q;
  std::array<bool, 3> has, close;
  for (int k = 0; k < 3; ++k) {
    const Vec3 e0 = corner[k], e1 = corner[(k + 1) % 3], opp = corner[(k + 2) % 3];
    const Vec3 mid = 0.5 * (e0 + e1);
    const Vec3 t = n1.cross(e1 - e0).normalized();  // in-plane, orthogonal to the edge
    const Vec3 out = t.dot(opp - mid) > 0 ? Vec3(-t) : t;  // away from the opposite corner
    const double l = (e1 - e0).norm();
    q[k] = mid + l * uniform(rng, 0.3, 1.0) * out + l * uniform(rng, -1.2, 1.2) * n1;
    has[k] = uniform(rng, 0, 1) < 0.85;
    close[k] = uniform(rng, 0, 1) < 0.6;
  }
  auto lists = patch_lists(a, b, c, q, has, close);
  // The sphere: near the face, an edge or a vertex of facet 1, in a random direction.
  Vec3 p;
  const long pick = uniform_int(rng, 0, 7);
  if (pick < 2) {
    double x = uniform(rng, 0, 1), y = uniform(rng, 0, 1);
    if (x + y > 1) x = 1 - x, y = 1 - y;
    p = a + x * (b - a) + y * (c - a);
  } else if (pick < 5) {
    const int k = static_cast<int>(pick - 2);
    p = corner[k] + uniform(rng, 0, 1) * (corner[(k + 1) % 3] - corner[k]);
  } else {
    p = corner[pick - 5];
  }
  Vec3 dir(std::normal_distribution<double>()(rng), std::normal_distribution<double>()(rng),
           std::normal_distribution<double>()(rng));
  dir.normalize();
  const double d = s * uniform(rng, 0.05, 1.0);
  const Vec3 centre = p + d * dir;
  int facet = 0;
  if (uniform(rng, 0, 1) < 0.15 && lists.neighbour_index[0] >= 0) facet = lists.neighbour_index[0];
  auto m = scramble(std::move(lists), rng, 0.25, facet);
  return make_query(std::move(m), facet, centre, d * uniform(rng, 1.0, 1.5));
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

EdgeSmoothingQuery degenerate_edge_smoothing(Rng& rng) {
  const long E = uniform_int(rng, 1, 6), A = uniform_int(rng, 1, 6);
  const long yw = uniform_int(rng, -E, E);
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

  // The centre: c = P + lambda * m with integer P and m chosen to sit on a decision boundary.
  const long ax = std::abs(dx), az = std::abs(dz);
  Vec3 P, m;
  const long kind = uniform_int(rng, 0, 9);
  const IVec n2(-dz, 0, dx);
  if (kind < 6) {
    P = Vec3(0, static_cast<double>(uniform_int(rng, -E, E)), 0);  // y = +-E: edge end point
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
  } else {
    // Vertex u or v with directions on the cone's rays and faces: facet normals (exact
    // integer cross products) and sums of two of them.
    P = uniform_int(rng, 0, 1) ? fr.u : fr.v;
    const Mesh tmp(lists.v, lists.f, Where{"generator", ""});
    std::vector<Vec3> gens;
    for (int g = 0; g < tmp.facet_count(); ++g)
      if (tmp.local_index(g, P.y() < 0 ? 0 : 1) >= 0) gens.push_back(tmp.normal(g));
    const Vec3 g1 = gens[uniform_int(rng, 0, static_cast<long>(gens.size()) - 1)];
    const Vec3 g2 = gens[uniform_int(rng, 0, static_cast<long>(gens.size()) - 1)];
    if (kind == 6) m = g1;
    else if (kind == 7) m = g1 + g2;
    else if (kind == 8) m = Vec3(uniform_int(rng, -3, 3), uniform_int(rng, -3, 3), uniform_int(rng, -3, 3));
    else m = -(g1 + g2);
    if (m.isZero()) m = Vec3(0, 0, 1);
  }
  const Vec3 centre_i = P + static_cast<double>(uniform_int(rng, 1, 3)) * m;

  // Exact transform: integer similarity, integer translation, power-of-two scale.
  const auto T = integer_similarity(rng);
  const IVec t(uniform_int(rng, -64, 64), uniform_int(rng, -64, 64), uniform_int(rng, -64, 64));
  const double scale = std::ldexp(pick_scale(rng), static_cast<int>(uniform_int(rng, -3, 3)));
  auto xf = [&](const Vec3& x) { return ((T * ivec(x) + t).cast<double>() * scale).eval(); };
  for (auto& x : lists.v) x = xf(x);
  const Vec3 centre = xf(centre_i), Pw = xf(P);
  int facet = 0;
  if (uniform_int(rng, 0, 4) == 0 && lists.neighbour_index[0] >= 0) facet = lists.neighbour_index[0];
  auto mesh = scramble(std::move(lists), rng, 0.3, facet);
  const double r = (centre - Pw).norm() * uniform(rng, 1.05, 1.5);
  return make_query(std::move(mesh), facet, centre, r > 0 ? r : scale);
}

nlohmann::json edge_smoothing_query_to_json(const EdgeSmoothingQuery& q) {
  return {{"centre", {q.centre.x(), q.centre.y(), q.centre.z()}},
          {"radius", q.radius},
          {"facet", q.facet},
          {"mesh", q.mesh->to_json()}};
}

EdgeSmoothingQuery edge_smoothing_query_from_json(const nlohmann::json& j, const Where& where) {
  if (!j.is_object()) where.fail("", "query must be a JSON object");
  reject_unknown_keys(j, {"centre", "radius", "facet", "mesh"}, where);
  EdgeSmoothingQuery q;
  // Numbers as cases::read_double reads them: JSON numbers or strings such as "0x1.8p-3".
  q.centre = read_vec3(j, "centre", where);
  q.radius = read_double(j, "radius", where);
  if (!(q.radius > 0)) where.fail("radius", "must be finite and > 0");
  q.mesh = std::make_shared<const Mesh>(mesh_from_json(require(j, "mesh", where), where));
  q.facet = static_cast<int>(read_integer(j, "facet", 0, q.mesh->facet_count() - 1, where));
  return q;
}

nlohmann::json edge_smoothing_result_to_json(const EdgeSmoothingResult& r) {
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
