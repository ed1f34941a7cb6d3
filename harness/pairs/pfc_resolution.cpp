#include "harness/pairs/pfc_resolution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace contactbench::harness {

std::vector<DecisionSpace> PfcResolutionPair::decision_space() {
  return {{"side", {"front", "back", "in_plane"}},
          {"region", {cases::region_names.begin(), cases::region_names.end()}},
          {"overlap", {"positive", "zero", "none"}},
          {"order", {"larger", "tie", "smaller"}},
          {"segment", {"meets", "misses"}},
          {"angle", {"within", "beyond"}},
          {"plane", {"above", "on", "below", "undefined"}},
          {"link",
           {"linked", "apart"},
           {{"boundary",
             "decided from the exact regions: it flips only with a region, whose "
             "boundary is covered under region"}}},
          {"inherit",
           {"inherited", "reduced", "no_link", "angle", "hole"},
           {{"boundary",
             "an outcome of the angle and plane decisions, whose boundaries are "
             "covered under those names"}}}};
}

PfcResolutionPair::CQuery PfcResolutionPair::to_c(const Query& q) {
  // The query's own arrays, read as the C structs: sides are bytes (PfcSides), a previous
  // contact is an int and three doubles (layout checked by suite plugin).
  static_assert(sizeof(cases::PfcSides) == 1 && sizeof(cases::Vec3) == 3 * sizeof(double) &&
                sizeof(std::array<int, 3>) == 3 * sizeof(int) &&
                sizeof(cases::PfcPrevious) == sizeof(contactbench_pfc_previous));
  const auto& m = *q.wall;
  CQuery c{};
  for (int k = 0; k < 3; ++k) c.centre[k] = q.centre[k];
  c.radius = q.radius;
  c.vertices = m.vertices().empty() ? nullptr : m.vertices().front().data();
  c.vertex_count = static_cast<int>(m.vertices().size());
  c.facets = m.facets().empty() ? nullptr : m.facets().front().data();
  c.facet_count = m.facet_count();
  c.sides = q.sides.empty() ? nullptr : reinterpret_cast<const unsigned char*>(q.sides.data());
  c.mode = q.mode == cases::PfcMode::full ? CONTACTBENCH_PFC_FULL : CONTACTBENCH_PFC_REDUCED;
  c.cos_cutoff = q.cos_cutoff;
  c.previous = q.previous.empty() ? nullptr : reinterpret_cast<const contactbench_pfc_previous*>(q.previous.data());
  c.previous_count = static_cast<int>(q.previous.size());
  return c;
}

PfcResolutionPair::Result PfcResolutionPair::from_c(const CResult& c, const Query& q) {
  const int facets = q.wall->facet_count(), max = CONTACTBENCH_PFC_MAX_CONTACTS;
  const int contacts = c.contact_count, groups = c.proximity_count;
  auto in = [](int v, int lo, int hi) { return v >= lo && v <= hi; };
  if (!in(contacts, 0, std::min(facets, max)))
    throw PluginError(fmt::format("field contact_count: {} is outside 0 .. {}", contacts, std::min(facets, max)));
  if (!in(groups, 0, max / 2))
    throw PluginError(fmt::format("field proximity_count: {} is outside 0 .. {}", groups, max / 2));
  Result r;
  r.traced = false;
  std::vector<int> members(static_cast<std::size_t>(groups), 0);
  const int last_previous = static_cast<int>(q.previous.size()) - 1;
  for (int k = 0; k < contacts; ++k) {
    const auto& a = c.contacts[k];
    auto fail = [&](const char* field, const std::string& why) {
      throw PluginError(fmt::format("field contacts[{}].{}: {}", k, field, why));
    };
    if (!in(a.facet, 0, facets - 1) || (k > 0 && a.facet <= c.contacts[k - 1].facet))
      fail("facet", fmt::format("{} is not a facet above the previous contact's", a.facet));
    if (!in(a.region, 0, static_cast<int>(cases::region_names.size()) - 1))
      fail("region", fmt::format("{} is not a region (0 face .. 6 vertex2)", a.region));
    if (!in(a.positive, 0, 1)) fail("positive", fmt::format("{} is neither 0 nor 1", a.positive));
    if (!in(a.active, 0, 1)) fail("active", fmt::format("{} is neither 0 nor 1", a.active));
    if (!in(a.inherits, -1, last_previous))
      fail("inherits", fmt::format("{} is outside -1 .. {}", a.inherits, last_previous));
    if (!in(a.why, CONTACTBENCH_PFC_INACTIVE, CONTACTBENCH_PFC_NO_STATE_HOLE))
      fail("why", fmt::format("{} is outside 0 inactive .. 5 hole", a.why));
    if (!in(a.group, -1, groups - 1)) fail("group", fmt::format("{} is outside -1 .. {}", a.group, groups - 1));
    if (a.group >= 0) ++members[static_cast<std::size_t>(a.group)];
    for (int j = 0; j < max; ++j) {
      const bool bit = (a.links >> j) & 1u;
      if (bit && (j >= contacts || j == k || !((c.contacts[j].links >> k) & 1u)))
        fail("links", fmt::format("bit {} is not a link to another contact that links back", j));
      if (bit && j > k) r.links.push_back({a.facet, c.contacts[j].facet});
    }
    cases::PfcContact t;
    t.facet = a.facet;
    t.region = static_cast<cases::Region>(a.region);
    t.wall_point = {a.wall_point[0], a.wall_point[1], a.wall_point[2]};
    t.overlap = a.overlap;
    t.normal = {a.normal[0], a.normal[1], a.normal[2]};
    t.contact_point = {a.contact_point[0], a.contact_point[1], a.contact_point[2]};
    t.positive = a.positive == 1;
    t.active = a.active == 1;
    t.inherits = a.inherits;
    t.why = static_cast<cases::PfcInherit>(a.why);
    r.contacts.push_back(t);
  }
  std::sort(r.links.begin(), r.links.end());
  for (int g = 0; g < groups; ++g) {
    if (members[static_cast<std::size_t>(g)] < 2)
      throw PluginError(fmt::format("field proximity[{}]: {} members (a group has two or more)", g,
                                    members[static_cast<std::size_t>(g)]));
    const auto& a = c.proximity[g];
    cases::PfcProximity p;
    for (int k = 0; k < contacts; ++k)
      if (c.contacts[k].group == g) p.members.push_back(c.contacts[k].facet);
    p.normal = {a.normal[0], a.normal[1], a.normal[2]};
    p.overlap = a.overlap;
    p.contact_point = {a.contact_point[0], a.contact_point[1], a.contact_point[2]};
    r.proximity.push_back(std::move(p));
  }
  return r;
}

