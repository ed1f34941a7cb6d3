// Shared vocabulary of every family: vectors, random streams, dyadic grids, named and
// generated queries, the shared-data folder and the one error type for bad input.
// Depends on Eigen only.
//
// Each family's vocabulary lives in cases/<stem>.hpp: its query and result types and a
// struct named for the family (cases::Barrier, cases::Ccd, ...) that the harness's
// Pair<V> reads: Query, Result, canonical() (the hand-made cases, in C++, each with a name),
// random(rng) and degenerate(rng) (generators with regime labels), to_json(query),
// to_json(result) and from_json(json, where) (the validating JSON Lines reader).
#pragma once
#include "cases/rng.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace contactbench::cases {

using Vec3 = Eigen::Vector3d;
using Vec2 = Eigen::Vector2d;

// Deterministic stream: query i of a campaign with seed s always sees the same numbers,
// whatever the sharding or thread count (see query_rng). std::mt19937_64's numbers, twisted
// lazily (cases/rng.hpp).
using Rng = LazyMt19937_64;

// The stream for query `index` of generator `generator` of family `family` under `seed`.
Rng query_rng(std::uint64_t seed, std::string_view family, std::string_view generator,
              std::uint64_t index);

// Uniform double in [lo, hi).
double uniform(Rng& rng, double lo, double hi);
// Integer in [lo, hi].
long uniform_int(Rng& rng, long lo, long hi);
// A point of the dyadic grid k·2^-bits·scale, k in [-range, range]: every such value and
// every sum/difference of a few of them is exact in double, so boundary cases stay exact.
double dyadic(Rng& rng, int bits, long range, double scale);
// One of the generator scales 1e-3, 1, 1e3, rounded to a power of two so scaling is exact.
double pick_scale(Rng& rng);
// Log-uniform double over [lo, hi] (0 < lo < hi): exp of a uniform value in [ln lo, ln hi),
// so every decade is equally likely. The rounding of exp may land an ulp outside [lo, hi];
// callers with a hard domain limit clamp.
double log_uniform(Rng& rng, double lo, double hi);

// A uniformly random rotation (a normalised Gaussian quaternion).
Eigen::Matrix3d random_rotation(Rng& rng);

// A query with a name (canonical cases) or a source label (data-set entries).
template <class Q>
struct Named {
  std::string name;
  Q query;
  std::string source = "canonical";  // by_source key in the statistics
};

// The shared folder (../shared: sources and public data sets): `given` when not empty, else
// $CONTACTBENCH_SHARED, else <source dir>/../shared.
std::string shared_dir(const std::string& given = "");

// A generated query with its regime label: space-separated "axis=value" tags, e.g.
// "shape=needle config=face place=far scale=1e-3". `check` counts verdicts per tag, so a
// family's weak regime shows at a glance. Axes in use: shape (triangle quality), config
// (contact configuration), place (near / far from the origin), scale (the query's size),
// plus family-specific ones (motion, regime of a parameter, ...). Build tags with regime().
template <class Q>
struct Generated {
  Q query;
  std::string regime;
};

// "axis=value axis=value ...": one label from (axis, value) pairs, in the order given.
std::string regime(std::initializer_list<std::pair<std::string_view, std::string_view>> tags);
// The scale tag of a length scale s: "1e-3", "1", "1e3", ... (nearest decade).
std::string scale_tag(double s);

// The shape tag of a triangle, measured from its angles (theta_min, theta_max) and edges:
// "equilateral" (theta_max - theta_min <= 15 deg), "generic" (theta_min >= 6 deg), else thin:
// "needle" (theta_max < 120 deg: one tiny angle opposite a short edge), "sliver" (an angle of
// at least 120 deg and a shortest edge at most 1/10 of the longest), or "cap" (an angle of at
// least 120 deg, no such short edge). A collinear triangle is "degenerate".
std::string triangle_shape(const Vec3& a, const Vec3& b, const Vec3& c);

// Bad input: the message already names file, record/line and field.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where a value came from, for error messages: "file.json: case 3 (\"name\"): field p[1]".
struct Where {
  std::string file;
  std::string record;  // "line 12", "case 3 (\"edge_mid\")", "query 7"
  [[noreturn]] void fail(const std::string& field, const std::string& what) const;
};

}  // namespace contactbench::cases
