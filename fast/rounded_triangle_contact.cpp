#include "fast/rounded_triangle_contact.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace contactbench::fast {

namespace {

using cases::Vec2;
using cases::Vec3;
constexpr double u = 0x1p-53;

double cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Distance from x to the segment [a, b] and the nearest point.
double segment_distance(const Vec2& x, const Vec2& a, const Vec2& b, Vec2* nearest) {
  const Vec2 e = b - a;
  const double ee = e.squaredNorm();
  double t = ee > 0 ? (x - a).dot(e) / ee : 0;
  t = std::clamp(t, 0.0, 1.0);
  *nearest = a + t * e;
  return (x - *nearest).norm();
}

struct Polygon {
  std::array<Vec2, 12> v;
  int n = 0;
  void push(const Vec2& x) { v[n++] = x; }
};

// Sutherland–Hodgman: subject clipped by each closed half-plane left of clip's edges.
Polygon clip(const std::array<Vec2, 3>& subject, const std::array<Vec2, 3>& clipper, bool open) {
  Polygon out;
  for (const Vec2& x : subject) out.push(x);
  for (int k = 0; k < 3 && out.n > 0; ++k) {
    const Vec2 a = clipper[k], e = clipper[(k + 1) % 3] - a;
    const Polygon in = out;
    out.n = 0;
    for (int i = 0; i < in.n; ++i) {
      const Vec2 &s = in.v[(i + in.n - 1) % in.n], &x = in.v[i];
      const double ss = cross2(e, s - a), sx = cross2(e, x - a);
      if (open ? sx > 0 : sx >= 0) {
        if (ss < 0 && sx > 0) out.push(s + (ss / (ss - sx)) * (x - s));
        out.push(x);
      } else if (ss > 0) {
        out.push(s + (ss / (ss - sx)) * (x - s));
      }
    }
  }
  return out;
}

// Drops repeated vertices and vertices on the line through their neighbours (within tol).
void simplify(Polygon& p, double tol) {
  bool changed = true;
  while (changed && p.n > 1) {
    changed = false;
    for (int i = 0; i < p.n && p.n > 1; ++i) {
      const Vec2 &prev = p.v[(i + p.n - 1) % p.n], &x = p.v[i], &next = p.v[(i + 1) % p.n];
      bool drop = (x - next).norm() <= tol;
      if (!drop && p.n >= 3) {
        const Vec2 e = next - prev;
        const double len = e.norm();
        drop = len > tol && std::abs(cross2(e, x - prev)) <= tol * len &&
               (x - prev).dot(e) >= 0 && (x - next).dot(-e) >= 0;
      }
      if (drop) {
        std::copy(p.v.begin() + i + 1, p.v.begin() + p.n, p.v.begin() + i);
        --p.n;
        changed = true;
      }
    }
  }
}

double input_magnitude(const cases::RoundedTriangleContactQuery& q) {
  return std::max(q.c1.norm(), q.c2.norm()) + 2 * std::max(q.r1, q.r2) + (q.c2 - q.c1).norm();
}

}  // namespace

double rounded_triangle_contact_merge_tolerance(const cases::RoundedTriangleContactQuery& q) {
  return 4 * 64 * u * input_magnitude(q);
}

cases::RoundedTriangleContactResult rounded_triangle_contact(const cases::RoundedTriangleContactQuery& q) {
  return rounded_triangle_contact(q, RoundedTriangleContactVariant{});
}

