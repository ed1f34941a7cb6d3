// Suite pfc_resolution: hand-derived reference cases (expected values worked out by hand in
// the comments), one test per README decision ("PFC faceted walls"), invariances, bad input.
#include "harness/pairs/pfc_resolution.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace contactbench;
using cases::PfcMode;
using cases::PfcQuery;
using cases::Region;
using cases::Vec3;

namespace {

PfcQuery query(cases::Mesh m, Vec3 x, double r, PfcMode mode = PfcMode::reduced, double c = 1,
               std::vector<cases::PfcPrevious> prev = {}) {
  PfcQuery q;
  q.wall = std::make_shared<const cases::Mesh>(std::move(m));
  q.centre = x;
  q.radius = r;
  q.mode = mode;
  q.cos_cutoff = c;
  q.previous = std::move(prev);
  return q;
}

const cases::PfcContact* contact(const cases::PfcResult& r, int f) {
  for (const auto& c : r.contacts)
    if (c.facet == f) return &c;
  return nullptr;
}

std::vector<int> active(const cases::PfcResult& r) {
  std::vector<int> out;
  for (const auto& c : r.contacts)
    if (c.active) out.push_back(c.facet);
  return out;
}

// The unit grid cell: facet 0 = (0,0,0),(1,0,0),(1,1,0) (x >= y), facet 1 = (0,0,0),(1,1,0),
// (0,1,0) (x <= y); the diagonal is facet 0's edge2 (ca) and facet 1's edge0 (ab).
cases::Mesh cell() { return cases::pfc_grid_wall(1, 1, 1, {}, 0); }

// Honest fast agrees with the reference (verdict agree or boundary).
void fast_agrees(const PfcQuery& q) {
  const auto e = harness::evaluate<harness::PfcResolutionPair>(q);
  BOOST_TEST((e.verdict == harness::Verdict::agree || e.verdict == harness::Verdict::boundary),
             harness::describe(e.comparison));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pfc_resolution)

// Ball over facet 0 at (0.75, 0.25, 0.5), R = 1: WP_0 = (0.75, 0.25, 0) on the face, d = 0.5,
// U = 0.5, n = (0,0,-1), CP = x + 0.75 n = (0.75, 0.25, -0.25). Facet 1's closest point is
// the projection onto the diagonal, (0.5, 0.5, 0) (its edge0), d^2 = 0.375 < 1: positive and
// linked to facet 0 (the diagonal is facet 0's too); facet 0 has the larger overlap.
BOOST_AUTO_TEST_CASE(ball_over_one_facet) {
  const auto q = query(cell(), {0.75, 0.25, 0.5}, 1);
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST_REQUIRE(r.contacts.size() == 2u);
  const auto& c0 = *contact(r, 0);
  BOOST_TEST((c0.region == Region::face));
  BOOST_TEST((c0.wall_point == Vec3(0.75, 0.25, 0)));
  BOOST_TEST(c0.overlap == 0.5);
  BOOST_TEST((c0.normal == Vec3(0, 0, -1)));
  BOOST_TEST((c0.contact_point == Vec3(0.75, 0.25, -0.25)));
  const auto& c1 = *contact(r, 1);
  BOOST_TEST((c1.region == Region::edge0));
  BOOST_TEST((c1.wall_point == Vec3(0.5, 0.5, 0)));
  BOOST_TEST(r.links.size() == 1u);
  BOOST_TEST((active(r) == std::vector<int>{0}));
  fast_agrees(q);
}

// One facet alone: the same contact, nothing to link.
BOOST_AUTO_TEST_CASE(single_facet_wall) {
  cases::Mesh m({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}, {{0, 1, 2}});
  const auto r = reference::pfc_resolution(query(m, {0.5, 0.5, 0.25}, 0.5));
  BOOST_TEST_REQUIRE(r.contacts.size() == 1u);
  BOOST_TEST(r.contacts[0].overlap == 0.25);
  BOOST_TEST(r.contacts[0].active);
  BOOST_TEST(r.links.empty());
}

// README: ties broken by the lower facet index. Centre over the shared diagonal: both wall
// points are (0.5, 0.5, 0) (facet 0's edge2, facet 1's edge0), equal overlaps, linked.
BOOST_AUTO_TEST_CASE(decision_ordering_ties_by_facet_index) {
  for (auto mode : {PfcMode::reduced, PfcMode::full}) {
    const auto q = query(cell(), {0.5, 0.5, 0.5}, 1, mode);
    const auto r = reference::pfc_resolution(q);
    BOOST_TEST((contact(r, 0)->region == Region::edge2));
    BOOST_TEST((contact(r, 1)->region == Region::edge0));
    BOOST_TEST(contact(r, 0)->overlap == contact(r, 1)->overlap);
    BOOST_TEST((active(r) == std::vector<int>{0}));
    bool tie = false;
    for (const auto& d : r.decisions) tie |= d.name == "order" && d.value == "tie" && d.margin == 0;
    BOOST_TEST(tie);
    fast_agrees(q);
  }
}

// README: "lies on an edge / vertex" is the exact region. Exactly above the diagonal the
// wall point is on the edge (linked); 2^-40 beyond it, facet 1's point is on its face and
// facet 0's on the edge: still linked, facet 1 now the larger overlap.
BOOST_AUTO_TEST_CASE(decision_on_edge_or_vertex_is_the_exact_region) {
  const double e = 0x1p-40;
  const auto r = reference::pfc_resolution(query(cell(), {0.5 - e, 0.5 + e, 0.5}, 1));
  BOOST_TEST((contact(r, 1)->region == Region::face));
  BOOST_TEST((contact(r, 0)->region == Region::edge2));
  BOOST_TEST((active(r) == std::vector<int>{1}));
  // Over the grid vertex (1, 1) of a 2 x 2 grid: every wall point is that vertex.
  const auto v =
      reference::pfc_resolution(query(cases::pfc_grid_wall(2, 2, 1, {}, 0), {1, 1, 0.5}, 1));
  for (const auto& c : v.contacts)
    if ((c.wall_point - Vec3(1, 1, 0)).norm() == 0) BOOST_TEST((c.region >= Region::vertex0));
  BOOST_TEST(active(v).size() == 1u);
}

// README: links form linked sets; one active contact per set. A 3 x 3 grid under a ball
// covering several facets (Figure 4): a single active contact.
BOOST_AUTO_TEST_CASE(decision_links_form_linked_sets) {
  const auto q = query(cases::pfc_grid_wall(3, 3, 1, {}, 1), {1.25, 1.5, 0.5}, 1.25);
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST(r.contacts.size() > 4u);
  BOOST_TEST(active(r).size() == 1u);
  fast_agrees(q);
}

// README: link, exactly: WP_i's edge or vertex belongs to facet j too, either way round.
BOOST_AUTO_TEST_CASE(decision_link_exact_region_either_way) {
  const auto m = cell();
  BOOST_TEST(cases::pfc_linked(m, 1, Region::edge0, 0));     // diagonal
  BOOST_TEST(!cases::pfc_linked(m, 1, Region::edge1, 0));    // (1,1)-(0,1): facet 1 only
  BOOST_TEST(cases::pfc_linked(m, 1, Region::vertex1, 0));   // (1,1,0) is facet 0's vertex
  BOOST_TEST(!cases::pfc_linked(m, 1, Region::vertex2, 0));  // (0,1,0) is not
  BOOST_TEST(!cases::pfc_linked(m, 1, Region::face, 0));
}

// Concave edge (Figure 6): floor z = 0 (facets 0, 1), wall x = 0 (facets 2, 3, normal
// (-1,0,0)). Centre (-0.5, 1, 0.75), R = 0.875: floor WP (-0.5, 1, 0) face of 0, U = 0.125;
// facet 1's point on the floor diagonal (edge0), d^2 = 0.6875: linked to 0, loses. Wall WP
// (0, 1, 0.75) on facet 3's face, U = 0.375; facet 2's point (0, 0.875, 0.875) on the shared
// diagonal, d^2 = 0.28125: linked to 3, loses. Two linked sets: facets 0 and 3 both active
// (no link between them). With cos(Theta) = 0, theta = 90 degrees = Theta: one proximity
// contact of {0, 3}: normal (0.375 (1,0,0) + 0.125 (0,0,-1)) / |.| = (3, 0, -1)/sqrt(10), mean
// overlap 0.25.
BOOST_AUTO_TEST_CASE(concave_edge_two_active_one_proximity_contact) {
  const auto q = query(cases::pfc_fold_wall(1, 0, 1), {-0.5, 1, 0.75}, 0.875, PfcMode::reduced, 0);
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST((active(r) == std::vector<int>{0, 3}));
  BOOST_TEST((contact(r, 2)->wall_point == Vec3(0, 0.875, 0.875)));
  BOOST_TEST(contact(r, 3)->overlap == 0.375);
  BOOST_TEST_REQUIRE(r.proximity.size() == 1u);
  BOOST_TEST((r.proximity[0].members == std::vector<int>{0, 3}));
  BOOST_TEST(r.proximity[0].overlap == 0.25);
  const Vec3 n = Vec3(3, 0, -1) / std::sqrt(10.0);
  BOOST_TEST((r.proximity[0].normal - n).norm() < 1e-16);
  // Contact point x + (R - U/2) n with U = 0.25: x + 0.75 n.
  BOOST_TEST((r.proximity[0].contact_point - (Vec3(-0.5, 1, 0.75) + 0.75 * n)).norm() < 1e-15);
  fast_agrees(q);
}

// README: theta <= Theta inclusive everywhere, including the proximity rule: the concave
// edge at exactly 90 degrees merges with cos(Theta) = 0 and not with the next double above.
BOOST_AUTO_TEST_CASE(decision_cutoff_inclusive) {
  const auto m = cases::pfc_fold_wall(1, 0, 1);
  BOOST_TEST(reference::pfc_resolution(query(m, {-0.5, 1, 0.75}, 0.875, PfcMode::reduced, 0))
                 .proximity.size() == 1u);
  BOOST_TEST(
      reference::pfc_resolution(query(m, {-0.5, 1, 0.75}, 0.875, PfcMode::reduced, 0x1p-1074))
          .proximity.empty());
}

// README: the proximity normal is the overlap-weighted sum of the contact normals (see the
// concave edge); the unweighted sum (3 and 1 replaced by 1 and 1) would be (1,0,-1)/sqrt 2.
BOOST_AUTO_TEST_CASE(decision_proximity_normal_overlap_weighted) {
  const auto q = query(cases::pfc_fold_wall(1, 0, 1), {-0.5, 1, 0.75}, 0.875, PfcMode::reduced, 0);
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST(r.proximity[0].normal.x() > 0.9);
  const auto bad =
      harness::evaluate<harness::PfcResolutionSlipFault<&fast::PfcSlips::pc_unweighted>>(q);
  BOOST_TEST((bad.verdict == harness::Verdict::wrong));
}

// README: associative logic first, proximity merging on what survives: the losers of the
// concave edge's linked sets (facets 1 and 2) are in no proximity contact.
BOOST_AUTO_TEST_CASE(decision_associative_before_proximity) {
  const auto r = reference::pfc_resolution(
      query(cases::pfc_fold_wall(1, 0, 1), {-0.5, 1, 0.75}, 0.875, PfcMode::full, -1));
  BOOST_TEST_REQUIRE(r.proximity.size() == 1u);
  BOOST_TEST((r.proximity[0].members == std::vector<int>{0, 3}));
}

// README: proximity contacts group survivors by connectivity of theta <= Theta. Figure 8b's
// three separate stacked facets (normals all +z) in reduced mode are three survivors, all at
// theta = 0 from each other: one proximity contact of all three, mean overlap of
// U = 1.25 - 0.5, 1.25 - 0.75, 1.25 - 1 (0.5).
BOOST_AUTO_TEST_CASE(decision_proximity_groups_by_connectivity) {
  const auto s = cases::pfc_segments_wall(1, 0.25, 3, {{0, 0}, {0.25, 0}, {0, 0.25}}, false);
  const auto r = reference::pfc_resolution(query(s, {0, 0, 0.5}, 1.25));
  BOOST_TEST_REQUIRE(r.proximity.size() == 1u);
  BOOST_TEST((r.proximity[0].members == std::vector<int>{0, 1, 2}));
  BOOST_TEST(r.proximity[0].overlap == 0.5);
  BOOST_TEST((r.proximity[0].normal == Vec3(0, 0, -1)));
}

// Convex edge (Figure 5): floor z <= 0 side, wall going down at x = 0. Centre (0.25, 1, 0.5),
// R = 0.75: floor facet 0's point (0, 1, 0) on its edge1, the wall's facet 3 the same point on
// its top edge: tie, linked, facet 0 active alone.
BOOST_AUTO_TEST_CASE(convex_edge_one_active) {
  const auto q = query(cases::pfc_fold_wall(1, 0, -1), {0.25, 1, 0.5}, 0.75);
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST((contact(r, 0)->wall_point == Vec3(0, 1, 0)));
  BOOST_TEST((contact(r, 3)->wall_point == Vec3(0, 1, 0)));
  BOOST_TEST((active(r) == std::vector<int>{0}));
  fast_agrees(q);
}

// Figure 8a, the wedge: bottom facet 0 (z = 0), top facet 1 (z = x/16). Centre (2, 1, 1),
// R = 1.5: both wall points on faces, no link: reduced leaves both active. Full: the segment
// to (2, 1, 0) crosses the top facet at (2, 1, 1/8), whose overlap is larger: one active.
BOOST_AUTO_TEST_CASE(figure8_sliver_reduced_vs_full) {
  const auto m = cases::pfc_wedge_wall(1, 0.25);
  const auto red = reference::pfc_resolution(query(m, {2, 1, 1}, 1.5, PfcMode::reduced));
  const auto full = reference::pfc_resolution(query(m, {2, 1, 1}, 1.5, PfcMode::full));
  BOOST_TEST((active(red) == std::vector<int>{0, 1}));
  BOOST_TEST((active(full) == std::vector<int>{1}));
  BOOST_TEST((contact(full, 0)->wall_point == Vec3(2, 1, 0)));
  fast_agrees(query(m, {2, 1, 1}, 1.5, PfcMode::full));
  // Figure 8b: three stacked segments, reduced 3 active, full 1.
  const auto s = cases::pfc_segments_wall(1, 0.25, 3, {{0, 0}, {0.25, 0}, {0, 0.25}}, false);
  BOOST_TEST(active(reference::pfc_resolution(query(s, {0, 0, 0.5}, 1.25))).size() == 3u);
  BOOST_TEST(active(reference::pfc_resolution(query(s, {0, 0, 0.5}, 1.25, PfcMode::full))).size() ==
             1u);
}

// README: full mode excludes the segment's own end point. A crack: two coplanar facets on
// the same diagonal with their own (coincident) vertices, so not adjacent and never linked.
// Both wall points are (0.5, 0.5, 0); each segment ends on the other facet's edge, which is
// its own end point only: both stay active in full mode.
BOOST_AUTO_TEST_CASE(decision_full_mode_own_end_point_excluded) {
  cases::Mesh crack({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}},
                    {{0, 1, 2}, {3, 4, 5}});
  const auto r = reference::pfc_resolution(query(crack, {0.5, 0.5, 0.5}, 1, PfcMode::full));
  BOOST_TEST(r.links.empty());
  BOOST_TEST((active(r) == std::vector<int>{0, 1}));
}

