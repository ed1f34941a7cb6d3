#include "harness/scenarios/pfc_static.hpp"

#include "cases/json_input.hpp"
#include "harness/output.hpp"
#include "harness/pairs/pfc_resolution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace contactbench::harness {
namespace pfc_static {

cases::Mesh rough_wall(int cells, double h, double amplitude, std::uint64_t seed) {
  auto rng = cases::query_rng(seed, "pfc_static", "rough_wall", 0);
  std::vector<double> z((cells + 1) * (cells + 1));
  for (auto& v : z) v = amplitude * static_cast<double>(cases::uniform_int(rng, -4, 4)) / 4;
  return cases::pfc_grid_wall(cells, cells, h, z, 1);
}

double cos_of_degrees(int degrees) {
  switch (degrees) {
    case 0:
      return 1;
    case 60:
      return 0.5;
    case 90:
      return 0;
    case 120:
      return -0.5;
    case 180:
      return -1;
    default:
      return std::cos(degrees * std::acos(-1.0) / 180);
  }
}

Summary summarize(const cases::PfcResult& r, const Vec3& wall_normal) {
  Summary s;
  std::vector<int> in_pc;
  for (const auto& p : r.proximity) in_pc.insert(in_pc.end(), p.members.begin(), p.members.end());
  auto member = [&](int f) { return std::find(in_pc.begin(), in_pc.end(), f) != in_pc.end(); };
  auto normal_of = [&](int f) {
    for (const auto& c : r.contacts)
      if (c.facet == f) return c.normal;
    return Vec3(Vec3::Zero());
  };
  for (const auto& c : r.contacts) {
    ++s.contacts;
    s.positive += c.positive;
    if (!c.active) continue;
    ++s.active;
    const double nn = c.normal.dot(wall_normal);
    s.k_no_pc += nn * nn;
    const int reg = static_cast<int>(c.region);
    if (c.region == cases::Region::face)
      ++s.active_face;
    else if (reg >= static_cast<int>(cases::Region::vertex0))
      ++s.active_vertex;
    else
      ++s.active_edge;
    if (!member(c.facet)) {
      ++s.effective;
      s.k_eff += nn * nn;
    }
  }
  for (const auto& p : r.proximity) {
    ++s.proximity;
    ++s.effective;
    double mean = 0;
    for (int f : p.members) mean += normal_of(f).dot(wall_normal);
    mean /= static_cast<double>(p.members.size());
    s.k_eff += p.normal.dot(wall_normal) * mean;
  }
  return s;
}

cases::PfcQuery ball_query(std::shared_ptr<const cases::Mesh> wall, const Vec3& x, double r,
                           cases::PfcMode mode, double cos_cutoff) {
  cases::PfcQuery q;
  q.wall = std::move(wall);
  q.centre = x;
  q.radius = r;
  q.mode = mode;
  q.cos_cutoff = cos_cutoff;
  return q;
}

std::vector<int> active_facets(const cases::PfcResult& r) {
  std::vector<int> out;
  for (const auto& c : r.contacts)
    if (c.active) out.push_back(c.facet);
  return out;
}

cases::PfcQuery wedge_query(double wedge_height, cases::PfcMode mode) {
  return ball_query(std::make_shared<const cases::Mesh>(cases::pfc_wedge_wall(1, wedge_height)),
                    {2, 1, 1}, 1.5, mode, 1);
}

cases::PfcQuery segments_query(int layers, double spacing, cases::PfcMode mode) {
  const cases::Vec2 pattern[3] = {{0, 0}, {0.25, 0}, {0, 0.25}};
  std::vector<cases::Vec2> shift;
  for (int i = 0; i < layers; ++i) shift.push_back(pattern[i % 3]);
  return ball_query(std::make_shared<const cases::Mesh>(
                        cases::pfc_segments_wall(1, spacing, layers, shift, false)),
                    {0, 0, 0.5}, 1.25, mode, 1);
}

}  // namespace pfc_static

