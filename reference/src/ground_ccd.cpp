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

// c_i − c_j = (9/10)(a_i p_j − a_j p_i) / (p_i p_j) with a = y_g − y (exact as a double
// pair), and c_i − 1 = (9 a_i − 10 p_i) / (10 p_i): the numerators are sums of exact
// products, enclosed without cancellation by dd::expansion_sum (exactly when they are 0).
// Empty when a product leaves the exact range.
std::optional<Bounded> difference_numerator(const cases::GroundCcdQuery& q, int i, int j) {
  double a[2][2] = {{0, 0}, {0, 0}}, p[2] = {0, 0};
  const int node[2] = {i, j};
  for (int s = 0; s < 2; ++s) {
    if (node[s] < 0) continue;
    dd::two_sum(q.y_ground, -q.y[node[s]], a[s][0], a[s][1]);
    p[s] = q.py[node[s]];
  }
  std::array<double, 8> t{};
  auto put = [&](int at, double x, double y) { return dd::exact_product(x, y, t[at], t[at + 1]); };
  bool ok;
  if (i >= 0 && j >= 0)
    ok = put(0, a[0][0], p[1]) && put(2, a[0][1], p[1]) && put(4, -a[1][0], p[0]) && put(6, -a[1][1], p[0]);
  else if (i >= 0)
    ok = put(0, 9, a[0][0]) && put(2, 9, a[0][1]) && put(4, -10, p[0]);
  else
    ok = put(0, 9, a[1][0]) && put(2, 9, a[1][1]) && put(4, -10, p[1]);
  if (!ok) return std::nullopt;
  return dd::expansion_sum(t);
}

// The exact sign of c_i − c_j (node −1 the cap), or 2 when it cannot be had cheaply. The
// denominators p_i p_j > 0 and 10 p_i < 0 fix how the numerator's sign carries over.
int exact_order(const cases::GroundCcdQuery& q, int i, int j) {
  if (i == j) return 0;
  const auto n = difference_numerator(q, i, j);
  if (!n) return 2;
  const int sg = n->hi > 0 ? 1 : n->hi < 0 ? -1 : 0;
  if (i >= 0 && j >= 0) return sg;
  return i >= 0 ? -sg : sg;  // c_i − 1 has the sign of −(9 a_i − 10 p_i); 1 − c_j the opposite
}

// The runner-up's relative gap (c_s − c_a)/c_a from the enclosed numerator N of c_s − c_a
// (no cancellation, so near-ties keep a tight enclosure): two nodes N/(p_s a_a); the cap as
// runner-up (10 p_a − 9 a_a)/(9 a_a) = −N/(9 a_a); the cap binding, c_s − 1 = N/(10 p_s).
Bounded runner_up_gap(const cases::GroundCcdQuery& q, int s, int a) {
  const auto n = difference_numerator(q, s, a);
  if (!n) return {0, 0, dd::inf};
  if (a < 0) return *n / (Bounded(10) * Bounded(q.py[s]));
  const Bounded aa = Bounded(q.y_ground) - Bounded(q.y[a]);
  if (s >= 0) return *n / (Bounded(q.py[s]) * aa);
  return -*n / (Bounded(9) * aa);
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
    // The relative bound holds for normal, finite intermediates only.
    if (!(c.value >= 0x1p-900 && c.value <= 0x1p900 && std::abs(q.py[i]) >= 0x1p-900 &&
          std::abs(q.py[i]) <= 0x1p900 && q.y[i] - q.y_ground >= 0x1p-900 && q.y[i] - q.y_ground <= 0x1p900))
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
  r.alpha = a < 0 ? 1.0
                  : dd::certain_double(Bounded(9) * (Bounded(q.y_ground) - Bounded(q.y[a])) /
                                       (Bounded(10) * Bounded(q.py[a])));
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
