// Rounded-triangle contact (Smeets et al. 2014, Supplementary Information 1,
// ../shared/sources/smeets-rounded-triangles-supplementary.txt, with the errata and
// decisions of ../shared/sources/README.md, section "Smeets et al."): triangle P carries its
// encompassing sphere (c1, R1), triangle Q carries (c2, R2). Both triangles are projected
// onto the spheres' contact (radical) plane; the contact point is the point of S = P' ∩ Q'
// nearest the plane's centre c, and the overlap δ_t follows from its squared offset h².
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <string>
#include <vector>

namespace contactbench::cases {

struct RoundedTriangleContactQuery {
  std::array<Vec3, 3> p, q;  // triangles P and Q (length units); normals are the
                             // right-hand-rule normals (p1-p0)×(p2-p0), (q1-q0)×(q2-q0)
  Vec3 c1, c2;               // sphere centres (c1 != c2)
  double r1 = 1, r2 = 1;     // sphere radii (> 0); sphere i contains triangle i (closed)
};

struct RoundedTriangleContactResult {
  static constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  // Eq. (37), strict, tested first: n1·(c2 − c1) > 0 and n2·(c1 − c2) > 0. When false,
  // nothing else is computed (every other field keeps its default: no contact).
  bool facing = false;
  bool spheres_overlap = false;  // |c2 − c1| < R1 + R2 (touching spheres do not overlap)
  // S = P' ∩ Q' (closed sets) in the contact plane: empty, one point, a segment (2 vertices)
  // or a convex polygon of 3..6 vertices without repeated or collinear vertices, counter-
  // clockwise about the plane normal c2 − c1, starting at the lexicographically smallest
  // vertex (x, then y, then z).
  std::vector<Vec3> polygon;
  Vec3 contact_point = Vec3::Constant(nan);  // c_p: the point of S nearest c (NaN: S empty)
  double h2 = nan;       // ‖c − c_p‖² (length²; NaN when S is empty)
  bool contact = false;  // facing, S non-empty and h² < r_c² (r_c: the spheres' circle radius)
  double delta_s = nan;  // R1 + R2 − ‖c2 − c1‖ (README sign fix; > 0 when overlapping)
  double delta_t = nan;  // δ_s − R1 − R2 + sqrt(R1² − h²) + sqrt(R2² − h²); only with contact
  // Reference only (NaN in fast): exact margins, scale-free (see reference header).
  double facing_margin = nan, overlap_margin = nan, contact_margin = nan, count_margin = nan;
};

// The query's length scale: max(R1, R2) (each sphere contains its triangle).
double scale(const RoundedTriangleContactQuery& q);
// The label of S's vertex count: "empty", "point", "segment", "3" .. "6".
std::string polygon_kind(std::size_t vertices);

// A canonical case with its hand-derived answer.
struct RoundedTriangleContactCase {
  std::string name;
  RoundedTriangleContactQuery query;
  bool facing, spheres_overlap, contact;
  std::vector<Vec3> polygon;  // in the documented order
  Vec3 contact_point;         // NaN when S is empty or not facing
  double h2;
};

struct RoundedTriangleContact {
  using Query = RoundedTriangleContactQuery;
  using Result = RoundedTriangleContactResult;
  static std::vector<RoundedTriangleContactCase> cases();  // hand-derived
  static std::vector<Named<Query>> canonical();            // cases(), by name
  // random: two generic triangles facing each other (mostly) with their circumscribing
  // spheres enlarged by a random factor, at overlaps from apart to deep, randomly rotated,
  // scale 1e-3 / 1 / 1e3, near the origin or far from it.
  // degenerate: built in the contact plane x = 0 on a dyadic grid (every projection,
  // intersection and h² exact), then moved by an exact rigid motion (axis permutation and
  // signs, dyadic translation, power-of-two scale). Configurations (tag config): c inside S,
  // c_p on an edge / at a vertex of S, S with 3..6 vertices, a vertex on the other's edge,
  // a shared edge, S a point or a segment, S empty; facing failing on P or Q and exactly
  // zero; spheres overlapping, exactly touching, apart, and h² exactly r_c² (tag spheres).
  static Generated<Query> random(Rng& rng);
  static Generated<Query> degenerate(Rng& rng);
  static nlohmann::json to_json(const Query& q);
  static nlohmann::json to_json(const Result& r);  // margins only when set (reference)
  // Fields p, q ([[x,y,z] × 3]), c1, c2, r1, r2. Rejected, one InputError naming the field:
  // unknown keys, NaN/Inf, zero-area triangles (exactly collinear), radii <= 0, coincident
  // centres (no contact plane), and a sphere that does not contain its triangle (decided
  // exactly): the method's premise is an encompassing sphere — the paper's argument that
  // the contact point lies in the contact disc assumes it — so such a query is malformed,
  // not merely unusual.
  static Query from_json(const nlohmann::json& j, const Where& where);
};

}  // namespace contactbench::cases
