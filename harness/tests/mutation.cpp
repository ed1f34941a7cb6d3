// Suite mutation: the gate must be seen to bite. For every family of the registry, the
// CI-size check (CheckOptions' default n, seed 1, canonical cases and data sets included)
// runs the honest fast variant and each of its planted faults: the honest variant has no
// `wrong` and no unexplained unreached decision value, every planted fault is judged `wrong`
// at least once, and every family plants at least five faults.
#include "harness/pair.hpp"
#include "harness/registry.hpp"

#include <boost/test/unit_test.hpp>

using namespace contactbench::harness;

namespace {

constexpr std::size_t min_faults_per_family = 5;

CheckOptions ci_size() {
  CheckOptions o;  // n = 10000, seed 1: what `contactbench check` runs by default
  o.shared_dir = default_shared_dir();
  o.timing = false;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mutation)

BOOST_AUTO_TEST_CASE(every_planted_fault_is_found_and_honest_variants_pass) {
  const auto o = ci_size();
  for (const auto& f : families()) {
    if (f.planted) continue;
    BOOST_TEST_CONTEXT("family " << f.name) {
      const auto honest = f.check(o);
      BOOST_TEST(honest.total.wrong == 0u);
      const auto flags = coverage_flags(f, honest);
      BOOST_TEST(flags["unreached"].empty(), flags["unreached"].dump());
      BOOST_TEST(!f.decision_space.empty(), "no decision space declared");
      BOOST_TEST(!honest.by_regime.empty(), "generated queries carry no regime label");
      std::size_t faults = 0;
      for (const auto& p : families()) {
        if (!p.planted || p.parent != f.name) continue;
        ++faults;
        BOOST_TEST_CONTEXT("planted fault " << p.name) {
          BOOST_TEST(p.check(o).total.wrong > 0u);
        }
      }
      BOOST_TEST(faults >= min_faults_per_family);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
