// Suite registry: what every registered family (its own fast variant and each published
// method) must satisfy, walked over the registry, so that a new family is covered by its
// registry line alone. Family test files keep only what is particular to their family.
#include "cases/json_input.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>

using namespace contactbench;

namespace {

// Statistics without the timings, the only part that may differ between two runs of one
// campaign (error sums are exact, maxima's labels break ties by name).
std::string untimed(const harness::FamilyStats& s) {
  auto j = s.to_json();
  j.erase("time_ns");
  return j.dump();
}

std::vector<const harness::Family*> measured_families() {
  std::vector<const harness::Family*> out;
  for (const auto& f : harness::families())
    if (!f.planted()) out.push_back(&f);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(registry)

// A small campaign of generated queries: every query counted and labelled (some regime axis
// tags each one), no `wrong` in a gated family, verdicts its agreement class allows.
BOOST_AUTO_TEST_CASE(small_check_has_no_wrong) {
  for (const auto* f : measured_families())
    BOOST_TEST_CONTEXT(f->name) {
      const auto s = f->check({.n = 600, .seed = 3, .canonical = false, .timing = false});
      BOOST_TEST(s.total.queries == 600u);
      if (f->gated()) BOOST_TEST(s.total.wrong == 0u);
      if (f->agreement != harness::Agreement::conservative) BOOST_TEST(s.total.false_positive == 0u);
      if (f->agreement == harness::Agreement::exact) BOOST_TEST(s.total.boundary == 0u);
      std::map<std::string, std::uint64_t> per_axis;
      for (const auto& [tag, c] : s.by_regime) per_axis[tag.substr(0, tag.find('='))] += c.queries;
      std::uint64_t labelled = 0;
      for (const auto& [axis, n] : per_axis) labelled = std::max(labelled, n);
      BOOST_TEST(labelled == 600u);
    }
}

// The same campaign twice gives the same statistics and examples (timings apart), and its
// shards merge to the unsharded run, whatever the number of shards.
BOOST_AUTO_TEST_CASE(deterministic_and_shards_merge_to_the_whole) {
  for (const auto* f : measured_families())
    BOOST_TEST_CONTEXT(f->name) {
      harness::CheckOptions o{.n = 300, .seed = 5, .canonical = false, .timing = false};
      const auto whole = f->check(o);
      BOOST_TEST(untimed(f->check(o)) == untimed(whole));
      o.shards = 3;
      harness::FamilyStats merged;
      for (o.shard = 0; o.shard < o.shards; ++o.shard) merged.merge(f->check(o));
      BOOST_TEST(untimed(merged) == untimed(whole));
    }
}

// Generated queries written as JSON Lines and read back by `eval` give the same records:
// the query JSON loses nothing, and the results print the same.
BOOST_AUTO_TEST_CASE(query_and_result_json_round_trip) {
  for (const auto* f : measured_families())
    BOOST_TEST_CONTEXT(f->name) {
      const harness::CheckOptions o{.n = 200, .seed = 7, .timing = false};
      const auto records = f->sample(o);
      BOOST_TEST_REQUIRE(records.size() == 200u);
      std::string lines;
      for (const auto& r : records) lines += r["query"].dump() + "\n";
      test::TempFile file("queries.jsonl", lines);
      const auto back = f->eval(file.str(), o);
      BOOST_TEST_REQUIRE(back.size() == records.size());
      for (std::size_t i = 0; i < records.size(); ++i) {
        auto b = back[i];
        BOOST_TEST(b["line"].get<std::size_t>() == i + 1);
        b.erase("line");
        BOOST_TEST(b.dump() == records[i].dump(), "query " << i);
      }
    }
}

// Every family states its rule and has canonical cases with distinct names.
BOOST_AUTO_TEST_CASE(canonical_names_and_rules) {
  for (const auto* f : measured_families())
    BOOST_TEST_CONTEXT(f->name) {
      BOOST_TEST(!f->justification.empty());
      const auto names = f->canonical_names({});
      BOOST_TEST(!names.empty());
      BOOST_TEST(std::set<std::string>(names.begin(), names.end()).size() == names.size());
    }
}

BOOST_AUTO_TEST_SUITE_END()
