#include "reference/src/polynomial.hpp"

#include "reference/src/filtered_sign.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace contactbench::reference::exact {

namespace {

// An interval of doubles around q ([lo, hi] contains q), from mpq_get_d's truncation
// towards zero, when q is 0 or its conversion lies in [2^-900, 2^900] (far from under- and
// overflow, where GMP leaves the result system dependent); false otherwise.
bool enclose(const mpq_class& q, double& lo, double& hi) {
  const int s = sgn(q);
  if (s == 0) {
    lo = hi = 0;
    return true;
  }
  const double d = mpq_get_d(q.get_mpq_t());
  if (!(std::abs(d) >= 0x1p-900 && std::abs(d) <= 0x1p900)) return false;
  lo = s > 0 ? d : std::nextafter(d, -INFINITY);
  hi = s > 0 ? std::nextafter(d, INFINITY) : d;
  return true;
}

// The sign of g on all of [lo, hi] when interval arithmetic proves it (Horner on the
// enclosures of the coefficients and of [lo, hi], rounding protected: the result encloses
// g(x) for every x in [lo, hi]); 0 when it cannot (it never certifies a zero). A cheap
// stand-in for the gcd test and enclosure_sign, which need rationals.
int interval_sign(const Polynomial& g, const mpq_class& lo, const mpq_class& hi) {
  std::array<double, 2 * 8> c;  // degree <= 7: the polynomials of the CCD and ellipsoid families
  const int n = g.degree();
  if (n < 0 || n >= 8) return 0;
  double xl, xh, t;
  if (!enclose(lo, xl, t)) return 0;
  if (!enclose(hi, t, xh)) return 0;
  for (int i = 0; i <= n; ++i)
    if (!enclose(g.c[i], c[2 * i], c[2 * i + 1])) return 0;
  ProtectRounding guard;
  const Interval x(xl, xh);
  Interval r(c[2 * n], c[2 * n + 1]);
  for (int i = n - 1; i >= 0; --i) r = r * x + Interval(c[2 * i], c[2 * i + 1]);
  if (r.inf() > 0) return 1;
  if (r.sup() < 0) return -1;
  return 0;
}

// Integer coefficients (every denominator 1).
bool integer_coefficients(const Polynomial& g) {
  for (const auto& c : g.c)
    if (mpz_cmp_ui(c.get_den_mpz_t(), 1) != 0) return false;
  return true;
}

// x = X/2^k (a dyadic rational, X its numerator): true and k, else false.
bool dyadic(const mpq_class& x, mp_bitcnt_t& k) {
  const mpz_srcptr den = x.get_den_mpz_t();
  if (mpz_popcount(den) != 1) return false;
  k = mpz_scan1(den, 0);
  return true;
}

// The sign of p(x) for integer coefficients and a dyadic x = X/2^k, in integers: the sign of
// 2^(kn) p(x) = Σ p_i X^i 2^(k(n−i)) (Horner), no fractions; empty for other p or x.
std::optional<int> integer_value_sign(const Polynomial& p, const mpq_class& x) {
  mp_bitcnt_t k;
  if (!dyadic(x, k) || !integer_coefficients(p)) return std::nullopt;
  const int n = p.degree();
  mpz_class r = p.c[n].get_num(), term;
  for (int i = n - 1; i >= 0; --i) {
    r *= x.get_num();
    mpz_mul_2exp(term.get_mpz_t(), p.c[i].get_num_mpz_t(), k * (n - i));
    r += term;
  }
  return sgn(r);
}

// The exact sign of p(x): interval arithmetic when it decides, else integers or rationals.
int value_sign(const Polynomial& p, const mpq_class& x) {
  if (const int s = interval_sign(p, x, x)) return s;
  if (p.is_zero()) return 0;
  if (const auto s = integer_value_sign(p, x)) return *s;
  return sgn(p(x));
}

// a = q b + r; either output may be skipped.
void divmod(const Polynomial& a, const Polynomial& b, Polynomial* quot, Polynomial* rem) {
  if (b.is_zero()) throw std::domain_error("polynomial division by zero");
  std::vector<mpq_class> r = a.c, qv(std::max(0, a.degree() - b.degree() + 1));
  mpq_class prod;  // one product buffer: `x -= k * y` would allocate and free a temporary per term
  for (int i = a.degree(); i >= b.degree(); --i) {
    if (sgn(r[i]) == 0) continue;
    const mpq_class k = r[i] / b.c.back();
    qv[i - b.degree()] = k;
    for (int j = 0; j <= b.degree(); ++j) {
      mpq_mul(prod.get_mpq_t(), k.get_mpq_t(), b.c[j].get_mpq_t());
      r[i - b.degree() + j] -= prod;
    }
  }
  if (quot) *quot = Polynomial(std::move(qv));
  if (rem) {
    r.resize(std::max(0, b.degree()));
    *rem = Polynomial(std::move(r));
  }
}

// Isolates the roots of the square-free p (Sturm sequence st) in the open (lo, hi) by
// bisection. vlo, vhi: sign variations just right of lo and just left of hi, so vlo - vhi
// counts the distinct roots in (lo, hi) even when lo or hi is itself a root.
void isolate(const Polynomial& p, const std::vector<Polynomial>& st, const mpq_class& lo,
             const mpq_class& hi, int vlo, int vhi, std::vector<Algebraic>& out) {
  const int n = vlo - vhi;
  if (n <= 0) return;
  if (n == 1 && value_sign(p, lo) != 0 && value_sign(p, hi) != 0) {
    Algebraic a;
    a.is_rational = false;
    a.p = p;
    a.lo = lo;
    a.hi = hi;
    a.sign_lo = value_sign(p, lo);
    out.push_back(std::move(a));
    return;
  }
  const mpq_class m = (lo + hi) / 2;
  const int vm = sign_variations(st, m);
  if (value_sign(p, m) == 0) {
    // m is a root: the count on (lo, m] includes it.
    isolate(p, st, lo, m, vlo, vm + 1, out);  // roots in (lo, m): vlo - vm - 1
    out.push_back(Algebraic::rational(m));
    isolate(p, st, m, hi, vm, vhi, out);
  } else {
    isolate(p, st, lo, m, vlo, vm, out);
    isolate(p, st, m, hi, vm, vhi, out);
  }
}

// The largest double <= q (mpq_get_d truncates towards zero).
double floor_to_double(const mpq_class& q) {
  const double d = mpq_get_d(q.get_mpq_t());
  if (sgn(q) >= 0 || cmp(mpq_class(d), q) == 0) return d;
  return std::nextafter(d, -INFINITY);
}

}  // namespace

