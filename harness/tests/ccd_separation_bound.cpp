// Suite ccd_separation_bound: the proven lower bound of a miss's separation
// (reference::ccd_separation_lower_bound) against distances constructed exactly by hand, its
// invariance under exact scaling, its place below the long-double estimate, and the rule's
// use of it: the check skips the estimate only where the bound clears the excuse threshold
// (never for a near-touching miss), the exact early-exiting test of the estimate
// (reference::ccd_separation_of_miss_at_most) against the estimate itself, and the same
// counts and the same records as before.
#include "harness/pairs/ccd.hpp"

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>

using namespace contactbench;
using cases::CcdKind;
using cases::CcdQuery;
using cases::Vec3;

namespace {

CcdQuery make(CcdKind kind, std::array<Vec3, 8> x) {
  CcdQuery q;
  q.kind = kind;
  q.x = x;
  return q;
}

// A static triangle (0,0,0) (4,0,0) (0,4,0) in the plane z = 0 and a vertex moving from p0
// to p1 (scale 4 unless the vertex goes further out).
CcdQuery vertex_over_triangle(Vec3 p0, Vec3 p1) {
  const Vec3 a(0, 0, 0), b(4, 0, 0), c(0, 4, 0);
  return make(CcdKind::vertex_face, {p0, a, b, c, p1, a, b, c});
}

// Multiplies every coordinate by 2^k (exact).
CcdQuery scaled(CcdQuery q, int k) {
  for (auto& v : q.x)
    for (int i = 0; i < 3; ++i) v[i] = std::ldexp(v[i], k);
  return q;
}

// The fast answer "miss" (the case where the rule does not need the separation's value).
cases::CcdResult fast_miss() {
  cases::CcdResult r;
  r.hit = false;
  r.toi = 1;
  r.toi_up = NAN;
  return r;
}

const harness::Comparison::Decision& miss_decision(const harness::Comparison& c) {
  for (const auto& d : c.decisions)
    if (d.name == "hit") return d;
  throw std::logic_error("no hit decision");
}

// The excuse threshold of the honest rule for a fast miss: half the stated bound at t = 0.
double excuse_below(const CcdQuery& q) { return fast::ccd_separation_bound_at(q, 0) / 2; }

}  // namespace

BOOST_AUTO_TEST_SUITE(ccd_separation_bound)

// Parallel edges along x: A static on the x axis, B at (y, z) = (3/4, 1) at t = 0 and
// (3/8, 1/2) at t = 1, overlapping in x. The distance is |(y, z)| = 5/4 (1 - t/2), smallest at
// t = 1: 5/8; the scale is 3/2 (x up to 3/2), so the separation is 5/12.
BOOST_AUTO_TEST_CASE(parallel_edges_at_a_known_distance) {
  const Vec3 a0(0, 0, 0), a1(1, 0, 0);
  const auto q = make(CcdKind::edge_edge, {a0, a1, Vec3(0.5, 0.75, 1), Vec3(1.5, 0.75, 1),  //
                                           a0, a1, Vec3(0.5, 0.375, 0.5), Vec3(1.5, 0.375, 0.5)});
  BOOST_TEST_REQUIRE(!reference::ccd(q).hit);
  const double exact = 5.0 / 12;  // within 2^-54 relative of 5/12, far inside the slack
  const double tight = reference::ccd_separation_lower_bound(q, 0.41);
  BOOST_TEST(tight > 0.41);  // a bound that clears a target just below the separation
  BOOST_TEST(tight <= exact);
  BOOST_TEST(tight <= reference::ccd_separation_of_miss(q));
  const double loose = reference::ccd_separation_lower_bound(q, 0x1p-30);
  BOOST_TEST(loose > 0x1p-30);
  BOOST_TEST(loose <= exact);
  // Swapping the edges (and each edge's ends) does not change the distance.
  const auto swapped = make(CcdKind::edge_edge, {q.x[3], q.x[2], q.x[1], q.x[0], q.x[7], q.x[6], q.x[5], q.x[4]});
  const double sw = reference::ccd_separation_lower_bound(swapped, 0.41);
  BOOST_TEST(sw > 0.41);
  BOOST_TEST(sw <= exact);
}

// A vertex passing over the face at constant height h: the distance is h while it is over
// the triangle and larger elsewhere, so the separation is h / 4 (scale 4: the triangle).
BOOST_AUTO_TEST_CASE(vertex_passing_over_the_face_at_a_known_height) {
  for (double h : {1.0, 0x1p-6, 0x1p-12}) {
    const auto q = vertex_over_triangle(Vec3(-2, 1, h), Vec3(3, 1, h));
    BOOST_TEST_REQUIRE(!reference::ccd(q).hit);
    const double exact = h / 4, target = exact * 0.99;
    const double b = reference::ccd_separation_lower_bound(q, target);
    BOOST_TEST(b > target);
    BOOST_TEST(b <= exact);
    BOOST_TEST(b <= reference::ccd_separation_of_miss(q));
  }
}

