#include "harness/scenarios/smeets_figures.hpp"

#include "cases/smeets_figures.hpp"
#include "fast/rounded_triangle_contact.hpp"
#include "harness/output.hpp"
#include "harness/pairs/rounded_triangle_contact.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace contactbench::harness {

namespace {

using cases::Vec3;
using nlohmann::json;

json xyz(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
json yz(const Vec3& v) { return {v.y(), v.z()}; }  // plane coordinates (contact plane x = const)
json num(double x) { return std::isfinite(x) ? json(x) : json(); }

json result_in_plane(const cases::RoundedTriangleContactResult& r) {
  json poly = json::array();
  for (const Vec3& v : r.polygon) poly.push_back(yz(v));
  return {{"facing", r.facing}, {"contact", r.contact}, {"polygon", poly},
          {"contact_point", r.contact_point.allFinite() ? yz(r.contact_point) : json()},
          {"h2", num(r.h2)}, {"delta_s", num(r.delta_s)}, {"delta_t", num(r.delta_t)}};
}

}  // namespace

int run_smeets_figures(const ScenarioOptions& o) {
  // The figures show both kernels side by side: any variant runs both.
  if (o.variant != "fast" && o.variant != "reference" && o.variant != "both")
    cases::Where{"--variant", o.variant}.fail("variant", "must be fast, reference or both");
  ParamReader in("smeets_figures", o);
  const int samples = in.get_int("samples", 24, 2, 10000);
  in.done();
  json out = scenario_header("smeets_figures");
  int wrong = 0;

  // S1 and S2: one exact pair.
  const auto fig = cases::smeets_figure_case();
  const auto& q = fig.query;
  const auto e = evaluate<RoundedTriangleContactPair>(q);
  wrong += e.verdict == Verdict::wrong;
  if (!e.fast) throw std::logic_error("smeets_figures: the S1/S2 case is outside the fast kernel's domain");
  const Vec3 d = q.c2 - q.c1;
  const double t = (d.squaredNorm() + q.r1 * q.r1 - q.r2 * q.r2) / (2 * d.squaredNorm());
  const Vec3 c = q.c1 + t * d;  // exact here: (0, 0, 0)
  const double rc = std::sqrt(q.r1 * q.r1 - t * t * d.squaredNorm());
  auto project = [&](const Vec3& x) { return Vec3(c.x(), x.y(), x.z()); };  // plane x = c.x
  json p3 = json::array(), q3 = json::array(), pp = json::array(), qp = json::array(),
       p2 = json::array(), q2 = json::array();
  for (int k = 0; k < 3; ++k) {
    p3.push_back(xyz(q.p[k]));
    q3.push_back(xyz(q.q[k]));
    pp.push_back(xyz(project(q.p[k])));
    qp.push_back(xyz(project(q.q[k])));
    p2.push_back(yz(q.p[k]));
    q2.push_back(yz(q.q[k]));
  }
  out["s1"] = {{"case", fig.name}, {"p", p3}, {"q", q3}, {"p_projected", pp}, {"q_projected", qp},
               {"c1", xyz(q.c1)}, {"c2", xyz(q.c2)}, {"r1", q.r1}, {"r2", q.r2}, {"c", xyz(c)},
               {"plane_x", c.x()}, {"rc", rc}};
  out["s2"] = {{"case", fig.name}, {"axes", {"y", "z"}}, {"p", p2}, {"q", q2}, {"c", yz(c)},
               {"rc", rc}, {"reference", result_in_plane(e.reference)},
               {"fast", result_in_plane(e.fast.value())}, {"verdict", to_string(e.verdict)}};

  // δ_t(h) for one pair of spheres: kernels on constructed queries, and the closed form.
  const double r1 = 1, r2 = 0.5, distance = 1.25;
  const auto curve = fast::delta_t_curve(r1, r2, distance, 200);
  const double rc_h = curve.back().first;
  std::vector<cases::RoundedTriangleContactQuery> qs;
  std::vector<double> hs;
  for (int i = 0; i <= samples; ++i) {
    hs.push_back(rc_h * i / samples);
    qs.push_back(cases::smeets_offset_query(r1, r2, distance, hs.back()));
  }
  const auto ev = evaluate<RoundedTriangleContactPair>(qs);
  json pts = json::array();
  double max_fast = 0, max_formula = 0;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    wrong += ev[i].verdict == Verdict::wrong;
    if (!ev[i].fast) continue;  // outside the fast kernel's domain (not for these inputs)
    const auto& ref = ev[i].reference;
    const auto& fst = *ev[i].fast;
    if (ref.contact && fst.contact) max_fast = std::max(max_fast, std::abs(ref.delta_t - fst.delta_t));
    const double formula = fast::delta_t_of_h(r1, r2, distance, hs[i]);
    if (ref.contact && std::isfinite(formula)) max_formula = std::max(max_formula, std::abs(ref.delta_t - formula));
    pts.push_back({{"h", hs[i]}, {"reference_contact", ref.contact}, {"reference_h2", num(ref.h2)},
                   {"reference", num(ref.delta_t)}, {"fast", num(fst.delta_t)},
                   {"verdict", to_string(ev[i].verdict)}});
  }
  json ch = json::array(), cd = json::array();
  for (const auto& [h, dt] : curve) {
    ch.push_back(h);
    cd.push_back(dt);
  }
  out["delta_t_of_h"] = {{"r1", r1}, {"r2", r2}, {"distance", distance}, {"delta_s", r1 + r2 - distance},
                         {"rc", rc_h}, {"curve", {{"h", ch}, {"delta_t", cd}}}, {"samples", pts},
                         {"max_fast_error", max_fast}, {"max_formula_error", max_formula}};
  write_json(o.out_dir + "/smeets_figures.json", out);
  fmt::print("smeets_figures: S1/S2 case {} ({} vertices in S, verdict {}); delta_t(h): {} queries, "
             "max |fast - reference| {:.3g}, max |formula - reference| {:.3g}\n",
             fig.name, e.reference.polygon.size(), to_string(e.verdict), qs.size(), max_fast, max_formula);
  return wrong ? 1 : 0;
}

}  // namespace contactbench::harness
