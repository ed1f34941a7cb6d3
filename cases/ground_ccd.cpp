#include "cases/ground_ccd.hpp"

#include <cmath>
#include <string>

namespace contactbench::cases {

void validate(const GroundCcdQuery& q, const Where& where) {
  auto bounded = [&](double v, const std::string& field) {
    if (!std::isfinite(v)) where.fail(field, "must be finite");
    if (std::abs(v) > ground_ccd_max_abs)
      where.fail(field, "magnitude above 1e300, outside the ground CCD's domain");
  };
  bounded(q.y_ground, "y_ground");
  if (q.y.empty()) where.fail("y", "needs at least one node");
  if (q.py.size() != q.y.size())
    where.fail("py", "has " + std::to_string(q.py.size()) + " entries, y has " +
                         std::to_string(q.y.size()));
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    const std::string yi = "y[" + std::to_string(i) + "]";
    const std::string pi = "py[" + std::to_string(i) + "]";
    bounded(q.y[i], yi);
    if (!(q.y[i] > q.y_ground)) where.fail(yi, "node is on or below the ground (precondition y > y_ground)");
    bounded(q.py[i], pi);
    const double gap = q.y[i] - q.y_ground;
    if (gap < ground_ccd_min_gap)
      where.fail(yi, "less than 1e-300 above the ground, outside the ground CCD's domain");
    if (q.py[i] < 0 && gap / -q.py[i] < ground_ccd_min_gap)
      where.fail(pi, "height / -py below 1e-300 (the step bound would underflow), outside the "
                     "ground CCD's domain");
  }
}

GroundCcdQuery random_ground_ccd(Rng& rng) {
  GroundCcdQuery q;
  const double scale = pick_scale(rng);
  q.y_ground = uniform(rng, -2, 2) * scale;
  const long n = uniform_int(rng, 1, 32);
  for (long i = 0; i < n; ++i) {
    double y = q.y_ground + log_uniform(rng, 1e-6, 1.0) * scale;
    if (!(y > q.y_ground)) y = std::nextafter(q.y_ground, INFINITY);
    q.y.push_back(y);
    const long kind = uniform_int(rng, 0, 9);
    const double mag = log_uniform(rng, 1e-7, 10.0) * scale;
    q.py.push_back(kind == 0 ? 0.0 : kind <= 6 ? -mag : mag);
  }
  return q;
}

GroundCcdQuery degenerate_ground_ccd(Rng& rng) {
  GroundCcdQuery q;
  const double scale = pick_scale(rng);
  // One query in four puts the ground at 0 so that a height of exactly the book's
  // d̂ = 0.01 is representable (y = 0.01); otherwise the ground is on the dyadic grid.
  const bool at_dhat = uniform_int(rng, 0, 3) == 0;
  q.y_ground = at_dhat ? 0.0 : dyadic(rng, 4, 32, scale);
  const long n = uniform_int(rng, 1, 16);
  for (long i = 0; i < n; ++i) {
    const double h = at_dhat && uniform_int(rng, 0, 1)
                         ? 0.01
                         : std::ldexp(static_cast<double>(uniform_int(rng, 1, 64)), -6) * scale;
    q.y.push_back(q.y_ground + h);  // exact: dyadic + dyadic on a common grid, or 0 + 0.01
    switch (uniform_int(rng, 0, 5)) {
      case 0: q.py.push_back(0.0); break;                        // parallel to the ground
      case 1: q.py.push_back(-h); break;                         // touches exactly at step 1
      case 2: q.py.push_back(-2 * h); break;                     // touches exactly at step 1/2
      case 3: q.py.push_back(dyadic(rng, 6, 64, scale)); break;  // grid, either sign
      case 4:                                                    // repeat the previous node: exact tie
        if (i > 0) {
          q.y.back() = q.y[i - 1];
          q.py.push_back(q.py[i - 1]);
        } else {
          q.py.push_back(-h);
        }
        break;
      default: q.py.push_back(-h * 0.875); break;                // 0.9 / 0.875 > 1: capped at 1
    }
  }
  return q;
}

}  // namespace contactbench::cases
