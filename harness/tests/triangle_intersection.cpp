// Suite triangle_intersection: the reference against hand-derived answers, exact invariances
// of both variants, the certified orientation predicates against the reference's exact
// orientation on the hardest inputs, the reader's bad-input lines, the stated domain and
// the planted faults by hand.
#include "cases/json_input.hpp"
#include "harness/pairs/triangle_intersection.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"
#include "reference/src/orientation.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <cmath>
#include <set>

using namespace contactbench;
using cases::Vec3;
using Query = cases::TriangleIntersectionQuery;

namespace {

std::vector<Query> generated(int n, bool degenerate) {
  std::vector<Query> out;
  for (int i = 0; i < n; ++i) {
    auto rng = cases::query_rng(5, "triangle_intersection_test", degenerate ? "d" : "r", i);
    const auto g = degenerate ? cases::TriangleIntersection::degenerate(rng) : cases::TriangleIntersection::random(rng);
    if (cases::triangle_in_fast_domain(g.query)) out.push_back(g.query);
  }
  return out;
}

// The query with both triangles' vertices renamed by permutations a and b of {0,1,2}.
Query permuted(const Query& q, const std::array<int, 3>& a, const std::array<int, 3>& b) {
  return {{q.p[a[0]], q.p[a[1]], q.p[a[2]]}, {q.q[b[0]], q.q[b[1]], q.q[b[2]]}};
}

const std::array<std::array<int, 3>, 6> perms = {{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}}};

