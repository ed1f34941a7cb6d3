// Suite exact_toolkit: the reference's shared exact pieces apart from the polynomials
// (suite polynomial): the one 3-vector algebra and the doubles-to-integers scaling
// (reference/src/exact_vector.hpp), and the filtered sign (reference/src/filtered_sign.hpp)
// through the orientation predicate built on it (reference/src/orientation.hpp). Expected
// signs come from the construction of the points, not from the code.
#include "reference/src/exact_vector.hpp"
#include "reference/src/orientation.hpp"

#include <boost/test/unit_test.hpp>

#include <cfenv>
#include <cmath>
#include <limits>

namespace exact = contactbench::reference::exact;
using contactbench::cases::Vec3;
using Q = mpq_class;
using QV = exact::Vector3<Q>;

BOOST_AUTO_TEST_SUITE(exact_toolkit)

BOOST_AUTO_TEST_CASE(vector_algebra_on_rationals) {
  const QV e1{1, 0, 0}, e2{0, 1, 0}, e3{0, 0, 1};
  const QV c = cross(e1, e2);
  BOOST_TEST((c[0] == 0 && c[1] == 0 && c[2] == 1));
  const QV c2 = cross(e2, e1);
  BOOST_TEST(c2[2] == -1);
  const QV v{Q(1, 2), Q(-3, 4), 2}, w{4, 2, Q(1, 8)};
  BOOST_TEST(dot(v, w) == Q(3, 4));  // 2 - 3/2 + 1/4
  // cross is orthogonal to both factors; |v x w|^2 = |v|^2 |w|^2 - (v.w)^2 (Lagrange).
  const QV vw = cross(v, w);
  BOOST_TEST(dot(vw, v) == 0);
  BOOST_TEST(dot(vw, w) == 0);
  BOOST_TEST(dot(vw, vw) == dot(v, v) * dot(w, w) - dot(v, w) * dot(v, w));
  const QV s = v + Q(2) * w - e3;
  BOOST_TEST((s[0] == Q(17, 2) && s[1] == Q(13, 4) && s[2] == Q(5, 4)));
  BOOST_TEST(exact::is_zero(v - v));
  BOOST_TEST(!exact::is_zero(-e3));
  const QV from = QV::of(Vec3(0.1, -2.5, 1e300));  // doubles convert exactly
  BOOST_TEST(from[0] == Q(0.1));
  BOOST_TEST(from[1] == Q(-5, 2));
}

BOOST_AUTO_TEST_CASE(doubles_scale_to_integers_with_a_common_exponent) {
  // 0.5 = 1·2^-1, 0.75 = 3·2^-2, 3 = 3·2^0, -0.125 = -1·2^-3: the common exponent is -3.
  const Vec3 p(0.5, 0.75, 0), q(3, 0, -0.125);
  const auto ip = exact::to_integers<2, Vec3>({&p, &q});
  BOOST_TEST(ip.exp == -3);
  const long want[2][3] = {{4, 6, 0}, {24, 0, -1}};
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 3; ++k) BOOST_TEST(ip.v[i][k] == want[i][k]);
  // The smallest subnormal 2^-1074 beside 1.0: 1.0 becomes 2^1074.
  const Vec3 tiny(std::numeric_limits<double>::denorm_min(), 1.0, 0);
  const auto it = exact::to_integers<1, Vec3>({&tiny});
  BOOST_TEST(it.exp == -1074);
  BOOST_TEST(it.v[0][0] == 1);
  mpz_class two_1074;
  mpz_ui_pow_ui(two_1074.get_mpz_t(), 2, 1074);
  BOOST_TEST(it.v[0][1] == two_1074);
  // All zero: exponent 0.
  const Vec3 zero(0, 0, 0);
  const auto iz = exact::to_integers<1, Vec3>({&zero});
  BOOST_TEST(iz.exp == 0);
  BOOST_TEST(exact::is_zero(iz.v[0]));
}

BOOST_AUTO_TEST_CASE(orientation_decided_by_the_filter) {
  // The unit tetrahedron: (b - a) x (c - a) = e3 and d - a = e3, so +1; b, c swapped: -1.
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0), d(0, 0, 1);
  BOOST_TEST(exact::orientation_filter(a, b, c, d).value_or(-2) == 1);
  BOOST_TEST(exact::orientation(a, b, c, d) == 1);
  BOOST_TEST(exact::orientation(a, c, b, d) == -1);
  // Four dyadic points in the plane z = 0: every operation is exact, the interval is the
  // point 0 and the filter itself certifies the zero.
  const Vec3 in_plane(0.5, 0.25, 0);
  BOOST_TEST(exact::orientation_filter(a, b, c, in_plane).value_or(-2) == 0);
  BOOST_TEST(exact::orientation(a, b, c, in_plane) == 0);
  // The rounding mode is restored after the filter.
  BOOST_TEST(std::fegetround() == FE_TONEAREST);
}

BOOST_AUTO_TEST_CASE(coplanar_points_the_filter_cannot_decide_are_exactly_zero) {
  // Every point has z == x, so all four lie on the plane z = x; the differences of 0.1, 7.7
  // and 1e17 round, so the interval contains 0 without being 0.
  const Vec3 a(0.1, 0.2, 0.1), b(1e17, 3.0, 1e17), c(0.3, 1e17, 0.3), d(7.7, 1.1, 7.7);
  BOOST_TEST(!exact::orientation_filter(a, b, c, d).has_value());
  BOOST_TEST(exact::orientation_exact(a, b, c, d) == 0);
  BOOST_TEST(exact::orientation(a, b, c, d) == 0);
}

BOOST_AUTO_TEST_CASE(a_point_one_ulp_off_a_line_far_from_the_origin) {
  // a, b on the line y = x of the plane z = 0; c = (X, X + u) with X = 1e17 (a double:
  // 5^17 < 2^53) and u = 16 its ulp. With d = a + e3 the orientation is the 2D determinant
  // (b - a) x (c - a) = δ (X + u - 0.1) - δ (X - 0.1) = δ u > 0, δ = 0.3 - 0.1 > 0.
  const double X = 1e17, u = std::nextafter(X, INFINITY) - X;
  BOOST_REQUIRE(u == 16);
  const Vec3 a(0.1, 0.1, 0), b(0.3, 0.3, 0), c(X, X + u, 0), d(0.1, 0.1, 1);
  BOOST_TEST(!exact::orientation_filter(a, b, c, d).has_value());
  BOOST_TEST(exact::orientation_exact(a, b, c, d) == 1);
  BOOST_TEST(exact::orientation(a, b, c, d) == 1);
  BOOST_TEST(exact::orientation(a, c, b, d) == -1);
  // On the line itself (c = (X, X)) it is exactly 0.
  const Vec3 on_line(X, X, 0);
  BOOST_TEST(exact::orientation(a, b, on_line, d) == 0);
  BOOST_TEST(std::fegetround() == FE_TONEAREST);
}

BOOST_AUTO_TEST_SUITE_END()
