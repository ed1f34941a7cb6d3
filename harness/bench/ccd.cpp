// ccd/public-vf/{reference,fast} and ccd/public-ee/{reference,fast}: both variants cycling
// over the public query set (Wang et al. 2021, ../shared/data/ccd-queries) of one kind.
// The generic ccd/random/* and ccd/degenerate/* come from the registry.
#include "harness/pairs/ccd.hpp"
#include "harness/registry.hpp"

#include <benchmark/benchmark.h>

#include <memory>

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

const bool registered = [] {
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
