#include "cases/ellipsoid_contact.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace contactbench::cases {

double ellipsoid_scale(const EllipsoidContactQuery& q) {
  return std::max(q.a.semi_axes.maxCoeff(), q.b.semi_axes.maxCoeff());
}

double axis_ratio(const Ellipsoid& e) { return e.semi_axes.maxCoeff() / e.semi_axes.minCoeff(); }

double axis_spread(const EllipsoidContactQuery& q) {
  return ellipsoid_scale(q) / std::min(q.a.semi_axes.minCoeff(), q.b.semi_axes.minCoeff());
}

bool ellipsoid_in_fast_domain(const EllipsoidContactQuery& q) {
  const double L = ellipsoid_scale(q);
  for (const Ellipsoid* e : {&q.a, &q.b}) {
    if (!(axis_ratio(*e) <= ellipsoid_max_axis_ratio)) return false;
    const double qn = e->quaternion.norm();
    if (!(qn >= 0x1p-200 && qn <= 0x1p200)) return false;
    if (!(e->semi_axes.minCoeff() >= 0x1p-200 && e->semi_axes.maxCoeff() <= 0x1p200)) return false;
    if (!(e->centre.cwiseAbs().maxCoeff() <= 0x1p30 * L)) return false;
  }
  if (!(axis_spread(q) <= 0x1p20)) return false;
  return (q.b.centre - q.a.centre).norm() <= 0x1p30 * L;
}

namespace {

Eigen::Matrix3d rotation_matrix(const Eigen::Vector4d& q) {
  const auto r = rotation<double>(q);
  Eigen::Matrix3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = r[i][j];
  return m;
}

Eigen::Matrix3d shape_matrix(const Ellipsoid& e) {  // P = R diag(1/s²) Rᵀ
  const Eigen::Matrix3d r = rotation_matrix(e.quaternion);
  return r * e.semi_axes.cwiseProduct(e.semi_axes).cwiseInverse().asDiagonal() * r.transpose();
}

Vec3 unit(Rng& rng) {
  std::normal_distribution<double> g(0, 1);
  for (;;) {
    const Vec3 v(g(rng), g(rng), g(rng));
    if (v.norm() > 1e-3) return v.normalized();
  }
}

Eigen::Vector4d random_quaternion(Rng& rng, double norm) {
  std::normal_distribution<double> g(0, 1);
  Eigen::Vector4d q(g(rng), g(rng), g(rng), g(rng));
  return q.normalized() * norm;
}

// Hamilton product (w, v): R(p ⊗ q) = R(p) R(q).
Eigen::Vector4d product(const Eigen::Vector4d& p, const Eigen::Vector4d& q) {
  const Vec3 pv = p.tail<3>(), qv = q.tail<3>();
  Eigen::Vector4d r;
  r[0] = p[0] * q[0] - pv.dot(qv);
  r.tail<3>() = p[0] * qv + q[0] * pv + pv.cross(qv);
  return r;
}

}  // namespace

double contact_function_golden(const EllipsoidContactQuery& q) {
  const Vec3 r = q.b.centre - q.a.centre;
  if (r.squaredNorm() == 0) return 0;
  const Eigen::Matrix3d pa = shape_matrix(q.a), pb = shape_matrix(q.b);
  // h(t) = t(1 − t) rᵀ [(1 − t) P_A⁻¹ + t P_B⁻¹]⁻¹ r, concave on [0, 1].
  const Eigen::Matrix3d ia = pa.inverse(), ib = pb.inverse();
  auto h = [&](double t) {
    const Eigen::Matrix3d g = (1 - t) * ia + t * ib;
    return t * (1 - t) * r.dot(g.ldlt().solve(r));
  };
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double lo = 0, hi = 1, x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
  double f1 = h(x1), f2 = h(x2);
  for (int i = 0; i < 80; ++i) {
    if (f1 < f2) {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = h(x2);
    } else {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = h(x1);
    }
  }
  return std::max(f1, f2);
}

// ---- JSON -------------------------------------------------------------------------------

