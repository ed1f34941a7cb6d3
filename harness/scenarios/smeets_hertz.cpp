#include "harness/scenarios/smeets_hertz.hpp"

#include "cases/icosphere.hpp"
#include "fast/rounded_triangle_contact.hpp"
#include "harness/output.hpp"
#include "harness/pairs/rounded_triangle_contact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <string>

namespace contactbench::harness {
namespace smeets {

using cases::Vec3;
constexpr double pi = std::numbers::pi;

double hertz_force(double e_star, double r_star, double delta) {
  return 4.0 / 3.0 * e_star * std::sqrt(r_star) * std::pow(delta, 1.5);
}

double pair_pressure(double e_star, double r_star, double delta_s, double delta_t) {
  return 2 * e_star / pi * std::sqrt(std::max(0.0, 2 * delta_t - delta_s) / r_star);
}

namespace {

double cross(const V2& a, const V2& b) { return a[0] * b[1] - a[1] * b[0]; }

// Signed area of the triangle (origin, a, b) intersected with the disc of radius r: the
// segment ab is split where it crosses the circle; a piece inside the disc contributes its
// triangle, a piece outside the circular sector it subtends.
double triangle_disc_area(const V2& a, const V2& b, double r) {
  const V2 e{b[0] - a[0], b[1] - a[1]};
  // |a + t e|² = r²: t² |e|² + 2t a·e + |a|² − r² = 0.
  const double A = e[0] * e[0] + e[1] * e[1], B = a[0] * e[0] + a[1] * e[1],
               C = a[0] * a[0] + a[1] * a[1] - r * r;
  std::vector<double> ts = {0.0};
  const double disc = B * B - A * C;
  if (A > 0 && disc > 0) {
    const double s = std::sqrt(disc);
    for (double t : {(-B - s) / A, (-B + s) / A})
      if (t > 0 && t < 1) ts.push_back(t);
  }
  ts.push_back(1.0);
  double area = 0;
  for (std::size_t i = 0; i + 1 < ts.size(); ++i) {
    const V2 p{a[0] + ts[i] * e[0], a[1] + ts[i] * e[1]}, q{a[0] + ts[i + 1] * e[0], a[1] + ts[i + 1] * e[1]};
    const double tm = (ts[i] + ts[i + 1]) / 2;
    const V2 m{a[0] + tm * e[0], a[1] + tm * e[1]};
    if (m[0] * m[0] + m[1] * m[1] < r * r)  // strictly: a tangent segment is outside
      area += cross(p, q) / 2;
    else
      area += r * r / 2 * std::atan2(cross(p, q), p[0] * q[0] + p[1] * q[1]);
  }
  return area;
}

// ∫_0^r0 f(r) dr for f vanishing like sqrt(r0 − r) at r0: r = r0 (1 − s²) makes the
// integrand smooth; composite Simpson on s in [0, 1].
template <class F>
double integrate_to_root(double r0, F f) {
  const int n = 4000;
  auto g = [&](double s) { return f(r0 * (1 - s * s)) * 2 * r0 * s; };
  double sum = g(0) + g(1);
  for (int i = 1; i < n; ++i) sum += (i % 2 ? 4 : 2) * g(static_cast<double>(i) / n);
  return sum / (3.0 * n);
}

// An orthonormal frame (u1, u2) of the plane perpendicular to d.
std::pair<Vec3, Vec3> plane_frame(const Vec3& d) {
  const Vec3 n = d.normalized();
  Vec3 a = Vec3::Zero();
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(n[i]) < std::abs(n[k])) k = i;
  a[k] = 1;
  const Vec3 u1 = n.cross(a).normalized();
  return {u1, n.cross(u1)};
}

}  // namespace

double polygon_disc_area(const std::vector<V2>& poly, double r) {
  if (poly.size() < 3) return 0;
  double area = 0;
  for (std::size_t i = 0; i < poly.size(); ++i)
    area += triangle_disc_area(poly[i], poly[(i + 1) % poly.size()], r);
  return std::abs(area);
}

double SpherePair::rc() const {
  const double half = radius - delta / 2;
  return std::sqrt(radius * radius - half * half);
}

double SpherePair::delta_t(double r) const {
  // R − sqrt(R² − r²) without cancellation, twice (equal radii).
  return delta - 2 * r * r / (radius + std::sqrt(std::max(0.0, radius * radius - r * r)));
}

double SpherePair::pressure(double r) const { return pair_pressure(e_star, r_star(), delta, delta_t(r)); }

double SpherePair::support() const {
  double lo = 0, hi = rc();  // 2δ_t − δ_s: δ_s at 0, −δ_s at rc; decreasing in r
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const double mid = (lo + hi) / 2;
    (2 * delta_t(mid) - delta > 0 ? lo : hi) = mid;
  }
  return lo;
}

