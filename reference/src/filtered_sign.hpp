// Internal to reference/src: the filtered decision (CGAL's filtered predicates, as one
// helper). A decision is first evaluated once in interval arithmetic on the double inputs;
// if every sign it needs is certain (no interval contains 0, or an interval is exactly 0),
// that is the exact answer. Otherwise it is evaluated again in exact arithmetic. The
// decision's margin (how far the query is from flipping it) is the family's own exact
// construction, computed afterwards where the family needs it.
#pragma once
#include "reference/src/exact_vector.hpp"

#include <CGAL/FPU.h>
#include <CGAL/Interval_nt.h>
#include <CGAL/Uncertain.h>
#include <gmpxx.h>

#include <optional>

namespace contactbench::reference::exact {

using Interval = CGAL::Interval_nt<false>;  // sound only with ProtectRounding in scope
using ProtectRounding = CGAL::Protect_FPU_rounding<true>;

// The pattern: approx() runs with rounding protected and returns std::optional<R>, empty
// when a sign it needed was uncertain; decide_exactly() returns the R it then decides.
template <class Approx, class Exact>
auto filtered(Approx&& approx, Exact&& decide_exactly) {
  {
    ProtectRounding guard;
    if (auto r = approx()) return *r;
  }
  return decide_exactly();
}

// The sign of f(points...) for one expression f written once as a generic callable over
// Vector3<T> arguments, e.g. orientation.cpp's
//   [](const auto& a, const auto& b, const auto& c, const auto& d) {
//     return dot(cross(b - a, c - a), d - a); }
// It must return the scalar T itself, not a GMP expression template of its own temporaries.
// The points are 3-vectors of doubles; the exact stage uses rationals, valid for any f.
namespace detail {
template <class F, class... Points>
std::optional<int> certain_interval_sign(F& f, const Points&... points) {  // rounding protected
  const CGAL::Uncertain<CGAL::Sign> s = CGAL::sign(f(Vector3<Interval>::of(points)...));
  if (!CGAL::is_certain(s)) return std::nullopt;
  return static_cast<int>(CGAL::get_certain(s));
}
}  // namespace detail

// The filter alone: the sign when the interval decides it, else nothing.
template <class F, class... Points>
std::optional<int> interval_sign(F&& f, const Points&... points) {
  ProtectRounding guard;
  return detail::certain_interval_sign(f, points...);
}

// The exact stage alone.
template <class F, class... Points>
int exact_sign(F&& f, const Points&... points) {
  const mpq_class value = f(Vector3<mpq_class>::of(points)...);
  return sgn(value);
}

// The exact sign: the interval filter, else rationals.
template <class F, class... Points>
int filtered_sign(F&& f, const Points&... points) {
  return filtered([&] { return detail::certain_interval_sign(f, points...); },
                  [&] { return exact_sign(f, points...); });
}

}  // namespace contactbench::reference::exact
