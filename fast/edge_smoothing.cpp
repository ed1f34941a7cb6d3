// Fast edge smoothing. Source: ../shared/sources/woo-smooth-triangulation-edge-contacts.txt;
// completed in ../shared/sources/README.md, section "Woo". Mirrors reference/src/edge_smoothing.cpp
// in double.
#include "fast/edge_smoothing.hpp"

#include "fast/closest_feature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace contactbench::fast {
namespace {

using cases::Region;
using cases::Vec3;
using cases::Zone;

// |(b - a) x (c - a)| of facet g, for the bound: the plain cross product, relative error
// <= ~u R (R = 1 / sin(angle at a)), so within 1e-6 for every R < 1e10. A product that
// rounds to 0 (R ~ 1/u) gives the smallest normal double: a huge, still finite bound.
double facet_normal_length(const cases::Mesh& m, int g) {
  const cases::Vec3 &a = m.vertex(g, 0), &b = m.vertex(g, 1), &c = m.vertex(g, 2);
  const double plain = (b - a).cross(c - a).norm();
  return plain > 0 ? plain : std::numeric_limits<double>::min();
}

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// a*d - b*c with one rounding's worth of error (Kahan's difference of products, via fma):
// |error| <= 1.5 ulp of the exact value (no cancellation loss).
double diff_of_products(double a, double d, double b, double c) {
  const double w = b * c;
  const double e = std::fma(-b, c, w);  // exact: w - b*c
  const double f = std::fma(a, d, -w);
  return f + e;
}

// x - y as hi + lo exactly (Knuth's two-sum).
void two_diff(double x, double y, double& hi, double& lo) {
  hi = x - y;
  const double bb = hi - x;
  lo = (x - (hi - bb)) + (-y - bb);
}

}  // namespace

// Unit normal of triangle (a, b, c), right-hand rule, accurate to a few ulps whatever the
// triangle's shape (header: "facet normals"). The edges b - a, c - a are split exactly into
// hi + lo; the cross product is hi x hi with a compensated difference of products per
// component plus the first-order terms hi x lo + lo x hi; the dropped lo x lo term is below
// u^2 |e1| |e2|. A plain cross of rounded edges would carry u |e1| |e2| absolute error, i.e.
// a relative error u / sin(angle) that reaches 1e-10 on the caps and needles of issue 8.
Vec3 facet_unit_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
  Vec3 h1, l1, h2, l2;
  for (int i = 0; i < 3; ++i) {
    two_diff(b[i], a[i], h1[i], l1[i]);
    two_diff(c[i], a[i], h2[i], l2[i]);
  }
  Vec3 n;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double main = diff_of_products(h1[j], h2[k], h1[k], h2[j]);
    const double corr = (h1[j] * l2[k] - h1[k] * l2[j]) + (l1[j] * h2[k] - l1[k] * h2[j]);
    n[i] = main + corr;
  }
  return n.normalized();
}

