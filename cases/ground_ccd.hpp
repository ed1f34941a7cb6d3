// The `ground_ccd` pair: the largest safe step along a search direction before any node
// reaches a horizontal ground y = y_ground (ipc-square-drop.txt, Implementation 8.3.2,
// BarrierEnergy.init_step_size):
//   alpha = 1;  for each node i with p_y < 0:  alpha = min(alpha, 0.9 * (y_ground - y_i) / p_y)
// Only the y components matter, so a query holds the nodes' heights and the y components
// of the search direction.
#pragma once
#include "cases/common.hpp"

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
  // candidate: how far the query is from any change of `binding`. The comparison of a
  // mismatch uses the gap to the node the fast variant actually picked instead
  // (reference::ground_ccd_candidate_gap).
  double margin = std::numeric_limits<double>::quiet_NaN();
};

// The domain of the pair's stated bounds (enforced by validate()): |y_ground|, |y_i|,
// |p_i| <= 1e300; every node at least 1e-300 above the ground (y_i - y_ground in double);
// and for p_i < 0, (y_i - y_ground) / -p_i >= 1e-300. Then no difference overflows, every
// candidate 0.9 (y_g - y_i) / p_i is a normal double or exceeds 1, and alpha > 0.
inline constexpr double ground_ccd_max_abs = 1e300;
inline constexpr double ground_ccd_min_gap = 1e-300;

// Throws InputError naming the field unless sizes match, n >= 1, everything finite, every
// node strictly above the ground and the query in the domain above.
void validate(const GroundCcdQuery& q, const Where& where);

// random: 1..32 nodes at heights log-uniform over [1e-6, 1] x scale above a random ground,
// directions of either sign, some zero. degenerate: dyadic grid; p_y = 0, p_y > 0, nodes
// exactly d̂ = 0.01 above the ground, steps that reach the ground exactly (y + p_y = y_ground,
// raw ratio 1), repeated nodes (exact ties), ratios exactly 1/0.9-ish near the cap.
GroundCcdQuery random_ground_ccd(Rng& rng);
GroundCcdQuery degenerate_ground_ccd(Rng& rng);

}  // namespace contactbench::cases
