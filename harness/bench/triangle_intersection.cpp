// Benchmarks of the triangle_intersection family beyond the registry's random/degenerate
// sets (issue 11, item 5). One average hides the spread between inputs the double filter
// decides and inputs that need exact arithmetic, so each input class is its own set:
//
// triangle_intersection_by_class/<config>/<impl>: 1,024 in-domain queries of one config of
//   the degenerate generator (cases/triangle_intersection.hpp; the same stream as the
//   registry's degenerate set, seed 1), impls fast (certified), cgal_epick_do_intersect and
//   the published plain-double methods, named as in the registry's rows.
// orient3d/<set>/<impl>: sets random (four points in a unit box), coplanar (exactly, on the
//   dyadic grid), nearly_coplanar (the same, one coordinate 1-3 ulps off), coplanar_fm
//   (exactly, full-mantissa: a plane z = k1/4·x + k2/4·y, x and y of 49 significant bits)
//   and nearly_coplanar_fm (the same, one coordinate 1-3 ulps off); impls certified (filter
//   + exact stages), plain (double sign, may be wrong), reference (interval filter + GMP
//   rationals, the reference's exact::orientation) and cgal_epick (CGAL's filtered
//   orientation: static filter, interval filter, exact arithmetic).
#include "cases/triangle_intersection.hpp"
#include "fast/triangle_intersection.hpp"
#include "reference/src/orientation.hpp"
#include "reference/triangle_intersection.hpp"

#include "harness/bench/cycle.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace {

using namespace contactbench;
using cases::Vec3;
using Quad = std::array<Vec3, 4>;
using Query = cases::TriangleIntersectionQuery;

// Four points on z = k1/4·x + k2/4·y (x, y: 49 significant bits in a box of size about 1):
// every 2x2 product of differences rounds, yet the orientation is exactly 0.
Quad full_mantissa_coplanar(cases::Rng& rng) {
  const double a = static_cast<double>(cases::uniform_int(rng, 1, 8)) / 4, b = -static_cast<double>(cases::uniform_int(rng, 1, 8)) / 4;
  Quad q;
  for (auto& v : q) {
    const double x = std::ldexp(std::nearbyint(std::ldexp(cases::uniform(rng, -1, 1), 48)), -48);
    const double y = std::ldexp(std::nearbyint(std::ldexp(cases::uniform(rng, -1, 1), 48)), -48);
    v = Vec3(x, y, a * x + b * y);  // exact: |4a·x·2^48| + |4b·y·2^48| < 2^53
  }
  return q;
}

std::shared_ptr<const std::vector<Quad>> make_quads(const std::string& s) {
  auto set = std::make_shared<std::vector<Quad>>();
  for (int i = 0; i < 4096; ++i) {
    auto rng = cases::query_rng(1, "orient3d_bench", s, i);
    if (s == "random") {
      Quad q;
      for (auto& v : q) v = Vec3(cases::uniform(rng, 0, 1), cases::uniform(rng, 0, 1), cases::uniform(rng, 0, 1));
      set->push_back(q);
      continue;
    }
    Quad q;
    if (s.ends_with("_fm")) {
      q = full_mantissa_coplanar(rng);
    } else {
      auto grid = [&] { return Vec3(cases::dyadic(rng, 4, 64, 1), cases::dyadic(rng, 4, 64, 1), cases::dyadic(rng, 4, 64, 1)); };
      q = {grid(), grid(), grid(), Vec3::Zero()};
      q[3] = q[0] + cases::dyadic(rng, 3, 16, 1) * (q[1] - q[0]) + cases::dyadic(rng, 3, 16, 1) * (q[2] - q[0]);
    }
    if (s.starts_with("nearly_coplanar")) {
      const int k = static_cast<int>(cases::uniform_int(rng, 0, 2));
      for (long n = cases::uniform_int(rng, 1, 3); n > 0; --n) q[3][k] = std::nextafter(q[3][k], 1e308);
    }
    set->push_back(q);
  }
  return set;
}

using bench::add;

// 1,024 in-domain queries per config of the degenerate generator, in the order of its stream.
std::map<std::string, std::shared_ptr<std::vector<Query>>> degenerate_by_class() {
  std::map<std::string, std::shared_ptr<std::vector<Query>>> sets;
  constexpr std::size_t per_class = 1024;
  std::size_t full = 0;
  for (std::uint64_t i = 0; full < 20 && i < 2'000'000; ++i) {
    auto rng = cases::query_rng(1, "triangle_intersection", "degenerate", 2 * i + 1);
    const auto g = cases::TriangleIntersection::degenerate(rng);
    if (!cases::triangle_in_fast_domain(g.query)) continue;
    const auto at = g.regime.find("config=") + 7;
    auto& set = sets[g.regime.substr(at, g.regime.find(' ', at) - at)];
    if (!set) set = std::make_shared<std::vector<Query>>();
    if (set->size() < per_class && (set->push_back(g.query), set->size() == per_class)) ++full;
  }
  return sets;
}

const bool registered = [] {
  for (const char* name : {"random", "coplanar", "nearly_coplanar", "coplanar_fm", "nearly_coplanar_fm"}) {
    const auto set = make_quads(name);
    add(fmt::format("orient3d/{}/certified", name), set, [](const Quad& q) { return fast::orient3d(q[0], q[1], q[2], q[3]); });
    add(fmt::format("orient3d/{}/plain", name), set, [](const Quad& q) { return fast::orient3d_plain(q[0], q[1], q[2], q[3]); });
    add(fmt::format("orient3d/{}/reference", name), set,
        [](const Quad& q) { return reference::exact::orientation(q[0], q[1], q[2], q[3]); });
    add(fmt::format("orient3d/{}/cgal_epick", name), set,
        [](const Quad& q) { return reference::exact::cgal_epick_orientation(q[0], q[1], q[2], q[3]); });
  }
  using Impl = std::pair<const char*, std::function<bool(const Query&)>>;
  const std::array<Impl, 4> impls = {{
      {"fast", [](const Query& q) { return fast::triangle_intersection(q).intersect; }},
      {"cgal_epick_do_intersect", [](const Query& q) { return reference::cgal_epick_triangles_intersect(q) != 0; }},
      {"triangle_intersection_published_moller", [](const Query& q) { return fast::triangle_intersection_moller(q).intersect; }},
      {"triangle_intersection_published_guigue_devillers",
       [](const Query& q) { return fast::triangle_intersection_guigue_devillers(q).intersect; }},
  }};
  for (const auto& [config, set] : degenerate_by_class())
    for (const auto& [impl, f] : impls)
      add(fmt::format("triangle_intersection_by_class/{}/{}", config, impl), std::shared_ptr<const std::vector<Query>>(set), f);
  return true;
}();

}  // namespace