namespace {

Ellipsoid read_ellipsoid(const nlohmann::json& j, const char* key, const Where& where) {
  const nlohmann::json& e = require(j, key, where);
  const std::string prefix = std::string(key) + ".";
  if (!e.is_object()) where.fail(key, "an ellipsoid is an object {centre, semi_axes, quaternion}");
  reject_unknown_keys(e, {"centre", "semi_axes", "quaternion"}, where, prefix);
  Ellipsoid out;
  out.centre = read_vec3(e, "centre", where, prefix);
  out.semi_axes = read_vec3(e, "semi_axes", where, prefix);
  for (int i = 0; i < 3; ++i)
    if (!(out.semi_axes[i] > 0))
      where.fail(fmt::format("{}semi_axes[{}]", prefix, i),
                 fmt::format("a semi-axis must be positive, not {}", out.semi_axes[i]));
  const std::vector<double> qv = read_double_array(e, "quaternion", where, prefix);
  if (qv.size() != 4) where.fail(prefix + "quaternion", fmt::format("a quaternion has 4 numbers (w, x, y, z), not {}", qv.size()));
  out.quaternion = Eigen::Vector4d(qv[0], qv[1], qv[2], qv[3]);
  if (out.quaternion.cwiseAbs().maxCoeff() == 0)
    where.fail(prefix + "quaternion", "the zero quaternion is no rotation");
  return out;
}

nlohmann::json ellipsoid_json(const Ellipsoid& e) {
  return {{"centre", cases::to_json(e.centre)},
          {"semi_axes", cases::to_json(e.semi_axes)},
          {"quaternion", {e.quaternion[0], e.quaternion[1], e.quaternion[2], e.quaternion[3]}}};
}

}  // namespace

EllipsoidContactQuery EllipsoidContact::from_json(const nlohmann::json& j, const Where& where) {
  if (!j.is_object()) where.fail("", "a query is an object {\"a\": ..., \"b\": ...}");
  reject_unknown_keys(j, {"a", "b"}, where);
  return {read_ellipsoid(j, "a", where), read_ellipsoid(j, "b", where)};
}

nlohmann::json EllipsoidContact::to_json(const Query& q) {
  return {{"a", ellipsoid_json(q.a)}, {"b", ellipsoid_json(q.b)}};
}

nlohmann::json EllipsoidContact::to_json(const Result& r) {
  nlohmann::json j = {{"state", r.state}, {"roots", r.roots}};
  if (!std::isnan(r.state_margin)) j["state_margin"] = r.state_margin;
  if (!std::isnan(r.F)) j["F"] = r.F;
  if (!std::isnan(r.point[0])) j["point"] = cases::to_json(r.point);
  if (!std::isnan(r.normal[0])) j["normal"] = cases::to_json(r.normal);
  if (!std::isnan(r.overlap)) j["overlap"] = r.overlap;
  return j;
}

// ---- canonical cases --------------------------------------------------------------------

