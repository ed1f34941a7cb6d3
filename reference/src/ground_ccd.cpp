#include "reference/ground_ccd.hpp"

#include "reference/src/ground_ccd_exact.hpp"

#include <cmath>
#include <stdexcept>

namespace contactbench::reference {

namespace {
// Nearest double to an exact rational (mpq -> mpfr at 53 bits, round to nearest).
double to_nearest_double(const mpq_class& q) {
  mpfr_t t;
  mpfr_init2(t, 53);
  mpfr_set_q(t, q.get_mpq_t(), MPFR_RNDN);
  const double v = mpfr_get_d(t, MPFR_RNDN);  // exact: t already has 53 bits
  mpfr_clear(t);
  return v;
}
}  // namespace

cases::GroundCcdResult ground_ccd(const cases::GroundCcdQuery& q) {
  if (q.py.size() != q.y.size()) throw std::invalid_argument("ground_ccd: y and py sizes differ");
  const mpq_class yg(q.y_ground);  // doubles convert exactly
  const auto e = detail::ground_ccd_exact(q.y.size(), yg, [&](std::size_t i) {
    return std::pair<mpq_class, mpq_class>(mpq_class(q.y[i]), mpq_class(q.py[i]));
  });
  cases::GroundCcdResult r;
  r.alpha = to_nearest_double(e.alpha);
  r.binding = e.binding;
  r.margin = e.has_runner_up ? to_nearest_double((e.runner_up - e.alpha) / e.alpha)
                             : std::numeric_limits<double>::infinity();
  return r;
}

}  // namespace contactbench::reference
