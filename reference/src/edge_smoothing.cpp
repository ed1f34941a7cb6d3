// Reference edge smoothing. Source: ../shared/sources/woo-smooth-triangulation-edge-contacts.txt
// (zones 1-3); completed and decided in ../shared/sources/README.md, section "Woo".
#include "reference/edge_smoothing.hpp"

#include "reference/closest_feature.hpp"
#include "reference/src/cgal.hpp"  // GMP (mpq_class) and MPFR (mpreal)
#include "reference/src/exact_vector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace contactbench::reference {
namespace {

using cases::Region;
using cases::Vec3;
using cases::Zone;
using Q = mpq_class;
using QV = exact::Vector3<Q>;  // exact: doubles are rationals (QV::of)
using mpfr::mpreal;
using RV = exact::Vector3<mpreal>;
constexpr mpfr_prec_t prec = 256;

// The 256-bit MPFR value of an exact rational (square roots make exact values impossible).
mpreal to_mp(const Q& q) { return mpreal(q.get_mpq_t(), prec, MPFR_RNDN); }
RV to_mp(const QV& a) { return {to_mp(a[0]), to_mp(a[1]), to_mp(a[2])}; }

// For margins (>= 0) that combine several irrational terms (the zone distances, generator
// gaps): never below the exact value. A margin smaller than the true one could excuse a
// mismatch that must fail, so margins round up. Square roots of one rational use
// exact::sqrt_up_to_double (directed rounding, rigorous); this is the 256-bit value times
// (1 + 2^-120), converted towards +inf. The factor covers the 256-bit evaluation's own error
// (absolute ~2^-250 of the operands' scale, all O(1) here) for every margin above 2^-120;
// smaller margins are below every stated bound anyway. Exact zeros stay 0.
double up(const mpreal& x) {
  mpreal t(0, prec);
  mpfr_mul_2si(t.mpfr_ptr(), x.mpfr_srcptr(), -120, MPFR_RNDU);
  mpfr_add(t.mpfr_ptr(), t.mpfr_srcptr(), x.mpfr_srcptr(), MPFR_RNDU);
  return mpfr_get_d(t.mpfr_srcptr(), MPFR_RNDU);
}

// Correctly rounded to the nearest double (subnormals included): reference/src/cgal.hpp.
Vec3 round_qv(const QV& a) {
  return {exact::to_nearest_double(a[0]), exact::to_nearest_double(a[1]),
          exact::to_nearest_double(a[2])};
}

// Unit vector of an exact direction: the square root is unavoidable, so 256-bit MPFR.
RV unit(const QV& a) {
  const mpreal n = sqrt(to_mp(dot(a, a)));
  return {to_mp(a[0]) / n, to_mp(a[1]) / n, to_mp(a[2]) / n};
}
Vec3 to_vec(const RV& a) { return {a[0].toDouble(), a[1].toDouble(), a[2].toDouble()}; }

// Exact normal (v1 - v0) x (v2 - v0) of facet g (Mesh::normal is double).
QV facet_normal(const cases::Mesh& m, int g) {
  const QV G0 = QV::of(m.vertex(g, 0));
  return cross(QV::of(m.vertex(g, 1)) - G0, QV::of(m.vertex(g, 2)) - G0);
}

// sign(alpha * sqrt(A) - beta * sqrt(B)) for A, B >= 0, exactly: compare signs first, then
// the squares alpha^2 A and beta^2 B (README "Woo": zone tests after squaring).
int sign_diff_sqrt(const Q& alpha, const Q& A, const Q& beta, const Q& B) {
  const int sa = sgn(A) == 0 ? 0 : sgn(alpha);
  const int sb = sgn(B) == 0 ? 0 : sgn(beta);
  if (sa >= 0 && sb <= 0) return (sa > 0 || sb < 0) ? 1 : 0;
  if (sa <= 0 && sb >= 0) return (sa < 0 || sb > 0) ? -1 : 0;
  const int c = cmp(alpha * alpha * A, beta * beta * B);
  return sa > 0 ? c : -c;
}

// Result for "keep n": the normal towards the centre and the exact closest point.
void keep(cases::EdgeSmoothingResult& r, const QV& d, const QV& P) {
  r.normal = to_vec(unit(d));
  r.point = round_qv(P);
  r.adjusted = false;
}

// Vertex cone (README "Woo", vertex contacts). Generators G (exact facet normals, oriented);
// d = centre - vertex. The nearest point of the cone to d is among the orthogonal
// projections of d onto single generators and onto the planes of two generators with
// positive coefficients; it is the candidate of largest |q|^2 (|d - q|^2 = |d|^2 - |q|^2).
// d is inside the cone iff that candidate equals d, or d - q* is not in the polar cone
// (some G.(d - q*) > 0; for d outside, d - P(d) is polar by Moreau's decomposition).
struct ConeResult {
  bool inside = false;
  bool has_candidate = false;
  QV best;
  Q best_norm2 = 0;
  int face_i = -1, face_j = -1;  // the ray's generator (face_j = -1) or the face's two
};
ConeResult cone_test(const std::vector<QV>& G, const QV& d) {
  ConeResult out;
  const std::size_t n = G.size();
  std::vector<Q> dg(n), gg(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    dg[i] = dot(d, G[i]);
    for (std::size_t j = i; j < n; ++j) gg[i * n + j] = gg[j * n + i] = dot(G[i], G[j]);
  }
  auto offer = [&](const Q& norm2, const QV& q, int fi, int fj) {
    if (!out.has_candidate || norm2 > out.best_norm2) {
      out.has_candidate = true;
      out.best_norm2 = norm2;
      out.best = q;
      out.face_i = fi;
      out.face_j = fj;
    }
  };
  for (std::size_t i = 0; i < n; ++i)
    if (sgn(dg[i]) > 0) {
      const Q s = dg[i] / gg[i * n + i];
      offer(s * dg[i], s * G[i], static_cast<int>(i), -1);
    }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const Q det = gg[i * n + i] * gg[j * n + j] - gg[i * n + j] * gg[i * n + j];
      if (sgn(det) == 0) continue;  // parallel generators
      const Q a = (dg[i] * gg[j * n + j] - dg[j] * gg[i * n + j]) / det;
      const Q b = (dg[j] * gg[i * n + i] - dg[i] * gg[i * n + j]) / det;
      if (sgn(a) <= 0 || sgn(b) <= 0) continue;
      offer(a * dg[i] + b * dg[j], a * G[i] + b * G[j], static_cast<int>(i), static_cast<int>(j));
    }
  if (!out.has_candidate) return out;  // d in the polar cone: outside
  if (out.best_norm2 == dot(d, d)) {
    out.inside = true;
    return out;
  }
  const QV r = d - out.best;
  for (const auto& g : G)
    if (sgn(dot(g, r)) > 0) {
      out.inside = true;
      break;
    }
  return out;
}

