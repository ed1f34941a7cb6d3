// Suite edge_smoothing: the reference against hand-derived answers for every decision of
// ../shared/sources/README.md "Woo" (orientation, zone order, centre in the plane, end points,
// vertex cone, green zone), exact invariances, the fast variant, and their agreement.
#include "harness/pairs/edge_smoothing.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"
#include "reference/closest_feature.hpp"

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <fstream>
#include <map>
#include <sstream>

using namespace contactbench;
namespace ref = contactbench::reference;  // the suites below shadow these names
namespace fst = contactbench::fast;
using cases::Region;
using cases::Vec3;
using cases::Zone;

namespace {

struct Expect {
  Region region;
  int side;
  Zone zone;
  bool adjusted;
  Vec3 normal, point;
  double overlap;
};

// Hand-derived in the frame of cases/edge_smoothing.cpp: facet 1 = [u, v, w] with
// u = (0,-2,0), v = (0,2,0), w = (-2,0,0), n1 = +z; edge0 = uv. "convex45": neighbour apex
// (4,0,-3), n2 = (3,0,4)/5, n_lim = 4/5, o_lim = 3/5.
const std::map<std::string, Expect>& expected() {
  const double s17 = std::sqrt(17.0), s6 = std::sqrt(6.0);
  static const std::map<std::string, Expect> e = {
      {"face_front", {Region::face, 1, Zone::none, false, {0, 0, 1}, {-0.5, 0, 0}, 0.5}},
      {"face_behind", {Region::face, -1, Zone::none, false, {0, 0, -1}, {-0.5, 0, 0}, 0.5}},
      {"edge_boundary", {Region::edge0, 1, Zone::none, false, {0.6, 0, 0.8}, {0, 0, 0}, 1}},
      {"blue_convex", {Region::edge0, 1, Zone::blue, false, Vec3(1, 0, 4) / s17, {0, 0, 0}, 5 - s17}},
      {"blue_red_boundary", {Region::edge0, 1, Zone::blue, false, {0.6, 0, 0.8}, {0, 0, 0}, 1}},
      // red: point = c - ((c - u).n2) n2 = (4,0,1) - 16/5 (3,0,4)/5
      {"red_convex", {Region::edge0, 1, Zone::red, true, {0.6, 0, 0.8}, {2.08, 0, -1.56}, 5 - s17}},
      {"red_green_boundary", {Region::edge0, -1, Zone::green, true, {0, 0, -1}, {4, 0, 0}, 1}},
      {"green_behind", {Region::edge0, -1, Zone::green, true, {0, 0, -1}, {1, 0, 0}, 5 - s17}},
      {"in_plane_right_angle", {Region::edge0, 0, Zone::blue, false, {1, 0, 0}, {0, 0, 0}, 0.5}},
      {"in_plane_fold", {Region::edge0, 0, Zone::red, true, {0.6, 0, 0.8}, {0.64, 0, -0.48}, 0.5}},
      {"in_plane_flat", {Region::edge0, 0, Zone::green, true, {0, 0, -1}, {1, 0, 0}, 0.5}},
      {"above_edge_flat", {Region::edge0, 1, Zone::blue, false, {0, 0, 1}, {0, 0, 0}, 0.5}},
      {"red_flat", {Region::edge0, 1, Zone::red, true, {0, 0, 1}, {1, 0, 0}, 3 - std::sqrt(5.0)}},
      {"sharp_edge_blue_wins", {Region::edge0, -1, Zone::blue, false, {0.6, 0, -0.8}, {0, 0, 0}, 1}},
      // concave seen from the front: n2 = (-3,0,4)/5; (c-u).n2 = -8/5
      {"red_concave_front", {Region::edge0, 1, Zone::red, true, {-0.6, 0, 0.8}, {3.04, 0, 2.28}, 5 - s17}},
      // Fan at u: generators +z (facet 1 and across edge2), (3,0,4) (across edge0) and the
      // closer's (3,-3,2). d = (1/2,-1/4,4) = 7/2 z + 1/12 (3,0,4) + 1/12 (3,-3,2): inside.
      {"vertex_inside_cone", {Region::vertex0, 1, Zone::vertex_cone, false,
                              Vec3(0.5, -0.25, 4).normalized(), {0, -2, 0}, 5 - std::sqrt(16.3125)}},
      // d = (4,-2,1): projection onto the face of (3,0,4), (3,-3,2) (normal (4,2,-3)):
      // q = d - 9/29 (4,2,-3) = (80,-76,56)/29; point = u + 9/29 (4,2,-3).
      {"vertex_outside_cone", {Region::vertex0, 1, Zone::vertex_cone, true,
                               Vec3(20, -19, 14).normalized(), Vec3(36, -40, -27) / 29,
                               6 - std::sqrt(21.0)}},
      {"vertex_flat_fan", {Region::vertex0, 1, Zone::vertex_cone, true, {0, 0, 1}, {1, -3, 0}, 4 - s6}},
      {"vertex_not_internal", {Region::vertex0, 1, Zone::none, false, Vec3(1, -1, 2) / s6, {0, -2, 0}, 4 - s6}},
      // c - u = (4,0,1) is orthogonal to uv: closest point exactly u. Projection onto the same
      // face: q = d - 13/29 (4,2,-3) = (64,-26,68)/29.
      {"edge_end_point", {Region::vertex0, 1, Zone::vertex_cone, true, Vec3(32, -13, 34).normalized(),
                          Vec3(52, -32, -39) / 29, 5 - s17}},
      // behind: the cone is negated; -d = (-1,1,2) projects onto the ray +z only.
      {"vertex_behind", {Region::vertex0, -1, Zone::vertex_cone, true, {0, 0, -1}, {1, -3, 0}, 4 - s6}},
      {"centre_on_facet", {Region::face, 0, Zone::none, false, {0, 0, 1}, {-0.5, 0, 0}, 1}},
  };
  return e;
}

void check_expected(const std::string& name, const cases::EdgeSmoothingResult& r, double tol) {
  const auto& e = expected().at(name);
  BOOST_TEST_CONTEXT(name) {
    BOOST_TEST(cases::to_string(r.region) == cases::to_string(e.region));
    BOOST_TEST(r.side == e.side);
    BOOST_TEST(cases::to_string(r.zone) == cases::to_string(e.zone));
    BOOST_TEST(r.adjusted == e.adjusted);
    BOOST_TEST((r.normal - e.normal).norm() <= tol, "normal " << r.normal.transpose());
    BOOST_TEST((r.point - e.point).norm() <= tol * 8, "point " << r.point.transpose());
    BOOST_TEST(std::abs(r.overlap - e.overlap) <= tol * 8);
  }
}

const cases::EdgeSmoothingQuery& canonical(const std::string& name) {
  static const auto all = cases::EdgeSmoothing::canonical();
  for (const auto& [n, q, source] : all)
    if (n == name) return q;
  throw std::runtime_error("no canonical case " + name);
}

// A copy of the query's mesh with facet g's orientation reversed.
cases::EdgeSmoothingQuery flipped(cases::EdgeSmoothingQuery q, std::vector<int> gs) {
  auto f = q.mesh->facets();
  for (int g : gs) std::swap(f[g][1], f[g][2]);
  q.mesh = std::make_shared<const cases::Mesh>(q.mesh->vertices(), f);
  return q;
}

// Rigid motion by an exact integer rotation (axis permutation with signs) plus a dyadic
// translation, applied to mesh and centre.
cases::EdgeSmoothingQuery moved(cases::EdgeSmoothingQuery q, const Eigen::Matrix3d& R, const Vec3& t) {
  auto v = q.mesh->vertices();
  for (auto& x : v) x = R * x + t;
  q.mesh = std::make_shared<const cases::Mesh>(v, q.mesh->facets());
  q.centre = R * q.centre + t;
  return q;
}

std::vector<cases::EdgeSmoothingQuery> generated(int n, bool degenerate) {
  std::vector<cases::EdgeSmoothingQuery> out;
  for (int i = 0; i < n; ++i) {
    auto rng = cases::query_rng(11, "edge_smoothing_test", degenerate ? "d" : "r", i);
    out.push_back(degenerate ? cases::EdgeSmoothing::degenerate(rng).query : cases::EdgeSmoothing::random(rng).query);
  }
  return out;
}

// Vertex-cone polar cases exist only with the centre in facet 1's plane (facet 1's own
// generator then has d.g = 0, the largest possible). Exact tie: the canonical fan at u with
// d = (-1, -1, 0): +z (facet 1, and the flat facet across edge2) and the closer's (3,-3,2)
// are orthogonal to d; (3,0,4) makes cos = -3/(5 sqrt 2), clearly worse.
cases::EdgeSmoothingQuery polar_tie() {
  auto q = canonical("vertex_outside_cone");
  q.centre = Vec3(-1, -3, 0);
  q.radius = 2;
  return q;
}

// Near tie: the same fan with the apex across edge2 lifted by zeta (a power of two, exact):
// the facet across edge2 tilts to (zeta, zeta, 4) and the closer to (6-2 zeta, 4 zeta-6, 4),
// both at cos = -2 zeta / (|d| |g|) < 0 against n1's 0.
cases::EdgeSmoothingQuery polar_near_tie(double zeta) {
  const Vec3 u(0, -2, 0), v(0, 2, 0), w(-2, 0, 0);
  const std::array<Vec3, 3> apex{Vec3(4, 0, -3), v + w - u, Vec3(-2, -4, zeta)};
  cases::EdgeSmoothingQuery q;
  q.mesh = cases::smoothing_patch(u, v, w, apex, {true, true, true}, {true, true, true});
  q.facet = 0;
  q.centre = Vec3(-1, -3, 0);
  q.radius = 2;
  return q;
}

// Unit generators of the vertex cone of a vertex contact, in oriented_fan order.
std::vector<Vec3> generators(const cases::EdgeSmoothingQuery& q, const cases::EdgeSmoothingResult& r) {
  const int k = static_cast<int>(r.region) - 4;
  std::vector<Vec3> g;
  for (const auto& [f, s] : cases::oriented_fan(*q.mesh, q.facet, q.mesh->facets()[q.facet][k]))
    g.push_back(s * (r.side < 0 ? -1.0 : 1.0) * q.mesh->normal(f).normalized());
  return g;
}

std::string verdict(const cases::EdgeSmoothingQuery& q, const cases::EdgeSmoothingResult& ref,
                    const cases::EdgeSmoothingResult& fast) {
  return harness::to_string(harness::verdict<harness::EdgeSmoothingPair>(q, ref, fast));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(edge_smoothing)
BOOST_AUTO_TEST_SUITE(reference)

BOOST_AUTO_TEST_CASE(canonical_cases_match_hand_derived_answers) {
  const auto all = cases::EdgeSmoothing::canonical();
  BOOST_TEST(all.size() == expected().size());
  for (const auto& [name, q, source] : all) check_expected(name, ref::edge_smoothing(q), 1e-15);
}

BOOST_AUTO_TEST_CASE(zone_boundaries_have_zero_margin) {
  // n.n1 = n_lim exactly (blue side) and n.n1 = -o_lim exactly (green side).
  BOOST_TEST(ref::edge_smoothing(canonical("blue_red_boundary")).zone_margin == 0.0);
  BOOST_TEST(ref::edge_smoothing(canonical("red_green_boundary")).zone_margin == 0.0);
  BOOST_TEST(ref::edge_smoothing(canonical("in_plane_right_angle")).zone_margin == 0.0);
  BOOST_TEST(ref::edge_smoothing(canonical("red_convex")).zone_margin > 0.1);
  BOOST_TEST(ref::edge_smoothing(canonical("in_plane_flat")).side_margin == 0.0);
}

BOOST_AUTO_TEST_CASE(orientation_neighbour_flipped_to_agree_with_n1) {
  // Reversing the neighbour's vertex order must not change anything: n2 is re-flipped.
  for (const char* name : {"blue_convex", "red_convex", "green_behind", "red_concave_front",
                           "vertex_outside_cone", "vertex_inside_cone"}) {
    const auto& q = canonical(name);
    const int g = q.mesh->neighbour(0, 0);
    BOOST_TEST_REQUIRE(g >= 0);
    BOOST_TEST(!q.mesh->neighbour_flipped(0, 0));
    const auto qf = flipped(q, {g});
    BOOST_TEST(qf.mesh->neighbour_flipped(0, 0));
    check_expected(name, ref::edge_smoothing(qf), 1e-15);
  }
}

BOOST_AUTO_TEST_CASE(orientation_normals_never_turned_towards_sphere) {
  // Facet 1 and its neighbour both reversed: n1 = -z, n2 = -(3,0,4)/5. The sphere of
  // red_convex is now behind facet 1 with n.n1 = -1/sqrt(17) > -o_lim: red, n' = n2 as
  // stored, i.e. pointing away from the sphere (README: the sign of n.n1 tells the sides).
  const auto q = flipped(canonical("red_convex"), {0, canonical("red_convex").mesh->neighbour(0, 0)});
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST(r.side == -1);
  BOOST_TEST(cases::to_string(r.zone) == std::string("red"));
  BOOST_TEST((r.normal - Vec3(-0.6, 0, -0.8)).norm() <= 1e-15);
  // Far behind (n.n1 = -4/sqrt(17) < -3/5 against the reversed n1): green, n' = -n1 = +z.
  const auto g = ref::edge_smoothing(flipped(canonical("blue_convex"), {0, q.mesh->neighbour(0, 0)}));
  BOOST_TEST(cases::to_string(g.zone) == std::string("green"));
  BOOST_TEST((g.normal - Vec3(0, 0, 1)).norm() <= 1e-15);
}

BOOST_AUTO_TEST_CASE(zone_order_blue_before_green_on_sharp_edges) {
  // n_lim = -12/13 < -1/sqrt(2): n.n1 = -4/5 satisfies both blue (>= -12/13) and green
  // (<= -5/13); blue is tested first.
  const auto r = ref::edge_smoothing(canonical("sharp_edge_blue_wins"));
  BOOST_TEST(cases::to_string(r.zone) == std::string("blue"));
  BOOST_TEST(!r.adjusted);
}

BOOST_AUTO_TEST_CASE(centre_in_facet_plane_goes_where_the_inequalities_put_it) {
  check_expected("in_plane_right_angle", ref::edge_smoothing(canonical("in_plane_right_angle")), 1e-15);
  check_expected("in_plane_fold", ref::edge_smoothing(canonical("in_plane_fold")), 1e-15);
  check_expected("in_plane_flat", ref::edge_smoothing(canonical("in_plane_flat")), 1e-15);
}

BOOST_AUTO_TEST_CASE(end_point_of_edge_is_a_vertex_contact) {
  const auto r = ref::edge_smoothing(canonical("edge_end_point"));
  BOOST_TEST(cases::to_string(r.region) == std::string("vertex0"));
  BOOST_TEST(cases::to_string(r.zone) == std::string("vertex_cone"));
}

BOOST_AUTO_TEST_CASE(green_zone_normal_is_unit_minus_n1) {
  const auto r = ref::edge_smoothing(canonical("green_behind"));
  BOOST_TEST(std::abs(r.normal.norm() - 1) <= 1e-16);
  BOOST_TEST((r.normal + Vec3(0, 0, 1)).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(polar_exact_tie_first_in_fan_order_margin_zero) {
  const auto q = polar_tie();
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST(cases::to_string(r.zone) == std::string("vertex_cone"));
  BOOST_TEST(r.side == 0);
  BOOST_TEST_REQUIRE(r.polar);
  const auto g = generators(q, r);
  BOOST_TEST_REQUIRE(r.generator_gap.size() == g.size());
  BOOST_TEST(r.cone_j == -1);
  BOOST_TEST(r.feature_margin == 0.0);
  // Every generator orthogonal to d ties (gap exactly 0); the reference keeps the first.
  int first_tie = -1, ties = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const bool tie = std::abs(g[i].dot(Vec3(-1, -1, 0))) < 1e-15;
    BOOST_TEST((r.generator_gap[i] == 0.0) == tie);
    if (tie && first_tie < 0) first_tie = static_cast<int>(i);
    ties += tie;
    if (!tie) BOOST_TEST(std::abs(r.generator_gap[i] - 3 / (5 * std::sqrt(2.0))) <= 1e-15);
  }
  BOOST_TEST(ties == 3);  // +z twice and (3,-3,2)
  BOOST_TEST(r.cone_i == first_tie);
  BOOST_TEST((r.normal - g[first_tie]).norm() <= 1e-15);
  BOOST_TEST(r.condition == 1.0);
}

BOOST_AUTO_TEST_CASE(polar_near_tie_picks_the_better_generator) {
  for (double zeta : {0x1p-20, 0x1p-50}) {
    const auto q = polar_near_tie(zeta);
    const auto r = ref::edge_smoothing(q);
    BOOST_TEST_CONTEXT("zeta " << zeta) {
      BOOST_TEST_REQUIRE(r.polar);
      const auto g = generators(q, r);
      BOOST_TEST((r.normal - Vec3(0, 0, 1)).norm() == 0.0);  // n1 is the unique best
      BOOST_TEST((g[r.cone_i] - Vec3(0, 0, 1)).norm() == 0.0);
      // The tilted generators lose by 2 zeta / (|d| |g|): zeta / (2 sqrt 2) for (zeta, zeta, 4)
      // and, the smaller, zeta / sqrt(44) for the closer (|g| = sqrt(88) to first order).
      BOOST_TEST(r.feature_margin > 0.0);
      BOOST_TEST(std::abs(r.feature_margin - zeta / std::sqrt(44.0)) <= 1e-3 * zeta);
    }
  }
}

BOOST_AUTO_TEST_CASE(projected_piece_and_its_margin) {
  // vertex_outside_cone: P(d) inside the face of (3,0,4) and (3,-3,2); the margin is the
  // distance of P(d) to the nearer of the two generators' lines, over |d|. vertex_behind:
  // -d projects onto the ray +z; the piece is a single generator (condition 1).
  {
    const auto& q = canonical("vertex_outside_cone");
    const auto r = ref::edge_smoothing(q);
    const auto g = generators(q, r);
    BOOST_TEST_REQUIRE(r.cone_i >= 0);
    BOOST_TEST_REQUIRE(r.cone_j > r.cone_i);
    BOOST_TEST((g[r.cone_i].cross(g[r.cone_j]).normalized().cross(Vec3(4, 2, -3).normalized())).norm() <= 1e-15);
    const Vec3 d(4, -2, 1), p = Vec3(80, -76, 56) / 29;
    const double m = std::min(p.cross(g[r.cone_i]).norm(), p.cross(g[r.cone_j]).norm()) / d.norm();
    BOOST_TEST(std::abs(r.feature_margin - m) <= 1e-15);
    BOOST_TEST(r.feature_margin > 0.01);  // 0.035: P(d) is near the line of (3,-3,2)
    BOOST_TEST(std::isfinite(r.condition));
    const auto f = fst::edge_smoothing(q);
    BOOST_TEST(f.cone_i == r.cone_i);
    BOOST_TEST(f.cone_j == r.cone_j);
    auto f_ray = f;  // a fast variant landing on one of the face's rays instead: far from it
    f_ray.cone_j = -1;
    BOOST_TEST(verdict(q, r, f_ray) == "wrong");
  }
  {
    const auto& q = canonical("vertex_behind");
    const auto r = ref::edge_smoothing(q);
    BOOST_TEST_REQUIRE(r.cone_i >= 0);
    BOOST_TEST(r.cone_j == -1);
    BOOST_TEST(!r.polar);
    BOOST_TEST(r.condition == 1.0);
    BOOST_TEST(r.feature_margin > 0.1);
    const auto f = fst::edge_smoothing(q);
    BOOST_TEST(f.cone_i == r.cone_i);
    BOOST_TEST(f.cone_j == -1);
  }
}

// Index of the generator of the fan with unit direction u (the first one), or -1.
int generator_index(const std::vector<Vec3>& g, const Vec3& u) {
  for (std::size_t i = 0; i < g.size(); ++i)
    if ((g[i] - u.normalized()).norm() <= 1e-15) return static_cast<int>(i);
  return -1;
}

BOOST_AUTO_TEST_CASE(claimed_piece_distance_exact_on_a_hand_derived_fan) {
  // The canonical fan at u = (0,-2,0) in front of facet 1: generators z = (0,0,1) (facet 1
  // and the flat facet across edge2), a = (3,0,4), c = (3,-3,2). Outward face normals:
  // (a, c): n1 = (4,2,-3); (c, z): n2 = (-1,-1,0); (z, a): (0,1,0). d = (4,-2,1) projects
  // into the face (a, c). Claimed ray c: d.c = 20 > 0, d_perp = d - (10/11) c
  // = (14,8,-9)/11 = (3/11) n1 - (2/11) n2, outside the wedge of n1, n2 beyond n1:
  // dist^2 = |d_perp|^2 - (d_perp.n1)^2 / |n1|^2 = 31/11 - 81/29 = 8/319; over |d|^2 = 21.
  // Claimed face (z, a): across (d.(0,1,0) = -2): 4; in the plane y = 0, (4,0,1) beyond a:
  // 17 - 16^2/25 = 169/25; total 269/25, over 21.
  const auto& q = canonical("vertex_outside_cone");
  const auto r = ref::edge_smoothing(q);
  const auto g = generators(q, r);
  const int iz = generator_index(g, Vec3(0, 0, 1)), ia = generator_index(g, Vec3(3, 0, 4)),
            ic = generator_index(g, Vec3(3, -3, 2));
  BOOST_TEST_REQUIRE(iz >= 0);
  BOOST_TEST_REQUIRE(ia >= 0);
  BOOST_TEST_REQUIRE(ic >= 0);
  BOOST_TEST_REQUIRE(r.cone_i == std::min(ia, ic));
  BOOST_TEST_REQUIRE(r.cone_j == std::max(ia, ic));
  BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, r.cone_i, r.cone_j) == 0.0);
  BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, ic, ia) == 0.0);  // same face
  const double to_ray = ref::edge_smoothing_cone_piece_distance(q, ic, -1);
  BOOST_TEST(to_ray >= std::sqrt(8.0 / 6699) * (1 - 1e-16));
  BOOST_TEST(to_ray == std::sqrt(8.0 / 6699), boost::test_tools::tolerance(1e-15));
  BOOST_TEST(to_ray == r.feature_margin, boost::test_tools::tolerance(1e-15));  // that boundary
  const double to_face =
      ref::edge_smoothing_cone_piece_distance(q, std::min(iz, ia), std::max(iz, ia));
  BOOST_TEST(to_face == std::sqrt(269.0 / 525), boost::test_tools::tolerance(1e-15));
  // Not a piece of this cone: out of range, a generator with itself.
  const double inf = std::numeric_limits<double>::infinity();
  BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, static_cast<int>(g.size()), -1) == inf);
  BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, ic, ic) == inf);
  // Not the projected case: d inside the cone.
  const auto& inside = canonical("vertex_inside_cone");
  BOOST_TEST(ref::edge_smoothing_cone_piece_distance(inside, 0, -1) == inf);
}

