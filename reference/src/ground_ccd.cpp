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

// The filtered stage: every candidate 9 (y_g − y_i) / (10 p_i) in double-double with a
// running bound (y_g − y_i and 10 p_i are exact there), the book's loop run on certified
// comparisons (disjoint enclosures), alpha rounded to nearest and the margin rounded up only
// when each enclosure decides its double. An undecided comparison (an exact tie or a near
// one), or a value the bounds do not settle, sends the query to the exact path (nullopt).
// The preconditions are the exact path's: it also raises their errors.
std::optional<cases::GroundCcdResult> ground_ccd_filtered(const cases::GroundCcdQuery& q) {
  const Bounded yg(q.y_ground);
  Bounded alpha(1), second;
  bool has_second = false;
  int binding = -1;
  if (!std::isfinite(q.y_ground)) return std::nullopt;
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    if (!std::isfinite(q.y[i]) || !std::isfinite(q.py[i]) || !(q.y[i] > q.y_ground)) return std::nullopt;
    if (!(q.py[i] < 0)) continue;  // p_i = 0, p_i > 0 or NaN: the exact path decides alike or raises
    const Bounded c = Bounded(9) * (yg - Bounded(q.y[i])) / (Bounded(10) * Bounded(q.py[i]));
    const int vs_alpha = dd::certain_compare(c, alpha);
    if (vs_alpha == 0) return std::nullopt;
    if (vs_alpha < 0) {
      second = alpha;
      has_second = true;
      alpha = c;
      binding = static_cast<int>(i);
    } else if (!has_second) {
      second = c;
      has_second = true;
    } else {
      const int vs_second = dd::certain_compare(c, second);
      if (vs_second == 0) return std::nullopt;
      if (vs_second < 0) second = c;
    }
  }
  cases::GroundCcdResult r;
  r.alpha = dd::certain_double(alpha);
  r.binding = binding;
  r.margin = has_second ? dd::certain_up_double((second - alpha) / alpha) : std::numeric_limits<double>::infinity();
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
