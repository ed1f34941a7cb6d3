// Error-free transformations of doubles (Knuth's TwoSum, Dekker's FastTwoSum, the FMA
// product), shared by the fast kernels that need exact sums and products: ccd's double-double
// stage and triangle_intersection's exact stage. (reference/ keeps its own copy on purpose:
// the oracle depends on nothing in fast/.) Round to nearest, no overflow assumed.
#pragma once
#include <cmath>

namespace contactbench::fast {

// a + b = hi + lo exactly.
inline void two_sum(double a, double b, double& hi, double& lo) {
  hi = a + b;
  const double bv = hi - a, av = hi - bv;
  lo = (a - av) + (b - bv);
}
// a - b = hi + lo exactly (two_sum on a and -b).
inline void two_diff(double a, double b, double& hi, double& lo) {
  hi = a - b;
  const double bv = a - hi, av = hi + bv;
  lo = (a - av) + (bv - b);
}
// a + b = hi + lo exactly, when |a| >= |b| or a = 0.
inline void fast_two_sum(double a, double b, double& hi, double& lo) {
  hi = a + b;
  lo = b - (hi - a);
}
// a·b = hi + lo exactly, when the error a·b - hi does not underflow.
inline void two_prod(double a, double b, double& hi, double& lo) {
  hi = a * b;
  lo = std::fma(a, b, -hi);
}

}  // namespace contactbench::fast
