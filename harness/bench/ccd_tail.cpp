// ccd/tail/<set>/fast: the fast CCD's per-query time distribution on one set (the generated
// random and degenerate sets of the registry's benchmarks, seed 1, and the public set by
// kind). Each iteration times every query of the set once; a query's time is its fastest of
// the iterations (robust to preemption on a loaded machine); the counters are the mean, p50,
// p99 and slowest of those in microseconds, and how many queries of the set ran the
// double-double stage, had an interval settled by its root spans or a block by the sweep, were
// answered by a first span at an interval's start (touch) or had an excluded block widened
// by f alone (grown), or stopped on a node budget (from fast::CcdTrace).
#include "cases/ccd.hpp"
#include "fast/ccd.hpp"
#include "harness/pairs/ccd.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

namespace {

using contactbench::cases::CcdKind;
using contactbench::cases::CcdQuery;

std::vector<CcdQuery> generated_set(bool degenerate) {
  using P = contactbench::harness::CcdPair;
  std::vector<CcdQuery> set;
  for (std::size_t i = 0; i < 4096; ++i) {  // the registry benchmarks' set (seed 1, 4096)
    auto rng = contactbench::cases::query_rng(1, P::stem, degenerate ? "degenerate" : "random",
                                              2 * i + degenerate);
    auto g = degenerate ? P::degenerate(rng) : P::random(rng);
    if (P::in_domain(g.query)) set.push_back(g.query);
  }
  return set;
}

std::vector<CcdQuery> public_set(CcdKind kind) {
  std::vector<CcdQuery> set;
  for (const auto& nq : contactbench::cases::Ccd::public_queries(""))
    if (nq.query.kind == kind) set.push_back(nq.query);
  return set;
}

void run(benchmark::State& st, const std::vector<CcdQuery>& set) {
  std::vector<double> us;
  us.reserve(set.size());
  double dd = 0, spans = 0, sweeps = 0, touch = 0, grown = 0, budget = 0;
  for (const auto& q : set) {  // the search's trace, once (deterministic)
    contactbench::fast::CcdTrace tr;
    contactbench::fast::ccd(q, &tr);
    dd += tr.second_stage;
    spans += tr.root_spans;
    sweeps += tr.sweep;
    touch += tr.touch;
    grown += tr.grown;
    budget += tr.budget_exhausted;
  }
  std::vector<double> all(set.size(), INFINITY);
  for (auto _ : st) {
    for (std::size_t i = 0; i < set.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(contactbench::fast::ccd(set[i]));
      const auto t1 = std::chrono::steady_clock::now();
      all[i] = std::min(all[i], std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }
  std::sort(all.begin(), all.end());
  double sum = 0;
  for (double t : all) sum += t;
  auto pct = [&](double p) { return all[std::min(all.size() - 1, std::size_t(p * all.size()))]; };
  st.counters["mean_us"] = sum / all.size();
  st.counters["p50_us"] = pct(0.5);
  st.counters["p99_us"] = pct(0.99);
  st.counters["max_us"] = all.back();
  st.counters["queries"] = set.size();
  st.counters["dd_stage"] = dd;
  st.counters["root_spans"] = spans;
  st.counters["sweeps"] = sweeps;
  st.counters["touch"] = touch;
  st.counters["grown"] = grown;
  st.counters["budget_hit"] = budget;
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * set.size()));
}

const bool registered = [] {
  struct Set {
    const char* name;
    std::function<std::vector<CcdQuery>()> make;
  };
  for (const auto& s : {Set{"random", [] { return generated_set(false); }},
                        Set{"degenerate", [] { return generated_set(true); }},
                        Set{"public-vf", [] { return public_set(CcdKind::vertex_face); }},
                        Set{"public-ee", [] { return public_set(CcdKind::edge_edge); }}}) {
    auto make = s.make;
    benchmark::RegisterBenchmark((std::string("ccd/tail/") + s.name + "/fast").c_str(),
                                 [make](benchmark::State& st) {
                                   std::vector<CcdQuery> set;
                                   try {
                                     set = make();
                                   } catch (const std::exception& e) {
                                     st.SkipWithError(e.what());
                                     return;
                                   }
                                   run(st, set);
                                 })
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
