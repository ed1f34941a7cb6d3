// Reference edge smoothing. Source: ../shared/sources/woo-smooth-triangulation-edge-contacts.txt
// (zones 1-3); completed and decided in ../shared/sources/README.md, section "Woo".
#include "reference/edge_smoothing.hpp"

#include "reference/closest_feature.hpp"
#include "reference/src/cgal.hpp"  // GMP (mpq_class) and MPFR (mpreal)
#include "reference/src/double_double.hpp"
#include "reference/src/exact_vector.hpp"
#include "reference/src/filtered_sign.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
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

// radius - sqrt(D2): the square root forces MPFR (256 bits), rounded once to nearest.
double overlap_of(double radius, const Q& D2) { return (to_mp(Q(radius)) - sqrt(to_mp(D2))).toDouble(); }

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


cases::EdgeSmoothingResult edge_smoothing_exact(const cases::EdgeSmoothingQuery& q) {
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
  r.overlap = overlap_of(q.radius, D2);
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

// The filtered stage (issue 16): the kernel above in double-double with a running error
// bound (reference/src/double_double.hpp) on the query scaled by a power of two. A decision
// is kept only when its enclosure excludes 0, or when the formula makes it 0 identically (the
// residual of a projection onto g is orthogonal to g); an output double only when its
// enclosure rounds to one double. The side, |D| = 0 (the centre on the facet) and a side
// margin, |D| or overlap the enclosure cannot round (an exact double, or too close to one)
// are then computed alone from the exact path's rationals, as it computes them. Anything
// else (other ties and exact zeros, parallel generators, under- or overflow) throws
// Undecided and the whole query goes to edge_smoothing_exact.
//
// Why the exact path then gives the same doubles: where it is exact (rationals rounded once,
// exact signs) the certified enclosure decides the same. Where a square root forces MPFR
// (unit normals, the overlap, the projected vertex-cone point, the condition, the margins),
// the exact path evaluates at 256 bits, an absolute error of about 2^-250 of the operands'
// magnitudes, then rounds once: to nearest (to_vec, toDouble), or up (sqrt_up_to_double,
// up()). Every double-double operation carries at least 2^-102 of its operands' magnitudes
// in its bound, so a 256-bit value lies well inside the enclosure, and an enclosure that
// rounds to one double (certain_double: no midpoint within it; certain_up_double: inside
// (prev(d), d], d itself only for an exact value) makes the 256-bit value round there too.
// The square roots here are dd::sqrt, whose bound is proven in double_double.hpp.
namespace {

using dd::Bounded;
using BV = exact::Vector3<Bounded>;
using cases::Vec3;

struct Undecided {};  // the filter cannot certify: run the exact path

// The certain sign of an enclosure, or nothing (0 inside it, or a non-finite value or bound).
std::optional<int> try_sign(const Bounded& a) {
  if (!(std::isfinite(a.hi) && std::isfinite(a.err))) return std::nullopt;
  if (a.hi > 0 && a.hi > 2 * a.err) return 1;  // |lo| <= 2^-53 |hi|
  if (a.hi < 0 && -a.hi > 2 * a.err) return -1;
  return std::nullopt;
}
int sign(const Bounded& a) {
  if (const auto s = try_sign(a)) return *s;
  throw Undecided{};
}

// a - b for doubles: exact as a double pair (error 0).
BV diff(const Vec3& a, const Vec3& b) {
  BV d;
  for (int i = 0; i < 3; ++i) dd::two_sum(a[i], -b[i], d[i].hi, d[i].lo);
  return d;
}

// The query's points times 2^k (exact unless a coordinate under- or overflows: Undecided).
struct Scaling {
  int k = 0;
  double f = 1;
  Vec3 operator()(const Vec3& x) const {
    Vec3 y;
    for (int i = 0; i < 3; ++i) {
      y[i] = x[i] * f;
      if (!std::isfinite(y[i]) || (x[i] != 0 && std::abs(y[i]) < 0x1p-1022)) throw Undecided{};
    }
    return y;
  }
  BV normal(const cases::Mesh& m, int g) const {
    const Vec3 v0 = (*this)(m.vertex(g, 0));
    return cross(diff((*this)(m.vertex(g, 1)), v0), diff((*this)(m.vertex(g, 2)), v0));
  }
};

// The nearest (upward: the smallest >=) double to x·2^-k, when the enclosure certifies it
// and the result is a normal double (scaling commutes with the rounding there); +0 for an
// exact zero, as the exact path's rationals have no -0.
// certified_*: NaN when not certified; nearest / upward: Undecided then.
double certified_nearest(const Bounded& x, int k) {
  if (dd::exact_zero(x)) return 0;
  const double y = dd::scale2(dd::certain_double(x), -k);
  return std::abs(y) >= 0x1p-1022 && std::isfinite(y) ? y : std::nan("");
}
double certified_up(const Bounded& x, int k) {
  if (dd::exact_zero(x)) return 0;
  const double y = dd::scale2(dd::certain_up_double(x), -k);
  return std::abs(y) >= 0x1p-1022 && std::isfinite(y) ? y : std::nan("");
}
double nearest(const Bounded& x, int k) {
  const double y = certified_nearest(x, k);
  if (std::isnan(y)) throw Undecided{};
  return y;
}
double upward(const Bounded& x, int k) {
  const double y = certified_up(x, k);
  if (std::isnan(y)) throw Undecided{};
  return y;
}
Vec3 nearest(const BV& x, int k) { return {nearest(x[0], k), nearest(x[1], k), nearest(x[2], k)}; }

// The exact path's unit(a), rounded to nearest: a_i / |a| (the root: dd::sqrt).
Vec3 unit(const BV& a) {
  const Bounded n = dd::sqrt(dot(a, a));
  Vec3 u;
  for (int i = 0; i < 3; ++i) u[i] = dd::exact_zero(a[i]) ? 0.0 : nearest(a[i] / n, 0);
  return u;
}

// The exact path's up(v): v (1 + 2^-120) rounded up (1 + 2^-120 is an exact double pair).
double up_margin(const Bounded& v) { return upward(v * Bounded(1, 0x1p-120, 0), 0); }

// up(min(a, b)): the smaller when the order is certain; else both must round to one double.
double up_margin_of_min(const Bounded& a, const Bounded& b) {
  const int c = dd::certain_compare(a, b);
  if (c != 0) return up_margin(c < 0 ? a : b);
  const double ua = up_margin(a);
  if (ua != up_margin(b)) throw Undecided{};
  return ua;
}

// An enclosure of min(a, b): the true minimum is within the larger bound of the smaller centre.
Bounded enclosure_of_min(const Bounded& a, const Bounded& b) {
  Bounded low = b < a ? b : a;
  low.err = std::max(a.err, b.err);
  return low;
}

// The vertex cone's nearest candidate (cone_test): |P(d)|^2, P(d), its ray or face.
struct Candidate {
  Bounded norm2;
  BV q;
  int i = -1, j = -1;
};

cases::EdgeSmoothingResult filtered_kernel(const cases::EdgeSmoothingQuery& q) {
  const cases::Mesh& m = *q.mesh;
  const int f = q.facet;
  const Vec3 &a = m.vertex(f, 0), &b = m.vertex(f, 1), &c = m.vertex(f, 2);
  const auto cf = closest_feature(cases::ClosestFeatureQuery{q.centre, a, b, c});
  const int ri = static_cast<int>(cf.region);
  // The exact path's rationals of the facet, built only when one value needs them (a margin
  // or the overlap that is an exact double or too close to one, a side or |D| that is 0):
  // that value is then computed as the exact path does, the rest stays filtered. Rationals
  // are canonical, so D2 (= |centre - closest point|^2) by any exact formula is the same.
  struct Rationals {
    Q M1, h1, D2;
  };
  std::optional<Rationals> rationals;
  auto exact_values = [&]() -> const Rationals& {
    if (!rationals) {
      const QV A = QV::of(a), X = QV::of(q.centre), corner[3] = {A, QV::of(b), QV::of(c)};
      const QV N1 = cross(corner[1] - A, corner[2] - A);
      Rationals e{dot(N1, N1), dot(X - A, N1), 0};
      if (cf.region == Region::face) {
        e.D2 = e.h1 * e.h1 / e.M1;
      } else if (ri <= 3) {
        const QV& U = corner[ri - 1];
        const QV E = corner[ri % 3] - U, w = cross(X - U, E);
        e.D2 = dot(w, w) / dot(E, E);
      } else {
        const QV D = X - corner[ri - 4];
        e.D2 = dot(D, D);
      }
      rationals = std::move(e);
    }
    return *rationals;
  };
  double largest = q.centre.cwiseAbs().maxCoeff();
  for (const Vec3* v : {&a, &b, &c}) largest = std::max(largest, v->cwiseAbs().maxCoeff());
  if (!(largest > 0 && std::isfinite(largest))) throw Undecided{};
  Scaling s;
  s.k = -std::ilogb(largest);  // the largest coordinate in [1, 2)
  if (s.k < -1000 || s.k > 1000) throw Undecided{};
  s.f = dd::scale2(1.0, s.k);
  const int k = s.k;
  const Vec3 X = s(q.centre), A = s(a), B = s(b), C = s(c);
  const double radius = q.radius * s.f;
  if (!std::isfinite(radius) || (q.radius != 0 && std::abs(radius) < 0x1p-1022)) throw Undecided{};

  cases::EdgeSmoothingResult r;
  r.region = cf.region;
  r.region_margin = cf.margin;
  const Vec3* corner[3] = {&A, &B, &C};
  const BV N1 = cross(diff(B, A), diff(C, A));
  const Bounded M1 = dot(N1, N1);
  const Bounded h1 = dot(diff(X, A), N1);
  if (const auto sd = try_sign(h1)) {
    r.side = *sd;
  } else {  // exactly in the plane, when intervals see it ([0, 0]: every step exact)
    const auto si = exact::interval_sign(
        [](const auto& x, const auto& u, const auto& v, const auto& w) { return dot(x - u, cross(v - u, w - u)); },
        q.centre, a, b, c);
    r.side = si ? *si : sgn(exact_values().h1);
  }
  if (r.side == 0) {
    r.side_margin = 0;
  } else {
    r.side_margin = certified_up(dd::abs(h1) / dd::sqrt(M1), k);
    if (std::isnan(r.side_margin)) r.side_margin = exact::sqrt_up_to_double(exact_values().h1 * exact_values().h1 / exact_values().M1);
  }
  const double inf = std::numeric_limits<double>::infinity();
  // |centre - closest point|^2 rounds to 0 only when it is 0 or tiny: decided exactly.
  if (!(cf.squared_distance > 0)) {
    if (sgn(exact_values().D2) != 0) throw Undecided{};
    // Centre on the facet (the exact path's explicit state): D = 0, so h1 = 0 and side 0.
    r.overlap = overlap_of(q.radius, Q(0));
    r.zone = Zone::none;
    r.zone_margin = r.cone_margin = inf;
    r.on_facet_margin = 0;
    r.centre_on_facet = true;
    r.normal = unit(N1);
    r.point = q.centre;
    return r;
  }

  // D = centre - closest point, P the closest point (scaled).
  BV D, P;
  Bounded D2;
  const BV Xb = BV::of(X);
  if (cf.region == Region::face) {
    const Bounded t = h1 / M1;
    D = t * N1;
    P = Xb - D;
    D2 = h1 * h1 / M1;
  } else if (ri <= 3) {
    const Vec3& U = *corner[ri - 1];
    const BV E = diff(*corner[ri % 3], U), WU = diff(X, U);
    const Bounded E2 = dot(E, E), t = dot(WU, E) / E2;
    P = BV::of(U) + t * E;
    D = WU - t * E;
    const BV w = cross(WU, E);
    D2 = dot(w, w) / E2;  // |W|^2 |E|^2 - (W.E)^2 = |W x E|^2 (Lagrange), no cancellation
  } else {
    const Vec3& V = *corner[ri - 4];
    P = BV::of(V);
    D = diff(X, V);
    D2 = dot(D, D);
  }
  const Bounded dist = dd::sqrt(D2);
  r.overlap = certified_nearest(Bounded(radius) - dist, k);
  if (std::isnan(r.overlap)) r.overlap = overlap_of(q.radius, exact_values().D2);
  r.zone = Zone::none;
  r.zone_margin = r.cone_margin = inf;
  r.on_facet_margin = certified_up(dist, k);
  if (std::isnan(r.on_facet_margin)) r.on_facet_margin = exact::sqrt_up_to_double(exact_values().D2);
  auto keep = [&] {
    r.normal = unit(D);
    r.point = nearest(P, k);
    r.adjusted = false;
  };
  if (cf.region == Region::face) {
    r.normal = unit(r.side < 0 ? -N1 : N1);  // D = (h1 / M1) N1
    r.point = nearest(P, k);
    return r;
  }

  if (ri <= 3) {  // edge j
    const int j = ri - 1;
    if (!m.edge_internal(f, j)) {
      keep();
      return r;
    }
    BV N2 = s.normal(m, m.neighbour(f, j));
    if (m.neighbour_flipped(f, j)) N2 = -N2;
    const Bounded M2 = dot(N2, N2), sM1 = dd::sqrt(M1), sM2 = dd::sqrt(M2);
    const BV w = cross(N1, N2);
    // x = D.n1-part: D.N1 = (X - A).N1 = h1 exactly (the closest point is in the facet's plane).
    const Bounded xn = h1 / (dist * sM1), nl = dot(N1, N2) / (sM1 * sM2), ol = dd::sqrt(dot(w, w)) / (sM1 * sM2);
    const Bounded to_blue = xn - nl, to_red_green = xn + ol;
    if (sign(to_blue) > 0) {  // n_lim <= n.n1 (0 is undecided: the exact path's >= decides it)
      r.zone = Zone::blue;
      r.zone_margin = up_margin(dd::abs(to_blue));
      keep();
      return r;
    }
    const bool red = sign(to_red_green) > 0;
    r.zone_margin = up_margin_of_min(dd::abs(to_blue), dd::abs(to_red_green));
    r.adjusted = true;
    const Vec3& U = *corner[j];
    if (red) {
      r.zone = Zone::red;
      r.normal = unit(N2);
      r.point = nearest(Xb - (dot(diff(X, U), N2) / M2) * N2, k);
    } else {
      r.zone = Zone::green;
      r.normal = unit(-N1);
      r.point = nearest(Xb - (h1 / M1) * N1, k);  // (X - U).N1 = h1
    }
    return r;
  }

  // Vertex j.
  const int j = ri - 4;
  if (!m.vertex_internal(f, j)) {
    keep();
    return r;
  }
  r.zone = Zone::vertex_cone;
  const int flip = r.side < 0 ? -1 : 1;
  std::vector<BV> G;
  for (const auto& [g, sg] : cases::oriented_fan(m, f, m.facets()[f][j])) {
    const BV n = s.normal(m, g);
    G.push_back(sg * flip < 0 ? -n : n);
  }
  const std::size_t n = G.size();
  // dg_i = d.g_i, gg = the Gram matrix, det_ij = |g_i x g_j|^2 (= gg_ii gg_jj - gg_ij^2).
  std::vector<Bounded> dg(n), gg(n * n), det(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    dg[i] = dot(D, G[i]);
    for (std::size_t l = i; l < n; ++l) gg[i * n + l] = gg[l * n + i] = dot(G[i], G[l]);
    for (std::size_t l = i + 1; l < n; ++l) {
      const BV w = cross(G[i], G[l]);
      det[i * n + l] = det[l * n + i] = dot(w, w);
      if (sign(det[i * n + l]) <= 0) throw Undecided{};  // parallel generators: exact path
    }
  }
  // cone_test.
  std::optional<Candidate> best;
  auto offer = [&](const Bounded& norm2, const BV& p, int fi, int fj) {
    if (best) {
      const int cmp = dd::certain_compare(norm2, best->norm2);
      if (cmp == 0) throw Undecided{};  // a tie keeps the first: only the exact path knows it
      if (cmp < 0) return;
    }
    best = Candidate{norm2, p, fi, fj};
  };
  for (std::size_t i = 0; i < n; ++i)
    if (sign(dg[i]) > 0) {
      const Bounded t = dg[i] / gg[i * n + i];
      offer(t * dg[i], t * G[i], static_cast<int>(i), -1);
    }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = i + 1; l < n; ++l) {
      const Bounded an = dg[i] * gg[l * n + l] - dg[l] * gg[i * n + l];
      const Bounded bn = dg[l] * gg[i * n + i] - dg[i] * gg[i * n + l];
      const auto sa = try_sign(an), sb = try_sign(bn);
      if (sa == -1 || sb == -1) continue;
      if (!sa || !sb) throw Undecided{};
      const Bounded& dt = det[i * n + l];
      offer((an * dg[i] + bn * dg[l]) / dt, (an / dt) * G[i] + (bn / dt) * G[l], static_cast<int>(i),
            static_cast<int>(l));
    }
  const Vec3& V = *corner[j];
  BV rv;  // d - P(d)
  bool inside = false;
  if (best) {
    if (dd::certain_compare(best->norm2, D2) >= 0) throw Undecided{};  // d on a candidate
    rv = D - best->q;
    bool undecided = false;
    for (std::size_t l = 0; l < n && !inside; ++l) {
      if (static_cast<int>(l) == best->i || static_cast<int>(l) == best->j) continue;  // rv.g = 0
      const auto sg = try_sign(dot(G[l], rv));
      if (!sg) undecided = true;
      else inside = *sg > 0;
    }
    if (!inside && undecided) throw Undecided{};
  }
  if (inside) {
    keep();
    // inside_cone_margin: no pair is parallel (certified above), so the generators are not
    // on one line unless there is a single one.
    std::optional<Bounded> least;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t l = i + 1; l < n; ++l) {
        const BV w = cross(G[i], G[l]);
        bool pos = true, neg = true, undecided = false;
        for (std::size_t o = 0; o < n; ++o) {
          if (o == i || o == l) continue;  // g_i.w = g_l.w = 0
          const auto sg = try_sign(dot(G[o], w));
          if (!sg) undecided = true;
          else pos = pos && *sg > 0, neg = neg && *sg < 0;
        }
        if (!pos && !neg) continue;
        if (undecided) throw Undecided{};
        const Bounded t = dot(D, w), v = t * t / (D2 * det[i * n + l]);
        least = least ? enclosure_of_min(*least, v) : v;
      }
    r.cone_margin = n == 1 ? 0.0 : least ? upward(dd::sqrt(*least), 0) : inf;
    r.polar_margin = 1;
    return r;
  }
  r.adjusted = true;
  BV dir;  // n' = dir / |dir|
  if (best) {
    const int bi = best->i, bj = best->j;
    const Bounded ratio2 = best->norm2 / D2;
    r.cone_margin = upward(dd::sqrt(dot(rv, rv) / D2), 0);  // 1 - |P(d)|^2/|d|^2 = |d - P(d)|^2/|d|^2
    r.polar_margin = upward(dd::sqrt(ratio2), 0);
    r.cone_i = bi;
    r.cone_j = bj;
    const Bounded& Mi = gg[bi * n + bi];
    r.feature_margin = inf;
    if (bj >= 0) {
      const Bounded& Mj = gg[bj * n + bj];
      for (const int o : {bi, bj}) {
        const BV w = cross(best->q, G[o]);
        r.feature_margin = std::min(r.feature_margin, upward(dd::sqrt(dot(w, w) / (gg[o * n + o] * D2)), 0));
      }
      r.condition = nearest(Bounded(1) / (dd::sqrt(ratio2) * dd::sqrt(det[bi * n + bj] / (Mi * Mj))), 0);
      dir = best->q;
    } else {
      for (std::size_t o = 0; o < n; ++o) {
        if (static_cast<int>(o) == bi) continue;  // g_i x g_i = 0
        const Bounded t = dot(rv, G[o]);
        r.feature_margin = std::min(r.feature_margin, upward(dd::sqrt(t * t * Mi / (det[bi * n + o] * D2)), 0));
      }
      r.condition = 1;
      dir = G[bi];  // P(d) = (d.g_i / |g_i|^2) g_i with d.g_i > 0
    }
  } else {
    // Polar: the generator of largest cosine d.g / (|d| |g|), first in fan order on ties.
    r.polar = true;
    std::vector<Bounded> cosine(n);
    for (std::size_t i = 0; i < n; ++i) cosine[i] = dg[i] / (dist * dd::sqrt(gg[i * n + i]));
    std::size_t bi = 0;
    for (std::size_t i = 1; i < n; ++i) {
      const int cmp = dd::certain_compare(cosine[i], cosine[bi]);
      if (cmp == 0) throw Undecided{};
      if (cmp > 0) bi = i;
    }
    r.cone_i = static_cast<int>(bi);
    r.cone_j = -1;
    r.feature_margin = inf;
    r.generator_gap.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      if (i == bi) continue;  // the chosen one: gap 0; no other is parallel to it (certified)
      const Bounded gap = cosine[bi] - cosine[i];
      if (sign(gap) <= 0) throw Undecided{};
      r.generator_gap[i] = up_margin(gap);
      r.feature_margin = std::min(r.feature_margin, r.generator_gap[i]);
    }
    r.cone_margin = 1;
    r.polar_margin = upward(dd::abs(cosine[bi]), 0);  // sqrt(x^2 / (|d|^2 |g|^2))
    r.condition = 1;
    dir = G[bi];
  }
  r.normal = unit(dir);
  // The centre projected onto the plane through the vertex with normal n': a rational, which
  // the exact path evaluates through its 256-bit unit normal.
  r.point = nearest(Xb - (dot(diff(X, V), dir) / dot(dir, dir)) * dir, k);
  return r;
}

}  // namespace

cases::EdgeSmoothingResult edge_smoothing(const cases::EdgeSmoothingQuery& q) {
  try {
    return filtered_kernel(q);
  } catch (const Undecided&) {
  }
  return edge_smoothing_exact(q);
}

}  // namespace contactbench::reference