// README: touching the blocker's boundary counts. Two stacked triangles; the lower one's
// wall point is straight below the centre and the upper one has its vertex (0,0,0) on that
// segment: the lower contact is blocked in full mode.
BOOST_AUTO_TEST_CASE(decision_full_mode_touching_boundary_counts) {
  cases::Mesh m({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {-2, -2, -0.5}, {2, -2, -0.5}, {0, 2, -0.5}},
                {{0, 1, 2}, {3, 4, 5}});
  const auto q = query(m, {0, 0, 0.5}, 1.25, PfcMode::full);
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST((contact(r, 1)->wall_point == Vec3(0, 0, -0.5)));
  BOOST_TEST((active(r) == std::vector<int>{0}));
}

// README: blockers are the associative survivors, so the result does not depend on the
// processing order: relabelling the facets relabels the outcome.
BOOST_AUTO_TEST_CASE(decision_full_mode_blockers_order_independent) {
  for (std::uint64_t i = 0; i < 200; ++i) {
    auto rng = cases::query_rng(5, "pfc_resolution", i % 2 ? "degenerate" : "random", i);
    const auto g =
        i % 2 ? cases::PfcResolution::degenerate(rng) : cases::PfcResolution::random(rng);
    PfcQuery q = g.query;
    const auto& m = *q.wall;
    const int n = m.facet_count();
    std::vector<std::array<int, 3>> facets(m.facets().rbegin(), m.facets().rend());
    PfcQuery p = q;
    p.wall = std::make_shared<const cases::Mesh>(m.vertices(), facets);
    if (!q.sides.empty()) p.sides.assign(q.sides.rbegin(), q.sides.rend());
    for (auto& prev : p.previous) prev.facet = n - 1 - prev.facet;
    const auto a = reference::pfc_resolution(q), b = reference::pfc_resolution(p);
    std::vector<int> mapped;
    for (int f : active(b)) mapped.push_back(n - 1 - f);
    std::sort(mapped.begin(), mapped.end());
    // Ties by facet index may legitimately pick another facet; compare only tie-free cases.
    bool tie = false;
    for (const auto& d : a.decisions) tie |= d.name == "order" && d.value == "tie";
    if (!tie) BOOST_TEST(mapped == active(a), "query " << i << " " << g.regime);
    BOOST_TEST(a.contacts.size() == b.contacts.size());
  }
}

