// One benchmark helper shared by the bench files: a benchmark that calls f on the queries of
// a fixed set in turn, one call per iteration (items/s = calls/s).
#pragma once
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

namespace contactbench::bench {

template <class Set, class F>
void add(const std::string& name, std::shared_ptr<const Set> set, F f) {
  benchmark::RegisterBenchmark(name.c_str(), [set, f](benchmark::State& st) {
    std::size_t i = 0;
    for (auto _ : st) {
      benchmark::DoNotOptimize(f((*set)[i]));
      if (++i == set->size()) i = 0;
    }
    st.SetItemsProcessed(st.iterations());
  });
}

}  // namespace contactbench::bench
