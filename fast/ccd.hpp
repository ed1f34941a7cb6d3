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
// parameters) hold on all of it; below such a sub-interval every root of f is a contact,
// so only f is subdivided and tested there (the first root of f is t*). Stage 1 (double)
// searches to width 2^-48. A leaf it can neither exclude nor prove goes to stage 2, in
// double-double arithmetic (bounds about 2^48 times smaller), over that leaf's aligned
// ancestor 4 levels up only (the block; 8, 12, ... levels for the next leaves of the same
// query, so a long stretch of near contact takes few blocks); when stage 2 excludes the
// block, stage 1 resumes after it. Stage 2 first places the root r of f in the block
// (Newton on f's coefficients, a guess) and tests the spans [b, r - h], [r - h, r + h],
// [r + h, e] with h = 8 e_f / |f'(r)|: f alone must exclude the outer two, every condition
// the middle one, else the middle span is the answer's leaf (toi = r - h; taken only when
// h <= 2^-92, as narrow as the bisection's leaves, else the block is bisected down to
// width 2^-100 instead). This settles contacts that no sub-interval can prove (touching at
// t = 0 or t = 1, a point on an edge, edges meeting at an endpoint) with a few span
// evaluations instead of ~100 levels of bisection. When f has no usable simple root (f
// identically or nearly zero: parallel edges, coplanar motion), a block of width <= 2^-40 is
// first swept (sweep_spans in ccd.cpp): the simple roots r of the other conditions (the
// inside conditions g_j, and for edge-edge the pairs' c_k) cut it into spans [cur, r - h],
// [r - h, r + h] (h = 8 e / |P'(r)| <= 2^-92), tested in order with every condition; the
// first span not excluded is the answer's leaf when it is such a middle span (width
// <= 2^-91, the same resolution as root-span leaves; everything before it excluded, so its
// left end bounds t* from below), else the block is bisected; all excluded: no contact in the
// block. At most ccd_max_spans_sweep span evaluations, counted in ccd_max_nodes_dd; after a
// sweep that fails the query bisects. The same spans are tried once per depth
// 12, 24, 36 of stage 1 on an interval it can neither exclude nor prove (a "jump"; at most
// ccd_max_nodes_jump span evaluations per query, and none after the first that fails).
// Root spans place r with one more Newton step in double-double (the double iterate is only
// within 2^-53 of the interval's width, far more than h on a jump's 2^-12). When an interval
// is excluded (a jump or a leaf's block), its aligned ancestors 4, 8, ... levels up are tried
// by f alone in double-double (one f-only span evaluation each, from the jump budget) and
// dropped while f excludes them, and so is each next interval the double search pops while
// that succeeds (a long near contact: coplanar motion, f within the double bound only); the
// ancestor that stops the growth (at depth >= 12) is refined at once, as the next leaf's
// block would be, without a second descent to depth 48. Where f has no usable root (parallel
// or coplanar edges), the span [known, known + 2^-92] at the start of a leaf or jump interval
// (everything before it excluded) is tested once per query with every condition: not
// excluded, it is the answer's leaf (contacts at t = 0). A sweep span that is not excluded is
// the answer's leaf when no wider than 2^-91, middle span or not. In stage 2 a proven
// interval of width 2^-48 is a leaf (as in stage 1) instead of bisecting f on to 2^-100.
// Stage 2 settles near misses a double cannot separate from a touch, and reports a hit when
// it cannot exclude everything. Coefficients on a sub-interval [ta, tb] are computed
// directly from the positions there (below), not by subdividing [0, 1]. A span evaluation
// that only asks "excluded?" stops at the first condition that excludes the span; in the
// bisection a condition certainly positive on an interval (a pair: both of one certain sign)
// is no longer split or tested below it, since it cannot exclude any sub-interval (ccd.cpp,
// Node::live).
//
// Certified error bound. Every coefficient is one expression tree of +, -, * on the
// rounded coordinate differences, of depth <= 13 (roundings along any path, the difference
// included). By the standard forward error bound (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., Lemma 3.1 and §3.1), |computed - exact| <= gamma_13 * A
// where A is the same tree on absolute values; we evaluate A alongside and use
// 16 u A + 2^-1022 (u = 2^-53; the slack covers the rounding of A itself and gradual
// underflow, each rounding there off by <= 2^-1075; it is the smallest normal double, so no
// bound is ever subnormal: subnormal operands cost ~100 cycles per operation and made the
// slowest queries, parallel edges with m = 0, 5x slower). Each de Casteljau halving adds at
// most d (u max|coef| + 2^-1022) to the bound of
// a degree-d polynomial (averages of bounded errors stay bounded). In double-double the
// differences are exact (TwoSum) and each operation has relative error <= 8u^2 (Joldes,
// Muller, Popescu 2017), giving 2^-97 A (12 roundings: 96 u^2 < 2^-99). On a sub-interval
// [ta, tb] (stage 2 only) the leaves are the differences at ta and tb,
// d(t) = (1 - t) d0 + t d1 with d0, d1 the exact differences at t = 0 and 1: three
// roundings along any path (1 - t, each product, the sum), each relative to its own exact
// result, so |computed - d(t)| <= gamma_3 ((1 - t)|d0| + t|d1|) and the leaf's magnitude is
// (1 - t)|d0| + t|d1| (no larger than at the ends; the form d0 + t (d1 - d0) has magnitude
// |d0| + t (|d0| + |d1|), up to 2^4 times worse for a degree-4 tree, which cost false
// positives on collapsing and parallel motions). The Bernstein coefficients of the
// products on [ta, tb] follow from the end values exactly as on [0, 1]. Depth 12 + 3 = 15
// roundings: gamma_15 at 8u^2 is 120 u^2 (1 + 2^-98) < 2^-99, so 2^-97 A still holds with a
// factor 4 of slack for evaluating A in double. All bounds are rounded up. Inputs beyond 2^200 in
// magnitude or non-finite values make the query report a hit at t = 0 (never silent).
//
// Guarantees: never misses a contact (hit is false only when no contact exists in exact
// arithmetic); when hit, toi <= t* (a certified lower bound). Worst case per query: at most
// ccd_max_nodes = 1000 double sub-intervals plus ccd_max_nodes_dd = 400 double-double ones
// (subdivisions or span evaluations) plus ccd_max_nodes_jump = 32 span evaluations,
// whatever the input (measured times: README, family ccd). Memory: the search
// stack lives on the heap, one per thread (about 0.2 MB, allocated on first use), so the
// function runs on small thread stacks; it is thread-safe and deterministic.
//
// Deviations from the reference, with the bounds the comparison rule holds them to.
// (1) False positives. A hit is reported either (a) because a sub-interval of the finest
// width survived every exclusion test ("resolution"), or (b) because the search was cut
// short: the node budget ran out, or the input is beyond 2^200 / non-finite, or the root
// coefficients overflow. (b) is flagged in the result (CcdResult::cut_short) and may be
// arbitrarily far from any contact; it never occurred on the public or generated sets. For
// (a) the stated bound is: the separation (minimum distance over the step / ccd_scale) is
// at most ccd_separation_bound = 2^-36. (A stage-2 leaf — a bisection leaf or a middle span
// of width 2h <= 2^-91 — is narrower than a double leaf and its bounds are smaller, so what
// follows holds for it a fortiori.) Derivation: at a surviving leaf every condition is
// within its certified error bound plus its variation over the leaf of the value contact
// needs: relative to its magnitude tree A, at most 16u (root) + 48 halvings x 4u + 2^-46
// (variation over a 2^-48 leaf) <= 2^-44 in the double stage (2^-92 in double-double). A
// is at most 2^6 L^d for a degree-d condition at scale L (<= 48 products of differences of
// size <= 2L, weights <= 1), and turning the residual of the plane / inside conditions
// into a distance costs the query's conditioning kappa (1/sin of the angles of the
// triangle or between the edges, L over the shortest edge): separation <= 2^-44 * 2^6 *
// kappa, i.e. <= 2^-36 for kappa <= 4. Worse-conditioned queries (slivers, nearly parallel
// edges) can in principle exceed it: the gate then reports `wrong`, on purpose — the bound
// is a claim to be tested, not a tolerance. Measured (public set + 40,000 generated): one
// false positive, erleben-spikes/edge-edge/data_0_0.csv:193, separation 4.8e-17 (2^-54).
// Issue 8 regimes (`check --family ccd --n 1000000`, seed 1: thin triangles down to 1e-4
// degrees, near-parallel edges, grazing, coplanar, rotating, degenerating, far placement,
// scales 2^-190 .. 2^190): 0 wrong; 18,566 false positives, all within half the bound (all
// from the rounded random generator's degenerate-at-contact motions: collapsing triangles /
// edges 11,072, parallel 7,493, and 1 public).
// (2) toi is a lower bound, not the rounded-down exact time: the left end of the first
// sub-interval that could not be excluded. When that sub-interval holds t*, the gap to the
// reference's toi (t* rounded down) is at most the leaf width 2^-48 plus one rounding
// 2^-53: ccd_toi_gap_bound = 2^-47. It is larger only when the search stopped earlier at a
// near contact it could not exclude (grazing and sliding motions approach the contact
// slowly); then the distance between the primitives at the reported toi obeys the
// resolution bound of (1), ccd_separation_bound, or the search was cut short. Measured on
// the same 47,279 queries: gaps up to 8.4e-12 (2^-36.8); among those above 2^-47 (2,273,
// all generated degenerate motions) the distance at toi is at most 7.0e-14 (2^-43.7).
// Issue 8 regimes (1e6 queries): 109,963 tois earlier than 2^-47, distance at toi at most
// 2.6e-8 of the scale (a 1e3-size sliver spinning through a point: 0.21 of its threshold,
// kappa clamped at 2^16); toi gaps within one leaf up to 2^-47.
// toi_up is NaN.
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
  bool root_spans = false;        // an interval was settled by the spans around f's root
  bool sweep = false;             // a block was settled by the sweep over other conditions' roots
  bool touch = false;             // the answer is a contact at the start of an interval (touch_at_known)
  bool grown = false;             // an excluded block was widened by f alone (Ask::grow)
};
cases::CcdResult ccd(const cases::CcdQuery& q, CcdTrace* trace);

