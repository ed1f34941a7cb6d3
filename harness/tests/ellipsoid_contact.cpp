// Suite ellipsoid_contact: the reference against hand-derived answers (spheres in closed
// form, axis-aligned and integer-quaternion touching pairs, f's coefficients), exact
// constructions from the generators, symmetry (A and B swapped: λ ↦ 1/λ) and invariance
// (common exact rotations and translations), the interval filter against the exact count,
// the double-double stage against the all-MPFR path (bit for bit), the certified state
// against states known by construction and the exact count, the paper's shortcut
// failing on identical equally oriented shapes, the reader's bad-input lines and the fast
// domain.
#include "harness/pairs/ellipsoid_contact.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

using namespace contactbench;
using cases::Vec3;
using Query = cases::EllipsoidContactQuery;
using Ell = cases::Ellipsoid;

namespace {

std::vector<cases::Generated<Query>> generated(int n, bool degenerate) {
  std::vector<cases::Generated<Query>> out;
  for (int i = 0; i < n; ++i) {
    auto rng = cases::query_rng(7, "ellipsoid_contact_test", degenerate ? "d" : "r", i);
    out.push_back(degenerate ? cases::EllipsoidContact::degenerate(rng) : cases::EllipsoidContact::random(rng));
  }
  return out;
}

// Pairs at the edge of the fast domain: axis ratio 1024 (flat and elongated), the six
// semi-axes spread up to 2^20, relative gaps ±1e-15 … ±1e-9 (placed by F(t r) = t² F(r)
// with the generators' golden-section F), scales 2^-10 … 2^10, centres 2^29 sizes from the
// origin. Each with its relative gap.
std::vector<std::pair<Query, double>> worst_conditioned_pairs() {
  auto rng = cases::query_rng(5, "ellipsoid_worst", "conditioned", 0);
  std::normal_distribution<double> gauss(0, 1);
  auto quaternion = [&] { return Eigen::Vector4d(gauss(rng), gauss(rng), gauss(rng), gauss(rng)); };
  std::vector<std::pair<Query, double>> out;
  for (int i = 0; i < 160; ++i) {
    const double ratio = 1024, spread = i % 2 ? 0x1p20 / 1024 : 1;
    Query q;
    q.a.semi_axes = i % 4 < 2 ? Vec3(1, 1, 1 / ratio) : Vec3(1, 1 / ratio, 1 / ratio);
    q.b.semi_axes = (i % 8 < 4 ? Vec3(1, 1 / ratio, 1 / ratio) : Vec3(1, 1, 1 / ratio)) * spread;
    q.a.quaternion = quaternion(), q.b.quaternion = quaternion();
    const Vec3 r = Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized() * (1 + spread);
    const double F = cases::contact_function_golden({q.a, {r, q.b.semi_axes, q.b.quaternion}});
    const double g = (i % 3 ? 1 : -1) * std::pow(10.0, -9.0 - i % 7);
    const double scale = std::ldexp(1.0, static_cast<int>(cases::uniform_int(rng, -10, 10)));
    const Vec3 far = i % 5 == 0 ? Vec3(Vec3(gauss(rng), gauss(rng), gauss(rng)).normalized() * 0x1p29 * spread) : Vec3::Zero();
    q.a.centre = far * scale;
    q.b.centre = (far + r * ((1 + g) / std::sqrt(F))) * scale;
    q.a.semi_axes *= scale, q.b.semi_axes *= scale;
    out.push_back({q, g});
  }
  return out;
}

double rel(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

Ell sphere(Vec3 c, double r) { return {c, Vec3::Constant(r), {1, 0, 0, 0}}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(ellipsoid_contact)

BOOST_AUTO_TEST_CASE(hand_derived_cases) {
  for (const auto& c : cases::EllipsoidContact::cases()) {
    BOOST_TEST_CONTEXT(c.name) {
      const auto r = reference::ellipsoid_contact(c.query);
      BOOST_TEST(r.state == c.state);
      if (!c.roots.empty()) {
        BOOST_TEST_REQUIRE(r.roots.size() == c.roots.size());
        for (std::size_t i = 0; i < c.roots.size(); ++i) BOOST_TEST(rel(r.roots[i], c.roots[i]) < 4e-16);
      }
      if (c.state == "touching") {
        BOOST_TEST(r.F == 1.0);
        BOOST_TEST(r.state_margin == 0.0);
      }
      if (c.state == "overlapping") BOOST_TEST(r.roots.empty());
    }
  }
  // The touching point of the hand cases: (1, 0, 0) for aligned_touching_x, 9u = (1, 8, −4)
  // for rotated_touching; normal along x, resp. (1, 8, −4)/9.
  for (const auto& c : cases::EllipsoidContact::cases()) {
    const auto r = reference::ellipsoid_contact(c.query);
    if (c.name == "aligned_touching_x") {
      BOOST_TEST((r.point - Vec3(1, 0, 0)).norm() < 1e-15);
      BOOST_TEST((r.normal - Vec3(1, 0, 0)).norm() < 1e-15);
    }
    if (c.name == "rotated_touching") {
      BOOST_TEST((r.point - Vec3(1, 8, -4)).norm() < 1e-14);
      BOOST_TEST((r.normal - Vec3(1, 8, -4) / 9).norm() < 1e-15);
    }
  }
}

BOOST_AUTO_TEST_CASE(characteristic_polynomial_coefficients) {
  // Unit spheres 3 apart: f = −(λ + 1)²(λ² − 7λ + 1) = −λ⁴ + 5λ³ + 12λ² + 5λ − 1.
  const auto c = reference::ellipsoid_characteristic({sphere({0, 0, 0}, 1), sphere({3, 0, 0}, 1)});
  BOOST_TEST(c[0] == -1.0);
  BOOST_TEST(c[1] == 5.0);
  BOOST_TEST(c[2] == 12.0);
  BOOST_TEST(c[3] == 5.0);
  BOOST_TEST(c[4] == -1.0);
  // Identical (1, 2, 3) shapes 2 apart along x: f = −(λ² − 1)²/36, coefficients rounded once.
  const Ell e{{0, 0, 0}, {1, 2, 3}, {1, 0, 0, 0}};
  Ell e2 = e;
  e2.centre = {2, 0, 0};
  const auto d = reference::ellipsoid_characteristic({e, e2});
  BOOST_TEST(d[0] == -1.0 / 36);
  BOOST_TEST(d[1] == 0.0);
  BOOST_TEST(d[2] == 2.0 / 36);
  BOOST_TEST(d[3] == 0.0);
  BOOST_TEST(d[4] == -1.0 / 36);
}

BOOST_AUTO_TEST_CASE(spheres_closed_form) {
  // Radii r1, r2 on a 2^-4 grid, centres d apart along an axis: state from d vs r1 + r2
  // (exact in double here); positive roots [(D ∓ √(D² − 4r1²r2²)]/(2r2²), D = d² − r1² − r2²;
  // F = (d/(r1 + r2))²; point c_A + d r1/(r1 + r2) along the axis; overlap r1 + r2 − d.
  auto rng = cases::query_rng(3, "ellipsoid_spheres", "closed_form", 0);
  for (int i = 0; i < 200; ++i) {
    const double r1 = std::ldexp(cases::uniform_int(rng, 4, 64), -4), r2 = std::ldexp(cases::uniform_int(rng, 4, 64), -4);
    const double d = std::ldexp(cases::uniform_int(rng, 1, 256), -4);
    const int axis = static_cast<int>(cases::uniform_int(rng, 0, 2));
    Query q{sphere({0.5, -1, 2}, r1), sphere({0.5, -1, 2}, r2)};
    q.b.centre[axis] += d;
    q.b.quaternion = {0.5, -1.5, 2, 3};  // a sphere's rotation does not matter
    const auto r = reference::ellipsoid_contact(q);
    BOOST_TEST_CONTEXT("r1 " << r1 << " r2 " << r2 << " d " << d) {
      const std::string state = d > r1 + r2 ? "separated" : d == r1 + r2 ? "touching" : "overlapping";
      BOOST_TEST(r.state == state);
      const long double D = (long double)d * d - (long double)r1 * r1 - (long double)r2 * r2;
      if (state == "separated") {
        BOOST_TEST_REQUIRE(r.roots.size() == 2u);
        const long double s = std::sqrt(D * D - 4.0L * r1 * r1 * r2 * r2);
        BOOST_TEST(rel(r.roots[0], double((D - s) / (2.0L * r2 * r2))) < 1e-12);
        BOOST_TEST(rel(r.roots[1], double((D + s) / (2.0L * r2 * r2))) < 1e-15);
      }
      if (state == "touching") {
        BOOST_TEST_REQUIRE(r.roots.size() == 1u);
        BOOST_TEST(r.roots[0] == r1 / r2);
      }
      BOOST_TEST(rel(r.F, (d / (r1 + r2)) * (d / (r1 + r2))) < 4e-16);
      // Margin |√F − 1| = |d − (r1 + r2)|/(r1 + r2): the numerator is exact on the grid, the
      // division rounds the exact margin to nearest; rounded up means the next double above.
      if (state != "touching") {
        const double nearest = std::abs(d - (r1 + r2)) / (r1 + r2);
        BOOST_TEST(r.state_margin == std::nextafter(nearest, INFINITY));
        BOOST_TEST((long double)r.state_margin * (r1 + r2) > std::abs((long double)d - r1 - r2));
      }
      Vec3 p = q.a.centre;
      p[axis] += d * r1 / (r1 + r2);
      BOOST_TEST((r.point - p).norm() < 1e-15 * (1 + d));
      BOOST_TEST(std::abs(r.normal[axis] - 1) < 1e-15);
      BOOST_TEST(std::abs(r.overlap - (r1 + r2 - d)) < 1e-15 * (r1 + r2));
    }
  }
}

BOOST_AUTO_TEST_CASE(exact_constructions_of_the_generators) {
  // The degenerate generator's labels carry exact answers: touch_* touching, *_ulp_out
  // separated, *_ulp_in overlapping (internal_touch* and coincident always overlapping).
  int touching = 0;
  for (const auto& g : generated(400, true)) {
    const auto r = reference::ellipsoid_contact(g.query);
    BOOST_TEST_CONTEXT(g.regime) {
      const auto has = [&](const char* s) { return g.regime.find(s) != std::string::npos; };
      BOOST_TEST(has("shape="));
      BOOST_TEST(has("config="));
      if (has("internal_touch") || has("coincident")) {
        BOOST_TEST(r.state == "overlapping");
      } else if (has("_ulp_out")) {
        BOOST_TEST(r.state == "separated");
      } else if (has("_ulp_in")) {
        BOOST_TEST(r.state == "overlapping");
      } else if (has("config=touch_")) {
        BOOST_TEST(r.state == "touching");
        ++touching;
        // The touching point is the null vector of λ0 A + B at the double root λ0
        // (Wang, Wang & Kim): (λ0 P_A (x − c_A) + P_B (x − c_B)) = 0 up to rounding.
        BOOST_TEST_REQUIRE(r.roots.size() == 1u);
      }
      for (const auto* e : {&g.query.a, &g.query.b}) {
        BOOST_TEST(e->semi_axes.minCoeff() > 0);
        BOOST_TEST(e->quaternion.norm() > 0);
      }
    }
  }
  BOOST_TEST(touching > 50);
}

BOOST_AUTO_TEST_CASE(swap_symmetry_and_reciprocal_roots) {
  // det(λA + B) = λ⁴ det(A + B/λ): swapping A and B maps the roots to their reciprocals; the
  // state and F (symmetric in its definition) are unchanged; the normal flips.
  for (bool deg : {false, true})
    for (const auto& g : generated(120, deg)) {
      const Query s{g.query.b, g.query.a};
      const auto r = reference::ellipsoid_contact(g.query), t = reference::ellipsoid_contact(s);
      BOOST_TEST_CONTEXT(g.regime) {
        BOOST_TEST(r.state == t.state);
        BOOST_TEST_REQUIRE(r.roots.size() == t.roots.size());
        for (std::size_t i = 0; i < r.roots.size(); ++i)
          BOOST_TEST(rel(1 / r.roots[i], t.roots[r.roots.size() - 1 - i]) < 3e-16);
        BOOST_TEST(rel(r.F, t.F) < 3e-16);
        if (r.normal.squaredNorm() > 0 && r.state != "touching") BOOST_TEST((r.normal + t.normal).norm() < 1e-6);
      }
    }
}

BOOST_AUTO_TEST_CASE(rigid_motion_invariance) {
  // A common signed axis permutation (exact on doubles: q0 ⊗ q composes exactly for integer
  // or dyadic entries) and a dyadic translation leave f, hence state and roots, and F unchanged.
  const Eigen::Vector4d q0(1, 1, 1, 1);  // 120° about (1, 1, 1): x → y → z → x
  auto turn = [&](const Ell& e, const Vec3& shift) {
    Ell o = e;
    o.centre = Vec3(e.centre[2], e.centre[0], e.centre[1]) + shift;
    const Vec3 pv = q0.tail<3>(), qv = e.quaternion.tail<3>();
    o.quaternion[0] = q0[0] * e.quaternion[0] - pv.dot(qv);
    o.quaternion.tail<3>() = q0[0] * qv + e.quaternion[0] * pv + pv.cross(qv);
    return o;
  };
  int tested = 0;
  for (const auto& g : generated(200, true)) {
    // Exact composition needs integer quaternions (the generators' signed permutations and
    // integer quaternions; their random unit ones would round).
    bool integer = true;
    for (const auto* e : {&g.query.a, &g.query.b})
      for (int i = 0; i < 4; ++i) integer = integer && e->quaternion[i] == std::round(e->quaternion[i]);
    if (!integer) continue;
    // A translation by a multiple of the query's coarsest ulp-exact step: 2^10 ulps of the
    // largest coordinate keeps every coordinate exact.
    const double big = std::max({g.query.a.centre.cwiseAbs().maxCoeff(), g.query.b.centre.cwiseAbs().maxCoeff(), 1e-300});
    const double step = std::ldexp(1.0, std::ilogb(big) - 52 + 10);
    const Vec3 shift(step, -3 * step, 5 * step);
    const Query moved{turn(g.query.a, shift), turn(g.query.b, shift)};
    if ((moved.a.centre - shift - Vec3(g.query.a.centre[2], g.query.a.centre[0], g.query.a.centre[1])).norm() != 0 ||
        (moved.b.centre - shift - Vec3(g.query.b.centre[2], g.query.b.centre[0], g.query.b.centre[1])).norm() != 0)
      continue;  // not exact: skip
    ++tested;
    const auto r = reference::ellipsoid_contact(g.query), t = reference::ellipsoid_contact(moved);
    BOOST_TEST_CONTEXT(g.regime) {
      BOOST_TEST(r.state == t.state);
      BOOST_TEST(r.roots == t.roots);
      BOOST_TEST(rel(r.F, t.F) < 3e-16);
    }
  }
  BOOST_TEST(tested > 80);
}

BOOST_AUTO_TEST_CASE(filter_agrees_with_the_exact_count_and_decides_random_pairs) {
  int decided = 0, n = 0;
  for (const auto& g : generated(300, false)) {
    if (g.regime.find("gap=+1e-15") != std::string::npos || g.regime.find("gap=-1e-15") != std::string::npos) continue;
    const int exact = reference::ellipsoid_positive_roots_exact(g.query);
    const int filtered = reference::ellipsoid_positive_roots_filtered(g.query);
    ++n;
    if (filtered < 0) continue;
    ++decided;
    BOOST_TEST(filtered == exact, g.regime);
  }
  BOOST_TEST_MESSAGE("filter decided " << decided << " of " << n << " random pairs");
  BOOST_TEST(decided >= n * 9 / 10);
}

BOOST_AUTO_TEST_CASE(double_double_stage_gives_the_mpfr_doubles) {
  // The reference's double-double stage must return, bit for bit, what the all-MPFR path
  // returns (it only answers when its enclosure rounds to one double): every field, on
  // random and degenerate pairs (touching, near-touching, aligned, inside, far, flat).
  auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  int differing = 0, n = 0;
  for (bool deg : {false, true})
    for (const auto& g : generated(400, deg)) {
      const auto a = reference::ellipsoid_contact(g.query), b = reference::ellipsoid_contact_mpfr(g.query);
      bool same = a.state == b.state && bits(a.state_margin) == bits(b.state_margin) && bits(a.F) == bits(b.F) &&
                  bits(a.overlap) == bits(b.overlap) && a.roots.size() == b.roots.size();
      for (std::size_t i = 0; same && i < a.roots.size(); ++i) same = bits(a.roots[i]) == bits(b.roots[i]);
      for (int i = 0; i < 3; ++i) same = same && bits(a.point[i]) == bits(b.point[i]) && bits(a.normal[i]) == bits(b.normal[i]);
      ++n;
      if (!same) ++differing;
      BOOST_TEST(same, g.regime);
    }
  BOOST_TEST(n == 800);
  BOOST_TEST(differing == 0);
}

BOOST_AUTO_TEST_CASE(fast_state_bound_holds_on_the_worst_conditioned_pairs) {
  // The fast state's bound is computed alongside (fast/ellipsoid_contact.hpp): 0 where a
  // certificate holds, there the fast state must be the reference's; elsewhere the bound
  // must cover the reference's exact margin. On the edge-of-domain pairs.
  int certified = 0, n = 0, roots_compared = 0, i = 0;
  for (const auto& [q, g] : worst_conditioned_pairs()) {
    BOOST_TEST_REQUIRE(fast::ellipsoid_contact_in_domain(q));
    const auto ref = reference::ellipsoid_contact(q);
    const auto fa = fast::ellipsoid_contact(q);
    const auto b = fast::ellipsoid_contact_bounds(q);
    ++n;
    BOOST_TEST_CONTEXT("pair " << i << " gap " << g << " margin " << ref.state_margin << " bound " << b.state) {
      if (b.state == 0) {
        ++certified;
        BOOST_TEST(fa.state == ref.state);
      } else {
        BOOST_TEST(ref.state_margin <= b.state);
      }
      if (fa.roots.size() == ref.roots.size())
        for (std::size_t k = 0; k < ref.roots.size(); ++k, ++roots_compared)
          BOOST_TEST(std::abs(fa.roots[k] - ref.roots[k]) / ref.roots[k] <= b.root(ref.roots[k]));
    }
    ++i;
  }
  BOOST_TEST_MESSAGE("worst-conditioned pairs: " << certified << " of " << n << " certified, " << roots_compared << " roots compared");
  BOOST_TEST(certified > 0);
  BOOST_TEST(roots_compared > 0);
}

BOOST_AUTO_TEST_CASE(certified_state_is_the_exact_state) {
  // harness::ellipsoid_contact_certified_state (the centre line's and Perram–Wertheim's
  // certificates in double, else the reference) against states known by construction and against
  // the reference's exact Sturm count; the fast stages alone never contradict it, and the
  // escalation to the reference (its exact count) is taken.
  std::array<int, 6> stages{};
  int undecided = 0;
  auto expect = [&](const Query& q, const std::string& state) {
    const auto d = harness::ellipsoid_contact_certified_state(q);
    ++stages.at(d.stage);
    BOOST_TEST(cases::ellipsoid_state_names.at(d.state) == state);
    const int alone = fast::ellipsoid_contact_state(q);
    if (alone < 0) ++undecided;
    else BOOST_TEST(cases::ellipsoid_state_names.at(alone) == state);
  };
  auto exact = [](const Query& q) {
    const int n = reference::ellipsoid_positive_roots_exact(q);
    return std::string(cases::ellipsoid_state_names[n == 2 ? 0 : n == 1 ? 1 : 2]);
  };
  // Aligned, by hand: A (6, 3, 3) at 0 lies in x ≤ 6 and meets the plane x = 6 only at
  // (6, 0, 0); B (3, 9, 6) at (9, 0, 0) lies in x ≥ 6 and meets it at the same point:
  // touching. One ulp of B's x outwards: the plane separates; inwards: (6 − ulp/2, 0, 0) is
  // inside both.
  const Ell a{{0, 0, 0}, {6, 3, 3}, {1, 0, 0, 0}}, b{{9, 0, 0}, {3, 9, 6}, {1, 0, 0, 0}};
  expect({a, b}, "touching");
  expect({b, a}, "touching");
  Ell out = b, in = b;
  out.centre.x() = std::nextafter(9.0, 10.0), in.centre.x() = std::nextafter(9.0, 8.0);
  expect({a, out}, "separated");
  expect({a, in}, "overlapping");
  // B turned about the contact normal x by (3, 4, 0, 0) keeps its x-extent and extreme
  // point: touching; then the whole pair turned by (1, 2, 2, 0) (R e_x = (1, 8, −4)/9,
  // B's quaternion the product (1, 2, 2, 0)(3, 4, 0, 0) = (−5, 10, 6, −8)): touching. B moved
  // by +ulp in y (n·Δ = 8 ulp/9 > 0, n = (1, 8, −4)/9): the turned plane separates.
  expect({a, {b.centre, b.semi_axes, {3, 4, 0, 0}}}, "touching");
  const Ell ra{{0, 0, 0}, a.semi_axes, {1, 2, 2, 0}}, rb{{1, 8, -4}, b.semi_axes, {-5, 10, 6, -8}};
  expect({ra, rb}, "touching");
  Ell rb_out = rb;
  rb_out.centre.y() = std::nextafter(8.0, 9.0);
  expect({ra, rb_out}, "separated");
  // Identical, equally oriented shapes: exactly touching along x and y (A's extent 6 and 3),
  // and on a grid of offsets (the reference's exact count).
  expect({a, {{12, 0, 0}, a.semi_axes, a.quaternion}}, "touching");
  expect({a, {{0, 6, 0}, a.semi_axes, a.quaternion}}, "touching");
  expect({a, a}, "overlapping");
  const Ell t{{0, 0, 0}, {1, 2, 3}, {0.9, 0.1, -0.3, 0.2}};
  for (int i = -6; i <= 6; ++i)
    for (int j = -6; j <= 6; ++j) {
      Ell u = t;
      u.centre = {i * 0.5, j * 0.75, 0.25};
      expect({t, u}, exact({t, u}));
    }
  // The degenerate generator's constructions (labels by construction, else the exact count).
  for (const auto& g : generated(300, true)) {
    BOOST_TEST_CONTEXT(g.regime) {
      const auto has = [&](const char* s) { return g.regime.find(s) != std::string::npos; };
      const std::string label = has("internal_touch") || has("coincident") || has("_ulp_in") ? "overlapping"
                                : has("_ulp_out")                                          ? "separated"
                                : has("config=touch_")                                     ? "touching"
                                                                                           : exact(g.query);
      expect(g.query, label);
    }
  }
  // The edge of the fast domain, gaps ±1e-15 … ±1e-9.
  for (const auto& [q, g] : worst_conditioned_pairs()) expect(q, exact(q));
  BOOST_TEST_MESSAGE("certified state by stage (centre line, Perram–Wertheim, filter, double-double, exact): "
                     << stages[1] << ", " << stages[2] << ", " << stages[3] << ", " << stages[4] << ", " << stages[5]
                     << "; fast alone undecided " << undecided);
  BOOST_TEST(stages[1] > 0);
  BOOST_TEST(stages[2] > 0);
  BOOST_TEST(stages[4] > 0);  // the double-double escalation: the gaps near 1e-15
  BOOST_TEST(stages[5] > 0);  // the exact escalation, at least for the exactly touching pairs
  BOOST_TEST(undecided == stages[3] + stages[4] + stages[5]);
}

BOOST_AUTO_TEST_CASE(state_certificates_on_exact_off_centre_touching) {
  // Touching by construction, off the centre line (so the centre line cannot decide near
  // it): A = (5·2^i, 5·2^j, a3) axis-aligned at 0 passes through p = (3·2^i, 4·2^j, 0)
  // ((3/5)² + (4/5)² = 1) with outward normal ∝ (3·2^-i, 4·2^-j, 0); B = λ(5·2^i, 5·2^j, ·)
  // centred at p + λ(3·2^i, 4·2^j, 0) passes through p with the opposite normal (the same
  // axis ratio). Both lie on either side of the common tangent plane at p: touching. B
  // moved by δ = ±2^m (3·2^-i, 4·2^-j, 0), along the normal, kept only where every sum is
  // exact: outwards the shifted plane separates them; inwards, points just inside A along
  // the normal at p are inside B: overlapping. Axis ratios to 2^10, relative gaps from
  // ~1e-2 down to what stays exact (~1e-15 for ratio 1, ~1e-9 for 2^10), common exact turns
  // (axis permutations by the non-unit quaternions (1, 1, 1, 1) and (1, 0, 0, 1)), scales
  // 2^-10 … 2^10, some placed 2^20 sizes from the origin (where exact), A and B swapped.
  // Expected states from the construction alone.
  std::array<int, 6> stages{};
  int checked = 0;
  auto turn = [](const Eigen::Vector4d& qt, const Vec3& x) -> Vec3 {
    // R = Q(q)/|q|² of the two turns used: (1,1,1,1): (x, y, z) ↦ (z, x, y); (1,0,0,1): ↦ (−y, x, z)
    if (qt == Eigen::Vector4d(1, 1, 1, 1)) return {x[2], x[0], x[1]};
    if (qt == Eigen::Vector4d(1, 0, 0, 1)) return {-x[1], x[0], x[2]};
    return x;
  };
  struct Shape {
    int i, j;
    double a3, lambda, b3;
  };
  const Shape shapes[] = {{0, 0, 7, 1, 3}, {0, 3, 0.5, 2, 9}, {4, 0, 40, 0.5, 1}, {0, 10, 5, 1, 5120},
                          {10, 0, 5, 0.25, 1280}, {0, 9, 2560, 2, 5}, {2, 5, 0.125, 4, 100}};
  const Eigen::Vector4d turns[] = {{1, 0, 0, 0}, {1, 1, 1, 1}, {1, 0, 0, 1}};
  for (const Shape& sh : shapes)
    for (const auto& qt : turns)
      for (int m = 1; m >= -61; m -= 3) {  // m = 1: touching (δ = 0)
        for (int sign : {1, -1}) {
          if (m == 1 && sign < 0) continue;
          const double a1 = 5 * std::ldexp(1.0, sh.i), a2 = 5 * std::ldexp(1.0, sh.j);
          const Vec3 p(3 * std::ldexp(1.0, sh.i), 4 * std::ldexp(1.0, sh.j), 0);
          const Vec3 to_b = sh.lambda * Vec3(3 * std::ldexp(1.0, sh.i), 4 * std::ldexp(1.0, sh.j), 0);
          const Vec3 delta = m == 1 ? Vec3::Zero() : Vec3(sign * std::ldexp(3.0, m - sh.i), sign * std::ldexp(4.0, m - sh.j), 0);
          const Vec3 cb = p + to_b + delta;
          if (cb - to_b - p != delta) continue;  // not exact: the construction would be lost
          const std::string state = m == 1 ? "touching" : sign > 0 ? "separated" : "overlapping";
          const double scale = std::ldexp(1.0, (m * 7 + sh.i + 100) % 21 - 10);
          Vec3 far = (sh.j - m) % 3 == 0 ? Vec3(Vec3(3, -5, 1) * 0x1p20 * std::max(a1, a2)) : Vec3::Zero();
          if ((turn(qt, cb) + far) - far != turn(qt, cb)) far = Vec3::Zero();  // exact sums only
          const Ell a{scale * far, Vec3(a1, a2, sh.a3) * scale, qt * 2};
          const Ell b{scale * (turn(qt, cb) + far), Vec3(sh.lambda * a1, sh.lambda * a2, sh.b3) * scale, qt};
          for (const Query& q : {Query{a, b}, Query{b, a}}) {
            BOOST_TEST_CONTEXT("shape " << sh.i << "," << sh.j << " m " << m << " sign " << sign << " turn "
                                        << qt.transpose() << " far " << (far.norm() > 0)) {
              const auto d = harness::ellipsoid_contact_certified_state(q);
              ++stages.at(d.stage), ++checked;
              BOOST_TEST(cases::ellipsoid_state_names.at(d.state) == state);
              const int alone = fast::ellipsoid_contact_state(q);
              if (alone >= 0) BOOST_TEST(cases::ellipsoid_state_names.at(alone) == state);
              if (m == 1) BOOST_TEST(alone == -1);  // touching has no margin: never certified in double
            }
          }
        }
      }
  BOOST_TEST_MESSAGE("exact off-centre pairs by stage (centre line, Perram–Wertheim, filter, double-double, exact): "
                     << stages[1] << ", " << stages[2] << ", " << stages[3] << ", " << stages[4] << ", " << stages[5]
                     << " of " << checked);
  BOOST_TEST(stages[2] > 0);  // the Perram–Wertheim certificate decides most gapped pairs
  BOOST_TEST(stages[4] > 0);  // the smallest gaps reach the double-double certificate
  BOOST_TEST(stages[5] == 2 * 7 * 3);  // the exactly touching pairs, and only they, need the exact count
}

BOOST_AUTO_TEST_CASE(reference_state_with_and_without_a_start) {
  // reference::ellipsoid_contact_state alone (its own double maximiser) and started from a
  // poor weight (t0 = 0.3: the double-double step then lands elsewhere, and the filter or
  // the exact count must still give the state): both the exact count's state.
  int n = 0;
  for (const auto& [q, g] : worst_conditioned_pairs()) {
    if (++n > 40) break;
    const int c = reference::ellipsoid_positive_roots_exact(q);
    const int expected = c == 2 ? 0 : c == 1 ? 1 : 2;
    BOOST_TEST(reference::ellipsoid_contact_state(q) == expected);
    BOOST_TEST(reference::ellipsoid_contact_state(q, nullptr, 0.3) == expected);
  }
}

BOOST_AUTO_TEST_CASE(paper_shortcut_fails_on_identical_equally_oriented_shapes) {
  // Equal shapes, equal orientation: λA + B has rank 2 at λ = −1, so f has the double root
  // −1 and a zero discriminant whatever the offset: the shortcut calls every such pair
  // touching. On a grid of offsets only a few pairs touch.
  int pairs = 0, shortcut_wrong = 0, touching = 0;
  const Ell a{{0, 0, 0}, {1, 2, 3}, {0.9, 0.1, -0.3, 0.2}};
  for (int i = -6; i <= 6; ++i)
    for (int j = -6; j <= 6; ++j) {
      Ell b = a;
      b.centre = {i * 0.5, j * 0.75, 0.25};
      const Query q{a, b};
      const auto ref = reference::ellipsoid_contact(q);
      ++pairs;
      touching += ref.state == "touching";
      shortcut_wrong += fast::ellipsoid_contact_shortcut(q).state != ref.state;
      BOOST_TEST(fast::ellipsoid_contact(q).state == ref.state);  // no pair here is near touching
    }
  BOOST_TEST_MESSAGE("shortcut wrong on " << shortcut_wrong << " of " << pairs << " identical pairs");
  BOOST_TEST(touching == 0);
  BOOST_TEST(shortcut_wrong == pairs);
  // Unequal shapes at the same offsets: the shortcut is right on most.
  int other_wrong = 0;
  for (int i = -6; i <= 6; ++i) {
    Ell b{{i * 0.5, 1.5, 0.25}, {2, 1, 0.5}, {1, 0.2, 0.3, -0.1}};
    other_wrong += fast::ellipsoid_contact_shortcut({a, b}).state != reference::ellipsoid_contact({a, b}).state;
  }
  BOOST_TEST(other_wrong <= 2);
}

BOOST_AUTO_TEST_CASE(bad_input_lines) {
  const cases::Where w{"q.jsonl", "line 3"};
  auto message = [&](const std::string& line) -> std::string {
    try {
      cases::EllipsoidContact::from_json(nlohmann::json::parse(line), w);
    } catch (const cases::InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string b = R"("b":{"centre":[3,0,0],"semi_axes":[1,1,1],"quaternion":[1,0,0,0]})";
  auto with_a = [&](const std::string& a) { return "{\"a\":" + a + "," + b + "}"; };
  BOOST_TEST(message(with_a(R"({"centre":[0,0,0],"semi_axes":[1,2,3],"quaternion":[0,0,0,2]})")) == "accepted");
  BOOST_TEST(message(with_a(R"({"centre":[0,0,0],"semi_axes":[1,2,3],"quaternion":[0,0,0,0]})")) ==
             "q.jsonl: line 3: field a.quaternion: the zero quaternion is no rotation");
  BOOST_TEST(message(with_a(R"({"centre":[0,0,0],"semi_axes":[1,0,3],"quaternion":[1,0,0,0]})")) ==
             "q.jsonl: line 3: field a.semi_axes[1]: a semi-axis must be positive, not 0");
  BOOST_TEST(message(with_a(R"({"centre":[0,0,0],"semi_axes":[1,2,-3],"quaternion":[1,0,0,0]})")) ==
             "q.jsonl: line 3: field a.semi_axes[2]: a semi-axis must be positive, not -3");
  const std::string nan = message(with_a(R"({"centre":[0,0,0],"semi_axes":["nan",2,3],"quaternion":[1,0,0,0]})"));
  BOOST_TEST(nan.find("q.jsonl: line 3: field a.semi_axes") == 0, nan);
  const std::string inf = message(with_a(R"({"centre":[0,"inf",0],"semi_axes":[1,2,3],"quaternion":[1,0,0,0]})"));
  BOOST_TEST(inf.find("q.jsonl: line 3: field a.centre") == 0, inf);
  const std::string three = message(with_a(R"({"centre":[0,0,0],"semi_axes":[1,2,3],"quaternion":[1,0,0]})"));
  BOOST_TEST(three.find("q.jsonl: line 3: field a.quaternion: a quaternion has 4 numbers") == 0, three);
  const std::string key = message(with_a(R"({"centre":[0,0,0],"semi_axes":[1,2,3],"quaternion":[1,0,0,0],"radius":1})"));
  BOOST_TEST(key.find("q.jsonl: line 3: field a.radius") == 0, key);
  const std::string missing = message(R"({"a":{"centre":[0,0,0],"semi_axes":[1,2,3],"quaternion":[1,0,0,0]}})");
  BOOST_TEST(missing.find("q.jsonl: line 3: field b") == 0, missing);
  test::TempFile f("q.jsonl", with_a(R"({"centre":[0,0,0],"semi_axes":[1,2,3],"quaternion":[1,0,0,0]})") + "\n" +
                                  with_a(R"({"centre":[0,0,0],"semi_axes":[1,2,3],"quaternion":[0,0,0,0]})") + "\n");
  BOOST_TEST(test::run_cli({"eval", "--family", "ellipsoid_contact", "--input", f.str()}) == 2);
}

BOOST_AUTO_TEST_CASE(json_round_trip_and_fast_domain) {
  int outside = 0;
  for (bool deg : {false, true})
    for (const auto& g : generated(200, deg)) {
      const auto j = cases::EllipsoidContact::to_json(g.query);
      const Query back = cases::EllipsoidContact::from_json(nlohmann::json::parse(j.dump()), {"t", "r"});
      BOOST_TEST(back.a.centre == g.query.a.centre);
      BOOST_TEST(back.b.semi_axes == g.query.b.semi_axes);
      BOOST_TEST(back.b.quaternion == g.query.b.quaternion);
      if (!fast::ellipsoid_contact_in_domain(g.query)) {
        ++outside;
        BOOST_TEST((cases::axis_ratio(g.query.a) > cases::ellipsoid_max_axis_ratio || cases::axis_spread(g.query) > 0x1p20));
        BOOST_TEST(!reference::ellipsoid_contact(g.query).state.empty());  // the reference answers
      }
    }
  BOOST_TEST(outside > 0);
}

BOOST_AUTO_TEST_SUITE_END()
