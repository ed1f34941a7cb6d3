// Scenarios of the PFC faceted-wall cases with motion (issue 10 item 4; Itasca PFC manual
// "Faceted Walls", ../shared/sources/pfc-faceted-walls.txt): a sphere pressed into a wall
// with overlap delta and moved along a PRESCRIBED path (dem::Stepper::step_prescribed: the
// contacts and their state evolve, the forces do not move the sphere), so every mode and
// both kernel sets see the same positions and the force histories are comparable point for
// point.
//   pfc_coplanar     Figures 4 and 9: translated across a coplanar multi-facet wall; compared
//                    with the same motion on one large facet.
//   pfc_convex_edge  Figure 5: carried around a convex edge at constant distance.
//   concave_edge     Figures 6 and 11: moved into a concave edge and up the far side.
//   pfc_holes        Figure 10: translated across a wall without a hole, with a one-cell hole
//                    and with a gap across the whole wall, and across a hexagonal fan whole
//                    and without its facet 1 (full mode).
// Each runs in every contact mode (raw, smoothed, pfc_reduced, pfc_full, pfc_pc; pfc_holes:
// pfc_full) with the fast and the reference kernels in lockstep: the active sets are
// compared at every step (a difference that pfc_resolution's comparison rule excuses on the
// fast run's query is `boundary`, reported; one where both runs' own queries agree but the
// inputs carried from an earlier boundary step differ is `history`, reported; any other is
// `wrong`, exit 1), and the contact forces within a bound derived from the fast kernel's
// stated bounds (pfc_walls.cpp) unless a boundary step made the runs part.
// `contactbench run <name>` writes <out_dir>/<name>.json (schema contactbench.run/1).
#pragma once
#include "harness/scenario.hpp"
#include "harness/scenarios/dem.hpp"

#include <memory>
#include <string>
#include <vector>

namespace contactbench::harness {

int run_pfc_coplanar(const ScenarioOptions& o);
int run_pfc_convex_edge(const ScenarioOptions& o);
int run_concave_edge(const ScenarioOptions& o);
int run_pfc_holes(const ScenarioOptions& o);

namespace pfc_walls {

using cases::Vec3;

// A wall extruded along y over [0, width] in `ny` cells from a profile in the xz plane
// (points in order of increasing arc length; the wall's normals point to the left of the
// profile's direction, i.e. up for a profile along +x), each cell split by its diagonal
// into two facets: cell (i, j) (segment i, row j) holds facets 2 (i ny + j) and +1, without
// the cells listed in `skip` (as i * ny + j).
cases::Mesh extruded_wall(const std::vector<std::array<double, 2>>& profile, double width, int ny,
                          const std::vector<int>& skip = {});

// The profile of two straight parts meeting at x = 0, z = 0: from x = -length to 0 along +x,
// then `length` along the direction at angle `angle` (radians) above +x (> 0: concave edge,
// < 0: convex), each part split into `strips` equal segments.
std::vector<std::array<double, 2>> fold_profile(double length, double angle, int strips);

// A flat hexagon of `radius` around `centre` (z = 0) split into six facets (V, P_k, P_k+1),
// P_k at angle 60k degrees, normals up, without the facets listed in `skip` (k).
cases::Mesh hexagon_fan(const Vec3& centre, double radius, const std::vector<int>& skip = {});

// One prescribed run sampled every step.
struct Series {
  std::vector<double> s;                 // path position (m) as the scenario defines it
  std::vector<Vec3> centre, force;       // centre (m), total contact force (N)
  std::vector<int> active, acting, proximity;  // resolution's active contacts, acting contacts
                                               // (a PC counts once), proximity contacts
  std::vector<std::vector<Vec3>> normals;      // acting contacts' normals (towards the sphere)
  std::vector<std::vector<double>> normal_force;  // acting contacts' normal forces (N)
  std::vector<std::vector<int>> facets;        // acting contacts' first facets
  std::vector<std::vector<std::string>> why;   // acting contacts' inheritance reasons
  std::vector<std::string> signature;          // active set: facets, PC groups, inheritance
  double point_bound = 0;  // largest stated wall-point bound of the fast kernel, relative to R
};

// The active set of a stepper's last step as one comparable string.
template <class K>
std::string signature(const dem::Stepper<K>& st);

// Result of running fast and reference in lockstep along `path` (centres, one per step
// boundary; the sphere starts at path[0]).
struct Lockstep {
  Series fast, reference;
  long steps = 0, agree = 0, boundary = 0, history = 0, wrong = 0;
  std::vector<long> boundary_steps, wrong_steps;
  std::vector<std::array<std::string, 2>> wrong_detail;  // fast and reference signatures (first 5)
  double max_force_difference = 0;  // N
  double force_bound = 0;           // N
};

// Runs the path with the fast kernels, and (when `with_reference`) with the reference
// kernels in lockstep up to `reference_steps` steps. `position` maps a centre to the
// series' path position.
Lockstep run_path(std::shared_ptr<const cases::Mesh> wall, const dem::Params& p,
                  const std::vector<Vec3>& path, const std::vector<double>& position,
                  bool with_reference, long reference_steps);

}  // namespace pfc_walls
}  // namespace contactbench::harness
