// The explicit registry: every reference/fast pair with its agreement class, and every
// canonical scenario. Tests, `check`, `bench`, `run` and the report all walk these tables.
#pragma once
#include "harness/pair.hpp"

#include <map>
#include <string>
#include <vector>

namespace contactbench::harness {

struct ScenarioOptions {
  std::string out_dir = "results/run";  // the scenario writes <out_dir>/<name>.json (and CSV)
  std::string variant = "both";         // "fast", "reference" or "both"
  std::map<std::string, std::string> params;  // --param key=value, scenario-specific
  std::string shared_dir;               // ../shared
  bool progress = false;
};

struct Scenario {
  std::string name;
  std::string description;
  // Returns 0 when the fast and reference runs agree within the scenario's stated bound (or
  // only one variant ran), 1 when they do not; throws InputError on bad parameters.
  std::function<int(const ScenarioOptions&)> run;
};

// All pairs, planted-fault entries last (they are skipped unless named explicitly).
const std::vector<Family>& families();
const Family* find_family(std::string_view name);
const std::vector<Scenario>& scenarios();
const Scenario* find_scenario(std::string_view name);

}  // namespace contactbench::harness
