// Reference closest feature: ../shared/sources/pfc-faceted-walls.txt (facet contact), with
// the regions of cases/closest_feature.hpp.
//
// Every input double is m·2^E with an integer m, so after scaling by a common power of two
// the whole query is integer: each decision is the sign of an integer polynomial and each
// construction an integer fraction. GMP integers (no gcd normalisation, unlike rationals)
// keep the exact stage a few microseconds. Signs are first tried with CGAL interval
// arithmetic (the filter); only the values the decided region needs are then computed
// exactly, because its constructions and margin need them anyway.
#include "reference/closest_feature.hpp"

#include "reference/src/cgal.hpp"
#include "reference/src/exact_vector.hpp"
#include "reference/src/filtered_sign.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace contactbench::reference {
namespace {

using cases::Region;
using exact::Interval;
using exact::IntegerPoints;

template <class T>
using V3 = exact::Vector3<T>;

// The nine decision values of the region rule, for any exact-enough number type:
// dn[k] = (p-v_k)·e_k, dp[k] = (p-v_k)·(v_{k-1}-v_k), s[k] = n·(e_k × (p-v_k)),
// with e_k = v_{k+1} - v_k and n = e_0 × (v_2 - v_0).
template <class T>
struct Decisions {
  std::array<T, 3> dn, dp, s;
};

template <class T>
Decisions<T> decisions(const std::array<V3<T>, 4>& v) {
  Decisions<T> out;
  const V3<T>* vert[3] = {&v[1], &v[2], &v[3]};
  std::array<V3<T>, 3> e, w;
  for (int k = 0; k < 3; ++k) {
    e[k] = *vert[(k + 1) % 3] - *vert[k];
    w[k] = v[0] - *vert[k];
  }
  const V3<T> n = cross(e[0], *vert[2] - *vert[0]);
  for (int k = 0; k < 3; ++k) {
    out.dn[k] = dot(w[k], e[k]);
    out.dp[k] = -dot(w[k], e[(k + 2) % 3]);
    out.s[k] = dot(n, cross(e[k], w[k]));
  }
  return out;
}

// The region rule (see cases::Region): vertex k iff dn[k] <= 0 and dp[k] <= 0; open edge
// k iff s[k] <= 0, dn[k] > 0 and dp[k+1] > 0; open face otherwise. In intervals (the
// filter of exact::filtered) it gives up (nullopt) as soon as a needed sign is uncertain.
std::optional<Region> interval_region(const cases::ClosestFeatureQuery& q) {
  std::array<V3<Interval>, 4> v;
  const cases::Vec3* src[4] = {&q.p, &q.a, &q.b, &q.c};
  for (int i = 0; i < 4; ++i) v[i] = V3<Interval>::of(*src[i]);
  const auto d = decisions(v);
  std::array<CGAL::Uncertain<CGAL::Sign>, 3> dn, dp, s;
  for (int k = 0; k < 3; ++k) {
    dn[k] = CGAL::sign(d.dn[k]);
    dp[k] = CGAL::sign(d.dp[k]);
    s[k] = CGAL::sign(d.s[k]);
  }
  // Compare Uncertain<Sign> with 0 through Uncertain<bool>.
  auto le0 = [](CGAL::Uncertain<CGAL::Sign> x) { return x != CGAL::POSITIVE; };
  auto gt0 = [](CGAL::Uncertain<CGAL::Sign> x) { return x == CGAL::POSITIVE; };
  for (int k = 0; k < 3; ++k) {
    const auto is_vertex = le0(dn[k]) & le0(dp[k]);
    if (!CGAL::is_certain(is_vertex)) return std::nullopt;
    if (CGAL::get_certain(is_vertex)) return static_cast<Region>(4 + k);
  }
  for (int k = 0; k < 3; ++k) {
    const auto is_edge = le0(s[k]) & gt0(dn[k]) & gt0(dp[(k + 1) % 3]);
    if (!CGAL::is_certain(is_edge)) return std::nullopt;
    if (CGAL::get_certain(is_edge)) return static_cast<Region>(1 + k);
  }
  return Region::face;
}

Region exact_region(const Decisions<mpz_class>& d) {
  for (int k = 0; k < 3; ++k)
    if (sgn(d.dn[k]) <= 0 && sgn(d.dp[k]) <= 0) return static_cast<Region>(4 + k);
  for (int k = 0; k < 3; ++k)
    if (sgn(d.s[k]) <= 0 && sgn(d.dn[k]) > 0 && sgn(d.dp[(k + 1) % 3]) > 0)
      return static_cast<Region>(1 + k);
  return Region::face;
}

}  // namespace

