// Suite `closest_feature_reference_filter`: the filtered stage of the closest-feature
// reference at the ends of the double range (subnormal coordinates, 1e±300: outputs that round
// to subnormals, to 0 or overflow to inf) and on outputs built to lie at or within 2^-105 of a
// rounding boundary, where the stage must hand the query to the exact path (counted by
// reference::closest_feature_filter_stats). Expected values are derived by hand; every answer
// is also compared bit for bit with reference::closest_feature_exact. The long comparison on
// generated queries is filtered_reference/closest_feature_bit_identical; here random queries
// scaled as a whole by 2^r, r in [-1100, 1000] (CONTACTBENCH_FILTER_N of them; CI: 300).
#include "cases/closest_feature.hpp"
#include "reference/closest_feature.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

using namespace contactbench;
using cases::Region;
using cases::Vec3;

namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

bool same(const cases::ClosestFeatureResult& a, const cases::ClosestFeatureResult& b) {
  return a.region == b.region && same_bits(a.point[0], b.point[0]) && same_bits(a.point[1], b.point[1]) &&
         same_bits(a.point[2], b.point[2]) && same_bits(a.squared_distance, b.squared_distance) &&
         same_bits(a.margin, b.margin);
}

// The reference's answer, which path gave it, and the check that the exact path agrees.
struct Answer {
  cases::ClosestFeatureResult r;
  bool filtered;
};
Answer answer(const cases::ClosestFeatureQuery& q) {
  auto& stats = reference::closest_feature_filter_stats();
  const auto before = stats.filtered;
  Answer a{reference::closest_feature(q), false};
  a.filtered = stats.filtered > before;
  BOOST_TEST(same(a.r, reference::closest_feature_exact(q)));
  return a;
}

Vec3 times2(const Vec3& v, int r) { return {std::ldexp(v[0], r), std::ldexp(v[1], r), std::ldexp(v[2], r)}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(closest_feature_reference_filter)

// Triangle 0, S·x̂, S·ŷ and p = S·(1/4, 1/4, 1): the open face, closest point S·(1/4, 1/4, 0),
// squared distance S², margin 1/(4√2) (scale-free: 1/4 to the planes of ab and ca over the
// longest edge √2), rounded up. S = 2^-1066: coordinates subnormal, point 2^-1068 exact, S²
// underflows to +0. S = 2^-997: S² = 2^-1994 → +0. S = 2^997: S² = 2^1994 overflows → +inf.
// S = 2^-530 with p at height 3: S²·9 = 9·2^-1060, an exact subnormal. All in the filtered stage.
BOOST_AUTO_TEST_CASE(face_at_the_ends_of_the_range) {
  const double margin = 0.25 / std::sqrt(2.0);
  struct Case {
    int e;
    double height, d2;
  };
  for (const Case& c : {Case{-1066, 1, 0.0}, Case{-997, 1, 0.0}, Case{997, 1, std::numeric_limits<double>::infinity()},
                        Case{-530, 3, 9 * 0x1p-1060}}) {
    const double S = std::ldexp(1.0, c.e);
    const cases::ClosestFeatureQuery q{{S / 4, S / 4, S * c.height}, {0, 0, 0}, {S, 0, 0}, {0, S, 0}};
    const Answer a = answer(q);
    BOOST_TEST(a.filtered);
    BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::face));
    BOOST_TEST(same_bits(a.r.point[0], S / 4));
    BOOST_TEST(same_bits(a.r.point[1], S / 4));
    BOOST_TEST(same_bits(a.r.point[2], 0.0));
    BOOST_TEST(same_bits(a.r.squared_distance, c.d2));
    BOOST_TEST(a.r.margin >= margin * (1 - 0x1p-50));
    BOOST_TEST(a.r.margin <= margin * (1 + 0x1p-50));
  }
}

