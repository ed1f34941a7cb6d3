// Suite polynomial: the exact polynomial toolkit of reference/src/polynomial.hpp (the CCD
// reference's root isolation; the ellipsoid family's characteristic polynomial) against
// answers derived by hand: expansions of products of known factors, root counts from the
// known roots, and comparisons of surds by raising both sides to a common power.
#include "reference/src/polynomial.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

using contactbench::reference::exact::Algebraic;
using contactbench::reference::exact::Polynomial;
namespace exact = contactbench::reference::exact;
using Q = mpq_class;

namespace {

Polynomial poly(std::vector<Q> c) { return Polynomial(std::move(c)); }
Polynomial x_minus(const Q& r) { return poly({-r, 1}); }  // x - r

bool same(const Polynomial& a, const std::vector<Q>& c) {
  if (a.c.size() != c.size()) return false;
  for (std::size_t i = 0; i < c.size(); ++i)
    if (a.c[i] != c[i]) return false;
  return true;
}

// The unique root of p in (lo, hi) as an algebraic number (p(lo), p(hi) of opposite signs).
Algebraic root_between(const Polynomial& p, const Q& lo, const Q& hi) {
  const auto roots = exact::real_roots(p, lo, hi);
  BOOST_REQUIRE_EQUAL(roots.size(), 1u);
  return roots[0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(polynomial)

BOOST_AUTO_TEST_CASE(zero_and_constant_polynomials) {
  const Polynomial zero = poly({0, 0, 0});  // trailing zeros trimmed
  BOOST_TEST(zero.is_zero());
  BOOST_TEST(zero.degree() == -1);
  const Polynomial five = poly({5, 0});
  BOOST_TEST(five.degree() == 0);
  BOOST_TEST(five(Q(7, 3)) == 5);
  BOOST_TEST(exact::real_roots(zero, -1, 1).empty());
  BOOST_TEST(exact::real_roots(five, -1, 1).empty());
  BOOST_TEST(exact::count_roots(five, -10, 10) == 0);
  BOOST_TEST(exact::count_roots_above(five, 0) == 0);
  BOOST_TEST((zero * x_minus(1)).is_zero());
  BOOST_TEST(exact::derivative(five).is_zero());
  BOOST_CHECK_THROW(exact::root_bound(five), std::domain_error);
  BOOST_CHECK_THROW(exact::remainder(five, zero), std::domain_error);
  // Signs of constants at an irrational number: the constant's own sign; zero is zero.
  Algebraic sqrt2 = root_between(poly({-2, 0, 1}), 1, 2);
  BOOST_TEST(exact::sign_at(zero, sqrt2) == 0);
  BOOST_TEST(exact::sign_at(poly({-3}), sqrt2) == -1);
  BOOST_TEST(exact::sign_at(five, sqrt2) == 1);
}

BOOST_AUTO_TEST_CASE(a_double_root_and_a_simple_one) {
  // (x - 1/3)^2 (x - 2) = (x^2 - 2/3 x + 1/9)(x - 2) = x^3 - 8/3 x^2 + 13/9 x - 2/9.
  const Polynomial f = x_minus(Q(1, 3)) * x_minus(Q(1, 3)) * x_minus(2);
  BOOST_TEST(same(f, {Q(-2, 9), Q(13, 9), Q(-8, 3), 1}));
  BOOST_TEST(same(exact::derivative(f), {Q(13, 9), Q(-16, 3), 3}));
  // The double root is the common root with f': gcd = x - 1/3 (monic).
  BOOST_TEST(same(exact::gcd(f, exact::derivative(f)), {Q(-1, 3), 1}));
  // Square-free part (x - 1/3)(x - 2) = x^2 - 7/3 x + 2/3.
  BOOST_TEST(same(exact::square_free(f), {Q(2, 3), Q(-7, 3), 1}));
  // Two distinct roots, whatever the multiplicity.
  BOOST_TEST(exact::count_roots(f, 0, 3) == 2);
  BOOST_TEST(exact::count_roots(f, 0, Q(1, 2)) == 1);
  BOOST_TEST(exact::count_roots(f, Q(1, 2), 3) == 1);
  BOOST_TEST(exact::count_roots_above(f, 0) == 2);
  BOOST_TEST(exact::count_roots_above(f, 1) == 1);
  // Cauchy: 1 + max(8/3, 13/9, 2/9) = 11/3.
  BOOST_TEST(exact::root_bound(f) == Q(11, 3));
  auto roots = exact::real_roots(f, 0, 3);
  BOOST_REQUIRE_EQUAL(roots.size(), 2u);
  BOOST_TEST(exact::compare(roots[0], Q(1, 3)) == 0);
  BOOST_TEST(exact::compare(roots[1], Q(2)) == 0);
  BOOST_TEST(exact::compare(roots[0], roots[1]) == -1);
  BOOST_TEST(exact::compare(roots[1], roots[0]) == 1);
  // Over (-B, B) the same two roots.
  const Q b = exact::root_bound(f);
  BOOST_TEST(exact::real_roots(f, -b, b).size() == 2u);
}

BOOST_AUTO_TEST_CASE(division_gcd_and_square_free_of_built_products) {
  // x^3 - 1 = (x - 1)(x^2 + x + 1); x^2 + 1 = (x - 1)(x + 1) + 2.
  const Polynomial cube = poly({-1, 0, 0, 1});
  BOOST_TEST(same(exact::quotient(cube, x_minus(1)), {1, 1, 1}));
  BOOST_TEST(exact::remainder(cube, x_minus(1)).is_zero());
  BOOST_TEST(same(exact::quotient(poly({1, 0, 1}), x_minus(1)), {1, 1}));
  BOOST_TEST(same(exact::remainder(poly({1, 0, 1}), x_minus(1)), {2}));
  // Common factor x - 1 of (x - 1)(x + 2) and 3 (x - 1)(x - 3); coprime factors give 1.
  const Polynomial a = x_minus(1) * x_minus(-2), b = poly({3}) * x_minus(1) * x_minus(3);
  BOOST_TEST(same(exact::gcd(a, b), {-1, 1}));
  BOOST_TEST(same(exact::gcd(x_minus(-2), x_minus(3)), {1}));
  BOOST_TEST(same(exact::monic(poly({2, 4})), {Q(1, 2), 1}));
  // (x - 1)^3 (x + 2)^2 has square-free part (x - 1)(x + 2) = x^2 + x - 2.
  const Polynomial g = x_minus(1) * x_minus(1) * x_minus(1) * x_minus(-2) * x_minus(-2);
  BOOST_TEST(same(exact::square_free(g), {-2, 1, 1}));
  BOOST_TEST(exact::count_roots(g, -3, 3) == 2);
}

BOOST_AUTO_TEST_CASE(sturm_counts_on_chosen_intervals) {
  const Polynomial p = poly({-2, 0, 1});  // x^2 - 2, roots -sqrt2 and sqrt2 (1.41...)
  BOOST_TEST(exact::count_roots(p, 0, 2) == 1);
  BOOST_TEST(exact::count_roots(p, -2, 2) == 2);
  BOOST_TEST(exact::count_roots(p, 1, Q(3, 2)) == 1);  // 1.4^2 = 1.96 < 2 < 2.25 = 1.5^2
  BOOST_TEST(exact::count_roots(p, Q(3, 2), 2) == 0);
  BOOST_TEST(exact::count_roots(p, Q(7, 5), Q(3, 2)) == 1);
  BOOST_TEST(exact::count_roots_above(p, 0) == 1);
  BOOST_TEST(exact::count_roots_above(p, -10) == 2);
  BOOST_TEST(exact::count_roots_above(p, 2) == 0);
  // x^2 + 1 has no real root; the Sturm sequence at +-infinity agrees.
  BOOST_TEST(exact::count_roots_above(poly({1, 0, 1}), -100) == 0);
  // x^3 - x = (x + 1) x (x - 1): leading signs at -inf and +inf differ by the three roots.
  const auto st = exact::sturm_sequence(poly({0, -1, 0, 1}));
  BOOST_TEST(exact::sign_variations_at_infinity(st, -1) -
                 exact::sign_variations_at_infinity(st, 1) == 3);
}

BOOST_AUTO_TEST_CASE(roots_exactly_at_the_interval_ends) {
  // (x - 1)(x - 2)(x - 3) = x^3 - 6x^2 + 11x - 6.
  const Polynomial p = x_minus(1) * x_minus(2) * x_minus(3);
  BOOST_TEST(same(p, {-6, 11, -6, 1}));
  // (a, b]: a root at b counts, a root at a does not.
  BOOST_TEST(exact::count_roots(p, 0, 1) == 1);
  BOOST_TEST(exact::count_roots(p, 1, 3) == 2);
  BOOST_TEST(exact::count_roots(p, 1, 2) == 1);
  BOOST_TEST(exact::count_roots_above(p, 1) == 2);
  // [lo, hi] closed: all three, exactly (1 and 3 at the ends, 2 the first midpoint).
  auto roots = exact::real_roots(p, 1, 3);
  BOOST_REQUIRE_EQUAL(roots.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    BOOST_TEST(roots[i].is_rational);
    BOOST_TEST(roots[i].value == i + 1);
  }
  // A root at a midpoint found by bisection: 3/4 in [0, 1] is hit at the second halving.
  auto r = exact::real_roots(x_minus(Q(3, 4)) * x_minus(5), 0, 1);
  BOOST_REQUIRE_EQUAL(r.size(), 1u);
  BOOST_TEST(exact::compare(r[0], Q(3, 4)) == 0);
}

BOOST_AUTO_TEST_CASE(signs_at_algebraic_roots) {
  const Polynomial two_sq = poly({-2, 0, 1});     // x^2 - 2
  const Polynomial two_cube = poly({-2, 0, 0, 1});  // x^3 - 2
  Algebraic cbrt2 = root_between(two_cube, 1, 2);
  Algebraic sqrt2 = root_between(two_sq, 1, 2);
  // (cbrt2)^2 - 2: (2^(2/3))^3 = 4 < 8 = 2^3, so 2^(2/3) < 2 and the sign is negative.
  BOOST_TEST(exact::sign_at(two_sq, cbrt2) == -1);
  // sqrt2^3 - 2 = 2 sqrt2 - 2 > 0.
  BOOST_TEST(exact::sign_at(two_cube, sqrt2) == 1);
  // sqrt2 vs cbrt2: sixth powers 8 > 4.
  BOOST_TEST(exact::compare(sqrt2, cbrt2) == 1);
  BOOST_TEST(exact::compare(cbrt2, sqrt2) == -1);
  // Exact zeros: a root of its own polynomial and of any multiple of it.
  BOOST_TEST(exact::sign_at(two_cube, cbrt2) == 0);
  BOOST_TEST(exact::sign_at(two_sq * x_minus(5), sqrt2) == 0);
  // The same number from another polynomial and interval compares equal.
  Algebraic sqrt2_again = root_between(two_sq * x_minus(-5), 0, 3);
  BOOST_TEST(exact::compare(sqrt2, sqrt2_again) == 0);
  // Comparisons with rationals on both sides of sqrt2 (1.41^2 < 2 < 1.42^2).
  BOOST_TEST(exact::compare(sqrt2, Q(141, 100)) == 1);
  BOOST_TEST(exact::compare(sqrt2, Q(142, 100)) == -1);
  // x - 7/5 at sqrt2: positive (1.4^2 = 1.96 < 2).
  BOOST_TEST(exact::sign_at(x_minus(Q(7, 5)), sqrt2) == 1);
}

BOOST_AUTO_TEST_CASE(enclosure_sign_on_hand_checked_intervals) {
  const Polynomial p = poly({-2, 0, 1});  // x^2 - 2
  // On [1, 5/4]: Taylor at 9/8, radius 1/8: p = -47/64, |p'| r = 9/32, |p''/2| r^2 = 1/64;
  // 9/32 + 1/64 = 19/64 < 47/64, so negative throughout.
  BOOST_TEST(exact::enclosure_sign(p, 1, Q(5, 4)) == -1);
  BOOST_TEST(exact::enclosure_sign(p, 2, 3) == 1);
  BOOST_TEST(exact::enclosure_sign(p, 1, 2) == 0);  // contains sqrt2
  // On [3/2, 2]: at 7/4, radius 1/4: p = 17/16 against 7/2 · 1/4 + 1/16 = 15/16: positive. On
  // [1, 3/2]: at 5/4, p = -7/16 against 5/2 · 1/4 + 1/16 = 11/16: undecided.
  BOOST_TEST(exact::enclosure_sign(p, Q(3, 2), 2) == 1);
  BOOST_TEST(exact::enclosure_sign(p, 1, Q(3, 2)) == 0);
  // Integer coefficients and dyadic ends take the integer evaluation (polynomial.cpp); a
  // positive multiple with fractions (2/3 p) and a non-dyadic end take the rational one: the
  // same exact test, so the same answers.
  const Polynomial q = poly({Q(-4, 3), 0, Q(2, 3)});
  BOOST_TEST(exact::enclosure_sign(q, 1, Q(5, 4)) == -1);
  BOOST_TEST(exact::enclosure_sign(q, Q(3, 2), 2) == 1);
  BOOST_TEST(exact::enclosure_sign(q, 1, Q(3, 2)) == 0);
  BOOST_TEST(exact::enclosure_sign(p, Q(3, 2), Q(5, 3)) == 1);  // 3/2 ≤ x ≤ 5/3: x² ≥ 9/4
  BOOST_TEST(exact::enclosure_sign(p, Q(4, 3), Q(3, 2)) == 0);  // contains sqrt2 ≈ 1.414
}

// Exact signs at rational points where intervals of doubles cannot decide: a zero at a dyadic
// point (integer evaluation), next to it at 2^-80, and the same at a non-dyadic point.
BOOST_AUTO_TEST_CASE(exact_signs_at_dyadic_and_other_points) {
  const Polynomial p = poly({3, -14, 8});  // (4x − 1)(2x − 3)
  auto sign_at_rational = [](const Polynomial& g, const Q& x) {
    Algebraic a = Algebraic::rational(x);
    return exact::sign_at(g, a);
  };
  BOOST_TEST(sign_at_rational(p, Q(1, 4)) == 0);
  BOOST_TEST(sign_at_rational(p, Q(3, 2)) == 0);
  Q eps = 1;
  mpq_div_2exp(eps.get_mpq_t(), eps.get_mpq_t(), 80);
  BOOST_TEST(sign_at_rational(p, Q(1, 4) + eps) == -1);  // 4x − 1 > 0 > 2x − 3
  BOOST_TEST(sign_at_rational(p, Q(1, 4) - eps) == 1);
  const Polynomial r = poly({1, -3});  // 1 − 3x
  BOOST_TEST(sign_at_rational(r, Q(1, 3)) == 0);
  BOOST_TEST(sign_at_rational(r, Q(1, 3) + eps) == -1);
}

BOOST_AUTO_TEST_CASE(roots_rounded_outward_bracket_the_value) {
  Algebraic sqrt2 = root_between(poly({-2, 0, 1}), 1, 2);
  const auto [d, u] = exact::round_out(sqrt2);
  BOOST_TEST(u == std::nextafter(d, 2.0));
  BOOST_TEST(Q(d) * Q(d) < 2);  // d < sqrt2 < u, checked by squaring
  BOOST_TEST(Q(u) * Q(u) > 2);
  // The correctly rounded square root is one of the two neighbours.
  BOOST_TEST((std::sqrt(2.0) == d || std::sqrt(2.0) == u));
  // A negative root: -sqrt2 in [-2, -1].
  Algebraic minus_sqrt2 = root_between(poly({-2, 0, 1}), -2, -1);
  const auto [dn, un] = exact::round_out(minus_sqrt2);
  BOOST_TEST(dn == -u);
  BOOST_TEST(un == -d);
  // Rationals: 1/3 is no double, 1/2 is.
  Algebraic third = Algebraic::rational(Q(1, 3));
  const auto [d3, u3] = exact::round_out(third);
  BOOST_TEST(u3 == std::nextafter(d3, 1.0));
  BOOST_TEST(Q(d3) < Q(1, 3));
  BOOST_TEST(Q(u3) > Q(1, 3));
  Algebraic half = Algebraic::rational(Q(1, 2));
  const auto [dh, uh] = exact::round_out(half);
  BOOST_TEST(dh == 0.5);
  BOOST_TEST(uh == 0.5);
  // Above 2 the upper neighbour is still above (the CCD code only met [0, 1]).
  Algebraic ten_thirds = Algebraic::rational(Q(10, 3));
  const auto [d10, u10] = exact::round_out(ten_thirds);
  BOOST_TEST(Q(d10) < Q(10, 3));
  BOOST_TEST(Q(u10) > Q(10, 3));
}

BOOST_AUTO_TEST_SUITE_END()