BOOST_AUTO_TEST_CASE(claimed_piece_near_boundary_is_boundary_far_face_is_wrong) {
  // Same fan, d = B + delta m with B = 3c + n1 = (13,-7,3) on the boundary between the face
  // (a, c) and the ray c, m = c x n1 = (5,17,18) pointing into the face's side (m.a = 87).
  // B.m = 0, so |d|^2 = 227 + 638 delta^2 and the distance to the ray's directions is
  // delta sqrt(638) / |d|. A fast variant claiming the ray c is within rounding of the truth
  // (`boundary`); one claiming the far face (z, a) is `wrong`.
  const double delta = 0x1p-46;
  auto q = canonical("vertex_outside_cone");
  const Vec3 u = q.mesh->vertex(q.facet, 0);
  BOOST_TEST_REQUIRE((u - Vec3(0, -2, 0)).norm() == 0.0);
  q.centre = u + Vec3(13, -7, 3) + delta * Vec3(5, 17, 18);  // exact in double
  q.radius = 16;
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST_REQUIRE(cases::to_string(r.region) == std::string("vertex0"));
  BOOST_TEST_REQUIRE(r.adjusted);
  BOOST_TEST_REQUIRE(!r.polar);
  const auto g = generators(q, r);
  const int iz = generator_index(g, Vec3(0, 0, 1)), ia = generator_index(g, Vec3(3, 0, 4)),
            ic = generator_index(g, Vec3(3, -3, 2));
  BOOST_TEST_REQUIRE(r.cone_i == std::min(ia, ic));
  BOOST_TEST_REQUIRE(r.cone_j == std::max(ia, ic));
  const double exact = delta * std::sqrt(638 / (227 + 638 * delta * delta));
  const double to_ray = ref::edge_smoothing_cone_piece_distance(q, ic, -1);
  BOOST_TEST(to_ray > 0.0);
  BOOST_TEST(to_ray == exact, boost::test_tools::tolerance(1e-15));
  auto f = fst::edge_smoothing(q);
  BOOST_TEST_REQUIRE(!f.polar);
  BOOST_TEST_REQUIRE(f.adjusted);
  f.cone_i = ic;  // claims the adjacent ray (n' = c differs from the exact n' by ~delta)
  f.cone_j = -1;
  f.normal = g[ic];
  f.point = q.centre - (q.centre - u).dot(f.normal) * f.normal;
  BOOST_TEST(verdict(q, r, f) == "boundary");
  f.cone_i = std::min(iz, ia);  // claims the far face (z, a)
  f.cone_j = std::max(iz, ia);
  BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, f.cone_i, f.cone_j) > 0.3);
  BOOST_TEST(verdict(q, r, f) == "wrong");
}

