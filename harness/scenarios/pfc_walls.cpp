#include "harness/scenarios/pfc_walls.hpp"

#include "fast/closest_feature.hpp"
#include "harness/output.hpp"
#include "harness/pairs/pfc_resolution.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace contactbench::harness {
namespace pfc_walls {

cases::Mesh extruded_wall(const std::vector<std::array<double, 2>>& profile, double width, int ny,
                          const std::vector<int>& skip) {
  std::vector<Vec3> vs;
  std::vector<std::array<int, 3>> fs;
  for (const auto& p : profile)
    for (int j = 0; j <= ny; ++j) vs.emplace_back(p[0], width * j / ny, p[1]);
  for (int i = 0; i + 1 < static_cast<int>(profile.size()); ++i)
    for (int j = 0; j < ny; ++j) {
      if (std::find(skip.begin(), skip.end(), i * ny + j) != skip.end()) continue;
      const int a = i * (ny + 1) + j, b = a + ny + 1, c = b + 1, d = a + 1;
      fs.push_back({a, b, c});
      fs.push_back({a, c, d});
    }
  return cases::Mesh(std::move(vs), std::move(fs));
}

cases::Mesh hexagon_fan(const Vec3& centre, double radius, const std::vector<int>& skip) {
  std::vector<Vec3> vs = {centre};
  for (int k = 0; k < 6; ++k) {
    const double a = std::acos(-1.0) / 3 * k;
    vs.push_back(centre + radius * Vec3(std::cos(a), std::sin(a), 0));
  }
  std::vector<std::array<int, 3>> fs;
  for (int k = 0; k < 6; ++k)
    if (std::find(skip.begin(), skip.end(), k) == skip.end()) fs.push_back({0, 1 + k, 1 + (k + 1) % 6});
  return cases::Mesh(std::move(vs), std::move(fs));
}

std::vector<std::array<double, 2>> fold_profile(double length, double angle, int strips) {
  std::vector<std::array<double, 2>> out;
  for (int k = 0; k <= strips; ++k) out.push_back({-length + length * k / strips, 0.0});
  for (int k = 1; k <= strips; ++k)
    out.push_back({length * k / strips * std::cos(angle), length * k / strips * std::sin(angle)});
  return out;
}

template <class K>
std::string signature(const dem::Stepper<K>& st) {
  std::string s;
  if (!dem::is_pfc(st.params().mode)) {
    for (const auto& c : st.contacts()) s += fmt::format("{},", c.facet);
    return s;
  }
  const auto& map = st.wall_facets();
  const auto& r = st.resolution();
  s += "a:";
  for (const auto& c : r.contacts)
    if (c.active) s += fmt::format("{}={},", map[c.facet], cases::to_string(c.why));
  s += "|pc:";
  for (const auto& pc : r.proximity) {
    for (int f : pc.members) s += fmt::format("{}+", map[f]);
    s += ",";
  }
  return s;
}

namespace {

template <class K>
void sample(Series& out, const dem::Stepper<K>& st, double position) {
  out.s.push_back(position);
  out.centre.push_back(st.state().x);
  out.force.push_back(st.contact_force());
  int active = 0;
  for (const auto& c : st.resolution().contacts) active += c.active;
  out.active.push_back(dem::is_pfc(st.params().mode) ? active : static_cast<int>(st.contacts().size()));
  out.acting.push_back(static_cast<int>(st.contacts().size()));
  out.proximity.push_back(static_cast<int>(st.resolution().proximity.size()));
  std::vector<Vec3> normals;
  std::vector<int> facets;
  std::vector<std::string> why;
  std::vector<double> fn;
  for (const auto& c : st.contacts()) {
    fn.push_back(c.force.dot(c.normal));
    normals.push_back(c.normal);
    facets.push_back(c.facet);
    why.push_back(cases::to_string(c.why));
  }
  out.normals.push_back(std::move(normals));
  out.normal_force.push_back(std::move(fn));
  out.facets.push_back(std::move(facets));
  out.why.push_back(std::move(why));
  out.signature.push_back(signature(st));
}

// The fast kernel's stated wall-point bound at this step, relative to R: pfc_resolution's
// `point` in the pfc modes, closest_feature's point bound over the acting facets otherwise
// (edge smoothing's normals are facet normals, a few u off).
double point_bound(const dem::Stepper<dem::FastKernels>& st, const cases::Mesh& m) {
  const double R = st.params().radius;
  if (dem::is_pfc(st.params().mode))
    return st.resolution_query() ? fast::pfc_resolution_bounds(*st.resolution_query()).point : 0;
  double b = 0;
  for (const auto& c : st.contacts()) {
    const cases::ClosestFeatureQuery q{st.state().x, m.vertex(c.facet, 0), m.vertex(c.facet, 1),
                                       m.vertex(c.facet, 2)};
    b = std::max(b, fast::closest_feature_bounds(q).point_across * cases::longest_edge(q) / R + 0x1p-50);
  }
  return b;
}

// pfc_resolution's comparison rule on the query a stepper's last step resolved.
Verdict judge_step(const cases::PfcQuery& q) {
  return evaluate<PfcResolutionPair>(q).verdict;
}

// Raw and smoothed modes: do the two runs' acting facets differ only by facets whose
// overlap decision d^2 < R^2 is within the fast kernel's stated bound (pfc_resolution's
// `overlap` decision and bound, on the whole wall at the common centre)?
bool overlap_boundary(const dem::Stepper<dem::FastKernels>& a, const dem::Stepper<dem::ReferenceKernels>& b,
                      const std::shared_ptr<const cases::Mesh>& wall, const Vec3& centre) {
  std::vector<int> fa, fb, diff;
  for (const auto& c : a.contacts()) fa.push_back(c.facet);
  for (const auto& c : b.contacts()) fb.push_back(c.facet);
  std::sort(fa.begin(), fa.end());
  std::sort(fb.begin(), fb.end());
  std::set_symmetric_difference(fa.begin(), fa.end(), fb.begin(), fb.end(), std::back_inserter(diff));
  if (diff.empty() || a.state().x != b.state().x) return false;
  cases::PfcQuery q;
  q.centre = centre;
  q.radius = a.params().radius;
  q.wall = wall;
  const auto ref = reference::pfc_resolution(q);
  const double bound = fast::pfc_resolution_bounds(q).overlap;
  for (int f : diff) {
    bool near = false;
    for (const auto& d : ref.decisions)
      if (d.name == "overlap" && d.i == f) near = d.margin <= bound;
    if (!near) return false;
  }
  return true;
}

}  // namespace

Lockstep run_path(std::shared_ptr<const cases::Mesh> wall, const dem::Params& p,
                  const std::vector<Vec3>& path, const std::vector<double>& position,
                  bool with_reference, long reference_steps) {
  dem::State s0;
  s0.x = path[0];
  dem::Stepper<dem::FastKernels> a(wall, p, s0);
  std::unique_ptr<dem::Stepper<dem::ReferenceKernels>> b;
  if (with_reference) b = std::make_unique<dem::Stepper<dem::ReferenceKernels>>(wall, p, s0);
  Lockstep out;
  int max_acting = 1;
  for (std::size_t k = 1; k < path.size(); ++k) {
    const Vec3 v = (path[k] - path[k - 1]) / p.dt;
    const Vec3 centre = a.state().x;  // where this step's contacts are resolved
    a.step_prescribed(v);
    sample(out.fast, a, position[k - 1]);
    out.fast.point_bound = std::max(out.fast.point_bound, point_bound(a, *wall));
    max_acting = std::max(max_acting, static_cast<int>(a.contacts().size()));
    if (!b || static_cast<long>(k) > reference_steps) continue;
    b->step_prescribed(v);
    sample(out.reference, *b, position[k - 1]);
    ++out.steps;
    const long step = static_cast<long>(k);
    if (out.fast.signature.back() == out.reference.signature.back()) {
      ++out.agree;
    } else {
      // Excused as `boundary` only when pfc_resolution's rule calls the fast kernel's answer
      // `boundary` on one of the two runs' queries (pfc modes), or when every facet acting in
      // one run only has its overlap decision (d^2 < R^2, exact margin from the reference)
      // within the fast kernel's stated bound (raw, smoothed). When both runs' own queries
      // agree, the difference is one of inputs: the previous step's contacts, which an
      // earlier boundary step made differ (`history`, reported with the boundary steps).
      Verdict v1 = Verdict::wrong;
      if (a.resolution_query()) {
        v1 = judge_step(*a.resolution_query());
        if (v1 == Verdict::agree && b->resolution_query()) v1 = judge_step(*b->resolution_query());
        if (v1 == Verdict::agree && !out.boundary_steps.empty()) v1 = Verdict::out_of_domain;
      } else if (overlap_boundary(a, *b, wall, centre)) {
        v1 = Verdict::boundary;
      }
      if (v1 == Verdict::out_of_domain) {  // stands for `history` here
        ++out.history;
      } else if (v1 == Verdict::boundary) {
        ++out.boundary;
        out.boundary_steps.push_back(step);
      } else {
        ++out.wrong;
        out.wrong_steps.push_back(step);
        if (out.wrong_detail.size() < 5)
          out.wrong_detail.push_back({out.fast.signature.back(), out.reference.signature.back()});
      }
    }
    out.max_force_difference =
        std::max(out.max_force_difference, (out.fast.force.back() - out.reference.force.back()).norm());
  }
  // Force bound over the compared steps: per step and acting contact the wall point is off by
  // at most P R (P the fast kernel's stated bound relative to R), so the overlap by P R and
  // the normal by ~P (d >= R - delta); the normal force (kn U along n) errs by <= 2 kn P R;
  // the shear displacement's projection and increment by <= 2 P (|u_s| + v dt) <= 10 P R
  // (|u_s| <= 4 R on these paths), and that error is carried on: it adds up over the steps.
  const double kt = p.kt_ratio * p.kn;
  out.force_bound = max_acting * (2 * p.kn + 10 * kt) * p.radius * out.fast.point_bound *
                    static_cast<double>(out.steps + 1);
  return out;
}

template std::string signature(const dem::Stepper<dem::FastKernels>&);
template std::string signature(const dem::Stepper<dem::ReferenceKernels>&);

}  // namespace pfc_walls