// Angular distance of d / |d| (inside the cone) to the cone's boundary, exactly decided: the
// smallest |d.w| / (|d| |w|) over the planes w = G_i x G_j (i < j, not parallel) that
// support the cone (every G_k.w >= 0, or every one <= 0; exact signs). The smallest ratio is
// found in rationals; only its square root is MPFR, rounded up (exact::sqrt_up_to_double).
// Two further exact cases: all generators on one line (a ray or a line): every perturbation
// off that line leaves the cone, margin 0; generators not on one line with no supporting
// plane: the cone is all of R^3 (a 3-dimensional cone other than R^3 has a facet spanned by
// two non-parallel generators, a 2-dimensional one lies in the plane of two of them),
// margin +inf.
double inside_cone_margin(const std::vector<QV>& G, const QV& D) {
  if (G.empty()) throw std::logic_error("edge_smoothing: vertex cone without generators");
  const Q D2 = dot(D, D);
  bool found = false, on_a_line = true;
  Q best;  // (d.w)^2 / (|d|^2 |w|^2)
  for (std::size_t i = 0; i < G.size(); ++i)
    for (std::size_t j = i + 1; j < G.size(); ++j) {
      const QV w = cross(G[i], G[j]);
      if (is_zero(w)) continue;
      on_a_line = false;
      bool pos = true, neg = true;
      for (const auto& g : G) {
        const int sg = sgn(dot(g, w));
        pos = pos && sg >= 0;
        neg = neg && sg <= 0;
      }
      if (!pos && !neg) continue;
      const Q t = dot(D, w);
      const Q v = t * t / (D2 * dot(w, w));
      if (!found || v < best) best = v;
      found = true;
    }
  if (found) return exact::sqrt_up_to_double(best);
  if (on_a_line) return 0.0;
  return std::numeric_limits<double>::infinity();
}

