#include "cases/pfc_resolution.hpp"

#include "cases/strict_json.hpp"

#include "cases/json_input.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace contactbench::cases {

const char* to_string(PfcMode m) { return m == PfcMode::full ? "full" : "reduced"; }

const char* to_string(PfcSides s) {
  switch (s) {
    case PfcSides::none:
      return "none";
    case PfcSides::front:
      return "front";
    case PfcSides::back:
      return "back";
    case PfcSides::both:
      return "both";
  }
  return "?";
}

const char* to_string(PfcInherit w) {
  switch (w) {
    case PfcInherit::inactive:
      return "inactive";
    case PfcInherit::inherited:
      return "inherited";
    case PfcInherit::reduced:
      return "reduced";
    case PfcInherit::no_link:
      return "no_link";
    case PfcInherit::angle:
      return "angle";
    case PfcInherit::hole:
      return "hole";
  }
  return "?";
}

bool pfc_linked(const Mesh& m, int i, Region region_i, int j) {
  const int r = static_cast<int>(region_i);
  if (region_i == Region::face) return false;
  auto in_j = [&](int v) { return m.local_index(j, v) >= 0; };
  const auto& fi = m.facets()[i];
  if (r >= static_cast<int>(Region::vertex0))
    return in_j(fi[r - static_cast<int>(Region::vertex0)]);
  const int k = r - static_cast<int>(Region::edge0);
  return in_j(fi[k]) && in_j(fi[(k + 1) % 3]);
}

namespace {

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int a) { return parent[a] == a ? a : parent[a] = find(parent[a]); }
  void join(int a, int b) { parent[find(a)] = find(b); }
};

}  // namespace

