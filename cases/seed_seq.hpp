// The seed sequence of cases::query_rng: std::seed_seq over four words, generating the same
// numbers (the algorithm the standard specifies, [rand.util.seedseq]) without its heap
// vector, and with the run-time `% n` of libstdc++'s loop made a compile-time modulus for the
// 624 words mt19937_64 asks for: seeding was a fifth of a cheap family's check. Other lengths
// go through std::seed_seq itself. harness/tests/harness.cpp compares the two.
//
// The sequence is one serial chain of 1,248 dependent steps per query: query_rngs, for the
// check loop, which seeds one stream per generated query, runs the chains of 16 queries as
// the lanes of one vector.
#pragma once
#include "cases/common.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>

namespace contactbench::cases {

// The 624 words std::seed_seq(v) generates. W is one word (std::uint32_t) or a vector of
// words (GCC vector extension), one lane per word set: then every step is one vector
// operation for all lanes. Step k reads word k - 1, which step k - 1 wrote last: it stays
// in a register (prev), so the serial chain is xor, shift, multiply, add.
template <class W>
[[gnu::always_inline]] inline void seed_words(const W (&v)[4], W (&b)[624]) {
  constexpr std::size_t n = 624, t = 11, p = (n - t) / 2, q = p + t, s = 4;
  const W init = W{} + 0x8b8b8b8bu;
  for (auto& x : b) x = init;
  W prev = init;  // b[(k + n - 1) % n]
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t kp = (k + p) % n, kq = (k + q) % n;
    const W x = b[k] ^ b[kp] ^ prev;
    const W r1 = 1664525u * (x ^ (x >> 27));
    W r2 = r1 + static_cast<std::uint32_t>(k == 0 ? s : k);
    if (k >= 1 && k <= s) r2 += v[k - 1];
    b[kp] += r1;
    b[kq] += r2;
    b[k] = prev = r2;
  }
  for (std::size_t k = 0; k < n; ++k) {  // the standard's steps n .. 2n - 1, k mod n
    const std::size_t kp = (k + p) % n, kq = (k + q) % n;
    const W x = b[k] + b[kp] + prev;
    const W r3 = 1566083941u * (x ^ (x >> 27));
    const W r4 = r3 - static_cast<std::uint32_t>(k);
    b[kp] ^= r3;
    b[kq] ^= r4;
    b[k] = prev = r4;
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
    std::uint32_t b[624];
    seed_words<std::uint32_t>({v[0], v[1], v[2], v[3]}, b);
    std::copy(b, b + 624, begin);
  }
};

// query_rng(seed, family, generators[j], indices[j]) into out[j] for j < count (reseeded in
// place), query_rng_lanes word sets at a time as the lanes of one vector (AVX2 where the CPU
// has it: two ymm registers).
inline constexpr std::size_t query_rng_lanes = 16;
void query_rngs(std::uint64_t seed, std::string_view family, const std::string_view* generators,
                const std::uint64_t* indices, std::size_t count, Rng* out);

}  // namespace contactbench::cases