Polynomial operator+(const Polynomial& a, const Polynomial& b) {
  std::vector<mpq_class> r(std::max(a.c.size(), b.c.size()));
  for (std::size_t i = 0; i < a.c.size(); ++i) r[i] += a.c[i];
  for (std::size_t i = 0; i < b.c.size(); ++i) r[i] += b.c[i];
  return Polynomial(std::move(r));
}

Polynomial operator-(const Polynomial& a, const Polynomial& b) {
  std::vector<mpq_class> r(std::max(a.c.size(), b.c.size()));
  for (std::size_t i = 0; i < a.c.size(); ++i) r[i] += a.c[i];
  for (std::size_t i = 0; i < b.c.size(); ++i) r[i] -= b.c[i];
  return Polynomial(std::move(r));
}

Polynomial operator*(const Polynomial& a, const Polynomial& b) {
  if (a.is_zero() || b.is_zero()) return {};
  std::vector<mpq_class> r(a.c.size() + b.c.size() - 1);
  mpq_class prod;  // one product buffer (see divmod)
  for (std::size_t i = 0; i < a.c.size(); ++i)
    for (std::size_t j = 0; j < b.c.size(); ++j) {
      mpq_mul(prod.get_mpq_t(), a.c[i].get_mpq_t(), b.c[j].get_mpq_t());
      r[i + j] += prod;
    }
  return Polynomial(std::move(r));
}

Polynomial derivative(const Polynomial& a) {
  std::vector<mpq_class> r;
  for (int i = 1; i <= a.degree(); ++i) r.push_back(a.c[i] * i);
  return Polynomial(std::move(r));
}

Polynomial quotient(const Polynomial& a, const Polynomial& b) {
  Polynomial q;
  divmod(a, b, &q, nullptr);
  return q;
}

Polynomial remainder(const Polynomial& a, const Polynomial& b) {
  Polynomial r;
  divmod(a, b, nullptr, &r);
  return r;
}