cases::RoundedTriangleContactResult rounded_triangle_contact(const cases::RoundedTriangleContactQuery& q,
                                                             const RoundedTriangleContactVariant& f) {
  cases::RoundedTriangleContactResult r;
  const Vec3 d = q.c2 - q.c1;
  const Vec3 n1 = (q.p[1] - q.p[0]).cross(q.p[2] - q.p[0]), n2 = (q.q[1] - q.q[0]).cross(q.q[2] - q.q[0]);
  const double f1 = n1.dot(d), f2 = -n2.dot(d);
  r.facing = f1 > 0 && f2 > 0;  // eq. (37), first
  if (!r.facing && !f.facing_last) return r;
  const double dd = d.squaredNorm(), D = std::sqrt(dd), R1 = q.r1, R2 = q.r2;
  r.spheres_overlap = (R1 + R2) * (R1 + R2) > dd;
  r.delta_s = f.paper_delta_s ? D - R1 - R2 : R1 + R2 - D;
  const double t = (dd + R1 * R1 - R2 * R2) / (2 * dd);
  const Vec3 c = q.c1 + t * d;
  // Orthonormal frame of the plane, counter-clockwise about d: (u1, u2, d/|d|) right-handed.
  const Vec3 dn = d / D;
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(dn[i]) < std::abs(dn[k])) k = i;
  const Vec3 u1 = dn.cross(Vec3::Unit(k)).normalized(), u2 = dn.cross(u1);
  auto plane = [&](const Vec3& x) {
    const Vec3 y = (x - q.c1) - t * d;  // x − c, differences first
    return Vec2(y.dot(u1), y.dot(u2));
  };
  std::array<Vec2, 3> a = {plane(q.p[0]), plane(q.p[1]), plane(q.p[2])};
  std::array<Vec2, 3> b = {plane(q.q[0]), plane(q.q[2]), plane(q.q[1])};  // counter-clockwise
  if (f.facing_last) {  // the fault's kernel orients the projections itself
    if (f1 < 0) std::swap(a[1], a[2]);
    if (f2 < 0) std::swap(b[1], b[2]);
  }
  Polygon s = clip(a, b, f.open_half_planes);
  simplify(s, rounded_triangle_contact_merge_tolerance(q));
  if (f.dot_order && s.n > 2) {
    const Vec2 p1 = s.v[0];
    std::sort(s.v.begin() + 1, s.v.begin() + s.n, [&](const Vec2& x, const Vec2& y) { return x.dot(p1) < y.dot(p1); });
  }
  // Output order: counter-clockwise, from the lexicographically smallest 3D vertex.
  std::array<Vec3, 12> v3;
  for (int i = 0; i < s.n; ++i) v3[i] = c + s.v[i].x() * u1 + s.v[i].y() * u2;
  int first = 0;
  for (int i = 1; i < s.n; ++i)
    if (std::lexicographical_compare(v3[i].data(), v3[i].data() + 3, v3[first].data(), v3[first].data() + 3))
      first = i;
  for (int i = 0; i < s.n; ++i) r.polygon.push_back(v3[(first + i) % s.n]);
  if (s.n == 0) return r;
  // c_p: the origin of the plane picture when inside S, else the nearest boundary point.
  Vec2 cp = s.v[0];
  bool inside = s.n >= 3;
  for (int i = 0; i < s.n && inside; ++i)
    if (cross2(s.v[(i + 1) % s.n] - s.v[i], -s.v[i]) < 0) inside = false;
  if (inside) {
    cp = Vec2::Zero();
  } else {
    double best = s.v[0].norm();
    const int edges = s.n == 1 ? 0 : s.n == 2 ? 1 : s.n;
    for (int i = 0; i < edges; ++i) {
      Vec2 y;
      const double dist = segment_distance(Vec2::Zero(), s.v[i], s.v[(i + 1) % s.n], &y);
      if (dist < best) best = dist, cp = y;
    }
  }
  r.contact_point = c + cp.x() * u1 + cp.y() * u2;
  r.h2 = cp.squaredNorm();
  const double td = (dd + R1 * R1 - R2 * R2) / (2 * D), rc2 = R1 * R1 - td * td;
  r.contact = r.h2 < rc2;
  const double h2 = f.h_for_h2 ? r.h2 * r.h2 : r.h2;  // the fault reads "h = |c - c_p|^2" literally
  if (r.contact) r.delta_t = r.delta_s - R1 - R2 + std::sqrt(R1 * R1 - h2) + std::sqrt(R2 * R2 - h2);
  return r;
}

