// Distance between two doubles in units of the spacing of doubles at the reference value,
// taken on the side of the fast value (so crossing a power of two downwards counts in the
// finer units). 0 when equal; +inf when one side is not finite and they differ.
#pragma once
#include <cmath>
#include <limits>

namespace contactbench::harness {

inline double ulp_error(double fast, double ref) {
  if (fast == ref) return 0;
  if (!std::isfinite(fast) || !std::isfinite(ref)) return std::numeric_limits<double>::infinity();
  const double spacing = std::abs(std::nextafter(ref, fast) - ref);
  return std::abs(fast - ref) / spacing;
}

}  // namespace contactbench::harness
