// Suite dem_pfc: the DEM stepper's PFC modes (harness/scenarios/dem.hpp) and their
// contact-state continuity, on prescribed motions whose shear history is derivable by hand:
// a sphere pressed into a wall with overlap delta and translated at v along x (no spin, no
// damping, friction too large to slip) carries after N steps on one contact the shear
// displacement N v dt, so its tangential force is -kt N v dt x (kt = kt_ratio kn) and its
// normal force kn delta.
#include "harness/scenarios/dem.hpp"
#include "harness/scenarios/pfc_walls.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace contactbench;
using namespace contactbench::harness;
using cases::Vec3;

namespace {

constexpr double R = 0.05, delta = 1e-3, v = 0.5, dt = 1e-4;

dem::Params params(dem::ContactMode mode) {
  dem::Params p;
  p.radius = R;
  p.kn = 1e4;
  p.damping_ratio = 0;
  p.mu = 1e6;
  p.dt = dt;
  p.mode = mode;
  return p;
}

// Quads [x_k, x_{k+1}] x [0, w] in z = 0 (two facets each, normals up), without the quads
// listed in `skip`.
std::shared_ptr<const cases::Mesh> strip(const std::vector<double>& xs, double w,
                                         const std::vector<int>& skip = {}) {
  std::vector<Vec3> vs;
  std::vector<std::array<int, 3>> fs;
  for (double x : xs) {
    vs.emplace_back(x, 0, 0);
    vs.emplace_back(x, w, 0);
  }
  for (int k = 0; k + 1 < static_cast<int>(xs.size()); ++k) {
    if (std::find(skip.begin(), skip.end(), k) != skip.end()) continue;
    const int a = 2 * k, b = 2 * k + 2, c = 2 * k + 3, d = 2 * k + 1;
    fs.push_back({a, b, c});
    fs.push_back({a, c, d});
  }
  return std::make_shared<const cases::Mesh>(std::move(vs), std::move(fs));
}

// Translates the pressed sphere from x0 for n steps; calls f(stepper, step) after each.
template <class F>
void slide(std::shared_ptr<const cases::Mesh> m, dem::ContactMode mode, double x0, int n, F f,
           double y0 = 0.1) {
  dem::State s;
  s.x = Vec3(x0, y0, R - delta);
  dem::Stepper<dem::FastKernels> st(std::move(m), params(mode), s);
  for (int i = 1; i <= n; ++i) {
    st.step_prescribed(Vec3(v, 0, 0));
    f(st, i);
  }
}

std::string why(const dem::Contact& c) { return cases::to_string(c.why); }

}  // namespace

BOOST_AUTO_TEST_SUITE(dem_pfc)

BOOST_AUTO_TEST_CASE(mode_names) {
  BOOST_TEST(std::string(dem::to_string(dem::ContactMode::pfc_reduced)) == "pfc_reduced");
  BOOST_TEST(std::string(dem::to_string(dem::ContactMode::pfc_full)) == "pfc_full");
  BOOST_TEST(std::string(dem::to_string(dem::ContactMode::pfc_pc)) == "pfc_pc");
  BOOST_TEST(dem::all_modes.size() == 5u);
  BOOST_TEST(!dem::is_pfc(dem::ContactMode::smoothed));
}

BOOST_AUTO_TEST_CASE(single_facet_shear_grows_by_kt_v_dt_per_step) {
  // The hand formula itself, on one large facet (every mode sees one face contact).
  const auto big = std::make_shared<const cases::Mesh>(
      std::vector<Vec3>{{-5, -5, 0}, {5, -5, 0}, {0, 5, 0}}, std::vector<std::array<int, 3>>{{0, 1, 2}});
  for (auto mode : dem::all_modes)
    slide(big, mode, 0, 200, [&](const auto& st, int i) {
      BOOST_TEST_REQUIRE(st.contacts().size() == 1u);
      const Vec3 f = st.contact_force();
      BOOST_TEST_REQUIRE(std::abs(f.z() - 1e4 * delta) <= 1e-9);
      BOOST_TEST_REQUIRE(std::abs(f.x() + 0.5e4 * i * v * dt) <= 1e-9 * i);
    });
}

BOOST_AUTO_TEST_CASE(coplanar_two_facet_wall_keeps_shear_in_full_mode) {
  // Two coplanar quads meeting at x = 0 (four facets): the sphere slides from x = -0.01 to
  // x = +0.01. Full mode: one active contact at every step, and the shear of the single
  // facet (-kt N v dt) throughout, across the diagonals and the edge x = 0.
  int inherited_switches = 0, last = -1;
  slide(strip({-0.2, 0.0, 0.2}, 0.2), dem::ContactMode::pfc_full, -0.01, 400,
        [&](const auto& st, int i) {
          BOOST_TEST_REQUIRE(st.contacts().size() == 1u);
          const auto& c = st.contacts()[0];
          if (last >= 0 && c.facet != last) {
            BOOST_TEST(why(c) == "inherited");
            ++inherited_switches;
          }
          last = c.facet;
          BOOST_TEST_REQUIRE(std::abs(c.force.x() + 0.5e4 * i * v * dt) <= 1e-9 * i);
        });
  BOOST_TEST(inherited_switches >= 1);  // the active facet did change (at x = 0)
}

