// Internal to reference/src: the book's ground CCD (ipc-square-drop.txt, Implementation
// 8.3.2) in exact rational arithmetic (gmpxx), shared by the `ground_ccd` pair and the
// square-drop reference run. Never include from outside reference/src.
#pragma once
#include <gmpxx.h>
#include <mpfr.h>

#include <cstddef>
#include <limits>
#include <stdexcept>

namespace contactbench::reference::detail {

struct GroundCcdExact {
  mpq_class alpha;  // exact min(1, min_i 9/10 (y_ground - y_i) / p_i)
  int binding = -1;
  mpq_class runner_up;  // next larger distinct candidate (the cap 1 included)
  bool has_runner_up = false;
};

// get(i) returns the pair (y_i, p_i) as exact rationals.
template <class Get>
GroundCcdExact ground_ccd_exact(std::size_t n, const mpq_class& y_ground, Get get) {
  static const mpq_class nine_tenths(9, 10);
  GroundCcdExact r;
  r.alpha = 1;
  // Candidates in node order, the cap 1 first (the book's initial alpha).
  bool have_second = false;
  mpq_class second;
  for (std::size_t i = 0; i < n; ++i) {
    const auto [y, p] = get(i);
    if (!(y > y_ground)) throw std::domain_error("ground_ccd: node on or below the ground");
    if (sgn(p) >= 0) continue;
    mpq_class c = nine_tenths * (y_ground - y) / p;
    if (c < r.alpha) {  // new minimum: the old one becomes the runner-up
      second = r.alpha;
      have_second = true;
      r.alpha = c;
      r.binding = static_cast<int>(i);
    } else if (c == r.alpha) {  // exact tie: the decision between the two has margin 0
      second = c;
      have_second = true;
    } else if (!have_second || c < second) {
      second = c;
      have_second = true;
    }
  }
  r.runner_up = second;
  r.has_runner_up = have_second;
  return r;
}

}  // namespace contactbench::reference::detail
