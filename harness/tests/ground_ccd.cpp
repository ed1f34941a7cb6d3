// Suite `ground_ccd`: the book's ground CCD (ipc-square-drop.txt, Implementation 8.3.2).
#include "harness/pairs/ground_ccd.hpp"
#include "harness/pairs/ulp.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace contactbench;
using cases::GroundCcdQuery;
using V = std::vector<double>;

BOOST_AUTO_TEST_SUITE(ground_ccd)

BOOST_AUTO_TEST_SUITE(reference)

// Hand cases on the dyadic grid, where every exact value is known.
BOOST_AUTO_TEST_CASE(hand_cases) {
  auto ref = [](GroundCcdQuery q) { return contactbench::reference::ground_ccd(q); };
  // Raw ratio (y_g - y)/p = 1 (the step reaches the ground exactly): alpha = 9/10.
  auto r = ref({-1, V{-0.5}, V{-0.5}});
  BOOST_TEST(r.alpha == 0.9);  // the double nearest 9/10
  BOOST_TEST(r.binding == 0);
  BOOST_TEST(r.margin == 1.0 / 9);  // runner-up is the cap 1: (1 - 0.9)/0.9
  // Ratio 2: 9/5 > 1, capped; nothing binds.
  r = ref({-1, V{-0.5}, V{-0.25}});
  BOOST_TEST(r.alpha == 1.0);
  BOOST_TEST(r.binding == -1);
  // p_y = 0 and p_y > 0 never constrain; no candidates at all: margin +inf.
  r = ref({-1, V{-0.5, -0.25, 0.0}, V{0.0, 0.125, 0.0}});
  BOOST_TEST(r.alpha == 1.0);
  BOOST_TEST(r.binding == -1);
  BOOST_TEST(std::isinf(r.margin));
  // A node exactly d̂ = 0.01 above the ground, moving down by 0.01: ratio exactly 1.
  r = ref({0, V{0.02, 0.01}, V{-0.01, -0.01}});
  BOOST_TEST(r.alpha == 0.9);
  BOOST_TEST(r.binding == 1);
  BOOST_TEST(r.margin == 1.0 / 9);  // runner-up is the cap 1 (node 0: 9/10·2 = 1.8 > 1)
  // Exact tie of two different nodes (ratios 1/2): the first one binds, margin 0.
  r = ref({-1, V{-0.75, -0.5}, V{-0.5, -1.0}});
  BOOST_TEST(r.alpha == 0.45);
  BOOST_TEST(r.binding == 0);
  BOOST_TEST(r.margin == 0.0);
  // Runner-up gap: candidates 9/10·1/2 = 0.45 and 9/10·5/8 = 0.5625: margin exactly 1/4.
  r = ref({-1, V{-0.375, -0.5}, V{-1.0, -1.0}});
  BOOST_TEST(r.binding == 1);
  BOOST_TEST(r.alpha == 0.45);
  BOOST_TEST(r.margin == 0.25);
}

// The reference is the exact value rounded once: 9/10 · 1/3 = 3/10 from y_g - y = 1/4,
// p = -3/4, where the fast variant's three roundings may land elsewhere.
BOOST_AUTO_TEST_CASE(rounded_once) {
  const auto r = contactbench::reference::ground_ccd({-1, V{-0.75}, V{-0.75}});
  BOOST_TEST(r.alpha == 0.3);  // nearest double to 3/10
}

