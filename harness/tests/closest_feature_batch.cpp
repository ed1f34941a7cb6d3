// The batched closest feature (fast/closest_feature_batch.cpp) against the scalar kernel,
// bit for bit: every field of every query, on generated random and degenerate queries, the
// hand-derived cases, sizes that leave a ragged tail, and a triangle flat in double (the
// face point's scalar fallback); the AVX-512, AVX2 and scalar paths (those the CPU has).
#include "fast/closest_feature.hpp"
#include "harness/pairs/closest_feature.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstdint>

BOOST_AUTO_TEST_SUITE(closest_feature_batch)

using namespace contactbench;
using cases::Vec3;

namespace {

std::vector<cases::ClosestFeatureQuery> queries() {
  std::vector<cases::ClosestFeatureQuery> out;
  for (int i = 0; i < 4000; ++i) {
    auto rng = cases::query_rng(11, "closest_feature_batch_test", i % 2 ? "d" : "r", i);
    const auto q = i % 2 ? cases::ClosestFeature::degenerate(rng).query
                         : cases::ClosestFeature::random(rng).query;
    if (fast::closest_feature_in_domain(q)) out.push_back(q);
  }
  for (const auto& c : cases::ClosestFeature::cases()) out.push_back(c.query);
  // Flat in double (outside the stated domain, but the batch must still equal the scalar
  // kernel): legs 2^-260, so n·n = 2^-1040 < DBL_MIN while the region tests (~2^-1040,
  // subnormal but exact here) still see the face; p above the face. The
  // scalar kernel falls back to the nearest edge point.
  out.push_back({Vec3(0x1p-262, 0x1p-262, 0x1p-260), Vec3(0, 0, 0), Vec3(0x1p-260, 0, 0),
                 Vec3(0, 0x1p-260, 0)});
  return out;
}

// Axis-aligned triangles with the longest edge opposite each vertex in turn (the face point's
// three choices of o) and p above an interior point with coordinates -0 and +0: n has zero
// components, whose sign the batch may get differently from the scalar kernel, so these
// face lanes must be redone by it. By hand: the closest point is the foot of p, (0, 0, 0)
// up to the sign of zeros, at squared distance 1, region face.
std::vector<cases::ClosestFeatureQuery> signed_zero_queries() {
  std::vector<cases::ClosestFeatureQuery> out;
  const Vec3 tri[3] = {Vec3(-1, -1, 0), Vec3(2, -1, 0), Vec3(0, 1, 0)};  // longest: ab
  for (int axis = 0; axis < 3; ++axis)
    for (int shift = 0; shift < 3; ++shift)
      for (double zero : {-0.0, 0.0}) {
        auto place = [&](const Vec3& v) {  // cycle the coordinates: the plane normal on `axis`
          Vec3 w;
          for (int k = 0; k < 3; ++k) w[(k + axis + 1) % 3] = v[k];
          return w;
        };
        const Vec3 p = place(Vec3(zero, -0.0, 1));
        out.push_back({p, place(tri[shift]), place(tri[(shift + 1) % 3]), place(tri[(shift + 2) % 3])});
      }
  return out;
}

bool same(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }

void check_batch(const std::vector<cases::ClosestFeatureQuery>& qs, int width) {
  const fast::ClosestFeatureSoA soa(qs);
  fast::ClosestFeatureSoAResult out;
  fast::closest_feature(soa, out, width);
  BOOST_TEST(out.region.size() == qs.size());
  int mismatches = 0;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const auto s = fast::closest_feature(qs[i]);
    bool ok = out.region[i] == s.region && same(out.squared_distance[i], s.squared_distance);
    for (int k = 0; k < 3; ++k) ok = ok && same(out.point[k][i], s.point[k]);
    mismatches += !ok;
  }
  BOOST_TEST(mismatches == 0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(flat_triangle_takes_the_fallback) {
  // The query above: region face, but the point is an edge point in the plane z = 0 (the
  // projection would be (2^-262, 2^-262, 0); the fallback's nearest edge point is on
  // ab at (2^-262, 0, 0) or on ca at (0, 2^-262, 0)).
  const auto qs = queries();
  const auto s = fast::closest_feature(qs.back());
  BOOST_TEST((s.region == cases::Region::face));
  BOOST_TEST(s.point.z() == 0.0);
  BOOST_TEST((s.point.x() == 0.0 || s.point.y() == 0.0));
}

BOOST_AUTO_TEST_CASE(zero_coordinates_of_p_above_axis_aligned_faces) {
  const auto qs = signed_zero_queries();
  for (const auto& q : qs) {
    const auto s = fast::closest_feature(q);
    BOOST_TEST((s.region == cases::Region::face));
    BOOST_TEST(s.squared_distance == 1.0);
    BOOST_TEST(s.point.norm() == 0.0);
  }
  for (int width : {1, 4, 8}) check_batch(qs, width);
}

BOOST_AUTO_TEST_CASE(simd_equals_scalar_bit_for_bit) {
  BOOST_TEST_MESSAGE("widest path on this CPU: " << fast::closest_feature_batch_width());
  const auto qs = queries();
  for (int width : {1, 4, 8}) {
    check_batch(qs, width);
    for (std::size_t n : {0, 1, 3, 4, 5, 7, 8, 9, 15}) check_batch({qs.end() - n, qs.end()}, width);
  }
}

BOOST_AUTO_TEST_CASE(array_of_structures_entry_point) {
  const auto qs = queries();
  std::vector<cases::ClosestFeatureResult> out(qs.size());
  fast::closest_feature(qs, out);
  int mismatches = 0;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const auto s = fast::closest_feature(qs[i]);
    mismatches += !(out[i].region == s.region && same(out[i].squared_distance, s.squared_distance) &&
                    same(out[i].point.x(), s.point.x()) && same(out[i].point.y(), s.point.y()) &&
                    same(out[i].point.z(), s.point.z()) && std::isnan(out[i].margin));
  }
  BOOST_TEST(mismatches == 0);
  std::vector<cases::ClosestFeatureResult> wrong(qs.size() + 1);
  BOOST_CHECK_THROW(fast::closest_feature(qs, wrong), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