namespace {

// The unit of a decision's margin and bound (fast/pfc_resolution.hpp): distances over the
// radius R, squared distances over R², angles as cosines.
const char* unit_of(std::string_view name) {
  if (name == "overlap" || name == "order") return "× radius²";
  if (name == "angle") return "cosine";
  if (name == "link") return "(none: from the regions)";
  return "× radius";
}

double bound_of(std::string_view name, const fast::PfcResolutionBounds& b) {
  if (name == "side") return b.side;
  if (name == "region") return b.region;
  if (name == "overlap") return b.overlap;
  if (name == "order") return b.order;
  if (name == "segment") return b.segment;
  if (name == "angle") return b.angle;
  return b.plane;
}

// The discrete outcome, section by section, as text (equal iff the outcomes are equal).
std::string contacts_of(const cases::PfcResult& r) {
  std::string s;
  for (const auto& c : r.contacts)
    s += fmt::format("{}:{}{} ", c.facet, cases::to_string(c.region), c.positive ? "+" : "0");
  return s;
}
std::string active_of(const cases::PfcResult& r) {
  std::string s;
  for (const auto& c : r.contacts)
    if (c.active) s += fmt::format("{}:{}:{} ", c.facet, cases::to_string(c.why), c.inherits);
  return s;
}
std::string links_of(const cases::PfcResult& r) {
  std::string s;
  for (const auto& l : r.links) s += fmt::format("{}-{} ", l[0], l[1]);
  return s;
}
std::string proximity_of(const cases::PfcResult& r) {
  std::string s;
  for (const auto& p : r.proximity) s += fmt::format("[{}] ", fmt::join(p.members, ","));
  return s;
}

}  // namespace