namespace {

using cases::Vec3;
using nlohmann::json;
using namespace pfc_walls;

constexpr double deg = 180 / 3.14159265358979323846;

// Scenario parameters shared by the four cases.
struct Common {
  dem::Params p;
  double delta, v;
  long reference_steps;
  int every;
  bool fast = true, reference = true;
};

Common read_common(ParamReader& in, const ScenarioOptions& o, double delta, double mu,
                   long reference_steps) {
  if (o.variant != "fast" && o.variant != "reference" && o.variant != "both")
    throw cases::InputError("--variant: expected fast, reference or both");
  Common c;
  c.p.radius = in.get_positive("radius", 0.05);
  c.p.kn = in.get_positive("kn", 1e4);
  c.p.kt_ratio = in.get_positive("kt_ratio", 0.5);
  c.p.damping_ratio = in.get_double("damping", 0, 0);
  c.p.mu = in.get_double("mu", mu, 0);
  c.p.dt = in.get_positive("dt", 1e-4);
  c.p.cos_cutoff = in.get_double("cos_cutoff", 0.5, -1, 1);
  c.delta = in.get_positive("delta", delta);
  c.v = in.get_positive("speed", 0.5);
  c.reference_steps = in.get_int("reference_steps", static_cast<int>(reference_steps), 0, 100000000);
  c.every = in.get_int("every", 10, 1, 1000000);
  c.reference = o.variant != "fast";
  if (!(c.delta < c.p.radius))
    throw cases::InputError(fmt::format("--param delta: must be below the radius {}", c.p.radius));
  return c;
}

// Path through the points of `at(s)` for s in [s0, s1] in steps of v dt.
void make_path(const Common& c, double s0, double s1, const std::function<Vec3(double)>& at,
               std::vector<Vec3>& path, std::vector<double>& pos) {
  ParamReader::check_steps("speed, dt", (s1 - s0) / (c.v * c.p.dt));
  const long n = std::max(1L, std::lround((s1 - s0) / (c.v * c.p.dt)));
  for (long k = 0; k <= n; ++k) {
    const double s = s0 + (s1 - s0) * static_cast<double>(k) / static_cast<double>(n);
    path.push_back(at(s));
    pos.push_back(s);
  }
}

json series_json(const Series& s, int every) {
  json out = {{"s", json::array()}, {"x", json::array()}, {"z", json::array()},
              {"fx", json::array()}, {"fy", json::array()}, {"fz", json::array()},
              {"active", json::array()}, {"acting", json::array()}, {"proximity", json::array()},
              {"normal_deg", json::array()}, {"facets", json::array()}, {"why", json::array()}};
  for (std::size_t i = 0; i < s.s.size(); ++i) {
    // Every `every`-th step, and every step where the active set changes.
    const bool change = i > 0 && s.signature[i] != s.signature[i - 1];
    if (i % every != 0 && !change && i + 1 != s.s.size()) continue;
    out["s"].push_back(s.s[i]);
    out["x"].push_back(s.centre[i].x());
    out["z"].push_back(s.centre[i].z());
    out["fx"].push_back(s.force[i].x());
    out["fy"].push_back(s.force[i].y());
    out["fz"].push_back(s.force[i].z());
    out["active"].push_back(s.active[i]);
    out["acting"].push_back(s.acting[i]);
    out["proximity"].push_back(s.proximity[i]);
    json angles = json::array();  // in the xz plane, from +z towards +x
    for (const auto& n : s.normals[i]) angles.push_back(std::atan2(n.x(), n.z()) * deg);
    out["normal_deg"].push_back(angles);
    out["facets"].push_back(s.facets[i]);
    out["why"].push_back(s.why[i]);
  }
  return out;
}

// Step-to-step force change: the largest |F_k - F_(k-1)| (N) and where, after the first 20%
// of the path (where the shear springs of the first contacts are still loading).
std::pair<double, double> largest_jump(const Series& s) {
  double m = 0, at = std::nan("");
  for (std::size_t i = std::max<std::size_t>(1, s.force.size() / 5); i < s.force.size(); ++i) {
    const double j = (s.force[i] - s.force[i - 1]).norm();
    if (j > m) {
      m = j;
      at = s.s[i];
    }
  }
  return {m, at};
}

json agreement_json(const Lockstep& r) {
  return {{"steps", r.steps}, {"agree", r.agree}, {"boundary", r.boundary}, {"history", r.history},
          {"wrong", r.wrong},
          {"boundary_steps", r.boundary_steps}, {"wrong_steps", r.wrong_steps},
          {"wrong_detail", r.wrong_detail},
          {"max_force_difference", r.max_force_difference}, {"force_bound", r.force_bound},
          {"point_bound", r.fast.point_bound},
          {"ok", r.wrong == 0 && (r.boundary > 0 || r.max_force_difference <= r.force_bound)}};
}

json params_json(const Common& c) {
  return {{"radius", c.p.radius}, {"kn", c.p.kn}, {"kt_ratio", c.p.kt_ratio},
          {"damping_ratio", c.p.damping_ratio}, {"mu", c.p.mu}, {"dt", c.p.dt},
          {"cos_cutoff", c.p.cos_cutoff}, {"delta", c.delta}, {"speed", c.v},
          {"reference_steps", c.reference_steps}, {"prescribed_motion", true}};
}

struct Run {
  std::string wall;
  dem::ContactMode mode;
  std::shared_ptr<const cases::Mesh> mesh;
  Lockstep out;
};

// Runs every (wall, mode) in parallel along one path; prints the agreement lines.
int run_all(const std::string& name, const Common& c, std::vector<Run>& runs,
            const std::vector<Vec3>& path, const std::vector<double>& pos, json& doc,
            const ScenarioOptions& o) {
  if (o.progress) fmt::print(stderr, "{}: {} runs of {} steps\n", name, runs.size(), path.size() - 1);
  tbb::parallel_for(std::size_t(0), runs.size(), [&](std::size_t i) {
    dem::Params p = c.p;
    p.mode = runs[i].mode;
    runs[i].out = run_path(runs[i].mesh, p, path, pos, c.reference, c.reference_steps);
  });
  int rc = 0;
  json list = json::array();
  for (const auto& r : runs) {
    const auto [jump, jump_at] = largest_jump(r.out.fast);
    const auto& a = r.out.fast.active;
    json j = {{"wall", r.wall}, {"mode", dem::to_string(r.mode)},
              {"facets", r.mesh->facet_count()},
              {"active_min", *std::min_element(a.begin(), a.end())},
              {"active_max", *std::max_element(a.begin(), a.end())},
              {"largest_force_jump", jump}, {"largest_force_jump_at", jump_at},
              {"series", series_json(r.out.fast, c.every)}};
    if (c.reference) {
      j["agreement"] = agreement_json(r.out);
      fmt::print("{}: {:10} {:11} fast vs reference: {} steps, {} agree, {} boundary, {} after a "
                 "boundary step (history), {} wrong; max force difference {:.2e} N (bound {:.2e} N)\n",
                 name, r.wall, dem::to_string(r.mode), r.out.steps, r.out.agree, r.out.boundary,
                 r.out.history, r.out.wrong, r.out.max_force_difference, r.out.force_bound);
      if (!j["agreement"]["ok"].get<bool>()) rc = 1;
    }
    list.push_back(std::move(j));
  }
  doc["runs"] = std::move(list);
  return rc;
}

const Series& find_series(const std::vector<Run>& runs, const std::string& wall, dem::ContactMode m) {
  for (const auto& r : runs)
    if (r.wall == wall && r.mode == m) return r.out.fast;
  throw std::logic_error("pfc_walls: no run " + wall);
}

void finish(const std::string& name, const ScenarioOptions& o, const json& doc) {
  write_json(o.out_dir + "/" + name + ".json", doc);
  fmt::print("{}: wrote {}/{}.json\n", name, o.out_dir, name);
}

}  // namespace

