// Suite `filtered_reference`: the filtered references (double-double stage with a running
// error bound, exact path behind it) give bit for bit the answers of their exact paths.
// Both are run on the canonical cases, on generated random and degenerate queries, and on
// random queries with coordinates scaled to mixed magnitudes; every output double is
// compared by its bits. CI runs a few hundred queries per family and
// generator; CONTACTBENCH_FILTER_N=1000000 runs the long comparison.
#include "cases/barrier.hpp"
#include "cases/closest_feature.hpp"
#include "cases/edge_smoothing.hpp"
#include "cases/ground_ccd.hpp"
#include "reference/barrier.hpp"
#include "reference/closest_feature.hpp"
#include "reference/edge_smoothing.hpp"
#include "reference/ground_ccd.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace contactbench;

namespace {

std::size_t queries_per_generator() {
  const char* n = std::getenv("CONTACTBENCH_FILTER_N");
  return n ? std::strtoull(n, nullptr, 10) : 300;
}

// Counts of one family's comparison.
struct Tally {
  std::size_t queries = 0, doubles = 0, differing = 0, thrown = 0;

  void same(double a, double b) {
    ++doubles;
    if (std::bit_cast<std::uint64_t>(a) != std::bit_cast<std::uint64_t>(b)) ++differing;
  }
  void same(long a, long b) { differing += a != b; }
};

// Runs filtered and exact on one query; an exception must be the same on both.
template <class Q, class R>
void compare(Tally& t, const Q& q, R (*filtered)(const Q&), R (*exact)(const Q&),
             const std::function<void(Tally&, const R&, const R&)>& fields) {
  ++t.queries;
  std::string fe, ee;
  R a{}, b{};
  try { a = filtered(q); } catch (const std::exception& e) { fe = e.what(); }
  try { b = exact(q); } catch (const std::exception& e) { ee = e.what(); }
  if (!fe.empty() || !ee.empty()) {
    ++t.thrown;
    t.differing += fe != ee;
    return;
  }
  fields(t, a, b);
}

// x times 2^r, r uniform in [-1100, 1000] (half of the time, and when finite and nonzero;
// else x): random queries pushed to mixed magnitudes, subnormal and near-overflow, where the
// filter's scalings must give up correctly.
double mixed(cases::Rng& rng, double x) {
  if (rng() % 2) return x;
  const double y = std::ldexp(x, static_cast<int>(rng() % 2101) - 1100);
  return std::isfinite(y) && y != 0 ? y : x;  // no new zeros: d̂, κ, A > 0 stay valid
}

template <class Family, class R>
void run_family(const char* family, R (*filtered)(const typename Family::Query&),
                 R (*exact)(const typename Family::Query&),
                 const std::function<void(Tally&, const R&, const R&)>& fields,
                 const std::function<void(Tally&, const typename Family::Query&)>& extra,
                 const std::function<void(cases::Rng&, typename Family::Query&)>& mix) {
  Tally t;
  auto one = [&](const typename Family::Query& q) {
    const std::size_t before = t.differing;
    compare(t, q, filtered, exact, fields);
    if (extra) extra(t, q);
    if (t.differing > before && before < 5) BOOST_TEST_MESSAGE("differs: " << Family::to_json(q).dump());
  };
  for (const auto& c : Family::canonical()) one(c.query);
  const std::size_t n = queries_per_generator();
  for (const char* gen : {"random", "degenerate", "mixed"})
    for (std::size_t i = 0; i < n; ++i) {
      cases::Rng rng = cases::query_rng(20261124, family, gen, i);
      const std::string g = gen;
      auto query = g == "degenerate" ? Family::degenerate(rng).query : Family::random(rng).query;
      if (g == "mixed") mix(rng, query);
      one(query);
    }
  BOOST_TEST_MESSAGE(family << ": " << t.queries << " queries, " << t.doubles << " doubles compared, "
                            << t.thrown << " raised, " << t.differing << " differing");
  BOOST_TEST(t.differing == 0u);
  BOOST_TEST(t.doubles > 0u);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(filtered_reference)

BOOST_AUTO_TEST_CASE(closest_feature_bit_identical) {
  using R = cases::ClosestFeatureResult;
  run_family<cases::ClosestFeature, R>(
      "closest_feature", &reference::closest_feature, &reference::closest_feature_exact,
      [](Tally& t, const R& a, const R& b) {
        t.same(static_cast<long>(a.region), static_cast<long>(b.region));
        for (int i = 0; i < 3; ++i) t.same(a.point[i], b.point[i]);
        t.same(a.squared_distance, b.squared_distance);
        t.same(a.margin, b.margin);
      },
      {},
      [](cases::Rng& rng, cases::ClosestFeatureQuery& q) {
        for (auto* v : {&q.p, &q.a, &q.b, &q.c})
          for (int i = 0; i < 3; ++i) (*v)[i] = mixed(rng, (*v)[i]);
      });
}

BOOST_AUTO_TEST_CASE(barrier_bit_identical) {
  using R = cases::BarrierResult;
  run_family<cases::Barrier, R>(
      "barrier", &reference::barrier, &reference::barrier_exact,
      [](Tally& t, const R& a, const R& b) {
        t.same(long{a.active}, long{b.active});
        t.same(a.value, b.value);
        t.same(a.gradient, b.gradient);
        t.same(a.hessian, b.hessian);
      },
      [](Tally& t, const cases::BarrierQuery& q) {
        t.same(reference::barrier_active_margin(q), reference::barrier_active_margin_exact(q));
      },
      [](cases::Rng& rng, cases::BarrierQuery& q) {
        for (double* x : {&q.d, &q.dhat, &q.kappa, &q.area}) *x = mixed(rng, *x);
      });
}

BOOST_AUTO_TEST_CASE(ground_ccd_bit_identical) {
  using R = cases::GroundCcdResult;
  run_family<cases::GroundCcd, R>(
      "ground_ccd", &reference::ground_ccd, &reference::ground_ccd_exact,
      [](Tally& t, const R& a, const R& b) {
        t.same(a.alpha, b.alpha);
        t.same(long{a.binding}, long{b.binding});
        t.same(a.margin, b.margin);
      },
      [](Tally& t, const cases::GroundCcdQuery& q) {
        // The harness asks for direction margins of valid queries only (nodes above the ground).
        if (q.y.size() != q.py.size()) return;
        for (const double y : q.y)
          if (!(y > q.y_ground)) return;
        for (std::size_t i = 0; i < q.y.size(); ++i)
          t.same(reference::ground_ccd_direction_margin(q, i), reference::ground_ccd_direction_margin_exact(q, i));
      },
      [](cases::Rng& rng, cases::GroundCcdQuery& q) {
        q.y_ground = mixed(rng, q.y_ground);
        for (double& y : q.y) y = mixed(rng, y);
        for (double& p : q.py) p = mixed(rng, p);
      });
}

BOOST_AUTO_TEST_CASE(edge_smoothing_bit_identical) {
  using R = cases::EdgeSmoothingResult;
  run_family<cases::EdgeSmoothing, R>(
      "edge_smoothing", &reference::edge_smoothing, &reference::edge_smoothing_exact,
      [](Tally& t, const R& a, const R& b) {
        t.same(static_cast<long>(a.region), static_cast<long>(b.region));
        t.same(long{a.side}, long{b.side});
        t.same(static_cast<long>(a.zone), static_cast<long>(b.zone));
        t.same(long{a.adjusted}, long{b.adjusted});
        t.same(long{a.centre_on_facet}, long{b.centre_on_facet});
        t.same(long{a.polar}, long{b.polar});
        t.same(long{a.cone_i}, long{b.cone_i});
        t.same(long{a.cone_j}, long{b.cone_j});
        for (int i = 0; i < 3; ++i) t.same(a.normal[i], b.normal[i]);
        for (int i = 0; i < 3; ++i) t.same(a.point[i], b.point[i]);
        for (auto f : {&R::overlap, &R::region_margin, &R::side_margin, &R::zone_margin, &R::cone_margin,
                       &R::on_facet_margin, &R::polar_margin, &R::feature_margin, &R::condition})
          t.same(a.*f, b.*f);
        t.same(static_cast<long>(a.generator_gap.size()), static_cast<long>(b.generator_gap.size()));
        for (std::size_t i = 0; i < std::min(a.generator_gap.size(), b.generator_gap.size()); ++i)
          t.same(a.generator_gap[i], b.generator_gap[i]);
      },
      {},
      [](cases::Rng& rng, cases::EdgeSmoothingQuery& q) {
        // Every coordinate (centre, radius, mesh vertices) at its own magnitude; when that
        // mesh is refused (a facet collinear in doubles), the whole query scaled by one 2^r.
        const cases::Mesh& m = *q.mesh;
        auto vertices = m.vertices();
        for (auto& v : vertices)
          for (int i = 0; i < 3; ++i) v[i] = mixed(rng, v[i]);
        try {
          q.mesh = std::make_shared<const cases::Mesh>(vertices, m.facets());
          for (int i = 0; i < 3; ++i) q.centre[i] = mixed(rng, q.centre[i]);
          q.radius = mixed(rng, q.radius);
        } catch (const cases::InputError&) {
          const int r = static_cast<int>(rng() % 2101) - 1100;
          vertices = m.vertices();
          bool finite = std::isfinite(std::ldexp(q.radius, r)) && std::ldexp(q.radius, r) != 0;
          for (auto& v : vertices)
            for (int i = 0; i < 3; ++i) finite = finite && std::isfinite(v[i] = std::ldexp(v[i], r));
          finite = finite && std::isfinite(std::ldexp(q.centre.cwiseAbs().maxCoeff(), r));
          if (!finite) return;
          try {
            q.mesh = std::make_shared<const cases::Mesh>(vertices, m.facets());
            for (int i = 0; i < 3; ++i) q.centre[i] = std::ldexp(q.centre[i], r);
            q.radius = std::ldexp(q.radius, r);
          } catch (const cases::InputError&) {  // under- or overflow made a facet collinear
          }
        }
      });
}

// Hand-derived edge smoothing on one facet a = 0, b = (4, 0, 0), c = (0, 4, 0) (n1 = +z):
// centre (1, 1, 3) projects to (1, 1, 0) inside the face, 3 above it, so side +1, the side
// margin and |D| are exactly 3 (exact doubles, which the double-double stage cannot round up
// and hands to the rationals), overlap 5 - 3 = 2, n = +z. Centre (1, 1, 0): on the facet,
// side 0, both margins 0, overlap = radius, normal n1 / |n1| = +z, point = centre.
BOOST_AUTO_TEST_CASE(edge_smoothing_face_by_hand) {
  const auto mesh = std::make_shared<const cases::Mesh>(
      std::vector<cases::Vec3>{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}, std::vector<std::array<int, 3>>{{0, 1, 2}});
  for (auto f : {&reference::edge_smoothing, &reference::edge_smoothing_exact}) {
    const auto above = f({.centre = {1, 1, 3}, .radius = 5, .mesh = mesh, .facet = 0});
    BOOST_TEST((above.region == cases::Region::face));
    BOOST_TEST(above.side == 1);
    BOOST_TEST(above.side_margin == 3.0);
    BOOST_TEST(above.on_facet_margin == 3.0);
    BOOST_TEST(above.overlap == 2.0);
    BOOST_TEST(!above.centre_on_facet);
    BOOST_TEST((above.zone == cases::Zone::none));
    BOOST_TEST((above.normal == cases::Vec3(0, 0, 1)));
    BOOST_TEST((above.point == cases::Vec3(1, 1, 0)));
    const auto on = f({.centre = {1, 1, 0}, .radius = 5, .mesh = mesh, .facet = 0});
    BOOST_TEST(on.centre_on_facet);
    BOOST_TEST(on.side == 0);
    BOOST_TEST(on.side_margin == 0.0);
    BOOST_TEST(on.on_facet_margin == 0.0);
    BOOST_TEST(on.overlap == 5.0);
    BOOST_TEST((on.normal == cases::Vec3(0, 0, 1)));
    BOOST_TEST((on.point == cases::Vec3(1, 1, 0)));
  }
}

// Hand-derived values through the double-double logarithm: s = d/d̂ = 1/2, A = 1, κ = 2, so
// K = Aκ/2 = 1, P = K(d̂ - d) = 1/2, R = P/d = 1 and b = ln 2 / 2, b' = -(1 + ln 2),
// b'' = K(d + d̂)/d² = 6. ln 2 = 0x0.b17217f7d1cf79ab... = 0x1.62e42fefa39ef357...p-1: the
// digit after the 52nd bit is 3, so it rounds down to 0x1.62e42fefa39efp-1; 1 + ln 2 =
// 0x1.b17217f7d1cf7|9ab... rounds up to 0x1.b17217f7d1cf8p+0.
BOOST_AUTO_TEST_CASE(barrier_log_by_hand) {
  const cases::BarrierQuery q{.d = 0.5, .dhat = 1, .kappa = 2, .area = 1};
  for (auto f : {&reference::barrier, &reference::barrier_exact}) {
    const auto r = f(q);
    BOOST_TEST(r.active);
    BOOST_TEST(r.value == 0x1.62e42fefa39efp-2);
    BOOST_TEST(r.gradient == -0x1.b17217f7d1cf8p+0);
    BOOST_TEST(r.hessian == 6.0);
  }
  // d an ulp below d̂ (s = 1 - ε, ε = 2^-53): P = K·ε = 2^-53 and |ln s| = ε + ε²/2 + ...,
  // so b = 2^-106 (1 + 2^-54 + ...) rounds to 2^-106; b'' = (2 - ε)/(1 - ε)² = 2 + 3ε + ...
  // rounds to 2 + 4ε (ulp of 2 is 4ε; 3ε lies past its half).
  const cases::BarrierQuery near{.d = 1 - 0x1p-53, .dhat = 1, .kappa = 2, .area = 1};
  for (auto f : {&reference::barrier, &reference::barrier_exact}) {
    BOOST_TEST(f(near).value == 0x1p-106);
    BOOST_TEST(f(near).hessian == 2 + 0x1p-51);
  }
}

// The plain-double region stage of closest_feature on hand-derived queries: triangle a = 0,
// b = x̂, c = ŷ (normal ẑ) and translates of it. It decides where every needed decision value
// clears its rounding bound, defers at exact zeros and under cancellation; the answer is the
// exact path's in every case.
BOOST_AUTO_TEST_CASE(closest_feature_plain_stage_by_hand) {
  using cases::Region;
  using cases::Vec3;
  auto same_as_exact = [](const cases::ClosestFeatureQuery& q) {
    const auto a = reference::closest_feature(q), b = reference::closest_feature_exact(q);
    BOOST_TEST(static_cast<int>(a.region) == static_cast<int>(b.region));
    for (int i = 0; i < 3; ++i) BOOST_TEST(std::bit_cast<std::uint64_t>(a.point[i]) == std::bit_cast<std::uint64_t>(b.point[i]));
    BOOST_TEST(std::bit_cast<std::uint64_t>(a.squared_distance) == std::bit_cast<std::uint64_t>(b.squared_distance));
    BOOST_TEST(std::bit_cast<std::uint64_t>(a.margin) == std::bit_cast<std::uint64_t>(b.margin));
    return a;
  };
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  struct Case {
    Vec3 p;
    Region region;
    Vec3 point;
    double d2;
  };
  // Decided: above the face (s_k = 0.25, 0.25, 0.5 in units of |n|·|e_k|), below vertex a,
  // beside edge ab.
  for (const Case& k : {Case{{0.25, 0.25, 1}, Region::face, {0.25, 0.25, 0}, 1.0},
                        Case{{-1, -1, 0.5}, Region::vertex0, {0, 0, 0}, 2.25},
                        Case{{0.5, -1, 0}, Region::edge0, {0.5, 0, 0}, 1.0}}) {
    for (const double shift : {0.0, 0x1p30}) {  // a translate: exact differences, same bounds
      const Vec3 o(shift, shift, shift);
      const cases::ClosestFeatureQuery q{k.p + o, a + o, b + o, c + o};
      const auto plain = reference::closest_feature_plain_region(q);
      BOOST_TEST_REQUIRE(plain.has_value());
      BOOST_TEST(static_cast<int>(*plain) == static_cast<int>(k.region));
      const auto r = same_as_exact(q);
      BOOST_TEST(static_cast<int>(r.region) == static_cast<int>(k.region));
      BOOST_TEST(r.point == Vec3(k.point + o));
      BOOST_TEST(r.squared_distance == k.d2);
    }
  }
  // Face margin: p = (1/4, 1/4, 1) is 1/4 from the side planes of ab and ca (and 1/(2√2)
  // from bc's); the longest edge is √2: margin 1/(4√2), rounded up.
  const auto face = same_as_exact({{0.25, 0.25, 1}, a, b, c});
  BOOST_TEST(face.margin >= 0.25 / std::sqrt(2.0) * (1 - 0x1p-50));
  BOOST_TEST(face.margin <= 0.25 / std::sqrt(2.0) * (1 + 0x1p-50));
  // Deferred: p = (1/2, 0, 1) lies on the side plane of ab (s_0 = 0 exactly): region edge0,
  // its own projection (1/2, 0, 0) at distance 1, margin 0.
  {
    const cases::ClosestFeatureQuery q{{0.5, 0, 1}, a, b, c};
    BOOST_TEST(!reference::closest_feature_plain_region(q).has_value());
    const auto r = same_as_exact(q);
    BOOST_TEST(static_cast<int>(r.region) == static_cast<int>(Region::edge0));
    BOOST_TEST(r.point == Vec3(0.5, 0, 0));
    BOOST_TEST(r.squared_distance == 1.0);
    BOOST_TEST(r.margin == 0.0);
  }
  // Deferred under cancellation: a = 0, b = (3, 1, 0), c = (0, 2, 0), n = (0, 0, 6),
  // p = (3/2 + 2^-52, 1/2, 1): s_0 = 6·(3/2 − (3/2 + 2^-52)) = −3·2^-51, far inside its
  // bound 16u·6·3 ≈ 2^-44.8. dn_0 = 5 + 3·2^-52 > 0, dp_1 = 5 − 3·2^-52 > 0, every vertex
  // test fails (dn_1 = 4 − 3·2^-52, dn_2 = 3): region edge0. Squared distance
  // |w_0 × e_0|²/|e_0|² = (10 + 2^-104)/10, which rounds to 1.
  {
    const cases::ClosestFeatureQuery q{{1.5 + 0x1p-52, 0.5, 1}, a, {3, 1, 0}, {0, 2, 0}};
    BOOST_TEST(!reference::closest_feature_plain_region(q).has_value());
    const auto r = same_as_exact(q);
    BOOST_TEST(static_cast<int>(r.region) == static_cast<int>(Region::edge0));
    BOOST_TEST(r.squared_distance == 1.0);
  }
  // Mixed magnitudes (found by the 1e6 mixed comparison): region vertex0, whose second margin
  // term dp_0²/|e_2|² squares a value near 1e-163 (scaled) into the subnormal range; the
  // plain stage must not choose the least term from such squares.
  same_as_exact({{104041168.20540349, -2.5831753728112865e-153, 169622490.82141325},
                 {104041168.17930512, -290537083.0183881, 169622490.83764252},
                 {104041168.15961963, -290537083.0130126, 3.142550814982525e+86},
                 {104041168.82405923, -290537082.2540116, 44465518239334.31}});
  // Collinear vertices: the normal is exactly 0, the stage defers and the reference refuses.
  {
    const cases::ClosestFeatureQuery q{{0, 1, 0}, a, {1, 1, 1}, {2, 2, 2}};
    BOOST_TEST(!reference::closest_feature_plain_region(q).has_value());
    BOOST_CHECK_THROW(reference::closest_feature(q), cases::InputError);
  }
}

BOOST_AUTO_TEST_SUITE_END()