BOOST_AUTO_TEST_CASE(claimed_piece_same_face_plane_under_another_label) {
  // d = c + z + n2 = (2,-4,3) projects into the face (z, c); the fan has z twice (facet 1
  // and the flat facet across edge2), so the pairs (z, c) and (z', c) span the same face
  // plane: one piece, distance 0 whichever label is claimed. The ray z is not: its normal
  // cone is {x <= 0, x <= y} in the plane z = 0, the polar of H = cone{(1,0), (1,-1)};
  // d_perp = (2,-4) projects onto H at (3,-3): dist^2 = 18, over |d|^2 = 29.
  auto q = canonical("vertex_outside_cone");
  const Vec3 u = q.mesh->vertex(q.facet, 0);
  q.centre = u + Vec3(2, -4, 3);
  q.radius = 6;
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST_REQUIRE(r.adjusted);
  BOOST_TEST_REQUIRE(!r.polar);
  const auto g = generators(q, r);
  const int ic = generator_index(g, Vec3(3, -3, 2));
  std::vector<int> zs;
  for (int i = 0; i < static_cast<int>(g.size()); ++i)
    if ((g[i] - Vec3(0, 0, 1)).norm() == 0.0) zs.push_back(i);
  BOOST_TEST_REQUIRE(zs.size() == 2u);
  BOOST_TEST_REQUIRE(r.cone_j >= 0);
  for (int z : zs) {
    BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, std::min(z, ic), std::max(z, ic)) == 0.0);
    BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, z, -1) == std::sqrt(18.0 / 29),
               boost::test_tools::tolerance(1e-15));
  }
}