// The fold walls of pfc_convex_edge (sign -1: the far side goes down) and concave_edge (+1):
// parameters, wall, and the start of the JSON document.
struct Fold {
  Common c;
  double angle, len, y0, rho;
  int strips;
  std::shared_ptr<const cases::Mesh> wall;
  json doc;
};

Fold read_fold(const char* name, const ScenarioOptions& o, double delta, double sign) {
  ParamReader in(name, o);
  Fold f{read_common(in, o, delta, 0.5, 1000000), 0, 0, 0, 0, 0, nullptr, {}};
  f.angle = in.get_double("angle_deg", 30, 1, 89) / deg;
  f.len = in.get_positive("length", 0.1);
  f.y0 = in.get_double("y0", 0.04);
  f.strips = in.get_int("strips", 4, 1, 100);
  in.done();
  f.rho = f.c.p.radius - f.c.delta;
  f.wall = std::make_shared<const cases::Mesh>(extruded_wall(fold_profile(f.len, sign * f.angle, f.strips), 0.1, 2));
  f.doc = scenario_header(name);
  f.doc["params"] = params_json(f.c);
  f.doc["params"]["angle_deg"] = f.angle * deg;
  f.doc["params"]["strips"] = f.strips;
  return f;
}

// Figures 4 and 9: a coplanar grid wall (cells h, two facets each) against one large facet.
int run_pfc_coplanar(const ScenarioOptions& o) {
  ParamReader in("pfc_coplanar", o);
  Common c = read_common(in, o, 1e-3, 1e3, 4000);
  const double h = in.get_positive("cell", 0.02), y0 = in.get_double("y0", 0.05);
  in.done();
  const double rho = c.p.radius - c.delta;
  const auto grid = std::make_shared<const cases::Mesh>(cases::grid_plane(20, 6, h));
  const auto one = std::make_shared<const cases::Mesh>(
      std::vector<Vec3>{{-10, -10, 0}, {10, -10, 0}, {0, 10, 0}}, std::vector<std::array<int, 3>>{{0, 1, 2}});
  std::vector<Vec3> path;
  std::vector<double> pos;
  make_path(c, 5 * h, 15 * h, [&](double x) { return Vec3(x, y0, rho); }, path, pos);
  std::vector<Run> runs;
  for (auto m : dem::all_modes) runs.push_back({"grid", m, grid, {}});
  for (auto m : dem::all_modes) runs.push_back({"one_facet", m, one, {}});
  json doc = scenario_header("pfc_coplanar");
  doc["params"] = params_json(c);
  doc["params"]["cell"] = h;
  doc["params"]["y0"] = y0;
  const int rc = run_all("pfc_coplanar", c, runs, path, pos, doc, o);
  // Shear history (and normal force) against the same motion on one large facet.
  json cmp = json::array();
  for (auto m : dem::all_modes) {
    const Series &g = find_series(runs, "grid", m), &f = find_series(runs, "one_facet", m);
    double dx = 0, dz = 0;
    for (std::size_t i = 0; i < g.force.size(); ++i) {
      dx = std::max(dx, std::abs(g.force[i].x() - f.force[i].x()));
      dz = std::max(dz, std::abs(g.force[i].z() - f.force[i].z()));
    }
    const double peak = std::abs(f.force.back().x());
    cmp.push_back({{"mode", dem::to_string(m)}, {"max_shear_difference", dx},
                   {"max_normal_difference", dz}, {"single_facet_final_shear", peak}});
    fmt::print("pfc_coplanar: {:11} grid vs one facet: max |Fx difference| {:.3e} N, max |Fz "
               "difference| {:.3e} N (final shear on one facet {:.3f} N)\n",
               dem::to_string(m), dx, dz, peak);
  }
  doc["versus_one_facet"] = cmp;
  finish("pfc_coplanar", o, doc);
  return rc;
}

