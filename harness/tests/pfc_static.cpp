// Suite pfc_static: the static PFC cases of Figures 7 and 8 (harness/scenarios/pfc_static.*).
// Expected values are derived by hand in the comments or follow from the resolution's rules
// (monotonicity in Theta, full mode a subset of reduced); fast must agree with the reference.
#include "harness/scenarios/pfc_static.hpp"

#include "harness/pairs/pfc_resolution.hpp"
#include "test_util.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace contactbench;
using namespace contactbench::harness::pfc_static;
using cases::PfcMode;
using cases::PfcQuery;

namespace {

const Vec3 up(0, 0, 1);
const int thetas[] = {0, 1, 2, 5, 10, 20, 30, 45, 60, 90, 120, 180};

// Fast agrees with the reference: verdict agree, or boundary when the active sets differ.
void fast_agrees(const PfcQuery& q) {
  const auto e = harness::evaluate<harness::PfcResolutionPair>(q);
  BOOST_TEST((e.verdict == harness::Verdict::agree || e.verdict == harness::Verdict::boundary),
             harness::describe(e.comparison));
}

// The scenario's ball over the middle of its 32x32 wall of spacing 1/32: R = 1, 1/64 below z = 0.
const Vec3 centre(0.5 + 5.0 / 512, 0.5 + 3.0 / 512, 1 - 1.0 / 64);

}  // namespace

BOOST_AUTO_TEST_SUITE(pfc_static)

BOOST_AUTO_TEST_CASE(cutoff_cosines_exact_at_ties) {
  BOOST_TEST(cos_of_degrees(0) == 1);
  BOOST_TEST(cos_of_degrees(60) == 0.5);
  BOOST_TEST(cos_of_degrees(90) == 0);
  BOOST_TEST(cos_of_degrees(120) == -0.5);
  BOOST_TEST(cos_of_degrees(180) == -1);
  BOOST_TEST(std::abs(cos_of_degrees(45) - std::sqrt(0.5)) < 1e-16);
}

// A flat wall (amplitude 0): the face contact under the ball has the largest overlap and
// every other facet's wall point lies on an edge or vertex it shares with a facet nearer the
// foot point, so all contacts form one linked set: one active contact for every Theta, with
// n = -N exactly, so k_eff = k_n.
BOOST_AUTO_TEST_CASE(flat_wall_one_active_contact_for_every_theta) {
  const auto wall = std::make_shared<const cases::Mesh>(rough_wall(32, 1.0 / 32, 0, 1));
  for (auto mode : {PfcMode::reduced, PfcMode::full})
    for (int deg : thetas) {
      const auto q = ball_query(wall, centre, 1, mode, cos_of_degrees(deg));
      const auto s = summarize(reference::pfc_resolution(q), up);
      BOOST_TEST(s.positive > 1);
      BOOST_TEST(s.active == 1);
      BOOST_TEST(s.active_face == 1);
      BOOST_TEST(s.effective == 1);
      BOOST_TEST(s.k_eff == 1);
      BOOST_TEST(s.k_no_pc == 1);
      if (deg % 30 == 0) fast_agrees(q);
    }
}

// The active set does not depend on Theta (the associative and full-mode rules do not use
// it); the "within Theta" relation only grows with Theta, so the proximity groups coarsen and
// the effective count never increases; at Theta = 180 degrees every pair is within, one
// proximity contact. Full mode's active contacts are a subset of reduced mode's (its test
// only removes associative survivors).
BOOST_AUTO_TEST_CASE(rough_wall_count_non_increasing_in_theta) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto wall = std::make_shared<const cases::Mesh>(rough_wall(32, 1.0 / 32, 1.0 / 64, seed));
    std::vector<int> reduced_active;
    for (auto mode : {PfcMode::reduced, PfcMode::full}) {
      std::vector<int> first;
      int last = 1 << 30;
      for (int deg : thetas) {
        const auto q = ball_query(wall, centre, 1, mode, cos_of_degrees(deg));
        const auto r = reference::pfc_resolution(q);
        const auto s = summarize(r, up);
        if (deg == 0) first = active_facets(r);
        BOOST_TEST(active_facets(r) == first);
        BOOST_TEST(s.effective <= last, "seed " << seed << " Theta " << deg);
        last = s.effective;
        if (deg == 180) BOOST_TEST(s.effective == 1);
        BOOST_TEST(s.active_face + s.active_edge + s.active_vertex == s.active);
        if (deg == 0 || deg == 10 || deg == 180) fast_agrees(q);
      }
      if (mode == PfcMode::reduced) {
        reduced_active = first;
        BOOST_TEST(first.size() > 1u, "the rough wall's point: several active contacts");
      } else {
        BOOST_TEST(std::includes(reduced_active.begin(), reduced_active.end(), first.begin(),
                                 first.end()));
      }
    }
  }
}