PfcResult resolve_pfc(const PfcQuery& q, const PfcPredicates& p) {
  const Mesh& m = *q.wall;
  const int n = m.facet_count();
  PfcResult r;
  std::vector<int> slot(n, -1);  // facet -> index in r.contacts
  for (int f = 0; f < n; ++f) {
    if (p.overlap[f] == PfcPredicates::Overlap::none) continue;
    slot[f] = static_cast<int>(r.contacts.size());
    PfcContact c;
    c.facet = f;
    c.region = p.region[f];
    c.positive = p.overlap[f] == PfcPredicates::Overlap::positive;
    r.contacts.push_back(c);
  }
  std::vector<int> pos;  // facets with U > 0, ascending
  for (const auto& c : r.contacts)
    if (c.positive) pos.push_back(c.facet);
  // Links (only between positive contacts) and the linked sets.
  UnionFind sets(n);
  for (std::size_t a = 0; a < pos.size(); ++a)
    for (std::size_t b = a + 1; b < pos.size(); ++b)
      if (p.linked(pos[a], pos[b]) || p.linked(pos[b], pos[a])) {
        r.links.push_back({pos[a], pos[b]});
        sets.join(pos[a], pos[b]);
      }
  // Associative logic: the largest overlap of each set; ties keep the lower facet index
  // (members are visited in ascending order and only a strictly larger one replaces).
  std::vector<int> best(n, -1);
  for (int f : pos) {
    int& b = best[sets.find(f)];
    if (b < 0 || p.compare(f, b) > 0) b = f;
  }
  std::vector<int> survivors;
  for (int f : pos)
    if (best[sets.find(f)] == f) survivors.push_back(f);
  // Full mode: blockers are the associative survivors (order-independent).
  if (q.mode == PfcMode::full) {
    std::vector<int> kept;
    for (int i : survivors) {
      bool blocked = false;
      for (int j : survivors) {
        if (j == i) continue;
        const int s = p.compare(j, i);
        if ((s > 0 || (s == 0 && j < i)) && p.segment_meets(i, j)) {
          blocked = true;
          break;
        }
      }
      if (!blocked) kept.push_back(i);
    }
    survivors = kept;
  }
  for (int f : survivors) r.contacts[slot[f]].active = true;
  // Proximity contacts: survivors within the cutoff of each other, by connectivity.
  UnionFind groups(n);
  for (std::size_t a = 0; a < survivors.size(); ++a)
    for (std::size_t b = a + 1; b < survivors.size(); ++b)
      if (p.within(survivors[a], survivors[b])) groups.join(survivors[a], survivors[b]);
  for (int f : survivors) {
    if (groups.find(f) != f) continue;
    PfcProximity pc;
    for (int g : survivors)
      if (groups.find(g) == f) pc.members.push_back(g);
    if (pc.members.size() >= 2) r.proximity.push_back(pc);
  }
  std::sort(r.proximity.begin(), r.proximity.end(),
            [](const auto& a, const auto& b) { return a.members[0] < b.members[0]; });
  // Continuity (full mode): a previous contact on the same facet is the contact's own state
  // and comes first; else the first previous contact that passes; else the furthest stage
  // any previous contact reached (no_link < angle < hole).
  for (int f : survivors) {
    PfcContact& c = r.contacts[slot[f]];
    if (q.mode == PfcMode::reduced) {
      c.why = PfcInherit::reduced;
      continue;
    }
    c.why = PfcInherit::no_link;
    for (std::size_t k = 0; k < q.previous.size() && c.inherits < 0; ++k)
      if (q.previous[k].facet == f) {
        c.inherits = static_cast<int>(k);
        c.why = PfcInherit::inherited;
      }
    for (std::size_t k = 0; k < q.previous.size() && c.inherits < 0; ++k) {
      const int pf = q.previous[k].facet;
      PfcInherit stage = PfcInherit::inherited;
      if (pf != f) {
        if (slot[pf] < 0 || !r.contacts[slot[pf]].positive || sets.find(pf) != sets.find(f)) {
          stage = PfcInherit::no_link;
        } else if (!p.within(pf, f)) {
          stage = PfcInherit::angle;
        } else {
          // Path of linked facets from pf to f, each crossing the plane and within the
          // cutoff of pf.
          std::vector<int> seen(n, 0), stack;
          const int ki = static_cast<int>(k);
          auto usable = [&](int g) { return p.crosses(ki, f, g) && (g == pf || p.within(pf, g)); };
          if (usable(pf)) {
            stack.push_back(pf);
            seen[pf] = 1;
          }
          while (!stack.empty() && !seen[f]) {
            const int g = stack.back();
            stack.pop_back();
            for (const auto& l : r.links) {
              const int h = l[0] == g ? l[1] : l[1] == g ? l[0] : -1;
              if (h < 0 || seen[h]) continue;
              if (!usable(h)) continue;
              seen[h] = 1;
              stack.push_back(h);
            }
          }
          if (!seen[f]) stage = PfcInherit::hole;
        }
      }
      if (stage == PfcInherit::inherited) {
        c.inherits = static_cast<int>(k);
        c.why = stage;
      } else if (static_cast<int>(stage) > static_cast<int>(c.why)) {
        c.why = stage;
      }
    }
  }
  return r;
}

// ---------------------------------------------------------------- input checks and JSON

void check_pfc_wall(const Mesh& m, const Where& where) {
  for (const auto& e : m.edges()) {
    if (e.facets.size() != 2) continue;
    const int f = e.facets[0], g = e.facets[1];
    auto opposite = [&](int h) {
      for (int v : m.facets()[h])
        if (v != e.v0 && v != e.v1) return v;
      return -1;
    };
    const Vec3 &a = m.vertices()[e.v0], &b = m.vertices()[e.v1];
    const Vec3 &c = m.vertices()[opposite(f)], &d = m.vertices()[opposite(g)];
    if (orient3d_sign(a, b, c, d) != 0) continue;
    // Coplanar: folded onto each other when c and d lie on the same side of the line ab
    // (the sign of ((b-a) x (c-a)) . ((b-a) x (d-a)), exact through two orientations with a
    // point off the plane).
    const Vec3 off = a + (b - a).cross(c - a);
    const int sc = orient3d_sign(a, b, off, c), sd = orient3d_sign(a, b, off, d);
    if (sc != 0 && sc == sd)
      where.fail("mesh.facets", "facets " + std::to_string(f) + " and " + std::to_string(g) +
                                    " overlap (coplanar, folded onto each other across their "
                                    "shared edge): PFC walls must not self-intersect");
  }
}

