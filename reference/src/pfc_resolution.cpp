#include "reference/pfc_resolution.hpp"

#include "reference/closest_feature.hpp"
#include "reference/src/cgal.hpp"  // GMP (mpq_class), MPFR (mpreal), exact::Vector3

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace contactbench::reference {

namespace {

using cases::PfcPredicates;
using cases::Region;
using cases::Vec3;
using mpfr::mpreal;
using Q = mpq_class;
using QV = exact::Vector3<mpq_class>;
using RV = exact::Vector3<mpreal>;
constexpr mpfr_prec_t prec = 256;

QV qv(const Vec3& v) { return QV::of(v); }
mpreal mp(const Q& q) { return mpreal(q.get_mpq_t(), prec, MPFR_RNDN); }
RV mp(const QV& v) { return {mp(v[0]), mp(v[1]), mp(v[2])}; }
mpreal norm(const RV& v) { return sqrt(dot(v, v)); }
// Margins are reported as doubles rounded up (a margin below the exact one could excuse a
// real error); their inputs here are exact rationals evaluated at 256 bits.
double up(const mpreal& x) { return abs(x).toDouble(MPFR_RNDU); }
Vec3 nearest(const RV& v) { return {v[0].toDouble(), v[1].toDouble(), v[2].toDouble()}; }
Vec3 nearest(const QV& v) {
  return {exact::to_nearest_double(v[0]), exact::to_nearest_double(v[1]),
          exact::to_nearest_double(v[2])};
}

struct Facet {
  QV a, b, c, n;  // vertices and the right-hand normal (b - a) x (c - a)
  QV wp;          // exact closest point to the centre
  Q d2;           // |wp - x|^2
  Region region = Region::face;
};

// Sign of alpha s + beta t with alpha = 1/sqrt(p), beta = 1/sqrt(r) (p, r > 0), exactly:
// equal signs decide; otherwise compare s^2 r with t^2 p.
int weighted_sign(const Q& s, const Q& p, const Q& t, const Q& r) {
  const int ss = sgn(s), st = sgn(t);
  if (ss == st || st == 0) return ss;
  if (ss == 0) return st;
  const int c = cmp(Q(s * s * r), Q(t * t * p));
  return c > 0 ? ss : c < 0 ? st : 0;
}

}  // namespace

cases::PfcResult pfc_resolution(const cases::PfcQuery& q) {
  const cases::Mesh& m = *q.wall;
  const int n = m.facet_count();
  const QV x = qv(q.centre);
  const Q R(q.radius), R2 = R * R;
  const mpreal Rm(q.radius, prec);
  std::vector<cases::PfcDecision> decisions;
  auto record = [&](const char* name, const char* value, double margin, int i = -1, int j = -1) {
    decisions.push_back({name, value, margin, i, j});
  };

  std::vector<Facet> fs(n);
  PfcPredicates p;
  p.overlap.assign(n, PfcPredicates::Overlap::none);
  p.region.assign(n, Region::face);
  for (int f = 0; f < n; ++f) {
    Facet& F = fs[f];
    F.a = qv(m.vertex(f, 0)), F.b = qv(m.vertex(f, 1)), F.c = qv(m.vertex(f, 2));
    F.n = cross(F.b - F.a, F.c - F.a);
    // Active sides: the sign of the centre's signed distance to the facet's plane.
    const auto sides = q.side_of(f);
    if (sides != cases::PfcSides::both) {
      const Q h = dot(F.n, x - F.a);
      const int s = sgn(h);
      record("side",
             s > 0   ? "front"
             : s < 0 ? "back"
                     : "in_plane",
             up(abs(mp(h)) / norm(mp(F.n)) / Rm), f);
      const bool front = (static_cast<int>(sides) & 1) != 0,
                 back = (static_cast<int>(sides) & 2) != 0;
      if ((s > 0 && !front) || (s < 0 && !back) || (s == 0 && !front && !back)) continue;
    }
    const cases::ClosestFeatureQuery cq{q.centre, m.vertex(f, 0), m.vertex(f, 1), m.vertex(f, 2)};
    const auto cf = closest_feature(cq);
    F.region = cf.region;
    const int r = static_cast<int>(cf.region);
    if (cf.region == Region::face) {
      F.wp = x - Q(dot(F.n, x - F.a) / dot(F.n, F.n)) * F.n;
    } else if (r >= static_cast<int>(Region::vertex0)) {
      F.wp = qv(m.vertex(f, r - static_cast<int>(Region::vertex0)));
    } else {
      const int k = r - static_cast<int>(Region::edge0);
      const QV s = qv(m.vertex(f, k)), e = qv(m.vertex(f, (k + 1) % 3)) - s;
      F.wp = s + Q(dot(x - s, e) / dot(e, e)) * e;
    }
    F.d2 = dot(F.wp - x, F.wp - x);
    const int c = cmp(F.d2, R2);
    record("overlap",
           c < 0    ? "positive"
           : c == 0 ? "zero"
                    : "none",
           up(mp(Q(abs(R2 - F.d2) / R2))), f);
    if (c > 0) continue;
    p.overlap[f] = c < 0 ? PfcPredicates::Overlap::positive : PfcPredicates::Overlap::zero;
    p.region[f] = cf.region;
    record("region", cases::to_string(cf.region), cf.margin * cases::longest_edge(cq) / q.radius,
           f);
  }

  p.compare = [&](int i, int j) {
    const int s = cmp(fs[j].d2, fs[i].d2);  // U_i - U_j has the sign of d_j^2 - d_i^2
    record("order",
           s > 0   ? "larger"
           : s < 0 ? "smaller"
                   : "tie",
           up(mp(Q(abs(fs[j].d2 - fs[i].d2) / R2))), i, j);
    return s;
  };
  // A link follows from the exact regions alone: it cannot flip unless a region does, so
  // its own margin is infinite (the region decisions carry the margins).
  p.linked = [&](int i, int j) {
    const bool l = cases::pfc_linked(m, i, fs[i].region, j);
    record("link", l ? "linked" : "apart", std::numeric_limits<double>::infinity(), i, j);
    return l;
  };

  // Closed segment x-w (w = WP_i) against closed facet j, excluding w itself: the parameters
  // t in [0, 1] with x + t (w - x) in the facet form an interval (plane condition, then the
  // three edge half-planes, each linear in t); it meets j elsewhere unless that interval is
  // empty or the single point t = 1.
  p.segment_meets = [&](int i, int j) {
    const Facet& J = fs[j];
    const QV w = fs[i].wp, dir = w - x;
    const Q hx = dot(J.n, x - J.a), hw = dot(J.n, w - J.a);
    Q lo = 0, hi = 1;
    bool empty = false;
    if (sgn(hx) != 0 || sgn(hw) != 0) {
      if (sgn(hx) * sgn(hw) > 0 || hx == hw) {
        empty = true;
      } else {
        lo = hi = hx / (hx - hw);
      }
    }
    const std::array<const QV*, 3> v = {&J.a, &J.b, &J.c};
    mpreal inside(1e300, prec);  // smallest signed distance of the crossing point to an edge line
    for (int k = 0; k < 3 && !empty; ++k) {
      const QV& s = *v[k];
      const QV e = *v[(k + 1) % 3] - s;
      const Q alpha = dot(cross(e, x - s), J.n), beta = dot(cross(e, dir), J.n);
      if (sgn(beta) == 0) {
        if (sgn(alpha) < 0) empty = true;
      } else if (sgn(beta) > 0) {
        lo = std::max(lo, Q(-alpha / beta));
      } else {
        hi = std::min(hi, Q(-alpha / beta));
      }
      if (lo > hi) empty = true;
    }
    const bool meets = !empty && !(lo == 1 && hi == 1);
    // Margin (units of R): distances of x and w to j's plane; for a crossing, the crossing
    // point's distance to j's edge lines divided by how fast it moves with w
    // (1 + |w - x| / (|h_x| + |h_w|), heights as distances).
    const mpreal nn = norm(mp(J.n));
    const mpreal dx = abs(mp(hx)) / nn, dw = abs(mp(hw)) / nn;
    mpreal margin = std::min(dx, dw);
    if (sgn(hx) * sgn(hw) < 0) {
      const Q t = hx / (hx - hw);
      const QV y = x + t * dir;
      for (int k = 0; k < 3; ++k) {
        const QV& s = *v[k];
        const QV e = *v[(k + 1) % 3] - s;
        const mpreal dist = mp(Q(dot(cross(e, y - s), J.n))) / (norm(mp(e)) * nn);
        inside = std::min(inside, abs(dist));
      }
      margin = std::min(margin, inside / (1 + norm(mp(dir)) / (dx + dw)));
    }
    record("segment", meets ? "meets" : "misses", up(margin / Rm), i, j);
    return meets;
  };

  const Q c(q.cos_cutoff);
  p.within = [&](int f, int g) {
    const Q d = dot(fs[f].n, fs[g].n), P = dot(fs[f].n, fs[f].n) * dot(fs[g].n, fs[g].n);
    const int sq = cmp(Q(d * d), Q(c * c * P));  // compares |cos theta| with |c|
    bool within;
    if (sgn(c) >= 0)
      within = sgn(d) >= 0 && sq >= 0;
    else
      within = sgn(d) >= 0 || sq <= 0;
    const bool tie = sq == 0 && sgn(d) == sgn(c);
    const double margin = tie ? 0.0 : up(mp(d) / sqrt(mp(P)) - mpreal(q.cos_cutoff, prec));
    record("angle", within ? "within" : "beyond", margin, f, g);
    return within;
  };

  // Hole check: the plane through WP_b (previous) and WP_d (new) containing the average
  // contact normal, m = e x (u_b/|u_b| + u_d/|u_d|) with e = WP_d - WP_b, u = WP - x (-n of the
  // facet when WP = x). Sides are signs of alpha s_b + beta s_d (weighted_sign).
  p.crosses = [&](int k, int f, int g) {
    const auto& prev = q.previous[k];
    const QV wb = qv(prev.wall_point), wd = fs[f].wp, e = wd - wb;
    QV ub = wb - x, ud = wd - x;
    if (exact::is_zero(ub)) ub = -fs[prev.facet].n;
    if (exact::is_zero(ud)) ud = -fs[f].n;
    const Q pb = dot(ub, ub), pd = dot(ud, ud);
    const QV cb = cross(e, ub), cd = cross(e, ud);
    bool defined = false;
    for (int a = 0; a < 3 && !defined; ++a) defined = weighted_sign(cb[a], pb, cd[a], pd) != 0;
    if (!defined) {
      record("plane", "undefined", 0.0, f, g);
      return true;
    }
    const RV ubm = mp(ub), udm = mp(ud);
    const RV avg = (1 / norm(ubm)) * ubm + (1 / norm(udm)) * udm;
    const RV mm = cross(mp(e), avg);
    const mpreal en = norm(mp(e)), dmin = std::min(norm(ubm), norm(udm)), an = norm(avg);
    bool above = false, below = false;
    const std::array<const QV*, 3> v = {&fs[g].a, &fs[g].b, &fs[g].c};
    for (const QV* vk : v) {
      const QV r = *vk - wb;
      const int s = weighted_sign(dot(cb, r), pb, dot(cd, r), pd);
      above |= s >= 0;
      below |= s <= 0;
      // Margin (units of R): the vertex's distance to the plane over how far rounding of the
      // wall points and normals can move it there (the plane turns about WP_b).
      const mpreal D = norm(mp(r)), dist = abs(dot(mm, mp(r))) / norm(mm);
      const mpreal cond = 1 + D / en + 2 * D / (dmin * an);
      record("plane",
             s > 0   ? "above"
             : s < 0 ? "below"
                     : "on",
             s == 0 ? 0.0 : up(dist / cond / Rm), f, g);
    }
    return above && below;
  };

  cases::PfcResult out = cases::resolve_pfc(q, p);
  // Constructions: WP the exact point rounded once; d, U, n, CP at 256 bits, rounded once.
  const RV xm = mp(x);
  std::vector<RV> normal(n);
  std::vector<mpreal> overlap(n);
  for (auto& ct : out.contacts) {
    const Facet& F = fs[ct.facet];
    ct.wall_point = nearest(F.wp);
    const mpreal d = sqrt(mp(F.d2));
    overlap[ct.facet] = Rm - d;
    const RV nf = mp(F.n);
    normal[ct.facet] = sgn(F.d2) == 0 ? (-1 / norm(nf)) * nf : (1 / d) * (mp(F.wp) - xm);
    ct.overlap = overlap[ct.facet].toDouble();
    ct.normal = nearest(normal[ct.facet]);
    ct.contact_point = nearest(xm + (Rm - overlap[ct.facet] / 2) * normal[ct.facet]);
  }
  for (auto& pc : out.proximity) {
    RV sum = {mpreal(0, prec), mpreal(0, prec), mpreal(0, prec)};
    mpreal u(0, prec);
    for (int f : pc.members) {
      sum = sum + overlap[f] * normal[f];
      u += overlap[f];
    }
    u /= static_cast<long>(pc.members.size());
    // Opposite members with equal overlaps cancel: the first member's normal then.
    const RV nrm = norm(sum) == 0 ? normal[pc.members[0]] : RV((1 / norm(sum)) * sum);
    pc.normal = nearest(nrm);
    pc.overlap = u.toDouble();
    pc.contact_point = nearest(xm + (Rm - u / 2) * nrm);
  }
  out.decisions = std::move(decisions);
  return out;
}

}  // namespace contactbench::reference
