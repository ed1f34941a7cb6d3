// Internal to reference/src: the book's barrier (ipc-square-drop.txt, Implementation
// 8.3.1) on mpfr::mpreal (the reference's one MPFR wrapper, see cgal.hpp), in the book's
// order of operations, for the square-drop reference run (>= 128 bits). The `barrier` pair
// does not use it: it encloses the same terms rigorously (reference/src/barrier.cpp).
// Includes mpreal: never include from outside reference/src.
#pragma once
#include <mpreal.h>

namespace contactbench::reference::detail {

struct BarrierTermsMp {
  mpfr::mpreal value, gradient, hessian;
};

// For 0 < d < dhat. All operands carry the working precision; the formulas are the book's
// (its order of operations; at this precision the order no longer matters).
inline BarrierTermsMp barrier_terms_mp(const mpfr::mpreal& d, const mpfr::mpreal& dhat,
                                       const mpfr::mpreal& kappa, const mpfr::mpreal& area) {
  const mpfr::mpreal s = d / dhat;
  const mpfr::mpreal sm1 = (d - dhat) / dhat;
  const mpfr::mpreal ln_s = mpfr::log(s);
  const mpfr::mpreal a_dhat = area * dhat;
  BarrierTermsMp t;
  t.value = a_dhat * kappa / 2 * sm1 * ln_s;
  t.gradient = a_dhat * (kappa / 2 * (ln_s / dhat + sm1 / d));
  t.hessian = a_dhat * kappa / (2 * d * d * dhat) * (d + dhat);
  return t;
}

}  // namespace contactbench::reference::detail