double SpherePair::limit_force() const {
  return integrate_to_root(support(), [&](double r) { return pressure(r) * 2 * pi * r; });
}

double SpherePair::excess_bound(double d) const {
  // ∫_0^{r0+d} p(max(0, r − d)) 2πr dr − F_limit = π d² p(0) + 2π d ∫_0^{r0} p(s) ds.
  return pi * d * d * pressure(0) + 2 * pi * d * integrate_to_root(support(), [&](double r) { return pressure(r); });
}

Vec3 hertz_direction() { return Vec3(0.8, 0.36, 0.48).normalized(); }

HertzSetup hertz_setup(const cases::Mesh& mesh, double radius, double e_star, double overlap) {
  HertzSetup s;
  s.direction = hertz_direction();
  s.radius = radius;
  s.e_star = e_star;
  s.delta = overlap * radius;
  const double half = radius - s.delta / 2;
  s.c1 = -half * s.direction;
  s.c2 = half * s.direction;
  s.enclosing_radius = radius * (1 + std::ldexp(1.0, -40));
  const SpherePair sp{radius, s.delta, e_star};
  const double rc = sp.rc();
  const auto frame = plane_frame(s.direction);  // no structured binding: a lambda captures these
  const auto& u1 = frame.first;
  const auto& u2 = frame.second;
  // Facets of one body that face the other and whose projection may meet disc(c, r_c); the
  // contact plane's centre c is the origin (equal radii, centres symmetric about it).
  auto candidates = [&](const Vec3& centre, double side) {
    std::vector<std::array<Vec3, 3>> out;
    for (int f = 0; f < mesh.facet_count(); ++f) {
      if (!(side * mesh.normal(f).dot(s.direction) > 0)) continue;
      std::array<Vec3, 3> t;
      V2 p[3];
      for (int k = 0; k < 3; ++k) {
        t[k] = centre + mesh.vertex(f, k);
        p[k] = {t[k].dot(u1), t[k].dot(u2)};
      }
      const V2 g{(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3};
      double rho = 0;
      for (const V2& x : p) rho = std::max(rho, std::hypot(x[0] - g[0], x[1] - g[1]));
      if (std::hypot(g[0], g[1]) <= rc + rho + 1e-9 * radius) out.push_back(t);
    }
    return out;
  };
  const auto ps = candidates(s.c1, 1), qs = candidates(s.c2, -1);
  s.candidates_p = static_cast<int>(ps.size());
  s.candidates_q = static_cast<int>(qs.size());
  for (const auto& p : ps)
    for (const auto& q : qs) s.pairs.push_back({p, q, s.c1, s.c2, s.enclosing_radius, s.enclosing_radius});
  return s;
}

double pair_force(const cases::RoundedTriangleContactQuery& q, const cases::RoundedTriangleContactResult& r,
                  double e_star) {
  if (!r.contact) return 0;
  const Vec3 d = q.c2 - q.c1;
  const double t = (d.squaredNorm() + q.r1 * q.r1 - q.r2 * q.r2) / (2 * d.squaredNorm());
  const Vec3 c = q.c1 + t * d;
  const double rc = std::sqrt(std::max(0.0, q.r1 * q.r1 - t * t * d.squaredNorm()));
  const auto [u1, u2] = plane_frame(d);
  std::vector<V2> poly;
  for (const Vec3& v : r.polygon) poly.push_back({(v - c).dot(u1), (v - c).dot(u2)});
  const double r_star = q.r1 * q.r2 / (q.r1 + q.r2);
  return pair_pressure(e_star, r_star, r.delta_s, r.delta_t) * polygon_disc_area(poly, rc);
}

HertzRow hertz_row(const cases::Mesh& mesh, int level, double radius, double e_star, double overlap) {
  const HertzSetup s = hertz_setup(mesh, radius, e_star, overlap);
  HertzRow row;
  row.level = level;
  row.triangles = mesh.facet_count();
  row.overlap = overlap;
  row.candidates_p = s.candidates_p;
  row.candidates_q = s.candidates_q;
  row.pairs = static_cast<long>(s.pairs.size());
  for (const auto& q : s.pairs) {
    const auto r = fast::rounded_triangle_contact(q);
    row.contact_pairs += r.contact;
    row.force += pair_force(q, r, e_star);
  }
  for (const auto& e : mesh.edges())
    row.max_edge = std::max(row.max_edge, (mesh.vertices()[e.v1] - mesh.vertices()[e.v0]).norm());
  const SpherePair sp{radius, s.delta, e_star};
  row.hertz = hertz_force(e_star, sp.r_star(), s.delta);
  row.limit = sp.limit_force();
  row.excess_bound = sp.excess_bound(row.max_edge);
  return row;
}

}  // namespace smeets

