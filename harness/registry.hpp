// The explicit registry: every reference/fast pair with its agreement class, and every
// canonical scenario. Tests, `check`, `bench`, `run` and the report all walk these tables.
#pragma once
#include "harness/pair.hpp"
#include "harness/scenario.hpp"

#include <string>
#include <vector>

namespace contactbench::harness {

// All pairs, planted-fault entries last (they are skipped unless named explicitly).
const std::vector<Family>& families();
const Family* find_family(std::string_view name);
const std::vector<Scenario>& scenarios();
const Scenario* find_scenario(std::string_view name);

}  // namespace contactbench::harness