// README: a contact with d^2 = R^2 is listed, never active, linked or a member.
BOOST_AUTO_TEST_CASE(decision_zero_overlap_listed_never_active) {
  const auto r = reference::pfc_resolution(query(cell(), {0.75, 0.25, 0.5}, 0.5));
  BOOST_TEST_REQUIRE(r.contacts.size() == 1u);
  BOOST_TEST(r.contacts[0].overlap == 0.0);
  BOOST_TEST(!r.contacts[0].positive);
  BOOST_TEST(!r.contacts[0].active);
  BOOST_TEST(r.links.empty());
}

// README: active sides by the sign of the centre's signed distance; a centre in the plane
// keeps the contact unless both sides are inactive.
BOOST_AUTO_TEST_CASE(decision_active_sides_by_centre_sign) {
  auto q = query(cell(), {0.75, 0.25, 0.5}, 1);
  q.sides = {cases::PfcSides::back, cases::PfcSides::both};
  auto r = reference::pfc_resolution(q);
  BOOST_TEST(!contact(r, 0));
  BOOST_TEST((active(r) == std::vector<int>{1}));
  q.centre = {0.75, 1.25, 0};  // in the plane, beyond facet 1's top edge
  q.sides = {cases::PfcSides::front, cases::PfcSides::none};
  r = reference::pfc_resolution(q);
  BOOST_TEST(!contact(r, 1));
  BOOST_TEST(contact(r, 0));
  fast_agrees(q);
}

