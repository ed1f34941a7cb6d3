// Exact reference of the rounded-triangle contact pair (see reference/rounded_triangle_contact.hpp).
// Everything but δ_s and δ_t is a rational function of the inputs: GMP rationals, rounded
// once. δ_s and δ_t contain square roots (irrational in general): MPFR at 256 bits from
// forms without cancellation (below), rounded once to the nearest double.
#include "reference/rounded_triangle_contact.hpp"

#include "reference/src/cgal.hpp"  // GMP (mpq_class), MPFR (mpreal), roundings

#include <algorithm>
#include <vector>

namespace contactbench::reference {

namespace {

using exact::Vector3;
using Q = mpq_class;
using V = Vector3<Q>;
using mpfr::mpreal;
constexpr mpfr_prec_t prec = 256;

// The computation runs on the inputs scaled by 2^-e to integers (exact::to_integers): GMP
// rationals over integers skip most gcd work. A value of length degree k is then x·2^(k e).
Q unscaled(const Q& x, long e) {
  Q y;
  if (e >= 0) mpq_mul_2exp(y.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(y.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return y;
}
double length_to_double(const Q& x, long e) { return exact::to_nearest_double(unscaled(x, e)); }
cases::Vec3 to_double(const V& v, long e) {
  return {length_to_double(v[0], e), length_to_double(v[1], e), length_to_double(v[2], e)};
}
mpreal mp(const Q& q) { return mpreal(q.get_mpq_t(), prec, MPFR_RNDN); }
Q abs_q(const Q& x) { return sgn(x) < 0 ? Q(-x) : x; }
bool lex_less(const V& a, const V& b) {
  for (int k = 0; k < 3; ++k)
    if (a[k] != b[k]) return a[k] < b[k];
  return false;
}
bool equal(const V& a, const V& b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

// Squared distance from x to the closed segment [a, b], and the nearest point.
Q segment_distance2(const V& x, const V& a, const V& b, V* nearest = nullptr) {
  const V e = b - a;
  const Q ee = dot(e, e);
  Q t = ee == 0 ? Q(0) : Q(dot(x - a, e) / ee);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  const V y = a + t * e;
  if (nearest) *nearest = y;
  const V r = x - y;
  return dot(r, r);
}

// The plane geometry: orientation about d (> 0: counter-clockwise seen from the tip of d).
struct Plane {
  V d;
  Q orient(const V& a, const V& b, const V& x) const { return dot(cross(b - a, x - a), d); }
};

// S = conv(P' ∩ Q') for two triangles counter-clockwise about d: the vertices of each inside
// the other (closed), and the points where edges meet (non-parallel, closed segments); the
// convex hull of those candidates (Jarvis march, no collinear vertices), counter-clockwise,
// starting at the lexicographically smallest vertex. Orientations about d are the same for
// points and their projections along d (the triple product ignores components along d), so
// the tests run on the input points and only the candidates are projected.
template <class Project>
std::vector<V> intersect(const Plane& pl, const std::array<V, 3>& a, const std::array<V, 3>& b,
                         const Project& proj) {
  std::vector<V> cand;
  auto inside = [&](const std::array<V, 3>& t, const V& x) {
    for (int k = 0; k < 3; ++k)
      if (sgn(pl.orient(t[k], t[(k + 1) % 3], x)) < 0) return false;
    return true;
  };
  for (const V& x : a)
    if (inside(b, x)) cand.push_back(proj(x));
  for (const V& x : b)
    if (inside(a, x)) cand.push_back(proj(x));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const V &p0 = a[i], &p1 = a[(i + 1) % 3], &q0 = b[j], &q1 = b[(j + 1) % 3];
      const Q o1 = pl.orient(p0, p1, q0), o2 = pl.orient(p0, p1, q1);
      if (sgn(o1) == 0 && sgn(o2) == 0) continue;  // collinear: end points already candidates
      if (sgn(o1) * sgn(o2) > 0) continue;
      const Q o3 = pl.orient(q0, q1, p0), o4 = pl.orient(q0, q1, p1);
      if (sgn(o3) * sgn(o4) > 0) continue;
      cand.push_back(proj(q0 + Q(o1 / (o1 - o2)) * (q1 - q0)));
    }
  std::vector<V> pts;
  for (const V& x : cand)
    if (std::none_of(pts.begin(), pts.end(), [&](const V& y) { return equal(x, y); })) pts.push_back(x);
  if (pts.size() <= 1) return pts;
  const std::size_t start = static_cast<std::size_t>(
      std::min_element(pts.begin(), pts.end(), lex_less) - pts.begin());
  std::vector<V> hull;
  std::size_t cur = start;
  for (;;) {
    hull.push_back(pts[cur]);
    std::size_t next = cur == 0 ? 1 : 0;
    for (std::size_t r = 0; r < pts.size(); ++r) {
      if (r == cur || r == next) continue;
      const int o = sgn(pl.orient(pts[cur], pts[next], pts[r]));
      if (o < 0) {
        next = r;
      } else if (o == 0) {
        const V u = pts[r] - pts[cur], w = pts[next] - pts[cur];
        if (dot(u, u) > dot(w, w)) next = r;
      }
    }
    cur = next;
    if (cur == start || hull.size() > pts.size()) break;
  }
  return hull;
}

}  // namespace

cases::RoundedTriangleContactResult rounded_triangle_contact(const cases::RoundedTriangleContactQuery& q) {
  cases::RoundedTriangleContactResult r;
  std::array<V, 3> P, T;
  const cases::Vec3 radii(q.r1, q.r2, 0);
  const auto in = exact::to_integers(std::array<const cases::Vec3*, 9>{
      &q.p[0], &q.p[1], &q.p[2], &q.q[0], &q.q[1], &q.q[2], &q.c1, &q.c2, &radii});
  const long e = in.exp;
  auto rational = [](const Vector3<mpz_class>& z) { return V{Q(z[0]), Q(z[1]), Q(z[2])}; };
  for (int i = 0; i < 3; ++i) P[i] = rational(in.v[i]), T[i] = rational(in.v[3 + i]);
  const V c1 = rational(in.v[6]), c2 = rational(in.v[7]), d = c2 - c1;
  const Q R1 = Q(in.v[8][0]), R2 = Q(in.v[8][1]), dd = dot(d, d);
  const Q L2 = std::max(R1, R2) * std::max(R1, R2);
  if (dd == 0) throw cases::InputError("rounded_triangle_contact: coincident sphere centres");

  // Facing, eq. (37), first. Margin: |n_i·d| / (l_i² |d|), the smaller decides when both
  // hold; when facing fails, the larger of the failing ones (each must flip).
  const Q f[2] = {dot(cross(P[1] - P[0], P[2] - P[0]), d), -dot(cross(T[1] - T[0], T[2] - T[0]), d)};
  auto longest2 = [](const std::array<V, 3>& t) {
    Q m = 0;
    for (int k = 0; k < 3; ++k) {
      const V e = t[(k + 1) % 3] - t[k];
      m = std::max(m, Q(dot(e, e)));
    }
    return m;
  };
  const Q l2[2] = {longest2(P), longest2(T)};
  double m[2];
  for (int i = 0; i < 2; ++i) m[i] = exact::sqrt_up_to_double(Q(f[i] * f[i] / (l2[i] * l2[i] * dd)));
  r.facing = sgn(f[0]) > 0 && sgn(f[1]) > 0;
  if (r.facing) {
    r.facing_margin = std::min(m[0], m[1]);
  } else {
    r.facing_margin = 0;
    for (int i = 0; i < 2; ++i)
      if (sgn(f[i]) <= 0) r.facing_margin = std::max(r.facing_margin, m[i]);
    return r;  // no contact: nothing else is computed
  }

  // Spheres: overlap and δ_s = ((R1+R2)² − |d|²) / (R1 + R2 + |d|) (no cancellation).
  const Q sum = R1 + R2, sum2 = sum * sum;
  r.spheres_overlap = sum2 > dd;
  r.overlap_margin = exact::up_to_double(Q(abs_q(sum2 - dd) / (sum2 + dd)));
  const mpreal D = sqrt(mp(dd));
  r.delta_s = ldexp(mpreal(mp(Q(sum2 - dd)) / (mp(sum) + D)), e).toDouble(MPFR_RNDN);

  // Contact plane: c = c1 + t d, the projections, S.
  const Q t = (dd + R1 * R1 - R2 * R2) / (2 * dd);
  const V c = c1 + t * d;
  auto proj = [&](const V& x) { return x - Q(dot(x - c, d) / dd) * d; };
  const Plane pl{d};
  const std::vector<V> S = intersect(pl, P, {T[0], T[2], T[1]}, proj);  // Q reversed: counter-clockwise
  for (const V& v : S) r.polygon.push_back(to_double(v, e));

  // Vertex-count margin: nearest approach of a vertex of one projection to an edge of the
  // other, from the input points: with M(u, v) = (u·v)|d|² − (u·d)(v·d) = |d|² (u'·v') for
  // the projections u', v', every squared distance is a quotient without projecting.
  auto M = [&](const V& u, const V& v) { return Q(dot(u, v) * dd - dot(u, d) * dot(v, d)); };
  Q cm2 = -1;  // |d|² times the smallest squared distance
  for (int side = 0; side < 2; ++side) {
    const auto& A = side == 0 ? P : T;
    const auto& B = side == 0 ? T : P;
    for (const V& x : A)
      for (int k = 0; k < 3; ++k) {
        const V w = x - B[k], e = B[(k + 1) % 3] - B[k];
        const Q ee = M(e, e), we = M(w, e);
        const Q s = sgn(we) <= 0 || sgn(ee) == 0 ? M(w, w)
                    : we >= ee                   ? M(w - e, w - e)
                                                 : Q(M(w, w) - we * we / ee);
        if (cm2 < 0 || s < cm2) cm2 = s;
      }
  }
  r.count_margin = exact::sqrt_up_to_double(Q(cm2 / (dd * L2)));

  if (S.empty()) return r;
  // c_p: c itself when inside S (closed), else the nearest point of S's boundary.
  V cp = S[0];
  Q h2 = dot(c - S[0], c - S[0]);
  bool inside = S.size() >= 3;
  for (std::size_t k = 0; k < S.size() && inside; ++k)
    if (sgn(pl.orient(S[k], S[(k + 1) % S.size()], c)) < 0) inside = false;
  if (inside) {
    cp = c, h2 = 0;
  } else {
    for (std::size_t k = 0; k + 1 < S.size() + (S.size() > 2 ? 1 : 0); ++k) {
      V y;
      const Q s = segment_distance2(c, S[k], S[(k + 1) % S.size()], &y);
      if (s < h2) h2 = s, cp = y;
    }
  }
  r.contact_point = to_double(cp, e);
  r.h2 = exact::to_nearest_double(unscaled(h2, 2 * e));
  const Q td = t * t * dd, rc2 = R1 * R1 - td;
  r.contact = h2 < rc2;
  r.contact_margin = exact::up_to_double(Q(abs_q(rc2 - h2) / L2));
  if (!r.contact) return r;

  // δ_t = sqrt(R1² − h²) + sqrt(R2² − h²) − |d| (eq. 36 with the README's δ_s), evaluated
  // as (2ab − K) / (a + b + |d|) with a² = R1² − h², b² = R2² − h², K = |d|² + 2h² − R1² − R2²,
  // and 2ab − K = (4a²b² − K²) / (2ab + K) when K > 0: no cancellation anywhere.
  const Q A = R1 * R1 - h2, B = R2 * R2 - h2, K = dd + 2 * h2 - R1 * R1 - R2 * R2;
  const mpreal a = sqrt(mp(A)), b = sqrt(mp(B));
  const mpreal num = sgn(K) <= 0 ? mpreal(2 * a * b - mp(K))
                                 : mpreal(mp(Q(4 * A * B - K * K)) / (2 * a * b + mp(K)));
  r.delta_t = ldexp(mpreal(num / (a + b + D)), e).toDouble(MPFR_RNDN);
  return r;
}

}  // namespace contactbench::reference