std::vector<EllipsoidContactCase> EllipsoidContact::cases() {
  auto E = [](Vec3 c, Vec3 s, Eigen::Vector4d q = {1, 0, 0, 0}) { return Ellipsoid{c, s, q}; };
  auto sphere = [&](Vec3 c, double r) { return E(c, Vec3::Constant(r)); };
  // Two spheres r1 (at 0), r2 (at distance d): λA + B is block diagonal; the y and z
  // blocks give the double root −r1²/r2², the (x, w) block
  //   −r2⁴λ² + r2²(d² − r1² − r2²)λ − r1²r2²  (up to a positive factor),
  // whose roots [(d² − r1² − r2²) ± √((d² − r1² − r2²)² − 4r1²r2²)] / (2r2²) are real and
  // positive iff d ≥ r1 + r2, double (= r1/r2) iff d = r1 + r2.
  const double s5 = std::sqrt(5.0);
  const Eigen::Vector4d qa(1, 2, 2, 0);  // |q|² = 9: R e1 = (1, 8, −4)/9
  const Eigen::Vector4d qb(-1, 3, 2, -2);  // qa ⊗ (1, 1, 0, 0): 90° more about A's own e1
  return {
      // r1 = r2 = 1, d = 3: λ² − 7λ + 1 = 0, roots (7 ∓ 3√5)/2 (the small one written
      // 2/(7 + 3√5), their product being 1, to avoid cancellation).
      {"spheres_separated", {sphere({0, 0, 0}, 1), sphere({3, 0, 0}, 1)}, "separated",
       {2 / (7 + 3 * s5), (7 + 3 * s5) / 2}},
      // r1 = 1, r2 = 2, d = 3: −4(2λ − 1)² · …: the double root 1/2.
      {"spheres_touching", {sphere({0, 0, 0}, 1), sphere({0, 3, 0}, 2)}, "touching", {0.5}},
      // r1 = r2 = 1, d = 1: λ² + λ + 1 has no real root.
      {"spheres_overlapping", {sphere({0, 0, 0}, 1), sphere({0, 0, 1}, 1)}, "overlapping", {}},
      // Axis-aligned, B along x: A reaches x = 1, B reaches x = 3 − 2 = 1: touching at
      // (1, 0, 0); the (x, w) block is the spheres' with r1 = 1, r2 = 2: double root 1/2.
      {"aligned_touching_x", {E({0, 0, 0}, {1, 2, 3}), E({3, 0, 0}, {2, 0.5, 1})}, "touching", {0.5}},
      // The same along y: A reaches 2, B's y semi-axis 1/2: double root 2/(1/2) = 4.
      {"aligned_touching_y", {E({0, 0, 0}, {1, 2, 3}), E({0, 2.5, 0}, {2, 0.5, 1})}, "touching", {4}},
      // The same B moved 1/8 further: separated (the x-block argument: d > r1 + r2).
      {"aligned_separated_x", {E({0, 0, 0}, {1, 2, 3}), E({3.125, 0, 0}, {2, 0.5, 1})}, "separated", {}},
      // Identical, equally oriented, 2 apart along the axis of semi-axis 1: touching, and
      // f = −(λ − 1)²(λ + 1)²/36: the double root 1 (next to the double root −1 that every
      // pair of equal, equally oriented shapes has: λA + B at λ = −1 has rank 2).
      {"identical_touching", {E({0, 0, 0}, {1, 2, 3}), E({2, 0, 0}, {1, 2, 3})}, "touching", {1}},
      // Identical, 3 apart along x: the spheres' factor λ² − 7λ + 1 again.
      {"identical_separated", {E({0, 0, 0}, {1, 2, 3}), E({3, 0, 0}, {1, 2, 3})}, "separated",
       {2 / (7 + 3 * s5), (7 + 3 * s5) / 2}},
      // Identical, offset (1, 1/2, 0): the midpoint (1/2, 1/4, 0) is inside both
      // (1/4 + 1/64 < 1 for each).
      {"identical_overlapping", {E({0, 0, 0}, {1, 2, 3}), E({1, 0.5, 0}, {1, 2, 3})}, "overlapping", {}},
      // Rotated by the integer quaternion (1, 2, 2, 0) (|q|² = 9): A's semi-axis 9 lies along
      // u = (1, 8, −4)/9 and B (semi-axis 18 along u too, turned 90° about it) is centred at
      // 27u = (3, 24, −12): in A's frame the aligned construction, touching at 9u =
      // (1, 8, −4); double root 9/18 = 1/2.
      {"rotated_touching", {E({0, 0, 0}, {9, 3, 2}, qa), E({3, 24, -12}, {18, 1, 4}, qb)}, "touching", {0.5}},
      // The same with a non-unit copy of the quaternion (×1/4): the same rotation.
      {"rotated_touching_nonunit", {E({0, 0, 0}, {9, 3, 2}, qa / 4), E({3, 24, -12}, {18, 1, 4}, qb * 8)}, "touching", {0.5}},
      // Coincident centres: overlapping (F = 0).
      {"coincident_centres", {E({1, 1, 1}, {1, 2, 3}), E({1, 1, 1}, {3, 1, 0.5})}, "overlapping", {}},
      // A small sphere inside a big one, and one touching it from inside: both overlapping
      // (f = −(λ + 2)²(λ + 4)²/64 for the latter: no positive root).
      {"inside", {sphere({0, 0, 0}, 2), sphere({0.25, 0, 0}, 1)}, "overlapping", {}},
      {"internally_touching", {sphere({0, 0, 0}, 2), sphere({1, 0, 0}, 1)}, "overlapping", {}},
      // Spheres 2^-40 beyond touching (d = 2 + 2^-40): separated by a hair.
      {"spheres_hair_apart", {sphere({0, 0, 0}, 1), sphere({2 + 0x1p-40, 0, 0}, 1)}, "separated", {}},
      {"spheres_hair_inside", {sphere({0, 0, 0}, 1), sphere({2 - 0x1p-40, 0, 0}, 1)}, "overlapping", {}},
      // Large coordinates: the spheres_touching pair scaled by 2^30 and moved by 2^60.
      {"touching_far_large", {sphere({0x1p60, 0, 0}, 0x1p30), sphere({0x1p60, 3 * 0x1p30, 0}, 0x1p31)}, "touching", {0.5}},
  };
}

