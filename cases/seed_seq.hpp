// The seed sequence of cases::query_rng: std::seed_seq over four words, generating the same
// numbers (the algorithm the standard specifies, [rand.util.seedseq]) without its heap
// vector, and with the run-time `% n` of libstdc++'s loop made a compile-time modulus for the
// 624 words mt19937_64 asks for: seeding was a fifth of a cheap family's check. Other lengths
// go through std::seed_seq itself. harness/tests/harness.cpp compares the two.
//
// The sequence is one serial chain of 1,248 dependent steps per query: query_rngs runs the
// chains of several queries interleaved (independent, so the core overlaps them), for the
// check loop, which seeds one stream per generated query.
#pragma once
#include "cases/common.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>

namespace contactbench::cases {

// The 624 words std::seed_seq(v[j]) generates for each of L word sets, the L chains
// interleaved step by step.
template <std::size_t L>
void seed_words_interleaved(const std::array<std::array<std::uint32_t, 4>, L>& v,
                            std::array<std::array<std::uint32_t, 624>, L>& b) {
  constexpr std::size_t n = 624, t = 11, p = (n - t) / 2, q = p + t, s = 4, m = n;
  for (auto& x : b) x.fill(0x8b8b8b8bu);
  auto T = [](std::uint32_t x) { return x ^ (x >> 27); };
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t kn = k % n, kp = (k + p) % n, kq = (k + q) % n, km = (k + n - 1) % n;
    for (std::size_t j = 0; j < L; ++j) {
      const std::uint32_t r1 = 1664525u * T(b[j][kn] ^ b[j][kp] ^ b[j][km]);
      const std::uint32_t r2 =
          r1 + (k == 0 ? std::uint32_t{s} : static_cast<std::uint32_t>(kn) + (k <= s ? v[j][k - 1] : 0u));
      b[j][kp] += r1;
      b[j][kq] += r2;
      b[j][kn] = r2;
    }
  }
  for (std::size_t k = m; k < m + n; ++k) {
    const std::size_t kn = k % n, kp = (k + p) % n, kq = (k + q) % n, km = (k + n - 1) % n;
    for (std::size_t j = 0; j < L; ++j) {
      const std::uint32_t r3 = 1566083941u * T(b[j][kn] + b[j][kp] + b[j][km]);
      const std::uint32_t r4 = r3 - static_cast<std::uint32_t>(kn);
      b[j][kp] ^= r3;
      b[j][kq] ^= r4;
      b[j][kn] = r4;
    }
  }
}

struct FourWordSeedSeq {
  using result_type = std::uint32_t;
  std::array<std::uint32_t, 4> v;

  template <class It>
  void generate(It begin, It end) const {
    if (end - begin != 624) {
      std::seed_seq(v.begin(), v.end()).generate(begin, end);
      return;
    }
    std::array<std::array<std::uint32_t, 624>, 1> b;
    seed_words_interleaved<1>({v}, b);
    std::copy(b[0].begin(), b[0].end(), begin);
  }
};

// query_rng(seed, family, generators[j], indices[j]) into out[j] for j < count (reseeded in
// place), query_rng_lanes chains at a time.
inline constexpr std::size_t query_rng_lanes = 8;
void query_rngs(std::uint64_t seed, std::string_view family, const std::string_view* generators,
                const std::uint64_t* indices, std::size_t count, Rng* out);

}  // namespace contactbench::cases