// k_eff by hand on a concave V: pfc_fold_wall(1, 1, 1) is z = 0 for x in [-2, 0] (facets 0,
// 1) and the strip along (1, 0, 1) (facets 2, 3, unit normal (-1, 0, 1)/sqrt 2, 45 degrees
// from the first). A centre at (-a, 1, b) with a = b (sqrt 2 - 1) is at distance b from both
// planes; b = 1/2, R = 3/4: U = 1/4 on both, wall points (-a, 1, 0) in facet 0's face and
// (-a, 1, b) + (1, 0, -1) b/sqrt 2 in facet 3's face (facets 1 and 2 are linked to them by
// their diagonals, and lose). Normals n0 = (0, 0, -1), n3 = (1, 0, -1)/sqrt 2:
//   Theta = 0:  two contacts, k_eff = 1 + 1/2 = 3/2;
//   Theta = 60: one proximity contact, n_pc bisects them (22.5 degrees from -N), mean(n.N) =
//               -(1 + cos 45)/2 = -cos^2 22.5, so k_eff = cos^3 22.5 degrees.
BOOST_AUTO_TEST_CASE(v_groove_stiffness_by_hand) {
  const auto wall = std::make_shared<const cases::Mesh>(cases::pfc_fold_wall(1, 1, 1));
  const double b = 0.5, a = b * (std::sqrt(2.0) - 1);
  const double c22 = std::cos(std::acos(-1.0) / 8);
  for (auto mode : {PfcMode::reduced, PfcMode::full}) {
    const auto q0 = ball_query(wall, {-a, 1, b}, 0.75, mode, 1);
    const auto r0 = reference::pfc_resolution(q0);
    BOOST_TEST((active_facets(r0) == std::vector<int>{0, 3}));
    const auto s0 = summarize(r0, up);
    BOOST_TEST(s0.effective == 2);
    BOOST_TEST(s0.proximity == 0);
    BOOST_TEST(std::abs(s0.k_eff - 1.5) < 1e-12);
    const auto q60 = ball_query(wall, {-a, 1, b}, 0.75, mode, cos_of_degrees(60));
    const auto s60 = summarize(reference::pfc_resolution(q60), up);
    BOOST_TEST(s60.effective == 1);
    BOOST_TEST(s60.proximity == 1);
    BOOST_TEST(std::abs(s60.k_eff - c22 * c22 * c22) < 1e-12);
    BOOST_TEST(std::abs(s60.k_no_pc - 1.5) < 1e-12);
    fast_agrees(q0);
    fast_agrees(q60);
  }
}

// Figure 8a: bottom facet 0 in z = 0, WP (2, 1, 0), d = 1, U = 1/2; top facet 1 in the plane
// z = e x / 4 (e = 1/16), d = (1 - e/2)/sqrt(1 + e^2/16) < 0.969, U > 0.53. Both wall points
// on faces: no link, reduced keeps both. Full: the segment from (2, 1, 1) down to (2, 1, 0)
// crosses facet 1 at (2, 1, 1/32), inside it; facet 1's overlap is larger, so facet 0 goes.
BOOST_AUTO_TEST_CASE(figure8_wedge_full_leaves_one) {
  const auto r = reference::pfc_resolution(wedge_query(1.0 / 16, PfcMode::reduced));
  BOOST_TEST((active_facets(r) == std::vector<int>{0, 1}));
  BOOST_TEST(r.links.empty());
  const auto f = reference::pfc_resolution(wedge_query(1.0 / 16, PfcMode::full));
  BOOST_TEST((active_facets(f) == std::vector<int>{1}));
  fast_agrees(wedge_query(1.0 / 16, PfcMode::reduced));
  fast_agrees(wedge_query(1.0 / 16, PfcMode::full));
}

// Figure 8b: triangles at z = 0, -1/4, -1/2 under (0, 0, 1/2), R = 5/4: face contacts with
// U = 3/4, 1/2, 1/4 on separate facets (no links): reduced keeps all three; in full mode the
// segments to the lower two pass through facet 0 at (0, 0, 0), inside it: only facet 0 stays.
BOOST_AUTO_TEST_CASE(figure8_segments_full_leaves_one) {
  const auto r = reference::pfc_resolution(segments_query(3, 0.25, PfcMode::reduced));
  BOOST_TEST((active_facets(r) == std::vector<int>{0, 1, 2}));
  BOOST_TEST(r.contacts[0].overlap == 0.75);
  BOOST_TEST(r.contacts[2].overlap == 0.25);
  const auto f = reference::pfc_resolution(segments_query(3, 0.25, PfcMode::full));
  BOOST_TEST((active_facets(f) == std::vector<int>{0}));
  fast_agrees(segments_query(3, 0.25, PfcMode::reduced));
  fast_agrees(segments_query(3, 0.25, PfcMode::full));
}

BOOST_AUTO_TEST_CASE(scenario_writes_json) {
  test::TempFile dir("unused");
  const std::string out = dir.dir.string();
  BOOST_TEST(test::run_cli({"run", "pfc_static", "--out-dir", out, "--param", "cells=16",
                            "--param", "thetas=0,30,180"}) == 0);
  std::ifstream in(out + "/pfc_static.json");
  const auto j = nlohmann::json::parse(in);
  BOOST_TEST(j["schema"] == "contactbench.run/1");
  BOOST_TEST(j["rough_wall"]["rows"].size() == 3u);
  BOOST_TEST(j["rough_wall"]["rows"][2]["reduced"]["effective"] == 1);
  BOOST_TEST(j["slivers"][0]["reduced"]["active_facets"] == nlohmann::json({0, 1}));
  BOOST_TEST(j["slivers"][0]["full"]["active_facets"] == nlohmann::json({1}));
  BOOST_TEST(j["slivers"][1]["full"]["active_facets"] == nlohmann::json({0}));
  BOOST_TEST(j["wrong"] == 0);
  // Bad parameters: one line naming the key, exit 2.
  BOOST_TEST(test::run_cli({"run", "pfc_static", "--out-dir", out, "--param", "thetas=200"}) == 2);
  BOOST_TEST(test::run_cli({"run", "pfc_static", "--out-dir", out, "--param", "shape=1"}) == 2);
}

BOOST_AUTO_TEST_SUITE_END()
