// Suite `ellipsoid_pour` (issue 13): the closed-form contacts against hand-derived values, and
// the physics of the stepper (harness/scenarios/ellipsoid_pour.hpp): momentum in a head-on
// collision, a resting ellipsoid, kinetic energy in a frictional pile, no tunnelling; the
// narrow-phase decisions of a small pour certified by the reference; the run's output.
#include "harness/scenarios/ellipsoid_pour.hpp"

#include "harness/pairs/ellipsoid_contact.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>

using namespace contactbench;
using namespace contactbench::harness;
using namespace contactbench::harness::pour;

namespace {

constexpr double eps = 0x1p-52;

Mat3 shape_matrix(const Body& b) {
  const Mat3 R = b.q.toRotationMatrix();
  return R * b.semi_axes.cwiseAbs2().asDiagonal() * R.transpose();
}

Scene empty_scene() {
  Scene s;
  s.gravity = Vec3::Zero();
  return s;
}

// The plane gap and tube-wall gap of body i now (m).
double plane_gap(const Body& b, double h) { return plane_contact(b.x, shape_matrix(b), h).g; }

}  // namespace

BOOST_AUTO_TEST_SUITE(ellipsoid_pour)

// Support function, plane and tube contacts against values derived by hand.
BOOST_AUTO_TEST_CASE(closed_form_contacts_hand_derived) {
  const Body b = make_body(0, Vec3(0.012, 0.008, 0.006), 1000, Vec3(0.1, 0.2, 0.05),
                           Eigen::Quaterniond::Identity());
  const Mat3 M = shape_matrix(b);
  BOOST_TEST(support(M, Vec3(1, 0, 0)) == 0.012, boost::test_tools::tolerance(4 * eps));
  BOOST_TEST(support(M, Vec3(0, 0, 1)) == 0.006, boost::test_tools::tolerance(4 * eps));
  // u = (1, 1, 0)/√2: sqrt((a² + b²)/2)
  BOOST_TEST(support(M, Vec3(1, 1, 0).normalized()) == std::sqrt((0.012 * 0.012 + 0.008 * 0.008) / 2),
             boost::test_tools::tolerance(8 * eps));
  // rotated 90° about z: the x extent is the second semi-axis
  const Body r = make_body(0, b.semi_axes, 1000, b.x, Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ())));
  BOOST_TEST(support(shape_matrix(r), Vec3(1, 0, 0)) == 0.008, boost::test_tools::tolerance(8 * eps));
  // plane z = 0.01: gap = 0.05 − 0.006 − 0.01, point straight below the centre
  const Geometry p = plane_contact(b.x, M, 0.01);
  BOOST_TEST(p.g == 0.034, boost::test_tools::tolerance(8 * eps));
  BOOST_TEST((p.point - Vec3(0.1, 0.2, 0.044)).norm() < 1e-15);
  // Tube along x through the origin, radius 0.05. Body centred on the axis offset by δ = 0.01
  // along y: the farthest point is the centre + (δ + semi-axis y) e_y when the cross-section
  // is a circle, or when δ > 0 and the y semi-axis is the larger one:
  // max_θ δ cosθ + sqrt(b² cos²θ + c² sin²θ) ≤ δ + b, attained at θ = 0.
  Tube t;
  t.top = Vec3(0, 0, 0);
  t.axis = Vec3(1, 0, 0);
  t.radius = 0.05;
  t.length = 1;
  const Body in = make_body(0, Vec3(0.006, 0.012, 0.008), 1000, Vec3(0.5, 0.01, 0), Eigen::Quaterniond::Identity());
  const TubeGeometry tg = tube_contact(t, in.x, shape_matrix(in));
  BOOST_TEST(tg.inside);
  BOOST_TEST(tg.geo.g == 0.05 - 0.01 - 0.012, boost::test_tools::tolerance(1e-14));
  BOOST_TEST((tg.geo.n - Vec3(0, -1, 0)).norm() < 1e-12);
  BOOST_TEST((tg.geo.point - Vec3(0.5, 0.022, 0)).norm() < 1e-14);
  // on the axis: the largest perpendicular semi-axis (0.012 along y), either side
  const Body axis_body = make_body(0, Vec3(0.006, 0.012, 0.008), 1000, Vec3(0.5, 0, 0), Eigen::Quaterniond::Identity());
  const TubeGeometry ta = tube_contact(t, axis_body.x, shape_matrix(axis_body));
  BOOST_TEST(ta.geo.g == 0.05 - 0.012, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(std::abs(ta.geo.n.y()) == 1.0, boost::test_tools::tolerance(1e-12));
  // beyond the open end: no wall
  const Body out = make_body(0, Vec3(0.006, 0.012, 0.008), 1000, Vec3(1.2, 0.01, 0), Eigen::Quaterniond::Identity());
  BOOST_TEST(!tube_contact(t, out.x, shape_matrix(out)).inside);
}