std::vector<Named<EllipsoidContactQuery>> EllipsoidContact::canonical() {
  std::vector<Named<Query>> out;
  for (auto& c : cases()) out.push_back({c.name, c.query});
  return out;
}

// ---- generators -------------------------------------------------------------------------

namespace {

// A dyadic semi-axis k·2^-4, k in [lo, hi].
double dyadic_axis(Rng& rng, long lo, long hi) { return std::ldexp(static_cast<double>(uniform_int(rng, lo, hi)), -4); }

std::string gap_tag(double g) { return fmt::format("{}1e-{}", g > 0 ? "+" : "-", static_cast<int>(std::lround(-std::log10(std::abs(g))))); }

// Random semi-axes of a shape kind (largest about 1).
Vec3 random_axes(Rng& rng, const std::string& shape) {
  if (shape == "sphere") return Vec3::Constant(uniform(rng, 0.5, 1));
  if (shape == "elongated" || shape == "flat") {
    const double r = 1 / log_uniform(rng, 4, 1000);
    return shape == "elongated" ? Vec3(1, r * uniform(rng, 1, 2), r) : Vec3(1, uniform(rng, 0.5, 1), r);
  }
  return Vec3(uniform(rng, 0.25, 1), uniform(rng, 0.25, 1), uniform(rng, 0.25, 1));
}

}  // namespace

Generated<EllipsoidContactQuery> EllipsoidContact::random(Rng& rng) {
  static const char* shapes[] = {"sphere", "generic", "generic", "elongated", "flat", "identical"};
  const std::string shape = shapes[uniform_int(rng, 0, 5)];
  const double s = pick_scale(rng);
  Query q;
  const bool unit_q = uniform_int(rng, 0, 1) == 0;
  auto quat = [&] { return random_quaternion(rng, unit_q ? 1.0 : log_uniform(rng, 1e-3, 1e3)); };
  q.a.semi_axes = random_axes(rng, shape == "identical" ? "generic" : shape);
  q.a.quaternion = quat();
  if (shape == "identical") {
    q.b.semi_axes = q.a.semi_axes;
    q.b.quaternion = q.a.quaternion * (unit_q ? 1.0 : uniform(rng, 0.5, 2));
  } else {
    q.b.semi_axes = random_axes(rng, shape) * uniform(rng, 0.5, 2);
    q.b.quaternion = quat();
  }
  static const char* configs[] = {"box", "box", "near", "near", "far", "inside"};
  const std::string config = configs[uniform_int(rng, 0, 5)];
  const double reach = q.a.semi_axes.maxCoeff() + q.b.semi_axes.maxCoeff();
  Vec3 offset;
  std::string gap = "none";
  if (config == "box") {
    offset = Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)) * reach;
  } else if (config == "near") {
    // Along r, F(t r) = t² F(r): t = (1 + g)/√F(r) puts the pair at relative gap g.
    const Vec3 r = unit(rng) * reach;
    const double F = contact_function_golden({q.a, {r, q.b.semi_axes, q.b.quaternion}});
    const double g = (uniform_int(rng, 0, 1) ? 1 : -1) * std::pow(10.0, -static_cast<double>(uniform_int(rng, 3, 15)));
    offset = r * ((1 + g) / std::sqrt(F));
    gap = gap_tag(g);
  } else if (config == "far") {
    offset = unit(rng) * reach * log_uniform(rng, 2, 100);
  } else {  // inside: B shrunk well inside A, near A's centre
    q.b.semi_axes *= 0.2 * q.a.semi_axes.minCoeff() / q.b.semi_axes.maxCoeff();
    offset = unit(rng) * 0.2 * q.a.semi_axes.minCoeff();
  }
  const bool far = uniform_int(rng, 0, 3) == 0;
  q.a.centre = far ? Vec3(unit(rng) * 0x1p20) : Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
  q.b.centre = q.a.centre + offset;
  for (Ellipsoid* e : {&q.a, &q.b}) e->centre *= s, e->semi_axes *= s;
  return {q, regime({{"shape", shape}, {"config", config}, {"gap", gap}, {"place", far ? "far" : "origin"},
                     {"scale", scale_tag(s)}, {"quat", unit_q ? "unit" : "nonunit"}})};
}

