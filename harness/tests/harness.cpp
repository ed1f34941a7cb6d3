// Suite harness: the comparison rule, statistics, the command's exit codes and the
// loaders' bad-input messages.
#include "cases/closest_feature.hpp"
#include "cases/json_input.hpp"
#include "cases/seed_seq.hpp"
#include "harness/pair.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

using namespace contactbench;
using contactbench::harness::Comparison;
using contactbench::harness::Verdict;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const cases::InputError& e) {
    return e.what();
  }
  return "";
}
const char* good_line = R"({"p":[1,1,3],"a":[0,0,0],"b":[4,0,0],"c":[0,4,0]})";
}  // namespace

// A toy family for the generic machinery, written as a new family is (README, "Adding a
// pair"): the query is one integer k in [-2, 9]; the decision is its sign class; the fast
// variant misjudges k = 0 as "positive" (a `<` for a `<=`); negative k lie outside the fast
// domain; regimes label parity and size. Its vocabulary (what cases/<stem>.hpp would hold):
struct Toy {
  using Query = long;
  using Result = std::string;
  static std::vector<cases::Named<Query>> canonical() { return {{"one", 1}}; }
  static cases::Generated<Query> random(cases::Rng& rng) { return label(cases::uniform_int(rng, -2, 9)); }
  static cases::Generated<Query> degenerate(cases::Rng&) { return label(0); }
  static cases::Generated<Query> label(long k) {
    return {k, cases::regime({{"parity", k % 2 == 0 ? "even" : "odd"}, {"size", k > 4 ? "big" : "small"}})};
  }
  static nlohmann::json to_json(const Query& k) { return k; }
  static nlohmann::json to_json(const Result& r) { return r; }
  static Query from_json(const nlohmann::json& j, const cases::Where&) { return j.get<long>(); }
};
// ... and its traits (harness/pairs/<stem>.hpp): the plumbing of a new family is these lines
// and one registry line.
struct ToyPair : contactbench::harness::Pair<Toy> {
  static constexpr std::string_view stem = "toy";
  static constexpr auto agreement = contactbench::harness::Agreement::approximate;
  static constexpr std::string_view rule = "sign exact except at k = 0";
  static Result reference(const Query& k) { return k == 0 ? "zero" : k > 0 ? "positive" : "negative"; }
  static Result fast(const Query& k) { return k >= 0 ? "positive" : "negative"; }
  static bool in_domain(const Query& k) { return k >= 0; }
  static std::vector<contactbench::harness::DecisionSpace> decision_space() {
    return {{"sign", {"zero", "positive", "negative", "infinite"}, {{"infinite", "toy: never"}}}};
  }
  static Comparison compare(const Query& k, const Result& r, const Result& f) {
    Comparison c;
    c.reached("sign", r, std::abs(static_cast<double>(k)), 0.0, "units of k");
    c.discrete("sign", r, f, std::abs(static_cast<double>(k)), 0.0, "units of k");
    return c;
  }
};

BOOST_AUTO_TEST_SUITE(harness)