namespace {

using cases::Vec3;
using nlohmann::json;
using namespace pfc_static;

// One resolution as the scenario uses it: the reference's result when the reference ran
// (the oracle), else fast's; with both, the family's verdict and fast's active set.
struct Resolved {
  cases::PfcResult result;
  std::optional<std::vector<int>> fast_active;  // both variants ran
  Verdict verdict = Verdict::agree;
  std::string detail;
};

Resolved resolve(const cases::PfcQuery& q, bool run_fast, bool run_ref) {
  Resolved out;
  if (run_fast && run_ref) {
    const auto e = evaluate<PfcResolutionPair>(q);
    out.result = e.reference;
    out.verdict = e.verdict;
    if (e.fast) out.fast_active = active_facets(*e.fast);
    if (e.verdict != Verdict::agree) out.detail = describe(e.comparison);
  } else {
    out.result = run_ref ? reference::pfc_resolution(q) : fast::pfc_resolution(q);
  }
  return out;
}

// Verdict fields of one resolution: "verdict" and, when the active sets differ, fast's.
void judged(json& j, const Resolved& r, std::size_t& differ, std::size_t& wrong) {
  if (!r.fast_active) return;
  j["verdict"] = to_string(r.verdict);
  if (*r.fast_active != active_facets(r.result)) {
    ++differ;
    j["fast_active"] = *r.fast_active;
  }
  if (!r.detail.empty()) j["detail"] = r.detail;
  wrong += r.verdict == Verdict::wrong;
}

json contacts_json(const cases::PfcResult& r) {
  json out = json::array();
  for (const auto& c : r.contacts)
    out.push_back({{"facet", c.facet},
                   {"region", cases::to_string(c.region)},
                   {"wall_point", cases::to_json(c.wall_point)},
                   {"overlap", c.overlap},
                   {"normal", cases::to_json(c.normal)},
                   {"positive", c.positive},
                   {"active", c.active}});
  return out;
}

}  // namespace