Generated<EllipsoidContactQuery> EllipsoidContact::degenerate(Rng& rng) {
  // Exact constructions on dyadic grids (every sum below exact in double), then an exact
  // scale 2^e and an exact translation.
  static const Eigen::Vector4d signed_permutations[] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 0, 1, 0}, {1, 0, 0, 1}, {1, 1, 1, 1}, {1, -1, 1, -1}};
  static const int triples[][4] = {{3, 4, 0, 5}, {2, 3, 6, 7}, {1, 4, 8, 9}, {2, 6, 9, 11}, {4, 4, 7, 9}, {0, 0, 1, 1}};
  Query q;
  std::string shape = "generic", config, quat = "unit";
  auto perm = [&] { return signed_permutations[uniform_int(rng, 0, 5)]; };
  auto axes = [&](const std::string& kind) -> Vec3 {
    if (kind == "sphere") return Vec3::Constant(dyadic_axis(rng, 4, 64));
    if (kind == "elongated" || kind == "flat" || kind == "outside") {
      const double r = kind == "outside" ? 0x1p-12 : std::ldexp(1.0, -static_cast<int>(uniform_int(rng, 9, 10)));
      const double big = dyadic_axis(rng, 16, 64);
      return kind == "flat" ? Vec3(big, big / 2, big * r) : Vec3(big, big * r, big * r * 2);
    }
    return Vec3(dyadic_axis(rng, 4, 64), dyadic_axis(rng, 4, 64), dyadic_axis(rng, 4, 64));
  };
  // The extent of an axis-permuted ellipsoid along world axis m: the semi-axis R maps onto it.
  auto extent = [](const Ellipsoid& e, int m) {
    const auto r = rotation<double>(e.quaternion);
    for (int j = 0; j < 3; ++j)
      if (r[m][j] != 0) return e.semi_axes[j];
    return 0.0;
  };
  int ulp = 0;  // −1 / +1: nudge B one ulp inwards / outwards after a touching construction
  const long kind = uniform_int(rng, 0, 9);
  if (kind <= 5) ulp = static_cast<int>(uniform_int(rng, 0, 2)) - 1;
  switch (kind) {
    case 0:
    case 1: {  // touching along a world axis, both axis-permuted
      static const char* kinds[] = {"generic", "generic", "sphere", "elongated", "flat", "outside"};
      shape = kinds[uniform_int(rng, 0, 5)];
      q.a = {Vec3::Zero(), axes(shape), perm()};
      q.b = {Vec3::Zero(), axes(shape == "outside" ? "generic" : shape), perm()};
      const int m = static_cast<int>(uniform_int(rng, 0, 2));
      q.b.centre[m] = (uniform_int(rng, 0, 1) ? 1 : -1) * (extent(q.a, m) + extent(q.b, m));
      config = "touch_aligned";
      break;
    }
    case 2:
    case 3: {  // rotated by an integer quaternion, B along A's rotated first axis
      Eigen::Vector4d qa;
      do {
        for (int i = 0; i < 4; ++i) qa[i] = static_cast<double>(uniform_int(rng, -3, 3));
      } while (qa.squaredNorm() == 0);
      const double n = qa.squaredNorm();
      const bool identical = kind == 3;
      shape = identical ? "identical" : "generic";
      const Vec3 sa = n * axes("generic");
      q.a = {Vec3::Zero(), sa, qa};
      const Eigen::Vector4d turn = uniform_int(rng, 0, 1) ? Eigen::Vector4d(1, 0, 0, 0) : Eigen::Vector4d(1, 1, 0, 0);
      q.b = identical ? q.a : Ellipsoid{Vec3::Zero(), n * axes("generic"), product(qa, turn)};
      // n R e1 = (w² + x² − y² − z², 2(xy + wz), 2(xz − wy)): an integer vector.
      const Vec3 v(qa[0] * qa[0] + qa[1] * qa[1] - qa[2] * qa[2] - qa[3] * qa[3], 2 * (qa[1] * qa[2] + qa[0] * qa[3]),
                   2 * (qa[1] * qa[3] - qa[0] * qa[2]));
      q.b.centre = (uniform_int(rng, 0, 1) ? 1 : -1) * ((q.a.semi_axes[0] + q.b.semi_axes[0]) / n) * v;
      quat = "integer";
      config = "touch_rotated";
      break;
    }
    case 4: {  // spheres touching along a Pythagorean direction
      shape = "sphere";
      const int* t = triples[uniform_int(rng, 0, 5)];
      const double ra = t[3] * dyadic_axis(rng, 4, 64), rb = t[3] * dyadic_axis(rng, 4, 64);
      q.a = {Vec3::Zero(), Vec3::Constant(ra), random_quaternion(rng, 1)};
      q.b = {Vec3(t[0], t[1], t[2]) * ((ra + rb) / t[3]), Vec3::Constant(rb), random_quaternion(rng, 3)};
      quat = "nonunit";
      config = "touch_spheres";
      break;
    }
    case 5: {  // a sphere touching another from inside: overlapping, f's double root negative
      shape = "sphere";
      const int* t = triples[uniform_int(rng, 0, 5)];
      const double rb = t[3] * dyadic_axis(rng, 4, 32), ra = rb + t[3] * dyadic_axis(rng, 4, 32);
      q.a = {Vec3::Zero(), Vec3::Constant(ra), {1, 0, 0, 0}};
      q.b = {Vec3(t[0], t[1], t[2]) * ((ra - rb) / t[3]), Vec3::Constant(rb), {1, 0, 0, 0}};
      config = "internal_touch";
      break;
    }
    case 6:
    case 7: {  // identical, equally oriented, at grid offsets (every state)
      shape = "identical";
      const bool integer = uniform_int(rng, 0, 1) == 0;
      Eigen::Vector4d qa;
      if (integer) {
        do {
          for (int i = 0; i < 4; ++i) qa[i] = static_cast<double>(uniform_int(rng, -3, 3));
        } while (qa.squaredNorm() == 0);
      } else {
        qa = random_quaternion(rng, 1);
      }
      q.a = {Vec3::Zero(), axes("generic"), qa};
      q.b = q.a;
      q.b.centre = Vec3(dyadic(rng, 4, 40, 1), dyadic(rng, 4, 40, 1), dyadic(rng, 4, 40, 1));
      quat = integer ? "integer" : "unit";
      config = "identical_grid";
      break;
    }
    case 8: {  // coincident centres
      q.a = {Vec3::Zero(), axes("generic"), perm()};
      q.b = {Vec3::Zero(), axes(uniform_int(rng, 0, 1) ? "generic" : "flat"), random_quaternion(rng, 1)};
      config = "coincident";
      break;
    }
    default: {  // grid pairs, non-unit integer quaternions: any state, often nearly touching
      Eigen::Vector4d qa, qb;
      for (int i = 0; i < 4; ++i) qa[i] = static_cast<double>(uniform_int(rng, -4, 4)), qb[i] = static_cast<double>(uniform_int(rng, -4, 4));
      if (qa.squaredNorm() == 0) qa[0] = 1;
      if (qb.squaredNorm() == 0) qb[0] = 2;
      q.a = {Vec3::Zero(), axes("generic"), qa};
      q.b = {Vec3(dyadic(rng, 3, 24, 1), dyadic(rng, 3, 24, 1), dyadic(rng, 3, 24, 1)), axes("generic"), qb};
      quat = "integer";
      config = "grid";
      break;
    }
  }
  // Exact scale and translation.
  const int e = static_cast<int>(uniform_int(rng, -2, 2)) * 10;
  const bool far = uniform_int(rng, 0, 3) == 0;
  const Vec3 shift = far ? Vec3(std::ldexp(static_cast<double>(uniform_int(rng, -64, 64)), 20), std::ldexp(static_cast<double>(uniform_int(rng, -64, 64)), 20), 0)
                         : Vec3::Zero();
  for (Ellipsoid* el : {&q.a, &q.b}) {
    el->semi_axes *= std::ldexp(1.0, e);
    el->centre = el->centre * std::ldexp(1.0, e) + shift * std::ldexp(1.0, e);
  }
  if (ulp != 0) {
    // One ulp along the offset's largest coordinate: outwards separates, inwards overlaps
    // (the contact normal is along the offset in every touching construction above).
    const Vec3 d = q.b.centre - q.a.centre;
    int m = 0;
    for (int i = 1; i < 3; ++i)
      if (std::abs(d[i]) > std::abs(d[m])) m = i;
    const double away = d[m] > 0 ? INFINITY : -INFINITY;
    q.b.centre[m] = std::nextafter(q.b.centre[m], ulp > 0 ? away : -away);
    config += ulp > 0 ? "_ulp_out" : "_ulp_in";
  }
  return {q, regime({{"shape", shape}, {"config", config}, {"place", far ? "far" : "origin"},
                     {"scale", scale_tag(std::ldexp(1.0, e))}, {"quat", quat}})};
}

}  // namespace contactbench::cases