BOOST_AUTO_TEST_CASE(claimed_piece_distance_generated_queries) {
  // Generated projected vertex cones: the reference's own piece is at distance 0; any other
  // piece is either the same one under another label (0) or at least as far as the nearest
  // boundary of d's own region: a side plane (feature_margin), the cone (cone_margin) or the
  // polar cone (polar_margin).
  int checked = 0, same = 0;
  for (bool degenerate : {false, true})
    for (const auto& q : generated(1500, degenerate)) {
      const auto r = ref::edge_smoothing(q);
      if (r.zone != Zone::vertex_cone || !r.adjusted || r.polar) continue;
      BOOST_TEST_CONTEXT("query " << checked << (degenerate ? " degenerate" : " random")) {
        BOOST_TEST(ref::edge_smoothing_cone_piece_distance(q, r.cone_i, r.cone_j) == 0.0);
        const double lower =
            std::min({r.feature_margin, r.cone_margin, r.polar_margin}) * (1 - 1e-12);
        const int n = static_cast<int>(generators(q, r).size());
        for (int i = 0; i < n; ++i)
          for (int j = -1; j < n; ++j) {
            if (j == i || (j >= 0 && j < i) || (i == r.cone_i && j == r.cone_j)) continue;
            const double dist = ref::edge_smoothing_cone_piece_distance(q, i, j);
            same += dist == 0.0;
            BOOST_TEST((dist == 0.0 || dist >= lower),
                       i << "," << j << ": " << dist << " < " << lower);
          }
      }
      ++checked;
    }
  BOOST_TEST(checked > 100);
  BOOST_TEST_MESSAGE("claimed pieces: " << checked << " queries, " << same << " other labels at 0");
}

BOOST_AUTO_TEST_CASE(centre_on_facet_is_an_explicit_state) {
  const auto r = ref::edge_smoothing(canonical("centre_on_facet"));
  BOOST_TEST(r.centre_on_facet);
  BOOST_TEST(r.on_facet_margin == 0.0);
  auto q = canonical("centre_on_facet");
  q.centre.z() = 0x1p-40;
  const auto s = ref::edge_smoothing(q);
  BOOST_TEST(!s.centre_on_facet);
  BOOST_TEST(s.on_facet_margin == 0x1p-40);
  BOOST_TEST((s.normal - Vec3(0, 0, 1)).norm() == 0.0);
}

BOOST_AUTO_TEST_CASE(inside_cone_margin_is_the_distance_to_the_supporting_planes) {
  // The exact margin (rationals, one rounded-up square root) against an independent double
  // evaluation: min |u.w| over the planes of two generators that support the cone.
  const auto& q = canonical("vertex_inside_cone");
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST_REQUIRE(!r.adjusted);
  const auto g = generators(q, r);
  const Vec3 u = (q.centre - q.mesh->vertex(q.facet, 0)).normalized();
  double m = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < g.size(); ++i)
    for (std::size_t j = i + 1; j < g.size(); ++j) {
      const Vec3 w = g[i].cross(g[j]);
      if (w.norm() < 1e-6) continue;
      bool pos = true, neg = true;
      for (const auto& x : g) pos = pos && x.dot(w) >= -1e-12, neg = neg && x.dot(w) <= 1e-12;
      if (pos || neg) m = std::min(m, std::abs(u.dot(w.normalized())));
    }
  BOOST_TEST_REQUIRE(std::isfinite(m));
  BOOST_TEST(r.cone_margin > 0.0);
  BOOST_TEST(r.cone_margin == m, boost::test_tools::tolerance(1e-13));
}

BOOST_AUTO_TEST_CASE(vertex_cone_direction_is_nearest_in_cone) {
  // Independent check: no sampled direction of the cone (positive combinations of the fan's
  // oriented normals) is closer in angle to d than the reference's n'.
  for (const char* name : {"vertex_outside_cone", "edge_end_point", "vertex_behind"}) {
    const auto& q = canonical(name);
    const auto r = ref::edge_smoothing(q);
    const Vec3 d = (q.centre - q.mesh->vertex(0, 0)).normalized();
    std::vector<Vec3> g;
    for (const auto& [f, s] : cases::oriented_fan(*q.mesh, 0, q.mesh->facets()[0][0]))
      g.push_back(s * (r.side < 0 ? -1.0 : 1.0) * q.mesh->normal(f).normalized());
    cases::Rng rng(5);
    for (int i = 0; i < 20000; ++i) {
      Vec3 x = Vec3::Zero();
      for (const auto& gi : g) x += cases::uniform(rng, 0, 1) * std::pow(cases::uniform(rng, 0, 1), 4) * gi;
      BOOST_TEST_REQUIRE(x.normalized().dot(d) <= r.normal.dot(d) + 1e-15, name);
    }
  }
}

// Membership in the cone of g by Caratheodory in double, independent of the reference's
// method: x is a nonnegative combination of at most three generators (tolerance tol).
bool in_cone(const std::vector<Vec3>& g, const Vec3& x, double tol) {
  const std::size_t n = g.size();
  for (std::size_t i = 0; i < n; ++i) {
    if ((x - x.dot(g[i]) * g[i]).norm() <= tol && x.dot(g[i]) >= 0) return true;  // on a ray
    for (std::size_t j = i + 1; j < n; ++j) {
      const Vec3 w = g[i].cross(g[j]);
      if (w.norm() < 1e-9) continue;
      if (std::abs(x.dot(w.normalized())) <= tol &&  // in the plane of g_i, g_j: both sides
          x.cross(g[j]).dot(w) >= -tol && g[i].cross(x).dot(w) >= -tol)
        return true;
      for (std::size_t k = j + 1; k < n; ++k) {
        const double det = w.dot(g[k]);
        if (std::abs(det) < 1e-9) continue;
        const double a = x.dot(g[j].cross(g[k])) / det, b = g[i].dot(x.cross(g[k])) / det,
                     c = g[i].dot(g[j].cross(x)) / det;
        if (a >= -tol && b >= -tol && c >= -tol) return true;
      }
    }
  }
  return false;
}

BOOST_AUTO_TEST_CASE(vertex_cone_generated_queries_independent_check) {
  // For generated vertex contacts: n' lies in the cone; d is in the cone exactly when the
  // reference keeps it (up to its cone margin); no sampled cone direction is nearer to d.
  int checked = 0;
  for (const auto& q : generated(1500, true)) {
    const auto r = ref::edge_smoothing(q);
    if (r.zone != Zone::vertex_cone) continue;
    const int k = static_cast<int>(r.region) - 4;
    const Vec3 d = (q.centre - q.mesh->vertex(q.facet, k)).normalized();
    std::vector<Vec3> g;
    for (const auto& [f, s] : cases::oriented_fan(*q.mesh, q.facet, q.mesh->facets()[q.facet][k]))
      g.push_back(s * (r.side < 0 ? -1.0 : 1.0) * q.mesh->normal(f).normalized());
    BOOST_TEST_CONTEXT("query " << checked) {
      BOOST_TEST(in_cone(g, r.normal, 1e-9));
      if (r.cone_margin > 1e-6) BOOST_TEST(in_cone(g, d, 1e-9) == !r.adjusted);
      if (!r.adjusted) BOOST_TEST((r.normal - d).norm() <= 1e-15);
      cases::Rng rng(checked);
      for (int i = 0; i < 3000; ++i) {
        Vec3 x = Vec3::Zero();
        for (const auto& gi : g) x += std::pow(cases::uniform(rng, 0, 1), 6) * gi;
        if (x.norm() == 0) continue;
        BOOST_TEST_REQUIRE(x.normalized().dot(d) <= r.normal.dot(d) + 1e-12);
      }
    }
    ++checked;
  }
  BOOST_TEST(checked > 100);
}