// Two spheres: the affine distance (√F − 1)(h_A + h_B) is the exact gap D − r1 − r2 (the
// scaled spheres touch when √F (r1 + r2) = D), negative when they overlap.
BOOST_AUTO_TEST_CASE(pair_affine_distance_of_spheres) {
  for (const double D : {0.05, 0.03, 0.02}) {
    const Body a = make_body(3, Vec3::Constant(0.01), 1000, Vec3(0, 0, 0), Eigen::Quaterniond::Identity());
    const Body b = make_body(3, Vec3::Constant(0.015), 1000, Vec3(D, 0, 0), Eigen::Quaterniond::Identity());
    const auto r = fast::ellipsoid_contact(pair_query(a, b));
    const Geometry g = pair_geometry(r, a.x, shape_matrix(a), b.x, shape_matrix(b));
    BOOST_TEST(g.g == D - 0.025, boost::test_tools::tolerance(1e-12));
    BOOST_TEST((g.n - Vec3(1, 0, 0)).norm() < 1e-12);
  }
}

// Head-on collision along a principal axis (the contact normal through both centres: no
// torque). Every step with a contact gives the two bodies impulses m_A(v̄ − u_A) and
// m_B(v̄ − u_B) that cancel exactly in exact arithmetic; in double each carries a few
// rounding errors of size ε·m|v|, so over S steps |Δp| ≤ c·S·ε·m|v| with c ≈ 8: tolerance
// 1e-12 m|v| for 100 steps (800ε ≈ 1.8e-13). Perfectly inelastic along the normal (v̄): both
// end at the common velocity m_A v / (m_A + m_B) (derived by hand), to the gap's rounding
// over s (≈ 1e-17 m / 1e-3 s).
BOOST_AUTO_TEST_CASE(head_on_collision_conserves_momentum) {
  for (const auto& [sa, sb] : {std::pair{0, 0}, std::pair{1, 2}}) {
    Scene s = empty_scene();
    const auto& shapes = pour_shapes();
    s.bodies.push_back(make_body(sa, shapes[sa], 1000, Vec3(-0.03, 0, 0), Eigen::Quaterniond::Identity()));
    s.bodies.push_back(make_body(sb, shapes[sb], 1000, Vec3(0.03, 0, 0), Eigen::Quaterniond::Identity()));
    s.bodies[0].v = Vec3(1, 0, 0);
    Simulator<FastKernels> sim(s);
    const Vec3 p0 = sim.momentum();
    const double scale = s.bodies[0].mass * 1.0;
    int contact_steps = 0;
    for (int k = 0; k < 100; ++k) {
      contact_steps += sim.step().active > 0;
      BOOST_TEST((sim.momentum() - p0).norm() <= 1e-12 * scale);
    }
    BOOST_TEST(contact_steps >= 1);
    const double common = s.bodies[0].mass / (s.bodies[0].mass + s.bodies[1].mass);
    for (const auto& b : sim.bodies()) {
      BOOST_TEST(std::abs(b.v.x() - common) < 1e-12);
      BOOST_TEST(b.v.tail<2>().norm() < 1e-12);
      BOOST_TEST(b.w.norm() < 1e-9);
    }
    // they touch and do not overlap: the gap closed to rounding
    const auto r = fast::ellipsoid_contact(pair_query(sim.bodies()[0], sim.bodies()[1]));
    const Geometry g = pair_geometry(r, sim.bodies()[0].x, shape_matrix(sim.bodies()[0]),
                                     sim.bodies()[1].x, shape_matrix(sim.bodies()[1]));
    BOOST_TEST(std::abs(g.g) < 1e-12);
  }
}

