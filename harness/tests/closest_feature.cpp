// Suite closest_feature: the reference against hand-derived answers and exact invariances,
// the fast variant, and their agreement under the comparison rule — including the planted
// faults that must fail the gate.
#include "cases/json_input.hpp"
#include "harness/pairs/closest_feature.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace contactbench;
using cases::Region;
using cases::Vec3;

namespace {

std::vector<cases::ClosestFeatureQuery> generated(int n, bool degenerate) {
  std::vector<cases::ClosestFeatureQuery> out;
  for (int i = 0; i < n; ++i) {
    auto rng = cases::query_rng(7, "closest_feature_test", degenerate ? "d" : "r", i);
    out.push_back(degenerate ? cases::degenerate_closest_feature(rng).query
                             : cases::random_closest_feature(rng).query);
  }
  return out;
}

// The thin-triangle sweep: needles, caps and slivers with smallest angles 5e-5 .. 6 degrees
// (aspect ratios to ~1e6), every contact configuration, scales 1e-3 .. 1e3, at the origin
// and translated far from it (offset 1e6 absolute: a size-1e-3 triangle at 1e6). Returns
// the number of `wrong` verdicts of the honest pair; prints the worst error/bound ratio.
struct SweepResult {
  int queries = 0, wrong = 0, face = 0;
  double worst_point_ratio = 0;
};
SweepResult thin_triangle_sweep(int reps) {
  using cases::ContactConfig;
  using cases::TriangleShape;
  SweepResult out;
  int idx = 0;
  for (auto shape : {TriangleShape::needle, TriangleShape::cap, TriangleShape::sliver})
    for (double theta : {5e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.18, 1.0, 6.0})
      for (double scale : {1e-3, 1.0, 1e3})
        for (double offset : {0.0, 1e6})
          for (auto config : {ContactConfig::face, ContactConfig::edge, ContactConfig::vertex,
                              ContactConfig::in_plane, ContactConfig::far, ContactConfig::box})
            for (int r = 0; r < reps; ++r) {
              auto rng = cases::query_rng(1, "closest_feature_sweep", "thin", idx++);
              const auto q = cases::shaped_closest_feature(rng, shape, config, theta, scale, offset);
              const auto ref = contactbench::reference::closest_feature(q);
              const auto f = contactbench::fast::closest_feature(q);
              const auto c = harness::ClosestFeaturePair::compare(q, ref, f);
              ++out.queries;
              out.face += ref.region == Region::face;
              for (const auto& e : c.errors)
                if (e.field == "point") out.worst_point_ratio = std::max(out.worst_point_ratio, e.error / e.bound);
              if (judge(c) == harness::Verdict::wrong) {
                if (out.wrong < 5)
                  BOOST_TEST_MESSAGE("wrong: " << cases::to_string(shape) << " theta " << theta << " scale "
                                               << scale << " offset " << offset << " "
                                               << cases::to_string(config) << ": " << harness::describe(c));
                ++out.wrong;
              }
            }
  return out;
}

// Relabels a region after renaming the vertices: new vertex index of old vertex k is
// vmap[k]; an edge (k, k+1) becomes the edge joining the new indices.
Region relabel(Region r, const int vmap[3]) {
  const int i = static_cast<int>(r);
  if (i == 0) return r;
  if (i >= 4) return static_cast<Region>(4 + vmap[i - 4]);
  const int k = i - 1, x = vmap[k], y = vmap[(k + 1) % 3];
  // the edge joining new vertices x and y is edge x if y == x+1, else edge y
  return static_cast<Region>(1 + ((x + 1) % 3 == y ? x : y));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(closest_feature)
BOOST_AUTO_TEST_SUITE(reference)

BOOST_AUTO_TEST_CASE(canonical_cases_match_hand_derived_answers) {
  const auto cases = cases::load_closest_feature_cases(cases::closest_feature_cases_path());
  BOOST_REQUIRE_GE(cases.size(), 20u);
  bool seen[7] = {};
  for (const auto& c : cases) {
    BOOST_TEST_CONTEXT(c.name) {
      const auto r = contactbench::reference::closest_feature(c.query);
      BOOST_TEST(cases::to_string(r.region) == cases::to_string(c.region));
      BOOST_TEST(r.point == c.point);  // exact: the expected points are exact doubles
      BOOST_TEST(r.squared_distance == c.squared_distance);
      BOOST_TEST(r.margin >= 0.0);
      seen[static_cast<int>(r.region)] = true;
    }
  }
  for (int i = 0; i < 7; ++i) BOOST_TEST(seen[i], "region " << cases::region_names[i] << " covered");
}

BOOST_AUTO_TEST_CASE(boundary_cases_have_zero_margin) {
  const auto doc = cases::read_json_file(cases::closest_feature_cases_path());
  int boundary = 0;
  for (const auto& c : cases::load_closest_feature_cases(cases::closest_feature_cases_path())) {
    const auto r = contactbench::reference::closest_feature(c.query);
    for (const auto& j : doc["cases"])
      if (j["name"] == c.name && j["expect"].contains("margin")) {
        BOOST_TEST_CONTEXT(c.name) { BOOST_TEST(r.margin == 0.0); }
        ++boundary;
      }
    if (c.name == "face_above_interior") {
      // Nearest boundary planes are x = 0 and y = 0 at distance 1; longest edge 4·sqrt(2).
      BOOST_TEST(r.margin == 1 / (4 * std::sqrt(2.0)), boost::test_tools::tolerance(1e-15));
    }
  }
  BOOST_TEST(boundary == 9);
}

BOOST_AUTO_TEST_CASE(invariant_under_vertex_rotation_and_swap) {
  for (bool deg : {false, true})
    for (const auto& q : generated(1500, deg)) {
      const auto r = contactbench::reference::closest_feature(q);
      // rotation (a,b,c) -> (b,c,a): old vertex 0 becomes new vertex 2, 1 -> 0, 2 -> 1
      const int rot[3] = {2, 0, 1};
      const auto rr = contactbench::reference::closest_feature({q.p, q.b, q.c, q.a});
      // swap (a,b,c) -> (a,c,b): orientation reversed
      const int swp[3] = {0, 2, 1};
      const auto rs = contactbench::reference::closest_feature({q.p, q.a, q.c, q.b});
      BOOST_TEST((rr.region == relabel(r.region, rot)));
      BOOST_TEST((rs.region == relabel(r.region, swp)));
      BOOST_TEST((rr.point == r.point));
      BOOST_TEST((rs.point == r.point));
      BOOST_TEST(rr.squared_distance == r.squared_distance);
      BOOST_TEST(rs.squared_distance == r.squared_distance);
      BOOST_TEST(rr.margin == r.margin);
    }
}

BOOST_AUTO_TEST_CASE(invariant_under_mirroring_and_power_of_two_scaling) {
  const Vec3 m(-1, 1, 1);
  for (bool deg : {false, true})
    for (const auto& q : generated(1500, deg)) {
      const auto r = contactbench::reference::closest_feature(q);
      const auto rm = contactbench::reference::closest_feature(
          {q.p.cwiseProduct(m), q.a.cwiseProduct(m), q.b.cwiseProduct(m), q.c.cwiseProduct(m)});
      BOOST_TEST((rm.region == r.region));
      BOOST_TEST((rm.point == r.point.cwiseProduct(m)));
      BOOST_TEST(rm.squared_distance == r.squared_distance);
      BOOST_TEST(rm.margin == r.margin);
      const double s = 0x1p-7;  // exact scaling
      const auto rsc = contactbench::reference::closest_feature({q.p * s, q.a * s, q.b * s, q.c * s});
      BOOST_TEST((rsc.region == r.region));
      BOOST_TEST((rsc.point == r.point * s));
      BOOST_TEST(rsc.squared_distance == r.squared_distance * s * s);
      BOOST_TEST(rsc.margin == r.margin);
    }
}

BOOST_AUTO_TEST_CASE(closest_point_is_no_farther_than_any_vertex_or_edge_sample) {
  // Independent check by sampling the closed triangle on a fine barycentric grid.
  for (const auto& q : generated(200, false)) {
    const auto r = contactbench::reference::closest_feature(q);
    const int N = 40;
    for (int i = 0; i <= N; ++i)
      for (int j = 0; i + j <= N; ++j) {
        const Vec3 x = q.a + (q.b - q.a) * (double(i) / N) + (q.c - q.a) * (double(j) / N);
        BOOST_TEST_REQUIRE(r.squared_distance <= (q.p - x).squaredNorm() * (1 + 1e-12));
      }
  }
}

BOOST_AUTO_TEST_CASE(degenerate_generator_hits_exact_boundaries) {
  int zero_margin = 0;
  const auto qs = generated(2000, true);
  for (const auto& q : qs) zero_margin += contactbench::reference::closest_feature(q).margin == 0.0;
  BOOST_TEST_MESSAGE("degenerate queries exactly on a region boundary: " << zero_margin << "/2000");
  BOOST_TEST(zero_margin > 400);
}

BOOST_AUTO_TEST_CASE(distance_to_a_claimed_region_by_hand) {
  // Unit right triangle, p just inside the face above edge0 (y = 2^-60).
  const cases::ClosestFeatureQuery q{Vec3(0.5, 0x1p-60, 1), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  const double L = std::sqrt(2.0);
  using contactbench::reference::closest_feature_distance_to_region;
  BOOST_TEST((contactbench::reference::closest_feature(q).region == Region::face));
  BOOST_TEST(closest_feature_distance_to_region(q, Region::face) == 0.0);
  // edge0's set is y <= 0 (with 0 < x < 1): across the plane y = 0.
  BOOST_TEST(closest_feature_distance_to_region(q, Region::edge0) == 0x1p-60 / L,
             boost::test_tools::tolerance(1e-15));
  // vertex2's set is {y >= 1, y >= x + 1}: nearest point its corner (0, 1, 1).
  BOOST_TEST(closest_feature_distance_to_region(q, Region::vertex2) == std::sqrt(1.25) / L,
             boost::test_tools::tolerance(1e-15));
  // vertex0's set is {x <= 0, y <= 0}: nearest point (0, 0, 1).
  BOOST_TEST(closest_feature_distance_to_region(q, Region::vertex0) ==
                 std::sqrt(0.25 + 0x1p-120) / L, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(collinear_triangle_is_rejected) {
  const cases::ClosestFeatureQuery q{Vec3(0, 0, 1), Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2)};
  BOOST_CHECK_THROW(contactbench::reference::closest_feature(q), cases::InputError);
  BOOST_TEST(cases::exactly_collinear(q.a, q.b, q.c));
  // A sliver one grid step off the line is a valid triangle.
  BOOST_TEST(!cases::exactly_collinear(q.a, q.b, Vec3(2, 2, 2 + 0x1p-40)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(fast)

BOOST_AUTO_TEST_CASE(canonical_cases_with_exact_double_arithmetic) {
  // Small-integer coordinates make every double operation exact, so the fast labels are right.
  for (const auto& c : cases::load_closest_feature_cases(cases::closest_feature_cases_path())) {
    BOOST_TEST_CONTEXT(c.name) {
      const auto f = contactbench::fast::closest_feature(c.query);
      BOOST_TEST(cases::to_string(f.region) == cases::to_string(c.region));
      BOOST_TEST((f.point - c.point).norm() <= 1e-12 * cases::longest_edge(c.query));
      BOOST_TEST(std::isnan(f.margin));
    }
  }
}

BOOST_AUTO_TEST_CASE(batched_entry_point_equals_scalar) {
  const auto qs = generated(500, false);
  std::vector<cases::ClosestFeatureResult> out(qs.size());
  contactbench::fast::closest_feature(qs, out);
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const auto s = contactbench::fast::closest_feature(qs[i]);
    BOOST_TEST((out[i].point == s.point));
    BOOST_TEST((out[i].region == s.region));
  }
}

BOOST_AUTO_TEST_CASE(stated_bounds_are_scale_free) {
  for (const auto& q : generated(200, false)) {
    const auto b = contactbench::fast::closest_feature_bounds(q);
    const auto b2 = contactbench::fast::closest_feature_bounds({q.p * 1024, q.a * 1024, q.b * 1024, q.c * 1024});
    BOOST_TEST(b.decision > 0.0);
    BOOST_TEST(std::isfinite(b.decision));
    BOOST_TEST(b2.decision == b.decision, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(agreement)

BOOST_AUTO_TEST_CASE(thin_triangle_sweep_has_no_wrong) {
  const auto r = thin_triangle_sweep(12);
  BOOST_TEST_MESSAGE("thin-triangle sweep: " << r.queries << " queries (" << r.face
                     << " face contacts), worst point error/bound " << r.worst_point_ratio);
  BOOST_TEST(r.queries == 3 * 8 * 3 * 2 * 6 * 12);
  BOOST_TEST(r.face > 1500);
  BOOST_TEST(r.wrong == 0);
}

BOOST_AUTO_TEST_CASE(excuse_needs_the_claimed_region_to_be_near) {
  // p is 2^-60 from edge0's set but far from vertex2's: a fast label edge0 is a boundary
  // case, a fast label vertex2 (with the right point) is wrong.
  const cases::ClosestFeatureQuery q{Vec3(0.5, 0x1p-60, 1), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  const auto ref = contactbench::reference::closest_feature(q);
  auto near = contactbench::fast::closest_feature(q), far = near;
  near.region = Region::edge0;
  far.region = Region::vertex2;
  BOOST_TEST((judge(harness::ClosestFeaturePair::compare(q, ref, near)) == harness::Verdict::boundary));
  BOOST_TEST((judge(harness::ClosestFeaturePair::compare(q, ref, far)) == harness::Verdict::wrong));
}

BOOST_AUTO_TEST_CASE(honest_kernel_is_excused_only_within_the_margin) {
  harness::CheckOptions o;
  o.n = 40000;
  o.seed = 3;
  const auto s = harness::find_family("closest_feature")->check(o);
  BOOST_TEST_MESSAGE("closest_feature: " << s.total.boundary << " boundary of " << s.total.queries);
  BOOST_TEST(s.total.wrong == 0u);
  BOOST_TEST(s.total.queries == 40000u + 21u);
  // Plain double does mislabel exact-boundary queries, and each one is excused by its margin.
  BOOST_TEST(s.by_source.at("degenerate").boundary > 100u);
  // Independently of the harness: each excused query really is within the fast bound of
  // the region fast claimed (exact distance), and that region is a neighbour of the exact one.
  for (const auto& e : s.examples.at("boundary")) {
    const auto q = cases::closest_feature_query_from_json(e.body["query"], {});
    const auto fast_region = cases::region_from_string(e.body["fast"]["region"], {}, "");
    const double d = contactbench::reference::closest_feature_distance_to_region(q, fast_region);
    BOOST_TEST(d <= contactbench::fast::closest_feature_bounds(q).decision, e.body["detail"].get<std::string>());
    BOOST_TEST(d < 1e-9);
  }
}

BOOST_AUTO_TEST_CASE(planted_vertex_snap_fails_the_gate) {
  const auto s = harness::find_family("closest_feature_planted_vertex_snap")->check({.n = 4000});
  BOOST_TEST(s.total.wrong > 0u);
  BOOST_TEST(test::run_cli({"check", "--family", "closest_feature_planted_vertex_snap", "--n", "4000",
                            "--quiet", "--json", test::TempFile("a.json").str()}) == 1);
}

BOOST_AUTO_TEST_CASE(planted_tight_bound_fails_the_gate) {
  const auto s = harness::find_family("closest_feature_planted_tight_bound")->check({.n = 4000});
  BOOST_TEST(s.total.wrong > 0u);
  BOOST_TEST(s.total.boundary == 0u);  // with bound 0 only exact ties could be excused
  BOOST_TEST(test::run_cli({"check", "--family", "closest_feature_planted_tight_bound", "--n", "4000",
                            "--quiet", "--json", test::TempFile("b.json").str()}) == 1);
}

BOOST_AUTO_TEST_CASE(deterministic_and_shards_merge_to_the_whole) {
  const auto* f = harness::find_family("closest_feature");
  harness::CheckOptions o{.n = 3000, .seed = 11};
  const auto whole = f->check(o);
  const auto again = f->check(o);
  BOOST_TEST(whole.to_json()["by_source"].dump() == again.to_json()["by_source"].dump());
  o.shards = 2;
  o.shard = 0;
  auto merged = f->check(o);
  o.shard = 1;
  merged.merge(f->check(o));
  BOOST_TEST(merged.to_json()["by_source"].dump() == whole.to_json()["by_source"].dump());
  BOOST_TEST(merged.errors.at("point").max == whole.errors.at("point").max);
}

BOOST_AUTO_TEST_SUITE_END()
BOOST_AUTO_TEST_SUITE_END()