BOOST_AUTO_TEST_CASE(invariant_under_exact_rigid_motion_and_facet_order) {
  Eigen::Matrix3d R;
  R << 0, -1, 0, 0, 0, 1, -1, 0, 0;  // exact rotation (det = +1)
  const Vec3 t(0.25, -3.5, 1024);
  for (const auto& [name, q, source] : cases::EdgeSmoothing::canonical()) {
    const auto a = ref::edge_smoothing(q);
    const auto b = ref::edge_smoothing(moved(q, R, t));
    BOOST_TEST_CONTEXT(name) {
      BOOST_TEST(cases::to_string(a.zone) == cases::to_string(b.zone));
      BOOST_TEST(a.adjusted == b.adjusted);
      BOOST_TEST(a.side == b.side);
      BOOST_TEST((R * a.normal - b.normal).norm() <= 1e-15);
      BOOST_TEST((R * a.point + t - b.point).norm() <= 1e-12);
    }
    // Facet order reversed: the contacted facet moves, nothing else changes.
    auto f = q.mesh->facets();
    std::reverse(f.begin(), f.end());
    auto qr = q;
    qr.mesh = std::make_shared<const cases::Mesh>(q.mesh->vertices(), f);
    qr.facet = q.mesh->facet_count() - 1 - q.facet;
    const auto c = ref::edge_smoothing(qr);
    BOOST_TEST_CONTEXT(name << " reordered") {
      BOOST_TEST(cases::to_string(a.zone) == cases::to_string(c.zone));
      BOOST_TEST((a.normal - c.normal).norm() == 0.0);
    }
  }
}

BOOST_AUTO_TEST_CASE(overlap_is_never_changed_by_smoothing) {
  for (bool deg : {false, true})
    for (const auto& q : generated(300, deg)) {
      const auto r = ref::edge_smoothing(q);
      const auto cf = ref::closest_feature(
          {q.centre, q.mesh->vertex(q.facet, 0), q.mesh->vertex(q.facet, 1), q.mesh->vertex(q.facet, 2)});
      const double d = std::sqrt(cf.squared_distance);  // both sides round once or twice
      BOOST_TEST(std::abs(r.overlap - (q.radius - d)) <= 4 * 0x1p-52 * std::max(q.radius, d));
      BOOST_TEST(std::abs(r.normal.norm() - 1) <= 1e-15);
    }
}

BOOST_AUTO_TEST_CASE(red_and_green_points_lie_on_their_planes) {
  for (const auto& q : generated(600, true)) {
    const auto r = ref::edge_smoothing(q);
    if (r.zone != Zone::red && r.zone != Zone::green) continue;
    // The adjusted point is c - ((c - u).n') n': on the plane through the edge with normal n'.
    const int k = static_cast<int>(r.region) - 1;
    const Vec3 u = q.mesh->vertex(q.facet, k);
    const double L = std::max(q.centre.cwiseAbs().maxCoeff(), u.cwiseAbs().maxCoeff());
    BOOST_TEST(std::abs((r.point - u).dot(r.normal)) <= 1e-14 * L);
    BOOST_TEST(std::abs((q.centre - r.point).cross(r.normal).norm()) <= 1e-14 * L);
  }
}

BOOST_AUTO_TEST_CASE(degenerate_generator_hits_every_boundary_exactly) {
  int zone0 = 0, side0 = 0, region0 = 0, cone0 = 0, red = 0, green = 0, blue = 0, cone = 0;
  for (const auto& q : generated(3000, true)) {
    const auto r = ref::edge_smoothing(q);
    zone0 += r.zone_margin == 0;
    side0 += r.side_margin == 0;
    region0 += r.region_margin == 0;
    cone0 += r.zone == Zone::vertex_cone && r.cone_margin == 0;
    red += r.zone == Zone::red;
    green += r.zone == Zone::green;
    blue += r.zone == Zone::blue;
    cone += r.zone == Zone::vertex_cone;
  }
  BOOST_TEST_MESSAGE("zone0 " << zone0 << " side0 " << side0 << " region0 " << region0 << " cone0 "
                              << cone0 << " blue " << blue << " red " << red << " green " << green
                              << " cone " << cone);
  BOOST_TEST(zone0 > 30);
  BOOST_TEST(side0 > 30);
  BOOST_TEST(region0 > 30);
  BOOST_TEST(cone0 > 10);
  BOOST_TEST(std::min({red, green, blue, cone}) > 30);
}

