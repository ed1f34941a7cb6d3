// Scenario pfc_static (issue 10, Figures 7 and 8 of the PFC manual page "Faceted Walls"):
// static contact resolutions of one ball against a wall, fast and reference.
//
//   rough wall (Figure 7)  a nominally flat wall with small dyadic height perturbations; for
//                          each cutoff angle Theta and mode (reduced, full): the active
//                          contacts, the proximity contacts, the effective number of contacts
//                          (active contacts outside a proximity contact + proximity contacts)
//                          and the effective normal stiffness k_eff / k_n;
//   slivers (Figure 8)     a thin wedge and stacked segments: `reduced` leaves several active
//                          contacts, `full` one.
//
// `contactbench run pfc_static` writes <out_dir>/pfc_static.json (schema contactbench.run/1,
// scenario "pfc_static"). With --variant both, every resolution is judged by the
// pfc_resolution family's rule; the run fails (exit 1) only on a `wrong` verdict, a
// difference of active sets judged `boundary` is reported.
#pragma once
#include "cases/pfc_resolution.hpp"
#include "harness/scenario.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace contactbench::harness {

int run_pfc_static(const ScenarioOptions& o);

namespace pfc_static {

using cases::Vec3;

// The rough wall: pfc_grid_wall(cells, cells, h, z, 1) (alternating diagonals, normals up),
// z at each vertex amplitude * k / 4 with k uniform in {-4, ..., 4} from the seed's stream
// (exact for a dyadic amplitude); amplitude 0 gives the flat grid.
cases::Mesh rough_wall(int cells, double h, double amplitude, std::uint64_t seed);

// cos(Theta) for Theta in whole degrees [0, 180], converted once: exact at 0, 60, 90, 120,
// 180 degrees (1, 1/2, 0, -1/2, -1), std::cos(Theta pi / 180) rounded otherwise.
double cos_of_degrees(int degrees);

// What a resolution amounts to for a linear contact law (force k_n U per contact, along -n)
// pressed along the wall's unit normal N.
//   effective  active contacts outside any proximity contact, plus the proximity contacts;
//   k_eff      d(F.N)/d(delta), delta the ball's displacement along -N, relative to k_n, with
//              the contact normals frozen (their rotation adds terms of relative order U/R):
//              a single contact i: U_i grows by -(n_i.N) delta, its force -k_n U_i n_i has
//              N-component -k_n U_i (n_i.N), so it adds (n_i.N)^2; a proximity contact (mean
//              overlap, normal n_pc) adds (n_pc.N) * mean_k(n_k.N);
//   k_no_pc    the same without proximity contacts: sum over active contacts of (n_i.N)^2.
// A flat wall gives 1 (one contact, n = -N).
struct Summary {
  int contacts = 0, positive = 0, active = 0, proximity = 0, effective = 0;
  int active_face = 0, active_edge = 0, active_vertex = 0;  // regions of the active wall points
  double k_eff = 0, k_no_pc = 0;
};
Summary summarize(const cases::PfcResult& r, const Vec3& wall_normal);

// The query of a ball (centre x, radius r) against `wall`, all sides active, no previous step.
cases::PfcQuery ball_query(std::shared_ptr<const cases::Mesh> wall, const Vec3& x, double r,
                           cases::PfcMode mode, double cos_cutoff);
// The facets of the active contacts, ascending.
std::vector<int> active_facets(const cases::PfcResult& r);

// Figure 8's walls, as the scenario builds them: (a) pfc_wedge_wall(1, wedge_height) with the
// ball at (2, 1, 1), R = 1.5; (b) pfc_segments_wall(1, spacing, layers, shifts, false) with
// the ball at (0, 0, 0.5), R = 1.25 (shifts (0,0), (1/4,0), (0,1/4) repeating).
cases::PfcQuery wedge_query(double wedge_height, cases::PfcMode mode);
cases::PfcQuery segments_query(int layers, double spacing, cases::PfcMode mode);

}  // namespace pfc_static
}  // namespace contactbench::harness