cases::ClosestFeatureResult closest_feature(const cases::ClosestFeatureQuery& q) {
  const IntegerPoints<4> iq = exact::to_integers<4, cases::Vec3>({&q.p, &q.a, &q.b, &q.c});
  const auto& v = iq.v;
  const V3<mpz_class>* vert[3] = {&v[1], &v[2], &v[3]};
  std::array<V3<mpz_class>, 3> e;
  for (int k = 0; k < 3; ++k) e[k] = *vert[(k + 1) % 3] - *vert[k];
  const V3<mpz_class> n = cross(e[0], *vert[2] - *vert[0]);
  const mpz_class n2 = dot(n, n);
  if (sgn(n2) == 0) throw cases::InputError("closest_feature: degenerate triangle (collinear vertices)");

  const Region region = exact::filtered([&] { return interval_region(q); },
                                         [&] { return exact_region(decisions(v)); });

  cases::ClosestFeatureResult r;
  r.region = region;
  const int kind = static_cast<int>(region);
  // Margin terms value^2 / norm^2 (squared distances to the region's bounding planes).
  std::vector<std::pair<mpz_class, mpz_class>> terms;
  mpz_class d2_num, d2_den = 1;
  if (kind >= 4) {  // vertex k: closest point is the vertex itself
    const int k = kind - 4;
    const auto w = v[0] - *vert[k];
    const mpz_class dn = dot(w, e[k]), dp = -dot(w, e[(k + 2) % 3]);
    terms.push_back({dn * dn, dot(e[k], e[k])});
    terms.push_back({dp * dp, dot(e[(k + 2) % 3], e[(k + 2) % 3])});
    r.point = k == 0 ? q.a : (k == 1 ? q.b : q.c);
    d2_num = dot(w, w);
  } else if (kind >= 1) {  // open edge k: v_k + t e_k, t = dn / |e_k|^2
    const int k = kind - 1;
    const auto w = v[0] - *vert[k];
    const mpz_class dn = dot(w, e[k]), e2 = dot(e[k], e[k]);
    const mpz_class s = dot(n, cross(e[k], w)), rest = e2 - dn;
    terms.push_back({s * s, n2 * e2});
    terms.push_back({dn * dn, e2});
    terms.push_back({rest * rest, e2});
    for (int i = 0; i < 3; ++i)
      r.point[i] = exact::quotient_to_double((*vert[k])[i] * e2 + dn * e[k][i], e2, iq.exp);
    d2_num = dot(w, w) * e2 - dn * dn;
    d2_den = e2;
  } else {  // open face: p minus its offset along n
    const auto w = v[0] - *vert[0];
    const mpz_class h = dot(n, w);
    for (int k = 0; k < 3; ++k) {
      const auto wk = v[0] - *vert[k];
      const mpz_class s = dot(n, cross(e[k], wk));
      terms.push_back({s * s, n2 * dot(e[k], e[k])});
    }
    for (int i = 0; i < 3; ++i) r.point[i] = exact::quotient_to_double(v[0][i] * n2 - h * n[i], n2, iq.exp);
    d2_num = h * h;
    d2_den = n2;
  }
  r.squared_distance = exact::quotient_to_double(d2_num, d2_den, 2 * iq.exp);
  // Smallest term, compared exactly by cross-multiplication; then relative to L^2.
  std::size_t best = 0;
  for (std::size_t i = 1; i < terms.size(); ++i)
    if (terms[i].first * terms[best].second < terms[best].first * terms[i].second) best = i;
  mpz_class L2 = 0;
  for (int k = 0; k < 3; ++k) L2 = std::max(L2, mpz_class(dot(e[k], e[k])));
  r.margin = exact::sqrt_up_to_double(terms[best].first, terms[best].second * L2);
  return r;
}

