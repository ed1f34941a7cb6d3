// Suite `filtered_reference`: the filtered references (double-double stage with a running
// error bound, exact path behind it) give bit for bit the answers of their exact paths.
// Both are run on the canonical cases and on generated random and degenerate queries; every
// output double is compared by its bits. CI runs a few hundred queries per family and
// generator; CONTACTBENCH_FILTER_N=1000000 runs the long comparison.
#include "cases/barrier.hpp"
#include "cases/closest_feature.hpp"
#include "cases/ground_ccd.hpp"
#include "reference/barrier.hpp"
#include "reference/closest_feature.hpp"
#include "reference/ground_ccd.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
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

template <class Family, class R>
Tally run_family(const char* family, R (*filtered)(const typename Family::Query&),
                 R (*exact)(const typename Family::Query&),
                 const std::function<void(Tally&, const R&, const R&)>& fields,
                 const std::function<void(Tally&, const typename Family::Query&)>& extra = {}) {
  Tally t;
  auto one = [&](const typename Family::Query& q) {
    const std::size_t before = t.differing;
    compare(t, q, filtered, exact, fields);
    if (extra) extra(t, q);
    if (t.differing > before && before < 5) BOOST_TEST_MESSAGE("differs: " << Family::to_json(q).dump());
  };
  for (const auto& c : Family::canonical()) one(c.query);
  const std::size_t n = queries_per_generator();
  for (const char* gen : {"random", "degenerate"})
    for (std::size_t i = 0; i < n; ++i) {
      cases::Rng rng = cases::query_rng(20261124, family, gen, i);
      one(std::string(gen) == "random" ? Family::random(rng).query : Family::degenerate(rng).query);
    }
  BOOST_TEST_MESSAGE(family << ": " << t.queries << " queries, " << t.doubles << " doubles compared, "
                            << t.thrown << " raised, " << t.differing << " differing");
  return t;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(filtered_reference)

BOOST_AUTO_TEST_CASE(closest_feature_bit_identical) {
  using R = cases::ClosestFeatureResult;
  const Tally t = run_family<cases::ClosestFeature, R>(
      "closest_feature", &reference::closest_feature, &reference::closest_feature_exact,
      [](Tally& t, const R& a, const R& b) {
        t.same(static_cast<long>(a.region), static_cast<long>(b.region));
        for (int i = 0; i < 3; ++i) t.same(a.point[i], b.point[i]);
        t.same(a.squared_distance, b.squared_distance);
        t.same(a.margin, b.margin);
      });
  BOOST_TEST(t.differing == 0u);
  BOOST_TEST(t.doubles > 0u);
}

BOOST_AUTO_TEST_CASE(barrier_bit_identical) {
  using R = cases::BarrierResult;
  const Tally t = run_family<cases::Barrier, R>(
      "barrier", &reference::barrier, &reference::barrier_exact,
      [](Tally& t, const R& a, const R& b) {
        t.same(long{a.active}, long{b.active});
        t.same(a.value, b.value);
        t.same(a.gradient, b.gradient);
        t.same(a.hessian, b.hessian);
      },
      [](Tally& t, const cases::BarrierQuery& q) {
        t.same(reference::barrier_active_margin(q), reference::barrier_active_margin_exact(q));
      });
  BOOST_TEST(t.differing == 0u);
  BOOST_TEST(t.doubles > 0u);
}

BOOST_AUTO_TEST_CASE(ground_ccd_bit_identical) {
  using R = cases::GroundCcdResult;
  const Tally t = run_family<cases::GroundCcd, R>(
      "ground_ccd", &reference::ground_ccd, &reference::ground_ccd_exact,
      [](Tally& t, const R& a, const R& b) {
        t.same(a.alpha, b.alpha);
        t.same(long{a.binding}, long{b.binding});
        t.same(a.margin, b.margin);
      },
      [](Tally& t, const cases::GroundCcdQuery& q) {
        if (q.y.size() != q.py.size()) return;
        for (std::size_t i = 0; i < q.y.size(); ++i) {
          try {
            t.same(reference::ground_ccd_direction_margin(q, i), reference::ground_ccd_direction_margin_exact(q, i));
          } catch (const std::exception&) {
            // node below the ground: both raise (ground_ccd's own comparison counts it)
          }
        }
      });
  BOOST_TEST(t.differing == 0u);
  BOOST_TEST(t.doubles > 0u);
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

BOOST_AUTO_TEST_SUITE_END()