// Per-zone interval distance of x = n.n1 on internal edge `k` (see edge_smoothing_zone_distance).
struct EdgeZoneValues {
  bool blue = false, red = false;  // the exact zone tests (green: neither)
  bool red_nonempty = false;       // n_lim + o_lim > 0, exactly
  mpreal xn, nl, ol;               // n.n1, n_lim, o_lim (256-bit)
};
EdgeZoneValues edge_zone_values(const cases::Mesh& m, int f, int k, const QV& N1, const QV& D) {
  const int g = m.neighbour(f, k);
  QV N2 = facet_normal(m, g);
  if (m.neighbour_flipped(f, k)) N2 = -N2;  // README "Woo": n2 agrees with n1 across the edge
  const Q M1 = dot(N1, N1), M2 = dot(N2, N2), D2 = dot(D, D);
  const Q Qd = dot(N1, N2);
  const Q W = dot(cross(N1, N2), cross(N1, N2));
  const Q x = dot(D, N1);
  // n.n1 = x / (|D||N1|), n_lim = Qd / (|N1||N2|), o_lim = sqrt(W) / (|N1||N2|).
  // blue: n_lim <= n.n1  <=>  x sqrt(M2) - Qd sqrt(D2) >= 0
  // red:  n.n1 > -o_lim  <=>  x sqrt(M2) + sqrt(W D2) > 0
  const bool blue = sign_diff_sqrt(x, M2, Qd, D2) >= 0;
  const bool red = !blue && sign_diff_sqrt(x, M2, Q(-1), W * D2) > 0;
  const bool red_nonempty = sign_diff_sqrt(Qd, Q(1), Q(-1), W) > 0;  // Qd + sqrt(W) > 0
  const mpreal sM1 = sqrt(to_mp(M1)), sM2 = sqrt(to_mp(M2));
  // Built in place: mpreal's operators return const values, which assignment would copy.
  return {blue, red, red_nonempty, to_mp(x) / (sqrt(to_mp(D2)) * sM1), to_mp(Qd) / (sM1 * sM2),
          sqrt(to_mp(W)) / (sM1 * sM2)};
}

// Squared distance of D to the cone spanned by G (exact, via cone_test): 0 inside, else
// |D|^2 - |P(D)|^2 (|P(D)|^2 the largest candidate), |D|^2 when D is polar to the cone.
Q squared_distance_to_cone(const std::vector<QV>& G, const QV& D) {
  const auto c = cone_test(G, D);
  if (c.inside) return Q(0);
  return c.has_candidate ? dot(D, D) - c.best_norm2 : dot(D, D);
}

// The contact of a query with its facet: the exact closest-feature region and the facet's
// corners and the centre as exact rationals (shared by the kernel and the claimed-value
// distances below).
struct FacetContact {
  cases::ClosestFeatureResult feature;
  int region;  // static_cast<int>(feature.region)
  QV A, B, C, X;
};
FacetContact facet_contact(const cases::EdgeSmoothingQuery& q) {
  const cases::Mesh& m = *q.mesh;
  const Vec3 &a = m.vertex(q.facet, 0), &b = m.vertex(q.facet, 1), &c = m.vertex(q.facet, 2);
  const auto cf = closest_feature(cases::ClosestFeatureQuery{q.centre, a, b, c});
  return {cf, static_cast<int>(cf.region), QV::of(a), QV::of(b), QV::of(c), QV::of(q.centre)};
}

}  // namespace