RoundedTriangleContactBounds rounded_triangle_contact_bounds(const cases::RoundedTriangleContactQuery& q) {
  RoundedTriangleContactBounds b;
  b.L = std::max(q.r1, q.r2);
  b.eps = 64 * u * input_magnitude(q);
  b.facing = 32 * u;
  b.overlap = 8 * u;
  b.polygon = 12 * b.eps / b.L;
  b.count = 6 * b.eps / b.L;
  b.delta_s = 8 * u * (q.r1 + q.r2 + (q.c2 - q.c1).norm()) / b.L;
  return b;
}

double RoundedTriangleContactBounds::contact_point(double h) const {
  const double e = 12 * eps;
  return (2 * eps + 2 * std::sqrt(e * (h + e))) / L;
}

double RoundedTriangleContactBounds::h2(double h) const {
  const double e = 12 * eps;
  return ((2 * h + e) * e + 4 * u * h * h) / (L * L);
}

double RoundedTriangleContactBounds::contact_with(double h, const cases::RoundedTriangleContactQuery& q) const {
  const double dd = (q.c2 - q.c1).squaredNorm(), D = std::sqrt(dd), R1 = q.r1, R2 = q.r2;
  const double td = std::abs((dd + R1 * R1 - R2 * R2) / (2 * D)), E = (dd + R1 * R1 + R2 * R2) / (2 * D);
  return 8 * u * (R1 * R1 + td * E + td * td) / (L * L) + h2(h);
}

double RoundedTriangleContactBounds::delta_t(double h, const cases::RoundedTriangleContactQuery& q) const {
  const double dh2 = h2(h) * L * L, D = (q.c2 - q.c1).norm();
  return (std::sqrt(dh2 + 4 * u * q.r1 * q.r1) + std::sqrt(dh2 + 4 * u * q.r2 * q.r2) +
          8 * u * (q.r1 + q.r2 + D)) / L;
}

bool rounded_triangle_contact_in_domain(const cases::RoundedTriangleContactQuery& q) {
  auto ok = [](double x) { return x == 0 || (std::abs(x) >= 0x1p-400 && std::abs(x) <= 0x1p400); };
  for (const auto* t : {&q.p, &q.q})
    for (const Vec3& v : *t)
      for (int k = 0; k < 3; ++k)
        if (!ok(v[k])) return false;
  for (const Vec3* c : {&q.c1, &q.c2})
    for (int k = 0; k < 3; ++k)
      if (!ok((*c)[k])) return false;
  return ok(q.r1) && ok(q.r2);
}

double delta_t_of_h(double r1, double r2, double distance, double h) {
  const double td = (distance * distance + r1 * r1 - r2 * r2) / (2 * distance);
  const double rc2 = r1 * r1 - td * td;
  if (!(h >= 0) || h * h > rc2) return std::numeric_limits<double>::quiet_NaN();
  const double delta_s = r1 + r2 - distance;
  return delta_s - r1 - r2 + std::sqrt(r1 * r1 - h * h) + std::sqrt(r2 * r2 - h * h);
}

std::vector<std::pair<double, double>> delta_t_curve(double r1, double r2, double distance, int samples) {
  const double td = (distance * distance + r1 * r1 - r2 * r2) / (2 * distance);
  const double rc2 = r1 * r1 - td * td;
  std::vector<std::pair<double, double>> out;
  if (!(rc2 > 0) || samples < 1) return out;
  const double rc = std::sqrt(rc2);
  for (int i = 0; i <= samples; ++i) {
    const double h = i == samples ? rc : rc * i / samples;
    // At h = r_c the rounded sqrt may land an ulp beyond the circle: clamp the radicands.
    const double dt = r1 + r2 - distance - r1 - r2 + std::sqrt(std::max(0.0, r1 * r1 - h * h)) +
                      std::sqrt(std::max(0.0, r2 * r2 - h * h));
    out.emplace_back(h, dt);
  }
  return out;
}

}  // namespace contactbench::fast