namespace {

// Nearest direction of the cone spanned by unit generators g to d (see the reference for
// why the candidate projection with a polar residual is the cone projection); inside when
// the largest candidate is d itself or no candidate's residual is polar. Candidates in the reference's order (rays, then faces
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
  const double eps = std::numeric_limits<double>::epsilon();
  // Candidates in the reference's order; `visit` returns true to stop. `sin` is the sine
  // between the face's generators (1 for a ray): the face's plane normal, hence its
  // candidate, carries the generators' error divided by it.
  auto each = [&](auto&& visit) {
    for (std::size_t i = 0; i < n; ++i) {
      const double di = d.dot(g[i]);
      if (di > 0 && visit(Vec3(di * g[i]), static_cast<int>(i), -1, 1.0)) return;
    }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        // Projection onto the plane of g_i, g_j through its normal w (not the 2x2 Gram
        // system, which cancels catastrophically for nearly parallel generators). A wedge
        // thinner than 64 eps is skipped: its rays are candidates already and it is within
        // the stated bound.
        const Vec3 w = g[i].cross(g[j]);
        const double wn = w.norm();
        if (!(wn > 64 * eps)) continue;
        const Vec3 u = w / wn;
        const Vec3 q = d - d.dot(u) * u;
        if (q.cross(g[j]).dot(u) > 0 && g[i].cross(q).dot(u) > 0 &&
            visit(q, static_cast<int>(i), static_cast<int>(j), wn))
          return;
      }
  };
  struct Cand {
    Vec3 q;
    double q2, sin;
  };
  std::vector<Cand> cands;
  each([&](const Vec3& q, int, int, double sn) {
    cands.push_back({q, q.squaredNorm(), sn});
    return false;
  });
  if (cands.empty()) return c;
  c.has = true;
  std::stable_sort(cands.begin(), cands.end(), [](const Cand& x, const Cand& y) { return x.q2 > y.q2; });
  c.best = cands.front().q;
  c.best2 = cands.front().q2;
  const double dn = d.norm(), tie = 32 * eps * dn;
  // d on a candidate face (exactly, in the reference) comes out within rounding of it here:
  // within 32 eps (below the stated bound) it counts as inside.
  if ((d - c.best).norm() <= tie) {
    c.inside = true;
    return c;
  }
  // Outside iff some candidate's residual r = d - q is polar (every g.r <= 0): with q in the
  // cone that makes q the projection (Moreau), so d is inside iff no candidate has one.
  // Decided among the candidates as close to d as the best (|q|^2 within 64 eps |d|^2): a
  // ray and the face next to it, or nearly opposite generators, swap order under rounding,
  // and only the true projection's residual is polar. In exact arithmetic the generators of
  // that piece give g.r = 0; rounding makes those +-1e-16 |r|, so the test is on the unit r
  // with a 1e-9 threshold (a cone thinner than that is degenerate: its margin is ~0 too).
  auto polar = [&](const Vec3& q, double tol) {
    const Vec3 res = d - q;
    const double rn = res.norm();
    if (!(rn > tie)) return false;
    for (const auto& x : g)
      if (x.dot(res) > tol * rn) return false;
    return true;
  };
  bool outside = false;
  for (const auto& cd : cands) {
    if (cd.q2 < c.best2 - 64 * eps * dn * dn) break;
    if (polar(cd.q, 1e-9)) {
      outside = true;
      break;
    }
  }
  if (!outside) {
    c.inside = true;
    return c;
  }
  // Which candidate is the projection (the piece of n'): the largest whose residual is polar
  // within its own error, 64 eps |d| / |r| for a ray, times (1 + 1 / sin) for a face (the
  // face's plane normal carries the generators' error divided by their sine). The fixed 1e-9
  // is too coarse for this on thin fans (a neighbouring ray passes for the projection); the
  // candidate that decided `outside` is the fallback.
  const Cand* pick = nullptr;
  for (const auto& cd : cands)
    if (polar(cd.q, 64 * eps * (dn / (d - cd.q).norm()) * (1 + 1 / cd.sin))) {
      pick = &cd;
      break;
    }
  if (!pick)
    for (const auto& cd : cands)
      if (polar(cd.q, 1e-9)) {
        pick = &cd;
        break;
      }
  c.best = pick->q;
  c.best2 = pick->q2;
  each([&](const Vec3& q, int i, int j, double) {  // outside: the piece, as labelled above
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
  // Only the region is taken from fast::closest_feature; the closest point is computed here
  // for that region, so this kernel's bounds do not depend on closest_feature's point bound.
  const auto cf = closest_feature(cases::ClosestFeatureQuery{q.centre, a, b, c});
  r.region = cf.region;
  const int ri = static_cast<int>(cf.region);
  const Vec3 n1 = facet_unit_normal(a, b, c);
  const double h1 = (q.centre - a).dot(n1);
  r.side = (h1 > 0) - (h1 < 0);
  // D = centre - closest point from differences of inputs only (never through the rounded
  // point P, whose coordinates round at the magnitude of the input, not of the facet).
  Vec3 P, D;
  if (cf.region == Region::face) {
    D = h1 * n1;
    P = q.centre - D;
  } else if (ri <= 3) {
    const Vec3& u = m.vertex(f, ri - 1);
    const Vec3 e = m.vertex(f, ri % 3) - u, w = q.centre - u;
    const double t = w.dot(e) / e.squaredNorm();
    D = w - t * e;
    P = u + t * e;
  } else {
    P = m.vertex(f, ri - 4);
    D = q.centre - P;
  }
  // Face: |centre - P| = |h1| (D is h1 n1 up to rounding; |h1| is the accurate one).
  const double dist = cf.region == Region::face ? std::abs(h1) : D.norm();
  r.overlap = q.radius - dist;
  r.zone = Zone::none;
  r.point = P;
  if (dist <= on_facet_tolerance(q)) {  // n undefined at double precision (header)
    r.centre_on_facet = true;
    r.normal = n1;
    r.point = q.centre;
    return r;
  }
  // Face: n = (centre - P) / |centre - P| is exactly +-n1 (the side's sign), so it is taken
  // from the accurate facet normal, not from the difference of two nearby points.
  const Vec3 n = cf.region == Region::face ? Vec3(r.side * n1) : Vec3(D / dist);
  r.normal = n;
  if (cf.region == Region::face) return r;
  if (ri <= 3) {
    const int k = ri - 1;
    if (!m.edge_internal(f, k)) return r;
    const int g2 = m.neighbour(f, k);
    Vec3 n2 = facet_unit_normal(m.vertex(g2, 0), m.vertex(g2, 1), m.vertex(g2, 2));
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
    g.push_back((sh * flip) * facet_unit_normal(m.vertex(h, 0), m.vertex(h, 1), m.vertex(h, 2)));
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
  // Relative to the centre's distances to the corners, not to the coordinates' magnitude:
  // differences of inputs round relative to themselves, so a small facet far from the origin
  // keeps its resolution.
  double M = 0;
  for (int k = 0; k < 3; ++k) M = std::max(M, (q.centre - q.mesh->vertex(q.facet, k)).norm());
  return 0x1p-26 * M;
}

EdgeSmoothingBounds edge_smoothing_bounds(const cases::EdgeSmoothingQuery& q, double d) {
  // Everything here comes from the query (and d, the exact distance the caller passes in):
  // a bound derived from the fast variant's own output could be inflated by the very error it
  // is meant to judge. Differences of inputs round relative to themselves, so the sizes are
  // distances (M: centre to the involved corners; h: altitudes), translation-invariant; only
  // the rounding of output coordinates involves their magnitude L.
  const cases::Mesh& m = *q.mesh;
  double L = q.centre.cwiseAbs().maxCoeff(), M = 0, R = 1;
  for (int k = 0; k < 3; ++k)
    for (int g : m.vertex_facets(m.facets()[q.facet][k])) {
      const cases::Vec3 &a = m.vertex(g, 0), &b = m.vertex(g, 1), &c = m.vertex(g, 2);
      for (const auto* x : {&a, &b, &c}) {
        L = std::max(L, x->cwiseAbs().maxCoeff());
        M = std::max(M, (q.centre - *x).norm());
      }
      R = std::max(R, (b - a).norm() * (c - a).norm() / facet_normal_length(m, g));
    }
  const double eps = std::numeric_limits<double>::epsilon();  // 2^-52
  // Facet normals (facet_unit_normal) err by <= 4.5 eps + 20 eps^2 R_g; the contact direction
  // by <= 8 eps (1 + 2M/d); a zone or cone test combines a few of each (header). d = 0 (centre
  // on the facet) reports n1 and has no 1 / d term.
  const double kappa = 1 + (d > 0 ? M / d : 0) + 2 * eps * R;
  const double length = 64 * eps * M;
  // Face contacts: n' = +-n1 from facet_unit_normal, error <= 4.5 eps + 20 eps^2 R with
  // R = |b - a| |c - a| / |(b - a) x (c - a)| = 1 / sin(angle at a) (header); doubled, rounded up.
  const cases::Vec3 &a = m.vertex(q.facet, 0), &b = m.vertex(q.facet, 1), &c = m.vertex(q.facet, 2);
  const double Rf = (b - a).norm() * (c - a).norm() / facet_normal_length(m, q.facet);
  const double face = 16 * eps + 64 * eps * eps * Rf;
  // Vertex cones: a face of the cone spanned by g_i, g_j has the plane normal
  // g_i x g_j / |g_i x g_j|, whose error is the generators' divided by sin_ij; the thinnest
  // wedge (pairs below 64 eps are skipped as parallel) over the fans of the three corners.
  double sin_min = 1;
  for (int k = 0; k < 3; ++k) {
    std::vector<cases::Vec3> g;
    for (int h : m.vertex_facets(m.facets()[q.facet][k]))
      g.push_back(facet_unit_normal(m.vertex(h, 0), m.vertex(h, 1), m.vertex(h, 2)));
    for (std::size_t i = 0; i < g.size(); ++i)
      for (std::size_t j = i + 1; j < g.size(); ++j) {
        const double sn = g[i].cross(g[j]).norm();
        if (sn > 64 * eps) sin_min = std::min(sin_min, sn);
      }
  }
  return {64 * eps * kappa, length, on_facet_tolerance(q) + length,
          length + eps * (std::abs(q.radius) + d), face, M, length + 4 * eps * L,
          64 * eps * (kappa + 1 / sin_min)};
}

bool edge_smoothing_in_domain(const cases::EdgeSmoothingQuery& q) {
  // Every coordinate the kernel reads (centre, the facets around the contacted facet's
  // vertices) is 0 or of magnitude in [2^-120, 2^120]: products of up to four differences
  // stay normal and finite, so the relative error analysis of the header applies.
  auto ok = [](const cases::Vec3& v) {
    for (int i = 0; i < 3; ++i) {
      const double x = std::abs(v[i]);
      if (x != 0 && !(x >= 0x1p-120 && x <= 0x1p120)) return false;
    }
    return true;
  };
  if (!ok(q.centre)) return false;
  const cases::Mesh& m = *q.mesh;
  for (int k = 0; k < 3; ++k)
    for (int g : m.vertex_facets(m.facets()[q.facet][k]))
      for (int j = 0; j < 3; ++j)
        if (!ok(m.vertex(g, j))) return false;
  return true;
}

}  // namespace contactbench::fast