bool same(const cases::TriangleIntersectionResult& a, const cases::TriangleIntersectionResult& b) {
  return a.intersect == b.intersect && a.coplanar == b.coplanar;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(triangle_intersection)

BOOST_AUTO_TEST_CASE(hand_derived_cases) {
  // Every configuration value is among the hand-derived cases.
  std::set<std::string> seen;
  for (const auto& c : cases::TriangleIntersection::cases()) {
    BOOST_TEST_CONTEXT(c.name) {
      const auto ref = reference::triangle_intersection(c.query);
      BOOST_TEST(ref.intersect == c.intersect);
      BOOST_TEST(ref.coplanar == c.coplanar);
      BOOST_TEST(ref.configuration == c.configuration);
      BOOST_TEST((ref.coplanar_margin == 0) == c.coplanar);
      const auto f = fast::triangle_intersection(c.query);
      BOOST_TEST(f.intersect == c.intersect);
      BOOST_TEST(f.coplanar == c.coplanar);
      BOOST_TEST(reference::cgal_epick_triangles_intersect(c.query) == (c.intersect ? 1.0 : 0.0));
      seen.insert(c.configuration);
    }
  }
  BOOST_TEST(seen.size() == cases::triangle_configuration_names.size());
  // Touching cases have a zero margin (an exactly zero orientation decided them).
  for (const auto& c : cases::TriangleIntersection::cases())
    if (c.configuration == "touching") BOOST_TEST(reference::triangle_intersection(c.query).intersect_margin == 0);
}

BOOST_AUTO_TEST_CASE(invariances_fast) {
  // Renaming vertices (36 orders), swapping the triangles, a dyadic translation and a power
  // of two scaling change neither answer; checked on degenerate and random queries against
  // the reference's answer for the original query.
  int checked = 0;
  for (bool degenerate : {true, false})
    for (const Query& q : generated(600, degenerate)) {
      const auto ref = reference::triangle_intersection(q);
      for (const auto& a : perms)
        for (const auto& b : perms) {
          const Query r = permuted(q, a, b);
          BOOST_TEST(same(fast::triangle_intersection(r), ref));
          BOOST_TEST(same(fast::triangle_intersection({r.q, r.p}), ref));
        }
      Query t = q, s = q;
      bool exact = true;
      const Vec3 shift(0x1p12, -0x1p9, 0x1p11);
      for (auto* tri : {&t.p, &t.q})
        for (Vec3& v : *tri) {
          for (int d = 0; d < 3; ++d) {  // Knuth's two-sum: the sum is exact iff its tail is 0
            const double hi = v[d] + shift[d], bv = hi - v[d], av = hi - bv;
            exact = exact && (v[d] - av) + (shift[d] - bv) == 0;
            v[d] = hi;
          }
        }
      for (auto* tri : {&s.p, &s.q})
        for (Vec3& v : *tri) v *= 0x1p-7;
      if (exact && cases::triangle_in_fast_domain(t)) BOOST_TEST(same(fast::triangle_intersection(t), ref));
      if (cases::triangle_in_fast_domain(s)) BOOST_TEST(same(fast::triangle_intersection(s), ref));
      ++checked;
    }
  BOOST_TEST(checked > 1000);
}

BOOST_AUTO_TEST_CASE(invariances_reference) {
  for (const Query& q : generated(150, true)) {
    const auto ref = reference::triangle_intersection(q);
    const auto sw = reference::triangle_intersection({q.q, q.p});
    BOOST_TEST(same(sw, ref));
    BOOST_TEST(sw.configuration == ref.configuration);
    for (const auto& a : {perms[1], perms[3]})
      BOOST_TEST(same(reference::triangle_intersection(permuted(q, a, perms[4])), ref));
  }
}

BOOST_AUTO_TEST_CASE(certified_orientation_against_the_exact_reference) {
  // Hard inputs: four points of one plane (grid, exactly coplanar), the same with one
  // coordinate moved 1-3 ulps (nearly coplanar), translated far from the origin (2^30),
  // and points on a rotated plane rounded to double (the exact sign is decided by the
  // roundings). The certified sign must be the reference's every time; the filter must
  // have handed a good share to the expansion fallback; plain double must err somewhere.
  int n = 0, fallback = 0, plain_wrong = 0, plain_2d_wrong = 0;
  for (int i = 0; i < 20000; ++i) {
    auto rng = cases::query_rng(3, "triangle_intersection_test", "orient", i);
    auto grid = [&] { return Vec3(cases::dyadic(rng, 4, 64, 1), cases::dyadic(rng, 4, 64, 1), cases::dyadic(rng, 4, 64, 1)); };
    Vec3 a, b, c, d;
    switch (i % 3) {
      case 0: {  // grid plane, d = a + s (b - a) + t (c - a), possibly nudged
        a = grid(), b = grid(), c = grid();
        d = a + cases::dyadic(rng, 3, 16, 1) * (b - a) + cases::dyadic(rng, 3, 16, 1) * (c - a);
        break;
      }
      case 1: {  // far: the same translated by 2^30 (kept exact on this grid)
        const Vec3 t = Vec3(1, -1, 1) * 0x1p30;
        a = grid(), b = grid(), c = grid();
        d = a + cases::dyadic(rng, 3, 16, 1) * (b - a) + cases::dyadic(rng, 3, 16, 1) * (c - a);
        a += t, b += t, c += t, d += t;
        break;
      }
      default: {  // rotated plane, rounded
        const Eigen::Matrix3d R = cases::random_rotation(rng);
        auto on_plane = [&] { return Vec3(R * Vec3(cases::uniform(rng, -1, 1), cases::uniform(rng, -1, 1), 0) * 1e3 + Vec3(7e3, -3e3, 1e3)); };
        a = on_plane(), b = on_plane(), c = on_plane(), d = on_plane();
      }
    }
    if (i % 3 != 2 && cases::uniform_int(rng, 0, 1)) {
      const int k = static_cast<int>(cases::uniform_int(rng, 0, 2));
      for (long s = cases::uniform_int(rng, 1, 3); s > 0; --s) d[k] = std::nextafter(d[k], d[k] > 0 ? 1e308 : -1e308);
    }
    const int exact = reference::exact::orientation(a, b, c, d);
    BOOST_TEST(fast::orient3d(a, b, c, d) == exact);
    BOOST_TEST(fast::orient3d_exact(a, b, c, d) == exact);
    fallback += fast::orient3d_filter(a, b, c, d) == 2;
    plain_wrong += fast::orient3d_plain(a, b, c, d) != exact;
    // orient2d on the projection along z: the exact sign of a 2D determinant is the 3D
    // orientation of the three points and a point straight above a.
    const int k = 2, exact2 = reference::exact::orientation(a, b, c, a + Vec3(0, 0, 1));
    BOOST_TEST(fast::orient2d(a, b, c, k) == exact2);
    BOOST_TEST(fast::orient2d_exact(a, b, c, k) == exact2);
    plain_2d_wrong += fast::orient2d_plain(a, b, c, k) != exact2;
    ++n;
  }
  BOOST_TEST_MESSAGE("orient3d: " << fallback << " of " << n << " to the exact fallback; plain double wrong on "
                                  << plain_wrong << ", orient2d plain wrong on " << plain_2d_wrong);
  BOOST_TEST(fallback > n / 3);
  BOOST_TEST(plain_wrong > 0);
}

BOOST_AUTO_TEST_CASE(integer_stage_column_edges) {
  // The integer stage scales each coordinate column by one power of two, from its largest
  // magnitude, to integers below 2^60 (differences; 2^59 for coordinates): a column whose
  // bits span 60 binary orders is accepted, 61 is not (a later stage decides). Hand-derived:
  // a = 0, b = (1 + e, 0, 0), c = (0, 1 + e, 0), e = 2^-52, d = (x, 3/4, z): the determinant
  // is (1 + e)^2·z whatever x, so the sign is z's. z = ±(1 + e)·2^-30 makes the products
  // inexact in double (stage 1 gives up), x = 2^-59 puts the x column at 60 orders (the
  // largest accepted), 2^-60 at 61 (the first rejected). Scaled by 2^100 the column scale is
  // below 1, where the underflow check runs. The expected sign holds at every stage; the
  // reference confirms it.
  const double e = 0x1p-52;
  for (const double scale : {1.0, 0x1p100})
    for (const double x : {0x1p-59, 0x1p-60, 3 * 0x1p-60})
      for (const int sign : {1, -1}) {
        const Vec3 a(0, 0, 0), b = Vec3(1 + e, 0, 0) * scale, c = Vec3(0, 1 + e, 0) * scale;
        const Vec3 d = Vec3(x, 0.75, sign * (1 + e) * 0x1p-30) * scale;
        BOOST_TEST(fast::orient3d_exact(a, b, c, d) == sign);
        BOOST_TEST(fast::orient3d(a, b, c, d) == sign);
        BOOST_TEST(reference::exact::orientation(a, b, c, d) == sign);
        // Three such points against t = (a, b, c) with every sign left to the exact stage:
        // the six coordinates' x column spans 59 orders (the largest accepted for
        // coordinates) at 2x = 2^-58, 60 at 2^-59 (rejected: one orientation at a time).
        const std::array<Vec3, 3> t = {a, b, c};
        const std::array<Vec3, 3> pts = {Vec3(2 * x, 0.75, sign * (1 + e) * 0x1p-30) * scale,
                                         Vec3(2 * x, 0.5, -sign * (1 + e) * 0x1p-31) * scale,
                                         Vec3(2 * x, 0.25, sign * (1 + 2 * e) * 0x1p-29) * scale};
        std::array<int, 3> sides = {0, 0, 0};
        fast::plane_sides_exact(t, pts, sides);
        BOOST_TEST(sides[0] == sign);
        BOOST_TEST(sides[1] == -sign);
        BOOST_TEST(sides[2] == sign);
      }
}

BOOST_AUTO_TEST_CASE(exact_stages_cancelling_determinant) {
  // Hand-derived: a = T, b = T + b0, c = T + c0, d = T + b0 + c0 + δ·(0, 0, 1) with
  // b0 = (p, q, t1), c0 = (r, s, t2). Then det[b - a, c - a, d - a] = det[b0, c0, δ e_z]
  // = δ·(p·s - q·r), while the minors of the last two rows are of the size of p·q: the
  // integer stage's 128-bit dot product cancels in its high part and the sign sits in the
  // low part. p = 1 + 3h, q = 1 + 5h, r = 1 + 7h, s = 1 + 9h: p·s - q·r = -8h^2 < 0, so
  // the sign is -sign(δ); swapping b and c flips it. h = 2^-52 (full mantissa, T = 0),
  // 2^-40 with T = 2^10 (far from the origin: 51 significant bits), 2^-12 with T = 2^10
  // (23 bits: the grid's order of stages). Every sum is exact: the h-multiples of b0 + c0
  // are even (10h, 14h, 24h) and δ = ±2h is a multiple of their ulp. Each scaled by a
  // power of two toward the ends of the fast domain: 2^-200 (coordinates near 2^-200, the
  // determinant 16h^3·2^-600 >= 2^-752 still normal) and 2^280 (the largest coordinate
  // 2^290 < 2^300).
  int n = 0;
  for (const auto& [h, shift] : {std::pair{0x1p-52, 0.0}, std::pair{0x1p-40, 0x1p10}, std::pair{0x1p-12, 0x1p10}})
    for (const double scale : {1.0, 0x1p-200, 0x1p280})
      for (const double delta : {2 * h, -2 * h}) {
        const Vec3 T = Vec3(shift, shift, shift);
        const Vec3 b0(1 + 3 * h, 1 + 5 * h, 1 + 11 * h), c0(1 + 7 * h, 1 + 9 * h, 1 + 13 * h);
        const Vec3 a = T * scale, b = (T + b0) * scale, c = (T + c0) * scale;
        const Vec3 d = (T + b0 + c0 + Vec3(0, 0, delta)) * scale;
        // Exactness of the construction: the differences give back b0, c0 and b0 + c0 + δ.
        BOOST_REQUIRE(((b - a) / scale - b0).norm() == 0);
        BOOST_REQUIRE(((d - a) / scale - (b0 + c0) - Vec3(0, 0, delta)).norm() == 0);
        const int expected = delta > 0 ? -1 : 1;
        BOOST_TEST_CONTEXT("h " << h << " scale " << scale << " delta " << delta) {
          BOOST_TEST(fast::orient3d_exact(a, b, c, d) == expected);
          BOOST_TEST(fast::orient3d_exact(a, c, b, d) == -expected);
          BOOST_TEST(fast::orient3d(a, b, c, d) == expected);
          BOOST_TEST(reference::exact::orientation(a, b, c, d) == expected);
          // The same sign through plane_sides_exact's one-point path (t's vertices
          // distinct, the point none of them); the decided entries are left alone.
          std::array<int, 3> sides = {0, 1, -1};
          fast::plane_sides_exact({a, b, c}, {d, a + Vec3(0, 0, 1), a - Vec3(0, 0, 1)}, sides);
          BOOST_TEST(sides[0] == expected);
          BOOST_TEST(sides[1] == 1);
          BOOST_TEST(sides[2] == -1);
          // δ = 0: exactly coplanar, 0 at every stage.
          const Vec3 d0 = (T + b0 + c0) * scale;
          BOOST_TEST(fast::orient3d_exact(a, b, c, d0) == 0);
          BOOST_TEST(reference::exact::orientation(a, b, c, d0) == 0);
        }
        ++n;
      }
  BOOST_TEST(n == 18);
}

BOOST_AUTO_TEST_CASE(few_bit_zero_certificate) {
  // few_bit_zero<degree>(points, bound): true only when every coordinate is a multiple of
  // 2^g, g the least integer with degree·g >= E + 2 (2^E <= bound < 2^(E+1)), and |x| <=
  // 2^(g+51). Hand-derived g: degree 3, bound 2^-3 -> E = -3, g = ceil(-1/3) = 0 (integers);
  // bound 1 -> g = ceil(2/3) = 1 (even integers); degree 2, bound 2^-4 -> g = -1 (halves).
  const auto pts = [](std::initializer_list<Vec3> v) { return std::vector<Vec3>(v); };
  auto zero3 = [](const std::vector<Vec3>& v, double bound) {
    return fast::few_bit_zero<3>({&v[0], &v[1], &v[2], &v[3]}, bound);
  };
  auto zero2 = [](const std::vector<Vec3>& v, double bound, int i, int j) {
    return fast::few_bit_zero<2>({&v[0], &v[1], &v[2]}, bound, i, j);
  };
  // Decides: integers (and 0, and the guard 2^51 itself) with g = 0.
  BOOST_TEST(zero3(pts({Vec3(0, 1, -2), Vec3(3, -5, 7), Vec3(0x1p51, 0, 4), Vec3(-9, 11, -0x1p51)}), 0x1p-3));
  // Defers: a half (not a multiple of 2^0); an integer beyond the guard (conservative); the
  // case the guard exists for: x = -(2^52 - 1/2), not an integer, yet (x + C) - C == x.
  BOOST_TEST(!zero3(pts({Vec3(0, 1, -2), Vec3(3, -5, 7), Vec3(0.5, 0, 4), Vec3(-9, 11, 1)}), 0x1p-3));
  BOOST_TEST(!zero3(pts({Vec3(0, 1, -2), Vec3(3, -5, 7), Vec3(0x1p52, 0, 4), Vec3(-9, 11, 1)}), 0x1p-3));
  {
    const double x = -(0x1p52 - 0.5), c = 1.5 * 0x1p52;
    BOOST_TEST((x + c) - c == x);  // why the guard is needed
    BOOST_TEST(!zero3(pts({Vec3(x, 1, -2), Vec3(3, -5, 7), Vec3(1, 0, 4), Vec3(-9, 11, 1)}), 0x1p-3));
  }
  // A larger bound asks for coarser data: odd integers defer at bound 1 (g = 1), evens pass.
  BOOST_TEST(!zero3(pts({Vec3(0, 2, -2), Vec3(4, -6, 8), Vec3(2, 0, 4), Vec3(-8, 10, 3)}), 1.0));
  BOOST_TEST(zero3(pts({Vec3(0, 2, -2), Vec3(4, -6, 8), Vec3(2, 0, 4), Vec3(-8, 10, 2)}), 1.0));
  // Degree 2 reads only the coordinates i, j: halves pass at bound 2^-4, a quarter in an
  // unread coordinate does not matter, in a read one it defers.
  BOOST_TEST(zero2(pts({Vec3(0.25, 0.5, 1.5), Vec3(0.75, -2, 0), Vec3(0, 3.5, -0.5)}), 0x1p-4, 1, 2));
  BOOST_TEST(!zero2(pts({Vec3(0.25, 0.5, 1.5), Vec3(0.75, -2, 0), Vec3(0, 3.5, -0.5)}), 0x1p-4, 2, 0));
  // Through the predicates: grid points exactly coplanar (d = a + (b - a)/4 + 3(c - a)/8, all
  // multiples of 2^-6) get 0 from the filter's undecided case; one coordinate an ulp off
  // (not a multiple any more) gets the reference's non-zero sign.
  const Vec3 a(0.5, 0.25, -1.25), b(1.75, -0.5, 0.125), c(-0.375, 1.5, 2.0);
  const Vec3 d = a + 0.25 * (b - a) + 0.375 * (c - a);
  BOOST_REQUIRE(reference::exact::orientation(a, b, c, d) == 0);
  BOOST_TEST(fast::orient3d_filter(a, b, c, d) == 2);  // the filter cannot decide a 0
  BOOST_TEST(fast::orient3d(a, b, c, d) == 0);
  for (int k = 0; k < 3; ++k)
    for (const double dir : {1e308, -1e308}) {
      Vec3 off = d;
      off[k] = std::nextafter(off[k], dir);
      const int expected = reference::exact::orientation(a, b, c, off);
      BOOST_TEST(expected != 0);
      BOOST_TEST(fast::orient3d(a, b, c, off) == expected);
      const std::array<int, 3> sides = fast::plane_sides({a, b, c}, {off, d, off});
      BOOST_TEST(sides[0] == expected);
      BOOST_TEST(sides[1] == 0);
      BOOST_TEST(sides[2] == expected);
      // orient2d of the projection along k' where the nudged coordinate is read.
      for (int kk = 0; kk < 3; ++kk) {
        if (kk == k) continue;
        Vec3 above = a;
        above[kk] = above[kk] > 0 ? 2 * above[kk] : above[kk] < 0 ? 0.0 : 1.0;
        BOOST_TEST(fast::orient2d(a, b, off, kk) == reference::exact::orientation(a, b, off, above));
      }
    }
}

BOOST_AUTO_TEST_CASE(coplanar_stage_and_shared_vertices) {
  // Hand-derived coplanar pairs on the plane z = x/4 + y/2 (exact for these coordinates),
  // then the same on the same plane with full-mantissa coordinates (x, y of 49 bits, the
  // configurations built by exact midpoints), under all 36 vertex orders, both triangle
  // orders, and the three axis permutations: the eager 2D stage's answer is the hand's and
  // the reference's. Cases: a vertex of q inside p; the star (edges cross, no vertex inside);
  // disjoint; q's vertex on p's edge (not a vertex: the 2D orientation is 0, not a shared
  // point); the same an ulp outside; a shared vertex with q outside (meet only there);
  // a shared edge.
  auto lift = [](double x, double y) { return Vec3(x, y, x / 4 + y / 2); };
  struct Case {
    const char* name;
    std::array<Vec3, 3> p, q;
    bool intersect;
  };
  const std::array<Vec3, 3> P = {lift(0, 0), lift(4, 0), lift(0, 4)};
  const Vec3 mid = lift(2, 2);  // midpoint of P's edge (4,0)-(0,4)
  std::vector<Case> cases = {
      {"vertex_inside", P, {lift(1, 1), lift(6, 1), lift(6, 6)}, true},
      {"star", {lift(0, 0), lift(6, 0), lift(3, 6)}, {lift(0, 4), lift(3, -2), lift(6, 4)}, true},
      {"disjoint", P, {lift(3, 3), lift(6, 3), lift(3, 6)}, false},
      {"on_edge", P, {mid, lift(6, 4), lift(4, 6)}, true},
      {"shared_vertex", P, {lift(4, 0), lift(8, 0), lift(8, 4)}, true},
      {"shared_edge", P, {lift(4, 0), lift(0, 4), lift(4, 4)}, true},
  };
  {  // an ulp outside: q's vertex on the edge's line moved off it (x exactly 2 + 2^-51, y 2)
    Case c = cases[3];
    c.name = "ulp_outside";
    c.q[0] = lift(std::nextafter(2.0, 3.0), 2);
    c.intersect = false;
    cases.push_back(c);
  }
  int n = 0;
  for (const Case& c : cases)
    for (int axis = 0; axis < 3; ++axis)
      for (const auto& pa : perms)
        for (const auto& pb : perms)
          for (const bool swap : {false, true}) {
            Query q = permuted({c.p, c.q}, pa, pb);
            for (auto* t : {&q.p, &q.q})
              for (Vec3& v : *t) v = Vec3(v[(axis + 1) % 3], v[(axis + 2) % 3], v[axis]);
            if (swap) std::swap(q.p, q.q);
            const bool coplanar = std::string(c.name) != "ulp_outside";
            BOOST_TEST_CONTEXT(c.name << " axis " << axis << " swap " << swap) {
              const auto f = fast::triangle_intersection(q);
              BOOST_TEST(f.intersect == c.intersect);
              BOOST_TEST(f.coplanar == coplanar);
              BOOST_TEST(same(f, reference::triangle_intersection(q)));
            }
            ++n;
          }
  BOOST_TEST(n == 7 * 3 * 6 * 6 * 2);
  // Full-mantissa coordinates on the same plane: x, y multiples of 2^-48 in (-1, 1) with 49
  // significant bits (4·x/4 + y/2 exact), the on-edge vertex an exact midpoint.
  for (int i = 0; i < 300; ++i) {
    auto rng = cases::query_rng(9, "triangle_intersection_test", "coplanar_fm", i);
    auto r = [&] { return std::ldexp(std::nearbyint(std::ldexp(cases::uniform(rng, -1, 1), 48)), -48); };
    const std::array<Vec3, 3> p = {lift(r(), r()), lift(r(), r()), lift(r(), r())};
    const Vec3 m = (p[1] + p[2]) / 2;  // exact: sums of multiples of 2^-48 below 2
    const std::array<Vec3, 3> on_edge = {m, lift(r(), r()), lift(r(), r())};
    const std::array<Vec3, 3> shared = {p[1], lift(r(), r()), lift(r(), r())};
    for (const auto& qt : {on_edge, shared}) {
      const Query q{p, qt};
      const auto ref = reference::triangle_intersection(q);
      BOOST_TEST(ref.coplanar);
      BOOST_TEST(ref.intersect);  // a common point by construction
      BOOST_TEST(same(fast::triangle_intersection(q), ref));
    }
  }
  // The side tests report a shared vertex (it ends the test early); decided signs stay.
  {
    const std::array<Vec3, 3> t = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    const std::array<Vec3, 3> x = {Vec3(1, 0, 0), Vec3(0.25, 0.25, 1), Vec3(0.5, 0.5, -1)};
    const auto [s, shared] = fast::plane_sides_shared(t, x);
    BOOST_TEST(shared);
    BOOST_TEST(s[0] == 0);
    BOOST_TEST(s[1] == 1);
    BOOST_TEST(s[2] == -1);
    // Crossing at the shared vertex only, not coplanar; and a vertex-free touch (on an edge)
    // does not count as shared.
    const auto f = fast::triangle_intersection({t, x});
    BOOST_TEST(f.intersect);
    BOOST_TEST(!f.coplanar);
    BOOST_TEST(!fast::plane_sides_shared(t, {Vec3(0.5, 0, 0), Vec3(0.25, 0.25, 1), Vec3(0.5, 0.5, -1)}).shared);
  }
}

BOOST_AUTO_TEST_CASE(full_mantissa_classes) {
  // The degenerate generator's fm_ classes: every config label appears; the certified side
  // tests agree with the reference on every class; each fm_ query's degeneracy holds exactly (exact equality, error-free sums, the reference's exact
  // orientation); its coordinates are not few-bit grid values; and the certified
  // predicates and the test agree with the reference on them.
  auto exact_sum_is = [](double x, double y, double target) {  // x + y == target exactly
    const double s = x + y, bv = s - x, av = s - bv;
    return (x - av) + (y - bv) == 0 && s == target;
  };
  auto midpoint_vertex = [&](const std::array<Vec3, 3>& s, const std::array<Vec3, 3>& t) {
    for (const Vec3& v : s)
      for (int e = 0; e < 3; ++e) {
        const Vec3 &a = t[e], &b = t[(e + 1) % 3];
        if (exact_sum_is(a.x(), b.x(), 2 * v.x()) && exact_sum_is(a.y(), b.y(), 2 * v.y()) &&
            exact_sum_is(a.z(), b.z(), 2 * v.z()))
          return true;
      }
    return false;
  };
  auto face_vertex = [&](const std::array<Vec3, 3>& s, const std::array<Vec3, 3>& t) {  // v = (a + b + 2c)/4
    for (const Vec3& v : s)
      for (int e = 0; e < 3; ++e) {
        const Vec3 &a = t[e], &b = t[(e + 1) % 3], &c = t[(e + 2) % 3];
        bool ok = true;
        for (int d = 0; d < 3 && ok; ++d) ok = exact_sum_is(a[d], b[d], a[d] + b[d]) && exact_sum_is(a[d] + b[d], 2 * c[d], 4 * v[d]);
        if (ok) return true;
      }
    return false;
  };
  auto significant_bits = [](double x) {
    const std::uint64_t m = std::bit_cast<std::uint64_t>(x) & ((std::uint64_t{1} << 52) - 1);
    return x == 0 ? 0 : 53 - (m == 0 ? 52 : std::countr_zero(m));
  };
  std::map<std::string, int> seen;
  for (int i = 0; i < 2000; ++i) {
    auto rng = cases::query_rng(7, "triangle_intersection_test", "fm", i);
    const auto g = cases::TriangleIntersection::degenerate(rng);
    const auto at = g.regime.find("config=") + 7;
    const std::string config = g.regime.substr(at, g.regime.find(' ', at) - at);
    ++seen[config];
    const Query& q = g.query;
    if (!cases::triangle_in_fast_domain(q)) continue;
    // The certified side tests (shared normal, exact stages) on every degenerate class.
    for (const auto* t : {&q.p, &q.q}) {
      const auto& o = t == &q.p ? q.q : q.p;
      const auto sides = fast::plane_sides(*t, o);
      for (int j = 0; j < 3; ++j) BOOST_TEST(sides[j] == reference::exact::orientation((*t)[0], (*t)[1], (*t)[2], o[j]));
    }
    if (!config.starts_with("fm_")) continue;
    BOOST_TEST_CONTEXT(config << " #" << i) {
      const auto ref = reference::triangle_intersection(q);
      int shared = 0, bits = 0;
      for (const Vec3& a : q.p)
        for (const Vec3& b : q.q) shared += a == b;
      for (const auto* t : {&q.p, &q.q})
        for (const Vec3& v : *t)
          for (int d = 0; d < 3; ++d) bits = std::max(bits, significant_bits(v[d]));
      BOOST_TEST(bits >= 40);
      if (config == "fm_coplanar") BOOST_TEST(ref.coplanar);
      if (config == "fm_coplanar_edge") BOOST_TEST((ref.coplanar && ref.intersect && shared == 2));
      if (config == "fm_nearly_coplanar") BOOST_TEST((!ref.coplanar && ref.coplanar_margin < 1e-6));
      if (config == "fm_shared_edge") BOOST_TEST((shared == 2 && ref.intersect));
      if (config == "fm_shared_vertex") BOOST_TEST((shared >= 1 && ref.intersect));
      if (config == "fm_vertex_on_edge")
        BOOST_TEST(((midpoint_vertex(q.q, q.p) || midpoint_vertex(q.p, q.q)) && ref.intersect && ref.intersect_margin == 0));
      if (config == "fm_vertex_on_face")
        BOOST_TEST(((face_vertex(q.q, q.p) || face_vertex(q.p, q.q)) && ref.intersect && ref.intersect_margin == 0));
      if (config == "fm_nearly_on_edge") BOOST_TEST(!(midpoint_vertex(q.q, q.p) || midpoint_vertex(q.p, q.q)));
      BOOST_TEST(same(fast::triangle_intersection(q), ref));
      // The certified predicates on the query's points (the exact stages do the work here).
      for (const auto* t : {&q.p, &q.q}) {
        const auto& o = t == &q.p ? q.q : q.p;
        for (const Vec3& x : o) {
          BOOST_TEST(fast::orient3d((*t)[0], (*t)[1], (*t)[2], x) == reference::exact::orientation((*t)[0], (*t)[1], (*t)[2], x));
          for (int k = 0; k < 3; ++k) {  // the 2D sign is the 3D one against a point above a along axis k
            Vec3 above = (*t)[0];
            above[k] = above[k] > 0 ? 2 * above[k] : above[k] < 0 ? 0.0 : 1.0;  // exact, and above[k] > a[k]
            BOOST_TEST(fast::orient2d((*t)[0], (*t)[1], x, k) == reference::exact::orientation((*t)[0], (*t)[1], x, above));
          }
        }
      }
    }
  }
  BOOST_TEST(seen.size() == 20u);
  // The benchmarks' CGAL orientation peer uses our sign convention: (0,0,1) lies on the side
  // (1,0,0) x (0,1,0) = (0,0,1) points to.
  const Vec3 o(0, 0, 0), ex(1, 0, 0), ey(0, 1, 0), ez(0, 0, 1);
  BOOST_TEST(reference::exact::cgal_epick_orientation(o, ex, ey, ez) == 1);
  BOOST_TEST(reference::exact::cgal_epick_orientation(o, ey, ex, ez) == -1);
  BOOST_TEST(reference::exact::cgal_epick_orientation(o, ex, ey, Vec3(3, 5, 0)) == 0);
  for (const auto& [config, n] : seen) BOOST_TEST_MESSAGE(config << ": " << n);
}

BOOST_AUTO_TEST_CASE(bad_input_lines) {
  const cases::Where w{"q.jsonl", "line 3"};
  auto message = [&](const char* line) -> std::string {
    try {
      cases::TriangleIntersection::from_json(nlohmann::json::parse(line), w);
    } catch (const cases::InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  const char* good = R"({"p":[[0,0,0],[4,0,0],[0,4,0]],"q":[[1,1,-1],[1,1,1],[5,5,0]]})";
  BOOST_TEST(message(good) == "accepted");
  // Collinear at 1e160 (exactly 2^531 (1,1,1) and 3·2^531 (1,1,1)), decided exactly.
  BOOST_TEST(message(R"({"p":[[0,0,0],["0x1p531","0x1p531","0x1p531"],["0x1.8p532","0x1.8p532","0x1.8p532"]],)"
                     R"("q":[[1,1,-1],[1,1,1],[5,5,0]]})") ==
             "q.jsonl: line 3: field p: degenerate triangle: the vertices are collinear (zero area), so it has no plane");
  BOOST_TEST(message(R"({"p":[[0,0,0],[4,0,0],[0,4,0]],"q":[[1,1,1],[1,1,1],[5,5,0]]})") ==
             "q.jsonl: line 3: field q: degenerate triangle: the vertices are collinear (zero area), so it has no plane");
  BOOST_TEST(message(R"({"p":[[0,0,0],[4,0,0]],"q":[[1,1,-1],[1,1,1],[5,5,0]]})") ==
             "q.jsonl: line 3: field p: a triangle has 3 vertices, not 2");
  const std::string nan = message(R"({"p":[[0,0,0],[4,0,"nan"],[0,4,0]],"q":[[1,1,-1],[1,1,1],[5,5,0]]})");
  BOOST_TEST(nan.find("q.jsonl: line 3: field p[1][2]") == 0, nan);
  const std::string inf = message(R"({"p":[[0,0,0],[4,0,0],[0,4,0]],"q":[[1,1,-1],[1,"inf",1],[5,5,0]]})");
  BOOST_TEST(inf.find("q.jsonl: line 3: field q[1][1]") == 0, inf);
  const std::string key = message(R"({"p":[[0,0,0],[4,0,0],[0,4,0]],"q":[[1,1,-1],[1,1,1],[5,5,0]],"r":1})");
  BOOST_TEST(key.find("q.jsonl: line 3: field r") == 0, key);
  // Through the command line: exit 2 on bad input.
  test::TempFile f("q.jsonl", std::string(good) + "\n" + R"({"p":[[0,0,0],[4,0,0]],"q":[[1,1,-1],[1,1,1],[5,5,0]]})" + "\n");
  BOOST_TEST(test::run_cli({"eval", "--family", "triangle_intersection", "--input", f.str()}) == 2);
}

BOOST_AUTO_TEST_CASE(stated_domain) {
  auto scaled = [](double s) {
    Query q = cases::TriangleIntersection::cases()[1].query;
    for (auto* t : {&q.p, &q.q})
      for (Vec3& v : *t) v *= s;
    return q;
  };
  BOOST_TEST(fast::triangle_intersection_in_domain(scaled(1)));
  BOOST_TEST(fast::triangle_intersection_in_domain(scaled(0x1p-250)));   // smallest coordinate 2^-250
  BOOST_TEST(!fast::triangle_intersection_in_domain(scaled(0x1p-251)));
  BOOST_TEST(fast::triangle_intersection_in_domain(scaled(0x1p297)));    // largest 5·2^297 < 2^300
  BOOST_TEST(!fast::triangle_intersection_in_domain(scaled(0x1p298)));
  // The reference answers outside the domain too, the same way (scaling is exact here).
  BOOST_TEST(reference::triangle_intersection(scaled(0x1p-1000)).intersect);
  BOOST_TEST(reference::triangle_intersection(scaled(0x1p900)).intersect);
  // Stated bounds: exact decisions.
  BOOST_TEST(fast::triangle_intersection_bounds(scaled(1)).intersect == 0);
  BOOST_TEST(fast::triangle_intersection_bounds(scaled(1)).coplanar == 0);
}

BOOST_AUTO_TEST_CASE(planted_faults_by_hand) {
  using namespace harness;
  auto find = [](const char* name) {
    for (const auto& c : cases::TriangleIntersection::cases())
      if (c.name == name) return c.query;
    throw std::runtime_error(name);
  };
  auto wrong = [](auto fault, const Query& q) {
    using F = decltype(fault);
    return judge(TriangleIntersectionPair::compare(q, reference::triangle_intersection(q), F::fast(q)),
                 Agreement::exact) == Verdict::wrong;
  };
  BOOST_TEST(wrong(TriangleIntersectionFault<DropCoplanarPolicy>{}, find("coplanar_overlap")));
  BOOST_TEST(wrong(TriangleIntersectionFault<NoEdgeCrossPolicy>{}, find("coplanar_star")));
  BOOST_TEST(!wrong(TriangleIntersectionFault<NoEdgeCrossPolicy>{}, find("coplanar_overlap")));
  // vertex_on_edge: the lone vertex q0 lies on p's plane: the final orientations are 0.
  BOOST_TEST(wrong(TriangleIntersectionFault<StrictTouchPolicy>{}, find("vertex_on_edge")));
  BOOST_TEST(!wrong(TriangleIntersectionFault<StrictTouchPolicy>{}, find("crossing")));
}

BOOST_AUTO_TEST_SUITE_END()
