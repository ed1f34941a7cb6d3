// General continuous collision detection (CCD) between two linearly moving primitives over
// t in [0, 1]: a vertex against a triangle (vertex-face) or an edge against an edge
// (edge-edge). Source: B. Wang, Z. Ferguson, T. Schneider, X. Jiang, M. Attene, D. Panozzo,
// "A Large Scale Benchmark and an Inclusion-Based Algorithm for Continuous Collision
// Detection", ACM TOG 40(5) 188, 2021 (the public query set and its file format).
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <string>
#include <vector>

namespace contactbench::cases {

enum class CcdKind { vertex_face, edge_edge };
const char* to_string(CcdKind k);  // "vertex-face" / "edge-edge" (the public folder names)

// Vertex order as in the public files (and ticcd::vertexFaceCCD / edgeEdgeCCD):
//   vertex-face: x[0..3] = p, f0, f1, f2 at t = 0;      x[4..7] = the same at t = 1
//   edge-edge:   x[0..3] = ea0, ea1, eb0, eb1 at t = 0; x[4..7] = the same at t = 1
// Positions move linearly: x_i(t) = (1 - t) x[i] + t x[i + 4]. Length units are free.
struct CcdQuery {
  CcdKind kind = CcdKind::vertex_face;
  std::array<Vec3, 8> x{};
  // Exact ground truth when the query comes from a data set: 1 collide, 0 not, -1 unknown.
  int ground_truth = -1;

  Vec3 at(int i, double t) const { return (1 - t) * x[i] + t * x[i + 4]; }  // approximate
};

// Where the primitives first touch (reference only; decided exactly at t*): vertex-face on
// the open face, an open edge or a vertex of the triangle (a degenerate triangle: edge or
// vertex); edge-edge at interior points of both (non-parallel), an endpoint on the other's
// open segment (parallel overlaps included), or two endpoints meeting.
enum class CcdFeature { none, vf_face, vf_edge, vf_vertex, ee_interior, ee_edge_vertex, ee_vertex_vertex };
const char* to_string(CcdFeature f);

// Closed sets throughout: the point in the closed triangle, the closed segments meeting.
struct CcdResult {
  bool hit = false;  // the primitives touch at some t in the closed interval [0, 1]
  // Time of first contact (dimensionless, in [0, 1]), meaningful when hit:
  //  reference: the exact earliest t rounded DOWN to a double (largest double <= t*);
  //  fast: a certified lower bound of the exact earliest t.
  // When !hit it is 1 (no contact before the end of the step).
  double toi = 1;
  // Reference only (NaN in fast): toi rounded UP, so [toi, toi_up] encloses the exact t*;
  // toi == toi_up exactly when t* is a double.
  double toi_up = 1;
  // Fast only (always false in the reference): the hit was reported because the search was
  // cut short — its node budget ran out, or the input is beyond the range the fast variant
  // certifies (|coordinate| > 2^200, NaN, Inf) — rather than because a sub-interval of the
  // finest width survived every exclusion test. Such a hit may be arbitrarily far from any
  // contact; the comparison rule excuses it as a false positive only with this flag set.
  bool cut_short = false;
  // Reference only (none / NaN in fast and for a miss): the feature of the first contact and
  // its margin: the distance from the contact point to the boundary of the face (vf_face) or
  // to the nearest endpoint (ee_interior), over ccd_scale, a long-double estimate at toi; 0 for
  // the other features (they lie on that boundary, decided exactly).
  CcdFeature feature = CcdFeature::none;
  double feature_margin = std::numeric_limits<double>::quiet_NaN();
};

// The largest |coordinate| of the query: its length scale (at least the smallest subnormal).
double ccd_scale(const CcdQuery& q);

// --- The public 7-column CSV format (Sample-Queries, see ../shared/data/ccd-queries) ---
// 8 lines per query, each "xnum,xden,ynum,yden,znum,zden,gt". Every coordinate must be an
// exact double: den a power of two, num an integer whose odd part has <= 53 bits, within the
// double range. Parsing is exact (arbitrary-length decimal integers, no rounding anywhere).
// Any bad line (wrong column count, non-numeric, zero or non-power-of-two denominator, value
// not exactly a double, gt not 0/1 or inconsistent inside a query, truncated last query)
// throws one InputError naming file, line and field.
std::vector<CcdQuery> read_ccd_csv(const std::string& path, CcdKind kind);
// Parses one "num" / "den" pair exactly (exposed for tests); throws through `where`.
double parse_exact_rational(const std::string& num, const std::string& den, const Where& where,
                            const std::string& field);

struct CcdPublicCount {
  const char* source;  // "<scene>/<kind>"
  int queries;
  int collisions;
};
// The documented counts (README of ../shared/data/ccd-queries): 22 entries, 7,279 queries,
// 435 collisions.
const std::vector<CcdPublicCount>& ccd_public_counts();
inline constexpr int ccd_public_total = 7279;

// A hand-made canonical case with its hand-derived answer (exact dyadic inputs).
struct CcdCase {
  std::string name;
  CcdQuery query;
  bool hit;
  double toi;  // exact (a dyadic rational) when hit
};

// The family's vocabulary (see cases/common.hpp).
struct Ccd {
  using Query = CcdQuery;
  using Result = CcdResult;
  static std::vector<CcdCase> cases();          // hand-derived (cases/ccd.cpp)
  static std::vector<Named<Query>> canonical();  // cases(), ground_truth = the answer
  // The public set: every CSV under <shared_dir>/data/ccd-queries, in a fixed order
  // (scene, kind, file), shared_dir as cases::shared_dir finds it. source = "<scene>/<kind>",
  // e.g. "unit-tests/vertex-face".
  // The set is verified complete: every one of the 22 documented <scene>/<kind> folders must
  // hold exactly its documented number of queries (ccd_public_counts; 7,279 in all, the
  // counts table of the folder's README). A missing folder, a missing or extra <scene>/<kind>
  // folder, or a wrong count throws one InputError naming the folder.
  static std::vector<Named<Query>> public_queries(const std::string& shared_dir);
  // Generators with regime labels (kind, shape, config, place, scale; see cases/ccd.cpp):
  // thin triangles (needles, caps, slivers down to ~1e-4 degrees), near-parallel and parallel
  // edges, contacts in the interior / on an edge / at a vertex, touching at t = 0 or t = 1,
  // grazing, coplanar motion, near misses around the fast bound, far misses, rotating and
  // degenerating primitives, near the origin or far from it, at sizes ~1e-3 .. 1e3 and the
  // extremes (2^+-190 inside the fast domain; 1e-300, 1e300, subnormal outside it).
  // random: rounded doubles (random rotations); degenerate: the same regimes on a dyadic grid,
  // every operation checked exact, so touching, coplanar and parallel stay exact.
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  // JSON Lines format for `eval`: {"kind": "vertex-face"|"edge-edge", "x": [[x,y,z] x 8]}
  // with optional "ground_truth": 0/1. Numbers or strings strtod reads completely ("0x1p-3"),
  // through cases::read_vec3; any other key is rejected (cases::reject_unknown_keys).
  static Query from_json(const nlohmann::json& j, const Where& where);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);
};

}  // namespace contactbench::cases
