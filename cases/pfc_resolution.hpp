// PFC faceted-wall contact resolution (Itasca PFC manual, "Faceted Walls",
// ../shared/sources/pfc-faceted-walls.txt; every point the text leaves open is decided in
// ../shared/sources/README.md, section "PFC faceted walls").
//
// A ball (centre x, radius R) against a wall (a cases::Mesh, facets with their right-hand
// normals, each side of a facet active or not). Per facet on an active side whose closest
// point WP lies in the closed ball (d^2 <= R^2) there is one contact: its wall point, the
// region of WP (closest_feature), overlap U = R - d, unit normal n = (WP - x)/d, contact point
// x + (R - U/2) n. Then, in this order:
//   links        contacts i, j with U > 0 are linked when WP_i's edge or vertex belongs to
//                facet j too (or the same with i and j swapped);
//   associative  in each linked set only the contact with the largest overlap (ties: lower
//                facet index) is active;
//   full mode    a survivor i is deactivated when the closed segment x-WP_i meets the closed
//                facet of another survivor j with larger overlap anywhere but WP_i;
//   proximity    survivors whose facet normals are within the cutoff angle of each other
//                (theta <= Theta), grouped by connectivity; a group of two or more is one
//                proximity contact (overlap-weighted normal, mean overlap);
//   continuity   full mode only: an active contact inherits the state of a previous active
//                contact on the same facet, or of one whose facet's current contact is in its
//                linked set, within the cutoff angle and joined to it by a hole-free path.
// The logic runs once, in cases::resolve_pfc below, over predicates that the reference
// decides exactly and the fast variant in double.
//
// Query JSON (one object per line for `eval`):
//   {"centre": [x, y, z], "radius": r, "mesh": {"vertices": [...], "facets": [...]},
//    "sides": ["both" | "front" | "back" | "none", ...] (optional, one per facet),
//    "mode": "reduced" | "full", "cos_cutoff": c (in [-1, 1]),
//    "previous": [{"facet": f, "wall_point": [x, y, z]}, ...] (optional)}
#pragma once
#include "cases/closest_feature.hpp"
#include "cases/common.hpp"
#include "cases/mesh.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace contactbench::cases {

enum class PfcMode { reduced, full };
const char* to_string(PfcMode m);

// Which sides of a facet interact: front is the side the right-hand normal points to.
enum class PfcSides : std::uint8_t { none = 0, front = 1, back = 2, both = 3 };
const char* to_string(PfcSides s);

// One active contact of the previous step (for state continuity).
struct PfcPrevious {
  int facet = 0;
  Vec3 wall_point = Vec3::Zero();
};

struct PfcQuery {
  Vec3 centre = Vec3::Zero();        // ball centre
  double radius = 1;                 // > 0
  std::shared_ptr<const Mesh> wall;  // the faceted wall
  std::vector<PfcSides> sides;       // per facet; empty: all both
  PfcMode mode = PfcMode::reduced;
  double cos_cutoff = 1;              // cos(Theta), in [-1, 1]; Theta = 0 by default
  std::vector<PfcPrevious> previous;  // previous step's active contacts
  PfcSides side_of(int f) const { return sides.empty() ? PfcSides::both : sides[f]; }
};

// Why an active contact inherits no state (or that it does).
enum class PfcInherit { inactive, inherited, reduced, no_link, angle, hole };
const char* to_string(PfcInherit w);

struct PfcContact {
  int facet = 0;
  Region region = Region::face;       // region of WP on the facet
  Vec3 wall_point = Vec3::Zero();     // WP, closest point of the facet to the centre
  double overlap = 0;                 // U = R - d (length), >= 0 for every listed contact
  Vec3 normal = Vec3::Zero();         // unit, from the centre to WP; -facet normal if d = 0
  Vec3 contact_point = Vec3::Zero();  // x + (R - U/2) n
  bool positive = false;              // U > 0 exactly (d^2 < R^2)
  bool active = false;
  int inherits = -1;                      // index into query.previous, or -1
  PfcInherit why = PfcInherit::inactive;  // active: inherited or why not
};

struct PfcProximity {
  std::vector<int> members;           // facets, ascending
  Vec3 normal = Vec3::Zero();         // unit: sum of U_k n_k, normalized
  double overlap = 0;                 // mean of the members' overlaps
  Vec3 contact_point = Vec3::Zero();  // x + (R - U/2) n
};

// One decision the resolution took, with its value; the reference adds the exact margin
// (how far the query is from flipping it, in the decision's unit, see harness/pairs) and the
// facets it concerns.
struct PfcDecision {
  std::string_view name, value;  // string literals (static storage): recording is cheap
  double margin = std::numeric_limits<double>::quiet_NaN();
  int i = -1, j = -1;
};