// Edge ab of a = 0, b = S(2, 1, 0), c = S(1, −2, 0) with p = S(0, 2, 0): p lies beyond ab
// (c is on the other side of the line y = x/2), dn_0 = p·(b − a)/S² = 2 > 0, dp_1 =
// (p − b)·(a − b)/S² = 3 > 0, and no vertex test holds (vertex0: dn_0 > 0; vertex1: dp_1 > 0;
// vertex2: dn_2 = (p − c)·(a − c)/S² = 9 > 0): edge0. t = 2/5: closest point S(4/5, 2/5, 0), squared distance S²(16 + 64)/25 = 3.2·S².
// S = 2^-530: the point is the nearest double to 0.8, 0.4 times S; 3.2·2^-1060 =
// 52428.8·2^-1074 rounds to the subnormal 52429·2^-1074. S = 2^-1072: the point is 3.2 and 1.6
// times 2^-1074, rounded to 3·2^-1074 and 2·2^-1074; S² underflows to +0.
BOOST_AUTO_TEST_CASE(edge_rounded_to_subnormals) {
  struct Case {
    int e;
    Vec3 point;
    double d2;
  };
  for (const Case& c : {Case{-530, {std::ldexp(0.8, -530), std::ldexp(0.4, -530), 0}, 52429 * 0x1p-1074},
                        Case{-1072, {3 * 0x1p-1074, 2 * 0x1p-1074, 0}, 0.0}}) {
    const double S = std::ldexp(1.0, c.e);
    const Answer a = answer({{0, 2 * S, 0}, {0, 0, 0}, {2 * S, S, 0}, {S, -2 * S, 0}});
    BOOST_TEST(a.filtered);
    BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::edge0));
    for (int i = 0; i < 3; ++i) BOOST_TEST(same_bits(a.r.point[i], c.point[i]));
    BOOST_TEST(same_bits(a.r.squared_distance, c.d2));
  }
}

// Edge ab of a = 0, b = S(1, 1, 0), c = S(1, −1, 0), p = S(0, 1, 0): beyond ab (above y = x,
// c below), dn_0 = 1 > 0, dp_1 = 1 > 0, dn_2 = 3 > 0, so no vertex test holds: edge0,
// t = 1/2, closest point S(1/2, 1/2, 0). S = 2^-1074: each coordinate is exactly half the
// smallest subnormal, a tie, rounded to even: +0. The enclosure of the filtered stage must
// contain that midpoint, so the exact path has to answer. S = 2^-1073: the point is the
// subnormal 2^-1074 itself, which the filtered stage certifies.
BOOST_AUTO_TEST_CASE(subnormal_tie_goes_to_the_exact_path) {
  for (const int e : {-1074, -1073}) {
    const double S = std::ldexp(1.0, e);
    const Answer a = answer({{0, S, 0}, {0, 0, 0}, {S, S, 0}, {S, -S, 0}});
    BOOST_TEST(a.filtered == (e == -1073));
    BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::edge0));
    const double expected = e == -1074 ? 0.0 : 0x1p-1074;
    BOOST_TEST(same_bits(a.r.point[0], expected));
    BOOST_TEST(same_bits(a.r.point[1], expected));
    BOOST_TEST(same_bits(a.r.squared_distance, 0.0));  // S²/2 underflows
  }
}

// Vertex a of a = 0, b = (1, 0, 0), c = (0, 1, 0) with p = −(1 + 2^-26, 2^-27, 2^-27): dn_0 =
// p·(b − a) = −(1 + 2^-26) < 0 and dp_0 = p·(c − a) = −2^-27 < 0, so vertex0, point a. Its
// squared distance (1 + 2^-26)² + 2·2^-54 = 1 + 2^-25 + 2^-52 + 2^-53 is the midpoint of
// 1 + 2^-25 + 2^-52 (odd last bit) and 1 + 2^-25 + 2^-51 (even): a tie, rounded to the even
// one, which no enclosure can certify (the far queries' |p − v|² of few-bit differences lie on
// ties often). The margin is min(dn², dp²)/|longest edge|² = 2^-54/2 under the root: 2^-27.5,
// irrational, rounded up by the filtered stage. So that stage answers all but the squared
// distance, which the integers give alone, not the whole exact path.
BOOST_AUTO_TEST_CASE(squared_distance_tie_from_the_integers) {
  auto& stats = reference::closest_feature_filter_stats();
  const auto before = stats;
  const Answer a = answer({{-(1 + 0x1p-26), -0x1p-27, -0x1p-27}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  BOOST_TEST(!a.filtered);
  BOOST_TEST(stats.exact_squared_distance == before.exact_squared_distance + 1);
  BOOST_TEST(stats.exact == before.exact);
  BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::vertex0));
  for (int i = 0; i < 3; ++i) BOOST_TEST(same_bits(a.r.point[i], 0.0));
  BOOST_TEST(same_bits(a.r.squared_distance, 1 + 0x1p-25 + 0x1p-51));
  BOOST_TEST(a.r.margin > 0x1p-27 / std::sqrt(2.0) * (1 - 0x1p-50));
  BOOST_TEST(a.r.margin < 0x1p-27 / std::sqrt(2.0) * (1 + 0x1p-50));
}

