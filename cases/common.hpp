// Shared vocabulary of every family: vectors, random streams, dyadic grids and the one
// error type for bad input. Depends on Eigen only.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

namespace contactbench::cases {

using Vec3 = Eigen::Vector3d;
using Vec2 = Eigen::Vector2d;

// Deterministic stream: query i of a campaign with seed s always sees the same numbers,
// whatever the sharding or thread count (see query_rng).
using Rng = std::mt19937_64;

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
