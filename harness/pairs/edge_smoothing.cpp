#include "harness/pairs/edge_smoothing.hpp"

#include "fast/closest_feature.hpp"
#include "reference/closest_feature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace contactbench::harness {

std::vector<DecisionSpace> EdgeSmoothingPair::decision_space() {
  return {
      {"region", {"face", "edge0", "edge1", "edge2", "vertex0", "vertex1", "vertex2"}},
      {"side", {"-1", "0", "1"}},
      {"centre_on_facet", {"false", "true"}},
      {"zone", {"none", "blue", "red", "green", "vertex_cone"}},
      {"adjusted", {"false", "true"}},
      {"polar", {"false", "true"}},
      // The piece of the vertex cone n' comes from: a generator (polar), a ray or a face.
      {"cone_feature", {"generator", "ray", "face"}},
  };
}

EdgeSmoothingPair::Result EdgeSmoothingPair::from_c(const CResult& c, const Query& q) {
  if (c.region < 0 || c.region >= static_cast<int>(cases::region_names.size()))
    throw PluginError(fmt::format("field region: {} is not a region (0 face .. 6 vertex2)", c.region));
  if (c.side < -1 || c.side > 1) throw PluginError(fmt::format("field side: {} is not -1, 0 or 1", c.side));
  if (c.zone < CONTACTBENCH_ZONE_NONE || c.zone > CONTACTBENCH_ZONE_VERTEX_CONE)
    throw PluginError(fmt::format("field zone: {} is not a zone (0 none .. 4 vertex_cone)", c.zone));
  for (auto [name, v] : {std::pair{"adjusted", c.adjusted}, std::pair{"centre_on_facet", c.centre_on_facet},
                         std::pair{"polar", c.polar}})
    if (v != 0 && v != 1) throw PluginError(fmt::format("field {}: {} is neither 0 nor 1", name, v));
  // A generator is a facet of the vertex's fan: an index below the mesh's facet count.
  const int facets = q.mesh->facet_count();
  for (auto [name, v] : {std::pair{"cone_i", c.cone_i}, std::pair{"cone_j", c.cone_j}})
    if (v < -1 || v >= facets)
      throw PluginError(fmt::format("field {}: {} is outside -1 .. {}", name, v, facets - 1));
  Result r;
  // The margins are the reference's; a fast answer leaves them NaN (as fast::edge_smoothing).
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  r.region_margin = r.side_margin = r.zone_margin = r.cone_margin = r.polar_margin = nan;
  r.on_facet_margin = r.feature_margin = r.condition = nan;
  r.region = static_cast<cases::Region>(c.region);
  r.side = c.side;
  r.zone = static_cast<cases::Zone>(c.zone);
  r.adjusted = c.adjusted == 1;
  r.centre_on_facet = c.centre_on_facet == 1;
  r.polar = c.polar == 1;
  r.cone_i = c.cone_i, r.cone_j = c.cone_j;
  r.normal = {c.normal[0], c.normal[1], c.normal[2]};
  r.point = {c.point[0], c.point[1], c.point[2]};
  r.overlap = c.overlap;
  return r;
}

namespace {
std::string cone_kind(const cases::EdgeSmoothingResult& r) {
  return r.polar ? "generator" : r.cone_j < 0 ? "ray" : "face";
}
}  // namespace

