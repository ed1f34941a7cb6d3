#include "fast/ccd.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace contactbench::fast {
namespace {

constexpr double u = 0x1p-53;            // unit roundoff
constexpr double coef_rel = 0x1p-49;     // 16 u >= gamma_13 with slack (see header)
constexpr double tiny = 0x1p-1060;       // gradual underflow, absolute
constexpr double round_up = 1 + 0x1p-50; // makes a bound computed in round-to-nearest safe

// A value and its absolute-value twin: the same expression tree evaluated on |inputs| with
// every subtraction turned into an addition (the A of the forward error bound).
struct VM {
  double v, m;
};
inline VM operator+(VM a, VM b) { return {a.v + b.v, a.m + b.m}; }
inline VM operator-(VM a, VM b) { return {a.v - b.v, a.m + b.m}; }
inline VM operator*(VM a, VM b) { return {a.v * b.v, a.m * b.m}; }
inline VM operator*(double k, VM a) { return {k * a.v, k * a.m}; }  // k > 0

struct V3 {
  VM x, y, z;
};
inline V3 operator+(const V3& a, const V3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(const V3& a, const V3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator*(double k, const V3& a) { return {k * a.x, k * a.y, k * a.z}; }
inline V3 cross(const V3& a, const V3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline VM dot(const V3& a, const V3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Rounded difference of two input points: the leaves of every tree (one rounding each).
inline V3 diff(const cases::Vec3& a, const cases::Vec3& b) {
  const double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
  return {{x, std::abs(x)}, {y, std::abs(y)}, {z, std::abs(z)}};
}

// A linear vector function of t (Bernstein coefficients at t = 0 and t = 1) and the
// quadratic cross product of two of them.
using Lin = std::array<V3, 2>;
using Quad = std::array<V3, 3>;
inline Lin lin(const cases::Vec3& a0, const cases::Vec3& b0, const cases::Vec3& a1,
               const cases::Vec3& b1) {  // a(t) - b(t)
  return {diff(a0, b0), diff(a1, b1)};
}
inline Quad cross(const Lin& a, const Lin& b) {
  return {cross(a[0], b[0]), 0.5 * (cross(a[0], b[1]) + cross(a[1], b[0])), cross(a[1], b[1])};
}
inline Quad sub(const Quad& a, const Quad& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

// Bernstein coefficients (degree 3) of a quadratic . linear product.
inline std::array<VM, 4> dot3(const Quad& n, const Lin& d) {
  constexpr double third = 1.0 / 3.0, two_thirds = 2.0 / 3.0;
  return {dot(n[0], d[0]), two_thirds * dot(n[1], d[0]) + third * dot(n[0], d[1]),
          third * dot(n[2], d[0]) + two_thirds * dot(n[1], d[1]), dot(n[2], d[1])};
}
// Bernstein coefficients (degree 4) of a quadratic . quadratic product.
inline std::array<VM, 5> dot4(const Quad& a, const Quad& b) {
  constexpr double sixth = 1.0 / 6.0, two_thirds = 2.0 / 3.0;
  return {dot(a[0], b[0]), 0.5 * (dot(a[0], b[1]) + dot(a[1], b[0])),
          sixth * dot(a[0], b[2]) + two_thirds * dot(a[1], b[1]) + sixth * dot(a[2], b[0]),
          0.5 * (dot(a[1], b[2]) + dot(a[2], b[1])), dot(a[2], b[2])};
}

// Polynomials of one query in Bernstein form on the current sub-interval, with bounds.
struct Node {
  double f[4];
  double g[6][5];
  double ef, eg[6];
};

inline std::array<VM, 5> minus(const std::array<VM, 5>& a, const std::array<VM, 5>& b) {
  std::array<VM, 5> r;
  for (int k = 0; k < 5; ++k) r[k] = a[k] - b[k];
  return r;
}

template <std::size_t N>
double coefs_out(const std::array<VM, N>& in, double* out) {
  double a = 0;
  for (std::size_t k = 0; k < N; ++k) {
    out[k] = in[k].v;
    a = std::max(a, in[k].m);
  }
  return coef_rel * a + tiny;
}

// De Casteljau at 1/2 of c[0..d]: left half into l, right half into r; returns the added
// error bound d (u max|c| + 2^-1074) (halving may lose a bit in the subnormal range).
template <int D>
double split(const double* c, double* l, double* r) {
  double w[D + 1];
  double mx = 0;
  for (int i = 0; i <= D; ++i) {
    w[i] = c[i];
    mx = std::max(mx, std::abs(c[i]));
  }
  l[0] = w[0];
  r[D] = w[D];
  for (int k = 1; k <= D; ++k) {
    for (int i = 0; i <= D - k; ++i) w[i] = (w[i] + w[i + 1]) * 0.5;
    l[k] = w[0];
    r[D - k] = w[D - k];
  }
  return D * (u * mx * (1 + 0x1p-40) + 0x1p-1074);
}

template <int D>
bool all_below(const double* c, double e) {  // every coefficient < -e: the poly is < 0
  for (int i = 0; i <= D; ++i)
    if (!(c[i] < -e)) return false;
  return true;
}
template <int D>
bool no_root(const double* c, double e) {  // all > e or all < -e
  bool pos = true, neg = true;
  for (int i = 0; i <= D; ++i) {
    pos = pos && c[i] > e;
    neg = neg && c[i] < -e;
  }
  return pos || neg;
}

// Swept boxes over a sub-interval [t0, t1]: x(t) = x0 + t (x1 - x0) is linear, so its range
// is spanned by the two end positions. They are computed in double with error at most
// 3 u (|x0| + |x1|) per coordinate (t in [0, 1]; one subtraction, one product, one sum);
// we widen by 4 u (|x0| + |x1|) + 2^-1070, rounded up.
struct Boxes {
  const cases::CcdQuery* q;
  int split;  // vertices [0, split) against [split, 4)
  bool disjoint(double t0, double t1) const {
    for (int k = 0; k < 3; ++k) {
      double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
      for (int i = 0; i < 4; ++i) {
        const double a = q->x[i][k], b = q->x[i + 4][k];
        const double d = b - a;
        const double e = (4 * u * (std::abs(a) + std::abs(b)) + 0x1p-1070) * round_up;
        const double p0 = a + t0 * d, p1 = a + t1 * d;
        const int s = i < split ? 0 : 1;
        lo[s] = std::min({lo[s], p0 - e, p1 - e});
        hi[s] = std::max({hi[s], p0 + e, p1 + e});
      }
      if (hi[0] < lo[1] || hi[1] < lo[0]) return true;
    }
    return false;
  }
};

struct Search {
  int ng;         // number of g polynomials (3 vertex-face, 4 edge-edge)
  Boxes boxes;
  int nodes = 0;  // visited sub-intervals
  double toi = 1;

  bool excluded(const Node& n, double t0, int depth) const {
    if (no_root<3>(n.f, n.ef)) return true;
    for (int j = 0; j < ng; ++j)
      if (all_below<4>(n.g[j], n.eg[j])) return true;
    // Degenerate configurations (parallel edges, degenerate triangles) make f and g vanish
    // identically; the swept boxes still separate them.
    return boxes.disjoint(t0, t0 + std::ldexp(1.0, -depth));
  }
  // Depth-first, earliest half first. True when an unexcluded leaf was reached (toi set).
  bool run(const Node& n, double t0, int depth) {
    if (++nodes > ccd_max_nodes) {
      toi = t0;  // everything before t0 was excluded
      return true;
    }
    if (excluded(n, t0, depth)) return false;
    if (depth == ccd_max_depth) {
      toi = t0;
      return true;
    }
    Node l, r;
    const double af = split<3>(n.f, l.f, r.f);
    l.ef = r.ef = (n.ef + af) * round_up;
    for (int j = 0; j < ng; ++j) {
      const double ag = split<4>(n.g[j], l.g[j], r.g[j]);
      l.eg[j] = r.eg[j] = (n.eg[j] + ag) * round_up;
    }
    if (run(l, t0, depth + 1)) return true;
    return run(r, t0 + std::ldexp(1.0, -depth - 1), depth + 1);
  }
};

bool finite_node(const Node& n, int ng) {
  double s = n.ef;
  for (double c : n.f) s += std::abs(c);
  for (int j = 0; j < ng; ++j) {
    s += n.eg[j];
    for (double c : n.g[j]) s += std::abs(c);
  }
  return std::isfinite(s);
}

// Exact swept-box test (comparisons of doubles): disjoint boxes over [0, 1] => no contact.
bool boxes_disjoint(const cases::CcdQuery& q, std::initializer_list<int> a,
                    std::initializer_list<int> b) {
  for (int k = 0; k < 3; ++k) {
    double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
    for (int i : a) {
      alo = std::min({alo, q.x[i][k], q.x[i + 4][k]});
      ahi = std::max({ahi, q.x[i][k], q.x[i + 4][k]});
    }
    for (int i : b) {
      blo = std::min({blo, q.x[i][k], q.x[i + 4][k]});
      bhi = std::max({bhi, q.x[i][k], q.x[i + 4][k]});
    }
    if (ahi < blo || bhi < alo) return true;
  }
  return false;
}

}  // namespace

cases::CcdResult ccd(const cases::CcdQuery& q) { return ccd(q, nullptr); }

cases::CcdResult ccd(const cases::CcdQuery& q, CcdTrace* trace) {
  cases::CcdResult res;
  res.toi_up = std::numeric_limits<double>::quiet_NaN();
  const auto& x = q.x;
  for (const auto& v : x)
    if (!(v.cwiseAbs().maxCoeff() <= 0x1p200)) {  // also catches NaN
      res.hit = true;
      res.toi = 0;
      return res;
    }
  Node root;
  int ng;
  if (q.kind == cases::CcdKind::vertex_face) {
    if (boxes_disjoint(q, {0}, {1, 2, 3})) return res;
    // p = x0, triangle a = x1, b = x2, c = x3.
    const Lin ba = lin(x[2], x[1], x[6], x[5]), ca = lin(x[3], x[1], x[7], x[5]);
    const Lin pa = lin(x[0], x[1], x[4], x[5]), pb = lin(x[0], x[2], x[4], x[6]);
    const Lin pc = lin(x[0], x[3], x[4], x[7]);
    const Lin cb = lin(x[3], x[2], x[7], x[6]), ac = lin(x[1], x[3], x[5], x[7]);
    const Quad n = cross(ba, ca);
    root.ef = coefs_out(dot3(n, pa), root.f);
    root.eg[0] = coefs_out(dot4(n, cross(ba, pa)), root.g[0]);
    root.eg[1] = coefs_out(dot4(n, cross(cb, pb)), root.g[1]);
    root.eg[2] = coefs_out(dot4(n, cross(ac, pc)), root.g[2]);
    // p - a = u (b - a) + v (c - a) gives (b-a) x (p-a) = v n, (p-a) x (c-a) = u n,
    // (b-p) x (c-p) = (1-u-v) n, so |.|^2 <= |n|^2: necessary even when n = 0, and it
    // separates a point from a degenerate (collinear) triangle.
    const auto nn = dot4(n, n);
    const Quad kv = cross(ba, pa), ku = cross(pa, ca);
    root.eg[3] = coefs_out(minus(nn, dot4(kv, kv)), root.g[3]);
    root.eg[4] = coefs_out(minus(nn, dot4(ku, ku)), root.g[4]);
    const Lin bp = lin(x[2], x[0], x[6], x[4]), cp = lin(x[3], x[0], x[7], x[4]);
    const Quad kw = cross(bp, cp);
    root.eg[5] = coefs_out(minus(nn, dot4(kw, kw)), root.g[5]);
    ng = 6;
  } else {
    if (boxes_disjoint(q, {0, 1}, {2, 3})) return res;
    // Edge a = x0 x1, edge b = x2 x3; w = b0 - a0.
    const Lin da = lin(x[1], x[0], x[5], x[4]), db = lin(x[3], x[2], x[7], x[6]);
    const Lin w = lin(x[2], x[0], x[6], x[4]);
    const Quad m = cross(da, db);
    const Quad ks = cross(w, db), ku = cross(w, da);
    root.ef = coefs_out(dot3(m, w), root.f);
    root.eg[0] = coefs_out(dot4(m, ks), root.g[0]);           // s |m|^2 >= 0
    root.eg[1] = coefs_out(dot4(m, sub(m, ks)), root.g[1]);   // (1 - s) |m|^2 >= 0
    root.eg[2] = coefs_out(dot4(m, ku), root.g[2]);           // u |m|^2 >= 0
    root.eg[3] = coefs_out(dot4(m, sub(m, ku)), root.g[3]);   // (1 - u) |m|^2 >= 0
    // Any common point has w = s da - u db, so w x db = s m and w x da = u m: |.|^2 <= |m|^2
    // holds even for parallel edges (m = 0) and separates parallel edges that are apart.
    const auto mm = dot4(m, m);
    root.eg[4] = coefs_out(minus(mm, dot4(ks, ks)), root.g[4]);
    root.eg[5] = coefs_out(minus(mm, dot4(ku, ku)), root.g[5]);
    ng = 6;
  }
  if (!finite_node(root, ng)) {
    res.hit = true;
    res.toi = 0;
    return res;
  }
  Search s{ng, Boxes{&q, q.kind == cases::CcdKind::vertex_face ? 1 : 2}};
  if (s.run(root, 0.0, 0)) {
    res.hit = true;
    res.toi = s.toi;
  }
  if (trace) {
    trace->nodes = std::min(s.nodes, ccd_max_nodes);
    trace->budget_exhausted = s.nodes > ccd_max_nodes;
  }
  return res;
}

}  // namespace contactbench::fast
