// ccd/public-vf/{reference,fast} and ccd/public-ee/{reference,fast}: both variants cycling
// over the public query set (Wang et al. 2021, ../shared/data/ccd-queries) of one kind.
// The generic ccd/random/* and ccd/degenerate/* come from the registry. Beside them, on the
// same sets (seed 1, 4,096 queries, the fast variant's domain): ccd/<set>/reference_exact
// (the exact path alone, reference::ccd_exact: the filter's before/after in one run) and
// ccd/<set>/separation (what `check` adds per miss: reference::ccd_separation_of_miss on
// the set's misses).
#include "harness/pairs/ccd.hpp"
#include "harness/registry.hpp"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using contactbench::cases::CcdKind;
using contactbench::cases::CcdQuery;

// Loaded on first use, so a missing shared folder fails only these benchmarks.
const std::vector<CcdQuery>* public_set(CcdKind kind, std::string* error) {
  static std::vector<CcdQuery> sets[2];
  static std::string err;
  static bool loaded = false;
  if (!loaded) {
    loaded = true;
    try {
      for (const auto& nq : contactbench::cases::Ccd::public_queries(""))
        sets[nq.query.kind == CcdKind::edge_edge].push_back(nq.query);
    } catch (const contactbench::cases::InputError& e) {
      err = e.what();
    }
  }
  *error = err;
  return err.empty() ? &sets[kind == CcdKind::edge_edge] : nullptr;
}

template <contactbench::cases::CcdResult (*Fn)(const CcdQuery&)>
void run(benchmark::State& st, CcdKind kind) {
  std::string error;
  const auto* set = public_set(kind, &error);
  if (!set) {
    st.SkipWithError(error.c_str());
    return;
  }
  std::size_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(Fn((*set)[i]));
    if (++i == set->size()) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
}

// The registry's ccd/<gen> set (harness/pair.hpp, detail::register_benchmarks), built on
// first use; misses_only keeps the reference's misses.
const std::vector<CcdQuery>& generated_set(bool degenerate, bool misses_only) {
  static std::vector<CcdQuery> sets[2][2];
  static bool built[2][2] = {};
  auto& set = sets[degenerate][misses_only];
  if (built[degenerate][misses_only]) return set;
  built[degenerate][misses_only] = true;
  using contactbench::harness::CcdPair;
  for (std::size_t i = 0; i < 4096; ++i) {
    auto rng = contactbench::cases::query_rng(1, CcdPair::stem, degenerate ? "degenerate" : "random", 2 * i + degenerate);
    auto g = contactbench::harness::detail::generate<CcdPair>(rng, degenerate);
    if (!CcdPair::in_domain(g.query)) continue;
    if (misses_only && contactbench::reference::ccd(g.query).hit) continue;
    set.push_back(std::move(g.query));
  }
  return set;
}

template <class F>
void add_generated(const std::string& name, bool degenerate, bool misses_only, F f) {
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
    const auto& set = generated_set(degenerate, misses_only);
    std::size_t i = 0;
    for (auto _ : st) {
      benchmark::DoNotOptimize(f(set[i]));
      if (++i == set.size()) i = 0;
    }
    st.SetItemsProcessed(st.iterations());
  });
}

const bool registered = [] {
  for (const bool degenerate : {false, true}) {
    const std::string gen = degenerate ? "degenerate" : "random";
    add_generated("ccd/" + gen + "/reference_exact", degenerate, false,
                  [](const CcdQuery& q) { return contactbench::reference::ccd_exact(q); });
    add_generated("ccd/" + gen + "/separation", degenerate, true,
                  [](const CcdQuery& q) { return contactbench::reference::ccd_separation_of_miss(q); });
  }
  for (const auto kind : {CcdKind::vertex_face, CcdKind::edge_edge}) {
    const std::string k = kind == CcdKind::vertex_face ? "vf" : "ee";
    benchmark::RegisterBenchmark(("ccd/public-" + k + "/reference").c_str(),
                                 [kind](benchmark::State& st) {
                                   run<&contactbench::reference::ccd>(st, kind);
                                 });
    benchmark::RegisterBenchmark(("ccd/public-" + k + "/fast").c_str(),
                                 [kind](benchmark::State& st) {
                                   run<&contactbench::fast::ccd>(st, kind);
                                 });
  }
  return true;
}();

}  // namespace
