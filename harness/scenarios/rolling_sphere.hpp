// Scenario rolling_sphere (issue 3; DESIGN.md "rolling sphere"): a compliant sphere rolling
// across triangulated planes (regular grid with diagonals, irregular) and an ideal plane, and
// oscillating in a triangulated half-cylinder trough, in every contact mode (raw, smoothed and,
// since issue 10, pfc_reduced, pfc_full, pfc_pc: dem.hpp), with fast and with reference kernels. `contactbench run rolling_sphere` writes
// <out_dir>/rolling_sphere.json (schema contactbench.run/1, scenario "rolling_sphere").
#pragma once
#include "harness/scenario.hpp"
#include "harness/scenarios/dem.hpp"

#include <cmath>
#include <memory>
#include <vector>

namespace contactbench::harness {

int run_rolling_sphere(const ScenarioOptions& o);

namespace rolling {

using cases::Vec3;

// Time series sampled every `every` steps.
struct Series {
  std::vector<double> t, x, y, z, vx, vz, wy, fx, fz;
  std::vector<int> contacts;
};

template <class K>
void sample(Series& s, const dem::Stepper<K>& st) {
  const auto& x = st.state();
  const Vec3 f = st.contact_force();
  s.t.push_back(x.t);
  s.x.push_back(x.x.x());
  s.y.push_back(x.x.y());
  s.z.push_back(x.x.z());
  s.vx.push_back(x.v.x());
  s.vz.push_back(x.v.z());
  s.wy.push_back(x.w.y());
  s.fx.push_back(f.x());
  s.fz.push_back(f.z());
  s.contacts.push_back(static_cast<int>(st.contacts().size()));
}

// Steps `duration / p.dt` times from state s, sampling every `every` steps.
template <class K>
Series run_series(std::shared_ptr<const cases::Mesh> mesh, const dem::Params& p,
                  const dem::State& s, double duration, int every) {
  dem::Stepper<K> st(std::move(mesh), p, s);
  Series out;
  const long steps = std::lround(duration / p.dt);
  for (long i = 0; i < steps; ++i) {
    st.step();
    if ((i + 1) % every == 0) sample(out, st);
  }
  return out;
}

// Equilibrium overlap of a sphere resting on one face: m g / kn.
inline double rest_overlap(const dem::Params& p) {
  const double m = p.density * 4.0 / 3.0 * std::acos(-1.0) * std::pow(p.radius, 3);
  return m * p.gravity.norm() / p.kn;
}

// Rolling without slipping along +x at speed v0 from (x0, y0) on a plane z = 0.
template <class K>
Series roll_plane(std::shared_ptr<const cases::Mesh> mesh, dem::Params p, double x0, double y0,
                  double v0, double duration, int every) {
  const double rho = p.radius - rest_overlap(p);  // centre height at rest = rolling radius
  dem::State s;
  s.x = Vec3(x0, y0, rho);
  s.v = Vec3(v0, 0, 0);
  s.w = Vec3(0, v0 / p.radius, 0);  // contact point at rest: v + w x (-radius z) = 0 (dem.hpp)
  return run_series<K>(std::move(mesh), p, s, duration, every);
}

// Trough geometry: axis along y at height R; angle from the bottom, positive towards +x.
inline double trough_angle(double x, double z, double R) { return std::atan2(x, R - z); }

// Start at rest at angle theta0, touching the faceted surface with the rest overlap.
template <class K>
Series swing_trough(std::shared_ptr<const cases::Mesh> mesh, double R, dem::Params p,
                    double theta0, double duration, int every) {
  const Vec3 axis(0, 0, R), dir(std::sin(theta0), 0, -std::cos(theta0));
  const double target = p.radius - rest_overlap(p);
  double rho = R - target;
  for (int it = 0; it < 3; ++it) {  // the facets are chords: move out to the target distance
    double dmin = 1e300;
    const Vec3 c = axis + rho * dir;
    for (int f = 0; f < mesh->facet_count(); ++f) {
      const auto cf = fast::closest_feature({c, mesh->vertex(f, 0), mesh->vertex(f, 1), mesh->vertex(f, 2)});
      dmin = std::min(dmin, std::sqrt(cf.squared_distance));
    }
    rho += dmin - target;
  }
  dem::State s;
  s.x = axis + rho * dir;
  return run_series<K>(std::move(mesh), p, s, duration, every);
}

// Period from the zero crossings of theta(t) (linear interpolation): 2 x mean half period.
// NaN with fewer than two crossings.
double period_from_crossings(const std::vector<double>& t, const std::vector<double>& theta);

// Analytic rolling period in a circular trough: (7/5)(R - r) theta'' = -g sin(theta), a
// pendulum of length 7(R - r)/5: T0 = 2 pi sqrt(7(R - r)/(5 g)) for small amplitude, and
// T0 / AGM(1, cos(theta0/2)) for amplitude theta0 (exact pendulum period).
double trough_period(double R, double r, double g, double theta0);

// Internal edges of a plane mesh crossed by the segment y = y0, x in [xa, xb]; their x.
std::vector<double> crossings(const cases::Mesh& m, double y0, double xa, double xb);

}  // namespace rolling
}  // namespace contactbench::harness
