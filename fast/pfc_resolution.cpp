#include "fast/pfc_resolution.hpp"

#include "fast/closest_feature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactbench::fast {

namespace {

using cases::PfcPredicates;
using cases::Vec3;
constexpr double u = 0x1p-53;

cases::ClosestFeatureQuery facet_query(const cases::PfcQuery& q, int f) {
  const auto& m = *q.wall;
  return {q.centre, m.vertex(f, 0), m.vertex(f, 1), m.vertex(f, 2)};
}

}  // namespace

bool pfc_resolution_in_domain(const cases::PfcQuery& q) {
  constexpr double lim = 0x1p100;
  if (!(q.radius >= 0x1p-100 && q.radius <= lim)) return false;
  if (q.centre.cwiseAbs().maxCoeff() > lim) return false;
  for (const auto& v : q.wall->vertices())
    if (v.cwiseAbs().maxCoeff() > lim) return false;
  for (const auto& p : q.previous)
    if (p.wall_point.cwiseAbs().maxCoeff() > lim) return false;
  for (int f = 0; f < q.wall->facet_count(); ++f)
    if (!closest_feature_in_domain(facet_query(q, f))) return false;
  return true;
}

PfcResolutionBounds pfc_resolution_bounds(const cases::PfcQuery& q) {
  const auto& m = *q.wall;
  const double R = q.radius;
  double region = 0, point = 0, e2 = 0, side = 0, kappa = 0, D = 0;
  for (int f = 0; f < m.facet_count(); ++f) {
    const auto cq = facet_query(q, f);
    const auto b = closest_feature_bounds(cq);
    const double L = cases::longest_edge(cq);
    const double k = L * L / m.normal(f).norm();
    region = std::max(region, b.decision * L / R);
    point = std::max(point, b.point_across * L / R);
    e2 = std::max(e2, b.squared_distance_across * L * L);
    side = std::max(side, 16 * u * k * ((q.centre - cq.a).norm() + L) / R);
    kappa = std::max(kappa, k);
    for (int c = 0; c < 3; ++c) D = std::max(D, (m.vertex(f, c) - q.centre).norm());
  }
  PfcResolutionBounds b;
  b.side = side;
  b.region = region;
  b.point = point;
  b.squared_distance = e2;
  b.overlap = e2 / (R * R) + 4 * u;
  b.order = 2 * e2 / (R * R);
  b.angle = 32 * u * kappa + 16 * u;
  b.segment = 2 * point + 32 * u * kappa * (D + R) / R;
  b.plane = 4 * point + 64 * u * (D + R) / R;
  return b;
}

