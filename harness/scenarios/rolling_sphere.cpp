#include "harness/scenarios/rolling_sphere.hpp"

#include "harness/output.hpp"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <numeric>

namespace contactbench::harness {
namespace rolling {

double period_from_crossings(const std::vector<double>& t, const std::vector<double>& th) {
  std::vector<double> zc;
  for (std::size_t i = 1; i < t.size(); ++i)
    if ((th[i - 1] > 0) != (th[i] > 0))
      zc.push_back(t[i - 1] + (t[i] - t[i - 1]) * th[i - 1] / (th[i - 1] - th[i]));
  if (zc.size() < 2) return std::nan("");
  return 2 * (zc.back() - zc.front()) / static_cast<double>(zc.size() - 1);
}

double trough_period(double R, double r, double g, double theta0) {
  const double T0 = 2 * std::acos(-1.0) * std::sqrt(7 * (R - r) / (5 * g));
  double a = 1, b = std::cos(theta0 / 2);
  for (int i = 0; i < 40; ++i) {
    const double an = (a + b) / 2;
    b = std::sqrt(a * b);
    a = an;
  }
  return T0 / a;
}

std::vector<double> crossings(const cases::Mesh& m, double y0, double xa, double xb) {
  std::vector<double> out;
  for (const auto& e : m.edges()) {
    if (e.facets.size() != 2) continue;
    const Vec3 &p = m.vertices()[e.v0], &q = m.vertices()[e.v1];
    if ((p.y() - y0) * (q.y() - y0) >= 0) continue;
    const double x = p.x() + (y0 - p.y()) * (q.x() - p.x()) / (q.y() - p.y());
    if (x >= std::min(xa, xb) && x <= std::max(xa, xb)) out.push_back(x);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rolling

namespace {

using cases::Vec3;
using nlohmann::json;
using namespace rolling;

json series_json(const Series& s) {
  return {{"t", s.t}, {"x", s.x}, {"y", s.y}, {"z", s.z}, {"vx", s.vx}, {"vz", s.vz},
          {"wy", s.wy}, {"fx", s.fx}, {"fz", s.fz}, {"contacts", s.contacts}};
}

// Mean of the last `frac` of a series (smooths the contact oscillation).
double tail_mean(const std::vector<double>& v, double frac) {
  const std::size_t n = std::max<std::size_t>(1, static_cast<std::size_t>(v.size() * frac));
  return std::accumulate(v.end() - n, v.end(), 0.0) / static_cast<double>(n);
}

// Largest distance between two trajectories sampled at the same steps.
double max_separation(const Series& a, const Series& b) {
  double m = 0;
  for (std::size_t i = 0; i < std::min(a.t.size(), b.t.size()); ++i)
    m = std::max(m, (Vec3(a.x[i], a.y[i], a.z[i]) - Vec3(b.x[i], b.y[i], b.z[i])).norm());
  return m;
}

// Woo's figure from computed data: a sphere on a flat triangulated plane with its centre
// over facet F1 near the internal edge to F2, probed in both modes.
json woo_picture(dem::Params p) {
  const auto mesh = std::make_shared<const cases::Mesh>(cases::grid_plane(4, 2, 0.1));
  const double r = p.radius, delta = 0.12 * r;  // exaggerated overlap so F2 is visible
  p.kn = dem::Stepper<dem::FastKernels>(mesh, p, {}).mass() * p.gravity.norm() / delta;
  const double edge_x = 0.2, y = 0.035;
  const Vec3 centre(edge_x - 0.012, y, r - delta);
  json out = {{"radius", r}, {"centre", {centre.x(), centre.z()}}, {"edge_x", edge_x},
              {"grid_x", {0.0, 0.1, 0.2, 0.3, 0.4}}, {"velocity", {1, 0}}};
  for (auto mode : {dem::ContactMode::raw, dem::ContactMode::smoothed}) {
    p.mode = mode;
    dem::State s;
    s.x = centre;
    dem::Stepper<dem::FastKernels> st(mesh, p, s);
    const Vec3 g = st.mass() * p.gravity;
    Vec3 total = g;
    json contacts = json::array();
    for (const auto& c : st.probe()) {
      const Vec3 at = centre - (r - c.overlap) * c.normal;
      contacts.push_back({{"facet", c.facet}, {"region", cases::to_string(c.region)},
                          {"zone", cases::to_string(c.zone)}, {"point", {at.x(), at.z()}},
                          {"force", {c.force.x(), c.force.z()}}, {"overlap", c.overlap}});
      total += c.force;
    }
    out[dem::to_string(mode)] = {{"contacts", contacts}, {"gravity", {g.x(), g.z()}},
                                 {"resultant", {total.x(), total.z()}}};
  }
  return out;
}

// Zone map: centre swept around an edge of dihedral fold angle `fold` (n_lim = cos fold),
// convex and concave; original and adjusted normal angles (from n1 towards the outward
// in-plane direction), with the zone. Reference kernel: every label exact.
json zone_map(double fold_deg) {
  const double a = fold_deg * std::acos(-1.0) / 180;
  json out = {{"fold_deg", fold_deg}, {"n_lim", std::cos(a)}};
  for (const char* shape : {"convex", "concave"}) {
    const double sz = std::string(shape) == "convex" ? -1 : 1;
    const auto mesh = cases::smoothing_patch(Vec3(0, -2, 0), Vec3(0, 2, 0), Vec3(-2, 0, 0),
                                             {Vec3(4 * std::cos(a), 0, sz * 4 * std::sin(a)),
                                              Vec3(-2, 4, 0), Vec3(-2, -4, 0)},
                                             {true, true, true}, {false, false, false});
    json rows = json::array();
    for (int i = -180; i < 180; ++i) {
      const double phi = i * std::acos(-1.0) / 180;
      cases::EdgeSmoothingQuery q;
      q.mesh = mesh;
      q.facet = 0;
      q.centre = Vec3(std::sin(phi), 0, std::cos(phi));
      q.radius = 1.5;
      const auto res = reference::edge_smoothing(q);
      const auto cf = reference::closest_feature({q.centre, mesh->vertex(0, 0), mesh->vertex(0, 1),
                                                  mesh->vertex(0, 2)});
      const Vec3 n = (q.centre - cf.point).normalized();
      const double deg = 180 / std::acos(-1.0);
      rows.push_back({{"phi", i}, {"original", std::atan2(n.x(), n.z()) * deg},
                      {"adjusted", std::atan2(res.normal.x(), res.normal.z()) * deg},
                      {"zone", cases::to_string(res.zone)}});
    }
    out[shape] = rows;
  }
  return out;
}

}  // namespace

int run_rolling_sphere(const ScenarioOptions& o) {
  if (o.variant != "fast" && o.variant != "reference" && o.variant != "both")
    throw cases::InputError("rolling_sphere: --variant: expected fast, reference or both");
  const bool run_fast = o.variant != "reference", run_ref = o.variant != "fast";
  ParamReader in("rolling_sphere", o);
  dem::Params plane;
  plane.radius = in.get_positive("radius", 0.05);
  plane.kn = in.get_positive("kn_plane", 1e4);
  plane.dt = in.get_positive("dt", 1e-4);
  plane.damping_ratio = in.get_double("damping", 0.3, 0);
  plane.mu = in.get_double("mu", 0.5, 0);
  dem::Params trough = plane;
  trough.kn = in.get_positive("kn_trough", 1e5);
  const double v0 = in.get_double("v0", 0.5), t_plane = in.get_positive("plane_duration", 2.0);
  const double R = in.get_positive("trough_radius", 0.5), theta0 = in.get_double("theta0", 0.2);
  const double g = plane.gravity.norm();
  const double T_amp = trough_period(R, plane.radius, g, theta0);
  const double t_trough = in.get_positive("trough_duration", 3 * T_amp);
  const double t_ref = in.get_positive("reference_duration", 0.3);
  const auto resolutions = in.get_int_list("resolutions", {8, 16, 32, 64, 128, 256}, 2, 1024);  // the study stops at 256
  in.done();
  ParamReader::check_steps("dt", std::max({t_plane, t_trough, t_ref}) / plane.dt);
  if (!(R > 2 * plane.radius))
    throw cases::InputError(fmt::format("--param trough_radius: must exceed 2 radius = {}, got {}",
                                        2 * plane.radius, R));

  // Surfaces: plane 1.4 m x 0.4 m, cells 0.1 m (2 radii); path at y0 inside a cell row.
  const double h = 0.1, x0 = 0.13, y0 = 0.175;
  auto rng = cases::query_rng(7, "rolling_sphere", "irregular", 0);
  std::vector<std::pair<std::string, std::shared_ptr<const cases::Mesh>>> planes = {
      {"ideal", std::make_shared<const cases::Mesh>(
                    std::vector<Vec3>{{-5, -5, 0}, {5, -5, 0}, {0, 5, 0}},
                    std::vector<std::array<int, 3>>{{0, 1, 2}})},
      {"grid", std::make_shared<const cases::Mesh>(cases::grid_plane(14, 4, h))},
      {"irregular", std::make_shared<const cases::Mesh>(cases::irregular_plane(14, 4, h, 0.3, rng))}};

  struct Task {
    std::string kind, surface, mode, kernels;
    int resolution = 0;
    double duration;
    int every;
    bool window;  // a short fast-vs-reference agreement run
    Series out;
    std::function<Series(const Task&)> run;
  };
  std::vector<Task> tasks;
  const int every = std::max(1, static_cast<int>(std::lround(1e-3 / plane.dt)));  // 1 ms samples
  auto add_plane = [&](const std::string& surface, std::shared_ptr<const cases::Mesh> mesh,
                       dem::ContactMode mode, bool ref, double dur, int ev, bool window) {
    dem::Params p = plane;
    p.mode = mode;
    Task t{"plane", surface, dem::to_string(mode), ref ? "reference" : "fast", 0, dur, ev, window, {}, {}};
    t.run = [=](const Task& tk) {
      return ref ? roll_plane<dem::ReferenceKernels>(mesh, p, x0, y0, v0, tk.duration, tk.every)
                 : roll_plane<dem::FastKernels>(mesh, p, x0, y0, v0, tk.duration, tk.every);
    };
    tasks.push_back(std::move(t));
  };
  auto add_trough = [&](int n, dem::ContactMode mode, bool ref, double dur, int ev, bool window) {
    auto mesh = std::make_shared<const cases::Mesh>(cases::half_cylinder_trough(R, n, 3, 0.6));
    dem::Params p = trough;
    p.mode = mode;
    Task t{"trough", "trough", dem::to_string(mode), ref ? "reference" : "fast", n, dur, ev, window, {}, {}};
    t.run = [=](const Task& tk) {
      return ref ? swing_trough<dem::ReferenceKernels>(mesh, R, p, theta0, tk.duration, tk.every)
                 : swing_trough<dem::FastKernels>(mesh, R, p, theta0, tk.duration, tk.every);
    };
    tasks.push_back(std::move(t));
  };
  const auto& modes = dem::all_modes;  // item 5 of issue 10: every mode on the same cases
  if (run_fast) {
    for (const auto& [name, mesh] : planes)
      for (auto m : modes)
        if (name != "ideal" || m == dem::ContactMode::smoothed)  // one ideal run: no edges
          add_plane(name, mesh, m, false, t_plane, every, false);
    for (int n : resolutions)
      for (auto m : modes) add_trough(n, m, false, t_trough, every, false);
  }
  // Agreement runs: the same short windows with both kernel sets, sampled every step.
  const int trough_n = resolutions[std::min<std::size_t>(1, resolutions.size() - 1)];
  for (bool ref : {false, true}) {
    if ((ref && !run_ref) || (!ref && !(run_fast && run_ref))) continue;
    for (auto m : modes) {
      add_plane("grid", planes[1].second, m, ref, t_ref, 1, true);
      add_trough(trough_n, m, ref, t_ref, 1, true);
    }
  }
  if (o.progress) fmt::print(stderr, "rolling_sphere: {} runs\n", tasks.size());
  tbb::parallel_for(std::size_t(0), tasks.size(), [&](std::size_t i) { tasks[i].out = tasks[i].run(tasks[i]); });

  json out = scenario_header("rolling_sphere");
  out["params"] = {{"radius", plane.radius}, {"density", plane.density}, {"kn_plane", plane.kn},
                   {"kn_trough", trough.kn}, {"damping_ratio", plane.damping_ratio},
                   {"kt_ratio", plane.kt_ratio}, {"mu", plane.mu}, {"dt", plane.dt}, {"g", g},
                   {"v0", v0}, {"plane_duration", t_plane}, {"cell", h}, {"x0", x0}, {"y0", y0},
                   {"trough_radius", R}, {"theta0", theta0}, {"trough_duration", t_trough},
                   {"reference_duration", t_ref}, {"resolutions", resolutions}};
  out["rest_overlap_plane"] = rest_overlap(plane);
  const double z_eq = plane.radius - rest_overlap(plane);

  // Plane results: speed lost (mean vx over the last 10% against v0), edges crossed, bumps.
  json planes_out = json::array();
  double loss_ideal = std::nan("");
  for (const auto& t : tasks)
    if (t.kind == "plane" && !t.window && t.surface == "ideal")
      loss_ideal = v0 - tail_mean(t.out.vx, 0.1);
  for (const auto& t : tasks) {
    if (t.kind != "plane" || t.window) continue;
    const auto& mesh = *std::find_if(planes.begin(), planes.end(),
                                     [&](const auto& p) { return p.first == t.surface; })->second;
    const auto xs = crossings(mesh, y0, x0, t.out.x.back());
    const double loss = v0 - tail_mean(t.out.vx, 0.1);
    double bump = 0;
    for (double z : t.out.z) bump = std::max(bump, std::abs(z - z_eq));
    planes_out.push_back({{"surface", t.surface}, {"mode", t.mode}, {"kernels", t.kernels},
                          {"speed_loss", loss}, {"speed_loss_vs_ideal", loss - loss_ideal},
                          {"crossings", xs.size()}, {"edges_x", xs},
                          {"loss_per_crossing", xs.empty() ? 0.0 : (loss - loss_ideal) / xs.size()},
                          {"max_bump", bump}, {"series", series_json(t.out)}});
    fmt::print("rolling_sphere: plane {:9} {:8}: speed loss {:.3e} m/s ({:+.3e} vs ideal) over {} "
               "internal edges, max vertical bump {:.3e} m\n",
               t.surface, t.mode, loss, loss - loss_ideal, xs.size(), bump);
  }
  out["plane"] = planes_out;

  // Trough results: period against the analytic rolling period.
  json trough_out = json::array();
  const double T0 = trough_period(R, plane.radius, g, 0);
  out["trough_period_small_amplitude"] = T0;
  out["trough_period_analytic"] = T_amp;
  for (const auto& t : tasks) {
    if (t.kind != "trough" || t.window) continue;
    std::vector<double> th;
    for (std::size_t i = 0; i < t.out.t.size(); ++i) th.push_back(trough_angle(t.out.x[i], t.out.z[i], R));
    const double T = period_from_crossings(t.out.t, th);
    trough_out.push_back({{"resolution", t.resolution}, {"mode", t.mode}, {"period", T},
                          {"period_error", (T - T_amp) / T_amp}, {"t", t.out.t}, {"theta", th}});
    fmt::print("rolling_sphere: trough n={:3} {:8}: period {:.5f} s, analytic {:.5f} s, error {:+.3e}\n",
               t.resolution, t.mode, T, T_amp, (T - T_amp) / T_amp);
  }
  out["trough"] = trough_out;

  // Fast vs reference: the same runs, compared step by step.
  json agree = json::array();
  if (run_fast && run_ref) {
    for (const auto& a : tasks) {
      if (!a.window || a.kernels != "fast") continue;
      for (const auto& b : tasks) {
        if (!b.window || b.kernels != "reference" || b.kind != a.kind || b.mode != a.mode) continue;
        const double sep = max_separation(a.out, b.out);
        // Stated bound (README "rolling_sphere"): 1e-12 m over the reference window (3000
        // steps). Both runs share the double integrator; a correctly working fast kernel
        // differs from the reference by rounding, a few eps (2.2e-16) relative per call, so the
        // separation grows about linearly: 3000 x a few eps x 0.05 m ~ 1e-13 m at most, and
        // 1e-12 m leaves a factor ~10 for amplification by the contact oscillation. Measured
        // 3e-17 m. A kernel erring at its full stated bound (64 eps kappa ~1e-13 relative)
        // on every call could exceed it: this gate then reports it.
        const double bound = 1e-12;
        agree.push_back({{"case", a.kind == "plane" ? "plane grid" : fmt::format("trough n={}", a.resolution)},
                         {"mode", a.mode}, {"duration", t_ref}, {"steps", a.out.t.size()},
                         {"max_separation", sep}, {"bound", bound}, {"ok", sep <= bound}});
        fmt::print("rolling_sphere: fast vs reference, {} {} {:8}: max separation {:.2e} m over {} "
                   "steps (bound {:.0e} m)\n",
                   a.kind, a.kind == "plane" ? std::string("grid") : fmt::format("n={}", a.resolution),
                   a.mode, sep, a.out.t.size(), bound);
      }
    }
  }
  out["agreement"] = agree;
  out["woo_picture"] = woo_picture(plane);
  out["zone_map"] = zone_map(40);
  write_json(o.out_dir + "/rolling_sphere.json", out);
  // The summary numbers as CSV too (one row per plane and trough run).
  {
    std::ofstream csv(o.out_dir + "/rolling_sphere_summary.csv");
    csv << "case,surface_or_resolution,mode,speed_loss_m_s,crossings,max_bump_m,period_s,period_error\n";
    for (const auto& p : out["plane"])
      csv << fmt::format("plane,{},{},{:.6e},{},{:.6e},,\n", p["surface"].get<std::string>(),
                         p["mode"].get<std::string>(), p["speed_loss"].get<double>(),
                         p["crossings"].get<std::size_t>(), p["max_bump"].get<double>());
    for (const auto& t : out["trough"])
      csv << fmt::format("trough,{},{},,,,{:.6f},{:.6e}\n", t["resolution"].get<int>(),
                         t["mode"].get<std::string>(), t["period"].get<double>(),
                         t["period_error"].get<double>());
    if (!csv) throw std::runtime_error("cannot write " + o.out_dir + "/rolling_sphere_summary.csv");
  }
  fmt::print("rolling_sphere: wrote {}/rolling_sphere.json\n", o.out_dir);
  for (const auto& a : agree)
    if (!a["ok"].get<bool>()) return 1;
  return 0;
}

}  // namespace contactbench::harness