nlohmann::json PfcResolution::to_json(const Query& q) {
  nlohmann::json j = {{"centre", cases::to_json(q.centre)},
                      {"radius", q.radius},
                      {"mesh", q.wall->to_json()},
                      {"mode", to_string(q.mode)},
                      {"cos_cutoff", q.cos_cutoff}};
  if (!q.sides.empty()) {
    auto& s = j["sides"] = nlohmann::json::array();
    for (auto v : q.sides) s.push_back(to_string(v));
  }
  if (!q.previous.empty()) {
    auto& p = j["previous"] = nlohmann::json::array();
    for (const auto& v : q.previous)
      p.push_back({{"facet", v.facet}, {"wall_point", cases::to_json(v.wall_point)}});
  }
  return j;
}

PfcQuery PfcResolution::from_json(const nlohmann::json& j, const Where& where) {
  if (!j.is_object()) where.fail("", "query must be a JSON object");
  reject_unknown_keys(j, {"centre", "radius", "mesh", "sides", "mode", "cos_cutoff", "previous"},
                      where);
  PfcQuery q;
  q.centre = read_vec3(j, "centre", where);
  q.radius = read_double(j, "radius", where);
  if (!(q.radius > 0)) where.fail("radius", "must be finite and > 0");
  q.wall = std::make_shared<const Mesh>(mesh_from_json(require(j, "mesh", where), where));
  check_pfc_wall(*q.wall, where);
  const auto& mode = require(j, "mode", where);
  if (mode == "reduced")
    q.mode = PfcMode::reduced;
  else if (mode == "full")
    q.mode = PfcMode::full;
  else
    where.fail("mode", "expected \"reduced\" or \"full\", got " + brief(mode));
  if (j.contains("cos_cutoff") && j["cos_cutoff"].is_string() &&
      std::isnan(std::strtod(j["cos_cutoff"].get<std::string>().c_str(), nullptr)))
    where.fail("cos_cutoff", "NaN: the cosine of the cutoff angle must be in [-1, 1]");
  q.cos_cutoff = read_double(j, "cos_cutoff", where);
  if (!(q.cos_cutoff >= -1 && q.cos_cutoff <= 1))
    where.fail("cos_cutoff", "the cosine of the cutoff angle must be in [-1, 1], got " +
                                 nlohmann::json(q.cos_cutoff).dump());
  const int n = q.wall->facet_count();
  if (j.contains("sides")) {
    const auto& s = j["sides"];
    if (!s.is_array() || static_cast<int>(s.size()) != n)
      where.fail("sides", "expected an array with one entry per facet (" + std::to_string(n) + ")");
    for (std::size_t k = 0; k < s.size(); ++k) {
      const std::string field = "sides[" + std::to_string(k) + "]";
      if (s[k] == "both")
        q.sides.push_back(PfcSides::both);
      else if (s[k] == "front")
        q.sides.push_back(PfcSides::front);
      else if (s[k] == "back")
        q.sides.push_back(PfcSides::back);
      else if (s[k] == "none")
        q.sides.push_back(PfcSides::none);
      else
        where.fail(field, "expected \"both\", \"front\", \"back\" or \"none\", got " + brief(s[k]));
    }
  }
  if (j.contains("previous")) {
    const auto& p = j["previous"];
    if (!p.is_array()) where.fail("previous", "expected an array");
    for (std::size_t k = 0; k < p.size(); ++k) {
      const std::string prefix = "previous[" + std::to_string(k) + "].";
      if (!p[k].is_object())
        where.fail("previous[" + std::to_string(k) + "]", "expected an object");
      reject_unknown_keys(p[k], {"facet", "wall_point"}, where, prefix);
      PfcPrevious v;
      v.facet = static_cast<int>(read_integer(p[k], "facet", 0, n - 1, where, prefix));
      v.wall_point = read_vec3(p[k], "wall_point", where, prefix);
      q.previous.push_back(v);
    }
  }
  return q;
}

