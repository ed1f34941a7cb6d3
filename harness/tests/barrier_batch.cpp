// The batched barrier (fast/barrier_batch.cpp) against the scalar kernel, bit for bit (every
// field of every query, generated random and degenerate queries, sizes with a ragged tail,
// the AVX-512, AVX2 and scalar paths), and the barrier's own log (fast::barrier_log)
// against hand values, exactly rounded multiples of ln 2, and long double on sweeps.
#include "fast/barrier.hpp"
#include "harness/pairs/barrier.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

BOOST_AUTO_TEST_SUITE(barrier_batch)

using namespace contactbench;

namespace {

constexpr long double ln2 = 0.693147180559945309417232121458176568L;
constexpr double u = 0x1p-53;

std::vector<cases::BarrierQuery> queries() {
  std::vector<cases::BarrierQuery> out;
  for (int i = 0; i < 4000; ++i) {
    auto rng = cases::query_rng(11, "barrier_batch_test", i % 2 ? "d" : "r", i);
    out.push_back(i % 2 ? cases::Barrier::degenerate(rng).query : cases::Barrier::random(rng).query);
  }
  // Inactive at the edges: d = d̂, d just below/above, d = +inf, d subnormal.
  out.push_back({1e-3, 1e-3, 1, 1});
  out.push_back({std::nextafter(1e-3, 0.0), 1e-3, 1, 1});
  out.push_back({std::nextafter(1e-3, 1.0), 1e-3, 1, 1});
  out.push_back({INFINITY, 1e-3, 1, 1});
  out.push_back({0x1p-1070, 1e-3, 1, 1});
  return out;
}

bool same(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }

void check_batch(const std::vector<cases::BarrierQuery>& qs, int width) {
  const fast::BarrierSoA soa(qs);
  fast::BarrierSoAResult out;
  fast::barrier(soa, out, width);
  BOOST_TEST(out.value.size() == qs.size());
  int mismatches = 0, active = 0;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const auto s = fast::barrier(qs[i]);
    active += s.active;
    mismatches += !(out.active[i] == s.active && same(out.value[i], s.value) &&
                    same(out.gradient[i], s.gradient) && same(out.hessian[i], s.hessian));
  }
  BOOST_TEST(mismatches == 0);
  if (qs.size() > 1000) BOOST_TEST(active > 1000);  // the comparison covers active queries
}

// ln s with s = d exactly (d̂ = 1: s and s - 1 = (d - 1)/1 are exact for d >= 1/2).
double log_of(double d) { return fast::barrier_log(d / 1.0, (d - 1.0) / 1.0); }

// |fast - exact| in units of u |exact|.
double relative_error(double d) {
  const long double exact = std::log(static_cast<long double>(d));
  return static_cast<double>(std::abs(static_cast<long double>(log_of(d)) - exact) / std::abs(exact)) / u;
}

}  // namespace

BOOST_AUTO_TEST_CASE(simd_equals_scalar_bit_for_bit) {
  BOOST_TEST_MESSAGE("widest barrier path on this CPU: " << fast::barrier_batch_width());
  const auto qs = queries();
  for (int width : {1, 4, 8}) {
    check_batch(qs, width);
    for (std::size_t n : {0, 1, 3, 4, 5, 7, 8, 9, 15}) check_batch({qs.end() - n, qs.end()}, width);
  }
}

BOOST_AUTO_TEST_CASE(batch_rejects_a_distance_at_or_below_the_ground) {
  for (double bad : {0.0, -1e-3, std::nan("")})
    for (int width : {1, 4, 8}) {
      auto qs = queries();
      qs.resize(16);
      qs[9].d = bad;
      fast::BarrierSoAResult out;
      BOOST_CHECK_THROW(fast::barrier(fast::BarrierSoA(qs), out, width), std::domain_error);
    }
}

BOOST_AUTO_TEST_CASE(log_hand_values) {
  BOOST_TEST(same(log_of(1.0), 0.0));  // f = 0: every term is zero
  // s = 1/2 takes the s - 1 branch (f = -1/2); s = 1/4 the bit reduction (m = 1, k = -2):
  // both -ln 2 and -2 ln 2, exactly rounded (nearest doubles by hand: 0x1.62e42fefa39efp-1).
  BOOST_TEST(same(log_of(0.5), -0x1.62e42fefa39efp-1));
  BOOST_TEST(same(log_of(0.25), -0x1.62e42fefa39efp+0));
  // s just below 1: ln(1 - x) = -x - x^2/2 - ..., so for x = 2^-40 the answer rounds to
  // -(2^-40 + 2^-81): f = -2^-40 exactly, and the correction is far below half an ulp.
  BOOST_TEST(same(log_of(1 - 0x1p-40), -(0x1p-40 + 0x1p-81)));
}

BOOST_AUTO_TEST_CASE(log_of_powers_of_two_is_k_ln2_exactly_rounded) {
  // s = 2^k, k = -1 .. -40: m = 1, f = 0, so ln s = k ln2_hi + k ln2_lo; the exactly rounded
  // k ln 2 from the long-double constant (64 bits: k ln 2 is never within 2^-60 relative of
  // a rounding boundary for these k, checked below, so rounding it once more is exact).
  for (int k = -1; k >= -40; --k) {
    const long double exact = k * ln2;
    const double rounded = static_cast<double>(exact);
    const double gap = std::abs(std::nextafter(rounded, 0.0) - rounded);
    const long double from_tie =
        std::abs(std::abs(static_cast<long double>(rounded) - exact) - 0.5L * gap) / std::abs(exact);
    BOOST_TEST_CONTEXT("k " << k) {
      BOOST_TEST(from_tie > 0x1p-60L);
      BOOST_TEST(same(log_of(std::ldexp(1.0, k)), rounded));
    }
  }
}

BOOST_AUTO_TEST_CASE(log_within_its_bound_on_sweeps) {
  // The stated bound (fast/barrier.hpp): 2.5u of ln s over the barrier's domain s in
  // [1e-12, 1). Long double's log is accurate to ~2^-63: far below the bound.
  double worst = 0;
  std::mt19937_64 rng(20261124);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 200000; ++i) {
    const double d = std::exp(std::log(1e-12) * unit(rng));  // log-uniform in [1e-12, 1]
    if (d < 1) worst = std::max(worst, relative_error(d));
  }
  for (int e = 1; e <= 52; ++e) {  // approaching 1 from below, and the branch points
    worst = std::max(worst, relative_error(1 - std::ldexp(1.0, -e)));
    for (double b : {0.5, 0.70710678118654752, 0.35355339059327376, 1e-12})
      for (int k = -3; k <= 3; ++k) {
        double x = b;
        for (int j = 0; j < std::abs(k); ++j) x = std::nextafter(x, k < 0 ? 0.0 : 1.0);
        worst = std::max(worst, relative_error(x));
      }
  }
  BOOST_TEST_MESSAGE("barrier_log: worst error " << worst << " u of ln s (bound 2.5)");
  BOOST_TEST(worst <= 2.5);
}

BOOST_AUTO_TEST_SUITE_END()