BOOST_AUTO_TEST_CASE(regimes_coverage_and_domain_are_counted) {
  using namespace contactbench::harness;
  const auto s = detail::check<ToyPair>({.n = 2000, .timing = false});
  // Odd indices are degenerate: all k = 0, judged wrong (margin 0 > bound 0 is false, so
  // boundary? no: the rule excuses margin <= bound, and 0 <= 0 -> boundary).
  BOOST_TEST(s.by_source.at("degenerate").queries == 1000u);
  BOOST_TEST(s.by_source.at("degenerate").boundary == 1000u);
  const auto& rnd = s.by_source.at("random");
  BOOST_TEST(rnd.queries == 1000u);
  BOOST_TEST(rnd.out_of_domain > 100u);  // k = -2, -1: 2 of 12 values
  BOOST_TEST(rnd.out_of_domain + rnd.agree + rnd.boundary == 1000u);
  // Every generated query is counted once per axis; the canonical one by no regime.
  std::uint64_t parity = 0, size = 0;
  for (const auto& [tag, c] : s.by_regime) {
    if (tag.rfind("parity=", 0) == 0) parity += c.queries;
    if (tag.rfind("size=", 0) == 0) size += c.queries;
  }
  BOOST_TEST(parity == 2000u);
  BOOST_TEST(size == 2000u);
  BOOST_TEST(s.by_regime.at("parity=even").boundary >= 1000u);
  // Coverage: out-of-domain queries are not compared, so "negative" is never reached.
  BOOST_TEST(s.coverage.at("sign").at("zero").reached >= 1000u);
  BOOST_TEST(s.coverage.at("sign").at("zero").on_boundary == s.coverage.at("sign").at("zero").reached);
  BOOST_TEST(s.coverage.at("sign").at("positive").within_bound == 0u);
  BOOST_TEST(!s.coverage.at("sign").count("negative"));
  Family f = make_family<ToyPair>();
  BOOST_TEST(f.justification == "sign exact except at k = 0");
  const auto flags = coverage_flags(f, s);
  BOOST_TEST(flags["unreached"].size() == 1u);
  BOOST_TEST(flags["unreached"][0].get<std::string>() == "sign=negative: no query reached it");
  BOOST_TEST(flags["explained"][0].get<std::string>() == "sign=infinite: toy: never");
  // Statistics survive the JSON round trip that `merge` uses.
  const auto back = FamilyStats::from_json(s.to_json());
  BOOST_TEST(back.to_json().dump() == s.to_json().dump());
  BOOST_TEST(back.by_regime.at("parity=odd").queries == s.by_regime.at("parity=odd").queries);
  BOOST_TEST(back.total.out_of_domain == s.total.out_of_domain);
}

// Each error field carries the unit of its error and bound into check.json (the report's
// histogram axes and check's summary read it) and through the round trip merge uses.
BOOST_AUTO_TEST_CASE(error_fields_carry_their_unit) {
  using namespace contactbench::harness;
  const auto s = find_family("barrier")->check({.n = 200, .canonical = false, .timing = false});
  const auto j = s.to_json();
  BOOST_TEST_REQUIRE(j.contains("errors"));
  for (const auto& [field, h] : j["errors"].items()) BOOST_TEST(h.value("unit", "") == "ULP", field);
  BOOST_TEST(FamilyStats::from_json(j).to_json().dump() == j.dump());
}

// A planted fault named on its own is an ordinary family: its `wrong` makes check exit 1. In a
// mutation run (--planted) the same wrong is expected and the exit is 0 (see suite mutation).
BOOST_AUTO_TEST_CASE(planted_fault_run_alone_exits_one) {
  test::TempFile out("check.json");
  BOOST_TEST(test::run_cli({"check", "--family", "closest_feature_planted_vertex_snap", "--n", "2000",
                            "--quiet", "--json", out.str()}) == 1);
}

BOOST_AUTO_TEST_CASE(regime_labels_and_scale_tags) {
  BOOST_TEST(cases::regime({{"shape", "needle"}, {"scale", "1e-3"}}) == "shape=needle scale=1e-3");
  BOOST_TEST(cases::scale_tag(0x1p-10) == "1e-3");
  BOOST_TEST(cases::scale_tag(1.0) == "1");
  BOOST_TEST(cases::scale_tag(0x1p10) == "1e3");
  BOOST_TEST(cases::scale_tag(1e300) == "1e300");
  BOOST_TEST(cases::scale_tag(-1.0) == "invalid");
  // Shapes measured from the angles (hand-placed triangles).
  using cases::Vec3;
  const double h = std::sqrt(3.0) / 2;
  BOOST_TEST(cases::triangle_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, h, 0)) == "equilateral");
  BOOST_TEST(cases::triangle_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)) == "generic");  // 45-45-90
  BOOST_TEST(cases::triangle_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1e-3, 0)) == "needle");  // 0.057 deg
  BOOST_TEST(cases::triangle_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, 1e-3, 0)) == "cap");  // 179.8 deg
  BOOST_TEST(cases::triangle_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1.01, 1e-3, 0)) == "sliver");
  BOOST_TEST(cases::triangle_shape(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)) == "degenerate");
  // The issue's facet: 0.18 degrees at the origin, a right angle at (1, 0, 0) -> needle.
  BOOST_TEST(cases::triangle_shape(Vec3(0, 0, 0), Vec3(1, 0, 0),
                                   Vec3(0.9999950652018582, 0.0031415874858795635, 0)) == "needle");
}

