// Scenario smeets_hertz (issue 11, item 4): the Smeets paper's headline validation rebuilt
// from our kernels — the normal force between two meshed spheres, summed over facet pairs of
// rounded-triangle contacts, converging to the analytic Hertz force as the icospheres are
// refined (20 … 20,480 triangles). `contactbench run smeets_hertz` writes
// <out_dir>/smeets_hertz.json (schema contactbench.run/1).
//
// The supplementary text (../shared/sources/smeets-rounded-triangles-supplementary.txt) gives
// the contact geometry only, not the force law; our law, stated here and in the README:
//   * Bodies: two icospheres of radius R (cases/icosphere.hpp), centres c1 and c2 = c1 +
//     (2R − δ)·e along a fixed generic unit direction e, the same mesh translated. Each facet's
//     encompassing sphere is its body's sphere (every vertex lies on it), with the radius
//     enlarged by 2^-40 relative so that it contains the rounded vertices (the method's
//     premise; cases::RoundedTriangleContact::from_json rejects a sphere that does not).
//     So every facet pair shares one contact plane, centre c and contact circle radius r_c.
//   * Per facet pair (P of body 1, Q of body 2) in contact (the pair's `contact` flag):
//     F_PQ = p(δ_t) · A_PQ, with A_PQ the area of S ∩ disc(c, r_c) (Figure S2's dark red
//     area) and the Hertz pressure written through the local overlap at c_p,
//       p(δ_t) = (2E*/π) · sqrt(max(0, 2δ_t − δ_s) / R*),
//     which is Hertz's p0·sqrt(1 − r²/a²) (a² = R*δ, p0 = 2E*a/(πR*)) when δ_t takes its
//     parabolic form δ_s − r²/(2R*). R* = R1R2/(R1 + R2) = R/2; E* the effective modulus.
//   * The force is the sum over facet pairs; its direction is e by symmetry and is not used.
//   * Broad phase: a facet can only take part if it faces the other body (eq. 37's test for
//     its own normal) and its projection onto the contact plane can meet disc(c, r_c)
//     (bounding circle of the projected triangle, with slack); every pair of such facets of
//     the two bodies is a candidate. A pair missed has S ∩ disc empty, i.e. no force.
// What converges to what. The facing facets' projections tile each body's silhouette, which
// contains the disc, so the S ∩ disc of the candidate pairs tile the disc, and δ_t at c_p is
// the largest δ_t on S: F_mesh = ∫_disc p(δ_t(c_p(x))) dx >= F_limit = ∫_disc p(δ_t(|x|)) dx,
// and with every S of diameter <= d (a facet edge bounds it), |c_p(x)| >= |x| − d gives
// F_mesh <= F_limit + B(d), B(d) = ∫ [p(max(0, r − d)) − p(r)] 2πr dr. F_limit differs from
// Hertz's 4/3·E*·sqrt(R*)·δ^(3/2) only because the spheres' δ_t(h) is not exactly parabolic:
// a floor of relative size O(δ/R) that mesh refinement cannot remove.
#pragma once
#include "cases/mesh.hpp"
#include "cases/rounded_triangle_contact.hpp"
#include "harness/scenario.hpp"

#include <array>
#include <vector>

namespace contactbench::harness {

int run_smeets_hertz(const ScenarioOptions& o);

namespace smeets {

using V2 = std::array<double, 2>;

// Hertz: F = 4/3 E* sqrt(R*) δ^(3/2).
double hertz_force(double e_star, double r_star, double delta);
// The per-facet-pair pressure law above: (2E*/π) sqrt(max(0, 2δ_t − δ_s)/R*).
double pair_pressure(double e_star, double r_star, double delta_s, double delta_t);
// Area of the convex polygon `poly` (counter-clockwise or clockwise; fewer than 3 vertices:
// 0) intersected with the disc of radius r about the origin.
double polygon_disc_area(const std::vector<V2>& poly, double r);

// Two equal spheres of radius R at centre distance 2R − δ: the law's quantities as functions
// of the lateral offset r from the contact axis.
struct SpherePair {
  double radius, delta, e_star;
  double r_star() const { return radius / 2; }
  double rc() const;                   // contact circle radius
  double delta_t(double r) const;      // eq. (36) with the README's sign fix, r <= rc
  double pressure(double r) const;     // pair_pressure at δ_t(r)
  double support() const;              // the r where the pressure falls to 0 (2δ_t = δ_s)
  double limit_force() const;          // ∫_disc pressure: the law's mesh-independent limit
  double excess_bound(double d) const; // B(d) above
};

// One level × overlap of the sweep (fast kernel).
struct HertzRow {
  int level = 0, triangles = 0;
  double overlap = 0;  // δ / R
  int candidates_p = 0, candidates_q = 0;  // facets of body 1 and 2 past the broad phase
  long pairs = 0, contact_pairs = 0;
  double max_edge = 0;  // longest facet edge (bounds every S's diameter)
  double force = 0, hertz = 0, limit = 0, excess_bound = 0;
};

// The geometry of one sweep point: both bodies' meshes (the same icosphere translated) and
// the candidate facet pairs as rounded-triangle queries.
struct HertzSetup {
  cases::Vec3 direction;  // e
  double radius = 1, e_star = 1, delta = 0;
  cases::Vec3 c1, c2;
  double enclosing_radius = 0;
  std::vector<cases::RoundedTriangleContactQuery> pairs;
  int candidates_p = 0, candidates_q = 0;
};
// mesh: an icosphere of radius `radius` about the origin; overlap = δ / R.
HertzSetup hertz_setup(const cases::Mesh& mesh, double radius, double e_star, double overlap);
// F_PQ of one pair from a kernel's result: pressure at δ_t times area(S ∩ disc(c, r_c)).
double pair_force(const cases::RoundedTriangleContactQuery& q,
                  const cases::RoundedTriangleContactResult& r, double e_star);
// The sweep point with the fast kernel.
HertzRow hertz_row(const cases::Mesh& mesh, int level, double radius, double e_star,
                   double overlap);

// The fixed generic direction of the contact axis (unit).
cases::Vec3 hertz_direction();

}  // namespace smeets
}  // namespace contactbench::harness
