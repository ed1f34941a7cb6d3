// The ellipsoid_contact state decision by input class (issue 12, item 3): FCL's collide
// (state only) beside the certified state alone (`certified_state`: what collide answers,
// the like-for-like ratio; harness::ellipsoid_contact_certified_state, its counters the
// fraction each stage decided), its first stage alone (`fast_state`, −1 where undecided),
// the gated fast kernel `fast` (certified state plus F, point, normal, roots and overlap:
// more than collide answers), the paper's shortcut and the reference. Names ellipsoid_state/<set>/<impl>; sets random (the
// family's random generator, in the fast domain) and near_touching (relative gaps
// ±1e-6 … ±1e-15, built by F(t r) = t² F(r)), placed (the random set without its `near`
// configuration: boxes, far, inside; no pair placed at a chosen small gap); only the random set carries "/random/" (the
// ctest smoke run), near_touching holds the slow cases of the reference and of FCL.
#include "cases/ellipsoid_contact.hpp"
#include "fast/ellipsoid_contact.hpp"
#include "harness/pairs/ellipsoid_contact.hpp"
#include "reference/ellipsoid_contact.hpp"

#include "harness/bench/cycle.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <memory>
#include <vector>

namespace {

using namespace contactbench;
using Query = cases::EllipsoidContactQuery;

std::shared_ptr<const std::vector<Query>> make_set(const std::string& name) {
  auto set = std::make_shared<std::vector<Query>>();
  for (int i = 0; set->size() < 2048 && i < 200000; ++i) {
    auto rng = cases::query_rng(1, "ellipsoid_state_bench", name, i);
    auto g = cases::EllipsoidContact::random(rng);
    if (!fast::ellipsoid_contact_in_domain(g.query)) continue;
    if (name == "placed" && g.regime.find("config=near") != std::string::npos) continue;
    if (name == "near_touching") {
      const auto p = g.regime.find("gap=");
      if (p == std::string::npos || g.regime[p + 4] == 'n') continue;
      const int k = std::stoi(g.regime.substr(p + 8));  // gap=±1e-k
      if (k < 6) continue;
    }
    set->push_back(g.query);
  }
  return set;
}

using bench::add;

// Not a timing: which stage of the certified state decided, as fractions of the set
// (counters stage1 centre line, stage2 Perram–Wertheim's certificate in double, stage3 the reference's
// filter, stage4 its double-double certificate, stage5 its exact count).
void stage_counters(const std::string& name, std::shared_ptr<const std::vector<Query>> set) {
  benchmark::RegisterBenchmark(name.c_str(), [set](benchmark::State& st) {
    std::array<double, 6> n{};
    for (auto _ : st)
      for (const Query& q : *set) n[harness::ellipsoid_contact_certified_state(q).stage] += 1;
    for (int k = 1; k <= 5; ++k) st.counters[fmt::format("stage{}", k)] = n[k] / (double(set->size()) * st.iterations());
  })->Iterations(1);
}

const bool registered = [] {
  for (const char* name : {"random", "placed", "near_touching"}) {
    const auto set = make_set(name);
    add(fmt::format("ellipsoid_state/{}/certified_state", name), set,
        [](const Query& q) { return harness::ellipsoid_contact_certified_state(q).state; });
    stage_counters(fmt::format("ellipsoid_state/{}/certified_state_stages", name), set);
    add(fmt::format("ellipsoid_state/{}/fast_state", name), set, [](const Query& q) { return fast::ellipsoid_contact_state(q); });
    add(fmt::format("ellipsoid_state/{}/fcl_collide", name), set, [](const Query& q) { return harness::fcl_ellipsoids_collide(q); });
    add(fmt::format("ellipsoid_state/{}/shortcut", name), set, [](const Query& q) { return fast::ellipsoid_contact_shortcut(q).state.size(); });
    add(fmt::format("ellipsoid_state/{}/fast", name), set, [](const Query& q) { return fast::ellipsoid_contact(q).F; });
    add(fmt::format("ellipsoid_state/{}/reference", name), set, [](const Query& q) { return reference::ellipsoid_contact(q).F; });
  }
  return true;
}();

}  // namespace