nlohmann::json PfcResolution::to_json(const Result& r) {
  nlohmann::json contacts = nlohmann::json::array(), links = nlohmann::json::array(),
                 pcs = nlohmann::json::array();
  for (const auto& c : r.contacts)
    contacts.push_back({{"facet", c.facet},
                        {"region", to_string(c.region)},
                        {"wall_point", cases::to_json(c.wall_point)},
                        {"overlap", c.overlap},
                        {"normal", cases::to_json(c.normal)},
                        {"contact_point", cases::to_json(c.contact_point)},
                        {"positive", c.positive},
                        {"active", c.active},
                        {"inherits", c.inherits},
                        {"why", to_string(c.why)}});
  for (const auto& l : r.links) links.push_back({l[0], l[1]});
  for (const auto& p : r.proximity)
    pcs.push_back({{"members", p.members},
                   {"normal", cases::to_json(p.normal)},
                   {"overlap", p.overlap},
                   {"contact_point", cases::to_json(p.contact_point)}});
  nlohmann::json j = {{"contacts", contacts}, {"links", links}, {"proximity", pcs}};
  if (!r.decisions.empty()) {
    // The decision nearest to flipping (reference: exact margins).
    const PfcDecision* nearest = nullptr;
    for (const auto& d : r.decisions)
      if (!std::isnan(d.margin) && (!nearest || d.margin < nearest->margin)) nearest = &d;
    j["decisions"] = r.decisions.size();
    if (nearest)
      j["nearest_decision"] = {{"name", std::string(nearest->name)},
                               {"value", std::string(nearest->value)},
                               {"margin", nearest->margin},
                               {"i", nearest->i},
                               {"j", nearest->j}};
  }
  return j;
}

// ---------------------------------------------------------------- walls and generators

using Facets = std::vector<std::array<int, 3>>;

// Rough or flat grid on [0, nx h] x [0, ny h]: heights z[i] per vertex.
Mesh pfc_grid_wall(int nx, int ny, double h, const std::vector<double>& z, int pattern) {
  std::vector<Vec3> v;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      v.emplace_back(i * h, j * h, z.empty() ? 0.0 : z[j * (nx + 1) + i]);
  Facets f;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 2, d = a + nx + 1;
      if (pattern == 0 || (i + j) % 2 == 0) {
        f.push_back({a, b, c});
        f.push_back({a, c, d});
      } else {
        f.push_back({a, b, d});
        f.push_back({b, c, d});
      }
    }
  return Mesh(std::move(v), std::move(f), {"pfc_grid", ""});
}

// Two strips meeting at the edge x = 0 (along y, length 2h): z = 0 for x in [-2h, 0] and
// the direction (cx, 0, cz) beyond; normals (0,0,1) and (-cz, 0, cx)/|.|, so their cosine is
// cx/|(cx,cz)|. cz > 0: concave edge, cz < 0: convex.
Mesh pfc_fold_wall(double h, double cx, double cz) {
  std::vector<Vec3> v = {{-2 * h, 0, 0},
                         {0, 0, 0},
                         {0, 2 * h, 0},
                         {-2 * h, 2 * h, 0},
                         {2 * h * cx, 0, 2 * h * cz},
                         {2 * h * cx, 2 * h, 2 * h * cz}};
  return Mesh(std::move(v), Facets{{0, 1, 2}, {0, 2, 3}, {1, 4, 5}, {1, 5, 2}}, {"pfc_fold", ""});
}

// Two facets along the edge O-P, P = h(1,-1,-1), with normals h^2(1,1,0) and h^2(1,0,1)
// (cosine exactly 1/2), or -(1,0,1) when `flip` (cosine -1/2).
Mesh pfc_fold60_wall(double h, bool flip) {
  std::vector<Vec3> v = {{0, 0, 0}, {h, -h, -h}, {-h, h, 0}, {-h, 0, h}};
  Facets f = {{0, 1, 2}, flip ? std::array<int, 3>{0, 1, 3} : std::array<int, 3>{0, 3, 1}};
  return Mesh(std::move(v), std::move(f), {"pfc_fold60", ""});
}