namespace {

// One closed half-space g·(x - o) >= 0 in exact rationals.
struct HalfSpace {
  V3<mpq_class> g, o;
};

// The closure of the set of points p whose closest point lies in `region` (the sets of
// cases::Region), as half-spaces: vertex k {dn_k <= 0, dp_k <= 0}; edge k {s_k <= 0,
// dn_k >= 0, dp_(k+1) >= 0}; face {s_k >= 0 for all k}.
std::vector<HalfSpace> region_halfspaces(const std::array<V3<mpq_class>, 3>& v, Region region) {
  std::array<V3<mpq_class>, 3> e, side;  // side[k] = n × e_k: s_k(p) = side[k]·(p - v_k)
  for (int k = 0; k < 3; ++k) e[k] = v[(k + 1) % 3] - v[k];
  const V3<mpq_class> n = cross(e[0], v[2] - v[0]);
  for (int k = 0; k < 3; ++k) side[k] = cross(n, e[k]);
  const int kind = static_cast<int>(region);
  if (kind >= 4) {
    const int k = kind - 4;
    return {{-e[k], v[k]}, {e[(k + 2) % 3], v[k]}};
  }
  if (kind >= 1) {
    const int k = kind - 1;
    return {{-side[k], v[k]}, {e[k], v[k]}, {-e[k], v[(k + 1) % 3]}};
  }
  return {{side[0], v[0]}, {side[1], v[1]}, {side[2], v[2]}};
}

bool inside(const std::vector<HalfSpace>& hs, const V3<mpq_class>& x) {
  for (const auto& h : hs)
    if (sgn(dot(h.g, x - h.o)) < 0) return false;
  return true;
}

// Solves the 1x1, 2x2 or 3x3 system G y = r exactly (Cramer); false when G is singular.
bool solve(const std::vector<std::vector<mpq_class>>& G, const std::vector<mpq_class>& r,
           std::vector<mpq_class>& y) {
  const std::size_t m = G.size();
  auto det = [&](const std::vector<std::vector<mpq_class>>& A) -> mpq_class {
    if (m == 1) return A[0][0];
    if (m == 2) return A[0][0] * A[1][1] - A[0][1] * A[1][0];
    return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
           A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
           A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  };
  const mpq_class d = det(G);
  if (sgn(d) == 0) return false;
  y.assign(m, 0);
  for (std::size_t i = 0; i < m; ++i) {
    auto A = G;
    for (std::size_t row = 0; row < m; ++row) A[row][i] = r[row];
    y[i] = det(A) / d;
  }
  return true;
}

}  // namespace

double closest_feature_distance_to_region(const cases::ClosestFeatureQuery& q, Region region) {
  auto qv = [](const cases::Vec3& x) { return V3<mpq_class>{x[0], x[1], x[2]}; };
  const std::array<V3<mpq_class>, 3> v = {qv(q.a), qv(q.b), qv(q.c)};
  const V3<mpq_class> p = qv(q.p);
  const auto hs = region_halfspaces(v, region);
  if (inside(hs, p)) return 0;
  // The nearest point of a polyhedron is the projection of p onto the intersection of the
  // planes active there; with at most three half-spaces, try every independent subset.
  std::optional<mpq_class> best;
  const std::size_t m = hs.size();
  for (unsigned mask = 1; mask < (1u << m); ++mask) {
    std::vector<const HalfSpace*> act;
    for (std::size_t i = 0; i < m; ++i)
      if (mask & (1u << i)) act.push_back(&hs[i]);
    std::vector<std::vector<mpq_class>> G(act.size(), std::vector<mpq_class>(act.size()));
    std::vector<mpq_class> r(act.size()), lambda;
    for (std::size_t i = 0; i < act.size(); ++i) {
      for (std::size_t j = 0; j < act.size(); ++j) G[i][j] = dot(act[i]->g, act[j]->g);
      r[i] = dot(act[i]->g, p - act[i]->o);
    }
    if (!solve(G, r, lambda)) continue;
    V3<mpq_class> y = p;  // y = p - sum lambda_i g_i lies on every active plane
    for (std::size_t i = 0; i < act.size(); ++i)
      for (int c = 0; c < 3; ++c) y[c] -= lambda[i] * act[i]->g[c];
    if (!inside(hs, y)) continue;
    const auto d = p - y;
    const mpq_class d2 = dot(d, d);
    if (!best || d2 < *best) best = d2;
  }
  if (!best) throw std::logic_error("closest_feature_distance_to_region: empty region");
  mpq_class L2 = 0;
  for (int k = 0; k < 3; ++k) {
    const auto ek = v[(k + 1) % 3] - v[k];
    L2 = std::max(L2, mpq_class(dot(ek, ek)));
  }
  return exact::sqrt_up_to_double(*best / L2);
}

double cgal_epick_squared_distance(const cases::ClosestFeatureQuery& q) {
  using K = CGAL::Exact_predicates_inexact_constructions_kernel;
  const K::Point_3 p(q.p.x(), q.p.y(), q.p.z());
  const K::Triangle_3 t(K::Point_3(q.a.x(), q.a.y(), q.a.z()), K::Point_3(q.b.x(), q.b.y(), q.b.z()),
                        K::Point_3(q.c.x(), q.c.y(), q.c.z()));
  return CGAL::squared_distance(p, t);
}

}  // namespace contactbench::reference