Comparison EdgeSmoothingPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                           const fast::EdgeSmoothingBounds& b) {
  Comparison c;
  // Bounds from the query and the reference's exact distance |centre - closest point|
  // (on_facet_margin), never from the fast output being judged.
  double L = q.centre.cwiseAbs().maxCoeff();
  for (int k = 0; k < 3; ++k) L = std::max(L, q.mesh->vertex(q.facet, k).cwiseAbs().maxCoeff());
  const cases::ClosestFeatureQuery cq{q.centre, q.mesh->vertex(q.facet, 0),
                                      q.mesh->vertex(q.facet, 1), q.mesh->vertex(q.facet, 2)};
  const double region_bound = fast::closest_feature_bounds(cq).decision;

  // Coverage: every decision the reference took, with its exact margin and the stated bound.
  c.reached("region", cases::to_string(ref.region), ref.region_margin, region_bound, "× longest edge");
  c.reached("side", std::to_string(ref.side), ref.side_margin, b.length, "length (query units)");
  c.reached("centre_on_facet", ref.centre_on_facet ? "true" : "false", ref.on_facet_margin, b.on_facet, "length (query units)");
  if (!ref.centre_on_facet) {
    const bool cone = ref.zone == cases::Zone::vertex_cone;
    // none and vertex_cone follow from the region and the mesh's topology (no margin of their
    // own; the region's is reported there); blue/red/green by their exact interval distance.
    c.reached("zone", cases::to_string(ref.zone), ref.zone_margin, b.angle, "cosine");
    if (ref.zone != cases::Zone::none)
      c.reached("adjusted", ref.adjusted ? "true" : "false", cone ? ref.cone_margin : ref.zone_margin,
                cone ? b.cone : b.angle, cone ? "rad" : "cosine");
    if (cone && ref.adjusted) {
      c.reached("polar", ref.polar ? "true" : "false", ref.polar_margin, b.cone, "unit-vector distance");
      c.reached("cone_feature", cone_kind(ref), ref.feature_margin, b.cone, "unit-vector distance");
    }
  }

  // Overlap = radius - |centre - closest point| does not depend on any decision below (not
  // even the region: the distance is continuous across regions), so it is always compared.
  c.continuous("overlap", std::abs(fast.overlap - ref.overlap) / L, b.overlap / L, "× largest |coordinate|");
  // Whatever the decisions, n' is a unit vector: a NaN or zero normal is never an answer.
  c.continuous("normal_unit", std::abs(fast.normal.norm() - 1),
               8 * std::numeric_limits<double>::epsilon(), "|norm − 1|");

  // Discrete fields in decision order; after a mismatch the later fields follow different
  // rules and are not compared. A mismatch is excused only by the exact margin of the value
  // the fast variant claimed.
  auto agree = [&] { return c.mismatches.empty(); };
  // Region: the distance of the centre to the region fast claimed (relative to the longest
  // edge), against closest_feature's own bound (harness/pairs/closest_feature.cpp).
  if (ref.region != fast.region)
    c.discrete("region", std::string(cases::to_string(ref.region)),
               std::string(cases::to_string(fast.region)),
               reference::closest_feature_distance_to_region(cq, fast.region), region_bound, "× longest edge");
  if (!agree()) return c;
  // Side: the distance to the facet's plane is the distance to either other side value.
  c.discrete("side", ref.side, fast.side, ref.side_margin, b.length, "length (query units)");
  if (!agree()) return c;
  // n undefined (centre at its closest point) is an explicit state, decided before the zone.
  c.discrete("centre_on_facet", ref.centre_on_facet, fast.centre_on_facet, ref.on_facet_margin,
             b.on_facet, "length (query units)");
  if (!agree()) return c;
  if (ref.zone != fast.zone)
    c.discrete("zone", std::string(cases::to_string(ref.zone)),
               std::string(cases::to_string(fast.zone)),
               reference::edge_smoothing_zone_distance(q, fast.zone), b.angle, "cosine");
  if (!agree()) return c;
  // Equal zones: adjusted differs only inside a vertex cone (in or out of the cone: the
  // distance of d/|d| to the cone's boundary is the distance to the other state).
  const bool cone = ref.zone == cases::Zone::vertex_cone;
  c.discrete("adjusted", ref.adjusted, fast.adjusted, cone ? ref.cone_margin : ref.zone_margin,
             cone ? b.cone : b.angle, cone ? "rad" : "cosine");
  if (!agree()) return c;
  double condition = 1;  // the smooth piece's conditioning (finite by construction)
  if (ref.zone == cases::Zone::vertex_cone && ref.adjusted) {
    c.discrete("polar", ref.polar, fast.polar, ref.polar_margin, b.cone, "unit-vector distance");
    if (!agree()) return c;
    // The piece of the cone n' comes from. Margin, for the piece the fast variant claimed: in
    // the polar case the reference's exact gap to its generator (so a clearly worse generator
    // is wrong even when the best two tie); in the projected case the exact distance of d/|d|
    // to the directions that project onto the claimed piece (a whole face plane counts as one
    // piece, whatever pair labels it).
    if (ref.cone_i != fast.cone_i || ref.cone_j != fast.cone_j) {
      double margin = std::numeric_limits<double>::infinity();
      if (!ref.polar)
        margin = reference::edge_smoothing_cone_piece_distance(q, fast.cone_i, fast.cone_j);
      else if (fast.cone_i >= 0 && fast.cone_i < static_cast<int>(ref.generator_gap.size()) &&
               fast.cone_j < 0)
        margin = ref.generator_gap[fast.cone_i];
      c.discrete("cone_feature", fmt::format("{},{}", ref.cone_i, ref.cone_j),
                 fmt::format("{},{}", fast.cone_i, fast.cone_j), margin, b.cone, "unit-vector distance");
    }
    if (!agree()) return c;
    condition = ref.condition;
  }
  // n' is as sensitive as its smooth piece (condition > 1 only on a vertex-cone face); the
  // point moves with n' times |centre - vertex| <= L. A face contact's n' is +-n1 computed
  // accurately (fast::facet_unit_normal): its own, much smaller bound.
  const bool face = ref.region == cases::Region::face && !ref.centre_on_facet;
  const double normal_bound = face ? b.face : cone ? b.cone * condition : b.angle;
  c.continuous("normal", (fast.normal - ref.normal).norm(), normal_bound, "unit-vector distance");
  // The point moves with n' times |centre - feature| <= M.
  c.continuous("point", (fast.point - ref.point).norm() / L, (b.point + b.reach * normal_bound) / L,
               "× largest |coordinate|");
  return c;
}