// A single ellipsoid standing on a principal axis on the plane, at rest under gravity: each
// step gravity adds −g s to v_z and the plane constraint (target 0 − max(gap, 0)/s) takes
// it away; the gap is 0 up to the rounding of c_z − h (≈ ε·0.01 m), so the centre moves by
// at most that per step and is restored the next (no accumulation). Tolerance 1e-12 m on
// drift and penetration over 2000 steps (2 s).
BOOST_AUTO_TEST_CASE(resting_ellipsoid_no_drift_no_penetration) {
  const std::vector<Eigen::Quaterniond> orientations = {
      Eigen::Quaterniond::Identity(), Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitX())),
      Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()))};
  for (const auto& q : orientations) {
    Scene s;
    s.plane = 0.0;
    Body b = make_body(0, pour_shapes()[0], 1000, Vec3(0.3, -0.2, 0), q);
    b.x.z() = support(shape_matrix(b), Vec3::UnitZ());
    s.bodies.push_back(b);
    Simulator<FastKernels> sim(s);
    double worst_pen = 0, worst_drift = 0;
    for (int k = 0; k < 2000; ++k) {
      sim.step();
      worst_pen = std::max(worst_pen, -plane_gap(sim.bodies()[0], 0.0));
      worst_drift = std::max(worst_drift, (sim.bodies()[0].x - b.x).norm());
    }
    BOOST_TEST_INFO("drift " << worst_drift << " m, penetration " << worst_pen << " m");
    BOOST_TEST(worst_drift <= 1e-12);
    BOOST_TEST(worst_pen <= 1e-12);
    BOOST_TEST(sim.bodies()[0].v.norm() <= 1e-12);
    BOOST_TEST(sim.bodies()[0].w.norm() <= 1e-9);
  }
}

// A frictional pile without gravity: 27 bodies of all four shapes on a lattice, random
// orientations and spins, velocities towards the centre (they collide into a clump). The
// kinetic energy never increases from one step to the next (to 1e-12 relative: rounding),
// and the pile does dissipate.
BOOST_AUTO_TEST_CASE(kinetic_energy_non_increasing_in_frictional_pile) {
  Scene s = empty_scene();
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto& shapes = pour_shapes();
  int k = 0;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int l = -1; l <= 1; ++l, ++k) {
        Body b = make_body(k % 4, shapes[k % 4], 1000, 0.028 * Vec3(i, j, l),
                           Eigen::Quaterniond(u(rng), u(rng), u(rng), u(rng)));
        b.v = -20 * b.x + 0.1 * Vec3(u(rng), u(rng), u(rng));
        b.w = 30 * Vec3(u(rng), u(rng), u(rng));
        s.bodies.push_back(b);
      }
  Simulator<FastKernels> sim(s);
  const double e0 = sim.kinetic_energy();
  double prev = e0;
  int contact_steps = 0, increases = 0;
  for (int n = 0; n < 300; ++n) {
    contact_steps += sim.step().active > 0;
    const double e = sim.kinetic_energy();
    if (e > prev * (1 + 1e-12)) {
      ++increases;
      BOOST_TEST_INFO("step " << n + 1);
      BOOST_TEST(e <= prev * (1 + 1e-12));
    }
    prev = e;
  }
  BOOST_TEST(increases == 0);
  BOOST_TEST(contact_steps > 10);
  BOOST_TEST(prev < 0.5 * e0);
}

// No tunnelling. Bodies moving 3 cm per step (30 m/s at s = 1 ms, more than twice their
// smallest semi-axis) against the plane, the tube wall and each other, along a principal axis
// (the contact normal through the centre: no spin): the speculative constraint lets them
// close exactly the gap, so they stop at contact (tolerance 1e-9 m). Tilted bodies at 15 m/s
// (15 mm per step, more than their 12 mm thickness) get spun by the off-centre impulse and the
// linearised constraint lets them overlap while they turn within the step: their centre never
// crosses the plane or the wall, and the overlap stays below the smallest semi-axis (6 mm;
// measured 3.4 mm); two tilted bodies meeting at 15 m/s relative overlap by less than that too
// (they may glance off each other sideways).
BOOST_AUTO_TEST_CASE(no_tunnelling_at_speed) {
  const auto& shapes = pour_shapes();
  Tube t;
  t.top = Vec3(0, 0, 0);
  t.axis = Vec3(1, 0, 0);
  t.radius = 0.05;
  for (const bool tilted : {false, true}) {
    const Eigen::Quaterniond q = tilted ? Eigen::Quaterniond(0.9, 0.1, 0.3, 0.2) : Eigen::Quaterniond::Identity();
    const double speed = tilted ? 15 : 30, tol = tilted ? 0.006 : 1e-9;
    {  // plane
      Scene s;
      s.gravity = Vec3::Zero();
      s.plane = 0.0;
      Body b = make_body(0, shapes[0], 1000, Vec3(0, 0, 0.1), q);
      b.v = Vec3(0, 0, -speed);
      s.bodies.push_back(b);
      Simulator<FastKernels> sim(s);
      for (int k = 0; k < 50; ++k) {
        sim.step();
        BOOST_TEST(plane_gap(sim.bodies()[0], 0.0) >= -tol);
        BOOST_TEST(sim.bodies()[0].x.z() > 0);
      }
    }
    {  // tube wall, sideways
      Scene s;
      s.gravity = Vec3::Zero();
      s.tube = t;
      Body b = make_body(1, shapes[1], 1000, Vec3(0.5, 0, 0), q);
      b.v = Vec3(0, speed, 0);
      s.bodies.push_back(b);
      Simulator<FastKernels> sim(s);
      for (int k = 0; k < 50; ++k) {
        sim.step();
        const Body& x = sim.bodies()[0];
        BOOST_TEST(tube_contact(t, x.x, shape_matrix(x)).geo.g >= -tol);
        BOOST_TEST(x.x.tail<2>().norm() < t.radius);
      }
    }
    {  // two bodies head-on, each at the speed (tilted: half of it, 15 m/s relative)
      Scene s = empty_scene();
      Body a = make_body(2, shapes[2], 1000, Vec3(-0.1, 0, 0), q);
      Body b = make_body(0, shapes[0], 1000, Vec3(0.1, 0, 0), q);
      a.v = Vec3(tilted ? speed / 2 : speed, 0, 0);
      b.v = -a.v;
      s.bodies = {a, b};
      Simulator<FastKernels> sim(s);
      for (int k = 0; k < 30; ++k) {
        sim.step();
        const auto& x = sim.bodies();
        const auto r = fast::ellipsoid_contact(pair_query(x[0], x[1]));
        const Geometry g = pair_geometry(r, x[0].x, shape_matrix(x[0]), x[1].x, shape_matrix(x[1]));
        BOOST_TEST(g.g >= -tol);
        if (!tilted) BOOST_TEST(x[0].x.x() < x[1].x.x());  // tilted ones may glance off sideways
      }
    }
  }
}

