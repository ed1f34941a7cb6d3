// Suite rolling_sphere: the DEM stepper and the scenario's measurements on short runs —
// ideal plane invariants, raw vs smoothed speed loss, Woo's picture, trough period
// convergence, fast vs reference trajectories, and the helpers against closed forms.
#include "harness/scenarios/rolling_sphere.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace contactbench;
using namespace contactbench::harness;
using cases::Vec3;

namespace {
std::shared_ptr<const cases::Mesh> ideal() {
  return std::make_shared<const cases::Mesh>(std::vector<Vec3>{{-5, -5, 0}, {5, -5, 0}, {0, 5, 0}},
                                             std::vector<std::array<int, 3>>{{0, 1, 2}});
}
std::shared_ptr<const cases::Mesh> grid() {
  return std::make_shared<const cases::Mesh>(cases::grid_plane(14, 4, 0.1));
}
double mean_tail(const std::vector<double>& v) {
  double s = 0;
  const std::size_t n = v.size() / 10;
  for (std::size_t i = v.size() - n; i < v.size(); ++i) s += v[i];
  return s / n;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(rolling_sphere)

BOOST_AUTO_TEST_CASE(ideal_plane_rolls_at_constant_speed_and_height) {
  dem::Params p;
  const auto s = rolling::roll_plane<dem::FastKernels>(ideal(), p, 0.13, 0.175, 0.5, 0.5, 10);
  const double z_eq = p.radius - rolling::rest_overlap(p);
  for (std::size_t i = 0; i < s.t.size(); ++i) {
    BOOST_TEST_REQUIRE(std::abs(s.vx[i] - 0.5) <= 1e-12);
    BOOST_TEST_REQUIRE(std::abs(s.z[i] - z_eq) <= 1e-12);
  }
  BOOST_TEST(std::abs(s.x.back() - (0.13 + 0.5 * 0.5)) <= 1e-9);
}

BOOST_AUTO_TEST_CASE(dropped_sphere_settles_at_rest_overlap) {
  // Normal spring and damping: released 1 mm above the plane, the sphere comes to rest with
  // overlap m g / kn.
  dem::Params p;
  dem::State s;
  s.x = Vec3(0, 0, p.radius + 1e-3);
  dem::Stepper<dem::FastKernels> st(ideal(), p, s);
  for (int i = 0; i < 20000; ++i) st.step();
  BOOST_TEST(std::abs(st.state().x.z() - (p.radius - rolling::rest_overlap(p))) <= 1e-9);
  BOOST_TEST(st.state().v.norm() <= 1e-9);
  BOOST_TEST(std::abs(st.mass() * p.gravity.norm() / p.kn - rolling::rest_overlap(p)) <= 1e-18);
}

BOOST_AUTO_TEST_CASE(sliding_sphere_ends_rolling_at_five_sevenths) {
  // Coulomb friction and rotation: a sphere launched sliding without spin decelerates at
  // mu g while spinning up at (5/2) mu g / r, and rolls from then on at v = 5/7 v0
  // (independent of mu), after t = 2 v0 / (7 mu g).
  dem::Params p;
  dem::State s;
  s.x = Vec3(0, 0, p.radius - rolling::rest_overlap(p));
  s.v = Vec3(1.0, 0, 0);
  dem::Stepper<dem::FastKernels> st(ideal(), p, s);
  const double t_roll = 2 * 1.0 / (7 * p.mu * 9.81);
  while (st.state().t < 0.5 * t_roll) st.step();
  BOOST_TEST(std::abs(st.state().v.x() - (1.0 - p.mu * 9.81 * st.state().t)) <= 2e-3);
  while (st.state().t < 3 * t_roll) st.step();
  BOOST_TEST(std::abs(st.state().v.x() - 5.0 / 7.0) <= 2e-3);
  BOOST_TEST(std::abs(st.state().w.y() * p.radius - st.state().v.x()) <= 1e-3);  // rolling
}

BOOST_AUTO_TEST_CASE(raw_loses_speed_at_internal_edges_smoothed_does_not) {
  dem::Params p;
  p.mode = dem::ContactMode::raw;
  const auto raw = rolling::roll_plane<dem::FastKernels>(grid(), p, 0.13, 0.175, 0.5, 1.0, 10);
  p.mode = dem::ContactMode::smoothed;
  const auto sm = rolling::roll_plane<dem::FastKernels>(grid(), p, 0.13, 0.175, 0.5, 1.0, 10);
  const double loss_raw = 0.5 - mean_tail(raw.vx), loss_sm = 0.5 - mean_tail(sm.vx);
  BOOST_TEST_MESSAGE("speed loss over 1 s: raw " << loss_raw << " smoothed " << loss_sm);
  BOOST_TEST(loss_raw > 0.01);            // ~9 internal edges, a few mm/s each
  BOOST_TEST(std::abs(loss_sm) < 1e-3);   // smoothing: no systematic loss
  BOOST_TEST(loss_raw > 20 * std::abs(loss_sm));
}

BOOST_AUTO_TEST_CASE(woo_picture_resultant_opposes_motion_only_raw) {
  // Sphere over facet F1 near the internal edge x = 0.2 of a flat grid, moving +x: the raw
  // edge contact with F2 points from the edge to the centre (backwards); smoothed it is
  // re-pointed to n2 = +z (red zone of a flat edge), so no horizontal force is left.
  const auto mesh = std::make_shared<const cases::Mesh>(cases::grid_plane(4, 2, 0.1));
  dem::Params p;
  dem::State s;
  s.x = Vec3(0.188, 0.035, p.radius * 0.88);
  for (auto mode : {dem::ContactMode::raw, dem::ContactMode::smoothed}) {
    p.mode = mode;
    const dem::Stepper<dem::ReferenceKernels> st(mesh, p, s);
    const auto contacts = st.probe();
    BOOST_TEST_REQUIRE(contacts.size() == 2u);
    Vec3 f = Vec3::Zero();
    for (const auto& c : contacts) f += c.force;
    if (mode == dem::ContactMode::raw) {
      BOOST_TEST(f.x() < -0.1 * f.z());
    } else {
      BOOST_TEST(f.x() == 0.0);
      for (const auto& c : contacts) BOOST_TEST((c.normal - Vec3(0, 0, 1)).norm() == 0.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(trough_period_error_shrinks_with_refinement) {
  dem::Params p;
  p.kn = 1e5;
  p.mode = dem::ContactMode::smoothed;
  const double R = 0.5, th0 = 0.2, T = rolling::trough_period(R, p.radius, 9.81, th0);
  double err[2];
  int k = 0;
  for (int n : {32, 128}) {
    const auto mesh = std::make_shared<const cases::Mesh>(cases::half_cylinder_trough(R, n, 3, 0.6));
    const auto s = rolling::swing_trough<dem::FastKernels>(mesh, R, p, th0, 2.2 * T, 10);
    std::vector<double> th;
    for (std::size_t i = 0; i < s.t.size(); ++i) th.push_back(rolling::trough_angle(s.x[i], s.z[i], R));
    err[k++] = std::abs(rolling::period_from_crossings(s.t, th) - T) / T;
  }
  BOOST_TEST_MESSAGE("period error n=32 " << err[0] << " n=128 " << err[1]);
  BOOST_TEST(err[1] < err[0] / 4);
  BOOST_TEST(err[1] < 5e-3);
}

BOOST_AUTO_TEST_CASE(fast_and_reference_trajectories_agree) {
  dem::Params p;
  for (auto mode : {dem::ContactMode::raw, dem::ContactMode::smoothed}) {
    p.mode = mode;
    const auto a = rolling::roll_plane<dem::FastKernels>(grid(), p, 0.18, 0.175, 0.5, 0.06, 1);
    const auto b = rolling::roll_plane<dem::ReferenceKernels>(grid(), p, 0.18, 0.175, 0.5, 0.06, 1);
    double sep = 0;
    for (std::size_t i = 0; i < a.t.size(); ++i)
      sep = std::max(sep, std::hypot(a.x[i] - b.x[i], a.z[i] - b.z[i]));
    BOOST_TEST(sep <= 1e-12);  // the bound stated in README "rolling_sphere"
  }
}

BOOST_AUTO_TEST_CASE(helpers_against_closed_forms) {
  // Period from zero crossings of a sampled cosine.
  std::vector<double> t, th;
  for (int i = 0; i <= 5000; ++i) {
    t.push_back(i * 1e-3);
    th.push_back(std::cos(2 * std::acos(-1.0) * t.back() / 1.25));
  }
  BOOST_TEST(std::abs(rolling::period_from_crossings(t, th) - 1.25) <= 1e-6);
  // Pendulum period: small amplitude and the series T0 (1 + a^2/16 + 11 a^4/3072).
  const double T0 = 2 * std::acos(-1.0) * std::sqrt(7 * 0.45 / (5 * 9.81));
  BOOST_TEST(std::abs(rolling::trough_period(0.5, 0.05, 9.81, 0) - T0) <= 1e-15);
  const double a = 0.2;
  BOOST_TEST(std::abs(rolling::trough_period(0.5, 0.05, 9.81, a) / T0 - (1 + a * a / 16 + 11 * std::pow(a, 4) / 3072)) <= 1e-6);
  // Edges crossed along y = 0.175 from x = 0.13 to 0.99 on 0.1-cells with diagonals:
  // vertical edges x = 0.2..0.9 (8) and diagonals at x = 0.175..0.975 (9).
  BOOST_TEST(rolling::crossings(*grid(), 0.175, 0.13, 0.99).size() == 17u);
}

BOOST_AUTO_TEST_CASE(pfc_modes_roll_the_grid_plane_like_the_ideal_plane) {
  // On a flat triangulated plane the associative logic leaves one active contact, with the
  // normal (0, 0, 1) and the overlap of the ideal plane, wherever the centre is (over a face,
  // an edge or a vertex): the sphere rolls at constant speed and height across the edges,
  // exactly as on the ideal plane (speed and height within rounding).
  for (auto mode : {dem::ContactMode::pfc_reduced, dem::ContactMode::pfc_full, dem::ContactMode::pfc_pc}) {
    dem::Params p;
    p.mode = mode;
    const auto s = rolling::roll_plane<dem::FastKernels>(grid(), p, 0.13, 0.175, 0.5, 0.5, 10);
    const double z_eq = p.radius - rolling::rest_overlap(p);
    for (std::size_t i = 0; i < s.t.size(); ++i) {
      BOOST_TEST_REQUIRE(s.contacts[i] == 1);
      BOOST_TEST_REQUIRE(std::abs(s.vx[i] - 0.5) <= 1e-12);
      BOOST_TEST_REQUIRE(std::abs(s.z[i] - z_eq) <= 1e-12);
    }
    BOOST_TEST(rolling::crossings(*grid(), 0.175, 0.13, s.x.back()).size() >= 2u);  // edges crossed
  }
}

BOOST_AUTO_TEST_SUITE_END()
