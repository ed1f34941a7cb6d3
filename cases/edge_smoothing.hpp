// Edge smoothing (Woo, "Smooth triangulation edge contacts",
// ../shared/sources/woo-smooth-triangulation-edge-contacts.txt; the complete rule and our
// orientation / zone-order / vertex-cone / green-zone decisions are in
// ../shared/sources/README.md, section "Woo").
//
// A sphere (centre, radius) touches facet `facet` of a mesh. Its closest feature on that
// facet (closest_feature pair) is the open face, an open edge or a vertex. The original
// contact normal is n = (centre - closest point) / |centre - closest point|. Smoothing
// re-points contacts on internal edges and internal vertices:
//   n1 = facet's right-hand normal as stored, n2 = neighbour's right-hand normal flipped
//   when the two facets traverse the shared edge in the same direction; n_lim = n1.n2,
//   o_lim = |n1 x n2| = sqrt(1 - n_lim^2). Tested in this order, first match wins:
//   blue   n_lim <= n.n1          : n' = n, point = closest point
//   red    -o_lim < n.n1 < n_lim  : n' = n2, point = centre projected onto the plane through
//                                   the edge with normal n2
//   green  otherwise              : n' = -n1, point = centre projected onto the plane
//                                   through the edge with normal n1
//   vertex-cone (internal vertex): n kept when inside the cone spanned by the normals of the
//   facets around the vertex (oriented like n1, negated when the centre is behind facet's
//   plane), else the nearest unit direction of that cone (when no direction of the cone is
//   acute to n, the generator nearest to n, first in fan order on ties); point = centre
//   projected onto the plane through the vertex with normal n'.
//   none: face contacts, boundary edges/vertices, and a centre exactly on the facet.
// Overlap = radius - |centre - closest point| is never changed by smoothing.
//
// Query JSON (one object per line for `eval`):
//   {"centre": [x, y, z], "radius": r, "facet": f, "mesh": {"vertices": [...], "facets": [...]}}
#pragma once
#include "cases/closest_feature.hpp"
#include "cases/common.hpp"
#include "cases/mesh.hpp"

#include <nlohmann/json_fwd.hpp>

#include <memory>
#include <string>
#include <vector>

