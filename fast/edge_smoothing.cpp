// Fast edge smoothing. Source: ../shared/sources/woo-smooth-triangulation-edge-contacts.txt;
// completed in ../shared/sources/README.md, section "Woo". Mirrors reference/src/edge_smoothing.cpp
// in double.
#include "fast/edge_smoothing.hpp"

#include "fast/closest_feature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactbench::fast {
namespace {

using cases::Region;
using cases::Vec3;
using cases::Zone;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Nearest direction of the cone spanned by unit generators g to d (see the reference for
// why the largest candidate projection is the cone projection); inside when that candidate
// is d itself or d - q is not polar. Candidates in the reference's order (rays, then faces
// i < j); the piece reported is the first candidate within 32 eps |d| of the best, so that
// exactly parallel generators and coplanar faces (identical candidates in the reference,
// which keeps the first) get the reference's label.
struct Cone {
  bool inside = false, has = false;
  Vec3 best = Vec3::Zero();
  double best2 = 0;
  int i = -1, j = -1;  // the piece: ray i (j = -1) or face (i, j)
  Vec3 q = Vec3::Zero();  // that piece's candidate
};
Cone cone_test(const std::vector<Vec3>& g, const Vec3& d) {
  Cone c;
  const std::size_t n = g.size();
  // Candidates in the reference's order; `visit` returns true to stop. Two passes (the best,
  // then the first within the tie distance of it), so no allocation.
  auto each = [&](auto&& visit) {
    for (std::size_t i = 0; i < n; ++i) {
      const double di = d.dot(g[i]);
      if (di > 0 && visit(Vec3(di * g[i]), static_cast<int>(i), -1)) return;
    }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        // Projection onto the plane of g_i, g_j through its normal w (not the 2x2 Gram
        // system, which cancels catastrophically for nearly parallel generators). A wedge
        // thinner than 64 eps is skipped: its rays are candidates already and it is within
        // the stated bound.
        const Vec3 w = g[i].cross(g[j]);
        const double wn = w.norm();
        if (!(wn > 64 * std::numeric_limits<double>::epsilon())) continue;
        const Vec3 u = w / wn;
        const Vec3 q = d - d.dot(u) * u;
        if (q.cross(g[j]).dot(u) > 0 && g[i].cross(q).dot(u) > 0 &&
            visit(q, static_cast<int>(i), static_cast<int>(j)))
          return;
      }
  };
  each([&](const Vec3& q, int, int) {
    const double q2 = q.squaredNorm();
    if (!c.has || q2 > c.best2) {
      c.has = true;
      c.best2 = q2;
      c.best = q;
    }
    return false;
  });
  if (!c.has) return c;
  const double tie = 32 * std::numeric_limits<double>::epsilon() * d.norm();
  // d on a candidate face (exactly, in the reference) comes out within rounding of it here:
  // within 32 eps (below the stated bound) it counts as inside.
  if ((d - c.best).norm() <= tie) {
    c.inside = true;
    return c;
  }
  // In exact arithmetic the generators of the best face (and any lying in its plane) give
  // g.r = 0 for d outside; rounding makes those +-1e-16 |r|, so the test is on the unit r
  // with a 1e-9 threshold (a cone thinner than that is degenerate: its margin is ~0 too).
  const Vec3 r = (d - c.best).normalized();
  for (const auto& x : g)
    if (x.dot(r) > 1e-9) {
      c.inside = true;
      return c;
    }
  each([&](const Vec3& q, int i, int j) {  // outside: the piece, as labelled above
    if ((q - c.best).norm() > tie) return false;
    c.i = i;
    c.j = j;
    c.q = q;
    return true;
  });
  return c;
}

}  // namespace

cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q) {
  const cases::Mesh& m = *q.mesh;
  const int f = q.facet;
  cases::EdgeSmoothingResult r;
  r.region_margin = r.side_margin = r.zone_margin = r.cone_margin = r.polar_margin = nan;
  r.on_facet_margin = r.feature_margin = r.condition = nan;
  const Vec3 &a = m.vertex(f, 0), &b = m.vertex(f, 1), &c = m.vertex(f, 2);
  const auto cf = closest_feature(cases::ClosestFeatureQuery{q.centre, a, b, c});
  r.region = cf.region;
  const Vec3 N1 = (b - a).cross(c - a);
  const Vec3 n1 = N1.normalized();
  const double h1 = (q.centre - a).dot(n1);
  r.side = (h1 > 0) - (h1 < 0);
  const Vec3 D = q.centre - cf.point;
  const double dist = D.norm();
  r.overlap = q.radius - dist;
  r.zone = Zone::none;
  r.point = cf.point;
  if (dist <= on_facet_tolerance(q)) {  // n undefined at double precision (header)
    r.centre_on_facet = true;
    r.normal = n1;
    r.point = q.centre;
    return r;
  }
  const Vec3 n = D / dist;
  r.normal = n;
  const int ri = static_cast<int>(cf.region);
  if (cf.region == Region::face) return r;
  if (ri <= 3) {
    const int k = ri - 1;
    if (!m.edge_internal(f, k)) return r;
    Vec3 n2 = m.normal(m.neighbour(f, k)).normalized();
    if (m.neighbour_flipped(f, k)) n2 = -n2;
    const double x = n.dot(n1), nl = n1.dot(n2), ol = n1.cross(n2).norm();
    const Vec3& u = m.vertex(f, k);
    if (nl <= x) {
      r.zone = Zone::blue;
    } else if (-ol < x) {
      r.zone = Zone::red;
      r.adjusted = true;
      r.normal = n2;
      r.point = q.centre - (q.centre - u).dot(n2) * n2;
    } else {
      r.zone = Zone::green;
      r.adjusted = true;
      r.normal = -n1;
      r.point = q.centre - (q.centre - u).dot(n1) * n1;
    }
    return r;
  }
  const int k = ri - 4;
  if (!m.vertex_internal(f, k)) return r;
  r.zone = Zone::vertex_cone;
  const double flip = r.side < 0 ? -1.0 : 1.0;
  std::vector<Vec3> g;
  for (const auto& [h, sh] : cases::oriented_fan(m, f, m.facets()[f][k]))
    g.push_back((sh * flip) * m.normal(h).normalized());
  const auto cone = cone_test(g, D);
  if (cone.inside) return r;
  r.adjusted = true;
  if (cone.has) {
    r.cone_i = cone.i;
    r.cone_j = cone.j;
    r.normal = cone.j < 0 ? g[cone.i] : cone.q.normalized();
  } else {  // polar: the generator nearest to d, first in fan order on ties (as the reference)
    r.polar = true;
    std::size_t best = 0;
    for (std::size_t i = 1; i < g.size(); ++i)
      if (D.dot(g[i]) > D.dot(g[best])) best = i;
    // Ties within rounding (32 eps |d|, below the stated bound) go to the first in fan order.
    const double tie = 32 * std::numeric_limits<double>::epsilon() * dist;
    std::size_t first = 0;
    while (D.dot(g[first]) < D.dot(g[best]) - tie) ++first;
    r.cone_i = static_cast<int>(first);
    r.normal = g[first];
  }
  const Vec3& v = m.vertex(f, k);
  r.point = q.centre - (q.centre - v).dot(r.normal) * r.normal;
  return r;
}

double on_facet_tolerance(const cases::EdgeSmoothingQuery& q) {
  double L = q.centre.cwiseAbs().maxCoeff();
  for (int k = 0; k < 3; ++k) L = std::max(L, q.mesh->vertex(q.facet, k).cwiseAbs().maxCoeff());
  return 0x1p-26 * L;
}

EdgeSmoothingBound edge_smoothing_bound(const cases::EdgeSmoothingQuery& q, double d) {
  // Everything here comes from the query (and d, the exact distance the caller passes in):
  // a bound derived from the fast variant's own output could be inflated by the very error it
  // is meant to judge.
  const cases::Mesh& m = *q.mesh;
  double L = q.centre.cwiseAbs().maxCoeff();
  double h = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k)
    for (int g : m.vertex_facets(m.facets()[q.facet][k])) {
      double longest = 0;
      for (int j = 0; j < 3; ++j) {
        L = std::max(L, m.vertex(g, j).cwiseAbs().maxCoeff());
        longest = std::max(longest, (m.vertex(g, (j + 1) % 3) - m.vertex(g, j)).norm());
      }
      h = std::min(h, m.normal(g).norm() / longest);
    }
  const double eps = std::numeric_limits<double>::epsilon();  // 2^-52
  // The contact direction n = (centre - closest point) / d is conditioned by 1 / d; d = 0
  // (centre on the facet) reports n1 and has no such term.
  const double kappa = L / std::min(h, d > 0 ? d : std::numeric_limits<double>::infinity());
  const double kappa_h = L / h;  // unit facet normals, closest point: no 1 / d
  return {64 * eps * kappa, 64 * eps * kappa_h * L, on_facet_tolerance(q) + 64 * eps * kappa_h * L};
}

}  // namespace contactbench::fast