int run_smeets_hertz(const ScenarioOptions& o) {
  using namespace smeets;
  if (o.variant != "fast" && o.variant != "reference" && o.variant != "both")
    cases::Where{"--variant", o.variant}.fail("variant", "must be fast, reference or both");
  ParamReader in("smeets_hertz", o);
  const int max_level = in.get_int("max_level", 5, 0, 6);
  const double radius = in.get_positive("radius", 1.0);
  const double e_star = in.get_positive("e_star", 1e6);
  const int spot = in.get_int("spot_checks", 60, 0, 100000);
  in.done();
  const std::vector<double> overlaps = {0.005, 0.02, 0.08};  // δ / R
  const bool check_reference = o.variant != "fast" && spot > 0;

  nlohmann::json out = scenario_header("smeets_hertz");
  const Vec3 e = hertz_direction();
  out["params"] = {{"radius", radius}, {"e_star", e_star}, {"r_star", radius / 2},
                   {"enclosing_radius", radius * (1 + std::ldexp(1.0, -40))},
                   {"direction", {e.x(), e.y(), e.z()}}, {"overlaps", overlaps},
                   {"max_level", max_level}, {"sweep_kernel", "fast"},
                   {"spot_checks_per_point", check_reference ? spot : 0},
                   {"units", {{"length", "m"}, {"e_star", "Pa"}, {"force", "N"}}}};
  out["law"] =
      "F = sum over facet pairs in contact of (2E*/pi) sqrt(max(0, 2 delta_t - delta_s)/R*) "
      "times area(S within the contact circle); Hertz: F = 4/3 E* sqrt(R*) delta^(3/2)";
  auto& rows = out["rows"] = nlohmann::json::array();
  auto& spots = out["spot_checks"] = nlohmann::json::array();
  int wrong = 0;
  for (int level = 0; level <= max_level; ++level) {
    const cases::Mesh mesh = cases::icosphere(level, radius);
    for (double overlap : overlaps) {
      const HertzRow r = hertz_row(mesh, level, radius, e_star, overlap);
      rows.push_back({{"level", r.level}, {"triangles", r.triangles}, {"overlap", r.overlap},
                      {"delta", r.overlap * radius}, {"candidates_p", r.candidates_p},
                      {"candidates_q", r.candidates_q}, {"pairs", r.pairs},
                      {"contact_pairs", r.contact_pairs}, {"max_edge", r.max_edge},
                      {"force", r.force}, {"hertz", r.hertz}, {"limit", r.limit},
                      {"excess_bound", r.excess_bound},
                      {"error_hertz", r.force / r.hertz - 1}, {"error_limit", r.force / r.limit - 1}});
      if (o.progress)
        fmt::print(stderr, "smeets_hertz: {} triangles, delta/R {}: F/F_Hertz - 1 = {:.3g}\n",
                   r.triangles, overlap, r.force / r.hertz - 1);
      if (!check_reference) continue;
      // Spot check: up to `spot` candidate pairs, half of them from the pairs in contact,
      // evenly spaced, judged by the family's own rule (reference vs fast), plus each
      // pair's force from both results.
      const HertzSetup s = hertz_setup(mesh, radius, e_star, overlap);
      std::vector<std::size_t> touching, other;
      for (std::size_t i = 0; i < s.pairs.size(); ++i)
        (fast::rounded_triangle_contact(s.pairs[i]).contact ? touching : other).push_back(i);
      std::vector<cases::RoundedTriangleContactQuery> qs;
      auto take = [&](const std::vector<std::size_t>& from, int n) {
        const std::size_t k = std::min<std::size_t>(from.size(), static_cast<std::size_t>(n));
        for (std::size_t j = 0; j < k; ++j) qs.push_back(s.pairs[from[j * from.size() / k]]);
      };
      take(touching, (spot + 1) / 2);
      take(other, spot - std::min<int>(static_cast<int>(touching.size()), (spot + 1) / 2));
      const auto ev = evaluate<RoundedTriangleContactPair>(qs);
      int counts[5] = {0, 0, 0, 0, 0};
      double max_force_diff = 0, max_dt = 0, max_h2 = 0, force_scale = 0;
      int contact_mismatch = 0;
      std::set<std::string> boundary_fields;  // decisions excused as boundary (within margin)
      for (std::size_t i = 0; i < qs.size(); ++i) {
        ++counts[static_cast<int>(ev[i].verdict)];
        for (const auto& m : ev[i].comparison.mismatches) boundary_fields.insert(m.field);
        if (!ev[i].fast) continue;  // outside the fast kernel's domain: counted, not compared
        const auto& ref = ev[i].reference;
        const auto& fst = ev[i].fast.value();
        contact_mismatch += ref.contact != fst.contact;
        const double fr = pair_force(qs[i], ref, e_star), ff = pair_force(qs[i], fst, e_star);
        force_scale = std::max(force_scale, std::abs(fr));
        max_force_diff = std::max(max_force_diff, std::abs(fr - ff));
        if (ref.contact && fst.contact) {
          max_dt = std::max(max_dt, std::abs(ref.delta_t - fst.delta_t) / radius);
          max_h2 = std::max(max_h2, std::abs(ref.h2 - fst.h2) / (radius * radius));
        }
      }
      wrong += counts[static_cast<int>(Verdict::wrong)];
      spots.push_back({{"level", level}, {"triangles", mesh.facet_count()}, {"overlap", overlap},
                       {"pairs", qs.size()}, {"in_contact", std::min<std::size_t>(touching.size(), (spot + 1) / 2)},
                       {"agree", counts[static_cast<int>(Verdict::agree)]},
                       {"boundary", counts[static_cast<int>(Verdict::boundary)]},
                       {"wrong", counts[static_cast<int>(Verdict::wrong)]},
                       {"contact_mismatches", contact_mismatch}, {"mismatched_fields", boundary_fields},
                       {"max_delta_t_error", max_dt}, {"max_h2_error", max_h2},
                       {"max_pair_force_error", force_scale > 0 ? max_force_diff / force_scale : 0.0}});
    }
  }
  write_json(o.out_dir + "/smeets_hertz.json", out);
  fmt::print("smeets_hertz: {} sweep points (fast kernel){}\n", rows.size(),
             check_reference ? fmt::format(", reference spot checks: {} wrong", wrong) : "");
  return wrong ? 1 : 0;
}

}  // namespace contactbench::harness