// README: angles use the stored right-hand normals, never turned towards the ball. The 60
// degree fold has cosine 1/2, reversed -1/2: with cos(Theta) = 1/2 exactly one merges.
BOOST_AUTO_TEST_CASE(decision_angles_use_stored_normals) {
  for (bool flip : {false, true}) {
    const auto m = cases::pfc_fold60_wall(1, flip);
    // Centre near the shared edge's midpoint, off both planes.
    const auto q = query(m, {0.5, 0, -0.25}, 1, PfcMode::reduced, 0.5);
    const auto r = reference::pfc_resolution(q);
    for (const auto& d : r.decisions)
      if (d.name == "angle") {
        BOOST_TEST(d.value == (flip ? "beyond" : "within"));
        BOOST_TEST(d.margin == (flip ? 1.0 : 0.0));
      }
  }
}

// README: the hole check's plane is undefined for coincident wall points and the path
// condition then holds. Full mode on the unit cell over the diagonal: facet 0 active; the
// previous contact on facet 1 at the same point (0.5, 0.5, 0) is inherited.
BOOST_AUTO_TEST_CASE(decision_hole_plane_undefined_when_wall_points_coincide) {
  const auto q = query(cell(), {0.5, 0.5, 0.5}, 1, PfcMode::full, 1, {{1, {0.5, 0.5, 0}}});
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST(contact(r, 0)->inherits == 0);
  bool undefined = false;
  for (const auto& d : r.decisions) undefined |= d.name == "plane" && d.value == "undefined";
  BOOST_TEST(undefined);
  fast_agrees(q);
}

