#include "reference/ground_ccd.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/ground_ccd_exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace contactbench::reference {

using exact::to_nearest_double;  // the one rational-to-double helper (subnormals included)
using exact::up_to_double;       // margins: never below the exact value

cases::GroundCcdResult ground_ccd(const cases::GroundCcdQuery& q) {
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
