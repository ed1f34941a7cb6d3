// Internal to reference/src: exact univariate polynomials with rational coefficients (GMP
// mpq) and the real algebraic numbers they define. Roots are counted and isolated with
// Sturm sequences; the sign of another polynomial at an irrational root is decided by a gcd
// test (exact zero) and otherwise by refining the root's isolating interval until an exact
// interval bound excludes zero. Nothing here rounds: doubles appear only in round_out.
// Users: the CCD reference (motions linear in t); the ellipsoid family (det(λA + B)).
#pragma once
#include <gmpxx.h>

#include <utility>
#include <vector>

namespace contactbench::reference::exact {

// c[i] multiplies x^i; no trailing zeros, so the zero polynomial has no coefficients.
struct Polynomial {
  std::vector<mpq_class> c;

  Polynomial() = default;
  explicit Polynomial(std::vector<mpq_class> coefficients) : c(std::move(coefficients)) { trim(); }
  void trim() {
    while (!c.empty() && sgn(c.back()) == 0) c.pop_back();
  }
  int degree() const { return static_cast<int>(c.size()) - 1; }  // -1 for the zero polynomial
  bool is_zero() const { return c.empty(); }
  mpq_class operator()(const mpq_class& x) const {  // Horner, exact
    mpq_class r = 0;
    for (int i = degree(); i >= 0; --i) r = r * x + c[i];
    return r;
  }
};

Polynomial operator+(const Polynomial& a, const Polynomial& b);
Polynomial operator-(const Polynomial& a, const Polynomial& b);
Polynomial operator*(const Polynomial& a, const Polynomial& b);
Polynomial derivative(const Polynomial& a);
// Euclidean division a = q b + r with deg r < deg b (b non-zero).
Polynomial quotient(const Polynomial& a, const Polynomial& b);
Polynomial remainder(const Polynomial& a, const Polynomial& b);
Polynomial monic(Polynomial a);  // leading coefficient 1 (the zero polynomial stays zero)
// Monic greatest common divisor; gcd(0, 0) = 0.
Polynomial gcd(Polynomial a, Polynomial b);
// The square-free part: the same distinct roots, all simple.
Polynomial square_free(const Polynomial& a);

// Sturm sequence p, p', -rem(p, p'), ... of a square-free p of degree >= 1.
std::vector<Polynomial> sturm_sequence(const Polynomial& p);
// Sign changes of the sequence at x, zeros skipped.
int sign_variations(const std::vector<Polynomial>& sturm, const mpq_class& x);
// The same at +infinity (direction +1) or -infinity (-1): the signs of the leading terms.
int sign_variations_at_infinity(const std::vector<Polynomial>& sturm, int direction);
// The number of distinct real roots of a non-zero f in (a, b] (a < b), or in (a, +inf).
int count_roots(const Polynomial& f, const mpq_class& a, const mpq_class& b);
int count_roots_above(const Polynomial& f, const mpq_class& a);
// A rational B > 0 with every real root of f (degree >= 1) in (-B, B): Cauchy's bound
// 1 + max |c_i / c_n|.
mpq_class root_bound(const Polynomial& f);

// A real algebraic number: either the exact rational `value`, or the unique root of the
// square-free polynomial p in the open interval (lo, hi), with p(lo), p(hi) non-zero and of
// opposite signs (sign_lo = sign p(lo)). Refinement (bisect) may turn it into a rational.
struct Algebraic {
  bool is_rational = true;
  mpq_class value;  // when is_rational
  Polynomial p;
  mpq_class lo, hi;
  int sign_lo = 0;

  static Algebraic rational(mpq_class v) {
    Algebraic a;
    a.value = std::move(v);
    return a;
  }
  void bisect();  // halves (lo, hi), or lands exactly on the root
};

// The distinct real roots of f (not the zero polynomial) in the closed [lo, hi], increasing.
std::vector<Algebraic> real_roots(const Polynomial& f, const mpq_class& lo, const mpq_class& hi);

// Sign of g on all of [lo, hi] when an exact enclosure proves it (Taylor expansion at the
// midpoint: |g(x) - g(m)| <= sum_k |g_k(m)| r^k); 0 when the enclosure contains zero.
int enclosure_sign(const Polynomial& g, const mpq_class& lo, const mpq_class& hi);
// Exact sign of g at a (a may be refined).
int sign_at(const Polynomial& g, Algebraic& a);
// -1, 0, 1 as a <, =, > q (resp. b); a and b may be refined.
int compare(Algebraic& a, const mpq_class& q);
int compare(Algebraic& a, Algebraic& b);
// The largest double <= a and the smallest double >= a (equal when a is a double).
std::pair<double, double> round_out(Algebraic& a);

}  // namespace contactbench::reference::exact