// README: the hole check's path runs through facets within Theta of the first. A step: floor
// p (facets 0, 1; z = 0, x in [-2, 0]), a 45-degree ramp g (2, 3; x in [0, 1]), a top f (4, 5;
// z = 1, x in [1, 3]), y in [0, 2]. Centre (1.25, 1, 1.5), R = 2: facet 5's wall point is on its
// face, d = 0.5, the largest overlap; the ramp's point is on its top edge (x = 1, shared with
// f) and the floor's on its edge x = 0 (shared with g): one linked set, facet 5 active. p and
// f share no vertex, so every path from the previous facet 0 to facet 5 crosses the ramp: with
// Theta = 0 (theta(p, f) = 0 <= Theta, theta(p, g) = 45 degrees > Theta) that is a hole; with
// cos(Theta) = 0.7 (Theta > 45 degrees) the ramp is usable and the state is inherited.
BOOST_AUTO_TEST_CASE(decision_hole_check_path_within_cutoff) {
  std::vector<Vec3> v;
  const double xs[] = {-2, 0, 1, 3}, zs[] = {0, 0, 1, 1};
  for (int i = 0; i < 4; ++i) {
    v.emplace_back(xs[i], 0, zs[i]);
    v.emplace_back(xs[i], 2, zs[i]);
  }
  std::vector<std::array<int, 3>> f;
  for (int i = 0; i < 3; ++i) {
    f.push_back({2 * i, 2 * i + 2, 2 * i + 3});
    f.push_back({2 * i, 2 * i + 3, 2 * i + 1});
  }
  auto q = query(cases::Mesh(v, f), {1.25, 1, 1.5}, 2, PfcMode::full, 1, {{0, {-0.5, 0.5, 0}}});
  auto r = reference::pfc_resolution(q);
  BOOST_TEST((active(r) == std::vector<int>{5}));
  BOOST_TEST((contact(r, 0)->wall_point == Vec3(0, 1, 0)));
  BOOST_TEST((contact(r, 5)->why == cases::PfcInherit::hole));
  fast_agrees(q);
  q.cos_cutoff = 0.7;
  r = reference::pfc_resolution(q);
  BOOST_TEST(contact(r, 5)->inherits == 0);
  fast_agrees(q);
}