// ---- planted faults: the honest result, then the one bug each describes ----
namespace {
using cases::Vec3;
using cases::Zone;

// The honest kernel's closest point for its region (as fast/edge_smoothing.cpp computes it).
Vec3 closest_point(const EdgeSmoothingPair::Query& q, const EdgeSmoothingPair::Result& r) {
  const auto& m = *q.mesh;
  const int ri = static_cast<int>(r.region);
  if (ri == 0) {
    const Vec3 n1 = fast::facet_unit_normal(m.vertex(q.facet, 0), m.vertex(q.facet, 1), m.vertex(q.facet, 2));
    return q.centre - (q.centre - m.vertex(q.facet, 0)).dot(n1) * n1;
  }
  if (ri <= 3) {
    const Vec3& u = m.vertex(q.facet, ri - 1);
    const Vec3 e = m.vertex(q.facet, ri % 3) - u;
    return u + ((q.centre - u).dot(e) / e.squaredNorm()) * e;
  }
  return m.vertex(q.facet, ri - 4);
}

struct EdgeValues {
  Vec3 n, n1, n2, u;
  double x, nl, ol;
};
EdgeValues edge_values(const EdgeSmoothingPair::Query& q, const EdgeSmoothingPair::Result& r,
                       bool flip_neighbour = true) {
  const auto& m = *q.mesh;
  const int k = static_cast<int>(r.region) - 1;
  EdgeValues e;
  e.n = (q.centre - closest_point(q, r)).normalized();
  e.n1 = fast::facet_unit_normal(m.vertex(q.facet, 0), m.vertex(q.facet, 1), m.vertex(q.facet, 2));
  const int g = m.neighbour(q.facet, k);
  e.n2 = fast::facet_unit_normal(m.vertex(g, 0), m.vertex(g, 1), m.vertex(g, 2));
  if (flip_neighbour && m.neighbour_flipped(q.facet, k)) e.n2 = -e.n2;
  e.u = m.vertex(q.facet, k);
  e.x = e.n.dot(e.n1);
  e.nl = e.n1.dot(e.n2);
  e.ol = e.n1.cross(e.n2).norm();
  return e;
}
bool edge_zone(const EdgeSmoothingPair::Result& r) {
  return r.zone == Zone::blue || r.zone == Zone::red || r.zone == Zone::green;
}
void set_zone(const EdgeSmoothingPair::Query& q, EdgeSmoothingPair::Result& r, const EdgeValues& e,
              Zone z) {
  r.zone = z;
  r.adjusted = z != Zone::blue;
  if (z == Zone::blue) {
    r.normal = e.n;
    r.point = closest_point(q, r);
  } else {
    r.normal = z == Zone::red ? e.n2 : Vec3(-e.n1);
    const Vec3& pn = z == Zone::red ? e.n2 : e.n1;
    r.point = q.centre - (q.centre - e.u).dot(pn) * pn;
  }
}
}  // namespace