Polynomial monic(Polynomial a) {
  if (a.is_zero()) return a;
  const mpq_class lead = a.c.back();
  for (auto& x : a.c) x /= lead;
  return a;
}

Polynomial gcd(Polynomial a, Polynomial b) {
  while (!b.is_zero()) {
    Polynomial r = remainder(a, b);
    a = std::move(b);
    b = monic(std::move(r));  // keeps the coefficients small
  }
  return monic(std::move(a));
}

Polynomial square_free(const Polynomial& a) {
  if (a.degree() <= 1) return a;
  const Polynomial g = gcd(a, derivative(a));
  if (g.degree() <= 0) return a;
  return quotient(a, g);
}

std::vector<Polynomial> sturm_sequence(const Polynomial& p) {
  std::vector<Polynomial> s{p, derivative(p)};
  while (!s.back().is_zero() && s.back().degree() > 0) {
    Polynomial r = remainder(s[s.size() - 2], s.back());
    if (r.is_zero()) break;
    for (auto& x : r.c) x = -x;
    s.push_back(std::move(r));
  }
  return s;
}

int sign_variations(const std::vector<Polynomial>& sturm, const mpq_class& x) {
  int v = 0, last = 0;
  for (const auto& p : sturm) {
    const int g = value_sign(p, x);
    if (g == 0) continue;
    if (last != 0 && g != last) ++v;
    last = g;
  }
  return v;
}

int sign_variations_at_infinity(const std::vector<Polynomial>& sturm, int direction) {
  int v = 0, last = 0;
  for (const auto& p : sturm) {
    if (p.is_zero()) continue;
    const int g = sgn(p.c.back()) * (direction < 0 && p.degree() % 2 == 1 ? -1 : 1);
    if (last != 0 && g != last) ++v;
    last = g;
  }
  return v;
}

// The square-free part p of f (degree >= 1) and p's Sturm sequence. The Sturm sequence of f
// itself ends in gcd(f, f') up to a constant factor: when that is a constant (the common case)
// p = f and the sequence is p's already, one Euclidean chain instead of square_free's and the
// sequence's two; otherwise p = f / monic gcd, exactly square_free(f).
namespace {
void square_free_sturm(const Polynomial& f, Polynomial& p, std::vector<Polynomial>& st) {
  st = sturm_sequence(f);
  if (st.back().degree() == 0) {
    p = f;
    return;
  }
  p = quotient(f, monic(st.back()));
  st = sturm_sequence(p);
}
}  // namespace

// Sturm's theorem on the square-free part: V(a) - V(b) counts the distinct roots in (a, b]
// (a root at a has p(a) = 0 skipped and p'(a) sign as just right of a: not counted).
int count_roots(const Polynomial& f, const mpq_class& a, const mpq_class& b) {
  if (f.degree() <= 0) return 0;
  Polynomial p;
  std::vector<Polynomial> st;
  square_free_sturm(f, p, st);
  return sign_variations(st, a) - sign_variations(st, b);
}

int count_roots_above(const Polynomial& f, const mpq_class& a) {
  if (f.degree() <= 0) return 0;
  Polynomial p;
  std::vector<Polynomial> st;
  square_free_sturm(f, p, st);
  return sign_variations(st, a) - sign_variations_at_infinity(st, 1);
}

mpq_class root_bound(const Polynomial& f) {
  if (f.degree() < 1) throw std::domain_error("root_bound: constant polynomial");
  mpq_class m = 0;
  for (int i = 0; i < f.degree(); ++i) m = std::max(m, mpq_class(abs(f.c[i] / f.c.back())));
  return 1 + m;
}

void Algebraic::bisect() {
  mpq_class m = (lo + hi) / 2;
  const int s = value_sign(p, m);
  if (s == 0) {
    is_rational = true;
    value = std::move(m);
  } else if (s == sign_lo) {
    lo = std::move(m);
  } else {
    hi = std::move(m);
  }
}