// Figure 5: strips on both sides of a convex edge (the far side down at `angle_deg`); the
// centre runs on the offset path at distance R - delta: flat, an arc around the edge, the
// slope. Path position s: arc length, 0 where the arc begins (centre above the edge).
int run_pfc_convex_edge(const ScenarioOptions& o) {
  Fold f = read_fold("pfc_convex_edge", o, 1e-3, -1);
  const Common& c = f.c;
  const double rho = f.rho, angle = f.angle, y0 = f.y0, arc = rho * angle;
  const Vec3 down(std::cos(angle), 0, -std::sin(angle));
  auto at = [&](double s) {
    if (s <= 0) return Vec3(s, y0, rho);
    if (s <= arc) return Vec3(rho * std::sin(s / rho), y0, rho * std::cos(s / rho));
    return Vec3(Vec3(rho * std::sin(angle), y0, rho * std::cos(angle)) + (s - arc) * down);
  };
  std::vector<Vec3> path;
  std::vector<double> pos;
  make_path(c, -0.6 * f.len, arc + 0.6 * f.len, at, path, pos);
  std::vector<Run> runs;
  for (auto m : dem::all_modes) runs.push_back({"convex", m, f.wall, {}});
  json& doc = f.doc;
  doc["params"]["arc"] = arc;
  const int rc = run_all("pfc_convex_edge", c, runs, path, pos, doc, o);
  // Activity passes: changes of the side (flat or sloping facets) of the contact carrying the
  // largest normal force; normal step: the largest step of that contact's normal, against the
  // arc's own step v dt / rho.
  const int flat_facets = 2 * 2 * f.strips;
  json summary = json::array();
  for (const auto& r : runs) {
    const Series& s = r.out.fast;
    int passes = 0, side = -1;
    double step = 0;
    Vec3 last = Vec3::Zero();
    for (std::size_t i = 0; i < s.s.size(); ++i) {
      if (s.facets[i].empty()) continue;
      std::size_t main = 0;
      for (std::size_t k = 1; k < s.facets[i].size(); ++k)
        if (s.normal_force[i][k] > s.normal_force[i][main]) main = k;
      const int now = s.facets[i][main] >= flat_facets;
      if (side >= 0 && now != side) ++passes;
      side = now;
      const Vec3 n = s.normals[i][main];
      if (last.squaredNorm() > 0) step = std::max(step, std::acos(std::clamp(n.dot(last), -1.0, 1.0)) * deg);
      last = n;
    }
    summary.push_back({{"mode", dem::to_string(r.mode)}, {"passes", passes},
                       {"max_normal_step_deg", step},
                       {"arc_step_deg", c.v * c.p.dt / rho * deg}});
    fmt::print("pfc_convex_edge: {:11} activity passes the edge {} time(s); largest normal step "
               "{:.4f} deg (arc step {:.4f} deg)\n",
               dem::to_string(r.mode), passes, step, c.v * c.p.dt / rho * deg);
  }
  doc["summary"] = summary;
  finish("pfc_convex_edge", o, doc);
  return rc;
}

