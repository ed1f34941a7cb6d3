#include "harness/pairs/rounded_triangle_contact.hpp"

#include <algorithm>
#include <cmath>

namespace contactbench::harness {

namespace {

using cases::Vec3;

double segment_distance(const Vec3& x, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  const double ee = e.squaredNorm();
  const double t = ee > 0 ? std::clamp((x - a).dot(e) / ee, 0.0, 1.0) : 0.0;
  return (x - (a + t * e)).norm();
}

// Distance from x to the closed convex polygon s (vertices counter-clockwise about n).
double polygon_distance(const Vec3& x, const std::vector<Vec3>& s, const Vec3& n) {
  if (s.size() == 1) return (x - s[0]).norm();
  if (s.size() >= 3) {
    bool inside = true;
    for (std::size_t k = 0; k < s.size() && inside; ++k)
      inside = (s[(k + 1) % s.size()] - s[k]).cross(x - s[k]).dot(n) >= 0;
    if (inside) return std::abs((x - s[0]).dot(n.normalized()));
  }
  double best = INFINITY;
  const std::size_t edges = s.size() == 2 ? 1 : s.size();
  for (std::size_t k = 0; k < edges; ++k) best = std::min(best, segment_distance(x, s[k], s[(k + 1) % s.size()]));
  return best;
}

// Hausdorff distance of two convex polygons: attained at a vertex of one of them.
double hausdorff(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const Vec3& n) {
  double h = 0;
  for (const Vec3& x : a) h = std::max(h, polygon_distance(x, b, n));
  for (const Vec3& x : b) h = std::max(h, polygon_distance(x, a, n));
  return h;
}

// Vertex by vertex (same count, fast's order read cyclically from its best start): the
// largest vertex distance.
double vertex_error(const std::vector<Vec3>& ref, const std::vector<Vec3>& fast) {
  const std::size_t n = ref.size();
  double best = INFINITY;
  for (std::size_t k = 0; k < n; ++k) {
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, (fast[(i + k) % n] - ref[i]).norm());
    best = std::min(best, worst);
  }
  return best;
}

// The smallest sine of S's angles (1 for a point or a segment).
double smallest_sine(const std::vector<Vec3>& s) {
  if (s.size() < 3) return 1;
  double m = 1;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const Vec3 a = s[(k + s.size() - 1) % s.size()] - s[k], b = s[(k + 1) % s.size()] - s[k];
    m = std::min(m, a.cross(b).norm() / (a.norm() * b.norm()));
  }
  return m;
}

}  // namespace

Comparison RoundedTriangleContactPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                                    const fast::RoundedTriangleContactBounds& b) {
  Comparison c;
  const double L = b.L;
  c.reached("facing", ref.facing ? "facing" : "not_facing", ref.facing_margin, b.facing, "scale-free (eq. 37)");
  c.discrete("facing", ref.facing, fast.facing, ref.facing_margin, b.facing, "scale-free (eq. 37)");
  if (!ref.facing) {
    // A pair that fails (37) has no contact, and nothing else is computed.
    c.discrete("contact", false, fast.contact, ref.facing_margin, b.facing, "scale-free (eq. 37)");
    c.discrete("polygon", cases::polygon_kind(0), cases::polygon_kind(fast.polygon.size()), ref.facing_margin, b.facing,
               "scale-free (eq. 37)");
    return c;
  }
  if (!fast.facing) return c;  // the facing mismatch says it all
  c.reached("spheres_overlap", ref.spheres_overlap ? "overlap" : "apart", ref.overlap_margin, b.overlap, "relative");
  c.discrete("spheres_overlap", ref.spheres_overlap, fast.spheres_overlap, ref.overlap_margin, b.overlap, "relative");
  c.continuous("delta_s", std::abs(fast.delta_s - ref.delta_s) / L, b.delta_s, "× larger radius");

  const auto& S = ref.polygon;
  const auto& F = fast.polygon;
  const Vec3 n = q.c2 - q.c1;
  c.reached("polygon", cases::polygon_kind(S.size()), ref.count_margin, b.count, "× larger radius");
  c.discrete("polygon", cases::polygon_kind(S.size()), cases::polygon_kind(F.size()), ref.count_margin, b.count, "× larger radius");
  if (!S.empty() && !F.empty()) {
    c.continuous("polygon", hausdorff(S, F, n) / L, b.polygon, "× larger radius");
    if (S.size() == F.size())
      c.continuous("polygon_vertices", vertex_error(S, F) / L, 2 * b.polygon / smallest_sine(S), "× larger radius");
  }
  // Contact's margin is r_c² − h² when both have S; an S on one side only is the vertex
  // count's near miss (its margin and bound).
  const bool ref_s = !S.empty(), both = ref_s && !F.empty();
  const double h = ref_s ? std::sqrt(ref.h2) : 0;
  c.reached("contact", ref.contact ? "contact" : "no_contact", ref_s ? ref.contact_margin : ref.count_margin,
            ref_s ? b.contact_with(h, q) : b.count, ref_s ? "× larger radius²" : "× larger radius");
  c.discrete("contact", ref.contact, fast.contact, both ? ref.contact_margin : ref.count_margin,
             both ? b.contact_with(h, q) : b.count, both ? "× larger radius²" : "× larger radius");
  if (!both) return c;
  c.continuous("contact_point", (fast.contact_point - ref.contact_point).norm() / L, b.contact_point(h), "× larger radius");
  c.continuous("h2", std::abs(fast.h2 - ref.h2) / (L * L), b.h2(h), "× larger radius²");
  if (ref.contact && fast.contact)
    c.continuous("delta_t", std::abs(fast.delta_t - ref.delta_t) / L, b.delta_t(h, q), "× larger radius");
  return c;
}

}  // namespace contactbench::harness