std::vector<Algebraic> real_roots(const Polynomial& f, const mpq_class& lo, const mpq_class& hi) {
  std::vector<Algebraic> out;
  if (f.degree() <= 0) return out;
  Polynomial p = f;
  std::vector<Polynomial> st;
  if (f.degree() > 1) square_free_sturm(f, p, st);
  if (p.degree() == 1) {
    mpq_class r = -p.c[0] / p.c[1];
    if (r >= lo && r <= hi) out.push_back(Algebraic::rational(std::move(r)));
    return out;
  }
  if (value_sign(p, lo) == 0) out.push_back(Algebraic::rational(lo));
  const int vlo = sign_variations(st, lo), vhi = sign_variations(st, hi);
  // Sturm counts roots in (lo, hi]; a root at hi is dropped from the open interval's count
  // and added at the end.
  const bool root_hi = value_sign(p, hi) == 0;
  isolate(p, st, lo, hi, vlo, vhi + (root_hi ? 1 : 0), out);
  if (root_hi) out.push_back(Algebraic::rational(hi));
  return out;
}

namespace {
// enclosure_sign's test in integers, when g's coefficients are integers and lo, hi are dyadic
// (the CCD's polynomials, whose inputs it scales to integers, at bisection points of [0, 1]):
// with lo = A/2^k, hi = B/2^k (k above both ends' exponents, so A, B are even), m = M/2^k and
// r = R/2^k for M = (A + B)/2, R = (B − A)/2, and P(z) = Σ g_i 2^(k(n−i)) z^i, P(M + R s) =
// 2^(kn) g(m + r s): its Taylor coefficients at M times R^j are those of g at m times r^j,
// times the positive 2^(kn), so the comparison decides the same. No fraction is formed: no
// gcds. Empty when g or the ends are not of that form.
std::optional<int> integer_enclosure_sign(const Polynomial& g, const mpq_class& lo, const mpq_class& hi) {
  mp_bitcnt_t a, b;
  if (!dyadic(lo, a) || !dyadic(hi, b) || !integer_coefficients(g)) return std::nullopt;
  const mp_bitcnt_t k = std::max(a, b) + 1;
  mpz_class lo_k, hi_k, m, r;
  mpz_mul_2exp(lo_k.get_mpz_t(), lo.get_num_mpz_t(), k - a);
  mpz_mul_2exp(hi_k.get_mpz_t(), hi.get_num_mpz_t(), k - b);
  mpz_add(m.get_mpz_t(), lo_k.get_mpz_t(), hi_k.get_mpz_t());
  mpz_fdiv_q_2exp(m.get_mpz_t(), m.get_mpz_t(), 1);  // exact: both even
  mpz_sub(r.get_mpz_t(), hi_k.get_mpz_t(), lo_k.get_mpz_t());
  mpz_fdiv_q_2exp(r.get_mpz_t(), r.get_mpz_t(), 1);
  const int n = g.degree();
  std::vector<mpz_class> t(n + 1);
  for (int i = 0; i <= n; ++i) mpz_mul_2exp(t[i].get_mpz_t(), g.c[i].get_num_mpz_t(), k * (n - i));
  for (int j = 0; j <= n; ++j)
    for (int i = n - 1; i >= j; --i) mpz_addmul(t[i].get_mpz_t(), m.get_mpz_t(), t[i + 1].get_mpz_t());
  mpz_class bound = 0, rj = 1, prod;
  for (int j = 1; j <= n; ++j) {
    mpz_mul(rj.get_mpz_t(), rj.get_mpz_t(), r.get_mpz_t());
    mpz_mul(prod.get_mpz_t(), t[j].get_mpz_t(), rj.get_mpz_t());
    mpz_abs(prod.get_mpz_t(), prod.get_mpz_t());
    bound += prod;
  }
  if (t[0] > bound) return 1;
  if (t[0] < -bound) return -1;
  return 0;
}
}  // namespace

int enclosure_sign(const Polynomial& g, const mpq_class& lo, const mpq_class& hi) {
  if (const auto s = integer_enclosure_sign(g, lo, hi)) return *s;
  const mpq_class m = (lo + hi) / 2, r = (hi - lo) / 2;
  // Taylor coefficients at m by repeated synthetic division.
  std::vector<mpq_class> t = g.c;
  const int n = g.degree();
  mpq_class prod;  // one product buffer (see divmod)
  for (int k = 0; k <= n; ++k)
    for (int i = n - 1; i >= k; --i) {
      mpq_mul(prod.get_mpq_t(), m.get_mpq_t(), t[i + 1].get_mpq_t());
      t[i] += prod;
    }
  mpq_class bound = 0, rk = 1;
  for (int k = 1; k <= n; ++k) {
    rk *= r;
    mpq_mul(prod.get_mpq_t(), t[k].get_mpq_t(), rk.get_mpq_t());
    mpq_abs(prod.get_mpq_t(), prod.get_mpq_t());  // |t_k| r^k
    bound += prod;
  }
  if (t[0] > bound) return 1;
  if (t[0] < -bound) return -1;
  return 0;
}

