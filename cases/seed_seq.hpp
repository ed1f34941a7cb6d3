// The seed sequence of cases::query_rng: std::seed_seq over four words, generating the same
// numbers (the algorithm the standard specifies, [rand.util.seedseq]) without its heap
// vector, and with the run-time `% n` of libstdc++'s loop made a compile-time modulus for the
// 624 words mt19937_64 asks for: seeding was a fifth of a cheap family's check. Other lengths
// go through std::seed_seq itself. harness/tests/harness.cpp compares the two.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>

namespace contactbench::cases {

struct FourWordSeedSeq {
  using result_type = std::uint32_t;
  std::array<std::uint32_t, 4> v;

  template <class It>
  void generate(It begin, It end) const {
    if (end - begin != 624) {
      std::seed_seq(v.begin(), v.end()).generate(begin, end);
      return;
    }
    constexpr std::size_t n = 624, t = 11, p = (n - t) / 2, q = p + t, s = 4, m = n;  // m = max(s + 1, n)
    std::array<std::uint32_t, n> b;
    b.fill(0x8b8b8b8bu);
    auto T = [](std::uint32_t x) { return x ^ (x >> 27); };
    for (std::size_t k = 0; k < m; ++k) {
      const std::uint32_t r1 = 1664525u * T(b[k % n] ^ b[(k + p) % n] ^ b[(k + n - 1) % n]);
      const std::uint32_t r2 =
          r1 + (k == 0 ? std::uint32_t{s} : static_cast<std::uint32_t>(k % n) + (k <= s ? v[k - 1] : 0u));
      b[(k + p) % n] += r1;
      b[(k + q) % n] += r2;
      b[k % n] = r2;
    }
    for (std::size_t k = m; k < m + n; ++k) {
      const std::uint32_t r3 = 1566083941u * T(b[k % n] + b[(k + p) % n] + b[(k + n - 1) % n]);
      const std::uint32_t r4 = r3 - static_cast<std::uint32_t>(k % n);
      b[(k + p) % n] ^= r3;
      b[(k + q) % n] ^= r4;
      b[k % n] = r4;
    }
    std::copy(b.begin(), b.end(), begin);
  }
};

}  // namespace contactbench::cases
