// Scenario smeets_figures (issue 11, item 4): the data of the Smeets figures from exact
// constructions (cases/smeets_figures.hpp), reference and fast kernels side by side —
//   s1: the two triangles, their spheres' centres and their projections onto the contact plane;
//   s2: in plane coordinates (y, z): P', Q', the contact circle, c, S and c_p;
//   delta_t_of_h: δ_t against the offset h for one pair of spheres (R1 = 1, R2 = 1/2, centre
//       distance 5/4): the reference and fast kernels on queries whose c_p is at offset h,
//       and the closed-form curve fast::delta_t_curve.
// `contactbench run smeets_figures` writes <out_dir>/smeets_figures.json (contactbench.run/1).
// Returns 1 when the family's rule judges any of these queries wrong.
#pragma once
#include "harness/scenario.hpp"

namespace contactbench::harness {
int run_smeets_figures(const ScenarioOptions& o);
}  // namespace contactbench::harness
