// Orientation-level cost of the triangle_intersection predicates (issue 11, item 5): one
// average hides the spread between inputs the double filter decides and inputs that need
// the exact fallback, so each input class is its own set. Names:
// orient3d/<set>/<impl>, sets random (four points in a unit box), coplanar (exactly, on the
// dyadic grid) and nearly_coplanar (the same, one coordinate 1-3 ulps off); impls certified
// (filter + expansions), plain (double sign, may be wrong), reference (interval filter +
// GMP rationals, the reference's exact::orientation).
#include "cases/common.hpp"
#include "fast/triangle_intersection.hpp"
#include "reference/src/orientation.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <memory>
#include <vector>

namespace {

using namespace contactbench;
using cases::Vec3;
using Quad = std::array<Vec3, 4>;

std::shared_ptr<const std::vector<Quad>> make_set(const char* name) {
  auto set = std::make_shared<std::vector<Quad>>();
  const std::string s = name;
  for (int i = 0; i < 4096; ++i) {
    auto rng = cases::query_rng(1, "orient3d_bench", name, i);
    if (s == "random") {
      Quad q;
      for (auto& v : q) v = Vec3(cases::uniform(rng, 0, 1), cases::uniform(rng, 0, 1), cases::uniform(rng, 0, 1));
      set->push_back(q);
      continue;
    }
    auto grid = [&] { return Vec3(cases::dyadic(rng, 4, 64, 1), cases::dyadic(rng, 4, 64, 1), cases::dyadic(rng, 4, 64, 1)); };
    Quad q = {grid(), grid(), grid(), Vec3::Zero()};
    q[3] = q[0] + cases::dyadic(rng, 3, 16, 1) * (q[1] - q[0]) + cases::dyadic(rng, 3, 16, 1) * (q[2] - q[0]);
    if (s == "nearly_coplanar") {
      const int k = static_cast<int>(cases::uniform_int(rng, 0, 2));
      for (long n = cases::uniform_int(rng, 1, 3); n > 0; --n) q[3][k] = std::nextafter(q[3][k], 1e308);
    }
    set->push_back(q);
  }
  return set;
}

template <class F>
void add(const std::string& name, std::shared_ptr<const std::vector<Quad>> set, F f) {
  benchmark::RegisterBenchmark(name.c_str(), [set, f](benchmark::State& st) {
    std::size_t i = 0;
    for (auto _ : st) {
      const Quad& q = (*set)[i];
      benchmark::DoNotOptimize(f(q[0], q[1], q[2], q[3]));
      if (++i == set->size()) i = 0;
    }
    st.SetItemsProcessed(st.iterations());
  });
}

const bool registered = [] {
  for (const char* name : {"random", "coplanar", "nearly_coplanar"}) {
    const auto set = make_set(name);
    add(fmt::format("orient3d/{}/certified", name), set,
        [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) { return fast::orient3d(a, b, c, d); });
    add(fmt::format("orient3d/{}/plain", name), set,
        [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) { return fast::orient3d_plain(a, b, c, d); });
    add(fmt::format("orient3d/{}/reference", name), set, [](const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
      return reference::exact::orientation(a, b, c, d);
    });
  }
  return true;
}();

}  // namespace
