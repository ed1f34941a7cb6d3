#include "reference/ground_ccd.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/double_double.hpp"
#include "reference/src/ground_ccd_exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace contactbench::reference {

using exact::to_nearest_double;  // the one rational-to-double helper (subnormals included)
using exact::up_to_double;       // margins: never below the exact value

namespace {

using dd::Bounded;

// The filtered stage: the book's loop on certified comparisons of the candidates
// 9 (y_g − y_i) / (10 p_i) (doubles with a relative bound, else exact signs of expansions),
// then alpha in double-double rounded to nearest and the margin rounded up, each kept only
// when its enclosure decides its double. A value the bounds do not settle, or inputs where
// the bounds do not hold, send the query to the exact path (nullopt), which also raises the
// preconditions' errors.
// A candidate: node i's 9 (y_g − y_i) / (10 p_i) in double (four roundings: relative error
// below 5u, u = 2^-53), or the cap 1 (node −1, exact).
struct Candidate {
  double value = 1;
  int node = -1;
};

// Nodes i and j (−1 the cap) as the comparisons below need them: a = y_g − y as an exact
// double pair and p, scaled by powers of two so that the largest a and the largest p lie in
// [1, 2) — one power for both a's and another for both p's when both are nodes (c_i − c_j then
// keeps its sign, and each gap below its value), one power for a and p when one is the cap
// (9a − 10p must keep its meaning). The exact products of the numerators then stay far from
// overflow for every query of the fast domain (magnitudes up to 1e300). `ok` is false when a
// scaled nonzero value would leave the normal range (scaling is exact only inside it).
struct ScaledPair {
  double a[2][2] = {{0, 0}, {0, 0}}, p[2] = {0, 0};
  bool ok = true;
};

ScaledPair scaled_pair(const cases::GroundCcdQuery& q, int i, int j) {
  ScaledPair s;
  const int node[2] = {i, j};
  double a_max = 0, p_max = 0;
  for (int k = 0; k < 2; ++k) {
    if (node[k] < 0) continue;
    dd::two_sum(q.y_ground, -q.y[node[k]], s.a[k][0], s.a[k][1]);
    s.p[k] = q.py[node[k]];
    a_max = std::max(a_max, std::abs(s.a[k][0]));
    p_max = std::max(p_max, std::abs(s.p[k]));
  }
  // a ≠ 0 (every node lies above the ground) and p < 0 for a candidate.
  int ka = -dd::exponent(a_max), kp = -dd::exponent(p_max);
  if (i < 0 || j < 0) ka = kp = -dd::exponent(std::max(a_max, p_max));
  auto scale = [&](double& v, int k) {
    const bool nonzero = v != 0;
    v = dd::scale2(v, k);
    if (nonzero && !(std::abs(v) >= 0x1p-1022)) s.ok = false;
  };
  for (int k = 0; k < 2; ++k) {
    if (node[k] < 0) continue;
    scale(s.a[k][0], ka);
    scale(s.a[k][1], ka);
    scale(s.p[k], kp);
  }
  return s;
}

// c_i − c_j = (9/10)(a_i p_j − a_j p_i) / (p_i p_j), and c_i − 1 = (9 a_i − 10 p_i) / (10 p_i):
// the numerators (of the scaled pair: a positive power of two times the true ones) are sums of
// exact products, enclosed without cancellation by dd::expansion_sum (exactly when they are
// 0). Empty when a product leaves the exact range.
std::optional<Bounded> difference_numerator(const ScaledPair& s, int i, int j) {
  if (!s.ok) return std::nullopt;
  std::array<double, 8> t{};
  auto put = [&](int at, double x, double y) { return dd::exact_product(x, y, t[at], t[at + 1]); };
  bool ok;
  if (i >= 0 && j >= 0)
    ok = put(0, s.a[0][0], s.p[1]) && put(2, s.a[0][1], s.p[1]) && put(4, -s.a[1][0], s.p[0]) &&
         put(6, -s.a[1][1], s.p[0]);
  else if (i >= 0)
    ok = put(0, 9, s.a[0][0]) && put(2, 9, s.a[0][1]) && put(4, -10, s.p[0]);
  else
    ok = put(0, 9, s.a[1][0]) && put(2, 9, s.a[1][1]) && put(4, -10, s.p[1]);
  if (!ok) return std::nullopt;
  return dd::expansion_sum(t);
}

// The exact sign of c_i − c_j (node −1 the cap), or 2 when it cannot be had cheaply. The
// denominators p_i p_j > 0 and 10 p_i < 0 fix how the numerator's sign carries over.
int exact_order(const cases::GroundCcdQuery& q, int i, int j) {
  if (i == j) return 0;
  const ScaledPair s = scaled_pair(q, i, j);
  if (s.ok && i >= 0 && j >= 0) {
    // A double stage for two nodes: X = a_i p_j − a_j p_i = (P − R) + (e − f) + (A_i − A_j) with
    // a_i p_j = P + e and a_j p_i = R + f exact, A = a's low part times p.
    double pp, e, rr, f;
    if (dd::exact_product(s.a[0][0], s.p[1], pp, e) && dd::exact_product(s.a[1][0], s.p[0], rr, f)) {
      if (s.a[0][1] == 0 && s.a[1][1] == 0) {
        // Exact a's (common: y − y_g is exact by Sterbenz near the ground): rounding is
        // monotone, so P ≠ R has the sign of X; P = R leaves e − f, whose rounding keeps its sign.
        const double d = pp != rr ? pp - rr : e - f;
        return d > 0 ? 1 : d < 0 ? -1 : 0;
      }
      // Its evaluation t errs by at most 2u·(the sum of the magnitudes below) + 2^-1073
      // (products near underflow): 8u·sum + 2^-1060 bounds it with room for its own rounding.
      const double ai = s.a[0][1] * s.p[1], aj = s.a[1][1] * s.p[0];
      const double d = pp - rr, r = (e - f) + (ai - aj), t = d + r;
      const double sum = std::abs(d) + std::abs(e) + std::abs(f) + std::abs(ai) + std::abs(aj) + std::abs(r) + std::abs(t);
      if (std::abs(t) > 0x1p-50 * sum + 0x1p-1060) return t > 0 ? 1 : -1;
    }
  }
  const auto n = difference_numerator(s, i, j);
  if (!n) return 2;
  const int sg = n->hi > 0 ? 1 : n->hi < 0 ? -1 : 0;
  if (i >= 0 && j >= 0) return sg;
  return i >= 0 ? -sg : sg;  // c_i − 1 has the sign of −(9 a_i − 10 p_i); 1 − c_j the opposite
}

// Node i's candidate 9 a / (10 p) enclosed as m·2^e: a and p scaled to [1, 2) first (exact),
// so that m lies in [0.45, 1.8] for every query of the fast domain; the cap (i = −1) is 1·2^0.
// `ok` false when a's low part would leave the normal range when scaled.
struct ScaledCandidate {
  Bounded m = 1;
  int e = 0;
  bool ok = true;
};

ScaledCandidate scaled_candidate(const cases::GroundCcdQuery& q, int i) {
  ScaledCandidate c;
  if (i < 0) return c;
  double a0, a1;
  dd::two_sum(q.y_ground, -q.y[i], a0, a1);
  const int ka = -dd::exponent(a0), kp = -dd::exponent(q.py[i]);
  const double a1s = dd::scale2(a1, ka);
  c.ok = a1 == 0 || std::abs(a1s) >= 0x1p-1022;
  c.m = Bounded(9) * Bounded(dd::scale2(a0, ka), a1s, 0) / (Bounded(10) * Bounded(dd::scale2(q.py[i], kp)));
  c.e = kp - ka;
  return c;
}

// The runner-up's relative gap (c_s − c_a)/c_a from the enclosed numerator N of c_s − c_a
// (no cancellation, so near-ties keep a tight enclosure): two nodes N/(p_s a_a); the cap as
// runner-up (10 p_a − 9 a_a)/(9 a_a) = −N/(9 a_a); the cap binding, c_s − 1 = N/(10 p_s). N and
// the denominator come from one scaled pair: the powers of two cancel. When N is out of reach
// (magnitudes too far apart for exact products: a candidate far from the cap, e.g. 1e-297
// against 1), c_s/c_a − 1 from the scaled candidates: no cancellation that matters there,
// and an enclosure too wide to decide a double sends the query to the exact path.
Bounded runner_up_gap(const cases::GroundCcdQuery& q, int s, int a) {
  const ScaledPair sp = scaled_pair(q, s, a);
  if (const auto n = difference_numerator(sp, s, a)) {
    if (a < 0) return *n / (Bounded(10) * Bounded(sp.p[0]));
    const Bounded aa(sp.a[1][0], sp.a[1][1], 0);
    if (s >= 0) return *n / (Bounded(sp.p[0]) * aa);
    return -*n / (Bounded(9) * aa);
  }
  const ScaledCandidate cs = scaled_candidate(q, s), ca = scaled_candidate(q, a);
  const int e = cs.e - ca.e;
  if (!cs.ok || !ca.ok || e < -8 || e > 900) return {0, 0, dd::inf};  // c_s ≥ c_a: e ≥ −2
  return dd::ldexp(cs.m / ca.m, e) - Bounded(1);
}

// alpha of node i rounded to nearest, or NaN when the enclosure does not decide it: the
// scaled candidate's double scaled back (exact for a normal alpha; a smaller one is sent to
// the exact path by the caller).
double certain_alpha(const cases::GroundCcdQuery& q, int i) {
  const ScaledCandidate c = scaled_candidate(q, i);
  if (!c.ok) return std::nan("");
  const double alpha = dd::scale2(dd::certain_double(c.m), c.e);
  return std::abs(alpha) >= 0x1p-1020 ? alpha : std::nan("");  // normal: the scaling was exact
}

// The order of two candidates: their doubles when the relative bound 5u of each cannot make
// them meet (factor 1 ± 2^-49, far beyond 5u and the comparison's own rounding), else the
// exact sign; 2 when undecided.
int order(const cases::GroundCcdQuery& q, const Candidate& x, const Candidate& y) {
  if (x.value * (1 + 0x1p-49) < y.value * (1 - 0x1p-49)) return -1;
  if (x.value * (1 - 0x1p-49) > y.value * (1 + 0x1p-49)) return 1;
  return exact_order(q, x.node, y.node);
}

std::optional<cases::GroundCcdResult> ground_ccd_filtered(const cases::GroundCcdQuery& q) {
  if (!std::isfinite(q.y_ground)) return std::nullopt;
  Candidate alpha, second;
  bool has_second = false, tie = false;  // tie: second equals alpha exactly (margin 0)
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    if (!std::isfinite(q.y[i]) || !std::isfinite(q.py[i]) || !(q.y[i] > q.y_ground)) return std::nullopt;
    if (!(q.py[i] < 0)) continue;  // p_i = 0 or p_i > 0: no candidate
    const Candidate c{9 * (q.y_ground - q.y[i]) / (10 * q.py[i]), static_cast<int>(i)};
    // The relative bound holds for normal, finite intermediates only (this covers the fast
    // domain, magnitudes 1e-300 ≈ 2^-996.6 to 1e300, and more).
    if (!(c.value >= 0x1p-1020 && c.value <= 0x1p1000 && std::abs(q.py[i]) >= 0x1p-1020 &&
          std::abs(q.py[i]) <= 0x1p1000 && q.y[i] - q.y_ground >= 0x1p-1020 && q.y[i] - q.y_ground <= 0x1p1000))
      return std::nullopt;
    const int vs_alpha = order(q, c, alpha);
    if (vs_alpha == 2) return std::nullopt;
    if (vs_alpha < 0) {  // new minimum: the old one becomes the runner-up
      second = alpha;
      alpha = c;
      has_second = true;
      tie = false;
    } else if (vs_alpha == 0) {  // exact tie
      second = c;
      has_second = tie = true;
    } else if (!has_second) {
      second = c;
      has_second = true;
    } else if (!tie) {
      const int vs_second = order(q, c, second);
      if (vs_second == 2) return std::nullopt;
      if (vs_second < 0) second = c;
    }
  }
  cases::GroundCcdResult r;
  const int a = alpha.node;
  r.alpha = a < 0 ? 1.0 : certain_alpha(q, a);
  r.binding = a;
  r.margin = !has_second ? std::numeric_limits<double>::infinity()
             : tie       ? 0.0
                         : dd::certain_up_double(runner_up_gap(q, second.node, a));
  if (std::isnan(r.alpha) || std::isnan(r.margin) || std::abs(r.alpha) < 0x1p-1022) return std::nullopt;
  return r;
}

}  // namespace