// A short pour: no body leaves the tube through its wall or passes through the plane, the
// deepest penetration stays below two thirds of the smallest semi-axis (4 mm; measured 3.1 mm:
// the column's collapse onto the tube floor is where the per-body systems overlap most), and every
// narrow-phase decision of every 5th step, re-decided by the reference, is not `wrong`.
BOOST_AUTO_TEST_CASE(short_pour_no_escape_and_certified) {
  PourParams pp;
  pp.n = 120;
  const Scene scene = pour_scene(pp);
  const Tube& t = *scene.tube;
  Simulator<FastKernels> sim(scene);
  long queries = 0, wrong = 0, boundary = 0;
  double worst = 0;
  for (int k = 1; k <= 400; ++k) {
    const StepStats st = sim.step();
    worst = std::max(worst, st.penetration);
    for (const auto& b : sim.bodies()) {
      BOOST_TEST(b.x.z() > 0);
      const Vec3 rel = b.x - t.top;
      const double xi = rel.dot(t.axis);
      if (xi >= 0 && xi <= t.length) BOOST_TEST((rel - xi * t.axis).norm() < t.radius);
    }
    if (k % 5) continue;
    std::vector<cases::EllipsoidContactQuery> qs;
    for (const auto& d : sim.decisions()) qs.push_back(d.query);
    for (const auto& e : evaluate<EllipsoidContactPair>(qs)) {
      ++queries;
      wrong += e.verdict == Verdict::wrong;
      boundary += e.verdict == Verdict::boundary;
    }
  }
  BOOST_TEST_MESSAGE("short pour: " << queries << " queries certified, " << boundary
                                    << " boundary, deepest penetration " << worst << " m");
  BOOST_TEST(queries > 100);
  BOOST_TEST(wrong == 0);
  BOOST_TEST(worst < 0.004);
}

// The run: a tiny configuration writes the documented JSON and exits 0.
BOOST_AUTO_TEST_CASE(run_writes_series_table_and_scaling) {
  ScenarioOptions o;
  o.out_dir = (std::filesystem::temp_directory_path() / ("contactbench_pour_" + std::to_string(::getpid()))).string();
  o.params = {{"N", "30"}, {"steps", "24"}, {"certify_every", "6"}, {"ref_n", "10"}, {"ref_steps", "5"},
              {"scaling", "10,20"}, {"scaling_steps", "4"}};
  BOOST_TEST(run_ellipsoid_pour(o) == 0);
  std::ifstream f(o.out_dir + "/ellipsoid_pour.json");
  const auto j = nlohmann::json::parse(f);
  BOOST_TEST(j["scenario"] == "ellipsoid_pour");
  BOOST_TEST(j["series"]["contacts"].size() == 24u);
  BOOST_TEST(j["table"].size() == 6u);
  BOOST_TEST(j["scaling"]["rows"].size() == 2u);
  BOOST_TEST(j["certification"]["steps"] == 4);
  BOOST_TEST(j["certification"]["wrong"] == 0);
  BOOST_TEST(j["trajectory"]["position_difference"].size() == 5u);
  BOOST_TEST(j["key_frames"].size() == 4u);
  std::filesystem::remove_all(o.out_dir);
}

BOOST_AUTO_TEST_SUITE_END()
