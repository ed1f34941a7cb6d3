// Suite smeets_hertz: the icosphere meshes, the pieces of the per-facet-pair Hertz law against
// hand-derived values, and the meshed-sphere force on 20, 80 and 320 triangles bracketed by
// what harness/scenarios/smeets_hertz.hpp proves: F_limit <= F_mesh <= F_limit + B(d).
#include "harness/scenarios/smeets_hertz.hpp"

#include "cases/icosphere.hpp"
#include "harness/pairs/rounded_triangle_contact.hpp"
#include "test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>
#include <numbers>

using namespace contactbench;
using namespace contactbench::harness::smeets;
using cases::Vec3;

BOOST_AUTO_TEST_SUITE(smeets_hertz)

BOOST_AUTO_TEST_CASE(icosphere_counts_closed_outward_on_the_sphere) {
  for (int level = 0; level <= 3; ++level) {
    const double R = 0.75;
    const auto m = cases::icosphere(level, R);
    const int four = 1 << (2 * level);
    BOOST_TEST(m.facet_count() == 20 * four);
    BOOST_TEST(m.vertices().size() == static_cast<std::size_t>(10 * four + 2));
    BOOST_TEST(m.edges().size() == static_cast<std::size_t>(30 * four));
    for (const auto& e : m.edges()) BOOST_TEST_REQUIRE(e.facets.size() == 2u);  // closed
    for (const Vec3& v : m.vertices()) BOOST_TEST_REQUIRE(std::abs(v.norm() - R) <= 4 * 0x1p-53 * R);
    for (int f = 0; f < m.facet_count(); ++f) {  // outward: the normal points away from the centre
      const Vec3 g = (m.vertex(f, 0) + m.vertex(f, 1) + m.vertex(f, 2)) / 3;
      BOOST_TEST_REQUIRE(m.normal(f).dot(g) > 0);
    }
  }
  // Level 0 is the regular icosahedron: every edge 1/sin(2π/5) of the circumradius.
  const auto ico = cases::icosphere(0, 1);
  for (const auto& e : ico.edges())
    BOOST_TEST_REQUIRE(std::abs((ico.vertices()[e.v1] - ico.vertices()[e.v0]).norm() -
                                1 / std::sin(2 * std::numbers::pi / 5)) <= 1e-14);
}

BOOST_AUTO_TEST_CASE(hertz_force_and_pressure_by_hand) {
  // 4/3 · 3 · sqrt(1/4) · 0.01^(3/2) = 2 · 0.001
  BOOST_TEST(std::abs(hertz_force(3, 0.25, 0.01) - 0.002) <= 1e-17);
  // exponents: δ × 4 → F × 8; R* × 4 → F × 2
  BOOST_TEST(std::abs(hertz_force(1, 1, 0.04) / hertz_force(1, 1, 0.01) - 8) <= 1e-14);
  BOOST_TEST(std::abs(hertz_force(1, 4, 0.01) / hertz_force(1, 1, 0.01) - 2) <= 1e-14);
  // p at δ_t = δ_s is Hertz's p0 = 2E* a/(π R*), a² = R* δ: E* = 1, R* = 1/2, δ = 0.02: a = 0.1.
  BOOST_TEST(std::abs(pair_pressure(1, 0.5, 0.02, 0.02) - 2 * 0.1 / (std::numbers::pi * 0.5)) <= 1e-15);
  BOOST_TEST(pair_pressure(1, 0.5, 0.02, 0.01) == 0.0);  // 2δ_t = δ_s: edge of the pressure disc
  BOOST_TEST(pair_pressure(1, 0.5, 0.02, 0.0) == 0.0);
}

BOOST_AUTO_TEST_CASE(polygon_disc_area_by_hand) {
  const double pi = std::numbers::pi;
  const std::vector<V2> square = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  BOOST_TEST(std::abs(polygon_disc_area(square, 1) - pi) <= 1e-14);              // disc inside
  BOOST_TEST(std::abs(polygon_disc_area(square, 10) - 4) <= 1e-14);              // square inside
  BOOST_TEST(std::abs(polygon_disc_area(square, std::sqrt(2.0)) - 4) <= 1e-12);   // corners on the circle
  const std::vector<V2> quadrant = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};                // clockwise
  BOOST_TEST(std::abs(polygon_disc_area(quadrant, 1) - pi / 4) <= 1e-14);
  // square of side 2 with r = 1.2: 4 circular caps of height 0.2 cut off the disc
  const double r = 1.2, cap = r * r * std::acos(1 / r) - std::sqrt(r * r - 1);
  BOOST_TEST(std::abs(polygon_disc_area(square, r) - (pi * r * r - 4 * cap)) <= 1e-13);
  const std::vector<V2> far = {{3, 3}, {4, 3}, {3, 4}};
  BOOST_TEST(polygon_disc_area(far, 1) == 0.0);
  BOOST_TEST(polygon_disc_area({{0, 0}, {1, 0}}, 1) == 0.0);  // a segment has no area
}

BOOST_AUTO_TEST_CASE(law_limit_against_hertz) {
  // Equal spheres: δ_t(0) = δ, δ_t(r_c) = 0, the pressure support ≈ Hertz's a = sqrt(R*δ), and
  // the limit force F_limit = Hertz·(1 − δ/(10R) + O(δ²/R²)): the δ/(10R) term is the first
  // order of sqrt(R² − r²) beyond the parabola, integrated against the Hertz profile by hand
  // (∫ u²/sqrt(1 − u) du = 16/15 over [0, 1]).
  for (double overlap : {0.001, 0.005, 0.02, 0.08}) {
    const SpherePair sp{2.0, overlap * 2.0, 5.0};
    BOOST_TEST(std::abs(sp.delta_t(0) - sp.delta) <= 1e-15);
    BOOST_TEST(std::abs(sp.delta_t(sp.rc())) <= 1e-14);
    const double a = std::sqrt(sp.r_star() * sp.delta);
    BOOST_TEST(std::abs(sp.support() / a - 1) <= overlap);
    const double ratio = sp.limit_force() / hertz_force(sp.e_star, sp.r_star(), sp.delta);
    BOOST_TEST(std::abs(ratio - (1 - overlap / 10)) <= overlap * overlap, "delta/R " << overlap << ": ratio " << ratio);
  }
}