// The fast variant's stated domain: every coordinate finite with magnitude <= 2^200 (the
// coefficient trees of degree <= 4 in coordinate differences stay below 2^810, far from
// overflow) and ccd_scale >= 2^-200
// (the absolute underflow slack 2^-1022 of the bounds stays below 2^-220 of a degree-4
// tree of that scale). Outside it ccd() still never misses (a cut-short hit at t = 0 beyond
// 2^200; below 2^-200 the slack dominates and hits are reported where nothing can be
// excluded), but the stated resolution bound is not claimed: the harness gives such
// queries the verdict out_of_domain.
bool ccd_in_domain(const cases::CcdQuery& q);

// Planted faults for the mutation test (harness/registry.cpp): the kernel with one
// realistic bug switched on. ee_cross_sign: w x db written db x w in the edge-edge inside
// condition (a sign error); drop_coplanar: a vanishing coplanarity cubic treated as "no
// crossing" (coplanar motions missed). Never used by the honest variant.
enum class CcdFault { none, ee_cross_sign, drop_coplanar };
cases::CcdResult ccd_planted(const cases::CcdQuery& q, CcdFault fault, CcdTrace* trace = nullptr);

// The instruction sets the search is compiled for (fast/ccd.cpp): the same answers and
// traces bit for bit on each; ccd() and ccd_planted() run the best one the CPU has. With an
// explicit isa (tests, benchmarks): that one, std::invalid_argument when the CPU lacks it.
enum class CcdIsa { baseline, avx2, avx512 };
CcdIsa ccd_best_isa();
bool ccd_isa_available(CcdIsa isa);
cases::CcdResult ccd_planted(const cases::CcdQuery& q, CcdFault fault, CcdTrace* trace, CcdIsa isa);