BOOST_AUTO_TEST_CASE(comparison_rule) {
  using contactbench::harness::Agreement;
  auto judge = [](const Comparison& c) { return contactbench::harness::judge(c, Agreement::approximate); };
  Comparison agree;
  agree.discrete("region", std::string("face"), std::string("face"), 0.5, 1e-15, "× longest edge");
  agree.continuous("point", 1e-17, 1e-15, "× longest edge");
  BOOST_TEST((judge(agree) == Verdict::agree));

  Comparison within;  // mismatch, but the query is within the fast bound of the boundary
  within.discrete("region", std::string("face"), std::string("edge0"), 1e-16, 1e-15, "× longest edge");
  BOOST_TEST((judge(within) == Verdict::boundary));
  Comparison on;  // exactly on the boundary
  on.discrete("region", std::string("face"), std::string("edge0"), 0.0, 0.0, "× longest edge");
  BOOST_TEST((judge(on) == Verdict::boundary));
  Comparison far;  // mismatch far from any boundary
  far.discrete("region", std::string("face"), std::string("edge0"), 1e-3, 1e-15, "× longest edge");
  BOOST_TEST((judge(far) == Verdict::wrong));
  Comparison nan_margin;
  nan_margin.discrete("region", 1, 2, std::nan(""), 1.0, "× longest edge");
  BOOST_TEST((judge(nan_margin) == Verdict::wrong));
  Comparison big_error;
  big_error.continuous("point", 2e-15, 1e-15, "× longest edge");
  BOOST_TEST((judge(big_error) == Verdict::wrong));
  Comparison nan_error;
  nan_error.continuous("point", std::nan(""), 1e-15, "× longest edge");
  BOOST_TEST((judge(nan_error) == Verdict::wrong));
  // The agreement class decides which verdicts exist: an exact family has no boundary (even
  // exactly on one, a mismatch is wrong); only a conservative family has false positives.
  BOOST_TEST((contactbench::harness::judge(on, Agreement::exact) == Verdict::wrong));
  BOOST_TEST((contactbench::harness::judge(agree, Agreement::exact) == Verdict::agree));
  BOOST_TEST((contactbench::harness::judge(on, Agreement::conservative) == Verdict::boundary));
  Comparison fp;
  fp.false_positive = true;
  BOOST_TEST((contactbench::harness::judge(fp, Agreement::conservative) == Verdict::false_positive));
  BOOST_TEST((contactbench::harness::judge(fp, Agreement::approximate) == Verdict::wrong));
  BOOST_TEST((contactbench::harness::judge(fp, Agreement::exact) == Verdict::wrong));
  fp.discrete("hit", true, false, INFINITY, 0.0, "(never excused)");  // a miss is never excused
  BOOST_TEST((contactbench::harness::judge(fp, Agreement::conservative) == Verdict::wrong));
}

BOOST_AUTO_TEST_CASE(histogram_merge_and_quantiles) {
  contactbench::harness::LogHistogram a, b;
  for (int i = 0; i < 100; ++i) a.add(1e-16, "x");
  b.add(0, "zero");
  b.add(1e-3, "big");
  a.merge(b);
  BOOST_TEST(a.count == 102u);
  BOOST_TEST(a.zeros == 1u);
  BOOST_TEST(a.max == 1e-3);
  BOOST_TEST(a.max_at == "big");
  BOOST_TEST(a.quantile(0.5) > 5e-17);
  BOOST_TEST(a.quantile(0.5) < 2e-16);
  const auto round = contactbench::harness::LogHistogram::from_json(a.to_json());
  BOOST_TEST(round.to_json().dump() == a.to_json().dump());
}