BOOST_AUTO_TEST_CASE(meshed_spheres_bracketed_and_converging) {
  // 20, 80, 320 triangles: the proven bracket F_limit <= F_mesh <= F_limit + B(d), d the
  // longest facet edge; B(d) shrinks with d, and the error against Hertz at 320 triangles is
  // below the error at 20 (observed at each overlap; the bracket allows it, not forces it).
  for (double overlap : {0.02, 0.08}) {
    std::vector<double> err;
    for (int level = 0; level <= 2; ++level) {
      const auto mesh = cases::icosphere(level, 1.0);
      const HertzRow r = hertz_row(mesh, level, 1.0, 1e6, overlap);
      BOOST_TEST(r.contact_pairs > 0);
      BOOST_TEST(r.force >= r.limit * (1 - 1e-9), "level " << level << " overlap " << overlap);
      BOOST_TEST(r.force <= (r.limit + r.excess_bound) * (1 + 1e-9), "level " << level << " overlap " << overlap);
      err.push_back(r.force / r.hertz - 1);
    }
    BOOST_TEST(std::abs(err[2]) < std::abs(err[0]), "overlap " << overlap);
  }
}

BOOST_AUTO_TEST_CASE(one_pair_covering_the_disc_by_hand) {
  // 20 triangles, δ/R = 0.005: the contact disc (r_c ≈ 0.07 R) lies inside one pair's S. With
  // a single pair in contact the tiling argument puts all of the disc in its S, so A = π r_c²
  // and c ∈ S (h = 0, δ_t = δ): F = p(0) π r_c² with p(0) = (2E*/π) sqrt(δ/R*) and
  // r_c² = R² − (R − δ/2)² = Rδ − δ²/4; over Hertz, with R* = R/2: F/F_H = 3 (1 − δ/(4R)).
  const double overlap = 0.005;
  const HertzRow r = hertz_row(cases::icosphere(0, 1.0), 0, 1.0, 1e6, overlap);
  BOOST_TEST_REQUIRE(r.contact_pairs == 1);
  // The same with the facets' spheres as built (radius R (1 + 2^-40), centres 2R − δ apart).
  const double R = 1, Re = R * (1 + 0x1p-40), delta = overlap * R, ds = 2 * Re - (2 * R - delta);
  const double rc2 = Re * Re - (R - delta / 2) * (R - delta / 2);
  const double p0 = 2 * 1e6 / std::numbers::pi * std::sqrt(ds / (Re / 2));
  BOOST_TEST(std::abs(r.force / (p0 * std::numbers::pi * rc2) - 1) <= 1e-12);
  BOOST_TEST(std::abs(r.force / r.hertz - 3 * (1 - overlap / 4)) <= 1e-8);  // the 2^-40: ~1e-9
}

BOOST_AUTO_TEST_CASE(fast_sum_matches_reference_sum_on_80_triangles) {
  // Every candidate pair at 80 triangles through both kernels: no `wrong` verdict, and the
  // summed force agrees to rounding.
  const auto mesh = cases::icosphere(1, 1.0);
  const auto s = hertz_setup(mesh, 1.0, 1e6, 0.08);
  BOOST_TEST_REQUIRE(!s.pairs.empty());
  double f_ref = 0, f_fast = 0;
  for (const auto& q : s.pairs) {
    const auto e = harness::evaluate<harness::RoundedTriangleContactPair>(q);
    BOOST_TEST_REQUIRE((e.verdict != harness::Verdict::wrong));
    f_ref += pair_force(q, e.reference, 1e6);
    f_fast += pair_force(q, e.fast.value(), 1e6);
  }
  BOOST_TEST(f_ref > 0);
  BOOST_TEST(std::abs(f_fast - f_ref) <= 1e-12 * f_ref);
  // Every pair is a valid query: each sphere contains its triangle (decided exactly).
  for (const auto& q : s.pairs)
    BOOST_CHECK_NO_THROW(cases::RoundedTriangleContact::from_json(
        cases::RoundedTriangleContact::to_json(q), cases::Where{"test", "pair"}));
}

BOOST_AUTO_TEST_CASE(scenario_writes_its_json) {
  test::TempFile dir("unused");
  const auto out = (dir.dir / "run").string();
  BOOST_TEST(test::run_cli({"run", "smeets_hertz", "--out-dir", out, "--param", "max_level=1",
                            "--param", "spot_checks=6"}) == 0);
  std::ifstream in(out + "/smeets_hertz.json");
  const auto j = nlohmann::json::parse(in);
  BOOST_TEST(j["scenario"] == "smeets_hertz");
  BOOST_TEST(j["rows"].size() == 6u);  // 2 levels × 3 overlaps
  BOOST_TEST(j["spot_checks"].size() == 6u);
  for (const auto& s : j["spot_checks"]) BOOST_TEST(s["wrong"] == 0);
  BOOST_TEST(test::run_cli({"run", "smeets_hertz", "--out-dir", out, "--param", "max_level=9"}) == 2);
}

BOOST_AUTO_TEST_SUITE_END()
