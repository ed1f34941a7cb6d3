#include "cases/common.hpp"

#include "cases/seed_seq.hpp"
#include "cases/strict_json.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <numbers>

namespace contactbench::cases {

namespace {

// The four seed words of query `index` of (family, generator) under `seed`.
std::array<std::uint32_t, 4> query_seed_words(std::uint64_t seed, std::string_view family,
                                              std::string_view generator, std::uint64_t index) {
  // SplitMix-style mixing of the four inputs; std::hash of string_view is stable within one
  // libstdc++ build, which is all run-twice determinism and sharding need.
  std::uint64_t h = seed * 0x9E3779B97F4A7C15ULL;
  h ^= std::hash<std::string_view>{}(family) + 0x632BE59BD9B4E019ULL + (h << 6) + (h >> 2);
  h ^= std::hash<std::string_view>{}(generator) + 0x85EBCA77C2B2AE63ULL + (h << 6) + (h >> 2);
  h ^= (index + 1) * 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 31;
  return {static_cast<std::uint32_t>(h), static_cast<std::uint32_t>(h >> 32),
          static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(seed)};
}

// A seed sequence that hands out the 624 words of one lane, generated before.
template <class W>
struct ReplaySeedSeq {
  using result_type = std::uint32_t;
  const W* words;
  std::size_t lane;
  template <class It>
  void generate(It begin, It) const {
    for (std::size_t k = 0; k < 624; ++k) *begin++ = words[k][lane];
  }
};

using Words = std::uint32_t __attribute__((vector_size(4 * query_rng_lanes)));
void lane_words(const Words (&v)[4], Words (&b)[624]) { seed_words(v, b); }
#if defined(__x86_64__)
__attribute__((target("avx2"))) void lane_words_avx2(const Words (&v)[4], Words (&b)[624]) { seed_words(v, b); }
#endif
using LaneWords = void (*)(const Words (&)[4], Words (&)[624]);
LaneWords lane_words_for_this_cpu() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) return lane_words_avx2;
#endif
  return lane_words;
}

}  // namespace

Rng query_rng(std::uint64_t seed, std::string_view family, std::string_view generator,
              std::uint64_t index) {
  FourWordSeedSeq seq{query_seed_words(seed, family, generator, index)};
  return Rng(seq);
}

void query_rngs(std::uint64_t seed, std::string_view family, const std::string_view* generators,
                const std::uint64_t* indices, std::size_t count, Rng* out) {
  constexpr std::size_t L = query_rng_lanes;
  static const LaneWords fill = lane_words_for_this_cpu();
  Words v[4], words[624];
  for (std::size_t first = 0; first < count; first += L) {
    const std::size_t m = std::min(L, count - first);
    for (std::size_t j = 0; j < L; ++j) {  // spare lanes repeat the first (results unused)
      const std::size_t i = first + (j < m ? j : 0);
      const auto w = query_seed_words(seed, family, generators[i], indices[i]);
      for (int k = 0; k < 4; ++k) v[k][j] = w[k];
    }
    fill(v, words);
    for (std::size_t j = 0; j < m; ++j) {
      const ReplaySeedSeq<Words> replay{words, j};
      out[first + j].seed(replay);
    }
  }
}

std::string shared_dir(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("CONTACTBENCH_SHARED")) return env;
  return std::string(CONTACTBENCH_SOURCE_DIR) + "/../shared";
}

double uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

long uniform_int(Rng& rng, long lo, long hi) {
  return std::uniform_int_distribution<long>(lo, hi)(rng);
}

double dyadic(Rng& rng, int bits, long range, double scale) {
  return std::ldexp(static_cast<double>(uniform_int(rng, -range, range)), -bits) * scale;
}

double pick_scale(Rng& rng) {
  static constexpr double scales[] = {0x1p-10, 1.0, 0x1p10};  // ~1e-3, 1, ~1e3, exact
  return scales[uniform_int(rng, 0, 2)];
}

double log_uniform(Rng& rng, double lo, double hi) {
  return std::exp(uniform(rng, std::log(lo), std::log(hi)));
}

Eigen::Matrix3d random_rotation(Rng& rng) {
  std::normal_distribution<double> g(0, 1);
  Eigen::Quaterniond q(g(rng), g(rng), g(rng), g(rng));
  return q.normalized().toRotationMatrix();
}

std::string regime(std::initializer_list<std::pair<std::string_view, std::string_view>> tags) {
  std::string out;
  for (const auto& [axis, value] : tags) {
    if (!out.empty()) out += ' ';
    out.append(axis).append("=").append(value);
  }
  return out;
}

std::string scale_tag(double s) {
  if (!(s > 0) || !std::isfinite(s)) return "invalid";
  const int e = static_cast<int>(std::lround(std::log10(s)));
  return e == 0 ? "1" : "1e" + std::to_string(e);
}

std::string triangle_shape(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 v[3] = {a, b, c};
  double angle[3], edge[3];
  for (int k = 0; k < 3; ++k) {
    const Vec3 e1 = v[(k + 1) % 3] - v[k], e2 = v[(k + 2) % 3] - v[k];
    angle[k] = std::atan2(e1.cross(e2).norm(), e1.dot(e2)) * 180 / std::numbers::pi;
    edge[k] = (v[(k + 1) % 3] - v[k]).norm();
  }
  const double lo = std::min({angle[0], angle[1], angle[2]});
  const double hi = std::max({angle[0], angle[1], angle[2]});
  if (!(lo > 0)) return "degenerate";
  if (hi - lo <= 15) return "equilateral";
  if (lo >= 6) return "generic";
  if (hi < 120) return "needle";
  const double shortest = std::min({edge[0], edge[1], edge[2]});
  const double longest = std::max({edge[0], edge[1], edge[2]});
  return shortest <= longest / 10 ? "sliver" : "cap";
}

void Where::fail(const std::string& field, const std::string& what) const {
  std::string msg = file.empty() ? std::string("<input>") : file;
  if (!record.empty()) msg += ": " + record;
  if (!field.empty()) msg += ": field " + field;
  msg += ": " + what;
  throw InputError(one_line(msg));  // the last guard: one short line whatever the input
}

}  // namespace contactbench::cases