cases::GroundCcdResult ground_ccd(const cases::GroundCcdQuery& q) {
  if (q.py.size() != q.y.size()) throw std::invalid_argument("ground_ccd: y and py sizes differ");
  if (auto r = ground_ccd_filtered(q)) return *r;
  return ground_ccd_exact(q);
}

cases::GroundCcdResult ground_ccd_exact(const cases::GroundCcdQuery& q) {
  if (q.py.size() != q.y.size()) throw std::invalid_argument("ground_ccd: y and py sizes differ");
  const mpq_class yg(q.y_ground);  // doubles convert exactly
  const auto e = detail::ground_ccd_exact(q.y.size(), yg, [&](std::size_t i) {
    return std::pair<mpq_class, mpq_class>(mpq_class(q.y[i]), mpq_class(q.py[i]));
  });
  cases::GroundCcdResult r;
  r.alpha = to_nearest_double(e.alpha);
  r.binding = e.binding;
  r.margin = e.has_runner_up ? up_to_double((e.runner_up - e.alpha) / e.alpha)
                             : std::numeric_limits<double>::infinity();
  return r;
}

double ground_ccd_direction_margin(const cases::GroundCcdQuery& q, std::size_t i) {
  if (i >= q.y.size() || q.py.size() != q.y.size())
    throw std::invalid_argument("ground_ccd: no such node");
  if (q.py[i] == 0) return 0;
  // Filtered: |p_i| / (y_i − y_g) in double-double (the difference is exact there), kept when
  // its upward rounding is certain.
  const double up = dd::certain_up_double(Bounded(std::abs(q.py[i])) / (Bounded(q.y[i]) - Bounded(q.y_ground)));
  if (!std::isnan(up) && up >= 0x1p-1022) return up;
  return ground_ccd_direction_margin_exact(q, i);
}