// The histograms' sums are exact, so their value does not depend on the order of additions:
// in double, (2^53 + 1) + 1 = 2^53 but 1 + 1 + 2^53 = 2^53 + 2; exactly, both are 2^53 + 2.
BOOST_AUTO_TEST_CASE(exact_sum_is_order_independent_and_rounded_once) {
  using contactbench::harness::ExactSum;
  ExactSum a, b;
  for (double v : {0x1p53, 1.0, 1.0}) a.add(v);
  for (double v : {1.0, 1.0, 0x1p53}) b.add(v);
  BOOST_TEST(a.value() == 0x1p53 + 2);
  BOOST_TEST(b.value() == 0x1p53 + 2);
  BOOST_TEST(a.hex() == b.hex());
  ExactSum tie;  // 2^53 + 1 is halfway between two doubles: ties to even, 2^53
  tie.add(0x1p53);
  tie.add(1.0);
  BOOST_TEST(tie.value() == 0x1p53);
  ExactSum sub;  // subnormals add exactly; the largest double and a tiny one round once
  for (int i = 0; i < 3; ++i) sub.add(0x1p-1074);
  BOOST_TEST(sub.value() == 0x3p-1074);
  ExactSum big;
  big.add(0x1.fffffffffffffp1023);
  big.add(0x1p-1074);
  BOOST_TEST(big.value() == 0x1.fffffffffffffp1023);
  big.add(0x1.fffffffffffffp1023);
  BOOST_TEST(std::isinf(big.value()));  // beyond the doubles: rounds to +inf
  BOOST_TEST(ExactSum::from_hex(big.hex()).hex() == big.hex());
  ExactSum merged = a;  // merging is adding
  merged.merge(sub);
  ExactSum direct = b;
  for (int i = 0; i < 3; ++i) direct.add(0x1p-1074);
  BOOST_TEST(merged.hex() == direct.hex());
  ExactSum inf;
  inf.add(INFINITY);
  BOOST_TEST(std::isinf(ExactSum::from_hex(inf.hex()).value()));
  BOOST_CHECK_THROW(ExactSum::from_hex("12g"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(query_loader_names_file_line_and_field) {
  test::TempFile f("q.jsonl", std::string(good_line) + "\n" +
                                  R"({"p":[1,"nan",3],"a":[0,0,0],"b":[4,0,0],"c":[0,4,0]})" + "\n");
  const auto msg = error_of([&] { contactbench::harness::find_family("closest_feature")->eval(f.str(), {}); });
  BOOST_TEST(msg.find(f.str()) != std::string::npos, msg);
  BOOST_TEST(msg.find("line 2") != std::string::npos, msg);
  BOOST_TEST(msg.find("field p[1]") != std::string::npos, msg);

  struct Bad {
    const char* line;
    const char* needle;
  };
  for (const Bad& bad : {Bad{R"({"p":[1,1,3],"a":[0,0,0],"b":[4,0,0],"c":[0,4,0)", "truncated"},
                         Bad{R"({"p":[1,1],"a":[0,0,0],"b":[4,0,0],"c":[0,4,0]})", "field p"},
                         Bad{R"({"p":[1,1,3],"a":[0,0,0],"b":[4,0,0]})", "field c: missing"},
                         Bad{R"({"p":[1,1,3],"a":true,"b":[4,0,0],"c":[0,4,0]})", "field a"},
                         Bad{R"({"p":[1,1,"1e999"],"a":[0,0,0],"b":[4,0,0],"c":[0,4,0]})", "infinite"},
                         Bad{R"({"p":[1,1,3],"a":[0,0,0],"b":[1,1,1],"c":[2,2,2]})", "collinear"},
                         Bad{R"([1,2,3])", "expected a JSON object"},
                         Bad{R"({"p":[0,1e400,1],"a":[0,0,0],"b":[4,0,0],"c":[0,4,0]})", "line 1"},
                         Bad{R"({"p":[1,1,3],"a":["0x1p531","0x1p531","0x1p531"],"b":[0,0,0],"c":["0x1.8p532","0x1.8p532","0x1.8p532"]})", "field a,b,c"},
                         Bad{R"({"p":[1,1,3],"a":[0,0,0],"b":[4,0,0],"c":[0,4,0],"d":1})", "field d: unknown key"}}) {
    test::TempFile g("bad.jsonl", std::string(bad.line) + "\n");
    const auto m = error_of([&] { contactbench::harness::find_family("closest_feature")->eval(g.str(), {}); });
    BOOST_TEST(m.find(bad.needle) != std::string::npos, bad.line << " -> " << m);
    BOOST_TEST(m.find("line 1") != std::string::npos, m);
  }
}

BOOST_AUTO_TEST_CASE(command_exit_codes) {
  test::TempFile out("check.json");
  BOOST_TEST(test::run_cli({"check", "--family", "closest_feature", "--n", "200", "--quiet", "--json", out.str()}) == 0);
  BOOST_TEST(cases::read_json_file(out.str())["schema"] == "contactbench.check/1");
  BOOST_TEST(test::run_cli({"check", "--family", "no_such_family"}) == 2);
  BOOST_TEST(test::run_cli({"check", "--shard", "3/2"}) == 2);
  BOOST_TEST(test::run_cli({"check", "--n", "many"}) == 2);
  BOOST_TEST(test::run_cli({"frobnicate"}) == 2);
  BOOST_TEST(test::run_cli({"list"}) == 0);
  test::TempFile good("q.jsonl", std::string(good_line) + "\n");
  BOOST_TEST(test::run_cli({"eval", "--family", "closest_feature", "--input", good.str()}) == 0);
  test::TempFile bad("q.jsonl", "{\"p\":[1,1,3]\n");
  BOOST_TEST(test::run_cli({"eval", "--family", "closest_feature", "--input", bad.str()}) == 2);
  BOOST_TEST(test::run_cli({"eval", "--family", "closest_feature", "--input", "/nonexistent.jsonl"}) == 2);
  BOOST_TEST(test::run_cli({"run", "no_such_scenario"}) == 2);
}

BOOST_AUTO_TEST_CASE(merge_of_shards_equals_whole_run) {
  test::TempFile a("s0.json"), b("s1.json"), whole("w.json"), merged("m.json");
  const std::vector<std::string> base = {"check", "--family", "closest_feature", "--n", "400", "--quiet", "--seed", "5"};
  auto with = [&](std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_cli(args);
  };
  BOOST_TEST(with({"--shard", "0/2", "--json", a.str()}) == 0);
  BOOST_TEST(with({"--shard", "1/2", "--json", b.str()}) == 0);
  BOOST_TEST(with({"--json", whole.str()}) == 0);
  BOOST_TEST(test::run_cli({"merge", a.str(), b.str(), "--json", merged.str()}) == 0);
  const auto m = cases::read_json_file(merged.str())["families"][0];
  const auto w = cases::read_json_file(whole.str())["families"][0];
  BOOST_TEST(m["by_source"].dump() == w["by_source"].dump());
  BOOST_TEST(m["errors"]["point"]["counts"].dump() == w["errors"]["point"]["counts"].dump());
  // Not one campaign: a part twice, a part missing, another seed.
  BOOST_TEST(test::run_cli({"merge", a.str(), a.str(), "--json", merged.str()}) == 2);
  BOOST_TEST(test::run_cli({"merge", a.str(), "--json", merged.str()}) == 2);
  test::TempFile other_seed("s1b.json");
  auto args = base;
  args[7] = "6";
  args.insert(args.end(), {"--shard", "1/2", "--json", other_seed.str()});
  BOOST_TEST(test::run_cli(args) == 0);
  BOOST_TEST(test::run_cli({"merge", a.str(), other_seed.str(), "--json", merged.str()}) == 2);
  test::TempFile notcheck("x.json", "{\"schema\":\"other\"}");
  BOOST_TEST(test::run_cli({"merge", notcheck.str(), "--json", merged.str()}) == 2);
}

// query_rng's seed sequence gives the numbers of std::seed_seq over the same four words (the
// generated queries, hence every campaign's verdicts, stay as they were).
BOOST_AUTO_TEST_CASE(four_word_seed_seq_is_std_seed_seq) {
  std::mt19937_64 words(20261124);
  std::size_t differing = 0;
  for (int i = 0; i < 300; ++i) {
    const std::uint64_t x = words(), y = words();
    std::array<std::uint32_t, 4> v = {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(x >> 32),
                                      static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(y >> 32)};
    if (i == 0) v = {0, 0, 0, 0};
    if (i == 1) v = {~0u, ~0u, ~0u, ~0u};
    std::seed_seq standard(v.begin(), v.end());
    const cases::FourWordSeedSeq four{v};
    std::mt19937_64 a(standard), b(four);
    for (int j = 0; j < 700; ++j) differing += a() != b();  // past the first twist
    std::array<std::uint32_t, 7> s7, f7;  // another length: std::seed_seq itself
    standard.generate(s7.begin(), s7.end());
    four.generate(f7.begin(), f7.end());
    differing += s7 != f7;
  }
  BOOST_TEST(differing == 0u);
}

// cases::Rng twists lazily but draws std::mt19937_64's numbers: integer seeds, seed
// sequences (an all-zero state included: word 0 becomes 2^63) and several rounds of 312.
BOOST_AUTO_TEST_CASE(lazy_mersenne_twister_is_mt19937_64) {
  struct ZeroSeq {
    using result_type = std::uint32_t;
    void generate(std::uint32_t* b, std::uint32_t* e) const { std::fill(b, e, 0u); }
  } zero;
  std::size_t differing = 0;
  for (std::uint64_t s : {0ull, 1ull, 5489ull, 20261201ull, ~0ull}) {
    std::mt19937_64 a(s);
    cases::Rng b(s);
    for (int j = 0; j < 1000; ++j) differing += a() != b();
    std::seed_seq q{static_cast<std::uint32_t>(s), 7u, 11u};
    a.seed(q);
    b.seed(q);
    for (int j = 0; j < 1000; ++j) differing += a() != b();
  }
  std::mt19937_64 a(zero);
  cases::Rng b(zero);
  for (int j = 0; j < 700; ++j) differing += a() != b();
  BOOST_TEST(differing == 0u);
  // Through a distribution, as the generators draw.
  std::mt19937_64 c(3);
  cases::Rng d(3);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<long> k(-1000, 1000);
  for (int j = 0; j < 1000; ++j) differing += u(c) != u(d) || k(c) != k(d);
  BOOST_TEST(differing == 0u);
}

// The check loop's interleaved seeding (query_rngs) gives query_rng's streams, for counts that
// fill the lanes and for a ragged tail.
BOOST_AUTO_TEST_CASE(query_rngs_are_query_rng) {
  const std::size_t count = 3 * cases::query_rng_lanes + 5;
  std::vector<std::uint64_t> index(count);
  std::vector<std::string_view> gens(count);
  for (std::size_t j = 0; j < count; ++j) {
    index[j] = 1000003 * j + 7;
    gens[j] = j % 3 ? "degenerate" : "random";
  }
  std::vector<cases::Rng> out(count);
  cases::query_rngs(42, "closest_feature", gens.data(), index.data(), count, out.data());
  std::size_t differing = 0;
  for (std::size_t j = 0; j < count; ++j) {
    auto expected = cases::query_rng(42, "closest_feature", gens[j], index[j]);
    for (int d = 0; d < 700; ++d) differing += expected() != out[j]();
  }
  BOOST_TEST(differing == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