int sign_at(const Polynomial& g, Algebraic& a) {
  if (g.is_zero()) return 0;
  if (a.is_rational) return value_sign(g, a.value);
  if (g.degree() == 0) return sgn(g.c[0]);
  // a is a root of its own polynomial (the common call: the sign of the polynomial whose
  // root it is, e.g. the CCD coplanarity cubic at its root).
  if (g.c == a.p.c) return 0;
  // A strict sign of g on all of (lo, hi) is its sign at a (then g(a) != 0): no gcd needed.
  if (const int s = interval_sign(g, a.lo, a.hi)) return s;
  // The exact Taylor enclosure on the same interval decides most of what the doubles' rounding
  // cannot (g(a) small against g's coefficients, as near a CCD query's degenerate instant) and
  // costs much less than the gcd: on the ccd random generator's `config=degenerating` queries
  // it settled 4,634 of the 5,430 calls that reached here, and the gcd found no zero in any.
  if (const int s = enclosure_sign(g, a.lo, a.hi)) return s;
  // g(a) = 0 iff a is a root of h = gcd(p, g); h is square-free with at most the one root a
  // in (lo, hi), so that happens iff h changes sign there (h(lo), h(hi) != 0 since h | p).
  const Polynomial h = gcd(a.p, g);
  if (h.degree() >= 1 && value_sign(h, a.lo) * value_sign(h, a.hi) < 0) return 0;
  // Now g(a) != 0: halving the interval around a eventually excludes zero. After each halving,
  // intervals of doubles, then the exact Taylor enclosure: it decides once the interval is
  // small enough, also below the doubles' resolution (on the degenerating queries above mostly
  // after one to four halvings, where the doubles never did; trying it only from the 16th
  // halving on made those queries 20 % slower).
  for (;;) {
    a.bisect();
    if (a.is_rational) return value_sign(g, a.value);
    if (const int s = interval_sign(g, a.lo, a.hi)) return s;
    if (const int s = enclosure_sign(g, a.lo, a.hi)) return s;
  }
}

int compare(Algebraic& a, const mpq_class& q) {
  if (a.is_rational) return cmp(a.value, q) < 0 ? -1 : (cmp(a.value, q) > 0 ? 1 : 0);
  if (q <= a.lo) return 1;
  if (q >= a.hi) return -1;
  const int s = value_sign(a.p, q);
  if (s == 0) return 0;
  return s == a.sign_lo ? 1 : -1;
}

int compare(Algebraic& a, Algebraic& b) {
  if (b.is_rational) return compare(a, b.value);
  if (a.is_rational) return -compare(b, a.value);
  // Equal iff a is a root of b.p inside b's isolating interval.
  if (sign_at(b.p, a) == 0 && compare(a, b.lo) > 0 && compare(a, b.hi) < 0) return 0;
  for (;;) {  // a != b: refining both separates them
    if (a.is_rational) return -compare(b, a.value);
    if (b.is_rational) return compare(a, b.value);
    if (a.hi <= b.lo) return -1;
    if (b.hi <= a.lo) return 1;
    a.bisect();
    b.bisect();
  }
}

std::pair<double, double> round_out(Algebraic& a) {
  if (a.is_rational) {
    const double d = floor_to_double(a.value);
    const double u = cmp(mpq_class(d), a.value) == 0 ? d : std::nextafter(d, INFINITY);
    return {d, u};
  }
  for (;;) {
    const double d = floor_to_double(a.lo);
    const double u = std::nextafter(d, INFINITY);
    // a > lo >= d; a irrational so a != u; a < hi <= u means d < a < u.
    if (cmp(a.hi, mpq_class(u)) <= 0) return {d, u};
    a.bisect();
    if (a.is_rational) return round_out(a);
  }
}

}  // namespace contactbench::reference::exact