BOOST_AUTO_TEST_CASE(node_on_or_below_ground_is_an_error) {
  for (double y : {-1.0, -1.5}) {
    BOOST_CHECK_THROW(contactbench::reference::ground_ccd({-1, V{-0.5, y}, V{0.0, -1.0}}),
                      std::domain_error);
    BOOST_CHECK_THROW(contactbench::fast::ground_ccd({-1, V{-0.5, y}, V{0.0, -1.0}}),
                      std::domain_error);
  }
  const cases::Where w{"q.jsonl", "line 1"};
  const char* bad[] = {R"({"y": [-0.5, -1.0], "py": [0, -1]})", R"({"y": [-0.5], "py": [0, -1]})",
                       R"({"y": [], "py": []})", R"({"y": [-0.5], "py": ["x"]})",
                       R"({"y_ground": "inf", "y": [-0.5], "py": [-1]})", R"({"py": [-1]})"};
  const char* field[] = {"field y[1]", "field py", "field y", "field py[0]", "field y_ground",
                         "field y"};
  for (int i = 0; i < 6; ++i) {
    try {
      harness::GroundCcdPair::query_from_json(nlohmann::json::parse(bad[i]), w);
      BOOST_ERROR("accepted " << bad[i]);
    } catch (const cases::InputError& e) {
      BOOST_TEST(std::string(e.what()).find(field[i]) != std::string::npos, e.what());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(fast)

// The book's loop keeps the earlier value on ties (Python's min) and ignores p_y >= 0.
BOOST_AUTO_TEST_CASE(book_semantics) {
  auto r = contactbench::fast::ground_ccd({-1, V{-0.5, -0.5, -0.5}, V{0.5, -0.5, -0.5}});
  BOOST_TEST(r.binding == 1);
  BOOST_TEST(r.alpha == 0.9 * -0.5 / -0.5);
  r = contactbench::fast::ground_ccd({-1, V{-0.5}, V{-1e-300}});
  BOOST_TEST(r.alpha == 1.0);
  BOOST_TEST(r.binding == -1);
}

// The scaled bound keeps every node strictly above the ground after x + alpha p (the
// reason for the book's 0.9), checked in double on random queries.
BOOST_AUTO_TEST_CASE(step_keeps_nodes_above_ground) {
  for (std::uint64_t i = 0; i < 20000; ++i) {
    auto rng = cases::query_rng(3, "ground_ccd", "random", i);
    const auto q = cases::random_ground_ccd(rng);
    const auto r = contactbench::fast::ground_ccd(q);
    BOOST_TEST_REQUIRE(r.alpha > 0.0);
    BOOST_TEST_REQUIRE(r.alpha <= 1.0);
    for (std::size_t k = 0; k < q.y.size(); ++k)
      BOOST_TEST_REQUIRE(q.y[k] + r.alpha * q.py[k] > q.y_ground);
  }
}

BOOST_AUTO_TEST_CASE(run_twice_deterministic) {
  for (std::uint64_t i = 0; i < 2000; ++i) {
    auto rng = cases::query_rng(9, "ground_ccd", "degenerate", i);
    const auto q = cases::degenerate_ground_ccd(rng);
    const auto a = contactbench::fast::ground_ccd(q), b = contactbench::fast::ground_ccd(q);
    BOOST_TEST_REQUIRE(a.binding == b.binding);
    BOOST_TEST_REQUIRE(std::memcmp(&a.alpha, &b.alpha, sizeof a.alpha) == 0);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(agreement)

BOOST_AUTO_TEST_CASE(within_bounds) {
  harness::CheckOptions o;
  o.n = 20000;
  o.seed = 5;
  o.timing = false;
  const auto s = harness::detail::check<harness::GroundCcdPair>(o);
  BOOST_TEST_MESSAGE("ground_ccd: " << s.total.queries << " queries, max alpha ULP "
                                    << s.errors.at("alpha_ulp").max << ", boundary "
                                    << s.total.boundary);
  BOOST_TEST(s.total.wrong == 0u);
  BOOST_TEST(s.total.queries == 20000u + harness::GroundCcdPair::canonical(o).size());
  // What the boundary cases are: on the generated sets, `binding` differs only on exact
  // ties between nodes (margin 0), which the book's rounded formula breaks either way.
  std::uint64_t ties = 0, other = 0;
  for (std::uint64_t i = 0; i < o.n; ++i) {
    auto rng = cases::query_rng(o.seed, "ground_ccd", i % 2 ? "degenerate" : "random", i);
    const auto q = i % 2 ? cases::degenerate_ground_ccd(rng) : cases::random_ground_ccd(rng);
    const auto r = contactbench::reference::ground_ccd(q), f = contactbench::fast::ground_ccd(q);
    if (r.binding != f.binding) ++(r.margin == 0 ? ties : other);
  }
  BOOST_TEST_MESSAGE("ground_ccd: binding differs on " << ties << " exact ties, " << other << " others");
  BOOST_TEST(other == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
