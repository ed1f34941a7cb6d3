// Reference of the ellipsoid_contact pair. No CGAL or MPFR here: the implementation lives in
// reference/src/ellipsoid_contact.cpp.
#pragma once
#include "cases/ellipsoid_contact.hpp"

#include <array>

namespace contactbench::reference {

// Every finite input (Wang, Wang & Kim 2001; sources/README.md "Vyatkin & Dolgovesov").
// State: the number of distinct positive roots of f(λ) = det(λA + B) (2 separated, 1
// touching, 0 overlapping), exact: an interval filter certifies it when it can (separated:
// f(μ) > 0 at one μ > 0, so with f(0) < 0 and f(+∞) < 0 two positive roots; overlapping: a
// point strictly inside both, so the interiors meet and, by the theorem, no positive root),
// and otherwise a Sturm count on f's exact rational coefficients decides. Roots: exact
// (isolated, rounded to nearest) on the exact path; on the filtered path MPFR Newton (128
// bits) from double brackets, rounded once. F, point, normal and overlap: Perram–Wertheim in
// A's unit-sphere frame, solved in double and refined by Newton in MPFR (128 bits), rounded
// once; F = 1 exactly when touching. Margin: |√F − 1| rounded up (0 when touching).
// Filtered: when the state was decided by the interval filter, these constructions are first
// evaluated in double-double with an error bound and taken when each rounds to one certain
// double (the one MPFR gives); otherwise MPFR as above.
cases::EllipsoidContactResult ellipsoid_contact(const cases::EllipsoidContactQuery& q);
// For tests: the same answer with every construction in MPFR (no double-double stage).
cases::EllipsoidContactResult ellipsoid_contact_mpfr(const cases::EllipsoidContactQuery& q);

// The state alone (its index in cases::ellipsoid_state_names), exact: the interval filter
// (stage 1), else a double-double certificate (2: F bracketed at Perram–Wertheim's point,
// one Newton step beyond a double maximiser, with running error bounds), else the exact
// Sturm count (3); `stage` (optional) says which decided. With t0 in (0, 1) (a double
// maximiser the caller already has: harness::ellipsoid_contact_certified_state passes the
// fast stage's) the double-double certificate runs first from t0, skipping this side's own
// double maximisation; then the filter. ellipsoid_contact decides the same state by 1 and 3
// alone. The escalation of harness::ellipsoid_contact_certified_state.
int ellipsoid_contact_state(const cases::EllipsoidContactQuery& q, int* stage = nullptr, double t0 = -1);

// For tests: f's coefficients c_0..c_4 (f(λ) = Σ c_i λ^i), exact, rounded to nearest.
std::array<double, 5> ellipsoid_characteristic(const cases::EllipsoidContactQuery& q);
// For tests: the distinct positive roots of f counted by the exact Sturm path alone (no
// filter), and the filter's count (-1 when the filter cannot decide).
int ellipsoid_positive_roots_exact(const cases::EllipsoidContactQuery& q);
int ellipsoid_positive_roots_filtered(const cases::EllipsoidContactQuery& q);

}  // namespace contactbench::reference
