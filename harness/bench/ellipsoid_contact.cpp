// The ellipsoid_contact state decision by input class (issue 12, item 3): FCL's collide
// (state only) beside the gated fast kernel `fast` (certified state plus F, point, normal,
// roots and overlap: more than collide answers, so fast/fcl_collide is a conservative
// like-for-like ratio), the ungated Sturm count alone (`fast_state`, no cross-check), the
// paper's shortcut and the reference. Names ellipsoid_state/<set>/<impl>; sets random (the
// family's random generator, in the fast domain) and near_touching (relative gaps
// ±1e-6 … ±1e-15, built by F(t r) = t² F(r)); only the random set carries "/random/" (the
// ctest smoke run), near_touching holds the slow cases of the reference and of FCL.
#include "cases/ellipsoid_contact.hpp"
#include "fast/ellipsoid_contact.hpp"
#include "harness/pairs/ellipsoid_contact.hpp"
#include "reference/ellipsoid_contact.hpp"

#include "harness/bench/cycle.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

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

const bool registered = [] {
  for (const char* name : {"random", "near_touching"}) {
    const auto set = make_set(name);
    add(fmt::format("ellipsoid_state/{}/fast_state", name), set, [](const Query& q) { return fast::ellipsoid_contact_state(q); });
    add(fmt::format("ellipsoid_state/{}/fcl_collide", name), set, [](const Query& q) { return harness::fcl_ellipsoids_collide(q); });
    add(fmt::format("ellipsoid_state/{}/shortcut", name), set, [](const Query& q) { return fast::ellipsoid_contact_shortcut(q).state.size(); });
    add(fmt::format("ellipsoid_state/{}/fast", name), set, [](const Query& q) { return fast::ellipsoid_contact(q).F; });
    add(fmt::format("ellipsoid_state/{}/reference", name), set, [](const Query& q) { return reference::ellipsoid_contact(q).F; });
  }
  return true;
}();

}  // namespace