int run_pfc_static(const ScenarioOptions& o) {
  if (o.variant != "fast" && o.variant != "reference" && o.variant != "both")
    throw cases::InputError("pfc_static: --variant: expected fast, reference or both");
  const bool run_fast = o.variant != "reference", run_ref = o.variant != "fast";
  ParamReader in("pfc_static", o);
  const int cells = in.get_int("cells", 32, 2, 256);
  const double h = in.get_positive("spacing", 1.0 / 32);
  const double amplitude = in.get_double("amplitude", 1.0 / 64, 0);
  const double depth = in.get_double("depth", 1.0 / 64, 0);
  const int seed = in.get_int("seed", 1, 0, 1 << 30);
  std::vector<int> thetas = {0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 60, 90, 180};
  thetas = in.get_int_list("thetas", thetas, 0, 180);
  const double wedge_height = in.get_positive("wedge_height", 1.0 / 4);
  const int layers = in.get_int("layers", 3, 2, 6);
  in.done();

  json out = scenario_header("pfc_static");
  out["variant"] = o.variant;
  std::size_t differ = 0, wrong = 0;

  // Figure 7: the ball (R = 1) over the middle of the rough wall, pressed `depth` below the
  // mean plane z = 0; the centre is off the grid's symmetry lines (dyadic offsets).
  const double R = 1;
  const Vec3 N(0, 0, 1);
  const auto wall = std::make_shared<const cases::Mesh>(rough_wall(cells, h, amplitude, seed));
  const Vec3 centre(cells * h / 2 + 5 * h / 16, cells * h / 2 + 3 * h / 16, R - depth);
  json rough = {
      {"construction",
       fmt::format("{0}x{0} grid of spacing {1} (2 triangles per cell, diagonals alternating), "
                   "vertex heights {2} k/4 with k uniform in -4..4 (seed {3}); ball R = 1 at "
                   "depth {4} below the mean plane",
                   cells, h, amplitude, seed, depth)},
      {"cells", cells}, {"spacing", h}, {"amplitude", amplitude}, {"depth", depth},
      {"seed", seed}, {"centre", cases::to_json(centre)}, {"radius", R},
      {"wall_normal", cases::to_json(N)}, {"mesh", wall->to_json()},
      {"stiffness",
       "k_eff/k_n = sum over single active contacts of (n.N)^2 + sum over proximity contacts "
       "of (n_pc.N) mean(n_k.N): d(F.N)/d(delta) for a linear law k_n U per contact, normals "
       "frozen"}};
  json rows = json::array();
  fmt::print("pfc_static: rough wall ({} facets), ball R = 1 at depth {}\n", wall->facet_count(),
             depth);
  fmt::print("  Theta  cos(Theta)            reduced: active eff k_eff   full: active eff k_eff\n");
  for (int deg : thetas) {
    const double c = cos_of_degrees(deg);
    json row = {{"theta_deg", deg}, {"cos_cutoff", c}};
    std::string line = fmt::format("  {:5}  {:<20.17g}", deg, c);
    for (auto mode : {cases::PfcMode::reduced, cases::PfcMode::full}) {
      const auto r = resolve(ball_query(wall, centre, R, mode, c), run_fast, run_ref);
      const auto s = summarize(r.result, N);
      json m = {{"contacts", s.contacts}, {"positive", s.positive}, {"active", s.active},
                {"active_face", s.active_face}, {"active_edge", s.active_edge},
                {"active_vertex", s.active_vertex}, {"proximity", s.proximity},
                {"effective", s.effective}, {"k_eff", s.k_eff}, {"k_no_pc", s.k_no_pc},
                {"active_facets", active_facets(r.result)}};
      json groups = json::array();
      for (const auto& p : r.result.proximity) groups.push_back(p.members);
      m["groups"] = groups;
      json wps = json::array();
      for (const auto& ct : r.result.contacts)
        if (ct.active) wps.push_back(cases::to_json(ct.wall_point));
      m["active_wall_points"] = wps;
      judged(m, r, differ, wrong);
      row[cases::to_string(mode)] = m;
      line += fmt::format("   {:>14} {:6} {:3} {:6.3f}", "", s.active, s.effective, s.k_eff);
    }
    rows.push_back(row);
    fmt::print("{}\n", line);
  }
  rough["rows"] = rows;
  out["rough_wall"] = rough;

  // Figure 8: (a) the thin wedge, (b) stacked segments; drawn in the plane y = centre.y.
  json slivers = json::array();
  for (const char* name : {"wedge", "segments"}) {
    const bool wedge = name[0] == 'w';
    json s = {{"name", name}};
    for (auto mode : {cases::PfcMode::reduced, cases::PfcMode::full}) {
      const auto q = wedge ? wedge_query(wedge_height, mode) : segments_query(layers, 0.25, mode);
      if (mode == cases::PfcMode::reduced) {
        s["mesh"] = q.wall->to_json();
        s["centre"] = cases::to_json(q.centre);
        s["radius"] = q.radius;
        s["description"] = wedge ? fmt::format("thin wedge: bottom facet 0 in z = 0 (normal -z), "
                                               "top facet 1 rising to {} at x = 4", wedge_height)
                                 : fmt::format("{} separate triangles stacked 1/4 apart below "
                                               "the ball, shifted sideways", layers);
      }
      const auto r = resolve(q, run_fast, run_ref);
      json m = {{"contacts", contacts_json(r.result)},
                {"active_facets", active_facets(r.result)}};
      judged(m, r, differ, wrong);
      s[cases::to_string(mode)] = m;
      fmt::print("pfc_static: {} {}: {} contacts, active facets {}\n", name,
                 cases::to_string(mode), r.result.contacts.size(),
                 json(active_facets(r.result)).dump());
    }
    slivers.push_back(s);
  }
  out["slivers"] = slivers;
  out["active_set_differences"] = differ;
  out["wrong"] = wrong;
  write_json(o.out_dir + "/pfc_static.json", out);
  if (run_fast && run_ref)
    fmt::print("pfc_static: fast vs reference: {} resolutions with different active sets, {} "
               "wrong\n",
               differ, wrong);
  return wrong ? 1 : 0;
}

}  // namespace contactbench::harness