// Normal range, a = 0, b = (4, 4, 0), c = (4, −4, 0), p = (x, 2, 0) with x tiny: edge0 (as
// above: p above y = x, c below; dn_0 = 4(x + 2), dp_1 = 24 − 4x, dn_1 = 16, dn_2 = 40 − 4x),
// closest point ((x + 2)/2)(1, 1, 0).
// x = 2^-52: 1 + 2^-53, the midpoint of 1 and 1 + 2^-52, a tie rounded to even: 1. Exact path.
// x = 2^-52 + 2^-104: 1 + 2^-53 + 2^-105, 2^-105 above the midpoint: 1 + 2^-52; the double-
// double enclosure (radius ≥ 2^-102 relative) contains the midpoint: exact path.
// x = 2^-52 + 2^-60: 1 + 2^-53 + 2^-61, far enough from it for the filtered stage: 1 + 2^-52.
BOOST_AUTO_TEST_CASE(near_midpoint_outputs_go_to_the_exact_path) {
  struct Case {
    double x, point;
    bool filtered;
  };
  for (const Case& c : {Case{0x1p-52, 1.0, false}, Case{0x1p-52 + 0x1p-104, 1 + 0x1p-52, false},
                        Case{0x1p-52 + 0x1p-60, 1 + 0x1p-52, true}}) {
    const Answer a = answer({{c.x, 2, 0}, {0, 0, 0}, {4, 4, 0}, {4, -4, 0}});
    BOOST_TEST(a.filtered == c.filtered);
    BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::edge0));
    BOOST_TEST(same_bits(a.r.point[0], c.point));
    BOOST_TEST(same_bits(a.r.point[1], c.point));
    BOOST_TEST(same_bits(a.r.point[2], 0.0));
  }
}

// A squared distance exactly at a rounding tie must defer. Vertex a of a = 0, b = (−1, 0, 0),
// c = (0, −1, 0) with p = (1, 2^-27, y): dn_0 = p·(b − a) = −1 ≤ 0, dp_0 = −p·(a − c) = −2^-27 ≤ 0,
// so vertex0, closest point a. y = 2^-27: |p|² = 1 + 2^-53, the midpoint of 1 and 1 + 2^-52,
// rounded to even: 1; the double-double enclosure contains the midpoint (its bound is never
// 0 after a product), so the exact path answers. y = 2^-26: |p|² = 1 + 5·2^-54, a quarter
// ulp above 1 + 2^-52 and a quarter below the next midpoint: 1 + 2^-52, filtered.
BOOST_AUTO_TEST_CASE(squared_distance_tie_goes_to_the_exact_path) {
  struct Case {
    double y, d2;
    bool filtered;
  };
  for (const Case& c : {Case{0x1p-27, 1.0, false}, Case{0x1p-26, 1 + 0x1p-52, true}}) {
    const Answer a = answer({{1, 0x1p-27, c.y}, {0, 0, 0}, {-1, 0, 0}, {0, -1, 0}});
    BOOST_TEST(a.filtered == c.filtered);
    BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::vertex0));
    for (int i = 0; i < 3; ++i) BOOST_TEST(same_bits(a.r.point[i], 0.0));
    BOOST_TEST(same_bits(a.r.squared_distance, c.d2));
  }
}