// Figure 8a: a thin wedge; bottom in z = 0 (normal -z), top rising to height e at x = 4h.
Mesh pfc_wedge_wall(double h, double e) {
  std::vector<Vec3> v = {{0, 0, 0}, {0, 2 * h, 0}, {4 * h, h, 0}, {4 * h, h, e}};
  return Mesh(std::move(v), Facets{{0, 1, 2}, {0, 3, 1}}, {"pfc_wedge", ""});
}

// Figure 8b: k separate triangles stacked at z = -s·i, each covering [-2h, 2h]^2's middle,
// shifted by (dx_i, dy_i); lower ones optionally reversed (normal -z).
Mesh pfc_segments_wall(double h, double s, int k, const std::vector<Vec2>& shift, bool reverse) {
  std::vector<Vec3> v;
  Facets f;
  for (int i = 0; i < k; ++i) {
    const double z = -s * i, x = shift[i].x(), y = shift[i].y();
    const int b = static_cast<int>(v.size());
    v.emplace_back(x - 2 * h, y - 2 * h, z);
    v.emplace_back(x + 2 * h, y - 2 * h, z);
    v.emplace_back(x, y + 2 * h, z);
    if (reverse && i % 2 == 1)
      f.push_back({b, b + 2, b + 1});
    else
      f.push_back({b, b + 1, b + 2});
  }
  return Mesh(std::move(v), std::move(f), {"pfc_segments", ""});
}

