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

// Misspelled keys are errors; numbers may be strings strtod reads (exact hex input).
BOOST_AUTO_TEST_CASE(reader_keys_and_numbers) {
  const cases::Where w{"q.jsonl", "line 2"};
  try {
    harness::GroundCcdPair::query_from_json(
        nlohmann::json::parse(R"({"yground": 0, "y": [0.5], "py": [-1]})"), w);
    BOOST_ERROR("accepted a misspelled y_ground");
  } catch (const cases::InputError& e) {
    BOOST_TEST(std::string(e.what()).find("field yground: unknown key") != std::string::npos, e.what());
  }
  const auto q = harness::GroundCcdPair::query_from_json(
      nlohmann::json::parse(R"({"y_ground": "-0x1p0", "y": ["0x1.8p-3", -0.5], "py": ["-0x1p-2", 0]})"), w);
  BOOST_TEST(q.y_ground == -1.0);
  BOOST_TEST(q.y == (V{0x1.8p-3, -0.5}), boost::test_tools::per_element());
  BOOST_TEST(q.py == (V{-0.25, 0.0}), boost::test_tools::per_element());
}

// The domain of cases/ground_ccd.hpp: outside it alpha could underflow to 0 or a difference
// overflow; the loader names the field.
BOOST_AUTO_TEST_CASE(domain_enforced) {
  const cases::Where w{"q.jsonl", "line 3"};
  const std::pair<const char*, const char*> bad[] = {
      {R"({"y_ground": 0, "y": [1e-320], "py": [-1]})", "field y[0]"},      // alpha would be ~0
      {R"({"y_ground": 0, "y": [1e-200], "py": [-1e150]})", "field py[0]"}, // ratio 1e-350
      {R"({"y_ground": -1e301, "y": [0], "py": [-1]})", "field y_ground"},
      {R"({"y": [1e308], "py": [-1]})", "field y[0]"},
  };
  for (const auto& [text, field] : bad) {
    try {
      harness::GroundCcdPair::query_from_json(nlohmann::json::parse(text), w);
      BOOST_ERROR("accepted " << text);
    } catch (const cases::InputError& e) {
      BOOST_TEST(std::string(e.what()).find(field) != std::string::npos, e.what());
    }
  }
  // The fast double formula does underflow there: the reason for the limit.
  BOOST_TEST(contactbench::fast::ground_ccd({0, V{1e-320}, V{-1e10}}).alpha == 0.0);
  for (const auto& c : harness::GroundCcdPair::canonical({})) cases::validate(c.query, {"", c.name});
  for (std::uint64_t i = 0; i < 20000; ++i) {
    auto r1 = cases::query_rng(1, "ground_ccd", "random", i);
    auto r2 = cases::query_rng(1, "ground_ccd", "degenerate", i);
    const auto a = cases::random_ground_ccd(r1), b = cases::degenerate_ground_ccd(r2);
    cases::validate(a, {"", "random"});
    cases::validate(b, {"", "degenerate"});
    BOOST_TEST_REQUIRE(contactbench::reference::ground_ccd(a).alpha > 0.0);
    BOOST_TEST_REQUIRE(contactbench::reference::ground_ccd(b).alpha > 0.0);
  }
}

