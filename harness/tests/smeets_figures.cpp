// Suite smeets_figures: the exact constructions behind figures S1, S2 and δ_t(h)
// (cases/smeets_figures.hpp) against their hand-derived answers, and the scenario's output.
#include "cases/smeets_figures.hpp"

#include "harness/pairs/rounded_triangle_contact.hpp"
#include "test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>

using namespace contactbench;
using cases::Vec3;

namespace {
cases::RoundedTriangleContactQuery valid(const cases::RoundedTriangleContactQuery& q) {
  // from_json decides exactly that each sphere contains its triangle (and the rest of the
  // input rules); the constructions must pass it.
  return cases::RoundedTriangleContact::from_json(cases::RoundedTriangleContact::to_json(q),
                                                  cases::Where{"test", "query"});
}
}  // namespace

BOOST_AUTO_TEST_SUITE(smeets_figures)

BOOST_AUTO_TEST_CASE(figure_case_by_hand) {
  const auto fig = cases::smeets_figure_case();
  BOOST_CHECK_NO_THROW(valid(fig.query));
  const auto r = reference::rounded_triangle_contact(fig.query);
  BOOST_TEST(r.facing);
  BOOST_TEST(r.spheres_overlap);
  BOOST_TEST(r.contact);
  BOOST_TEST(r.polygon.size() == 5u);  // a pentagon (see the header)
  // c_p and h² exact by construction: S lies in y >= 1/2 and holds (0, 1/2, 0).
  BOOST_TEST((r.contact_point == Vec3(0, 0.5, 0)));
  BOOST_TEST(r.h2 == 0.25);
  bool outside_circle = false;
  for (const Vec3& v : r.polygon) {
    BOOST_TEST(v.x() == 0.0);  // in the contact plane x = 0
    BOOST_TEST(v.y() >= 0.5);
    outside_circle |= v.y() * v.y() + v.z() * v.z() > 3;  // r_c² = 3
  }
  BOOST_TEST(outside_circle);  // the contact circle cuts S (Figure S2's dark and light areas)
  BOOST_TEST(r.delta_s == 1.0);
  BOOST_TEST(std::abs(r.delta_t - (2 * std::sqrt(169.0 / 16 - 0.25) - 5.5)) <= 1e-15);
  const auto f = fast::rounded_triangle_contact(fig.query);
  BOOST_TEST((harness::verdict<harness::RoundedTriangleContactPair>(fig.query, r, f) == harness::Verdict::agree));
}

BOOST_AUTO_TEST_CASE(offset_queries_follow_eq_36) {
  const double r1 = 1, r2 = 0.5, d = 1.25, ds = 0.25;
  // h = 0: c on S's edge, δ_t = δ_s exactly.
  const auto r0 = reference::rounded_triangle_contact(valid(cases::smeets_offset_query(r1, r2, d, 0)));
  BOOST_TEST(r0.contact);
  BOOST_TEST(r0.h2 == 0.0);
  BOOST_TEST(r0.delta_t == ds);
  // dyadic h: h² exact, δ_t from eq. (36) by hand
  double previous = ds;
  for (double h : {0.0625, 0.125, 0.25, 0.375}) {
    const auto r = reference::rounded_triangle_contact(valid(cases::smeets_offset_query(r1, r2, d, h)));
    BOOST_TEST(r.contact);
    BOOST_TEST(r.h2 == h * h);
    const double hand = ds - r1 - r2 + std::sqrt(r1 * r1 - h * h) + std::sqrt(r2 * r2 - h * h);
    BOOST_TEST(std::abs(r.delta_t - hand) <= 1e-15);
    BOOST_TEST(r.delta_t < previous);  // decreasing in h
    previous = r.delta_t;
  }
  // r_c² = r1² − ((d² + r1² − r2²)/(2d))² = 1 − 0.925² = 0.144375: just beyond it, no contact.
  const double rc = std::sqrt(0.144375);
  const auto beyond = reference::rounded_triangle_contact(valid(cases::smeets_offset_query(r1, r2, d, rc * 1.001)));
  BOOST_TEST(!beyond.contact);
  BOOST_CHECK_NO_THROW(valid(cases::smeets_offset_query(r1, r2, d, rc)));
}

BOOST_AUTO_TEST_CASE(scenario_writes_its_json) {
  test::TempFile dir("unused");
  const auto out = (dir.dir / "run").string();
  BOOST_TEST(test::run_cli({"run", "smeets_figures", "--out-dir", out, "--param", "samples=8"}) == 0);
  std::ifstream in(out + "/smeets_figures.json");
  const auto j = nlohmann::json::parse(in);
  BOOST_TEST(j["schema"] == "contactbench.run/1");
  BOOST_TEST(j["s2"]["reference"]["contact_point"] == nlohmann::json({0.5, 0.0}));
  BOOST_TEST(j["s2"]["reference"]["polygon"].size() == 5u);
  BOOST_TEST(j["delta_t_of_h"]["samples"].size() == 9u);
  BOOST_TEST(j["delta_t_of_h"]["samples"][0]["reference"] == 0.25);
  BOOST_TEST(j["delta_t_of_h"]["max_fast_error"].get<double>() <= 1e-15);
}

BOOST_AUTO_TEST_SUITE_END()
