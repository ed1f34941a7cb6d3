#include "cases/mesh.hpp"

#include "cases/json_input.hpp"
#include "cases/strict_json.hpp"

#include <fmt/format.h>
#include <gmpxx.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <unordered_map>

namespace contactbench::cases {

const char* to_string(EdgeShape s) {
  switch (s) {
    case EdgeShape::convex: return "convex";
    case EdgeShape::concave: return "concave";
    case EdgeShape::flat: return "flat";
  }
  return "?";
}

namespace {

// Exact arithmetic for the slow path: every double is a rational, and sums and products of
// rationals never overflow or underflow (a facet at 1e160 or 1e-300 is decided exactly).
using Q3 = std::array<mpq_class, 3>;
Q3 diff(const Vec3& x, const Vec3& y) {
  return {mpq_class(x[0]) - mpq_class(y[0]), mpq_class(x[1]) - mpq_class(y[1]),
          mpq_class(x[2]) - mpq_class(y[2])};
}
Q3 cross(const Q3& u, const Q3& v) {
  return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}

}  // namespace

int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 u = b - a, v = c - a, w = d - a;
  const double det = u.dot(v.cross(w));
  double perm = 0;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    perm += std::abs(u[i]) * (std::abs(v[j] * w[k]) + std::abs(v[k] * w[j]));
  }
  // Shewchuk's static bound for orient3d is (7 + 56 eps) eps * permanent; 2e-15 covers it.
  // It assumes relative rounding: only when nothing overflowed and the permanent is far
  // above the subnormal range (an underflowed product's absolute error 2^-1075 is then
  // negligible); otherwise, and inside the bound, the exact sign.
  if (std::isfinite(perm) && perm >= 0x1p-900) {
    const double bound = 2e-15 * perm;
    if (det > bound) return 1;
    if (det < -bound) return -1;
  }
  const Q3 U = diff(b, a), V = diff(c, a), W = diff(d, a), n = cross(V, W);
  return sgn(U[0] * n[0] + U[1] * n[1] + U[2] * n[2]);
}

Mesh::Mesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> facets,
           const Where& where)
    : vertices_(std::move(vertices)), facets_(std::move(facets)) {
  const int nv = static_cast<int>(vertices_.size());
  for (int i = 0; i < nv; ++i)
    for (int d = 0; d < 3; ++d)
      if (!std::isfinite(vertices_[i][d]))
        where.fail(fmt::format("vertices[{}][{}]", i, d), "not a finite number");
  if (facets_.empty()) where.fail("facets", "mesh has no facets");
  std::map<std::pair<int, int>, int> edge_of;
  std::map<std::array<int, 3>, int> facet_of;  // sorted vertex set -> first facet
  facet_edges_.resize(facets_.size());
  vertex_facets_.assign(nv, {});
  for (int f = 0; f < facet_count(); ++f) {
    const auto& t = facets_[f];
    for (int k = 0; k < 3; ++k) {
      if (t[k] < 0 || t[k] >= nv)
        where.fail(fmt::format("facets[{}][{}]", f, k),
                   fmt::format("vertex index {} out of range [0, {})", t[k], nv));
    }
    if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0])
      where.fail(fmt::format("facets[{}]", f), "repeated vertex index");
    if (exactly_collinear(vertices_[t[0]], vertices_[t[1]], vertices_[t[2]]))
      where.fail(fmt::format("facets[{}]", f), "zero-area facet (collinear vertices)");
    // The same vertex set twice (either orientation) would make every edge of it "internal"
    // with n2 = -n1 or n2 = n1: a duplicate, not a surface.
    std::array<int, 3> key3 = t;
    std::sort(key3.begin(), key3.end());
    if (auto [it, inserted] = facet_of.emplace(key3, f); !inserted)
      where.fail(fmt::format("facets[{}]", f),
                 fmt::format("duplicate facet: same vertices as facets[{}]", it->second));
    for (int k = 0; k < 3; ++k) {
      vertex_facets_[t[k]].push_back(f);
      const int a = t[k], b = t[(k + 1) % 3];
      const auto key = std::minmax(a, b);
      auto [it, inserted] = edge_of.emplace(key, static_cast<int>(edges_.size()));
      if (inserted) edges_.push_back({key.first, key.second, {}});
      auto& e = edges_[it->second];
      if (e.facets.size() == 2)
        where.fail(fmt::format("facets[{}]", f),
                   fmt::format("non-manifold edge ({}, {}): also in facets {} and {}", a, b,
                               e.facets[0], e.facets[1]));
      if (!e.facets.empty() && e.facets[0] == f)
        where.fail(fmt::format("facets[{}]", f), "facet uses the same edge twice");
      e.facets.push_back(f);
      facet_edges_[f][k] = it->second;
    }
  }
  for (int v = 0; v < nv; ++v)  // every vertex fan orientable (an error names the vertex)
    if (!vertex_facets_[v].empty()) oriented_fan(vertex_facets_[v].front(), v, where);
}