namespace {

// Cosines with exact ties (Theta = 0, 60, 90, 120, 180 degrees) and the doubles nearest to
// the Pythagorean cosines (and their neighbours).
double pick_cosine(Rng& rng, bool exact) {
  static constexpr double ties[] = {1, 0.5, 0, -0.5, -1};
  static constexpr double near[] = {0.6, 0.8, 5.0 / 13, 12.0 / 13};
  const long k = uniform_int(rng, 0, exact ? 9 : 3);
  if (!exact && k < 3) return uniform(rng, -1, 1);
  if (k < 5) return ties[k];
  double c = near[uniform_int(rng, 0, 3)] * (uniform_int(rng, 0, 3) == 0 ? -1 : 1);
  const long step = uniform_int(rng, -1, 1);
  if (step != 0) c = std::nextafter(c, step * 2.0);
  return c;
}

Mesh pick_wall(Rng& rng, bool exact, double h, std::string& shape) {
  const long kind = uniform_int(rng, 0, 5);
  auto jitter = [&](double range) {
    return exact ? h * static_cast<double>(uniform_int(rng, -4, 4)) / 16 * range
                 : h * uniform(rng, -range, range) / 4;
  };
  if (kind == 0) {
    shape = "grid";
    return pfc_grid_wall(static_cast<int>(uniform_int(rng, 1, 3)),
                         static_cast<int>(uniform_int(rng, 1, 3)), h, {},
                         static_cast<int>(uniform_int(rng, 0, 1)));
  }
  if (kind == 1) {
    shape = "rough";
    const int nx = static_cast<int>(uniform_int(rng, 2, 4)),
              ny = static_cast<int>(uniform_int(rng, 2, 4));
    std::vector<double> z((nx + 1) * (ny + 1));
    for (auto& v : z) v = jitter(1);
    return pfc_grid_wall(nx, ny, h, z, static_cast<int>(uniform_int(rng, 0, 1)));
  }
  if (kind == 2) {
    static constexpr double dirs[][2] = {{1, 0},  {0, 1},  {0, -1}, {4, 3},   {3, 4}, {4, -3},
                                         {-3, 4}, {12, 5}, {5, 12}, {-5, 12}, {1, 1}, {1, -1}};
    const auto& d = dirs[uniform_int(rng, 0, 11)];
    shape = d[1] > 0 ? "concave" : d[1] < 0 ? "convex" : "flat_fold";
    if (exact) return pfc_fold_wall(h, d[0], d[1]);
    const double a = std::atan2(d[1], d[0]) + uniform(rng, -0.2, 0.2);
    return pfc_fold_wall(h, std::cos(a), std::sin(a));
  }
  if (kind == 3) {
    shape = "fold60";
    return pfc_fold60_wall(h, uniform_int(rng, 0, 1) == 1);
  }
  if (kind == 4) {
    shape = "wedge";
    const double e = exact ? std::ldexp(h, -static_cast<int>(uniform_int(rng, 1, 12)))
                           : h * log_uniform(rng, 1e-4, 0.5);
    return pfc_wedge_wall(h, e);
  }
  shape = "segments";
  const int k = static_cast<int>(uniform_int(rng, 2, 3));
  std::vector<Vec2> shift(k);
  for (auto& s : shift) s = Vec2(jitter(2), jitter(2));
  const double s = exact ? std::ldexp(h, -static_cast<int>(uniform_int(rng, 1, 3)))
                         : h * uniform(rng, 0.05, 0.5);
  return pfc_segments_wall(h, s, k, shift, uniform_int(rng, 0, 1) == 1);
}

// A dyadic point of the wall: a vertex, an edge midpoint or a point at quarters of a facet.
Vec3 wall_point_on(const Mesh& m, int f, Rng& rng, bool exact) {
  const Vec3 &a = m.vertex(f, 0), &b = m.vertex(f, 1), &c = m.vertex(f, 2);
  if (!exact) {
    double u = uniform(rng, 0, 1), v = uniform(rng, 0, 1);
    if (u + v > 1) u = 1 - u, v = 1 - v;
    return a + u * (b - a) + v * (c - a);
  }
  switch (uniform_int(rng, 0, 3)) {
    case 0:
      return m.vertex(f, static_cast<int>(uniform_int(rng, 0, 2)));
    case 1:
      return 0.5 * (a + b);
    case 2:
      return 0.5 * (b + c);
    default:
      return 0.5 * a + 0.25 * b + 0.25 * c;
  }
}

Generated<PfcQuery> generate(Rng& rng, bool exact) {
  PfcQuery q;
  const double h =
      exact ? std::ldexp(1.0, static_cast<int>(uniform_int(rng, -10, 10))) : pick_scale(rng);
  std::string shape;
  Mesh wall = pick_wall(rng, exact, h, shape);
  // Centre: near a random point of the wall, offset along a direction; radius so that
  // several facets are reached (or exactly touched).
  const int f0 = static_cast<int>(uniform_int(rng, 0, wall.facet_count() - 1));
  const Vec3 base = wall_point_on(wall, f0, rng, exact);
  Vec3 off;
  std::string config;
  if (exact) {
    static constexpr int pyth[][3] = {{0, 0, 1},  {1, 2, 2}, {2, 3, 6}, {0, 3, 4},
                                      {0, 5, 12}, {1, 4, 8}, {2, 6, 9}, {0, 0, 0}};
    const auto& t = pyth[uniform_int(rng, 0, 7)];
    std::array<double, 3> o = {static_cast<double>(t[0]), static_cast<double>(t[1]),
                               static_cast<double>(t[2])};
    std::shuffle(o.begin(), o.end(), rng);
    for (auto& c : o)
      if (uniform_int(rng, 0, 1)) c = -c;
    const double unit = std::ldexp(h, -static_cast<int>(uniform_int(rng, 1, 4)));
    off = unit * Vec3(o[0], o[1], o[2]);
    const double len = off.norm();  // exact: a Pythagorean quadruple times a power of two
    const long kind = uniform_int(rng, 0, 2);
    if (kind == 0) {
      q.radius = len > 0 ? len : h;  // touches the base point: U = 0 there if it is the closest
      config = "touch";
    } else {
      q.radius = len + unit * static_cast<double>(uniform_int(rng, 1, 8));
      config = len == 0 ? "on_wall" : "overlap";
    }
  } else {
    const Eigen::Matrix3d rot = random_rotation(rng);
    off = rot.col(0) * h * uniform(rng, 0, 1.5);
    q.radius = off.norm() + h * log_uniform(rng, 1e-3, 1.5);
    config = "overlap";
  }
  q.centre = base + off;
  q.mode = uniform_int(rng, 0, 1) ? PfcMode::full : PfcMode::reduced;
  q.cos_cutoff = pick_cosine(rng, exact);
  const int n = wall.facet_count();
  if (uniform_int(rng, 0, 3) == 0) {
    q.sides.resize(n);
    for (auto& s : q.sides)
      s = static_cast<PfcSides>(uniform_int(rng, 0, 5) < 3 ? 3 : uniform_int(rng, 0, 2));
  }
  const long np = uniform_int(rng, 0, 2);
  for (long k = 0; k < np; ++k) {
    PfcPrevious p;
    p.facet = static_cast<int>(uniform_int(rng, 0, n - 1));
    p.wall_point = uniform_int(rng, 0, 2) == 0 ? base : wall_point_on(wall, p.facet, rng, exact);
    q.previous.push_back(p);
  }
  // Random queries: the whole query rotated and translated (exactly representable or not).
  if (!exact) {
    const Eigen::Matrix3d rot = random_rotation(rng);
    const Vec3 shift =
        uniform_int(rng, 0, 3) == 0 ? Vec3(h * 1e3, -h * 2e3, h * 5e2) : Vec3::Zero();
    std::vector<Vec3> v;
    for (const auto& x : wall.vertices()) v.push_back(rot * x + shift);
    wall = Mesh(std::move(v), wall.facets(), {"pfc_random", ""});
    q.centre = rot * q.centre + shift;
    for (auto& p : q.previous) p.wall_point = rot * p.wall_point + shift;
  }
  q.wall = std::make_shared<const Mesh>(std::move(wall));
  const std::string sides = q.sides.empty() ? "both" : "mixed";
  return {q, regime({{"shape", shape},
                     {"config", config},
                     {"mode", to_string(q.mode)},
                     {"sides", sides},
                     {"scale", scale_tag(h)}})};
}

}  // namespace