EdgeSmoothingPair::Result EdgeSmoothingBlueSlackFault::fast(const Query& q) {
  auto r = fast::edge_smoothing(q);
  if (r.zone == Zone::red) {
    const auto e = edge_values(q, r);
    if (e.nl - 1e-2 <= e.x) set_zone(q, r, e, Zone::blue);  // the bug: a slack on the blue test
  }
  return r;
}

EdgeSmoothingPair::Result EdgeSmoothingGreenSlackFault::fast(const Query& q) {
  auto r = fast::edge_smoothing(q);
  if (r.zone == Zone::red) {
    const auto e = edge_values(q, r);
    if (e.x < -e.ol + 1e-2) set_zone(q, r, e, Zone::green);  // the bug: a slack on the red test
  }
  return r;
}

EdgeSmoothingPair::Result EdgeSmoothingNeighbourSignFault::fast(const Query& q) {
  auto r = fast::edge_smoothing(q);
  if (edge_zone(r)) {
    const auto e = edge_values(q, r, /*flip_neighbour=*/false);  // the bug: n2 as stored
    set_zone(q, r, e, e.nl <= e.x ? Zone::blue : -e.ol < e.x ? Zone::red : Zone::green);
  }
  return r;
}

EdgeSmoothingPair::Result EdgeSmoothingRedRawNormalFault::fast(const Query& q) {
  auto r = fast::edge_smoothing(q);
  if (r.zone == Zone::red) {  // the bug: the facet's own normal instead of the neighbour's
    auto e = edge_values(q, r);
    r.normal = e.n1;
    r.point = q.centre - (q.centre - e.u).dot(e.n1) * e.n1;
  }
  return r;
}

EdgeSmoothingPair::Result EdgeSmoothingOnFacetDroppedFault::fast(const Query& q) {
  auto r = fast::edge_smoothing(q);
  if (r.centre_on_facet) {  // the bug: no such branch; n = D / |D| with D possibly 0
    r.centre_on_facet = false;
    const Vec3 P = closest_point(q, r);
    const Vec3 D = q.centre - P;
    r.normal = D / D.norm();
    r.point = P;
  }
  return r;
}

EdgeSmoothingPair::Result EdgeSmoothingPolarFlipFault::fast(const Query& q) {
  auto r = fast::edge_smoothing(q);
  if (r.polar) {  // the bug: `<` for `>` when keeping the best generator
    const auto& m = *q.mesh;
    const int k = static_cast<int>(r.region) - 4;
    const Vec3 v = m.vertex(q.facet, k);
    const Vec3 D = q.centre - v;
    const double flip = r.side < 0 ? -1.0 : 1.0;
    std::vector<Vec3> g;
    for (const auto& [h, sh] : cases::oriented_fan(m, q.facet, m.facets()[q.facet][k]))
      g.push_back((sh * flip) * fast::facet_unit_normal(m.vertex(h, 0), m.vertex(h, 1), m.vertex(h, 2)));
    std::size_t best = 0;
    for (std::size_t i = 1; i < g.size(); ++i)
      if (D.dot(g[i]) < D.dot(g[best])) best = i;
    r.cone_i = static_cast<int>(best);
    r.normal = g[best];
    r.point = q.centre - D.dot(r.normal) * r.normal;
  }
  return r;
}

}  // namespace contactbench::harness