BOOST_AUTO_TEST_CASE(coplanar_two_facet_wall_loses_shear_in_reduced_mode) {
  // Reduced mode propagates nothing between facets: after the active facet changes at
  // x = 0, the shear restarts: -kt (steps since the change) v dt.
  int since = -1, last = -1;
  slide(strip({-0.2, 0.0, 0.2}, 0.2), dem::ContactMode::pfc_reduced, -0.01, 400,
        [&](const auto& st, int i) {
          BOOST_TEST_REQUIRE(st.contacts().size() == 1u);
          const auto& c = st.contacts()[0];
          if (last >= 0 && c.facet != last) since = 0;
          last = c.facet;
          const int n = since < 0 ? i : ++since;
          BOOST_TEST_REQUIRE(std::abs(c.force.x() + 0.5e4 * n * v * dt) <= 1e-9 * i);
        });
  BOOST_TEST(since > 0);
}

BOOST_AUTO_TEST_CASE(across_a_gap_the_shear_is_lost) {
  // The quad [0, 0.004] is missing (facets 0, 1 before it, 2, 3 after): a gap narrower than
  // the sphere. The far side's first contact has its wall point on a boundary edge that no
  // facet of the near side shares: no link, so no propagation (why no_link); its shear
  // starts from zero: its tangential force is one increment, -kt v_t dt (v_t: the part of
  // the velocity in its tangent plane), while the near side keeps its own.
  int first = -1;
  slide(strip({-0.2, 0.0, 0.004, 0.2}, 0.2, {1}), dem::ContactMode::pfc_full, -0.01, 500,
        [&](const auto& st, int i) {
          for (const auto& c : st.contacts()) {
            if (c.facet < 2) continue;
            if (first >= 0) continue;
            first = i;
            BOOST_TEST(why(c) == "no_link");
            const Vec3 vel(v, 0, 0), vt = vel - vel.dot(c.normal) * c.normal;
            const Vec3 ft = c.force - c.force.dot(c.normal) * c.normal;
            BOOST_TEST((ft + 0.5e4 * vt * dt).norm() <= 1e-12);
          }
        });
  BOOST_TEST(first > 0);
}

BOOST_AUTO_TEST_CASE(cutoff_angle_below_the_fold_stops_propagation) {
  // A convex fold: z = 0 for x <= 0, then down at slope -1/2 (12 facets, fold angle
  // atan(1/2) = 26.6 degrees). The sphere is carried around the edge at constant distance
  // R - delta. With Theta = 60 degrees the contact passing the edge inherits; with
  // cos(Theta) = 0.95 (18.2 degrees) it does not (why angle) and the shear restarts.
  std::vector<Vec3> vs;
  std::vector<std::array<int, 3>> fs;
  for (double x : {-0.2, 0.0, 0.2}) {
    const double z = x > 0 ? -x / 2 : 0;
    vs.emplace_back(x, 0, z);
    vs.emplace_back(x, 0.2, z);
  }
  for (int k = 0; k < 2; ++k) {
    const int a = 2 * k, b = 2 * k + 2, c = 2 * k + 3, d = 2 * k + 1;
    fs.push_back({a, b, c});
    fs.push_back({a, c, d});
  }
  const auto m = std::make_shared<const cases::Mesh>(std::move(vs), std::move(fs));
  const double rho = R - delta, beta = std::atan(0.5);
  for (double cosc : {0.5, 0.95}) {
    dem::Params p = params(dem::ContactMode::pfc_full);
    p.cos_cutoff = cosc;
    dem::State s;
    s.x = Vec3(-0.005, 0.1, rho);
    dem::Stepper<dem::FastKernels> st(m, p, s);
    // Path: to x = 0 on the flat, around the edge (angle 0 -> beta), then along the slope.
    auto at = [&](double a) { return Vec3(rho * std::sin(a), 0.1, rho * std::cos(a)); };
    std::vector<Vec3> path;
    for (double x = -0.005; x < 0; x += 1e-4) path.emplace_back(x, 0.1, rho);
    for (int k = 0; k <= 100; ++k) path.push_back(at(beta * k / 100));
    const Vec3 down(std::cos(beta), 0, -std::sin(beta));
    for (int k = 1; k <= 50; ++k) path.push_back(at(beta) + 1e-4 * k * down);
    int changes = 0, last = -1;
    cases::PfcInherit at_change = cases::PfcInherit::inactive;
    for (std::size_t k = 1; k < path.size(); ++k) {
      st.step_prescribed((path[k] - path[k - 1]) / dt);
      BOOST_TEST_REQUIRE(st.contacts().size() == 1u);
      const auto& c = st.contacts()[0];
      const bool slope = c.facet >= 2;
      if (last >= 0 && slope != (last >= 2)) {
        ++changes;
        at_change = c.why;
      }
      last = c.facet;
    }
    BOOST_TEST(changes == 1);  // activity passes the edge once
    BOOST_TEST(std::string(cases::to_string(at_change)) == (cosc == 0.5 ? "inherited" : "angle"));
  }
}