// The exact pairwise gap that excuses a `binding` mismatch.
BOOST_AUTO_TEST_CASE(candidate_gap) {
  using contactbench::reference::ground_ccd_candidate_gap;
  // Candidates 0.45 (node 0), 0.5625 (node 1), none (node 2: p >= 0), the cap 1 (-1).
  const GroundCcdQuery q{-1, V{-0.5, -0.375, -0.5}, V{-1.0, -1.0, 0.5}};
  BOOST_TEST(ground_ccd_candidate_gap(q, 0, 1) == 0.25);
  BOOST_TEST(ground_ccd_candidate_gap(q, 1, 0) == 0.25);
  BOOST_TEST(ground_ccd_candidate_gap(q, 0, -1) == 1.0 / 0.45 - 1, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(ground_ccd_candidate_gap(q, 0, 0) == 0.0);
  BOOST_TEST(std::isinf(ground_ccd_candidate_gap(q, 0, 2)));
  BOOST_TEST(std::isinf(ground_ccd_candidate_gap(q, 0, 3)));
  BOOST_TEST(std::isinf(ground_ccd_candidate_gap(q, 0, -2)));
  const GroundCcdQuery t{-1, V{-0.5, -0.25}, V{-1.0, -1.0}};  // 0.45 and 0.675: gap 1/2
  BOOST_TEST(ground_ccd_candidate_gap(t, 0, 1) == 0.5);
  const GroundCcdQuery u{-1, V{-0.25, -0.5}, V{-1.0, -0.75}};  // 0.675 and 0.6: gap 1/8
  BOOST_TEST(ground_ccd_candidate_gap(u, 0, 1) == 0.125);
  // Rounded upward: the gap 1/3 is not a double; the result is the double just above it.
  const GroundCcdQuery r3{-1, V{-0.5, -0.5}, V{-1.0, -0.75}};  // 0.45, 0.6: gap 1/3
  BOOST_TEST(ground_ccd_candidate_gap(r3, 0, 1) >= 1.0 / 3);
  BOOST_TEST(ground_ccd_candidate_gap(r3, 0, 1) == std::nextafter(1.0 / 3, 1.0));
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

// A planted fast kernel that, on a near tie, picks a node far above the minimum: node 1 is
// within 2^-53 of the binding node 0 (so the reference's runner-up margin is tiny), but
// the planted kernel answers node 2, whose candidate 0.9 is twice the minimum. The old
// rule (runner-up margin) excused that as `boundary`; the exact gap to the picked node
// makes it `wrong`. An exact tie broken the other way stays `boundary`.
BOOST_AUTO_TEST_CASE(planted_far_pick_is_wrong) {
  auto verdict = [](const harness::Comparison& c) { return std::string(harness::to_string(harness::judge(c))); };
  // Node 1 is 0.5 + 2^-54 above the ground: candidate 0.45 (1 + 2^-53).
  const GroundCcdQuery q{-1, V{-0.5, std::nextafter(-0.5, 0.0), -0.5}, V{-1.0, -1.0, -0.5}};
  const auto ref = contactbench::reference::ground_ccd(q);
  BOOST_TEST(ref.binding == 0);
  BOOST_TEST(ref.margin == 0x1p-53);
  BOOST_TEST(ref.margin <= harness::GroundCcdPair::binding_margin_bound);
  // Planted: the honest alpha (so only `binding` is judged), the far node's index.
  auto planted = [](const GroundCcdQuery& pq) {
    auto f = contactbench::fast::ground_ccd(pq);
    f.binding = static_cast<int>(pq.y.size()) - 1;
    return f;
  };
  const auto far = planted(q);
  const auto c = harness::GroundCcdPair::compare(q, ref, far);
  BOOST_TEST(verdict(c) == "wrong", harness::describe(c));
  BOOST_REQUIRE(c.mismatches.size() == 1u);
  BOOST_TEST(c.mismatches[0].margin >= 1.0);  // (0.9 - 0.45)/0.45 and a hair
  // The honest fast kernel on the same query: agree or boundary, never wrong.
  BOOST_TEST(verdict(harness::GroundCcdPair::compare(q, ref, contactbench::fast::ground_ccd(q))) != "wrong");
  // Exact tie (nodes 0 and 1 identical): the planted kernel picks node 1, the reference
  // node 0; the gap is exactly 0: boundary.
  const GroundCcdQuery tie{-1, V{-0.5, -0.5}, V{-1.0, -1.0}};
  const auto rt = contactbench::reference::ground_ccd(tie);
  BOOST_TEST(rt.binding == 0);
  const auto ct = harness::GroundCcdPair::compare(tie, rt, planted(tie));
  BOOST_TEST(verdict(ct) == "boundary", harness::describe(ct));
  BOOST_REQUIRE(ct.mismatches.size() == 1u);
  BOOST_TEST(ct.mismatches[0].margin == 0.0);
}

// The fast result carries no margin (NaN, absent from its JSON): a printed 0 would read as
// an exact tie.
BOOST_AUTO_TEST_CASE(fast_has_no_margin) {
  const GroundCcdQuery q{-1, V{-0.5}, V{-0.5}};
  const auto f = contactbench::fast::ground_ccd(q);
  BOOST_TEST(std::isnan(f.margin));
  BOOST_TEST(!harness::GroundCcdPair::result_to_json(f).contains("margin"));
  BOOST_TEST(harness::GroundCcdPair::result_to_json(contactbench::reference::ground_ccd(q)).contains("margin"));
}

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
