// Conservative double-precision continuous collision detection (vertex-face, edge-edge) over
// t in [0, 1]. Problem and public query set: Wang et al., ACM TOG 40(5) 188, 2021.
//
// Method. Every contact satisfies polynomial conditions in t that hold in all cases,
// degenerate ones included:
//   vertex-face: f(t) = det(b-a, c-a, p-a) = 0 and g_k(t) = n . (e_k x (p - v_k)) >= 0 for
//                the three edges e_k = v_{k+1} - v_k, n = (b-a) x (c-a)  (g_k = barycentric
//                coordinate times |n|^2);
//   edge-edge:   f(t) = det(a1-a0, b1-b0, b0-a0) = 0 and, with m = (a1-a0) x (b1-b0), the
//                intersection parameters times |m|^2 lie in [0, |m|^2];
//   point-edge (used for parallel edges): (p-x) x (y-x) = 0, 0 <= (p-x).(y-x) <= |y-x|^2.
// Their Bernstein coefficients over [0, 1] are computed in double together with a certified
// absolute error bound (below); [0, 1] is then bisected depth-first, earliest half first,
// with de Casteljau subdivision. A sub-interval is excluded when the coefficients, widened
// by their error bound, prove f != 0 or some g_k < 0 on it (convex-hull property of the
// Bernstein form). The first sub-interval that reaches the depth limit (width 2^-48) or the
// node budget unexcluded is reported as a hit at its left end.
//
// Certified error bound. Every coefficient is one expression tree of +, -, * on the
// rounded coordinate differences, of depth <= 13 (roundings along any path, the difference
// included). By the standard forward error bound (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., Lemma 3.1 and §3.1), |computed - exact| <= gamma_13 * A
// where A is the same tree on absolute values; we evaluate A alongside and use
// 16 u A + 2^-1060 (u = 2^-53; the slack covers the rounding of A itself and gradual
// underflow). Each de Casteljau halving adds at most d u max|coef| + 2^-1070 to the bound of
// a degree-d polynomial (averages of bounded errors stay bounded). All bounds are rounded up.
// Inputs beyond 2^200 in magnitude or non-finite intermediate values make the query report
// a hit at t = 0 (conservative, never silent).
//
// Guarantees: never misses a contact (hit is false only when no contact exists in exact
// arithmetic); when hit, toi <= t* (a certified lower bound). Worst case per query: at most
// 1000 visited sub-intervals (each a fixed ~200 flops), plus a 4-point-edge pass for edge-edge
// queries with parallel edges: a fixed bound, about 100 microseconds, independent of the input.
//
// Deviations from the reference. (1) It may report a hit that does not exist (a false
// positive) when the query is within the error bound of touching, when the depth limit or
// node budget is reached, or for degenerate primitives (a triangle degenerate at the time of
// a near contact, parallel edges that are not separated along a coordinate axis). (2) toi is
// a lower bound, not the rounded-down exact time: it is the left end of a sub-interval of
// width 2^-48 for true hits found at full depth, and may be arbitrarily smaller when an
// earlier near miss could not be excluded. toi_up is NaN.
#pragma once
#include "cases/ccd.hpp"

namespace contactbench::fast {

cases::CcdResult ccd(const cases::CcdQuery& q);

// What the search did on one query (for the report and tests): visited sub-intervals and
// whether the answer came from the node budget rather than from the depth limit.
struct CcdTrace {
  int nodes = 0;                  // both stages
  bool second_stage = false;      // the double-double stage ran
  bool budget_exhausted = false;  // some stage stopped on its node budget
};
cases::CcdResult ccd(const cases::CcdQuery& q, CcdTrace* trace);

// The node budget and depth limit above (exposed for tests and the report).
inline constexpr int ccd_max_depth = 48;
inline constexpr int ccd_max_nodes = 1000;     // double stage
inline constexpr int ccd_max_depth_dd = 100;
inline constexpr int ccd_max_nodes_dd = 400;   // double-double stage

}  // namespace contactbench::fast