// Continuity: no link (previous facet not in the active contact's linked set), angle (linked
// but the convex fold's 90 degrees > Theta = 0), reduced mode (never propagated).
BOOST_AUTO_TEST_CASE(continuity_reasons) {
  auto q =
      query(cases::pfc_wedge_wall(1, 0.25), {2, 1, 1}, 1.5, PfcMode::full, 1, {{0, {2, 1, 0}}});
  BOOST_TEST((contact(reference::pfc_resolution(q), 1)->why == cases::PfcInherit::no_link));
  q = query(cases::pfc_fold_wall(1, 0, -1), {0.25, 1, 0.5}, 0.75, PfcMode::full, 1,
            {{3, {0, 1, -0.5}}});
  BOOST_TEST((contact(reference::pfc_resolution(q), 0)->why == cases::PfcInherit::angle));
  q.cos_cutoff = 0;
  BOOST_TEST(contact(reference::pfc_resolution(q), 0)->inherits == 0);
  q.mode = PfcMode::reduced;
  BOOST_TEST((contact(reference::pfc_resolution(q), 0)->why == cases::PfcInherit::reduced));
}

// An active contact whose facet had a contact at the last step keeps that contact's own
// state, even when another previous contact (here facet 1's, listed first) is linked to it
// and would pass every continuity test: the ball of the first test case, previous contacts
// on facets 1 and 0, facet 0 active -> inherits previous[1].
BOOST_AUTO_TEST_CASE(decision_continuity_own_facet_first) {
  const auto q = query(cell(), {0.75, 0.25, 0.5}, 1, PfcMode::full, 1,
                       {{1, {0.5, 0.5, 0}}, {0, {0.75, 0.25, 0}}});
  const auto r = reference::pfc_resolution(q);
  BOOST_TEST(active(r) == std::vector<int>{0});
  BOOST_TEST(contact(r, 0)->inherits == 1);
  BOOST_TEST((contact(r, 0)->why == cases::PfcInherit::inherited));
  fast_agrees(q);
}

// Translation by a dyadic offset (exact) changes no decision.
BOOST_AUTO_TEST_CASE(translation_invariance) {
  for (std::uint64_t i = 0; i < 100; ++i) {
    auto rng = cases::query_rng(3, "pfc_resolution", "degenerate", i);
    const PfcQuery q = cases::PfcResolution::degenerate(rng).query;
    PfcQuery p = q;
    const Vec3 t(0.5, -0.25, 1.0);
    std::vector<Vec3> v;
    for (const auto& x : q.wall->vertices()) v.push_back(x + t);
    p.wall = std::make_shared<const cases::Mesh>(v, q.wall->facets());
    p.centre += t;
    for (auto& prev : p.previous) prev.wall_point += t;
    const auto a = reference::pfc_resolution(q), b = reference::pfc_resolution(p);
    BOOST_TEST(cases::PfcResolution::to_json(a)["contacts"].size() ==
               cases::PfcResolution::to_json(b)["contacts"].size());
    BOOST_TEST(active(a) == active(b));
    BOOST_TEST((a.links == b.links));
  }
}

