// Suite mutation: the gate must be seen to bite. For every family of the registry, the
// CI-size check (`contactbench check --family F --planted`: n = 10000, seed 1, canonical
// cases and data sets included) runs the honest fast variant and each of its planted
// faults: the command exits 0, the honest variant has no `wrong`, carries regime labels and
// leaves no decision value or boundary unreached without an explanation; every planted fault
// is judged `wrong` at least once; every family plants at least five faults.
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace contactbench;

namespace {
constexpr std::size_t min_faults_per_family = 5;
}  // namespace

BOOST_AUTO_TEST_SUITE(mutation)

BOOST_AUTO_TEST_CASE(every_planted_fault_is_found_and_honest_variants_pass) {
  for (const auto& f : harness::families()) {
    if (!f.gated()) continue;
    BOOST_TEST_CONTEXT("family " << f.name) {
      test::TempFile out("check.json");
      BOOST_TEST(test::run_cli({"check", "--family", f.name, "--planted", "--quiet", "--json",
                                out.str()}) == 0);
      const auto doc = nlohmann::json::parse(std::ifstream(out.path));
      BOOST_TEST(doc["context"]["n"].get<std::uint64_t>() == harness::CheckOptions{}.n);
      std::size_t faults = 0;
      for (const auto& r : doc["families"]) {
        const std::string name = r["family"];
        const auto wrong = r["wrong"].get<std::uint64_t>();
        if (r.contains("published_method_of")) continue;  // measured, not gated
        if (r.contains("planted_fault_of")) {
          ++faults;
          BOOST_TEST(wrong > 0u, "planted fault " << name << " survived");
          continue;
        }
        BOOST_TEST(name == f.name);
        BOOST_TEST(wrong == 0u);
        BOOST_TEST(r["coverage_flags"]["unreached"].empty(), r["coverage_flags"].dump());
        BOOST_TEST(!f.decision_space.empty(), "no decision space declared");
        BOOST_TEST(r.contains("by_regime"), "generated queries carry no regime label");
      }
      BOOST_TEST(faults >= min_faults_per_family);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