double edge_smoothing_cone_piece_distance(const cases::EdgeSmoothingQuery& q, int cone_i,
                                          int cone_j) {
  const double inf = std::numeric_limits<double>::infinity();
  const cases::Mesh& m = *q.mesh;
  const int f = q.facet;
  const auto [cf, ri, A, B, C, X] = facet_contact(q);
  if (ri < 4 || !m.vertex_internal(f, ri - 4)) return inf;
  const int k = ri - 4;
  const QV corner[3] = {A, B, C};
  const QV D = X - corner[k];
  if (is_zero(D)) return inf;  // centre on the facet
  const int flip = sgn(dot(X - A, cross(B - A, C - A))) < 0 ? -1 : 1;
  std::vector<QV> G;
  for (const auto& [g, sg] : cases::oriented_fan(m, f, m.facets()[f][k])) {
    G.push_back(Q(sg * flip) * facet_normal(m, g));
  }
  const int n = static_cast<int>(G.size());
  if (cone_i < 0 || cone_i >= n || cone_j >= n || (cone_j >= 0 && cone_j == cone_i)) return inf;
  const auto cone = cone_test(G, D);
  if (cone.inside || !cone.has_candidate) return inf;  // not the projected case
  const Q D2 = dot(D, D);
  const QV& Gi = G[cone_i];
  Q dist2;
  if (cone_j < 0) {
    // Ray i: S = R+ g_i + N, N = {r . g_i = 0, r . g_k <= 0 for all k} (the normal cone of the
    // ray). The two parts are orthogonal: dist^2 = min(0, d.g_i)^2 / |g_i|^2 + dist(d_perp, N)^2,
    // and in the plane g_i^perp, N is the polar of H = cone of the g_k projected onto that plane,
    // so by Moreau dist(d_perp, N) = |P_H(d_perp)|. N = {0} (g_i inside the cone): no d outside
    // the cone projects onto the ray, +inf.
    const Q Mi = dot(Gi, Gi);
    std::vector<QV> H;
    for (const auto& Gk : G) {
      const QV h = Gk - (dot(Gk, Gi) / Mi) * Gi;
      if (!is_zero(h)) H.push_back(h);
    }
    const QV Dp = D - (dot(D, Gi) / Mi) * Gi;
    // N = {0} iff H is the whole plane g_i^perp: test two independent directions of it and
    // their negatives (a convex cone containing +-e1, +-e2 of a plane is the plane).
    if (!H.empty()) {
      QV e1 = cross(Gi, H[0]);  // in the plane, orthogonal to H[0]
      const QV e2 = cross(Gi, e1);
      bool whole = true;
      for (const QV& e : {e1, -e1, e2, -e2}) whole = whole && squared_distance_to_cone(H, e) == 0;
      if (whole) return inf;
    }
    const Q t = dot(D, Gi);
    const Q along = sgn(t) < 0 ? t * t / Mi : Q(0);
    const Q pdp = dot(Dp, Dp) - squared_distance_to_cone(H, Dp);  // |P_H(d_perp)|^2
    dist2 = along + pdp;
  } else {
    // Face: the plane of g_i, g_j (normal w). Any pair spanning the same supporting plane is
    // the same piece (coplanar generators): F = the cone's face in that plane (all generators
    // with g.w = 0), N = R+ w_out (the whole line when the cone is planar). S = F + N with
    // orthogonal parts: dist^2 = dist(d_plane, F)^2 + dist(d_w, N)^2. A plane that does not
    // support the cone holds no face: no d outside projects there, +inf.
    const QV w = cross(Gi, G[cone_j]);
    if (is_zero(w)) return inf;
    bool pos = false, neg = false;
    std::vector<QV> F;
    for (const auto& Gk : G) {
      const int s = sgn(dot(Gk, w));
      pos = pos || s > 0;
      neg = neg || s < 0;
      if (s == 0) F.push_back(Gk);
    }
    if (pos && neg) return inf;
    const Q W = dot(w, w), t = dot(D, w);
    const QV Dp = D - (t / W) * w;
    // w_out = -w when the generators lie on w's positive side, w when on its negative side.
    const int out = pos ? -1 : 1;
    const Q across = (pos || neg) && sgn(t) * out < 0 ? t * t / W : Q(0);
    dist2 = across + squared_distance_to_cone(F, Dp);
  }
  return exact::sqrt_up_to_double(dist2 / D2);
}