int Mesh::neighbour(int f, int k) const {
  const auto& e = edges_[facet_edges_[f][k]];
  if (e.facets.size() != 2) return -1;
  return e.facets[0] == f ? e.facets[1] : e.facets[0];
}

int Mesh::local_index(int f, int v) const {
  for (int k = 0; k < 3; ++k)
    if (facets_[f][k] == v) return k;
  return -1;
}

std::vector<std::pair<int, int>> Mesh::oriented_fan(int f, int v, const Where& where) const {
  // Breadth-first walk over the facets at v, across the edges at v shared by two facets; a
  // neighbour traversing the shared edge in the same direction is flipped (README "Woo"). A
  // facet reached again must come with the sign it already has: a contradiction is an error
  // naming the vertex, never a silent first choice. (For manifold edges it cannot happen:
  // each facet traverses one of its edges at v outwards and one inwards, so on a closed fan
  // the "same direction" edges come in out-out / in-in pairs and their number is even.)
  std::vector<std::pair<int, int>> out{{f, 1}};
  std::unordered_map<int, std::size_t> at{{f, 0}};  // facet -> its place in out: linear in the fan
  for (std::size_t next = 0; next < out.size(); ++next) {
    const auto [h, sh] = out[next];
    const int kv = local_index(h, v);
    for (int k : {kv, (kv + 2) % 3}) {  // h's two edges at v
      const int g = neighbour(h, k);
      if (g < 0) continue;
      const int sg = neighbour_flipped(h, k) ? -sh : sh;
      const auto it = at.find(g);
      if (it == at.end()) {
        at.emplace(g, out.size());
        out.emplace_back(g, sg);
      } else if (out[it->second].second != sg) {
        where.fail(fmt::format("vertices[{}]", v),
                   fmt::format("the facets around this vertex cannot be oriented consistently "
                               "(facet {} reached with both orientations from facet {})",
                               g, f));
      }
    }
  }
  return out;
}

bool Mesh::neighbour_flipped(int f, int k) const {
  const int g = neighbour(f, k);
  if (g < 0) return false;
  const int a = facets_[f][k], b = facets_[f][(k + 1) % 3];
  const int ia = local_index(g, a);
  // g traverses a -> b (same direction as f) when b follows a in g's cyclic order.
  return facets_[g][(ia + 1) % 3] == b;
}

Vec3 Mesh::normal(int f) const {
  const Vec3& a = vertex(f, 0);
  return (vertex(f, 1) - a).cross(vertex(f, 2) - a);
}

EdgeShape Mesh::edge_shape(int f, int k) const {
  const int g = neighbour(f, k);
  if (g < 0) return EdgeShape::flat;
  const int a = facets_[f][k], b = facets_[f][(k + 1) % 3];
  int apex = -1;
  for (int v : facets_[g])
    if (v != a && v != b) apex = v;
  // Apex of the neighbour behind f's plane (negative side of f's right-hand normal): convex.
  const int s = orient3d_sign(vertex(f, 0), vertex(f, 1), vertex(f, 2), vertices_[apex]);
  return s < 0 ? EdgeShape::convex : s > 0 ? EdgeShape::concave : EdgeShape::flat;
}

