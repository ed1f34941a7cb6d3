// cases::Rng: the 64-bit Mersenne Twister, the same numbers as std::mt19937_64 (same
// seeding, same outputs), but twisting its state one word per draw, when that word is drawn,
// instead of all 312 words at the first draw. The in-place twist of word i reads words i,
// i + 1 and i + 156 (mod 312) — the later ones not yet twisted, the earlier ones already —
// so twisting in draw order gives the full twist's words. A generated query draws a few
// dozen numbers from a fresh stream: the full twist was a tenth of a cheap family's check.
// harness/tests/harness.cpp compares it with std::mt19937_64.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace contactbench::cases {

class LazyMt19937_64 {
 public:
  using result_type = std::uint64_t;
  static constexpr std::size_t state_size = 312;
  static constexpr result_type default_seed = 5489u;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }

  LazyMt19937_64() { seed(default_seed); }
  explicit LazyMt19937_64(result_type s) { seed(s); }
  template <class Sseq, class = std::enable_if_t<!std::is_convertible_v<Sseq, result_type> &&
                                                 !std::is_same_v<std::remove_cv_t<Sseq>, LazyMt19937_64>>>
  explicit LazyMt19937_64(Sseq& q) {
    seed(q);
  }

  void seed(result_type s) {
    x_[0] = s;
    for (std::size_t i = 1; i < state_size; ++i) x_[i] = 6364136223846793005ULL * (x_[i - 1] ^ (x_[i - 1] >> 62)) + i;
    i_ = 0;
  }
  // [rand.eng.mers]: 624 words of q, two per state word (low half first); an all-zero state
  // (upper bit of word 0 aside) becomes 2^63 in word 0.
  template <class Sseq, class = std::enable_if_t<!std::is_convertible_v<Sseq, result_type> &&
                                                 !std::is_same_v<std::remove_cv_t<Sseq>, LazyMt19937_64>>>
  void seed(Sseq& q) {
    std::uint32_t words[2 * state_size];
    q.generate(words, words + 2 * state_size);
    bool zero = true;
    for (std::size_t i = 0; i < state_size; ++i) {
      x_[i] = words[2 * i] | (static_cast<result_type>(words[2 * i + 1]) << 32);
      zero = zero && (i == 0 ? (x_[0] & upper) == 0 : x_[i] == 0);
    }
    if (zero) x_[0] = result_type{1} << 63;
    i_ = 0;
  }

  result_type operator()() {
    if (i_ == state_size) i_ = 0;
    const std::size_t i = i_++;
    const std::size_t next = i + 1 == state_size ? 0 : i + 1;
    const std::size_t far = i + shift < state_size ? i + shift : i + shift - state_size;
    const result_type y = (x_[i] & upper) | (x_[next] & lower);
    x_[i] = x_[far] ^ (y >> 1) ^ ((y & 1) ? matrix : 0);
    result_type z = x_[i];
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
    z ^= (z << 37) & 0xFFF7EEE000000000ULL;
    z ^= z >> 43;
    return z;
  }

 private:
  static constexpr std::size_t shift = 156;
  static constexpr result_type matrix = 0xB5026F5AA96619E9ULL;
  static constexpr result_type upper = ~result_type{0} << 31, lower = ~upper;
  result_type x_[state_size];
  std::size_t i_ = 0;  // the next word to twist and draw; words before it are twisted
};

}  // namespace contactbench::cases