// The node budget and depth limit above (exposed for tests and the report).
inline constexpr int ccd_max_depth = 48;
inline constexpr int ccd_max_nodes = 1000;     // double stage
inline constexpr int ccd_max_depth_dd = 100;
inline constexpr int ccd_max_nodes_dd = 400;   // double-double stage
inline constexpr int ccd_max_nodes_jump = 32;  // double-double spans tried from the double stage
inline constexpr int ccd_max_spans_sweep = 6;  // spans of one sweep (part of ccd_max_nodes_dd)

// Stated bounds of the deviations (see "Deviations" above; the comparison rule of
// harness/pairs/ccd.hpp uses them).
inline constexpr double ccd_separation_bound = 0x1p-36;  // relative to cases::ccd_scale
// The bound of (1) with the query's own conditioning at time t instead of the assumed
// kappa <= 4: 2^-38 kappa, kappa = scale over the smallest altitude of the triangle
// (vertex-face) or over min(|ea|, |eb|) sin(angle) (edge-edge) at t, clamped to [4, 2^16].
// Primitives that degenerate at t (coincident vertices, parallel edges) have unbounded
// kappa: there the claim is capped at 2^-22 of the scale. Never below ccd_separation_bound.
double ccd_separation_bound_at(const cases::CcdQuery& q, double t);
inline constexpr double ccd_toi_gap_bound = 0x1p-47;     // toi units (t in [0, 1])
// The stated bounds for query q, the separation's at the fast variant's toi t (0 for a miss).
struct CcdBounds {
  double separation;  // relative to cases::ccd_scale
  double toi_gap;     // toi units
};
inline CcdBounds ccd_bounds(const cases::CcdQuery& q, double t) {
  return {ccd_separation_bound_at(q, t), ccd_toi_gap_bound};
}

}  // namespace contactbench::fast