BOOST_AUTO_TEST_CASE(query_json_round_trip_and_bad_input) {
  const auto& q = canonical("red_convex");
  const auto j = cases::EdgeSmoothing::to_json(q);
  const auto back = cases::EdgeSmoothing::from_json(j, {"t.jsonl", "line 1"});
  BOOST_TEST(back.facet == q.facet);
  BOOST_TEST((back.centre - q.centre).norm() == 0.0);
  check_expected("red_convex", ref::edge_smoothing(back), 1e-15);
  auto bad = j;
  bad["radius"] = -1;
  BOOST_CHECK_EXCEPTION(cases::EdgeSmoothing::from_json(bad, {"t.jsonl", "line 3"}),
                        cases::InputError, [](const cases::InputError& e) {
                          return std::string(e.what()) == "t.jsonl: line 3: field radius: must be finite and > 0";
                        });
  bad = j;
  bad["facet"] = 99;
  BOOST_CHECK_THROW(cases::EdgeSmoothing::from_json(bad, {"t.jsonl", "line 4"}), cases::InputError);
  bad = j;
  bad["centre"] = {"0x1p-1", "-0x1.8p-3", 2};  // exact hex strings, as README promises
  const auto hex = cases::EdgeSmoothing::from_json(bad, {"t.jsonl", "line 6"});
  BOOST_TEST((hex.centre - Vec3(0.5, -0.1875, 2)).norm() == 0.0);
  bad = j;
  bad["mesh"]["vertices"][0] = {"0x0p+0", "-0x1p+1", "0"};
  BOOST_CHECK_NO_THROW(cases::EdgeSmoothing::from_json(bad, {"t.jsonl", "line 7"}));
  bad = j;
  bad["raduis"] = 1;  // misspelled keys are errors, not defaults
  BOOST_CHECK_EXCEPTION(cases::EdgeSmoothing::from_json(bad, {"t.jsonl", "line 8"}),
                        cases::InputError, [](const cases::InputError& e) {
                          return std::string(e.what()).find("field raduis: unknown key") != std::string::npos;
                        });
  bad = j;
  bad["mesh"]["normals"] = nlohmann::json::array();
  BOOST_CHECK_EXCEPTION(cases::EdgeSmoothing::from_json(bad, {"t.jsonl", "line 9"}),
                        cases::InputError, [](const cases::InputError& e) {
                          return std::string(e.what()).find("field normals: unknown key") != std::string::npos;
                        });
  bad = j;
  bad["mesh"]["facets"][1] = {0, 1, 7};
  BOOST_CHECK_EXCEPTION(cases::EdgeSmoothing::from_json(bad, {"t.jsonl", "line 5"}),
                        cases::InputError, [](const cases::InputError& e) {
                          return std::string(e.what()).find("field facets[1][2]") != std::string::npos;
                        });
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(fast)

BOOST_AUTO_TEST_CASE(canonical_cases_match_hand_derived_answers) {
  for (const auto& [name, q, source] : cases::EdgeSmoothing::canonical()) check_expected(name, fst::edge_smoothing(q), 1e-14);
}

BOOST_AUTO_TEST_CASE(bound_translation_invariant_grows_with_conditioning) {
  // Same geometry translated far away (exactly): differences round relative to themselves,
  // so the stated angle bound stays what it is (issue 8: a small facet far from the origin
  // keeps its resolution); it grows as the contact distance shrinks (1 / d).
  const auto& q = canonical("red_convex");
  Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  const auto far = moved(q, I, Vec3(1 << 20, 0, 0));
  const auto b0 = fst::edge_smoothing_bounds(q, ref::edge_smoothing(q).on_facet_margin);
  const auto b1 = fst::edge_smoothing_bounds(far, ref::edge_smoothing(far).on_facet_margin);
  BOOST_TEST(b1.angle == b0.angle);
  BOOST_TEST(b0.angle < 1e-12);
  BOOST_TEST(fst::edge_smoothing_bounds(q, 1e-6).angle > 1e5 * b0.angle);
  BOOST_TEST(verdict(far, ref::edge_smoothing(far), fst::edge_smoothing(far)) == "agree");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(agreement)

BOOST_AUTO_TEST_CASE(check_finds_nothing_wrong_and_some_boundary) {
  harness::CheckOptions o;
  o.n = 20000;
  o.seed = 3;
  const auto s = harness::find_family("edge_smoothing")->check(o);
  BOOST_TEST(s.total.wrong == 0u);
  BOOST_TEST(s.total.boundary > 0u);  // the degenerate generator reaches exact boundaries
  BOOST_TEST(s.by_source.at("canonical").agree == cases::EdgeSmoothing::canonical().size());
}

BOOST_AUTO_TEST_CASE(polar_tie_other_generator_is_boundary_worse_one_is_wrong) {
  const auto q = polar_tie();
  const auto r = ref::edge_smoothing(q);
  const auto f = fst::edge_smoothing(q);
  BOOST_TEST(f.polar);
  BOOST_TEST(f.cone_i == r.cone_i);  // ties within rounding go to the first, as exactly
  BOOST_TEST(verdict(q, r, f) == "agree");
  const auto g = generators(q, r);
  int other = -1, worse = -1;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (r.generator_gap[i] == 0.0 && (g[i] - g[r.cone_i]).norm() > 0.1) other = static_cast<int>(i);
    if (r.generator_gap[i] > 0.1) worse = static_cast<int>(i);
  }
  BOOST_TEST_REQUIRE(other >= 0);
  BOOST_TEST_REQUIRE(worse >= 0);
  auto f_other = f, f_worse = f;
  f_other.cone_i = other;
  f_other.normal = g[other];
  f_worse.cone_i = worse;
  f_worse.normal = g[worse];
  BOOST_TEST(verdict(q, r, f_other) == "boundary");
  BOOST_TEST(verdict(q, r, f_worse) == "wrong");
}

BOOST_AUTO_TEST_CASE(polar_near_tie_judged_by_the_exact_gap) {
  // zeta = 2^-50: gap ~3e-16, inside the stated bound: the other generator is `boundary`.
  // zeta = 2^-20: gap ~3e-7, far outside: the other generator is `wrong`.
  for (double zeta : {0x1p-50, 0x1p-20}) {
    const auto q = polar_near_tie(zeta);
    const auto r = ref::edge_smoothing(q);
    const auto f = fst::edge_smoothing(q);
    const auto b = fst::edge_smoothing_bounds(q, r.on_facet_margin);
    BOOST_TEST_CONTEXT("zeta " << zeta) {
      BOOST_TEST(verdict(q, r, f) != "wrong");
      const auto g = generators(q, r);
      int other = -1;
      for (std::size_t i = 0; i < g.size(); ++i)
        if (r.generator_gap[i] > 0 && r.generator_gap[i] < 1e-3) other = static_cast<int>(i);
      BOOST_TEST_REQUIRE(other >= 0);
      auto f_other = r;  // the reference's answer with only the generator changed
      f_other.cone_i = other;
      f_other.normal = g[other];
      const bool inside = r.generator_gap[other] <= b.angle;
      BOOST_TEST_MESSAGE("gap " << r.generator_gap[other] << " bound " << b.angle);
      BOOST_TEST(inside == (zeta < 1e-9));
      BOOST_TEST(verdict(q, r, f_other) ==
                 std::string(inside ? "boundary" : "wrong"));
    }
  }
}

BOOST_AUTO_TEST_CASE(centre_within_tolerance_of_facet_is_boundary_not_infinite_bound) {
  auto q = canonical("centre_on_facet");
  BOOST_TEST(verdict(q, ref::edge_smoothing(q), fst::edge_smoothing(q)) == "agree");
  q.centre.z() = 0x1p-40;  // fast: n undefined at double precision; reference: n = +z
  const auto r = ref::edge_smoothing(q), f = fst::edge_smoothing(q);
  BOOST_TEST(f.centre_on_facet);
  BOOST_TEST(!r.centre_on_facet);
  BOOST_TEST(verdict(q, r, f) == "boundary");
  q.centre.z() = 1e-3;  // well defined: both compute n, within a finite bound
  const auto c = harness::EdgeSmoothingPair::compare(q, ref::edge_smoothing(q), fst::edge_smoothing(q));
  BOOST_TEST(std::string(harness::to_string(harness::judge(c, harness::Agreement::approximate))) == "agree", harness::describe(c));
  for (const auto& e : c.errors) BOOST_TEST(e.bound < 1e-6, e.field);
}

BOOST_AUTO_TEST_CASE(stated_normal_bound_is_finite_for_every_query) {
  harness::CheckOptions o;
  o.n = 100000;
  o.seed = 1;
  o.timing = false;
  const auto s = harness::find_family("edge_smoothing")->check(o);
  BOOST_TEST(s.total.wrong == 0u);
  BOOST_TEST_REQUIRE(s.error_bound.count("normal") == 1u);
  BOOST_TEST_MESSAGE("largest stated normal bound " << s.error_bound.at("normal"));
  BOOST_TEST(std::isfinite(s.error_bound.at("normal")));
  // Never vacuous (any two unit vectors are within 2): the largest bounds come from the deep
  // regime (1 / d with d = 1e-9 of the size: ~1e-5) and vertex-cone faces between nearly
  // parallel or opposite generators (condition and 1 / sin_min up to ~1e7: ~5e-3).
  BOOST_TEST(s.error_bound.at("normal") < 0.1);
  BOOST_TEST(std::isfinite(s.error_bound.at("point")));
}

BOOST_AUTO_TEST_CASE(side_flip_far_from_rounding_is_wrong) {
  // Review repro (H4): centre 1e-8 above a unit facet. The old bound took 1/d from the fast
  // output (margin 1e-8 against 1.4e-6: `boundary`); the side is a plane test whose rounding
  // is ~1e-16, so a flipped side with a negated normal must be `wrong`.
  auto q = canonical("centre_on_facet");
  q.centre.z() = 1e-8;
  const auto r = ref::edge_smoothing(q);
  auto f = fst::edge_smoothing(q);
  BOOST_TEST(verdict(q, r, f) != "wrong");  // within 2^-26 L: fast reports centre_on_facet
  BOOST_TEST(r.side == 1);
  f.side = -r.side;
  f.normal = -f.normal;
  const auto c = harness::EdgeSmoothingPair::compare(q, r, f);
  BOOST_TEST_REQUIRE(c.mismatches.size() == 1u);
  BOOST_TEST(c.mismatches[0].field == "side");
  BOOST_TEST(c.mismatches[0].bound < 1e-12);
  BOOST_TEST(std::string(harness::to_string(harness::judge(c, harness::Agreement::approximate))) == "wrong");
}

BOOST_AUTO_TEST_CASE(zone_claim_judged_by_distance_to_the_claimed_zone) {
  // blue_red_boundary: n.n1 = n_lim exactly. Claiming red is `boundary` (distance 0);
  // claiming green is `wrong` (not adjacent: red lies between).
  {
    const auto& q = canonical("blue_red_boundary");
    const auto r = ref::edge_smoothing(q);
    BOOST_TEST(ref::edge_smoothing_zone_distance(q, Zone::red) == 0.0);
    BOOST_TEST(std::isinf(ref::edge_smoothing_zone_distance(q, Zone::green)));
    BOOST_TEST(std::isinf(ref::edge_smoothing_zone_distance(q, Zone::vertex_cone)));
    auto f = r;
    f.zone = Zone::red;
    BOOST_TEST(verdict(q, r, f) == "boundary");
    f.zone = Zone::green;
    BOOST_TEST(verdict(q, r, f) == "wrong");
  }
  {
    // red_convex: centre (4, 0, 1), n.n1 = 1/sqrt(17), n_lim = 4/5, o_lim = 3/5. The reference's zone_margin is
    // min(to_blue, to_green); the claimed zone's own distance is what counts.
    const auto& q = canonical("red_convex");
    const double x = 1 / std::sqrt(17.0);
    BOOST_TEST(ref::edge_smoothing_zone_distance(q, Zone::blue) == 0.8 - x,
               boost::test_tools::tolerance(1e-15));
    BOOST_TEST(ref::edge_smoothing_zone_distance(q, Zone::green) == x + 0.6,
               boost::test_tools::tolerance(1e-15));
    BOOST_TEST(ref::edge_smoothing_zone_distance(q, Zone::red) == 0.0);
    const auto r = ref::edge_smoothing(q);
    auto f = r;
    f.zone = Zone::blue;
    BOOST_TEST(verdict(q, r, f) == "wrong");
  }
  // Sharp edge (n_lim < -o_lim): red is empty, blue and green are adjacent.
  const auto& q = canonical("sharp_edge_blue_wins");
  BOOST_TEST(std::isinf(ref::edge_smoothing_zone_distance(q, Zone::red)));
  BOOST_TEST(std::isfinite(ref::edge_smoothing_zone_distance(q, Zone::green)));
}

BOOST_AUTO_TEST_CASE(region_claim_judged_by_distance_to_the_claimed_region) {
  const auto& q = canonical("face_front");
  const auto r = ref::edge_smoothing(q);
  auto f = fst::edge_smoothing(q);
  f.region = Region::edge0;
  BOOST_TEST(verdict(q, r, f) == "wrong");
}

BOOST_AUTO_TEST_CASE(overlap_compared_even_after_an_excused_mismatch) {
  // in_plane_flat: side 0 exactly, so a claimed side is excused; a wrong overlap is not.
  const auto& q = canonical("in_plane_flat");
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST(r.side == 0);
  auto f = fst::edge_smoothing(q);
  f.side = 1;
  BOOST_TEST(verdict(q, r, f) == "boundary");
  f.overlap += 1e-3;
  BOOST_TEST(verdict(q, r, f) == "wrong");
}

BOOST_AUTO_TEST_SUITE_END()

// Issue 8: thin triangles, regimes, decision coverage, planted faults, the domain.
BOOST_AUTO_TEST_SUITE(issue8)

namespace {
// One facet (no neighbours) and a sphere.
cases::EdgeSmoothingQuery single_facet(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& centre,
                                       double radius) {
  cases::EdgeSmoothingQuery q;
  q.mesh = std::make_shared<const cases::Mesh>(std::vector<Vec3>{a, b, c},
                                               std::vector<std::array<int, 3>>{{0, 1, 2}});
  q.facet = 0;
  q.centre = centre;
  q.radius = radius;
  return q;
}

// A thin triangle in the plane z = 0 with smallest angle theta (radians), longest edge ~1.
std::array<Vec3, 3> thin(const std::string& shape, double theta, double t) {
  if (shape == "needle")  // one short edge, base angles ~90 degrees
    return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(std::cos(theta), std::sin(theta), 0)};
  if (shape == "cap")  // apex at t along the base: one angle near 180 degrees
    return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(t, t * std::tan(theta), 0)};
  const double phi = 10 * theta, s = theta / (std::sin(phi) - theta * std::cos(phi));  // sliver
  return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1 + s * std::cos(phi), s * std::sin(phi), 0)};
}
}  // namespace