BOOST_AUTO_TEST_CASE(proximity_contact_accumulates_as_one_contact) {
  // A concave corner: floor z = 0 (x <= 0) and a wall rising at 45 degrees (x >= 0). The
  // sphere sits where it overlaps both faces by delta (centre on the bisector at distance
  // R - delta from each plane) and moves along the edge direction y. Without PC: two active
  // contacts, each with its own shear -kt N v dt y and normal force kn delta; with PC (Theta
  // = 60 degrees >= 45): one acting contact, normal along the bisector, overlap delta, and
  // ONE shear -kt N v dt y, half the two contacts' total.
  std::vector<Vec3> vs = {{-0.2, -1, 0}, {0, -1, 0}, {0.2, -1, 0.2}, {-0.2, 1, 0}, {0, 1, 0}, {0.2, 1, 0.2}};
  std::vector<std::array<int, 3>> fs = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
  const auto m = std::make_shared<const cases::Mesh>(std::move(vs), std::move(fs));
  const double rho = R - delta;
  // Bisector inside the corner: unit (-sin 22.5, 0, cos 22.5); distance rho from both planes.
  const double half = std::acos(-1.0) / 8;
  const Vec3 c0 = rho / std::cos(half) * Vec3(-std::sin(half), 0, std::cos(half));
  for (auto mode : {dem::ContactMode::pfc_full, dem::ContactMode::pfc_pc}) {
    dem::State s;
    s.x = c0 + Vec3(0, -0.3, 0);
    dem::Stepper<dem::FastKernels> st(m, params(mode), s);
    for (int i = 1; i <= 300; ++i) {
      st.step_prescribed(Vec3(0, v, 0));
      const Vec3 f = st.contact_force();
      const double shear = 0.5e4 * i * v * dt;
      if (mode == dem::ContactMode::pfc_full) {
        BOOST_TEST_REQUIRE(st.contacts().size() == 2u);
        BOOST_TEST_REQUIRE(std::abs(f.y() + 2 * shear) <= 1e-8 * i);
        // Two normal forces kn delta along the facet normals (0,0,1) and (-1,0,1)/sqrt2.
        BOOST_TEST_REQUIRE(std::abs(f.z() - 1e4 * delta * (1 + std::sqrt(0.5))) <= 1e-8);
      } else {
        BOOST_TEST_REQUIRE(st.contacts().size() == 1u);
        BOOST_TEST_REQUIRE(st.contacts()[0].members.size() == 2u);
        BOOST_TEST_REQUIRE(std::abs(f.y() + shear) <= 1e-8 * i);
        BOOST_TEST_REQUIRE(std::abs(f.norm() - std::hypot(1e4 * delta, shear)) <= 1e-8 * i);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(proximity_contact_hands_its_state_to_the_surviving_member) {
  // The same corner; the sphere now moves out of it up the 45-degree wall (along the wall,
  // (1,0,1)/sqrt2, at distance R - delta from it): the floor overlap falls to zero and the
  // PC dissolves into the wall's contact, which takes the PC's state (it was a member): its
  // tangential force carries on from the PC's instead of restarting at -kt v dt.
  std::vector<Vec3> vs = {{-0.2, -1, 0}, {0, -1, 0}, {0.2, -1, 0.2}, {-0.2, 1, 0}, {0, 1, 0}, {0.2, 1, 0.2}};
  std::vector<std::array<int, 3>> fs = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
  const auto m = std::make_shared<const cases::Mesh>(std::move(vs), std::move(fs));
  const double rho = R - delta, half = std::acos(-1.0) / 8;
  const Vec3 c0 = rho / std::cos(half) * Vec3(-std::sin(half), 0, std::cos(half));
  const Vec3 dir = Vec3(1, 0, 1).normalized();
  for (auto mode : {dem::ContactMode::pfc_full, dem::ContactMode::pfc_pc}) {
    dem::State s;
    s.x = c0;
    dem::Stepper<dem::FastKernels> st(m, params(mode), s);
    int handoff = -1;
    double ft_before = 0;
    for (int i = 1; i <= 200 && handoff < 0; ++i) {
      const std::size_t before = st.contacts().size();
      const int members_before = before ? static_cast<int>(st.contacts()[0].members.size()) : 0;
      const Vec3 f_before = st.contact_force();
      st.step_prescribed(v * dir);
      BOOST_TEST_REQUIRE(!st.contacts().empty());
      const bool dissolved =
          st.contacts().size() == 1 && st.contacts()[0].members.size() == 1 &&
          (mode == dem::ContactMode::pfc_pc ? members_before == 2 : before == 2);
      if (!dissolved) continue;
      handoff = i;
      const auto& c = st.contacts()[0];
      BOOST_TEST(c.members[0] >= 2);  // the wall's facet survives
      const Vec3 ft = c.force - c.force.dot(c.normal) * c.normal;
      if (mode == dem::ContactMode::pfc_pc) {
        // Inherited from the PC (the only previous acting contact): continuity.
        BOOST_TEST(c.inherits == 0);
        BOOST_TEST(why(c) == "inherited");
        ft_before = (f_before - f_before.dot(c.normal) * c.normal).norm();
        BOOST_TEST(ft.norm() >= 0.5 * ft_before);
        BOOST_TEST(ft.norm() > 10 * 0.5e4 * v * dt);
      } else {
        // Without PC the wall's own contact was active all along: it keeps its own state.
        BOOST_TEST(why(c) == "inherited");
      }
    }
    BOOST_TEST(handoff > 1);
  }
}

BOOST_AUTO_TEST_CASE(across_a_fan_wedge_the_reason_is_hole_and_a_contact_keeps_its_own_state) {
  // A flat hexagon fan around V = (0, 0, 0) (radius 0.05) without the wedge between 60 and
  // 120 degrees; the sphere (overlap 2 mm, reach sqrt(R^2 - (R - delta)^2) = 14 mm) moves
  // along +x at y = 0.01. Stored facets: 0 = wedge 0-60 (B), 1 = wedge 120-180 (A), ...
  //  - Near x = -0.01, B appears unlinked beside A (two active contacts); A keeps its own
  //    shear: its tangential force grows by -kt v dt every step, never restarts.
  //  - Once the contacts at V link everything, A and B are one linked set; at x = 0 the
  //    larger overlap passes from A to B (wall points on the 120 and 60 degree edges, mirror
  //    images). The plane through the two wall points (y = const) crosses only A and B,
  //    which are not linked directly: no path, why = hole, and B's shear restarts.
  const auto m = std::make_shared<const cases::Mesh>(pfc_walls::hexagon_fan(Vec3::Zero(), 0.05, {1}));
  dem::State s;
  s.x = Vec3(-0.03, 0.01, R - 0.002);
  dem::Params p = params(dem::ContactMode::pfc_full);
  dem::Stepper<dem::FastKernels> st(m, p, s);
  bool hole = false;
  double fa = 0;  // A's tangential force at the last step
  for (int i = 1; i <= 1200; ++i) {
    const double x = st.state().x.x();
    st.step_prescribed(Vec3(v, 0, 0));
    for (const auto& c : st.contacts()) {
      const double ft = (c.force - c.force.dot(c.normal) * c.normal).norm();
      if (c.facet == 1 && x < -0.001) {
        if (fa > 0) BOOST_TEST_REQUIRE(ft > fa);  // A's shear only grows
        fa = ft;
      }
      if (c.facet == 0 && x > -0.001 && x < 0.001 && c.why == cases::PfcInherit::hole) {
        hole = true;
        BOOST_TEST(ft <= 2 * 0.5e4 * v * dt);  // restarted: one increment
      }
    }
  }
  BOOST_TEST(hole);
  BOOST_TEST(fa > 100.0);  // A carried a large shear up to the jump
}

BOOST_AUTO_TEST_CASE(reference_kernels_give_the_same_single_contact_history) {
  // Fast and reference kernels on the coplanar traverse: the same active facets at every
  // step and forces equal within 1e-9 N.
  const auto m = strip({-0.2, 0.0, 0.2}, 0.2);
  dem::State s;
  s.x = Vec3(-0.002, 0.1, R - delta);
  dem::Stepper<dem::FastKernels> a(m, params(dem::ContactMode::pfc_full), s);
  dem::Stepper<dem::ReferenceKernels> b(m, params(dem::ContactMode::pfc_full), s);
  for (int i = 0; i < 80; ++i) {
    a.step_prescribed(Vec3(v, 0, 0));
    b.step_prescribed(Vec3(v, 0, 0));
    BOOST_TEST_REQUIRE(a.contacts().size() == b.contacts().size());
    BOOST_TEST_REQUIRE(a.contacts()[0].facet == b.contacts()[0].facet);
    BOOST_TEST_REQUIRE((a.contact_force() - b.contact_force()).norm() <= 1e-9);
  }
}

BOOST_AUTO_TEST_SUITE_END()
