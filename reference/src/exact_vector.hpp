// Internal to reference/src: the reference's one 3-vector algebra, on any scalar with + - *:
// mpz_class and mpq_class (exact), exact::Interval (the filter, see filtered_sign.hpp),
// exact::Polynomial (positions moving linearly in time, ccd) and mpfr::mpreal (unit
// directions after a square root). Every formula is written once and evaluated in whichever
// of these the caller needs.
#pragma once
#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace contactbench::reference::exact {

template <class T>
struct Vector3 {
  std::array<T, 3> c;

  T& operator[](std::size_t i) { return c[i]; }
  const T& operator[](std::size_t i) const { return c[i]; }
  auto begin() const { return c.begin(); }
  auto end() const { return c.end(); }

  // From any 3-vector of doubles (Eigen's included); exact for every scalar above but mpreal
  // (exact there too from 53 bits on).
  template <class V>
  static Vector3 of(const V& v) {
    return {T(v[0]), T(v[1]), T(v[2])};
  }
};

// Free templates rather than hidden friends: those are implicitly inline, GCC then inlines
// every GMP operation into its callers, and edge_smoothing's reference ran 6-8% slower.
template <class T>
Vector3<T> operator+(const Vector3<T>& a, const Vector3<T>& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
template <class T>
Vector3<T> operator-(const Vector3<T>& a, const Vector3<T>& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
template <class T>
Vector3<T> operator-(const Vector3<T>& a) {
  return {-a[0], -a[1], -a[2]};
}
// The scalar may be any expression convertible to T (GMP expression templates included).
template <class T>
Vector3<T> operator*(const std::type_identity_t<T>& s, const Vector3<T>& a) {
  return {s * a[0], s * a[1], s * a[2]};
}
template <class T>
T dot(const Vector3<T>& a, const Vector3<T>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
template <class T>
Vector3<T> cross(const Vector3<T>& a, const Vector3<T>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// True when every coordinate is exactly 0 (exact scalars).
template <class T>
bool is_zero(const Vector3<T>& a) {
  return sgn(a[0]) == 0 && sgn(a[1]) == 0 && sgn(a[2]) == 0;
}

// N points of doubles as integer vectors times 2^exp. Every double is m·2^e with an integer
// m; exp is the lowest e over the non-zero coordinates, so all are integers after scaling.
// A sign of a homogeneous polynomial in the coordinates is then the sign of an integer
// polynomial, and GMP integers (no gcd normalisation) are several times faster than rationals.
template <std::size_t N>
struct IntegerPoints {
  std::array<Vector3<mpz_class>, N> v;
  long exp = 0;
};

template <std::size_t N, class V>
IntegerPoints<N> to_integers(const std::array<const V*, N>& points) {
  long lowest = LONG_MAX;
  std::array<std::array<std::pair<long long, long>, 3>, N> parts{};
  for (std::size_t i = 0; i < N; ++i)
    for (int k = 0; k < 3; ++k) {
      int e = 0;
      const double f = std::frexp((*points[i])[k], &e);
      long long m = static_cast<long long>(std::ldexp(f, 53));  // exact: |f| < 1
      long ex = e - 53;
      if (m != 0) {
        const int tz = __builtin_ctzll(static_cast<unsigned long long>(m < 0 ? -m : m));
        m >>= tz;
        ex += tz;
        lowest = std::min(lowest, ex);
      }
      parts[i][k] = {m, ex};
    }
  if (lowest == LONG_MAX) lowest = 0;
  IntegerPoints<N> out;
  out.exp = lowest;
  for (std::size_t i = 0; i < N; ++i)
    for (int k = 0; k < 3; ++k) {
      mpz_class& z = out.v[i][k];
      z = static_cast<long>(parts[i][k].first);
      if (parts[i][k].first != 0)
        mpz_mul_2exp(z.get_mpz_t(), z.get_mpz_t(), parts[i][k].second - lowest);
    }
  return out;
}

}  // namespace contactbench::reference::exact