BOOST_AUTO_TEST_CASE(bad_input_lines) {
  const std::string mesh = R"("mesh":{"vertices":[[0,0,0],[1,0,0],[0,1,0]],"facets":[[0,1,2]]})";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"centre":[0,0,1],"radius":1,)" + mesh + R"(,"mode":"full","cos_cutoff":1.5})",
       "cos_cutoff"},
      {R"({"centre":[0,0,1],"radius":1,)" + mesh + R"(,"mode":"full","cos_cutoff":"nan"})",
       "cos_cutoff"},
      {R"({"centre":[0,0,1],"radius":1,)" + mesh +
           R"(,"mode":"full","cos_cutoff":1,"previous":[{"facet":3,"wall_point":[0,0,0]}]})",
       "previous[0].facet"},
      {R"({"centre":[0,0,1],"radius":0,)" + mesh + R"(,"mode":"full","cos_cutoff":1})", "radius"},
      {R"({"centre":[0,0,1],"radius":-1,)" + mesh + R"(,"mode":"full","cos_cutoff":1})", "radius"},
      {R"({"centre":[0,0,1],"radius":1,)" + mesh + R"(,"mode":"full","cos_cutoff":1,"colour":2})",
       "colour"},
      {R"({"centre":[0,0,1],"radius":1,)" + mesh + R"(,"mode":"half","cos_cutoff":1})", "mode"},
      {R"({"centre":[0,0,1],"radius":1,"mesh":{"vertices":[[0,0,0],[1,0,0],[0,1,0],[1,1,0]],"facets":[[0,1,2],[0,1,3]]},"mode":"full","cos_cutoff":1})",
       "mesh.facets"},
  };
  for (const auto& [text, field] : bad) {
    try {
      cases::PfcResolution::from_json(nlohmann::json::parse(text), {"q.jsonl", "line 4"});
      BOOST_ERROR("accepted: " << text);
    } catch (const cases::InputError& e) {
      const std::string what = e.what();
      BOOST_TEST(what.find("q.jsonl") != std::string::npos, what);
      BOOST_TEST(what.find("line 4") != std::string::npos, what);
      BOOST_TEST(what.find(field) != std::string::npos, what);
    }
  }
}

BOOST_AUTO_TEST_CASE(generators_valid_and_labelled) {
  for (std::uint64_t i = 0; i < 200; ++i) {
    auto rng = cases::query_rng(1, "pfc_resolution", "degenerate", i);
    const auto g =
        i % 2 ? cases::PfcResolution::degenerate(rng) : cases::PfcResolution::random(rng);
    BOOST_TEST(g.regime.find("shape=") != std::string::npos);
    BOOST_TEST(g.query.radius > 0);
    const auto back =
        cases::PfcResolution::from_json(cases::PfcResolution::to_json(g.query), {"gen", ""});
    BOOST_TEST((cases::PfcResolution::to_json(back) == cases::PfcResolution::to_json(g.query)));
  }
}

BOOST_AUTO_TEST_CASE(planted_faults_on_hand_cases) {
  // Vertex links ignored: a bow tie of two facets sharing only the origin; facet 0's wall
  // point is on its face, facet 1's is its vertex0 (linked only through that vertex). Honest:
  // one active contact; without vertex links: two.
  cases::Mesh bow({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {-2, 0, 0}, {0, -2, 0}},
                  {{0, 1, 2}, {0, 3, 4}});
  const auto v = query(bow, {0.25, 0.125, 0.5}, 1);
  BOOST_TEST(active(reference::pfc_resolution(v)).size() == 1u);
  BOOST_TEST((harness::evaluate<harness::PfcResolutionSlipFault<&fast::PfcSlips::link_no_vertex>>(v)
                  .verdict == harness::Verdict::wrong));
  const auto w = query(cases::pfc_wedge_wall(1, 0.25), {2, 1, 1}, 1.5, PfcMode::full);
  BOOST_TEST(
      (harness::evaluate<harness::PfcResolutionSlipFault<&fast::PfcSlips::full_as_reduced>>(w)
           .verdict == harness::Verdict::wrong));
}

BOOST_AUTO_TEST_SUITE_END()