BOOST_AUTO_TEST_CASE(issue8_sliver_face_contact_agrees) {
  // The query of issue 8: a 0.18-degree sliver, the sphere touching its face. Hand-derived:
  // the facet lies in z = 0 with n1 = +z, the centre's projection is inside, so region face,
  // side +1, n' = n = (0, 0, 1), point = (cx, cy, 0), overlap = 0.02 - 0.01.
  const auto q = single_facet(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.9999950652018582, 0.0031415874858795635, 0),
                              Vec3(0.6666650217339528, 0.0010471958286265212, 0.01), 0.02);
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST((r.region == Region::face));
  BOOST_TEST(r.side == 1);
  BOOST_TEST((r.normal - Vec3(0, 0, 1)).norm() == 0.0);
  BOOST_TEST((r.point - Vec3(q.centre.x(), q.centre.y(), 0)).norm() == 0.0);
  BOOST_TEST(r.overlap == 0.02 - 0.01);
  const auto f = fst::edge_smoothing(q);
  BOOST_TEST((f.normal - r.normal).norm() <= 4e-16);  // was 9.38e-11
  BOOST_TEST(verdict(q, r, f) == "agree");
  // Through eval as a user runs it.
  test::TempFile in("q.jsonl", cases::EdgeSmoothing::to_json(q).dump() + "\n");
  test::TempFile out("out.json");
  BOOST_TEST(test::run_cli({"eval", "--family", "edge_smoothing", "--input", in.str(), "--json", out.str()}) == 0);
  std::ifstream is(out.str());
  const auto j = nlohmann::json::parse(is);
  BOOST_TEST(j.dump().find("\"verdict\":\"agree\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(thin_triangle_sweep_nothing_wrong) {
  // Smallest angle 1e-4 .. 6 degrees (aspect to ~1e6), needles, caps, slivers; face contacts
  // above and below, edge contacts all round each edge, vertex contacts; distance / size
  // 1e-3 .. 1; near the origin and ~1e6 x scale away; scales 1e-3 .. 1e3 (powers of two).
  const double pi = 3.14159265358979323846;
  std::size_t n = 0, wrong = 0;
  std::string first;
  for (const std::string shape : {"needle", "cap", "sliver"})
    for (double deg : {1e-4, 1e-3, 1e-2, 0.1, 1.0, 6.0})
      for (double s : {0x1p-10, 1.0, 0x1p10})
        for (double off : {0.0, 0x1p20})
          for (double rel : {1e-3, 1e-1, 1.0}) {
            const auto t = thin(shape, deg * pi / 180, 0.3);
            // A fixed tilt (exact cosines 3/5, 4/5) so no coordinate axis is special.
            Eigen::Matrix3d R;
            R << 0.6, 0, -0.8, 0, 1, 0, 0.8, 0, 0.6;
            const Vec3 o = off * std::max(1.0, s) * Vec3(1, -1, 1);
            std::array<Vec3, 3> v;
            for (int k = 0; k < 3; ++k) v[k] = o + s * (R * t[k]);
            const Vec3 n1 = R.col(2);
            const double d = rel * s;
            std::vector<Vec3> centres;
            const Vec3 inside = (v[0] + v[1] + v[2]) / 3;
            centres.push_back(inside + d * n1);
            centres.push_back(inside - d * n1);
            for (int k = 0; k < 3; ++k) {
              const Vec3 e = v[(k + 1) % 3] - v[k], mid = v[k] + 0.5 * e;
              Vec3 out = n1.cross(e).normalized();
              if (out.dot(v[(k + 2) % 3] - mid) > 0) out = -out;
              for (double psi : {0.3, 1.5, 2.8}) centres.push_back(mid + d * (std::cos(psi) * n1 + std::sin(psi) * out));
              centres.push_back(v[k] + d * Vec3(0.36, -0.48, 0.8));
            }
            // Neighbours folded across every edge so zones are exercised too.
            std::array<Vec3, 3> apex;
            for (int k = 0; k < 3; ++k) {
              const Vec3 e = v[(k + 1) % 3] - v[k], mid = v[k] + 0.5 * e;
              Vec3 out = n1.cross(e).normalized();
              if (out.dot(v[(k + 2) % 3] - mid) > 0) out = -out;
              apex[k] = mid + e.norm() * (0.6 * out - 0.4 * n1);
            }
            const auto mesh = cases::smoothing_patch(v[0], v[1], v[2], apex, {true, true, true}, {true, true, true});
            for (const auto& c : centres) {
              cases::EdgeSmoothingQuery q;
              q.mesh = mesh;
              q.facet = 0;
              q.centre = c;
              q.radius = 1.2 * d;
              BOOST_REQUIRE(fst::edge_smoothing_in_domain(q));
              const auto r = ref::edge_smoothing(q);
              const auto f = fst::edge_smoothing(q);
              ++n;
              if (verdict(q, r, f) == "wrong") {
                if (wrong++ == 0)
                  first = fmt::format("{} {} deg s={} off={} rel={}: {}", shape, deg, s, off, rel,
                                      harness::describe(harness::EdgeSmoothingPair::compare(q, r, f)));
              }
            }
          }
  BOOST_TEST_MESSAGE(n << " thin-triangle queries");
  BOOST_TEST(wrong == 0u, "first wrong: " << first);
  BOOST_TEST(n == 3u * 6 * 3 * 2 * 3 * 14);
}

BOOST_AUTO_TEST_CASE(thin_face_normal_error_is_a_few_ulps) {
  // The accurate facet normal: on a cap of aspect ~1e6 placed far away the face contact's n'
  // is within a few ulps of the exact unit normal, far below the old (L/h) bound.
  const double pi = 3.14159265358979323846;
  const auto t = thin("cap", 1e-4 * pi / 180, 0.37);
  Eigen::Matrix3d R;
  R << 0.6, 0, -0.8, 0, 1, 0, 0.8, 0, 0.6;
  std::array<Vec3, 3> v;
  for (int k = 0; k < 3; ++k) v[k] = Vec3(1e3, -1e3, 1e3) + 1e-3 * (R * t[k]);
  const Vec3 centre = (v[0] + v[1] + v[2]) / 3 + 1e-6 * R.col(2);
  const auto q = single_facet(v[0], v[1], v[2], centre, 2e-6);
  const auto r = ref::edge_smoothing(q), f = fst::edge_smoothing(q);
  BOOST_TEST((r.region == Region::face));
  BOOST_TEST((f.normal - r.normal).norm() <= 8 * std::numeric_limits<double>::epsilon());
  BOOST_TEST(verdict(q, r, f) == "agree");
}

BOOST_AUTO_TEST_CASE(generators_label_every_query_and_make_thin_face_contacts) {
  std::map<std::string, int> tags;
  for (int i = 0; i < 2000; ++i) {
    auto rng = cases::query_rng(5, "edge_smoothing", i % 2 ? "degenerate" : "random", i);
    const auto g = i % 2 ? cases::EdgeSmoothing::degenerate(rng) : cases::EdgeSmoothing::random(rng);
    for (const char* axis : {"shape=", "config=", "place=", "scale="})
      BOOST_TEST(g.regime.find(axis) != std::string::npos, g.regime);
    std::istringstream is(g.regime);
    std::string tag;
    while (is >> tag) ++tags[tag];
  }
  for (const char* t : {"shape=equilateral", "shape=generic", "shape=needle", "shape=cap", "shape=sliver",
                        "config=face", "config=vertex", "config=grazing", "config=deep", "config=in_plane",
                        "config=edge_blue", "config=edge_red", "config=edge_green", "config=centre_on_facet",
                        "config=edge_blue_red", "config=edge_red_green", "place=origin", "place=far",
                        "scale=1e-3", "scale=1", "scale=1e3", "scale=extreme", "scale=beyond_domain"})
    BOOST_TEST(tags[t] > 0, t);
}

// The CI-size check (suite mutation asserts 0 wrong and full decision coverage for every
// family): thin shapes with face contacts are generated, and agree.
BOOST_AUTO_TEST_CASE(ci_check_makes_thin_face_contacts_and_out_of_domain_queries) {
  harness::CheckOptions o;
  o.timing = false;
  const auto s = harness::find_family("edge_smoothing")->check(o);
  // Thin shapes with face contacts are generated and agree.
  BOOST_TEST(s.by_regime.at("shape=needle").queries > 0u);
  BOOST_TEST(s.by_regime.at("config=face").wrong == 0u);
  BOOST_TEST(s.by_regime.at("scale=beyond_domain").out_of_domain > 0u);
}

BOOST_AUTO_TEST_CASE(planted_faults_bite_on_hand_made_cases) {
  // Each fault against one canonical case where it must differ beyond every bound.
  auto v = [](const char* name, auto fast) {
    const auto& q = canonical(name);
    return harness::to_string(harness::verdict<harness::EdgeSmoothingPair>(q, ref::edge_smoothing(q), fast(q)));
  };
  BOOST_TEST(v("red_convex", &harness::EdgeSmoothingRedRawNormalFault::fast) == "wrong");
  BOOST_TEST(v("red_convex", &harness::EdgeSmoothingPair::fast) == "agree");
  BOOST_TEST(v("centre_on_facet", &harness::EdgeSmoothingOnFacetDroppedFault::fast) == "wrong");
  BOOST_TEST(v("centre_on_facet", &harness::EdgeSmoothingPair::fast) == "agree");
  // Flipped neighbour: the honest kernel is orientation-blind, the fault is not.
  const auto q = flipped(canonical("red_convex"), {1, 2, 3});
  const auto r = ref::edge_smoothing(q);
  BOOST_TEST(verdict(q, r, fst::edge_smoothing(q)) == "agree");
  BOOST_TEST(verdict(q, r, harness::EdgeSmoothingNeighbourSignFault::fast(q)) == "wrong");
}

BOOST_AUTO_TEST_CASE(reference_answers_extreme_doubles_hand_derived) {
  // Coordinates near 1e-300 and subnormals: a needle (0,0,0), (1e-300,0,0), (0,1,0) in z = 0
  // with the centre above (1e-301, 0.5): inside (x/1e-300 + y = 0.6 < 1), so face, n' = +z,
  // point = (1e-301, 0.5, 0), overlap = r - 1e-300 (rounded once: r).
  {
    const auto q = single_facet(Vec3(0, 0, 0), Vec3(1e-300, 0, 0), Vec3(0, 1, 0), Vec3(1e-301, 0.5, 1e-300), 1.0);
    const auto r = ref::edge_smoothing(q);
    BOOST_TEST((r.region == Region::face));
    BOOST_TEST(r.side == 1);
    BOOST_TEST((r.normal - Vec3(0, 0, 1)).norm() == 0.0);
    BOOST_TEST((r.point - Vec3(1e-301, 0.5, 0)).norm() == 0.0);
    BOOST_TEST(r.overlap == 1.0);
    BOOST_TEST(r.side_margin == 1e-300);
    BOOST_TEST(!fst::edge_smoothing_in_domain(q));  // 1e-300 < 2^-120: outside the fast domain
  }
  {
    // Subnormal centre over the unit right triangle: face, distance 4.9e-324 (the smallest
    // subnormal), radius subnormal too: overlap = 3 * 2^-1074 - 2^-1074 exactly.
    const double tiny = std::numeric_limits<double>::denorm_min();
    const auto q = single_facet(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0.25, 0.25, -tiny), 3 * tiny);
    const auto r = ref::edge_smoothing(q);
    BOOST_TEST((r.region == Region::face));
    BOOST_TEST(r.side == -1);
    BOOST_TEST(!r.centre_on_facet);
    BOOST_TEST((r.normal - Vec3(0, 0, -1)).norm() == 0.0);
    BOOST_TEST(r.overlap == 2 * tiny);
    BOOST_TEST(r.on_facet_margin == tiny);
  }
  {
    // A subnormal vertex coordinate: (0,0,0), (1,0,0), (2^-1074, 1, 0) lies in z = 0; the
    // centre (1/4, 1/4, 1) projects inside: face, n' = +z, point (1/4, 1/4, 0), overlap r - 1.
    const double tiny = std::numeric_limits<double>::denorm_min();
    const auto q = single_facet(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(tiny, 1, 0), Vec3(0.25, 0.25, 1), 1.5);
    const auto r = ref::edge_smoothing(q);
    BOOST_TEST((r.region == Region::face));
    BOOST_TEST((r.normal - Vec3(0, 0, 1)).norm() == 0.0);
    BOOST_TEST((r.point - Vec3(0.25, 0.25, 0)).norm() == 0.0);
    BOOST_TEST(r.overlap == 0.5);
    BOOST_TEST(!fst::edge_smoothing_in_domain(q));  // 2^-1074 < 2^-120
  }
  {
    // Coordinates near 1e300: the facet (0,0,0), (S,0,0), (0,S,0), S = 1e300, and the centre
    // (3S/4, 3S/4, 0) in its plane beyond edge1 (from (S,0,0) to (0,S,0)), on the edge's
    // outward normal through its midpoint (S/2, S/2, 0): region edge1, side 0, n = (1,1,0)/sqrt 2,
    // distance sqrt(2) S / 4, overlap S - sqrt(2) S / 4 (no boundary neighbour: zone none).
    const double S = 1e300;
    const auto q = single_facet(Vec3(0, 0, 0), Vec3(S, 0, 0), Vec3(0, S, 0), Vec3(0.75 * S, 0.75 * S, 0), S);
    const auto r = ref::edge_smoothing(q);
    BOOST_TEST((r.region == Region::edge1));
    BOOST_TEST(r.side == 0);
    BOOST_TEST((r.normal - Vec3(1, 1, 0) / std::sqrt(2.0)).norm() <= 2.3e-16);
    BOOST_TEST((r.point - Vec3(0.5 * S, 0.5 * S, 0)).norm() == 0.0);
    BOOST_TEST(std::abs(r.overlap - (S - 0.25 * S * std::sqrt(2.0))) <= 1e-15 * S);
    BOOST_TEST(!fst::edge_smoothing_in_domain(q));
  }
  {
    // Radius extremes: DBL_MAX and the smallest subnormal, a vertex contact at distance 1.
    const double big = std::numeric_limits<double>::max();
    auto q = single_facet(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(-0.6, -0.8, 0), big);
    auto r = ref::edge_smoothing(q);
    BOOST_TEST((r.region == Region::vertex0));
    BOOST_TEST(r.overlap == big);
    BOOST_TEST((r.normal - Vec3(-0.6, -0.8, 0)).norm() <= 1e-16);
    BOOST_TEST(fst::edge_smoothing_in_domain(q));  // any radius is in the fast domain
    BOOST_TEST(verdict(q, r, fst::edge_smoothing(q)) == "agree");
    q.radius = std::numeric_limits<double>::denorm_min();
    r = ref::edge_smoothing(q);
    BOOST_TEST(r.overlap == -1.0);
    BOOST_TEST(verdict(q, r, fst::edge_smoothing(q)) == "agree");
  }
}

BOOST_AUTO_TEST_CASE(out_of_domain_in_eval_and_bad_input_named) {
  const auto q = single_facet(Vec3(0, 0, 0), Vec3(1e-300, 0, 0), Vec3(0, 1, 0), Vec3(1e-301, 0.5, 1e-300), 1.0);
  auto j = cases::EdgeSmoothing::to_json(q);
  test::TempFile in("q.jsonl", j.dump() + "\n");
  test::TempFile out("out.json");
  BOOST_TEST(test::run_cli({"eval", "--family", "edge_smoothing", "--input", in.str(), "--json", out.str()}) == 0);
  std::ifstream is(out.str());
  BOOST_TEST(nlohmann::json::parse(is).dump().find("\"verdict\":\"out_of_domain\"") != std::string::npos);
  j["radius"] = -0.5;
  BOOST_CHECK_EXCEPTION(cases::EdgeSmoothing::from_json(j, {"q.jsonl", "line 1"}), cases::InputError,
                        [](const cases::InputError& e) {
                          return std::string(e.what()).find("field radius") != std::string::npos;
                        });
}

BOOST_AUTO_TEST_SUITE_END()
BOOST_AUTO_TEST_SUITE_END()
