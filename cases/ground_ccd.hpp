// The `ground_ccd` pair: the largest safe step along a search direction before any node
// reaches a horizontal ground y = y_ground (ipc-square-drop.txt, Implementation 8.3.2,
// BarrierEnergy.init_step_size):
//   alpha = 1;  for each node i with p_y < 0:  alpha = min(alpha, 0.9 * (y_ground - y_i) / p_y)
// Only the y components matter, so a query holds the nodes' heights and the y components
// of the search direction.
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <vector>

namespace contactbench::cases {

struct GroundCcdQuery {
  double y_ground = -1;    // ground height, metres (book: -1)
  std::vector<double> y;   // node heights, metres; precondition y_i > y_ground (no contact yet)
  std::vector<double> py;  // y component of each node's search direction, metres; same size
};

struct GroundCcdResult {
  // Step-size bound in (0, 1] for queries in the domain below: the book's 0.9 x (time of
  // impact), capped at 1 (dimensionless). Outside the domain the double formula may
  // underflow to 0 (a node 1e-320 above the ground) or overflow.
  double alpha = 1;
  // The node whose impact sets alpha: the first node (in node order) attaining the minimum,
  // as the book's loop keeps the earlier value on ties; -1 when no node brings alpha below 1.
  int binding = -1;
  // Reference only (fast leaves NaN; absent from the JSON output): exact relative gap
  // (c2 - c1) / c1 between the smallest candidate c1 and the runner-up c2 (the next
  // candidate in value, the cap 1 counted; 0 on an exact tie), +inf when there is no other
  // candidate, rounded upward: how far the query is from any change of `binding`. The comparison of a
  // mismatch uses the gap to the node the fast variant actually picked instead
  // (reference::ground_ccd_candidate_gap).
  double margin = std::numeric_limits<double>::quiet_NaN();
};

// The fast variant's stated domain (fast::ground_ccd_in_domain; its bounds are derived in
// fast/ground_ccd.hpp): |y_ground|, |y_i|, |p_i| <= 1e300; every node at least
// 1e-300 above the ground (y_i - y_ground in double); and for p_i < 0,
// (y_i - y_ground) / -p_i >= 1e-300. Then no difference overflows, every candidate
// 0.9 (y_g - y_i) / p_i is a normal double or exceeds 1, and alpha > 0. Outside it the
// double formula may underflow (a node 1e-320 above the ground: alpha 0) or overflow
// (y = 1e308 over y_g = -1e308); such queries are `out_of_domain`, and the reference,
// exact for every finite double, still answers them.
inline constexpr double ground_ccd_max_abs = 1e300;
inline constexpr double ground_ccd_min_gap = 1e-300;
bool ground_ccd_in_fast_domain(const GroundCcdQuery& q);

// Bad input only: throws InputError naming the field unless sizes match, n >= 1, everything
// finite and every node strictly above the ground (the precondition of a CCD: a node on or
// below the ground has already penetrated). Any magnitude is otherwise valid.
void validate(const GroundCcdQuery& q, const Where& where);

// The family's vocabulary (see cases/common.hpp).
struct GroundCcd {
  using Query = GroundCcdQuery;
  using Result = GroundCcdResult;
  // The square's bottom row, ties, the cap, touching (cases/ground_ccd.cpp).
  static std::vector<Named<Query>> canonical();
  // Generators with regime labels. Axes: config (mixed; approaching: every node moves down;
  // receding: none does; resting: p = +0 / -0; grazing: |p| << height, capped; deep:
  // |p| >> height, tiny alpha; near_cap: a candidate within 1e-16..1e-2 of the cap 1;
  // cap_exact: a candidate exactly 1 (dyadic 10/9 ratio); near_tie / tie: two nodes' candidates
  // within a relative 1e-16..1e-3, or exactly equal; touching: raw step exactly to the
  // ground (alpha 0.9); at_dhat: nodes exactly 0.01 above a ground at 0; on_ground: nodes one
  // ulp above the ground, resting or moving by ulps), nodes (1, few: 2-8,
  // many: 9-64), scale (1e-3, 1, 1e3), place (origin; far: the ground at ~1e6·scale from the
  // origin; high: nodes 1e3..1e6·scale above the ground), domain (inside; end: magnitudes
  // within 1e10 of the domain limits; outside: subnormal, 1e-320, 1e308 — reference only).
  // degenerate: the same on a dyadic grid, so ties, touching and the cap are exact.
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);  // margin only when set (reference)
  // JSON Lines record {"y_ground": -1, "y": [...], "py": [...]}; y_ground defaults to -1.
  // Numbers as JSON numbers or strings strtod reads ("0x1.8p-3"); any other key is
  // rejected. Bad input (validate) is one InputError naming the field (y[i], py[i]); any
  // finite magnitude is otherwise accepted (outside the fast domain the verdict is
  // out_of_domain, the reference answers).
  static Query from_json(const nlohmann::json& j, const Where& w);
};

}  // namespace contactbench::cases