// Margin terms of very different sizes on a thin triangle, where the plain stage cannot pick
// the least term (its normal n = (0, 0, c_y − 1), c_y = fl(1.001), cancels: |n| ≈ 0.0005 of
// the products' sum, so every term is enclosed in double-double). a = 0, b = (1, 1, 0),
// c = (1, c_y, 0), p = (1/2 + 2^-30, 1/2 − 2^-30, 0): beyond ab (c lies above y = x, p below:
// s_0 = n_z·(−2^-29) < 0), dn_0 = p·(1, 1, 0) = 1 > 0, dp_1 = −(p − b)·(1, 1, 0) = 1 > 0,
// dn_1 = (p − b)·(c − b) < 0, dn_2 = (p − c)·(a − c) > 0: edge0, t = 1/2, closest point
// (1/2, 1/2, 0), squared distance 2·2^-60 = 2^-59. The terms: (distance to ab)² = 2^-59 and
// dn_0²/|e_0|² = ((|e_0|² − dn_0)²)/|e_0|² = 1/2; the margin is √(2^-59/L²), L² = |c − a|² =
// 1 + c_y² the longest edge. The least term (2^-59) is certainly below the others, so its
// own enclosure (≈ 2^-100 relative) is the minimum's, not the others' larger bounds (≈ 2^-103
// absolute, 2^-44 of it): the filtered stage answers.
BOOST_AUTO_TEST_CASE(least_margin_term_keeps_its_own_bound) {
  const double cy = 1.001;
  const Answer a = answer({{0.5 + 0x1p-30, 0.5 - 0x1p-30, 0}, {0, 0, 0}, {1, 1, 0}, {1, cy, 0}});
  BOOST_TEST(a.filtered);
  BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::edge0));
  BOOST_TEST(same_bits(a.r.point[0], 0.5));
  BOOST_TEST(same_bits(a.r.point[1], 0.5));
  BOOST_TEST(same_bits(a.r.point[2], 0.0));
  BOOST_TEST(same_bits(a.r.squared_distance, 0x1p-59));
  const double margin = std::sqrt(0x1p-59 / (1 + cy * cy));
  BOOST_TEST(a.r.margin >= margin * (1 - 0x1p-45));
  BOOST_TEST(a.r.margin <= margin * (1 + 0x1p-45));
}

// The static bounds' edge (one bound per polynomial, 8U·M, M its sum of absolute
// monomials, U = 2^-102): they defer where a formula cancels strongly, and the running
// bounds then answer. Triangle a = 0, b = (1, −1, 0), c = (1, 0, −1): n = (1, 1, 1) exactly,
// |n|² = 3, every P̂_n,i = 1. p = (5/8, −5/16, −5/16 + 2^-j), inside the face's prism (near
// its centroid), h = n·p = 2^-j, so M_h = Σ|p_i| ≈ 5/4 against h: squared distance
// h²/3 = 2^-2j/3, which lies 2^-55 of itself from the nearest rounding midpoint (1/3 =
// 1.0101…₂·2^-2: a third of an ulp past a double); its relative error is about 2·err_h/h,
// so it rounds when 4·err_h < 2^-55·2^-j. Static: err_h = 8U·5/4 = 10U, rounds for j ≤ 41
// (j < 41.68). Running: n_i carry 2U each (two exact products, one sum), n_i·p_i 3U|p_i|,
// the two sums U·5/16 and U·2^-j: err_h ≈ 4.06U, rounds for j ≤ 42 (j < 42.98). So j = 41
// is answered with static bounds, j = 42 by the running retry, j = 44 by the integers (the
// squared distance alone: the point and margin still round).
// The closest point p − (2^-j/3)(1, 1, 1) is ≥ 0.17 ulp from a midpoint in every
// coordinate, the margin unremarkable: the squared distance alone decides.
BOOST_AUTO_TEST_CASE(static_bounds_defer_where_a_formula_cancels) {
  struct Case {
    int j;
    bool static_answers, filtered;
  };
  auto& stats = reference::closest_feature_filter_stats();
  for (const Case& c : {Case{41, true, true}, Case{42, false, true}, Case{44, false, false}}) {
    const double eps = std::ldexp(1.0, -c.j);
    const auto before = stats;
    const Answer a = answer({{0.625, -0.3125, -0.3125 + eps}, {0, 0, 0}, {1, -1, 0}, {1, 0, -1}});
    BOOST_TEST_CONTEXT("j = " << c.j) {
      BOOST_TEST(a.filtered == c.filtered);
      BOOST_TEST((stats.static_deferred == before.static_deferred) == c.static_answers);
      // Not filtered: only the squared distance from the integers, never the whole exact path.
      BOOST_TEST(stats.exact_squared_distance == before.exact_squared_distance + (c.filtered ? 0 : 1));
      BOOST_TEST(stats.exact == before.exact);
      BOOST_TEST(static_cast<int>(a.r.region) == static_cast<int>(Region::face));
      BOOST_TEST(same_bits(a.r.squared_distance, eps * eps / 3));  // eps² exact: one rounding
      BOOST_TEST(same_bits(a.r.point[0], 0.625 - eps / 3));  // two roundings, ≥ 0.17 ulp from a midpoint
    }
  }
}

