// Suite `ccd_filtered_reference`: the filtered CCD reference (interval Bernstein stage and
// double-double root rounding, reference/src/ccd.cpp) gives bit for bit the answers of its
// exact path, reference::ccd_exact: hit, toi, toi_up, cut_short, feature and feature_margin.
// Run on the canonical cases, the public set when present, generated random and degenerate
// queries, random queries whose coordinates are each scaled by 2^r (mixed magnitudes) and
// whole queries scaled by one 2^r. CI runs a few hundred queries per generator;
// CONTACTBENCH_CCD_FILTER_N=N runs N per generator plus the public set (the long
// comparison), CONTACTBENCH_CCD_FILTER_GEN picks generators. Hand-made
// cases show the filtered stage deciding (a miss, hits whose toi is derived by hand, touching
// at t = 0 and t = 1 by exact end signs, a contact at t = 1/2, hits scaled by 2^+-1000 and
// into subnormals) and giving up (coplanar sliding, a rescaling that would lose bits).
#include "cases/ccd.hpp"
#include "reference/ccd.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>

using namespace contactbench;

namespace {

std::size_t queries_per_generator() {
  const char* n = std::getenv("CONTACTBENCH_CCD_FILTER_N");
  return n ? std::strtoull(n, nullptr, 10) : 200;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool same(const cases::CcdResult& a, const cases::CcdResult& b) {
  return a.hit == b.hit && same_bits(a.toi, b.toi) && same_bits(a.toi_up, b.toi_up) &&
         a.cut_short == b.cut_short && a.feature == b.feature && same_bits(a.feature_margin, b.feature_margin);
}

struct Tally {
  std::size_t queries = 0, decided = 0, differing = 0, thrown = 0;
  void run(const cases::CcdQuery& q) {
    ++queries;
    std::string fe, ee;
    cases::CcdResult a, b;
    try { a = reference::ccd(q); } catch (const std::exception& e) { fe = e.what(); }
    try { b = reference::ccd_exact(q); } catch (const std::exception& e) { ee = e.what(); }
    if (!fe.empty() || !ee.empty()) {
      ++thrown;
      differing += fe != ee;
      return;
    }
    decided += reference::ccd_filtered(q).has_value();
    if (!same(a, b)) {
      if (++differing <= 5) BOOST_TEST_MESSAGE("differs: " << cases::Ccd::to_json(q).dump());
    }
  }
};

// x·2^r with r uniform in [-1100, 1000], half of the time (kept x when that under- or
// overflows to 0 or Inf).
double mixed(cases::Rng& rng, double x) {
  if (rng() % 2) return x;
  const double y = std::ldexp(x, static_cast<int>(rng() % 2101) - 1100);
  return std::isfinite(y) && y != 0 ? y : x;
}

cases::CcdQuery vf(cases::Vec3 p0, cases::Vec3 p1) {
  cases::CcdQuery q;  // triangle (0,0,0) (1,0,0) (0,1,0), at rest
  q.kind = cases::CcdKind::vertex_face;
  q.x = {p0, cases::Vec3(0, 0, 0), cases::Vec3(1, 0, 0), cases::Vec3(0, 1, 0),
         p1, cases::Vec3(0, 0, 0), cases::Vec3(1, 0, 0), cases::Vec3(0, 1, 0)};
  return q;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ccd_filtered_reference)

BOOST_AUTO_TEST_CASE(bit_identical_to_exact) {
  Tally t;
  for (const auto& c : cases::Ccd::canonical()) t.run(c.query);
  const std::size_t n = queries_per_generator();
  if (std::getenv("CONTACTBENCH_CCD_FILTER_N")) {
    for (const auto& c : cases::Ccd::public_queries("")) t.run(c.query);
  }
  // CONTACTBENCH_CCD_FILTER_GEN="random,scaled" limits the long run to those generators
  // (per-coordinate mixed magnitudes cost the exact path up to ~0.4 s a query).
  const char* only = std::getenv("CONTACTBENCH_CCD_FILTER_GEN");
  for (const char* gen : {"random", "degenerate", "mixed", "scaled"}) {
    if (only && std::string(only).find(gen) == std::string::npos) continue;
    for (std::size_t i = 0; i < n; ++i) {
      cases::Rng rng = cases::query_rng(20261124, "ccd_filtered", gen, i);
      const std::string g = gen;
      auto q = g == "degenerate" ? cases::Ccd::degenerate(rng).query : cases::Ccd::random(rng).query;
      if (g == "mixed")
        for (auto& v : q.x)
          for (int k = 0; k < 3; ++k) v[k] = mixed(rng, v[k]);
      if (g == "scaled") {
        const int r = static_cast<int>(rng() % 2101) - 1100;
        cases::CcdQuery s = q;
        bool ok = true;
        for (auto& v : s.x)
          for (int k = 0; k < 3; ++k) {
            const double y = std::ldexp(v[k], r);
            ok = ok && std::isfinite(y) && std::ldexp(y, -r) == v[k];  // exact scaling only
            v[k] = y;
          }
        if (ok) q = s;
      }
      t.run(q);
    }
  }
  BOOST_TEST_MESSAGE("ccd: " << t.queries << " queries, " << t.decided << " decided by the filter, "
                             << t.thrown << " raised, " << t.differing << " differing");
  BOOST_TEST(t.differing == 0u);
  BOOST_TEST(t.decided > t.queries / 8);  // the filter is not vacuous (about a quarter here)
}

// p crosses the plane z = 0 at t = 1/2 at (3/4, 3/4, 0): inside the triangle's bounding
// box (so the exact box filter does not settle it) but outside the triangle (x + y > 1).
BOOST_AUTO_TEST_CASE(certified_miss) {
  const auto q = vf({0.75, 0.75, 1}, {0.75, 0.75, -1});
  const auto r = reference::ccd_filtered(q);
  BOOST_TEST_REQUIRE(r.has_value());
  BOOST_TEST(!r->hit);
  BOOST_TEST(r->toi == 1.0);
  BOOST_TEST(r->toi_up == 1.0);
  BOOST_TEST(same(*r, reference::ccd_exact(q)));
}

// z(t) = 1 - 3t: p = (1/4, 1/4, 0) is inside the face at t* = 1/3. 1/3 = 0.0101...b, so
// its 52-bit significand 1.0101...01b·2^-2 = 0x1.5555555555555p-2 is below it (the next
// bits 0101... are not all zero) and 0x1.5555555555556p-2 above.
BOOST_AUTO_TEST_CASE(certified_hit_vertex_face) {
  const auto q = vf({0.25, 0.25, 1}, {0.25, 0.25, -2});
  const auto r = reference::ccd_filtered(q);
  BOOST_TEST_REQUIRE(r.has_value());
  BOOST_TEST(r->hit);
  BOOST_TEST(r->toi == 0x1.5555555555555p-2);
  BOOST_TEST(r->toi_up == 0x1.5555555555556p-2);
  BOOST_TEST((r->feature == cases::CcdFeature::vf_face));
  BOOST_TEST(same(*r, reference::ccd_exact(q)));
}

// Edge a from (-1,0,0) to (1,0,0) at rest; edge b = (0,-1,z)..(0,1,z) with z(t) = 1 - 3t:
// they cross at the origin, interior to both, at t* = 1/3 (toi as above).
BOOST_AUTO_TEST_CASE(certified_hit_edge_edge) {
  cases::CcdQuery q;
  q.kind = cases::CcdKind::edge_edge;
  q.x = {cases::Vec3(-1, 0, 0), cases::Vec3(1, 0, 0), cases::Vec3(0, -1, 1), cases::Vec3(0, 1, 1),
         cases::Vec3(-1, 0, 0), cases::Vec3(1, 0, 0), cases::Vec3(0, -1, -2), cases::Vec3(0, 1, -2)};
  const auto r = reference::ccd_filtered(q);
  BOOST_TEST_REQUIRE(r.has_value());
  BOOST_TEST(r->hit);
  BOOST_TEST(r->toi == 0x1.5555555555555p-2);
  BOOST_TEST(r->toi_up == 0x1.5555555555556p-2);
  BOOST_TEST((r->feature == cases::CcdFeature::ee_interior));
  BOOST_TEST(same(*r, reference::ccd_exact(q)));
}

// Contact exactly at a double, each decided by the filter: touching at t = 0 (p starts on
// the face) and first touch at t = 1 (z(t) = 1 - t) by exact signs at the ends of the step;
// z(t) = 1 - 2t (t* = 1/2) by f(1/2) = 0 exactly. toi = toi_up = t*, feature vf_face.
BOOST_AUTO_TEST_CASE(touching_at_a_double) {
  struct Case {
    cases::CcdQuery q;
    double t;
  };
  for (const auto& [q, t] : {Case{vf({0.25, 0.25, 0}, {0.25, 0.25, -1}), 0.0},
                             Case{vf({0.25, 0.25, 1}, {0.25, 0.25, 0}), 1.0},
                             Case{vf({0.25, 0.25, 1}, {0.25, 0.25, -1}), 0.5}}) {
    BOOST_TEST(reference::ccd_filtered(q).has_value());
    const auto r = reference::ccd(q);
    BOOST_TEST(r.hit);
    BOOST_TEST(r.toi == t);
    BOOST_TEST(r.toi_up == t);
    BOOST_TEST((r.feature == cases::CcdFeature::vf_face));
    BOOST_TEST(same(r, reference::ccd_exact(q)));
  }
}

// p slides along the edge a b (y = 0) from outside to a point of it: p(t) = (2 - 2t, 0, 0)
// is on the closed edge for t >= 1/2 (x <= 1), and coplanar all the time (f = 0): the
// filter gives up (f has no strict sign anywhere) and the exact path answers t* = 1/2 on
// the edge's endpoint b = (1, 0, 0): feature vf_vertex.
BOOST_AUTO_TEST_CASE(coplanar_sliding_falls_back) {
  const auto q = vf({2, 0, 0}, {0, 0, 0});
  BOOST_TEST(!reference::ccd_filtered(q).has_value());
  const auto r = reference::ccd(q);
  BOOST_TEST(r.hit);
  BOOST_TEST(r.toi == 0.5);
  BOOST_TEST(r.toi_up == 0.5);
  BOOST_TEST((r.feature == cases::CcdFeature::vf_vertex));
}

// The hits at t* = 1/3 above, times 2^-1060 (subnormal coordinates: 1/4 -> 2^-1062),
// 2^-1000 and 2^1000: every coordinate scales exactly, positions at every t scale by the
// same factor, so the contact time, toi, toi_up and the feature are those derived above, and
// the filter (which works on the query rescaled to scale 1) decides them. feature_margin is
// scale-free (a distance over ccd_scale): the nearest boundary is the edge y = 0 at distance
// sqrt(1/16 + z^2) (z about 2^-53 at toi) for vertex-face, the ends of b at distance 1 for
// edge-edge; over the scale 2 that is 1/8 resp. 1/2, and the same bits as unscaled.
BOOST_AUTO_TEST_CASE(scaled_by_powers_of_two) {
  cases::CcdQuery ee;
  ee.kind = cases::CcdKind::edge_edge;
  ee.x = {cases::Vec3(-1, 0, 0), cases::Vec3(1, 0, 0), cases::Vec3(0, -1, 1), cases::Vec3(0, 1, 1),
          cases::Vec3(-1, 0, 0), cases::Vec3(1, 0, 0), cases::Vec3(0, -1, -2), cases::Vec3(0, 1, -2)};
  struct Case {
    cases::CcdQuery q;
    cases::CcdFeature feature;
    double margin;
  };
  for (const auto& [q, feature, margin] : {Case{vf({0.25, 0.25, 1}, {0.25, 0.25, -2}), cases::CcdFeature::vf_face, 0.125},
                                           Case{ee, cases::CcdFeature::ee_interior, 0.5}}) {
    const auto unscaled = reference::ccd(q);
    BOOST_TEST(unscaled.feature_margin == margin, boost::test_tools::tolerance(1e-12));
    for (const int k : {-1060, -1000, 1000}) {
      cases::CcdQuery s = q;
      for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 3; ++i) {
          s.x[j][i] = std::ldexp(q.x[j][i], k);
          BOOST_TEST_REQUIRE(std::ldexp(s.x[j][i], -k) == q.x[j][i]);  // exact scaling
        }
      BOOST_TEST(cases::ccd_scale(s) == std::ldexp(2.0, k));
      const auto r = reference::ccd_filtered(s);
      BOOST_TEST_REQUIRE(r.has_value());
      BOOST_TEST(r->hit);
      BOOST_TEST(r->toi == 0x1.5555555555555p-2);
      BOOST_TEST(r->toi_up == 0x1.5555555555556p-2);
      BOOST_TEST((r->feature == feature));
      BOOST_TEST(same(*r, unscaled));
      BOOST_TEST(same(*r, reference::ccd_exact(s)));
    }
  }
}

// The vertex-face hit at t* = 1/3 at scale 2^1000 with the triangle's vertex a moved from
// the origin to (2^-1074, 0, 0): still in the plane z = 0 and p = 2^998 (1, 1) is still
// inside the face, so t* = 1/3 as derived above. Rescaling to scale 1 would round 2^-1074
// to 0: the filter gives up and the exact path answers.
BOOST_AUTO_TEST_CASE(inexact_rescaling_falls_back) {
  auto q = vf({0.25, 0.25, 1}, {0.25, 0.25, -2});
  for (auto& v : q.x)
    for (int i = 0; i < 3; ++i) v[i] = std::ldexp(v[i], 1000);
  q.x[1][0] = q.x[5][0] = 0x1p-1074;
  BOOST_TEST(!reference::ccd_filtered(q).has_value());
  const auto r = reference::ccd(q);
  BOOST_TEST(r.hit);
  BOOST_TEST(r.toi == 0x1.5555555555555p-2);
  BOOST_TEST(r.toi_up == 0x1.5555555555556p-2);
  BOOST_TEST((r.feature == cases::CcdFeature::vf_face));
}

BOOST_AUTO_TEST_SUITE_END()
