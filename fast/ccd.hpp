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
//   and, from the contact point's parameters (p-a = u(b-a) + v(c-a); w = s da - u db), the
//   squared-norm conditions |(b-a)x(p-a)|^2, |(p-a)x(c-a)|^2, |(b-p)x(c-p)|^2 <= |n|^2
//   (vertex-face) and |w x db|^2, |w x da|^2 <= |m|^2 (edge-edge), which stay informative
//   when the triangle degenerates or the edges are parallel (n, m = 0); for edge-edge also
//   the component-wise |(w x db)_k|, |(w x da)_k| <= |m_k| as sign pairs of quadratics
//   (m_k - c_k, m_k + c_k never strictly opposite), linear in the gap between nearly
//   parallel edges, so they separate them down to the error bound.
// Their Bernstein coefficients over [0, 1] are computed in double together with a certified
// absolute error bound (below); [0, 1] is then bisected depth-first, earliest half first,
// with de Casteljau subdivision. A sub-interval is excluded when the coefficients, widened
// by their error bound, prove f != 0 or some g_k < 0 on it (convex-hull property of the
// Bernstein form), or when the swept axis-aligned boxes of the two primitives over it are
// disjoint. A sub-interval is proven to hold a contact when f has certified opposite signs
// at its ends and the strict inside conditions (g_k > 0 for the barycentric / intersection
// parameters) hold on all of it. Stage 1 (double) stops at the first unexcluded
// sub-interval of width 2^-48 (or on its node budget); if a contact was proven on the way
// the answer is final. Otherwise stage 2 repeats the search in double-double arithmetic
// (bounds about 2^48 times smaller, width down to 2^-100): it settles near misses a double
// cannot separate from a touch, and reports a hit when it cannot exclude everything.
//
// Certified error bound. Every coefficient is one expression tree of +, -, * on the
// rounded coordinate differences, of depth <= 13 (roundings along any path, the difference
// included). By the standard forward error bound (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., Lemma 3.1 and §3.1), |computed - exact| <= gamma_13 * A
// where A is the same tree on absolute values; we evaluate A alongside and use
// 16 u A + 2^-1060 (u = 2^-53; the slack covers the rounding of A itself and gradual
// underflow). Each de Casteljau halving adds at most d u max|coef| + 2^-1070 to the bound of
// a degree-d polynomial (averages of bounded errors stay bounded). In double-double the
// differences are exact (TwoSum) and each operation has relative error <= 8u^2 (Joldes,
// Muller, Popescu 2017), giving 2^-97 A. All bounds are rounded up. Inputs beyond 2^200 in
// magnitude or non-finite values make the query report a hit at t = 0 (never silent).
//
// Guarantees: never misses a contact (hit is false only when no contact exists in exact
// arithmetic); when hit, toi <= t* (a certified lower bound). Worst case per query: at most
// ccd_max_nodes = 1000 double sub-intervals (~0.1 us each here) plus ccd_max_nodes_dd = 400
// double-double ones (~0.75 us each): about 0.5 ms, whatever the input. Measured on this
// machine (best of 5, `contactbench run ccd_public`): public set median 0.15 us, mean
// 1.7 us, slowest 90 us; 20,000 generated queries slowest ~150 us. Memory: the search
// stack lives on the heap, one per thread (about 0.2 MB, allocated on first use), so the
// function runs on small thread stacks; it is thread-safe and deterministic.
//
// Deviations from the reference. (1) It may report a hit that does not exist (a false
// positive) when the query is within the double-double error bound of touching (about
// 1e-29 relative), when a near miss needs sub-intervals finer than 2^-100 or more nodes than
// the budgets, or for degenerate primitives the extra conditions do not separate. On the
// public set: 1 false positive (erleben-spikes/edge-edge, separation ~5e-17 of the scale). (2) toi is a
// lower bound, not the rounded-down exact time: the left end of the first sub-interval that
// could not be excluded (width 2^-48 or 2^-100 when found at full depth), possibly much
// smaller when an earlier near miss could not be excluded. toi_up is NaN.
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
