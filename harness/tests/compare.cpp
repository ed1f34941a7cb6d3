// `contactbench compare`: a planted fault's results in place of the honest kernel's are a
// regression (exit 1), two runs of one campaign are not (exit 0), and bad input is one line
// naming file and field (exit 2).
#include "harness/compare.hpp"

#include "cases/common.hpp"
#include "cases/json_input.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>

using contactbench::test::run_cli;
using contactbench::test::TempFile;
using nlohmann::json;

namespace {

void write(const std::string& path, const json& j) { std::ofstream(path) << j.dump(1); }

// The error line compare_results throws for (old, new), or "" when it does not throw.
std::string input_error(const json& old_doc, const json& new_doc) {
  try {
    contactbench::harness::compare_results(old_doc, "old.json", new_doc, "new.json");
  } catch (const contactbench::cases::InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A small check campaign of one family (generated queries only: seconds).
std::vector<std::string> check_args(const std::string& family, const std::string& out) {
  return {"check", "--family", family, "--n", "600", "--seed", "3", "--no-canonical", "--quiet", "--json", out};
}

json bench_doc(double fast_ns, double reference_ns) {
  return {{"context", {{"library_build_type", "release"}}},
          {"benchmarks",
           {{{"name", "closest_feature/random/fast"}, {"run_type", "iteration"}, {"cpu_time", fast_ns}, {"time_unit", "ns"}},
            {{"name", "closest_feature/random/reference"}, {"run_type", "iteration"}, {"cpu_time", reference_ns / 1000}, {"time_unit", "us"}}}}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare)

BOOST_AUTO_TEST_CASE(planted_fault_against_honest_run_is_a_regression) {
  TempFile honest("honest.json"), planted("planted.json"), again("again.json");
  BOOST_TEST(run_cli(check_args("closest_feature", honest.str())) == 0);
  BOOST_TEST(run_cli(check_args("closest_feature", again.str())) == 0);
  // The same seed twice: the same campaign, nothing worse (timings are not compared).
  BOOST_TEST(run_cli({"compare", honest.str(), again.str()}) == 0);

  // The planted fault's results as if the family's kernel had been changed to it: same family
  // name, gated. The check itself finds it wrong (exit 1); compare must say so too.
  BOOST_TEST(run_cli(check_args("closest_feature_planted_projection_sign", planted.str())) == 1);
  json doc = contactbench::cases::read_json_file(planted.str());
  auto& f = doc["families"][0];
  BOOST_TEST(f["wrong"].get<std::uint64_t>() > 0u);
  f["family"] = "closest_feature";
  f.erase("planted_fault_of");
  f["gated"] = true;
  write(planted.str(), doc);
  BOOST_TEST(run_cli({"compare", honest.str(), planted.str()}) == 1);
  const auto r = contactbench::harness::compare_results(
      contactbench::cases::read_json_file(honest.str()), "honest.json", doc, "planted.json");
  BOOST_TEST(r.kind == "check");
  BOOST_REQUIRE(!r.regressions.empty());
  BOOST_TEST(contains(r.regressions.front(), "closest_feature: wrong 0 -> "));
  // Back the other way the fault is fixed: nothing got worse.
  BOOST_TEST(run_cli({"compare", planted.str(), honest.str()}) == 0);
}

BOOST_AUTO_TEST_CASE(planted_fault_that_survives_is_a_regression) {
  // In a mutation run (check --planted) a planted fault found wrong before and not now means
  // the gate stopped biting.
  json old_doc = {{"schema", "contactbench.check/1"}, {"context", {{"seed", 1}, {"n", 10}, {"shard", "0/1"}}},
                  {"families", {{{"family", "x_planted_y"}, {"planted_fault_of", "x"}, {"gated", false},
                                 {"queries", 10}, {"agree", 7}, {"boundary", 0}, {"false_positive", 0}, {"wrong", 3}}}}};
  json new_doc = old_doc;
  new_doc["families"][0]["wrong"] = 0;
  new_doc["families"][0]["agree"] = 10;
  const auto r = contactbench::harness::compare_results(old_doc, "old.json", new_doc, "new.json");
  BOOST_REQUIRE(r.regressions.size() == 1u);
  BOOST_TEST(contains(r.regressions[0], "no longer found wrong"));
  // Same campaign: more boundary in a gated family is worse; a grown error maximum too.
  json g_old = {{"schema", "contactbench.check/1"}, {"context", {{"seed", 1}, {"n", 10}, {"shard", "0/1"}}},
                {"families", {{{"family", "x"}, {"queries", 10}, {"agree", 10}, {"boundary", 0},
                               {"false_positive", 0}, {"wrong", 0}, {"errors", {{"point", {{"max", 1e-16}, {"bound", 1e-15}}}}}}}}};
  json g_new = g_old;
  g_new["families"][0]["agree"] = 9;
  g_new["families"][0]["boundary"] = 1;
  g_new["families"][0]["errors"]["point"]["max"] = 2e-16;
  const auto g = contactbench::harness::compare_results(g_old, "old.json", g_new, "new.json");
  BOOST_TEST(g.regressions.size() == 2u);
  // Different campaigns (another seed): counts and maxima are shown, not judged.
  g_new["context"]["seed"] = 2;
  BOOST_TEST(contactbench::harness::compare_results(g_old, "old.json", g_new, "new.json").regressions.empty());
}

BOOST_AUTO_TEST_CASE(bench_speed_ratios) {
  // Fixture numbers, not timings: a fast kernel at 2x its old CPU time is a regression, the
  // same times are not; microseconds and nanoseconds compare as one unit.
  const json old_doc = bench_doc(10, 5000), slower = bench_doc(20, 5000), same = bench_doc(10, 5000);
  const auto r = contactbench::harness::compare_results(old_doc, "old.json", slower, "new.json");
  BOOST_TEST(r.kind == "bench");
  BOOST_REQUIRE(r.regressions.size() == 1u);
  BOOST_TEST(contains(r.regressions[0], "closest_feature/random/fast: 2x"));
  BOOST_TEST(contactbench::harness::compare_results(old_doc, "old.json", same, "new.json").regressions.empty());
  contactbench::harness::CompareOptions loose;
  loose.max_slowdown = 1.5;
  BOOST_TEST(contactbench::harness::compare_results(old_doc, "old.json", slower, "new.json", loose).regressions.empty());
  TempFile a("a.json"), b("b.json");
  write(a.str(), old_doc);
  write(b.str(), slower);
  BOOST_TEST(run_cli({"compare", a.str(), b.str()}) == 1);
  BOOST_TEST(run_cli({"compare", a.str(), a.str()}) == 0);
}

BOOST_AUTO_TEST_CASE(bad_input_names_file_and_field) {
  const json check = {{"schema", "contactbench.check/1"}, {"context", json::object()},
                      {"families", {{{"family", "x"}, {"queries", 1}, {"agree", 1}, {"boundary", 0},
                                     {"false_positive", 0}, {"wrong", 0}}}}};
  json bad_count = check;
  bad_count["families"][0]["wrong"] = "none";
  std::string e = input_error(check, bad_count);
  BOOST_TEST(contains(e, "new.json"), e);
  BOOST_TEST(contains(e, "families[0].wrong"), e);
  json no_name = check;
  no_name["families"][0].erase("family");
  e = input_error(no_name, check);
  BOOST_TEST(contains(e, "old.json"), e);
  BOOST_TEST(contains(e, "families[0].family"), e);
  e = input_error(check, json{{"schema", "contactbench.run/1"}});
  BOOST_TEST((contains(e, "new.json") && contains(e, "schema")), e);
  e = input_error(check, bench_doc(1, 1));
  BOOST_TEST((contains(e, "new.json") && contains(e, "bench result")), e);
  json bad_time = bench_doc(1, 1);
  bad_time["benchmarks"][1]["cpu_time"] = "fast";
  e = input_error(bench_doc(1, 1), bad_time);
  BOOST_TEST(contains(e, "benchmarks[1].cpu_time"), e);
  // Through the command: exit 2 for each, and for a truncated file and a missing one.
  TempFile good("good.json"), bad("bad.json"), truncated("truncated.json", "{\"schema\": \"contactbench.ch");
  write(good.str(), check);
  write(bad.str(), bad_count);
  BOOST_TEST(run_cli({"compare", good.str(), bad.str()}) == 2);
  BOOST_TEST(run_cli({"compare", good.str(), truncated.str()}) == 2);
  BOOST_TEST(run_cli({"compare", good.str(), good.str() + ".missing"}) == 2);
  BOOST_TEST(run_cli({"compare", good.str()}) == 2);  // usage: two files
}

BOOST_AUTO_TEST_SUITE_END()