double ground_ccd_direction_margin_exact(const cases::GroundCcdQuery& q, std::size_t i) {
  if (i >= q.y.size() || q.py.size() != q.y.size())
    throw std::invalid_argument("ground_ccd: no such node");
  if (q.py[i] == 0) return 0;
  return up_to_double(abs(mpq_class(q.py[i])) / (mpq_class(q.y[i]) - mpq_class(q.y_ground)));
}

double ground_ccd_candidate_gap(const cases::GroundCcdQuery& q, int i, int j) {
  const int n = static_cast<int>(q.y.size());
  if (q.py.size() != q.y.size()) throw std::invalid_argument("ground_ccd: y and py sizes differ");
  if (i == j && i >= -1 && i < n) return 0;
  // The exact candidate of k, or nothing (+inf) when k is no candidate.
  auto candidate = [&](int k) -> std::optional<mpq_class> {
    if (k == -1) return mpq_class(1);
    if (k < -1 || k >= n || !(q.py[k] < 0)) return std::nullopt;
    return mpq_class(9, 10) * (mpq_class(q.y_ground) - mpq_class(q.y[k])) / mpq_class(q.py[k]);
  };
  const auto a = candidate(i), b = candidate(j);
  if (!a || !b) return std::numeric_limits<double>::infinity();
  const mpq_class lo = std::min(*a, *b), hi = std::max(*a, *b);
  if (sgn(lo) <= 0) return std::numeric_limits<double>::infinity();  // not in the domain
  return up_to_double((hi - lo) / lo);
}

}  // namespace contactbench::reference
