// Suite `scenario`: the scenario contract (harness/scenario.hpp). ParamReader's getters on
// hand-made --param maps, and every registered scenario rejecting an unknown key and a
// malformed value with one line naming the key, before doing any work (so this is fast).
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace contactbench;
using namespace contactbench::harness;

namespace {

ScenarioOptions with(std::map<std::string, std::string> params) {
  ScenarioOptions o;
  o.params = std::move(params);
  o.out_dir = (std::filesystem::temp_directory_path() /
               ("contactbench_scenario_" + std::to_string(::getpid())))
                  .string();
  return o;
}

// The message of the InputError f throws ("" if it throws none).
template <class F>
std::string input_error(F f) {
  try {
    f();
  } catch (const cases::InputError& e) {
    return e.what();
  }
  return "";
}

// Runs the command in-process with stderr sent to a file; returns (exit code, stderr).
std::pair<int, std::string> run_cli_stderr(const std::vector<std::string>& args) {
  test::TempFile err("stderr.txt");
  std::fflush(stderr);
  const int saved = ::dup(2);
  std::FILE* f = std::fopen(err.str().c_str(), "w");
  ::dup2(::fileno(f), 2);
  const int rc = test::run_cli(args);
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::fclose(f);
  std::ifstream in(err.path);
  std::stringstream text;
  text << in.rdbuf();
  return {rc, text.str()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scenario)

BOOST_AUTO_TEST_CASE(getters_return_defaults_and_given_values) {
  const auto o = with({{"n", "12"}, {"x", "-2.5e-3"}, {"list", "8,16,32"}, {"pos", "0.25"}});
  ParamReader in("toy", o);
  BOOST_TEST(in.get_int("n", 3, 1, 100) == 12);
  BOOST_TEST(in.get_int("absent", 3, 1, 100) == 3);
  BOOST_TEST(in.get_double("x", 1.0) == -0.0025);
  BOOST_TEST(in.get_positive("pos", 1.0) == 0.25);
  BOOST_TEST(in.get_double("absent_too", 7.5, 0, 10) == 7.5);
  BOOST_TEST(in.get_int_list("list", {2}, 2, 1000) == std::vector<int>({8, 16, 32}),
             boost::test_tools::per_element());
  BOOST_CHECK_NO_THROW(in.done());
}

// Each malformed value is one InputError line that starts with the key.
BOOST_AUTO_TEST_CASE(malformed_values_name_the_key) {
  struct Bad {
    std::string value;
    std::function<void(ParamReader&)> get;
  };
  const std::vector<Bad> bad = {
      {"12abc", [](ParamReader& in) { in.get_int("k", 0, 0, 100); }},    // trailing junk
      {" 12", [](ParamReader& in) { in.get_int("k", 0, 0, 100); }},      // leading blank
      {"", [](ParamReader& in) { in.get_int("k", 0, 0, 100); }},         // empty
      {"1.5", [](ParamReader& in) { in.get_int("k", 0, 0, 100); }},      // not an integer
      {"101", [](ParamReader& in) { in.get_int("k", 0, 0, 100); }},      // above the range
      {"99999999999", [](ParamReader& in) { in.get_int("k", 0, 0, 100); }},  // beyond int
      {"nan", [](ParamReader& in) { in.get_double("k", 0); }},           // not finite
      {"inf", [](ParamReader& in) { in.get_double("k", 0); }},
      {"1e-4x", [](ParamReader& in) { in.get_double("k", 0); }},
      {"-1", [](ParamReader& in) { in.get_double("k", 0, 0); }},         // below the range
      {"0", [](ParamReader& in) { in.get_positive("k", 1); }},           // not > 0
      {"8,x", [](ParamReader& in) { in.get_int_list("k", {}, 2, 100); }},
      {"8,,16", [](ParamReader& in) { in.get_int_list("k", {}, 2, 100); }},
      {"8,1", [](ParamReader& in) { in.get_int_list("k", {}, 2, 100); }},
  };
  for (const auto& b : bad) {
    const auto o = with({{"k", b.value}});
    ParamReader in("toy", o);
    const std::string msg = input_error([&] { b.get(in); });
    BOOST_TEST_INFO("value \"" << b.value << "\": " << msg);
    BOOST_TEST(msg.rfind("--param k: ", 0) == 0);
    BOOST_TEST(msg.find('\n') == std::string::npos);
  }
}

// done() names the first key no getter asked for and lists, in order, the keys that were.
BOOST_AUTO_TEST_CASE(unknown_key_lists_the_keys_taken) {
  const auto o = with({{"steps", "4"}, {"stpes", "5"}});
  ParamReader in("toy", o);
  in.get_int("n_seg", 4, 1, 10);
  in.get_int("steps", 4, 1, 10);
  BOOST_TEST(input_error([&] { in.done(); }) ==
             "--param stpes: unknown key (toy takes: n_seg, steps)");
}

BOOST_AUTO_TEST_CASE(header_names_schema_and_scenario) {
  const auto h = scenario_header("toy");
  BOOST_TEST(h.at("schema") == "contactbench.run/1");
  BOOST_TEST(h.at("scenario") == "toy");
  BOOST_TEST(h.at("context").contains("commit"));
}

// Every registered scenario rejects a key it does not take, before any output.
BOOST_AUTO_TEST_CASE(every_scenario_rejects_an_unknown_key) {
  BOOST_TEST(scenarios().size() == 12u);
  for (const auto& s : scenarios()) {
    const auto o = with({{"no_such_key", "1"}});
    const std::string msg = input_error([&] { s.run(o); });
    BOOST_TEST_INFO(s.name << ": " << msg);
    BOOST_TEST(msg.rfind("--param no_such_key: unknown key (" + s.name + " takes: ", 0) == 0);
    BOOST_TEST(!std::filesystem::exists(o.out_dir));
  }
}

// A malformed value of a key each scenario does take.
BOOST_AUTO_TEST_CASE(every_scenario_rejects_a_malformed_value) {
  const std::vector<std::tuple<std::string, std::string, std::string>> bad = {
      {"closest_feature_regions", "per_boundary", "5x"},
      {"closest_feature_regions", "per_boundary", "-1"},
      {"ccd_public", "repeat", "0"},
      {"ccd_public", "repeat", "abc"},
      {"rolling_sphere", "dt", "-1"},
      {"rolling_sphere", "resolutions", "8,x"},
      {"rolling_sphere", "radius", "nan"},
      {"square_drop", "n_seg", "0"},
      {"square_drop", "steps", "1e3"},
      {"square_drop", "precision", "64"},
      {"smeets_figures", "samples", "1"},
      {"smeets_hertz", "max_level", "7"},
      {"smeets_hertz", "radius", "0"},
      {"pfc_static", "thetas", "0,200"},
      {"ellipsoid_pour", "N", "0"},
      {"ellipsoid_pour", "N", "20001"},
      {"ellipsoid_pour", "steps", "1e3"},
      {"ellipsoid_pour", "scaling", "100,x"},
  };
  for (const auto& [name, key, value] : bad) {
    const Scenario* s = find_scenario(name);
    BOOST_REQUIRE(s);
    const auto o = with({{key, value}});
    const std::string msg = input_error([&] { s->run(o); });
    BOOST_TEST_INFO(name << " " << key << "=" << value << ": " << msg);
    BOOST_TEST(msg.rfind("--param " + key + ": ", 0) == 0);
    BOOST_TEST(msg.find('\n') == std::string::npos);
    BOOST_TEST(!std::filesystem::exists(o.out_dir));
  }
}

// The example, through the command line: exit 2, one line naming the key.
BOOST_AUTO_TEST_CASE(misspelt_key_exits_2) {
  const auto [rc, err] =
      run_cli_stderr({"run", "closest_feature_regions", "--param", "per_boundry=5"});
  BOOST_TEST(rc == 2);
  BOOST_TEST(err ==
             "error: --param per_boundry: unknown key (closest_feature_regions takes: "
             "per_boundary)\n");
  const auto [rc2, err2] =
      run_cli_stderr({"run", "square_drop", "--param", "steps=4", "--param", "steps=5"});
  BOOST_TEST(rc2 == 2);
  BOOST_TEST(err2 == "error: --param steps: given twice\n");
}

BOOST_AUTO_TEST_SUITE_END()
