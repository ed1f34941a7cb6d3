// Suite `ground_ccd`: the book's ground CCD (ipc-square-drop.txt, Implementation 8.3.2).
#include "harness/pairs/ground_ccd.hpp"
#include "harness/pairs/ulp.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>

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
  BOOST_TEST(r.margin == std::nextafter(1.0 / 9, 1.0));  // cap 1: (1 - 0.9)/0.9 = 1/9, rounded up
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
  BOOST_TEST(r.margin == std::nextafter(1.0 / 9, 1.0));  // the cap 1 (node 0: 9/10·2 = 1.8 > 1)
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

// The filter's scaled comparisons and margins (reference/src/ground_ccd.cpp) at the ends of
// the fast domain and on exact ties whose products are not doubles (each p e with e ≠ 0).
BOOST_AUTO_TEST_CASE(far_magnitudes_and_exact_ties) {
  using contactbench::reference::ground_ccd;
  using contactbench::reference::ground_ccd_exact;
  // Candidates 9/10 · 1/2 = 9/20 and 9/10 · 3/2 (capped), at 2^995 and at 2^-995: alpha the
  // double nearest 9/20, the cap the runner-up, margin (1 − 9/20)/(9/20) = 11/9 rounded up.
  for (const double s : {0x1p995, 0x1p-995}) {
    const GroundCcdQuery q{0, V{s, 1.5 * s}, V{-2 * s, -s}};
    BOOST_TEST(contactbench::fast::ground_ccd_in_domain(q));
    const auto r = ground_ccd(q);
    BOOST_TEST(r.alpha == 0.45);
    BOOST_TEST(r.binding == 0);
    BOOST_TEST(std::fma(r.margin, 9, -11) >= 0);  // exact signs: margin ≥ 11/9 > its predecessor
    BOOST_TEST(std::fma(std::nextafter(r.margin, 0.0), 9, -11) < 0);
  }
  // Node 1 is node 0 doubled: an exact tie (binding the first, margin 0) whose cross products
  // (1 + 2^-52)(2 + 2^-50) are not doubles; near the origin and at 2^990.
  for (const double s : {1.0, 0x1p990}) {
    const GroundCcdQuery q{0, V{(1 + 0x1p-52) * s, (2 + 0x1p-51) * s}, V{-(1 + 0x1p-51) * s, -(2 + 0x1p-50) * s}};
    const auto r = ground_ccd(q);
    BOOST_TEST(r.binding == 0);
    BOOST_TEST(r.margin == 0.0);
    BOOST_TEST(r.alpha == ground_ccd_exact(q).alpha);
    BOOST_TEST(r.alpha < 0.9);  // 9/10 · (1 + 2^-52)/(1 + 2^-51) < 9/10
  }
  // Near ties between nodes whose gaps y − y_g are not doubles (a ground at −2^-60, −2^-120):
  // c_0 = 9/10 (1 + 2^-g), c_1 = 9/10 (1 + 2^-(g+1)): node 1 binds, alpha rounds to 0.9, and the
  // gap (1 + 2^-g)/(1 + 2^-(g+1)) − 1, just below 2^-(g+1), rounds up to 2^-(g+1). The
  // candidates' doubles are equal (0.9), so the filter's double stage on the exact products
  // decides the order: its bound scales with the low-order terms, so even the gap 2^-121.
  for (const int g : {60, 120}) {
    const GroundCcdQuery q{-std::ldexp(1.0, -g), V{1, 2}, V{-1, -2}};
    const auto r = ground_ccd(q);
    BOOST_TEST(r.binding == 1);
    BOOST_TEST(r.alpha == 0.9);
    BOOST_TEST(r.margin == std::ldexp(1.0, -(g + 1)));
  }
  // A candidate 9/10 · 2^-993 with the cap as runner-up: alpha is 0.9 · 2^-993 (a power of two
  // times the double nearest 9/10), margin 10/9 · 2^993 − 1 rounded up.
  const GroundCcdQuery far{0, V{0x1p-6}, V{-0x1p987}};
  const auto r = ground_ccd(far);
  BOOST_TEST(r.alpha == std::ldexp(0.9, -993));
  BOOST_TEST(r.binding == 0);
  BOOST_TEST(r.margin == ground_ccd_exact(far).margin);
  BOOST_TEST(r.margin > std::ldexp(10.0 / 9, 993) * (1 - 0x1p-50));
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

// Every finite double is valid input: what the fast formula cannot do (its stated domain,
// cases/ground_ccd.hpp) is `out_of_domain`, never an InputError; the reference answers
// exactly. Expected values derived by hand.
BOOST_AUTO_TEST_CASE(outside_fast_domain_answered_exactly) {
  const cases::Where w{"q.jsonl", "line 3"};
  auto load = [&](const char* text) {
    const auto q = harness::GroundCcdPair::query_from_json(nlohmann::json::parse(text), w);
    BOOST_TEST(!harness::GroundCcdPair::in_domain(q), text);
    return contactbench::reference::ground_ccd(q);
  };
  // Height 2024·2^-1074 (= the double 1e-320), p = -1: 9/10 · 2024 = 1821.6 units of 2^-1074,
  // the subnormal 1822·2^-1074.
  auto r = load(R"({"y_ground": 0, "y": ["0x7e8p-1074"], "py": [-1]})");
  BOOST_TEST(r.alpha == 1822 * 0x1p-1074);
  BOOST_TEST(r.binding == 0);
  // 9/10 · 1e-200/1e150 ~ 1e-350: below half the smallest subnormal, alpha rounds to 0.
  r = load(R"({"y_ground": 0, "y": [1e-200], "py": [-1e150]})");
  BOOST_TEST(r.alpha == 0.0);
  BOOST_TEST(r.binding == 0);
  // Subnormal height and velocity: 9/10 · 3/4 = 27/40, the double nearest 0.675.
  r = load(R"({"y_ground": 0, "y": ["0x3p-1074"], "py": ["-0x4p-1074"]})");
  BOOST_TEST(r.alpha == 0.675);
  // y - y_g = 2^1024 overflows in double; exactly: 9/10 · 2^1024 / (1.9375·2^1023) = 144/155.
  r = load(R"({"y_ground": "-0x1p1023", "y": ["0x1p1023"], "py": ["-0x1.fp1023"]})");
  BOOST_TEST(r.alpha == 144.0 / 155.0);  // one division of exact doubles: correctly rounded
  BOOST_TEST(r.binding == 0);
  // The same gap, slower: 9/10 · 2/1.5 = 6/5 > 1: capped, and the runner-up gap is 1/5.
  r = load(R"({"y_ground": "-0x1p1023", "y": ["0x1p1023"], "py": ["-0x1.8p1023"]})");
  BOOST_TEST(r.alpha == 1.0);
  BOOST_TEST(r.binding == -1);
  BOOST_TEST(r.margin == 0.2);  // 1/5 rounded up: the double 0.2 lies above 1/5
  // A node one ulp (2^-1049, subnormal) above the ground at 2^-997, approaching at 2^-1050 per
  // unit step: 9/10 · 2 = 1.8, capped; at 2^-1048: 9/10 · 1/2 = 0.45.
  r = load(R"({"y_ground": "0x1p-997", "y": ["0x1.0000000000001p-997"], "py": ["-0x1p-1050"]})");
  BOOST_TEST(r.alpha == 1.0);
  BOOST_TEST(r.binding == -1);
  r = load(R"({"y_ground": "0x1p-997", "y": ["0x1.0000000000001p-997"], "py": ["-0x1p-1048"]})");
  BOOST_TEST(r.alpha == 0.45);
  BOOST_TEST(r.binding == 0);
  // The fast double formula does underflow there: the reason for the domain.
  BOOST_TEST(contactbench::fast::ground_ccd({0, V{1e-320}, V{-1e10}}).alpha == 0.0);
  // eval: out_of_domain lines are counted, not failed.
  test::TempFile in("q.jsonl", "{\"y_ground\": 0, \"y\": [1e-320], \"py\": [-1]}\n{\"y\": [-0.5], \"py\": [-0.5]}\n"),
      out("r.json");
  BOOST_TEST(test::run_cli({"eval", "--family", "ground_ccd", "--input", in.str(), "--json", out.str()}) == 0);
  const auto records = nlohmann::json::parse(std::ifstream(out.path))["records"];
  BOOST_REQUIRE(records.size() == 2u);
  BOOST_TEST(records[0]["verdict"].get<std::string>() == "out_of_domain");
  BOOST_TEST(records[1]["verdict"].get<std::string>() == "agree");
}

// Generated queries are valid input with regime labels; the domain tag matches in_domain();
// every configuration occurs; in the domain the reference's alpha is positive.
BOOST_AUTO_TEST_CASE(generators_valid_and_labelled) {
  for (const auto& c : harness::GroundCcdPair::canonical({})) cases::validate(c.query, {"", c.name});
  std::map<std::string, int> tags;
  for (std::uint64_t i = 0; i < 10000; ++i) {
    for (const char* gen : {"random", "degenerate"}) {
      auto rng = cases::query_rng(1, "ground_ccd", gen, i);
      const auto g = gen[0] == 'r' ? cases::GroundCcd::random(rng) : cases::GroundCcd::degenerate(rng);
      cases::validate(g.query, {"", gen});
      BOOST_TEST_REQUIRE(g.regime.find("config=") == 0u, g.regime);
      for (const char* axis : {" nodes=", " scale=", " place=", " domain="})
        BOOST_TEST_REQUIRE(g.regime.find(axis) != std::string::npos, g.regime);
      const bool inside = harness::GroundCcdPair::in_domain(g.query);
      BOOST_TEST_REQUIRE((g.regime.find("domain=outside") == std::string::npos) == inside, g.regime);
      if (inside) BOOST_TEST_REQUIRE(contactbench::reference::ground_ccd(g.query).alpha > 0.0);
      harness::detail::for_each_tag(g.regime, [&](const std::string& t) { ++tags[t]; });
    }
  }
  for (const char* t : {"config=mixed", "config=approaching", "config=receding", "config=resting",
                        "config=grazing", "config=deep", "config=near_cap", "config=cap_exact",
                        "config=near_tie", "config=tie", "config=touching", "config=at_dhat", "config=on_ground",
                        "nodes=1", "nodes=few", "nodes=many", "place=origin", "place=far",
                        "place=high", "domain=inside", "domain=end", "domain=outside"})
    BOOST_TEST(tags[t] > 50, t << ": " << tags[t]);
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
    const auto q = cases::GroundCcd::random(rng).query;
    if (!harness::GroundCcdPair::in_domain(q)) continue;
    const auto r = contactbench::fast::ground_ccd(q);
    BOOST_TEST_REQUIRE(r.alpha > 0.0);
    BOOST_TEST_REQUIRE(r.alpha <= 1.0);
    for (std::size_t k = 0; k < q.y.size(); ++k)
      BOOST_TEST_REQUIRE(q.y[k] + r.alpha * q.py[k] > q.y_ground);
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
  auto verdict = [](const harness::Comparison& c) { return std::string(harness::to_string(harness::judge(c, harness::Agreement::approximate))); };
  // Node 1 is 0.5 + 2^-54 above the ground: candidate 0.45 (1 + 2^-53).
  const GroundCcdQuery q{-1, V{-0.5, std::nextafter(-0.5, 0.0), -0.5}, V{-1.0, -1.0, -0.5}};
  const auto ref = contactbench::reference::ground_ccd(q);
  BOOST_TEST(ref.binding == 0);
  BOOST_TEST(ref.margin == 0x1p-53);
  BOOST_TEST(ref.margin <= contactbench::fast::ground_ccd_bounds(q).binding_margin);
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

BOOST_AUTO_TEST_CASE(what_the_boundary_cases_are) {
  const harness::CheckOptions o{.n = 20000, .seed = 5};
  // What the boundary cases are: on the generated sets, `binding` differs only on exact
  // ties between nodes (margin 0), which the book's rounded formula breaks either way, and
  // near ties (the near_tie and near_cap regimes) whose exact gap to the node fast picked is
  // within the stated 8u; nothing else.
  std::uint64_t ties = 0, near = 0, other = 0;
  for (std::uint64_t i = 0; i < o.n; ++i) {
    auto rng = cases::query_rng(o.seed, "ground_ccd", i % 2 ? "degenerate" : "random", i);
    const auto q = i % 2 ? cases::GroundCcd::degenerate(rng).query : cases::GroundCcd::random(rng).query;
    if (!harness::GroundCcdPair::in_domain(q)) continue;
    const auto r = contactbench::reference::ground_ccd(q), f = contactbench::fast::ground_ccd(q);
    if (r.binding == f.binding) continue;
    const double gap = contactbench::reference::ground_ccd_candidate_gap(q, r.binding, f.binding);
    ++(gap == 0 ? ties : gap <= contactbench::fast::ground_ccd_bounds(q).binding_margin ? near : other);
  }
  BOOST_TEST_MESSAGE("ground_ccd: binding differs on " << ties << " exact ties, " << near
                                                       << " near ties, " << other << " others");
  BOOST_TEST(ties > 0u);
  BOOST_TEST(other == 0u);
}

// Hand cases for the faults whose trigger is one exact configuration.
BOOST_AUTO_TEST_CASE(planted_faults_on_hand_cases) {
  auto verdict = [](auto fault, const GroundCcdQuery& q) {
    using F = decltype(fault);
    const auto c = F::compare(q, contactbench::reference::ground_ccd(q), F::fast(q));
    return std::string(harness::to_string(harness::judge(c, harness::Agreement::approximate)));
  };
  const GroundCcdQuery resting{-1, V{-0.5, -0.5}, V{0.0, -0.25}};  // p = +0: the `<=` slip
  BOOST_TEST(verdict(harness::GroundCcdZeroVelocityFault{}, resting) == "wrong");
  BOOST_TEST(verdict(harness::GroundCcdPair{}, resting) == "agree");
  const GroundCcdQuery slow{-1, V{-0.5}, V{-0.25}};  // candidate 1.8: capped at 1
  BOOST_TEST(verdict(harness::GroundCcdUncappedFault{}, slow) == "wrong");
  const GroundCcdQuery at_ground_zero{0, V{0.5}, V{-1.0}};  // ground at 0: the offset slip is silent
  BOOST_TEST(verdict(harness::GroundCcdGroundAtOriginFault{}, at_ground_zero) == "agree");
  BOOST_TEST(verdict(harness::GroundCcdGroundAtOriginFault{}, GroundCcdQuery{-1, V{-0.5}, V{-1.0}}) == "wrong");
  const GroundCcdQuery two{-1, V{-0.5, -0.25}, V{-1.0, -1.0}};  // 0.45 binds, 0.675 last
  BOOST_TEST(verdict(harness::GroundCcdBindingLastFault{}, two) == "wrong");
  BOOST_TEST(verdict(harness::GroundCcdNoFactorFault{}, two) == "wrong");
  BOOST_TEST(verdict(harness::GroundCcdReversedVelocityFault{}, two) == "wrong");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