// Figures 6 and 11: floor z = 0 up to the edge x = 0, then a ramp rising at `angle_deg`. The
// centre moves at height R - delta to where it is R - delta from both planes (the kink of
// the offset path, x_k = -(R - delta) tan(angle/2)), then parallel to the ramp. Path
// position s: arc length, 0 at the kink.
int run_concave_edge(const ScenarioOptions& o) {
  Fold f = read_fold("concave_edge", o, 2e-3, 1);
  const Common& c = f.c;
  const double rho = f.rho, y0 = f.y0, xk = -rho * std::tan(f.angle / 2);
  const Vec3 up(std::cos(f.angle), 0, std::sin(f.angle));
  auto at = [&](double s) { return s <= 0 ? Vec3(xk + s, y0, rho) : Vec3(Vec3(xk, y0, rho) + s * up); };
  std::vector<Vec3> path;
  std::vector<double> pos;
  make_path(c, -0.5 * f.len, 0.5 * f.len, at, path, pos);
  std::vector<Run> runs;
  for (auto m : dem::all_modes) runs.push_back({"concave", m, f.wall, {}});
  json& doc = f.doc;
  doc["params"]["kink_x"] = xk;
  const int rc = run_all("concave_edge", c, runs, path, pos, doc, o);
  // Per mode: the span with two or more acting contacts, the largest force jump and the
  // normal-force level where the sphere touches both faces (at the kink).
  json summary = json::array();
  for (const auto& r : runs) {
    const Series& s = r.out.fast;
    double lo = std::nan(""), hi = std::nan(""), fk = std::nan("");
    double fmin = 1e300, fmax = 0;
    for (std::size_t i = 0; i < s.s.size(); ++i) {
      if (s.acting[i] >= 2) {
        if (std::isnan(lo)) lo = s.s[i];
        hi = s.s[i];
      }
      if (std::isnan(fk) && s.s[i] >= 0) fk = s.force[i].norm();
      fmin = std::min(fmin, s.force[i].norm());
      fmax = std::max(fmax, s.force[i].norm());
    }
    const auto [jump, jump_at] = largest_jump(s);
    int max_active = 0, max_pc = 0;
    for (std::size_t i = 0; i < s.s.size(); ++i) {
      max_active = std::max(max_active, s.active[i]);
      max_pc = std::max(max_pc, s.proximity[i]);
    }
    summary.push_back({{"mode", dem::to_string(r.mode)}, {"two_acting_from", lo},
                       {"two_acting_to", hi}, {"max_active", max_active},
                       {"max_proximity", max_pc}, {"force_at_kink", fk},
                       {"largest_force_jump", jump}, {"largest_force_jump_at", jump_at},
                       {"force_min", fmin}, {"force_max", fmax}});
    fmt::print("concave_edge: {:11} max active {}, acting >= 2 over s in [{:.4f}, {:.4f}] m, "
               "|F| at the kink {:.3f} N, largest force jump {:.3f} N at s = {:.4f} m\n",
               dem::to_string(r.mode), max_active, lo, hi, fk, jump, jump_at);
  }
  doc["summary"] = summary;
  finish("concave_edge", o, doc);
  return rc;
}