namespace contactbench::cases {

enum class Zone { none, blue, red, green, vertex_cone };
const char* to_string(Zone z);

struct EdgeSmoothingQuery {
  Vec3 centre;                       // sphere centre
  double radius = 0;                 // sphere radius, > 0
  std::shared_ptr<const Mesh> mesh;  // static mesh with adjacency
  int facet = 0;                     // the contacted facet ("facet 1")
};

struct EdgeSmoothingResult {
  Region region = Region::face;  // closest feature of `facet` to the centre
  int side = 0;        // sign of (centre - a).n1: +1 in front of the facet, -1 behind, 0 in plane
  Zone zone = Zone::none;
  bool adjusted = false;  // n' differs from n (red, green, vertex-cone outside the cone)
  Vec3 normal = Vec3::Zero();  // n': unit, direction of the contact force on the sphere
  Vec3 point = Vec3::Zero();   // adjusted contact point (on the plane through the feature)
  double overlap = 0;          // radius - |centre - closest point| (length; > 0 touching)
  // Exact margins of the decisions (reference; the fast variant leaves them NaN), rounded up
  // (never below the exact value). A mismatch is excused by the margin of the value fast
  // claimed: for region, zone and a projected cone piece that is computed separately
  // (harness/pairs/edge_smoothing.cpp); feature_margin is then only reported.
  double region_margin = 0;  // closest_feature margin (relative to the longest edge)
  double side_margin = 0;    // length: |distance of the centre to the facet's plane|
  double zone_margin = 0;    // dimensionless: |n.n1 - n_lim| / |n.n1 + o_lim| that can flip it
  double cone_margin = 0;    // dimensionless: angular distance of n to the cone's boundary
  // The centre is at its closest point of the facet: n is undefined, so zone none, normal n1,
  // point = centre (an explicit state, not a tolerance). Reference: |centre - closest point|
  // is exactly 0; fast: within its stated tolerance (fast/edge_smoothing.hpp).
  bool centre_on_facet = false;
  double on_facet_margin = 0;  // length: |centre - closest point| (exact, rounded once)
  // Vertex cone: d = centre - vertex lies in the cone's polar (no direction of the cone makes
  // an acute angle with d); n' is then the generator making the smallest angle with d.
  bool polar = false;
  double polar_margin = 0;  // dimensionless: distance of d/|d| to the polar cone's boundary
  // Vertex cone, adjusted: the smooth piece of n' = f(d), as generator indices in
  // oriented_fan order. Polar case: cone_i = the chosen generator, cone_j = -1. Projected
  // case: P(d) on the ray of generator cone_i (cone_j = -1) or inside the face spanned by
  // cone_i < cone_j. Ties: first in fan order, rays before faces (exactly parallel
  // generators and coplanar faces give identical candidates, so the first is kept). -1: none.
  int cone_i = -1, cone_j = -1;
  // Exact margin of that choice (dimensionless, reference only). Polar: the gap
  // cos(d, g_best) - cos(d, g_second) to the best generator of another direction; the
  // per-generator gaps are in generator_gap (0 for the chosen one and ties). Projected: the
  // distance of d/|d| to the boundary of the piece's region (face: min |P(d) x g_k| / |d| over
  // its two generators; ray: min over the other generators of the distance to the plane where
  // the projection starts to leave the ray). +inf when there is no other choice.
  double feature_margin = 0;
  std::vector<double> generator_gap;  // polar only; the reference's exact gap per generator
  // Conditioning of the smooth piece (>= 1, reference only): |dn'| <= condition |d(d/|d|)|.
  // 1 for n' = n and for n' a generator (polar, ray); 1 / (ratio sin_ij) on a face, with
  // ratio = |P(d)| / |d| > 0 and sin_ij > 0 the sine between its two generators. Finite.
  double condition = 1;
};

// Vertex v's facets oriented consistently with facet f (walking across the edges at v that
// have two facets): pairs (facet, +1 or -1). Used by both variants. Mesh::oriented_fan: a
// contradiction is an InputError naming the vertex (checked when the mesh is built).
std::vector<std::pair<int, int>> oriented_fan(const Mesh& m, int f, int v);

// Builds the local patch used by the generators: facet [a, b, c] (index 0 before shuffling)
// and, per edge k with has[k], the neighbour across it with apex q[k] (consistently
// oriented), plus, per vertex with both neighbours present and close[k], the facet that
// closes the fan. Facets whose vertices would be collinear are skipped.
std::shared_ptr<const Mesh> smoothing_patch(const Vec3& a, const Vec3& b, const Vec3& c,
                                            const std::array<Vec3, 3>& q,
                                            const std::array<bool, 3>& has,
                                            const std::array<bool, 3>& close);

// The family's vocabulary (see cases/common.hpp).
struct EdgeSmoothing {
  using Query = EdgeSmoothingQuery;
  using Result = EdgeSmoothingResult;
  // Canonical hand-made cases, one per decision the README names (see the .cpp).
  static std::vector<Named<Query>> canonical();
  // Random patch (facet with folded neighbours and closed vertex fans, some boundary edges,
  // random orientation flips) and a sphere near a random feature, labelled with its regime:
  // shape (equilateral, generic, needle, cap, sliver: smallest angle 1e-4..6 degrees),
  // config (face, edge_blue/red/green/open, vertex, grazing, deep, in_plane), place (origin,
  // far: ~2^20 max(1, scale) away), scale (1e-3, 1, 1e3; extreme: 2^-90, 2^90).
  static Generated<Query> random(Rng& rng);
  // Integer geometry under exact similarities and dyadic scales: flat neighbours, right
  // angles, dihedral cosines 3/5, 4/5, 5/13, 12/13 (both signs), centres exactly on the
  // blue/red and red/green boundaries, exactly in the facet's plane, exactly above the edge,
  // contact points exactly at edge end points, directions exactly on vertex-cone faces; thin
  // facets (caps, needles, slivers down to ~5e-5 degrees) with exact face contacts and centres
  // exactly on the facet (face, edge, vertex); far placements (2^36..2^40). Labelled.
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);
  // Reads a query; a mesh vertex in more than max_fan_facets facets is refused (the
  // kernels' cost grows with the square of a fan).
  static Query from_json(const nlohmann::json& j, const Where& where);
  static constexpr std::size_t max_fan_facets = 1024;
};

}  // namespace contactbench::cases
