// Published method, plain double: Möller 1997, "A fast triangle-triangle intersection test"
// (written from the paper). Signed distances of each triangle's vertices to the other's
// plane (n·x + d); rejection when one triangle is strictly on one side; otherwise both
// triangles cut the planes' line D = n_p x n_q in an interval, computed on D's largest
// coordinate axis by interpolating between the lone vertex and the other two (divisions);
// the closed intervals are compared. No epsilon: a distance is 0 only when it rounds to 0.
// Coplanar (every distance 0): the 2D test of fast/triangle_intersection.hpp with plain
// double signs on the projection along the normal's largest axis (the paper's edge-edge
// and point-in-triangle tests decide the same set).
#include "fast/triangle_intersection.hpp"

#include <algorithm>
#include <cmath>

namespace contactbench::fast {

namespace {

using cases::Vec3;

struct PlainDoublePolicy : TriangleTestPolicy {
  static int orient2(const Vec3& a, const Vec3& b, const Vec3& c, int k) { return orient2d_plain(a, b, c, k); }
};

// The interval [lo, hi] of a triangle on D (projected coordinates x, distances d); false when
// the distances are all 0 (coplanar).
bool interval(const double x[3], const double d[3], double& lo, double& hi) {
  int v;  // the vertex alone on its side
  if (d[0] * d[1] > 0) v = 2;
  else if (d[0] * d[2] > 0) v = 1;
  else if (d[1] * d[2] > 0 || d[0] != 0) v = 0;
  else if (d[1] != 0) v = 1;
  else if (d[2] != 0) v = 2;
  else return false;
  const int a = (v + 1) % 3, b = (v + 2) % 3;
  const double ta = x[v] + (x[a] - x[v]) * d[v] / (d[v] - d[a]);
  const double tb = x[v] + (x[b] - x[v]) * d[v] / (d[v] - d[b]);
  lo = std::min(ta, tb), hi = std::max(ta, tb);
  return true;
}

}  // namespace

cases::TriangleIntersectionResult triangle_intersection_moller(const cases::TriangleIntersectionQuery& query) {
  const auto &p = query.p, &q = query.q;
  cases::TriangleIntersectionResult r;
  const Vec3 nq = (q[1] - q[0]).cross(q[2] - q[0]);
  const double cq = -nq.dot(q[0]);
  double dp[3];
  for (int i = 0; i < 3; ++i) dp[i] = nq.dot(p[i]) + cq;
  if ((dp[0] > 0 && dp[1] > 0 && dp[2] > 0) || (dp[0] < 0 && dp[1] < 0 && dp[2] < 0)) return r;
  const Vec3 np = (p[1] - p[0]).cross(p[2] - p[0]);
  const double cp = -np.dot(p[0]);
  double dq[3];
  for (int i = 0; i < 3; ++i) dq[i] = np.dot(q[i]) + cp;
  if ((dq[0] > 0 && dq[1] > 0 && dq[2] > 0) || (dq[0] < 0 && dq[1] < 0 && dq[2] < 0)) return r;
  const Vec3 D = np.cross(nq);
  int k;
  D.cwiseAbs().maxCoeff(&k);
  double xp[3], xq[3];
  for (int i = 0; i < 3; ++i) xp[i] = p[i][k], xq[i] = q[i][k];
  double lp, hp, lq, hq;
  if (!interval(xp, dp, lp, hp) || !interval(xq, dq, lq, hq)) {
    r.coplanar = true;
    int a;
    np.cwiseAbs().maxCoeff(&a);
    r.intersect = detail::coplanar_meet<PlainDoublePolicy>(p, q, a);
    return r;
  }
  r.intersect = !(hp < lq || hq < lp);
  return r;
}

}  // namespace contactbench::fast