// The filtered stage with Dekker's products (the clone for CPUs without FMA) and with
// std::fma: both form the same exact products, so they defer on the same queries and give
// the same bits, which are the exact path's. Random, degenerate and whole-query-scaled
// queries (CONTACTBENCH_FILTER_N of each; CI: 300).
BOOST_AUTO_TEST_CASE(fma_and_split_stages_agree) {
  const char* env = std::getenv("CONTACTBENCH_FILTER_N");
  const std::size_t n = env ? std::strtoull(env, nullptr, 10) : 300;
  std::size_t compared = 0, answered = 0, mismatched = 0;
  for (std::size_t i = 0; i < 3 * n; ++i) {
    cases::Rng rng = cases::query_rng(20261125, "closest_feature", "fma_split", i);
    cases::ClosestFeatureQuery q = (i % 3 == 1 ? cases::ClosestFeature::degenerate(rng) : cases::ClosestFeature::random(rng)).query;
    if (i % 3 == 2) {
      const int r = static_cast<int>(rng() % 2101) - 1100;
      q = {times2(q.p, r), times2(q.a, r), times2(q.b, r), times2(q.c, r)};
    }
    bool finite = true;
    for (const Vec3* v : {&q.p, &q.a, &q.b, &q.c}) finite = finite && v->allFinite();
    if (!finite) continue;
    cases::ClosestFeatureResult exact;
    try {
      exact = reference::closest_feature_exact(q);
    } catch (const cases::InputError&) {
      continue;
    }
    const auto fma = reference::closest_feature_filtered_stage(q, true);
    const auto split = reference::closest_feature_filtered_stage(q, false);
    ++compared;
    const bool ok = fma.has_value() == split.has_value() && (!fma || (same(*fma, exact) && same(*split, exact)));
    if (!ok && mismatched++ < 5) BOOST_TEST_MESSAGE("mismatch: " << cases::ClosestFeature::to_json(q).dump());
    answered += fma.has_value();
  }
  BOOST_TEST_MESSAGE("closest_feature fma/split stages: " << compared << " compared, " << answered << " answered, "
                                                          << mismatched << " mismatched");
  BOOST_TEST(mismatched == 0u);
  BOOST_TEST(answered > compared / 2);
}

// Random queries scaled as a whole by 2^r, r uniform in [-1100, 1000] (an r that over- or
// overflows a coordinate is skipped; one that underflows some to subnormals or 0 is kept): bit for bit the exact path's answers, and
// the filtered stage answers most of them (those whose coordinates stay exact when scaled).
BOOST_AUTO_TEST_CASE(whole_query_scaled_bit_identical) {
  const char* env = std::getenv("CONTACTBENCH_FILTER_N");
  const std::size_t n = env ? std::strtoull(env, nullptr, 10) : 300;
  std::size_t compared = 0, differing = 0, filtered = 0;
  auto& stats = reference::closest_feature_filter_stats();
  for (std::size_t i = 0; i < n; ++i) {
    cases::Rng rng = cases::query_rng(20261124, "closest_feature", "whole_scaled", i);
    const auto base = cases::ClosestFeature::random(rng).query;
    const int r = static_cast<int>(rng() % 2101) - 1100;
    const cases::ClosestFeatureQuery q{times2(base.p, r), times2(base.a, r), times2(base.b, r), times2(base.c, r)};
    bool finite = true;
    for (const Vec3* v : {&q.p, &q.a, &q.b, &q.c}) finite = finite && v->allFinite();
    if (!finite) continue;
    cases::ClosestFeatureResult a, b;
    try {
      b = reference::closest_feature_exact(q);
    } catch (const cases::InputError&) {  // underflow made the triangle collinear
      BOOST_CHECK_THROW(reference::closest_feature(q), cases::InputError);
      continue;
    }
    const auto before = stats.filtered;
    a = reference::closest_feature(q);
    filtered += stats.filtered > before;
    ++compared;
    if (!same(a, b)) {
      if (differing < 5) BOOST_TEST_MESSAGE("differs: " << cases::ClosestFeature::to_json(q).dump());
      ++differing;
    }
  }
  BOOST_TEST_MESSAGE("closest_feature whole-query scaled: " << compared << " compared, " << filtered
                                                            << " filtered, " << differing << " differing");
  BOOST_TEST(differing == 0u);
  BOOST_TEST(compared > n / 2);
  BOOST_TEST(filtered > compared / 2);
}

BOOST_AUTO_TEST_SUITE_END()