Generated<PfcQuery> PfcResolution::random(Rng& rng) { return generate(rng, false); }
Generated<PfcQuery> PfcResolution::degenerate(Rng& rng) { return generate(rng, true); }

std::vector<Named<PfcQuery>> PfcResolution::canonical() {
  std::vector<Named<PfcQuery>> out;
  auto add = [&](std::string name, Mesh m, Vec3 x, double r, PfcMode mode, double c = 1,
                 std::vector<PfcPrevious> prev = {}) {
    PfcQuery q;
    q.wall = std::make_shared<const Mesh>(std::move(m));
    q.centre = x;
    q.radius = r;
    q.mode = mode;
    q.cos_cutoff = c;
    q.previous = std::move(prev);
    out.push_back({std::move(name), q});
  };
  for (auto mode : {PfcMode::reduced, PfcMode::full}) {
    const std::string s = std::string("_") + to_string(mode);
    add("one_facet" + s, pfc_grid_wall(1, 1, 1, {}, 0), {0.75, 0.25, 0.5}, 1, mode);
    add("coplanar_shared_edge" + s, pfc_grid_wall(1, 1, 1, {}, 0), {0.5, 0.5, 0.5}, 1, mode);
    add("coplanar_grid_figure4" + s, pfc_grid_wall(3, 3, 1, {}, 1), {1.25, 1.5, 0.5}, 1.25, mode, 1,
        {{0, {0.5, 0.5, 0}}});
    add("concave_edge_figure6" + s, pfc_fold_wall(1, 0, 1), {-0.5, 1, 0.75}, 0.875, mode, 0);
    add("convex_edge_figure5" + s, pfc_fold_wall(1, 0, -1), {0.25, 1, 0.5}, 0.75, mode);
    add("wedge_figure8a" + s, pfc_wedge_wall(1, 0.25), {2, 1, 1}, 1.5, mode);
    add("segments_figure8b" + s,
        pfc_segments_wall(1, 0.25, 3, {{0, 0}, {0.25, 0}, {0, 0.25}}, false), {0, 0, 0.5}, 1.25,
        mode);
  }
  return out;
}

}  // namespace contactbench::cases