double edge_smoothing_zone_distance(const cases::EdgeSmoothingQuery& q, cases::Zone zone) {
  const double inf = std::numeric_limits<double>::infinity();
  const cases::Mesh& m = *q.mesh;
  const int f = q.facet;
  const auto [cf, ri, A, B, C, X] = facet_contact(q);
  if (cf.region == Region::face || ri > 3 || !m.edge_internal(f, ri - 1)) return inf;
  if (zone != Zone::blue && zone != Zone::red && zone != Zone::green) return inf;
  const int k = ri - 1;
  const QV corner[3] = {A, B, C};
  const QV& U = corner[k];
  const QV E = corner[(k + 1) % 3] - U;
  const QV D = X - (U + (dot(X - U, E) / dot(E, E)) * E);
  if (is_zero(D)) return inf;  // centre on the facet: no zone (centre_on_facet)
  const auto z = edge_zone_values(m, f, k, cross(B - A, C - A), D);
  const Zone exact = z.blue ? Zone::blue : z.red ? Zone::red : Zone::green;
  if (zone == exact) return 0.0;
  // Blue and green are adjacent only when the red interval between them is empty.
  if ((zone == Zone::blue && exact == Zone::green) || (zone == Zone::green && exact == Zone::blue))
    if (z.red_nonempty) return inf;
  if (zone == Zone::red && !z.red_nonempty) return inf;
  // Intervals of x = n.n1 (first match wins): blue [n_lim, 1], red (-o_lim, n_lim),
  // green x <= min(-o_lim, n_lim). Distance of x to the claimed one (x is outside it).
  if (zone == Zone::blue) return up(z.nl - z.xn);
  if (zone == Zone::red)
    return up(exact == Zone::blue ? z.xn - z.nl : (mpreal(0, prec) - z.ol) - z.xn);
  return up(z.xn - std::min(mpreal(0, prec) - z.ol, z.nl));
}


cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q) {
  const cases::Mesh& m = *q.mesh;
  const int f = q.facet;
  cases::EdgeSmoothingResult r;
  const auto [cf, ri, A, B, C, X] = facet_contact(q);
  r.region = cf.region;
  r.region_margin = cf.margin;
  const QV corner[3] = {A, B, C};
  const QV N1 = cross(B - A, C - A);
  const Q M1 = dot(N1, N1);
  const Q h1 = dot(X - A, N1);
  r.side = sgn(h1);
  r.side_margin = exact::sqrt_up_to_double(h1 * h1 / M1);

  // Exact closest point for the exact region.
  QV P;
  if (cf.region == Region::face) {
    P = X - (h1 / M1) * N1;
  } else if (ri <= 3) {
    const int k = ri - 1;
    const QV& U = corner[k];
    const QV E = corner[(k + 1) % 3] - U;
    P = U + (dot(X - U, E) / dot(E, E)) * E;
  } else {
    P = corner[ri - 4];
  }
  const QV D = X - P;
  const Q D2 = dot(D, D);
  r.overlap = (to_mp(Q(q.radius)) - sqrt(to_mp(D2))).toDouble();
  r.zone = Zone::none;
  r.zone_margin = r.cone_margin = std::numeric_limits<double>::infinity();
  r.on_facet_margin = exact::sqrt_up_to_double(D2);  // exactly 0 iff D2 == 0
  if (sgn(D2) == 0) {  // centre on the facet: n undefined, report n1 (explicit state)
    r.centre_on_facet = true;
    r.normal = to_vec(unit(N1));
    r.point = q.centre;
    return r;
  }
  if (cf.region == Region::face) {
    keep(r, D, P);
    return r;
  }

  if (ri <= 3) {  // edge k
    const int k = ri - 1;
    if (!m.edge_internal(f, k)) {
      keep(r, D, P);
      return r;
    }
    const auto z = edge_zone_values(m, f, k, N1, D);
    const bool blue = z.blue, red = z.red;
    const mpreal to_blue = abs(z.xn - z.nl), to_red_green = abs(z.xn + z.ol);
    const QV U = corner[k];
    if (blue) {
      r.zone = Zone::blue;
      r.zone_margin = up(to_blue);
      keep(r, D, P);
    } else if (red) {
      r.zone = Zone::red;
      r.zone_margin = up(std::min(to_blue, to_red_green));
      r.adjusted = true;
      const int g = m.neighbour(f, k);
      QV N2 = facet_normal(m, g);
      if (m.neighbour_flipped(f, k)) N2 = -N2;
      r.normal = to_vec(unit(N2));
      r.point = round_qv(X - (dot(X - U, N2) / dot(N2, N2)) * N2);  // exact rational, rounded once
    } else {
      r.zone = Zone::green;
      r.zone_margin = up(std::min(to_blue, to_red_green));
      r.adjusted = true;
      r.normal = to_vec(unit(-N1));  // the document's n' = -n1, a unit vector (README)
      r.point = round_qv(X - (dot(X - U, N1) / M1) * N1);
    }
    return r;
  }

  // Vertex k.
  const int k = ri - 4;
  if (!m.vertex_internal(f, k)) {
    keep(r, D, P);
    return r;
  }
  r.zone = Zone::vertex_cone;
  const int v = m.facets()[f][k];
  std::vector<QV> G;
  const int flip = r.side < 0 ? -1 : 1;  // cone negated when the centre is behind facet 1
  for (const auto& [g, sg] : cases::oriented_fan(m, f, v)) {
    G.push_back(Q(sg * flip) * facet_normal(m, g));
  }
  const auto cone = cone_test(G, D);
  const QV V = corner[k];
  if (cone.inside) {
    keep(r, D, P);
    r.cone_margin = inside_cone_margin(G, D);
    r.polar_margin = 1;  // |P(d)| / |d|
    return r;
  }
  r.adjusted = true;
  const Q d2 = dot(D, D);
  RV n;
  const double inf = std::numeric_limits<double>::infinity();
  if (cone.has_candidate) {  // the nearest unit direction of the cone: P(d) / |P(d)|
    n = unit(cone.best);
    const mpreal ratio = sqrt(to_mp(cone.best_norm2 / d2));  // |P(d)| / |d|
    r.cone_margin = exact::sqrt_up_to_double(1 - cone.best_norm2 / d2);  // sin(angle to cone)
    r.polar_margin = exact::sqrt_up_to_double(cone.best_norm2 / d2);  // |P(d)| / |d|: distance to the polar cone
    r.cone_i = cone.face_i;
    r.cone_j = cone.face_j;
    const QV& Gi = G[cone.face_i];
    const Q Mi = dot(Gi, Gi);
    r.feature_margin = inf;
    if (cone.face_j >= 0) {
      // Face (i, j): d's region is {a g_i + b g_j + c u_out, a, b, c >= 0}; the feature
      // switches on the planes spanned by u_out and g_i (resp. g_j), at distance |P(d) x g_k|
      // / |g_k| from d (the third plane is the cone's face: cone_margin). n' = q / |q| with q
      // the projection onto the face's plane: |dn'| <= |dd| / |q| + |du| |d| / |q|, and the
      // plane's normal u is as well defined as its generators' angle: 1 / (ratio sin_ij).
      const QV& Gj = G[cone.face_j];
      const Q Mj = dot(Gj, Gj);
      for (const auto& [Gk, Mk] : {std::pair<const QV&, const Q&>{Gi, Mi}, {Gj, Mj}}) {
        const QV c = cross(cone.best, Gk);
        r.feature_margin = std::min(r.feature_margin, exact::sqrt_up_to_double(dot(c, c) / (Mk * d2)));
      }
      const QV w = cross(Gi, Gj);
      const mpreal sin_ij = sqrt(to_mp(dot(w, w) / (Mi * Mj)));
      r.condition = (mpreal(1, prec) / (ratio * sin_ij)).toDouble();
    } else {
      // Ray i: n' = g_i, independent of d (condition 1). The projection leaves the ray when
      // rv = d - P(d) stops being polar to some g_k: on the plane rv.g_k = 0, at distance
      // |rv.g_k| |g_i| / |g_i x g_k| from d (generators parallel to g_i never switch it).
      const QV rv = D - cone.best;
      for (const auto& Gk : G) {
        const QV w = cross(Gi, Gk);
        if (is_zero(w)) continue;
        const Q t = dot(rv, Gk);
        r.feature_margin =
            std::min(r.feature_margin, exact::sqrt_up_to_double(t * t * Mi / (dot(w, w) * d2)));
      }
      r.condition = 1;
    }
  } else {
    // d in the polar cone: every generator is at >= 90 degrees; the nearest direction of the
    // cone is then a generator (a linear function on a spherical polygon with no positive
    // value peaks at a vertex): the largest d.G_i / |G_i|, compared exactly after squaring,
    // first in fan order on ties.
    r.polar = true;
    std::size_t best = 0;
    std::vector<Q> x(G.size()), M(G.size());
    for (std::size_t i = 0; i < G.size(); ++i) x[i] = dot(D, G[i]), M[i] = dot(G[i], G[i]);
    for (std::size_t i = 1; i < G.size(); ++i)
      if (sign_diff_sqrt(x[i], M[best], x[best], M[i]) > 0) best = i;
    n = unit(G[best]);
    r.cone_i = static_cast<int>(best);
    r.cone_j = -1;
    // Exact margin of the choice: gap_k = cos(d, g_best) - cos(d, g_k) >= 0 per generator.
    // Its sign is decided exactly (sign_diff_sqrt: 0 exactly on ties); its value needs the
    // square roots, so 256-bit MPFR (relative error ~1e-77, far below any fast bound).
    const mpreal sd = sqrt(to_mp(d2));
    r.feature_margin = inf;
    r.generator_gap.assign(G.size(), 0.0);
    for (std::size_t i = 0; i < G.size(); ++i) {
      if (sign_diff_sqrt(x[best], M[i], x[i], M[best]) == 0) continue;  // a tie: gap 0
      r.generator_gap[i] =
          up(to_mp(x[best]) / (sd * sqrt(to_mp(M[best]))) - to_mp(x[i]) / (sd * sqrt(to_mp(M[i]))));
    }
    for (std::size_t i = 0; i < G.size(); ++i) {
      const QV w = cross(G[i], G[best]);
      if (is_zero(w) && sgn(dot(G[i], G[best])) > 0) continue;  // same direction: same n'
      r.feature_margin = std::min(r.feature_margin, r.generator_gap[i]);
    }
    r.cone_margin = 1;  // d/|d| is at distance 1 from the cone
    // -max d.g / (|d||g|): distance of d/|d| to the polar cone's boundary.
    r.polar_margin = exact::sqrt_up_to_double(x[best] * x[best] / (d2 * M[best]));
    r.condition = 1;  // n' = g_best does not depend on d within the piece
  }
  r.normal = to_vec(n);
  // Contact point: centre projected onto the plane through the vertex with normal n'.
  const mpreal s = dot(to_mp(X - V), n);
  r.point = to_vec(to_mp(X) - s * n);
  return r;
}

}  // namespace contactbench::reference