// Rule. Both variants run one logic (cases::resolve_pfc) over their own predicates and record
// every predicate they decide, in the same order; their outcomes can only part at a decision
// that came out differently. The first place where the two traces differ is that decision: a
// discrete difference is excused (boundary) only when the reference's exact margin there is
// within fast's bound for that decision. With no divergence in the traces (a logic fault) or
// at a link (a function of the regions, which agreed), the margin is infinite: wrong.
Comparison PfcResolutionPair::compare_with(const Query& q, const Result& ref, const Result& fast,
                                           const fast::PfcResolutionBounds& bounds) {
  Comparison c;
  for (const auto& d : ref.decisions)
    if (d.name != "link")
      c.reached(std::string(d.name), std::string(d.value), d.margin, bound_of(d.name, bounds),
                unit_of(d.name));
    else
      c.reached(std::string(d.name), std::string(d.value), d.margin, 0, unit_of(d.name));
  for (const auto& ct : ref.contacts)
    if (ct.active)
      c.reached("inherit", cases::to_string(ct.why), std::numeric_limits<double>::infinity(), 0,
                "(none: from angle and plane)");
  double margin = std::numeric_limits<double>::infinity(), bound = 0;
  const char* unit = "(no divergent decision)";
  // Without fast's trace (a plugin) the divergence is unknown: the reference's decision
  // closest to its boundary relative to fast's bound stands for it (links, exact
  // functions of the regions, never).
  if (!fast.traced) {
    unit = "(no decision near its boundary)";
    double closest = std::numeric_limits<double>::infinity();
    for (const auto& a : ref.decisions) {
      if (a.name == "link") continue;
      const double b = bound_of(a.name, bounds);
      const double ratio = a.margin <= b ? 0 : a.margin / b;
      if (ratio < closest) closest = ratio, margin = a.margin, bound = b, unit = unit_of(a.name);
    }
  }
  for (std::size_t k = 0; fast.traced && k < ref.decisions.size(); ++k) {
    const auto& a = ref.decisions[k];
    const bool same = k < fast.decisions.size() && a.name == fast.decisions[k].name &&
                      a.value == fast.decisions[k].value && a.i == fast.decisions[k].i &&
                      a.j == fast.decisions[k].j;
    if (same) continue;
    margin = a.margin;
    bound = a.name == "link" ? 0 : bound_of(a.name, bounds);
    unit = unit_of(a.name);
    break;
  }
  c.discrete("contacts", contacts_of(ref), contacts_of(fast), margin, bound, unit);
  c.discrete("links", links_of(ref), links_of(fast), margin, bound, unit);
  c.discrete("active", active_of(ref), active_of(fast), margin, bound, unit);
  c.discrete("proximity", proximity_of(ref), proximity_of(fast), margin, bound, unit);

  // Constructions of the contacts both list (relative to R; normals absolute).
  constexpr double u = 0x1p-53;
  const double R = q.radius, E2 = bounds.squared_distance;
  const double xr = q.centre.norm() / R;
  // U = R - sqrt(d^2): |sqrt(a) - sqrt(b)| <= min(|a - b| / sqrt(b), sqrt(|a - b|)).
  auto overlap_bound = [&](double d) {
    return (d > 0 ? std::min(E2 / d, std::sqrt(E2)) : std::sqrt(E2)) / R + 4 * u * (1 + d / R);
  };
  // n = (WP - x)/d turns by at most 2|dWP|/d; unit vectors differ by at most 2 (at d = 0 the
  // reference's normal is the facet's, fast's may be any direction).
  auto normal_bound = [&](double d) {
    return d > 0 ? std::min(2.0, 2 * bounds.point * R / d + 8 * u) : 2.0;
  };
  for (const auto& a : ref.contacts)
    for (const auto& b : fast.contacts) {
      if (a.facet != b.facet) continue;
      const double d = R - a.overlap, bu = overlap_bound(d), bn = normal_bound(d);
      c.continuous("wall_point", (a.wall_point - b.wall_point).norm() / R, bounds.point, "× radius");
      c.continuous("overlap", std::abs(a.overlap - b.overlap) / R, bu, "× radius");
      c.continuous("normal", (a.normal - b.normal).norm(), bn, "unit-vector distance");
      c.continuous("contact_point", (a.contact_point - b.contact_point).norm() / R,
                   bu / 2 + (1 + bu) * bn + 4 * u * (1 + xr), "× radius");
    }
  if (proximity_of(ref) == proximity_of(fast))
    for (std::size_t k = 0; k < ref.proximity.size(); ++k) {
      const auto &a = ref.proximity[k], &b = fast.proximity[k];
      double err = 0, sum_u = 0, worst_u = 0;
      cases::Vec3 sum = cases::Vec3::Zero();
      for (int f : a.members)
        for (const auto& ct : ref.contacts)
          if (ct.facet == f) {
            const double d = R - ct.overlap, bu = overlap_bound(d) * R;
            err += bu + ct.overlap * normal_bound(d);
            sum += ct.overlap * ct.normal;
            sum_u += ct.overlap;
            worst_u = std::max(worst_u, bu);
          }
      const double bn = sum.norm() > 0 ? 2 * err / sum.norm() + 16 * u : 2;
      const double bu = worst_u / R + 4 * u * (1 + sum_u / R);
      c.continuous("proximity_normal", (a.normal - b.normal).norm(), bn, "unit-vector distance");
      c.continuous("proximity_overlap", std::abs(a.overlap - b.overlap) / R, bu, "× radius");
      c.continuous("proximity_contact_point", (a.contact_point - b.contact_point).norm() / R,
                   bu / 2 + (1 + bu) * bn + 4 * u * (1 + xr), "× radius");
    }
  return c;
}

}  // namespace contactbench::harness
