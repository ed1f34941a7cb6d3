#include "fast/closest_feature.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace contactbench::fast {

using cases::Region;
using cases::Vec3;

cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
  const Vec3 ab = q.b - q.a, ac = q.c - q.a, ap = q.p - q.a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  cases::ClosestFeatureResult r;
  auto finish = [&](const Vec3& point, Region region) {
    r.point = point;
    r.region = region;
    r.squared_distance = (q.p - point).squaredNorm();
    return r;
  };
  if (d1 <= 0 && d2 <= 0) return finish(q.a, Region::vertex0);
  const Vec3 bp = q.p - q.b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return finish(q.b, Region::vertex1);
  const Vec3 cp = q.p - q.c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return finish(q.c, Region::vertex2);
  // Edge tests: vc, vb, va are (n × edge)·(p - vertex), the signed side of each edge.
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return finish(q.a + (d1 / (d1 - d3)) * ab, Region::edge0);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return finish(q.a + (d2 / (d2 - d6)) * ac, Region::edge2);
  const double va = d3 * d6 - d5 * d4;
  const double e43 = d4 - d3, e56 = d5 - d6;
  if (va <= 0 && e43 >= 0 && e56 >= 0)
    return finish(q.b + (e43 / (e43 + e56)) * (q.c - q.b), Region::edge1);
  const double inv = 1.0 / (va + vb + vc);
  return finish(q.a + ab * (vb * inv) + ac * (vc * inv), Region::face);
}

void closest_feature(std::span<const cases::ClosestFeatureQuery> in,
                     std::span<cases::ClosestFeatureResult> out) {
  if (in.size() != out.size()) throw std::invalid_argument("closest_feature: size mismatch");
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = closest_feature(in[i]);
}

ClosestFeatureBounds closest_feature_bounds(const cases::ClosestFeatureQuery& q) {
  constexpr double u = 0x1p-53;
  // Work on differences scaled by a power of two (exact) so that the area, a square of
  // lengths, neither overflows nor underflows: every ratio below is scale-free.
  Vec3 ab = q.b - q.a, ac = q.c - q.a, ap = q.p - q.a;
  int e = 0;
  std::frexp(std::max(ab.cwiseAbs().maxCoeff(), ac.cwiseAbs().maxCoeff()), &e);
  const double s = std::ldexp(1.0, -e);
  ab *= s, ac *= s, ap *= s;
  const Vec3 bc = ac - ab, bp = ap - ab, cp = ap - ac;
  const double e0 = ab.norm(), e1 = bc.norm(), e2 = ac.norm();
  const double L = std::max({e0, e1, e2}), l = std::min({e0, e1, e2});
  const double twice_area = ab.cross(ac).norm();
  const double R = std::max({ap.norm(), bp.norm(), cp.norm()});
  const double M = s * std::max({q.p.cwiseAbs().maxCoeff(), q.a.cwiseAbs().maxCoeff(),
                                 q.b.cwiseAbs().maxCoeff(), q.c.cwiseAbs().maxCoeff()});
  const double kappa = L * L / twice_area, rr = 1 + R / L;
  ClosestFeatureBounds b;
  b.decision = 32 * u * kappa * rr * rr * (L / l);
  b.point = b.decision + 4 * u * (M / L);
  b.squared_distance = 2 * b.point * rr + 4 * u * rr * rr;
  return b;
}

}  // namespace contactbench::fast