nlohmann::json Mesh::to_json() const {
  nlohmann::json v = nlohmann::json::array(), f = nlohmann::json::array();
  for (const auto& p : vertices_) v.push_back({p.x(), p.y(), p.z()});
  for (const auto& t : facets_) f.push_back({t[0], t[1], t[2]});
  return {{"vertices", v}, {"facets", f}};
}

Mesh mesh_from_json(const nlohmann::json& j, const Where& where) {
  if (!j.is_object()) where.fail("", "mesh must be a JSON object");
  reject_unknown_keys(j, {"vertices", "facets"}, where);
  // Coordinates as cases::read_double reads them (numbers, or strings such as "0x1.8p-3").
  auto verts = read_vec3_list(j, "vertices", where);
  auto facets = read_index_triples(j, "facets", where);
  return Mesh(std::move(verts), std::move(facets), where);
}

Mesh load_mesh(const std::string& path) {
  const Where where{path, "mesh"};
  return mesh_from_json(parse_json_strict(read_text_file(path), where), where);
}

namespace {
// Split a grid of (nx+1) x (ny+1) vertices into triangles; diag(i, j) picks the diagonal.
template <class Diag>
std::vector<std::array<int, 3>> grid_facets(int nx, int ny, Diag diag) {
  std::vector<std::array<int, 3>> f;
  auto id = [&](int i, int j) { return j * (nx + 1) + i; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if (diag(i, j)) {  // diagonal a-c
        f.push_back({a, b, c});
        f.push_back({a, c, d});
      } else {  // diagonal b-d
        f.push_back({a, b, d});
        f.push_back({b, c, d});
      }
    }
  return f;
}
}  // namespace

Mesh grid_plane(int nx, int ny, double h, int pattern) {
  std::vector<Vec3> v;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) v.emplace_back(i * h, j * h, 0.0);
  auto f = grid_facets(nx, ny, [&](int i, int j) { return pattern == 0 || (i + j) % 2 == 0; });
  return Mesh(std::move(v), std::move(f), {"grid_plane", ""});
}

Mesh irregular_plane(int nx, int ny, double h, double jitter, Rng& rng) {
  std::vector<Vec3> v;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      Vec3 p(i * h, j * h, 0.0);
      if (i > 0 && i < nx && j > 0 && j < ny) {
        // In-plane jitter in multiples of h/64: z stays exactly 0; |jitter| < 1/2 keeps
        // every cell convex.
        const long range = static_cast<long>(std::floor(jitter * 64));
        p.x() += h * uniform_int(rng, -range, range) / 64.0;
        p.y() += h * uniform_int(rng, -range, range) / 64.0;
      }
      v.push_back(p);
    }
  std::vector<bool> diag(nx * ny);
  for (auto&& d : diag) d = uniform_int(rng, 0, 1) == 1;
  auto f = grid_facets(nx, ny, [&](int i, int j) { return static_cast<bool>(diag[j * nx + i]); });
  return Mesh(std::move(v), std::move(f), {"irregular_plane", ""});
}

Mesh half_cylinder_trough(double R, int n_around, int n_along, double length) {
  std::vector<Vec3> v;
  const double pi = std::acos(-1.0);
  for (int j = 0; j <= n_along; ++j) {
    const double y = -0.5 * length + length * j / n_along;
    for (int i = 0; i <= n_around; ++i) {
      const double th = -0.5 * pi + pi * i / n_around;
      v.emplace_back(R * std::sin(th), y, R - R * std::cos(th));
    }
  }
  // Grid in (i = around, j = along): i runs with +x and j with +y, so the right-hand normal
  // of every facet points inward (+z at the bottom, towards the axis).
  auto f = grid_facets(n_around, n_along, [](int i, int j) { return (i + j) % 2 == 0; });
  return Mesh(std::move(v), std::move(f), {"half_cylinder_trough", ""});
}

}  // namespace contactbench::cases
