// `contactbench run ellipsoid_pour`: the pour (fast kernels), its narrow-phase decisions
// re-decided by the reference on sampled steps, a reference-kernel trajectory against the fast
// one, the paper's statistics table, per-phase times and the scaling series over N.
#include "harness/scenarios/ellipsoid_pour.hpp"

#include "harness/output.hpp"
#include "harness/pairs/ellipsoid_contact.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <numeric>
#include <random>
#include <set>

namespace contactbench::harness {
namespace pour {

Body make_body(int shape, const Vec3& semi_axes, double density, const Vec3& x,
               const Eigen::Quaterniond& q) {
  Body b;
  b.shape = shape;
  b.semi_axes = semi_axes;
  b.x = x;
  b.q = q.normalized();
  const double a = semi_axes.x(), c = semi_axes.y(), e = semi_axes.z();
  b.mass = density * 4.0 / 3.0 * M_PI * a * c * e;
  b.inertia = Vec3(c * c + e * e, a * a + e * e, a * a + c * c) * (b.mass / 5);  // solid ellipsoid
  return b;
}

const std::array<Vec3, 4>& pour_shapes() {
  static const std::array<Vec3, 4> shapes = {Vec3(0.012, 0.008, 0.006), Vec3(0.010, 0.010, 0.006),
                                             Vec3(0.013, 0.0065, 0.0065), Vec3(0.008, 0.008, 0.008)};
  return shapes;
}

Scene pour_scene(const PourParams& p) {
  Scene s;
  s.dt = p.dt;
  s.iterations = p.iterations;
  s.plane = 0.0;
  const double reach = 0.013, gap = 0.002, spacing = 2 * reach + gap;
  const double alpha = p.incline_deg * M_PI / 180;
  const Vec3 axis(std::cos(alpha), 0, -std::sin(alpha));
  const Vec3 e1(std::sin(alpha), 0, std::cos(alpha)), e2(0, 1, 0);  // ⟂ axis ("up", sideways)
  // cross-section lattice: centres within radius − reach − gap of the axis
  std::vector<std::pair<int, int>> layer;
  const double rmax = p.tube_radius - reach - gap;
  const int k = static_cast<int>(rmax / spacing) + 1;
  for (int i = -k; i <= k; ++i)
    for (int j = -k; j <= k; ++j)
      if (std::hypot(i * spacing, j * spacing) <= rmax) layer.push_back({i, j});
  if (layer.empty()) throw cases::InputError("ellipsoid_pour: tube_radius too small for the bodies");
  const int layers = (p.n + static_cast<int>(layer.size()) - 1) / static_cast<int>(layer.size());
  Tube t;
  t.radius = p.tube_radius;
  t.axis = axis;
  t.length = layers * spacing + gap + p.lead;
  const Vec3 outlet(0, 0, p.outlet_height);
  t.top = outlet - t.length * axis;
  s.tube = t;
  std::mt19937_64 rng(p.seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto& shapes = pour_shapes();
  for (int b = 0; b < p.n; ++b) {
    const int l = b / static_cast<int>(layer.size());
    const auto [i, j] = layer[b % layer.size()];
    const Vec3 x = t.top + (gap + spacing / 2 + l * spacing) * axis + i * spacing * e1 + j * spacing * e2;
    Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
    s.bodies.push_back(make_body(b % 4, shapes[b % 4], 1000, x, q));
  }
  return s;
}

Geometry plane_contact(const Vec3& c, const Mat3& M, double h) {
  const Vec3 n(0, 0, 1);
  const double s = support(M, n);
  return {n, c - M * n / s, c.z() - h - s};
}

TubeGeometry tube_contact(const Tube& t, const Vec3& c, const Mat3& M) {
  // basis of the cross-section
  const Vec3 other = std::abs(t.axis.x()) < 0.6 ? Vec3(1, 0, 0) : Vec3(0, 1, 0);
  const Vec3 e1 = t.axis.cross(other).normalized(), e2 = t.axis.cross(e1);
  const Vec3 rel = c - t.top;
  const double xi = rel.dot(t.axis);
  const double q1 = rel.dot(e1), q2 = rel.dot(e2);
  const double m11 = e1.dot(M * e1), m12 = e1.dot(M * e2), m22 = e2.dot(M * e2);
  // phi(θ) = cosθ q1 + sinθ q2 + sqrt(S(θ)), S = m11 c² + 2 m12 c s + m22 s²
  auto phi = [&](double th, double* d1, double* d2) {
    const double cs = std::cos(th), sn = std::sin(th);
    const double S = m11 * cs * cs + 2 * m12 * cs * sn + m22 * sn * sn;
    const double h = std::sqrt(S);
    const double s1 = (m22 - m11) * std::sin(2 * th) + 2 * m12 * std::cos(2 * th);
    const double s2 = 2 * (m22 - m11) * std::cos(2 * th) - 4 * m12 * std::sin(2 * th);
    if (d1) *d1 = -sn * q1 + cs * q2 + s1 / (2 * h);
    if (d2) *d2 = -cs * q1 - sn * q2 + s2 / (2 * h) - s1 * s1 / (4 * h * h * h);
    return cs * q1 + sn * q2 + h;
  };
  double best = -1, best_phi = -INFINITY;
  for (int k = 0; k < 8; ++k) {
    const double th = k * M_PI / 4, f = phi(th, nullptr, nullptr);
    if (f > best_phi) best_phi = f, best = th;
  }
  for (int it = 0; it < 30; ++it) {  // safeguarded Newton on phi' = 0
    double d1 = 0, d2 = 0;
    phi(best, &d1, &d2);
    double step = d2 < 0 ? -d1 / d2 : (d1 > 0 ? 0.1 : -0.1);
    step = std::clamp(step, -0.5, 0.5);
    double f = phi(best + step, nullptr, nullptr);
    while (!(f >= best_phi) && std::abs(step) > 1e-18) {
      step /= 2;
      f = phi(best + step, nullptr, nullptr);
    }
    if (!(f >= best_phi)) break;
    best += step;
    best_phi = f;
    if (std::abs(step) < 1e-15) break;
  }
  const Vec3 u = std::cos(best) * e1 + std::sin(best) * e2;  // outward, radial
  TubeGeometry out;
  const double h = support(M, u);
  out.geo = {-u, c + M * u / h, t.radius - best_phi};
  const double xi_point = (out.geo.point - t.top).dot(t.axis);
  out.inside = std::hypot(q1, q2) < t.radius && xi_point >= 0 && xi_point <= t.length;
  (void)xi;
  return out;
}

cases::EllipsoidContactQuery pair_query(const Body& a, const Body& b) {
  cases::EllipsoidContactQuery q;
  q.a.centre = a.x;
  q.a.semi_axes = a.semi_axes;
  q.a.quaternion = Eigen::Vector4d(a.q.w(), a.q.x(), a.q.y(), a.q.z());
  q.b.centre = b.x;
  q.b.semi_axes = b.semi_axes;
  q.b.quaternion = Eigen::Vector4d(b.q.w(), b.q.x(), b.q.y(), b.q.z());
  return q;
}

Geometry pair_geometry(const cases::EllipsoidContactResult& r, const Vec3& ca, const Mat3& Ma,
                       const Vec3& cb, const Mat3& Mb) {
  if (!(r.normal.squaredNorm() > 0)) {  // coincident centres: no direction
    const Vec3 n(0, 0, 1);
    return {n, ca, -(support(Ma, n) + support(Mb, n))};
  }
  const Vec3 n = r.normal.normalized();
  return {n, r.point, (std::sqrt(r.F) - 1) * (support(Ma, n) + support(Mb, n))};
  (void)cb;
}

}  // namespace pour

namespace {

using namespace pour;

struct Certification {
  long steps = 0, queries = 0, agree = 0, boundary = 0, wrong = 0, out_of_domain = 0;
  std::map<std::string, long> states;  // reference states
  nlohmann::json examples = nlohmann::json::array();
};

void certify(Certification& c, const std::vector<PairDecision>& ds, int step) {
  std::vector<cases::EllipsoidContactQuery> qs;
  qs.reserve(ds.size());
  for (const auto& d : ds) qs.push_back(d.query);
  const auto ev = evaluate<EllipsoidContactPair>(qs);
  ++c.steps;
  for (std::size_t k = 0; k < ev.size(); ++k) {
    ++c.queries;
    ++c.states[ev[k].reference.state];
    switch (ev[k].verdict) {
      case Verdict::agree: ++c.agree; break;
      case Verdict::boundary: ++c.boundary; break;
      case Verdict::out_of_domain: ++c.out_of_domain; break;
      default: ++c.wrong; break;
    }
    if (ev[k].verdict != Verdict::agree && c.examples.size() < 10)
      c.examples.push_back({{"step", step}, {"i", ds[k].i}, {"j", ds[k].j},
                            {"verdict", to_string(ev[k].verdict)},
                            {"detail", describe(ev[k].comparison)}});
  }
}

nlohmann::json frame(const std::vector<Body>& bodies, int step, double t) {
  nlohmann::json x = nlohmann::json::array(), q = nlohmann::json::array(), shape = nlohmann::json::array();
  for (const auto& b : bodies) {
    x.push_back({b.x.x(), b.x.y(), b.x.z()});
    q.push_back({b.q.w(), b.q.x(), b.q.y(), b.q.z()});
    shape.push_back(b.shape);
  }
  return {{"step", step}, {"t", t}, {"x", x}, {"q", q}, {"shape", shape}};
}

// Least-squares line y = a + b x.
std::pair<double, double> fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  if (n < 2) return {NAN, NAN};
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  const double b = sxx > 0 ? sxy / sxx : NAN;
  return {my - b * mx, b};
}

struct Series {
  std::vector<double> t, kinetic, penetration, pair_penetration, plane_penetration, tube_penetration;
  std::vector<int> candidates, narrow, contacts, pair_contacts, plane_contacts, tube_contacts,
      active, colliding;
  std::array<std::vector<double>, 4> phase_ns;
  void add(const StepStats& s, double time, double ke) {
    t.push_back(time);
    kinetic.push_back(ke);
    penetration.push_back(s.penetration);
    pair_penetration.push_back(s.pair_penetration);
    plane_penetration.push_back(s.plane_penetration);
    tube_penetration.push_back(s.tube_penetration);
    candidates.push_back(s.candidates);
    narrow.push_back(s.narrow);
    contacts.push_back(s.contacts);
    pair_contacts.push_back(s.pair_contacts);
    plane_contacts.push_back(s.plane_contacts);
    tube_contacts.push_back(s.tube_contacts);
    active.push_back(s.active);
    colliding.push_back(s.colliding);
    for (int k = 0; k < 4; ++k) phase_ns[k].push_back(static_cast<double>(s.phase_ns[k]));
  }
  double total_ns(std::size_t k) const {
    return phase_ns[0][k] + phase_ns[1][k] + phase_ns[2][k] + phase_ns[3][k];
  }
  nlohmann::json to_json() const {
    return {{"t", t}, {"kinetic", kinetic}, {"penetration", penetration},
            {"pair_penetration", pair_penetration}, {"plane_penetration", plane_penetration},
            {"tube_penetration", tube_penetration},
            {"candidates", candidates}, {"narrow", narrow}, {"contacts", contacts},
            {"pair_contacts", pair_contacts}, {"plane_contacts", plane_contacts},
            {"tube_contacts", tube_contacts}, {"active", active}, {"colliding", colliding},
            {"precomputation_ns", phase_ns[0]}, {"detection_ns", phase_ns[1]},
            {"resolution_ns", phase_ns[2]}, {"final_ns", phase_ns[3]}};
  }
};

}  // namespace

int run_ellipsoid_pour(const ScenarioOptions& o) {
  if (o.variant != "fast" && o.variant != "reference" && o.variant != "both")
    cases::Where{"--variant", o.variant}.fail("variant", "must be fast, reference or both");
  ParamReader in("ellipsoid_pour", o);
  PourParams pp;
  pp.n = in.get_int("N", 1000, 1, 20000);
  const int steps = in.get_int("steps", 1500, 1, 100000);
  pp.seed = static_cast<std::uint64_t>(in.get_int("seed", 1, 0, 1 << 30));
  pp.dt = in.get_double("dt", 1e-3, 1e-5, 1e-2);
  pp.iterations = in.get_int("iterations", 2, 1, 50);
  const int certify_every = in.get_int("certify_every", 10, 0, 100000);
  const int ref_n = in.get_int("ref_n", 100, 2, 2000);
  const int ref_steps = in.get_int("ref_steps", 300, 0, 10000);
  const std::vector<int> scaling = in.get_int_list("scaling", {100, 300, 1000, 3000}, 1, 20000);
  const int scaling_steps = in.get_int("scaling_steps", 250, 4, 10000);
  const int threads = in.get_int("threads", 1, 1, 2);
  in.done();
  const bool both = o.variant == "both";
  const bool parallel = threads == 2;

  nlohmann::json out = scenario_header("ellipsoid_pour");
  const Scene scene = pour_scene(pp);
  const Tube& tube = *scene.tube;
  nlohmann::json shapes = nlohmann::json::array();
  for (const auto& s : pour_shapes()) shapes.push_back({s.x(), s.y(), s.z()});
  out["params"] = {{"N", pp.n}, {"steps", steps}, {"seed", pp.seed}, {"dt", pp.dt},
                   {"certify_every", both ? certify_every : 0}, {"ref_n", ref_n},
                   {"ref_steps", both ? ref_steps : 0}, {"scaling", scaling},
                   {"scaling_steps", scaling_steps}, {"threads", parallel ? "tbb (wall-clock phase times)" : "1 (thread CPU time per phase)"},
                   {"kernels", o.variant == "reference" ? "reference" : "fast"},
                   {"mu_pair", scene.mu_pair}, {"mu_plane", scene.mu_plane}, {"mu_tube", scene.mu_tube},
                   {"directions", scene.directions}, {"sweeps", scene.sweeps}, {"iterations", scene.iterations},
                   {"slop", scene.slop}, {"push", scene.push}, {"density", 1000},
                   {"units", {{"length", "m"}, {"time", "s"}, {"mass", "kg"}, {"energy", "J"}}}};
  out["geometry"] = {{"shapes", shapes},
                     {"tube", {{"top", {tube.top.x(), tube.top.y(), tube.top.z()}},
                               {"axis", {tube.axis.x(), tube.axis.y(), tube.axis.z()}},
                               {"radius", tube.radius}, {"length", tube.length},
                               {"incline_deg", pp.incline_deg}}},
                     {"plane_z", 0.0}};

  // ---- the pour ------------------------------------------------------------------------
  Series series;
  Certification cert;
  nlohmann::json frames = nlohmann::json::array();
  const std::set<int> frame_steps = {0, steps / 3, (2 * steps) / 3, steps};
  auto pour_run = [&](auto sim) {
    frames.push_back(frame(sim.bodies(), 0, 0));
    for (int k = 1; k <= steps; ++k) {
      const StepStats st = sim.step();
      series.add(st, sim.time(), sim.kinetic_energy());
      if (both && certify_every > 0 && k % certify_every == 0) certify(cert, sim.decisions(), k);
      if (frame_steps.count(k)) frames.push_back(frame(sim.bodies(), k, sim.time()));
      if (o.progress && k % 100 == 0)
        fmt::print(stderr, "\rellipsoid_pour: step {}/{}, {} contacts", k, steps, st.contacts);
    }
    if (o.progress) fmt::print(stderr, "\n");
  };
  if (o.variant == "reference")
    pour_run(Simulator<ReferenceKernels>(scene, parallel));
  else
    pour_run(Simulator<FastKernels>(scene, parallel));
  out["series"] = series.to_json();
  out["key_frames"] = frames;

  // The paper's table: statistics at six moments of the pour (time per step: mean over the
  // 21 steps around the moment).
  nlohmann::json table = nlohmann::json::array();
  for (int m = 1; m <= 6; ++m) {
    const int k = std::max(1, (m * steps) / 6) - 1;
    const int lo = std::max(0, k - 10), hi = std::min(steps - 1, k + 10);
    double total = 0;
    for (int j = lo; j <= hi; ++j) total += series.total_ns(j);
    table.push_back({{"step", k + 1}, {"t", series.t[k]}, {"colliding", series.colliding[k]},
                     {"contacts", series.contacts[k]}, {"active", series.active[k]},
                     {"narrow", series.narrow[k]},
                     {"ms_per_step", total / (hi - lo + 1) / 1e6}});
  }
  out["table"] = table;
  {
    std::vector<double> x, y;
    for (std::size_t k = 1; k < series.t.size(); ++k)  // the first step allocates: left out
      x.push_back(series.contacts[k]), y.push_back(series.total_ns(k));
    const auto [a, b] = fit_line(x, y);
    double mean = 0;
    for (double v : y) mean += v;
    out["cost"] = {{"ns_per_contact", b}, {"intercept_ns", a},
                   {"mean_ms_per_step", y.empty() ? NAN : mean / y.size() / 1e6}};
  }
  if (both)
    out["certification"] = {{"sampled", fmt::format("every narrow-phase query of every {}th step", certify_every)},
                            {"steps", cert.steps}, {"queries", cert.queries}, {"agree", cert.agree},
                            {"boundary", cert.boundary}, {"wrong", cert.wrong},
                            {"out_of_domain", cert.out_of_domain}, {"reference_states", cert.states},
                            {"examples", cert.examples}};

  // ---- reference-kernel trajectory against the fast one --------------------------------
  if (both && ref_steps > 0) {
    PourParams rp = pp;
    rp.n = ref_n;
    const Scene rs = pour_scene(rp);
    Simulator<FastKernels> fast_sim(rs, parallel);
    Simulator<ReferenceKernels> ref_sim(rs, parallel);
    std::vector<double> diff;
    int first_differing = -1;
    std::string what;
    for (int k = 1; k <= ref_steps; ++k) {
      fast_sim.step();
      ref_sim.step();
      double d = 0;
      for (std::size_t i = 0; i < rs.bodies.size(); ++i)
        d = std::max(d, (fast_sim.bodies()[i].x - ref_sim.bodies()[i].x).norm());
      diff.push_back(d);
      if (first_differing < 0) {
        const auto &a = fast_sim.decisions(), &b = ref_sim.decisions();
        if (a.size() != b.size()) {
          first_differing = k;
          what = fmt::format("{} narrow-phase pairs (fast) against {} (reference)", a.size(), b.size());
        } else {
          for (std::size_t m = 0; m < a.size(); ++m)
            if (a[m].i != b[m].i || a[m].j != b[m].j || a[m].result.state != b[m].result.state) {
              first_differing = k;
              what = fmt::format("pair ({}, {}): {} (fast) against {} (reference)", a[m].i, a[m].j,
                                 a[m].result.state, b[m].result.state);
              break;
            }
        }
      }
      if (o.progress && k % 20 == 0) fmt::print(stderr, "\rellipsoid_pour: reference trajectory {}/{}", k, ref_steps);
    }
    if (o.progress) fmt::print(stderr, "\n");
    double before = 0;
    for (int k = 0; k < (first_differing < 0 ? ref_steps : first_differing - 1); ++k) before = std::max(before, diff[k]);
    out["trajectory"] = {{"N", ref_n}, {"steps", ref_steps},
                         {"first_differing_step", first_differing}, {"difference", what},
                         {"max_position_difference_before", before},
                         {"position_difference", diff}};
  }

  // ---- scaling over N ------------------------------------------------------------------
  nlohmann::json rows = nlohmann::json::array();
  for (int n : scaling) {
    PourParams sp = pp;
    sp.n = n;
    Simulator<FastKernels> sim(pour_scene(sp), parallel);
    std::vector<double> ns, contacts;
    for (int k = 1; k <= scaling_steps; ++k) {
      const StepStats st = sim.step();
      if (k > scaling_steps - scaling_steps / 4)
        ns.push_back(static_cast<double>(st.phase_ns[0] + st.phase_ns[1] + st.phase_ns[2] + st.phase_ns[3])),
            contacts.push_back(st.contacts);
    }
    const double mean_ns = std::accumulate(ns.begin(), ns.end(), 0.0) / ns.size();
    const double mean_contacts = std::accumulate(contacts.begin(), contacts.end(), 0.0) / contacts.size();
    rows.push_back({{"N", n}, {"steps", scaling_steps}, {"window", ns.size()},
                    {"ms_per_step", mean_ns / 1e6}, {"contacts", mean_contacts}});
    if (o.progress) fmt::print(stderr, "ellipsoid_pour: N = {}: {:.3f} ms per step\n", n, mean_ns / 1e6);
  }
  {
    std::vector<double> x, y;
    for (const auto& r : rows) x.push_back(r["N"].get<double>()), y.push_back(r["ms_per_step"].get<double>());
    const auto [a, b] = fit_line(x, y);
    out["scaling"] = {{"rows", rows}, {"ms_per_body", b}, {"intercept_ms", a},
                      {"window", "mean over the last quarter of the steps"}};
  }

  write_json(o.out_dir + "/ellipsoid_pour.json", out);
  fmt::print("ellipsoid_pour: N = {}, {} steps, {:.3f} ms per step (mean), {:.1f} ns per contact{}\n",
             pp.n, steps, out["cost"]["mean_ms_per_step"].get<double>(),
             out["cost"]["ns_per_contact"].get<double>(),
             both ? fmt::format("; certified {} queries: {} agree, {} boundary, {} wrong", cert.queries,
                                cert.agree, cert.boundary, cert.wrong)
                  : "");
  return cert.wrong ? 1 : 0;
}

}  // namespace contactbench::harness