cases::PfcResult pfc_resolution(const cases::PfcQuery& q, const PfcSlips& slips) {
  const auto& m = *q.wall;
  const int n = m.facet_count();
  const Vec3 x = q.centre;
  const double R = q.radius, R2 = R * R;
  std::vector<Vec3> normal(n), wp(n);
  std::vector<double> d2(n, 0);
  // The trace of decisions, in the reference's order (no margins): the harness finds where
  // the two runs part.
  std::vector<cases::PfcDecision> trace;
  auto record = [&](const char* name, const char* value, int i = -1, int j = -1) {
    trace.push_back({name, value, std::numeric_limits<double>::quiet_NaN(), i, j});
  };
  PfcPredicates p;
  p.overlap.assign(n, PfcPredicates::Overlap::none);
  p.region.assign(n, cases::Region::face);
  for (int f = 0; f < n; ++f) {
    const Vec3& a = m.vertex(f, 0);
    normal[f] = (m.vertex(f, 1) - a).cross(m.vertex(f, 2) - a);
    const auto sides = q.side_of(f);
    if (sides != cases::PfcSides::both) {
      double h = normal[f].dot(x - a);
      if (slips.side_flipped) h = -h;
      record("side", h > 0 ? "front" : h < 0 ? "back" : "in_plane", f);
      const bool front = (static_cast<int>(sides) & 1) != 0,
                 back = (static_cast<int>(sides) & 2) != 0;
      if ((h > 0 && !front) || (h < 0 && !back) || (h == 0 && !front && !back)) continue;
    }
    const auto cf = closest_feature(facet_query(q, f));
    wp[f] = cf.point;
    d2[f] = cf.squared_distance;
    record("overlap", d2[f] < R2 ? "positive" : d2[f] == R2 ? "zero" : "none", f);
    if (d2[f] > R2) continue;
    p.overlap[f] = d2[f] < R2 ? PfcPredicates::Overlap::positive : PfcPredicates::Overlap::zero;
    p.region[f] = cf.region;
    record("region", cases::to_string(cf.region), f);
  }
  p.compare = [&](int i, int j) {
    int s = (d2[j] > d2[i]) - (d2[j] < d2[i]);
    if (slips.winner_smallest) s = -s;
    record("order", s > 0 ? "larger" : s < 0 ? "smaller" : "tie", i, j);
    return s;
  };
  p.linked = [&](int i, int j) {
    const bool l = !(slips.link_no_vertex && p.region[i] >= cases::Region::vertex0) &&
                   cases::pfc_linked(m, i, p.region[i], j);
    record("link", l ? "linked" : "apart", i, j);
    return l;
  };
  auto segment_meets = [&](int i, int j) {
    if (slips.full_as_reduced) return false;
    const Vec3 &a = m.vertex(j, 0), &nj = normal[j], dir = wp[i] - x;
    const double hx = nj.dot(x - a), hw = nj.dot(wp[i] - a);
    double lo = 0, hi = 1;
    if (hx != 0 || hw != 0) {
      if ((hx > 0 && hw > 0) || (hx < 0 && hw < 0) || hx == hw) return false;
      lo = hi = hx / (hx - hw);
    }
    for (int k = 0; k < 3; ++k) {
      const Vec3& s = m.vertex(j, k);
      const Vec3 e = m.vertex(j, (k + 1) % 3) - s;
      const double alpha = e.cross(x - s).dot(nj), beta = e.cross(dir).dot(nj);
      if (beta == 0) {
        if (alpha < 0) return false;
      } else if (beta > 0) {
        lo = std::max(lo, -alpha / beta);
      } else {
        hi = std::min(hi, -alpha / beta);
      }
      if (lo > hi) return false;
    }
    return !(lo == 1 && hi == 1);
  };
  p.segment_meets = [&](int i, int j) {
    const bool meets = segment_meets(i, j);
    record("segment", meets ? "meets" : "misses", i, j);
    return meets;
  };
  auto within = [&](int f, int g) {
    if (slips.angle_unsigned) {
      const double d = normal[f].dot(normal[g]);
      const double P = normal[f].squaredNorm() * normal[g].squaredNorm();
      const double c2 = q.cos_cutoff * q.cos_cutoff;
      return q.cos_cutoff >= 0 ? d * d >= c2 * P : d * d <= c2 * P;
    }
    return normal[f].normalized().dot(normal[g].normalized()) >= q.cos_cutoff;
  };
  p.within = [&](int f, int g) {
    const bool w = within(f, g);
    record("angle", w ? "within" : "beyond", f, g);
    return w;
  };
  auto unit_normal = [&](int f) {
    return d2[f] == 0 ? Vec3(-normal[f].normalized()) : Vec3((wp[f] - x) / std::sqrt(d2[f]));
  };
  p.crosses = [&](int k, int f, int g) {
    const auto& prev = q.previous[k];
    const Vec3 e = wp[f] - prev.wall_point;
    const Vec3 ub = prev.wall_point - x;
    const Vec3 nb =
        ub.squaredNorm() == 0 ? Vec3(-normal[prev.facet].normalized()) : Vec3(ub.normalized());
    const Vec3 mm = e.cross(nb + unit_normal(f));
    if (mm.squaredNorm() == 0) {  // coincident wall points: undefined plane
      record("plane", "undefined", f, g);
      return true;
    }
    bool above = false, below = false;
    for (int c = 0; c < 3; ++c) {
      const double s = mm.dot(m.vertex(g, c) - prev.wall_point);
      above |= s >= 0;
      below |= s <= 0;
      record("plane", s > 0 ? "above" : s < 0 ? "below" : "on", f, g);
    }
    return above && below;
  };

  cases::PfcResult out = cases::resolve_pfc(q, p);
  out.decisions = std::move(trace);
  std::vector<double> overlap(n, 0);
  std::vector<Vec3> unit(n);
  for (auto& c : out.contacts) {
    const int f = c.facet;
    c.wall_point = wp[f];
    overlap[f] = R - std::sqrt(d2[f]);
    unit[f] = unit_normal(f);
    c.overlap = overlap[f];
    c.normal = unit[f];
    c.contact_point = x + (R - overlap[f] / 2) * unit[f];
  }
  for (auto& pc : out.proximity) {
    Vec3 sum = Vec3::Zero();
    double total = 0;
    for (int f : pc.members) {
      sum += slips.pc_unweighted ? unit[f] : Vec3(overlap[f] * unit[f]);
      total += overlap[f];
    }
    const double mean = total / static_cast<double>(pc.members.size());
    pc.normal = sum.squaredNorm() == 0 ? unit[pc.members[0]] : Vec3(sum.normalized());
    pc.overlap = mean;
    pc.contact_point = x + (R - mean / 2) * pc.normal;
  }
  return out;
}

}  // namespace contactbench::fast