// Figure 10: the coplanar grid of pfc_coplanar in full mode, whole, with a one-cell hole on
// the path (cell (10, y0's row)) and with a gap (column 10 removed across the wall); and a
// hexagonal fan (radius 2.5 cells) centred 1/2 cell below the path at x = 10 cells, whole and
// without facet 1 (the wedge the path crosses). Across the fan's missing wedge the active
// contact jumps from facet 2 to facet 0, which the vertex contacts at the centre link, but no
// path of linked facets crossing the plane through both wall points joins them: `hole`.
int run_pfc_holes(const ScenarioOptions& o) {
  ParamReader in("pfc_holes", o);
  Common c = read_common(in, o, 2e-3, 1e3, 1000000);
  const double h = in.get_positive("cell", 0.02), y0 = in.get_double("y0", 0.05);
  in.done();
  const int nx = 20, ny = 6, row = std::clamp(static_cast<int>(y0 / h), 0, ny - 1);
  const double rho = c.p.radius - c.delta;
  std::vector<std::array<double, 2>> prof;
  for (int i = 0; i <= nx; ++i) prof.push_back({i * h, 0.0});
  std::vector<int> gap;
  for (int j = 0; j < ny; ++j) gap.push_back(10 * ny + j);
  const std::vector<std::pair<std::string, std::vector<int>>> walls = {
      {"whole", {}}, {"hole", {10 * ny + row}}, {"gap", gap}};
  std::vector<Vec3> path;
  std::vector<double> pos;
  make_path(c, 5 * h, 15 * h, [&](double x) { return Vec3(x, y0, rho); }, path, pos);
  std::vector<Run> runs;
  for (const auto& [name, skip] : walls)
    runs.push_back({name, dem::ContactMode::pfc_full,
                    std::make_shared<const cases::Mesh>(extruded_wall(prof, ny * h, ny, skip)), {}});
  const Vec3 fan_centre(10 * h, y0 - h / 2, 0);
  for (const auto& [name, skip] : std::vector<std::pair<std::string, std::vector<int>>>{
           {"fan_whole", {}}, {"fan_hole", {1}}})
    runs.push_back({name, dem::ContactMode::pfc_full,
                    std::make_shared<const cases::Mesh>(hexagon_fan(fan_centre, 2.5 * h, skip)), {}});
  json doc = scenario_header("pfc_holes");
  doc["params"] = params_json(c);
  doc["params"]["cell"] = h;
  doc["params"]["y0"] = y0;
  doc["params"]["hole_x"] = {10 * h, 11 * h};
  doc["params"]["fan_centre"] = {10 * h, y0 - h / 2};
  doc["params"]["fan_radius"] = 2.5 * h;
  const int rc = run_all("pfc_holes", c, runs, path, pos, doc, o);
  // Every change of the acting contacts with the reason the new one gives.
  json events = json::array();
  for (const auto& r : runs) {
    const Series& s = r.out.fast;
    std::map<std::string, int> reasons;
    for (std::size_t i = 1; i < s.s.size(); ++i)
      for (std::size_t k = 0; k < s.facets[i].size(); ++k)
        if (std::find(s.facets[i - 1].begin(), s.facets[i - 1].end(), s.facets[i][k]) == s.facets[i - 1].end())
          ++reasons[s.why[i][k]];
    events.push_back({{"wall", r.wall}, {"new_contacts_by_reason", reasons},
                      {"final_shear", s.force.back().x()}});
    fmt::print("pfc_holes: {:6} new acting contacts by reason: {}; final Fx {:.3f} N\n", r.wall,
               json(reasons).dump(), s.force.back().x());
  }
  doc["events"] = events;
  finish("pfc_holes", o, doc);
  return rc;
}

}  // namespace contactbench::harness