// A vertex descending past the hypotenuse x + y = 4: p(t) = (-3 + 8t, 1, 1 - t/2). It is over
// the face until t = 3/4 (height 5/8 there), then moves away from the edge horizontally at
// 8/sqrt(2) per unit t while still descending. With s = t - 3/4 the squared distance to the
// edge is 32 s^2 + (5/8 - s/2)^2, smallest at s = (5/8) / 64.5: d^2 = (5/8)^2 (128/129).
// Separation (scale 5: x reaches 5 at t = 1) = (5/8) sqrt(128/129) / 5.
BOOST_AUTO_TEST_CASE(vertex_grazing_past_an_edge) {
  const auto q = vertex_over_triangle(Vec3(-3, 1, 1), Vec3(5, 1, 0.5));
  BOOST_TEST_REQUIRE(!reference::ccd(q).hit);
  const double exact = 0.625 * std::sqrt(128.0 / 129.0) / 5;
  const double b = reference::ccd_separation_lower_bound(q, exact * 0.999);
  BOOST_TEST(b > exact * 0.999);
  BOOST_TEST(b <= exact);
  const double est = reference::ccd_separation_of_miss(q);
  BOOST_TEST(b <= est);
  BOOST_TEST(std::abs(est - exact) <= 0x1p-50);  // the estimate itself agrees with the hand value
}

// Scaling the query by a power of two changes nothing (the bound works in the same scaled
// coordinates), down to subnormal and up to huge scales.
BOOST_AUTO_TEST_CASE(exact_scaling_leaves_the_bound_unchanged) {
  const auto q = vertex_over_triangle(Vec3(-3, 1, 1), Vec3(5, 1, 0.5));
  const double b = reference::ccd_separation_lower_bound(q, 0.1);
  for (int k : {-1060, -600, -3, 5, 700, 1020})
    BOOST_TEST(reference::ccd_separation_lower_bound(scaled(q, k), 0.1) == b, "2^" << k);
}

// A near-touching miss: the vertex passes over the face at 2^-40 of the scale, below the
// excuse threshold (at least 2^-37): the lower bound cannot clear it (the skip of far misses
// must not fire); the exact test of the estimate says "within", and the rule counts it within
// the bound, as the separation does.
BOOST_AUTO_TEST_CASE(near_touching_miss_is_never_skipped) {
  const auto q = vertex_over_triangle(Vec3(-2, 1, 0x1p-38), Vec3(3, 1, 0x1p-38));
  BOOST_TEST_REQUIRE(!reference::ccd(q).hit);
  const double eb = excuse_below(q);
  BOOST_TEST_REQUIRE(eb >= 0x1p-37);
  BOOST_TEST(reference::ccd_separation_lower_bound(q, eb) <= 0x1p-40);
  const double est = reference::ccd_separation_of_miss(q);
  BOOST_TEST(est <= eb);
  BOOST_TEST(reference::ccd_separation_of_miss_at_most(q, eb));
  const auto ref = reference::ccd(q);
  const auto c = harness::CcdPair::compare(q, ref, fast_miss());
  const auto& d = miss_decision(c);
  BOOST_TEST(d.margin <= d.bound);  // counted as a near miss, as before
  BOOST_TEST(d.margin > 0.0);
  BOOST_TEST((d.exact_margin ? d.exact_margin() : d.margin) == est);  // the record's margin
}

// Misses just above the threshold: wherever the bound clears it, the estimate does too.
BOOST_AUTO_TEST_CASE(the_skip_implies_the_estimate_clears_the_threshold) {
  const double eb = 0x1p-37;  // the honest threshold for a well-conditioned triangle
  for (double f : {0.5, 1.0, 1.0 + 0x1p-20, 1.01, 1.5, 2.0, 4.0, 64.0}) {
    const double h = 4 * eb * f;  // separation f * eb (scale 4)
    const auto q = vertex_over_triangle(Vec3(-2, 1, h), Vec3(3, 1, h));
    const double b = reference::ccd_separation_lower_bound(q, eb);
    const double est = reference::ccd_separation_of_miss(q);
    BOOST_TEST(b <= h / 4, "f " << f);
    BOOST_TEST(b <= est, "f " << f);
    if (b > eb) BOOST_TEST(est > eb, "f " << f);
    if (f <= 1) BOOST_TEST(!(b > eb), "f " << f);
    BOOST_TEST(reference::ccd_separation_of_miss_at_most(q, eb) == (est <= eb), "f " << f);
  }
}