struct PfcResult {
  std::vector<PfcContact> contacts;       // by facet index
  std::vector<std::array<int, 2>> links;  // facet pairs (lower first), sorted
  std::vector<PfcProximity> proximity;    // by first member
  std::vector<PfcDecision> decisions;     // in the order taken
  bool traced = true;                     // false: an answer without its decisions (a plugin's)
};

// Facet-level facts and the predicates of the resolution, as each variant decides them.
// Facets are indices into the wall; i, j are facets with a contact.
struct PfcPredicates {
  enum class Overlap { none, zero, positive };
  std::vector<Overlap> overlap;                     // per facet
  std::vector<Region> region;                       // per facet (meaningful where overlap != none)
  std::function<int(int i, int j)> compare;         // sign of U_i - U_j
  std::function<bool(int i, int j)> linked;         // default: pfc_linked
  std::function<bool(int i, int j)> segment_meets;  // closed x-WP_i meets facet j but at WP_i
  std::function<bool(int f, int g)> within;         // theta(f, g) <= Theta
  // Hole check of previous contact k and newly active facet f: does facet g cross the plane
  // (true when the plane is undefined)?
  std::function<bool(int k, int f, int g)> crosses;
};

// The link rule on exact regions: WP_i's edge or vertex is also facet j's.
bool pfc_linked(const Mesh& m, int i, Region region_i, int j);

// The resolution's logic (the text's rules with the README's decisions), shared by both
// variants: fills contacts (facet, region, positive, active, inherits, why), links and the
// proximity groups' members. Constructions are the caller's.
PfcResult resolve_pfc(const PfcQuery& q, const PfcPredicates& p);

struct PfcResolution {
  using Query = PfcQuery;
  using Result = PfcResult;
  static std::vector<Named<Query>> canonical();
  // random: rough walls (Figure 7), folds, wedges, stacked segments, coplanar grids; random
  // centres, radii, modes, cutoffs, sides and previous contacts.
  // degenerate: the same walls on a dyadic grid with exact overlap ties, wall points on
  // edges and vertices, U = 0, theta = Theta, near-ties at 3/5, 4/5, 5/13, 12/13, coincident
  // wall points in the hole check, segments grazing facet edges, inactive sides.
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);
  // Rejects unknown keys, a non-positive radius, a cosine outside [-1, 1] or NaN, a previous
  // facet the mesh lacks, a sides list of the wrong length, and facets that overlap across a
  // shared edge (coplanar and folded onto each other); other intersections are not detected.
  static Query from_json(const nlohmann::json& j, const Where& where);
};

// Walls of the generators and canonical cases (exact for dyadic h and arguments).
// Grid on [0, nx h] x [0, ny h], heights z per vertex (row-major; empty: flat), each cell
// split by one diagonal (pattern 0: all alike, 1: alternating); normals up.
Mesh pfc_grid_wall(int nx, int ny, double h, const std::vector<double>& z, int pattern);
// Two strips meeting at the edge x = 0 (0 <= y <= 2h): z = 0 for x in [-2h, 0] (facets 0, 1)
// and the direction (cx, 0, cz) beyond (facets 2, 3); normals (0,0,1) and (-cz, 0, cx)/|.|
// (cosine cx/|(cx, cz)|); cz > 0 a concave edge, cz < 0 a convex one.
Mesh pfc_fold_wall(double h, double cx, double cz);
// Two facets on the edge O-P, P = h(1,-1,-1), normals along (1,1,0) and (1,0,1) (cosine 1/2),
// the second reversed when `flip` (cosine -1/2).
Mesh pfc_fold60_wall(double h, bool flip);
// Figure 8a, a thin wedge on the edge x = 0: bottom facet 0 in z = 0 (normal -z), top facet 1
// rising to height e at x = 4h (normal up).
Mesh pfc_wedge_wall(double h, double e);
// Figure 8b: k separate triangles at z = -s i around (shift_i, z), vertices (-2h, -2h),
// (2h, -2h), (0, 2h) relative to the shift; with `reverse`, odd ones face down.
Mesh pfc_segments_wall(double h, double s, int k, const std::vector<Vec2>& shift, bool reverse);

// Throws InputError (naming `where`'s mesh field) when two facets sharing an edge are
// coplanar and lie on the same side of it (folded onto each other: they intersect).
void check_pfc_wall(const Mesh& m, const Where& where);

}  // namespace contactbench::cases