// Generated misses (both generators): the bound stays below the estimate, and the rule's
// record of a skipped miss is the record the separation gives (the same margin in the JSON,
// the same explanation), for the honest claim and a planted fault's tighter one.
BOOST_AUTO_TEST_CASE(generated_misses_and_their_records) {
  int skipped = 0, misses = 0;
  for (bool deg : {false, true})
    for (int i = 0; i < 150; ++i) {
      auto rng = cases::query_rng(11, "ccd_separation_bound", deg ? "d" : "r", i);
      const auto q = deg ? cases::Ccd::degenerate(rng).query : cases::Ccd::random(rng).query;
      const auto ref = reference::ccd(q);
      if (ref.hit) continue;
      ++misses;
      const double est = reference::ccd_separation_of_miss(q);
      BOOST_TEST(reference::ccd_separation_lower_bound(q, excuse_below(q)) <= est);
      // The exact test against the estimate itself, at and around it and at the threshold.
      for (double x : {est, std::nextafter(est, 0.0), std::nextafter(est, 1.0), est / 2, est * 2,
                       excuse_below(q), excuse_below(q) * 0x1p-24})
        BOOST_TEST(reference::ccd_separation_of_miss_at_most(q, x) == (est <= x), "query " << i << " x " << x);
      for (double claim : {1.0, 0x1p-24}) {
        harness::CcdMemoEntry lazy{ref}, full{ref, est};
        const auto cl = harness::CcdPair::compare_claim(q, ref, fast_miss(), claim, lazy);
        const auto cf = harness::CcdPair::compare_claim(q, ref, fast_miss(), claim, full);
        const auto& dl = miss_decision(cl);
        const auto& df = miss_decision(cf);
        BOOST_TEST(((dl.margin <= dl.bound) == (df.margin <= df.bound)));
        BOOST_TEST(dl.margin != 0.0);
        BOOST_TEST(harness::comparison_json(cl, harness::Agreement::conservative) ==
                   harness::comparison_json(cf, harness::Agreement::conservative));
        if (dl.exact_margin) {
          ++skipped;
          BOOST_TEST(lazy.sep < 0.0);  // not computed
          if (dl.margin > dl.bound) BOOST_TEST(dl.margin <= est);  // a lower bound
          else BOOST_TEST(dl.margin >= est);                        // an upper bound
        }
      }
    }
  BOOST_TEST_MESSAGE(misses << " misses, " << skipped << " of " << 2 * misses << " comparisons skipped the estimate");
  BOOST_TEST(misses > 50);
  BOOST_TEST(skipped == 2 * misses);  // a fast miss never needs the value
}

// The estimate evaluates only the grid samples that can be among its three smallest (best
// first under the lower bound) and gives the double the full grid gives, bit for bit, on
// generated misses of both generators (near misses, thin and parallel shapes, every scale).
BOOST_AUTO_TEST_CASE(best_first_estimate_equals_the_full_grid) {
  int misses = 0;
  for (bool deg : {false, true})
    for (int i = 0; i < 400; ++i) {
      auto rng = cases::query_rng(12, "ccd_separation_bound", deg ? "d" : "r", i);
      const auto q = deg ? cases::Ccd::degenerate(rng).query : cases::Ccd::random(rng).query;
      if (reference::ccd(q).hit) continue;
      ++misses;
      const double best_first = reference::ccd_separation_of_miss(q),
                   full = reference::ccd_separation_of_miss_full_grid(q);
      BOOST_TEST(std::bit_cast<std::uint64_t>(best_first) == std::bit_cast<std::uint64_t>(full),
                 (deg ? "degenerate " : "random ") << i << ": " << best_first << " vs " << full);
    }
  BOOST_TEST(misses > 200);
}

// A false positive always has the separation (its note and wrong records quote it).
BOOST_AUTO_TEST_CASE(false_positives_compute_the_separation) {
  const auto q = vertex_over_triangle(Vec3(-2, 1, 1), Vec3(3, 1, 1));
  const auto ref = reference::ccd(q);
  cases::CcdResult hit;
  hit.hit = true;
  hit.toi = 0.5;
  hit.toi_up = NAN;
  harness::CcdMemoEntry known{ref};
  const auto c = harness::CcdPair::compare_claim(q, ref, hit, 1.0, known);
  BOOST_TEST(known.sep == reference::ccd_separation_of_miss(q));
  BOOST_TEST(!miss_decision(c).exact_margin);
  BOOST_TEST_REQUIRE(c.mismatches.size() == 1u);  // 0.25 of the scale: wrong, margin = separation
  BOOST_TEST(c.mismatches[0].margin == known.sep);
}

BOOST_AUTO_TEST_SUITE_END()
