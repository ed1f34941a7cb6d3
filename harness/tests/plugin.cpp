// Suite plugin: a user's kernel behind the C ABI (include/contactbench/) judged in place of
// the fast variant. Here the "plugins" are functions of this executable with the ABI's
// signatures (the library loading is tested by ctest on examples/plugin/): each family's
// to_c/from_c must lose nothing, so a plugin that is our own fast kernel gets exactly the
// fast variant's statistics; a crash, an exit and a value outside the ABI are PluginErrors.
#include "fast/barrier.hpp"
#include "fast/ccd.hpp"
#include "fast/closest_feature.hpp"
#include "fast/edge_smoothing.hpp"
#include "fast/ellipsoid_contact.hpp"
#include "fast/ground_ccd.hpp"
#include "fast/pfc_resolution.hpp"
#include "fast/rounded_triangle_contact.hpp"
#include "fast/triangle_intersection.hpp"
#include "harness/registry.hpp"
#include "include/contactbench/barrier.h"
#include "include/contactbench/ccd.h"
#include "include/contactbench/closest_feature.h"
#include "include/contactbench/edge_smoothing.h"
#include "include/contactbench/ellipsoid_contact.h"
#include "include/contactbench/ground_ccd.h"
#include "include/contactbench/pfc_resolution.h"
#include "include/contactbench/rounded_triangle_contact.h"
#include "include/contactbench/triangle_intersection.h"

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <csignal>
#include <cstring>
#include <unistd.h>

using namespace contactbench;

namespace {

cases::Vec3 vec(const double* v) { return {v[0], v[1], v[2]}; }

// Our fast kernels behind the C ABI, written from the headers' documentation (not from the
// traits' conversions they test).
void closest_feature_shim(const contactbench_closest_feature_query* q, contactbench_closest_feature_result* r) {
  const auto res = fast::closest_feature({vec(q->p), vec(q->a), vec(q->b), vec(q->c)});
  for (int k = 0; k < 3; ++k) r->point[k] = res.point[k];
  r->squared_distance = res.squared_distance;
  r->region = static_cast<int>(res.region);
}
void barrier_shim(const contactbench_barrier_query* q, contactbench_barrier_result* r) {
  const auto res = fast::barrier({q->d, q->dhat, q->kappa, q->area});
  *r = {res.active ? 1 : 0, res.value, res.gradient, res.hessian};
}
void ground_ccd_shim(const contactbench_ground_ccd_query* q, contactbench_ground_ccd_result* r) {
  cases::GroundCcdQuery g;
  g.y_ground = q->y_ground;
  g.y.assign(q->y, q->y + q->n);
  g.py.assign(q->py, q->py + q->n);
  const auto res = fast::ground_ccd(g);
  *r = {res.alpha, res.binding};
}
void triangle_intersection_shim(const contactbench_triangle_intersection_query* q,
                                contactbench_triangle_intersection_result* r) {
  cases::TriangleIntersectionQuery t;
  for (int i = 0; i < 3; ++i) t.p[i] = vec(q->p[i]), t.q[i] = vec(q->q[i]);
  const auto res = fast::triangle_intersection(t);
  *r = {res.intersect ? 1 : 0, res.coplanar ? 1 : 0};
}
void ccd_shim(const contactbench_ccd_query* q, contactbench_ccd_result* r) {
  cases::CcdQuery c;
  c.kind = q->kind == CONTACTBENCH_CCD_EDGE_EDGE ? cases::CcdKind::edge_edge : cases::CcdKind::vertex_face;
  for (int i = 0; i < 8; ++i) c.x[i] = vec(q->x[i]);
  const auto res = fast::ccd(c);
  *r = {res.hit ? 1 : 0, res.toi, res.cut_short ? 1 : 0};
}
void rounded_triangle_contact_shim(const contactbench_rounded_triangle_contact_query* q,
                                   contactbench_rounded_triangle_contact_result* r) {
  cases::RoundedTriangleContactQuery t;
  for (int i = 0; i < 3; ++i) t.p[i] = vec(q->p[i]), t.q[i] = vec(q->q[i]);
  t.c1 = vec(q->c1), t.c2 = vec(q->c2), t.r1 = q->r1, t.r2 = q->r2;
  const auto res = fast::rounded_triangle_contact(t);
  std::memset(r, 0, sizeof *r);
  r->facing = res.facing ? 1 : 0;
  r->spheres_overlap = res.spheres_overlap ? 1 : 0;
  r->polygon_count = static_cast<int>(res.polygon.size());
  for (std::size_t i = 0; i < res.polygon.size(); ++i)
    for (int k = 0; k < 3; ++k) r->polygon[i][k] = res.polygon[i][k];
  for (int k = 0; k < 3; ++k) r->contact_point[k] = res.contact_point[k];
  r->h2 = res.h2;
  r->contact = res.contact ? 1 : 0;
  r->delta_s = res.delta_s;
  r->delta_t = res.delta_t;
}
// The plugin sees only the arrays: it builds its own mesh (adjacency) from them.
void edge_smoothing_shim(const contactbench_edge_smoothing_query* q, contactbench_edge_smoothing_result* r) {
  std::vector<cases::Vec3> vertices;
  for (int i = 0; i < q->vertex_count; ++i) vertices.push_back(vec(q->vertices + 3 * i));
  std::vector<std::array<int, 3>> facets;
  for (int f = 0; f < q->facet_count; ++f)
    facets.push_back({q->facets[3 * f], q->facets[3 * f + 1], q->facets[3 * f + 2]});
  cases::EdgeSmoothingQuery e;
  e.centre = vec(q->centre);
  e.radius = q->radius;
  e.mesh = std::make_shared<const cases::Mesh>(std::move(vertices), std::move(facets));
  e.facet = q->facet;
  const auto res = fast::edge_smoothing(e);
  *r = {static_cast<int>(res.region), res.side, static_cast<int>(res.zone), res.adjusted ? 1 : 0,
        res.centre_on_facet ? 1 : 0, res.polar ? 1 : 0, res.cone_i, res.cone_j,
        {res.normal[0], res.normal[1], res.normal[2]}, {res.point[0], res.point[1], res.point[2]}, res.overlap};
}
cases::Ellipsoid ellipsoid(const contactbench_ellipsoid& e) {
  cases::Ellipsoid x;
  x.centre = vec(e.centre), x.semi_axes = vec(e.semi_axes);
  x.quaternion = {e.quaternion[0], e.quaternion[1], e.quaternion[2], e.quaternion[3]};
  return x;
}
void ellipsoid_contact_shim(const contactbench_ellipsoid_contact_query* q, contactbench_ellipsoid_contact_result* r) {
  const auto res = fast::ellipsoid_contact({ellipsoid(q->a), ellipsoid(q->b)});
  std::memset(r, 0, sizeof *r);
  r->state = res.state == "separated" ? CONTACTBENCH_ELLIPSOID_SEPARATED
           : res.state == "touching"  ? CONTACTBENCH_ELLIPSOID_TOUCHING
                                      : CONTACTBENCH_ELLIPSOID_OVERLAPPING;
  r->root_count = static_cast<int>(res.roots.size());
  for (std::size_t i = 0; i < res.roots.size(); ++i) r->roots[i] = res.roots[i];
  r->F = res.F;
  for (int k = 0; k < 3; ++k) r->point[k] = res.point[k], r->normal[k] = res.normal[k];
  r->overlap = res.overlap;
}

// The wall, sides and previous contacts from the arrays; links and proximity groups as the
// header lays them out (bit masks and group indices over the contact slots).
void pfc_resolution_with(const fast::PfcSlips& slips, const contactbench_pfc_resolution_query* q,
                         contactbench_pfc_resolution_result* r) {
  std::vector<cases::Vec3> vertices;
  for (int i = 0; i < q->vertex_count; ++i) vertices.push_back(vec(q->vertices + 3 * i));
  std::vector<std::array<int, 3>> facets;
  for (int f = 0; f < q->facet_count; ++f)
    facets.push_back({q->facets[3 * f], q->facets[3 * f + 1], q->facets[3 * f + 2]});
  cases::PfcQuery p;
  p.centre = vec(q->centre);
  p.radius = q->radius;
  p.wall = std::make_shared<const cases::Mesh>(std::move(vertices), std::move(facets));
  if (q->sides)
    for (int f = 0; f < q->facet_count; ++f) p.sides.push_back(static_cast<cases::PfcSides>(q->sides[f]));
  p.mode = q->mode == CONTACTBENCH_PFC_FULL ? cases::PfcMode::full : cases::PfcMode::reduced;
  p.cos_cutoff = q->cos_cutoff;
  for (int k = 0; k < q->previous_count; ++k)
    p.previous.push_back({q->previous[k].facet, vec(q->previous[k].wall_point)});
  const auto res = fast::pfc_resolution(p, slips);
  std::memset(r, 0, sizeof *r);
  r->contact_count = static_cast<int>(res.contacts.size());
  std::vector<int> slot(static_cast<std::size_t>(q->facet_count), -1);
  for (std::size_t k = 0; k < res.contacts.size(); ++k) {
    const auto& c = res.contacts[k];
    auto& o = r->contacts[k];
    slot[static_cast<std::size_t>(c.facet)] = static_cast<int>(k);
    o.facet = c.facet;
    o.region = static_cast<int>(c.region);
    o.positive = c.positive, o.active = c.active, o.inherits = c.inherits;
    o.why = static_cast<int>(c.why);
    o.group = -1;
    for (int d = 0; d < 3; ++d)
      o.wall_point[d] = c.wall_point[d], o.normal[d] = c.normal[d], o.contact_point[d] = c.contact_point[d];
    o.overlap = c.overlap;
  }
  for (const auto& l : res.links) {
    const int a = slot[static_cast<std::size_t>(l[0])], b = slot[static_cast<std::size_t>(l[1])];
    r->contacts[a].links |= 1ull << b;
    r->contacts[b].links |= 1ull << a;
  }
  r->proximity_count = static_cast<int>(res.proximity.size());
  for (std::size_t g = 0; g < res.proximity.size(); ++g) {
    const auto& pc = res.proximity[g];
    for (int f : pc.members) r->contacts[slot[static_cast<std::size_t>(f)]].group = static_cast<int>(g);
    for (int d = 0; d < 3; ++d) r->proximity[g].normal[d] = pc.normal[d], r->proximity[g].contact_point[d] = pc.contact_point[d];
    r->proximity[g].overlap = pc.overlap;
  }
}
void pfc_resolution_shim(const contactbench_pfc_resolution_query* q, contactbench_pfc_resolution_result* r) {
  pfc_resolution_with({}, q, r);
}
// Planted slips of the family, as plugins: the smallest overlap wins; front and back swapped.
void pfc_winner_smallest(const contactbench_pfc_resolution_query* q, contactbench_pfc_resolution_result* r) {
  pfc_resolution_with({.winner_smallest = true}, q, r);
}
void pfc_side_flipped(const contactbench_pfc_resolution_query* q, contactbench_pfc_resolution_result* r) {
  pfc_resolution_with({.side_flipped = true}, q, r);
}
// A link one way only.
void pfc_one_way_link(const contactbench_pfc_resolution_query* q, contactbench_pfc_resolution_result* r) {
  pfc_resolution_shim(q, r);
  if (r->contact_count >= 2) r->contacts[0].links |= 2u, r->contacts[1].links &= ~1ull;
}

// Faulty plugins: a crash on the 7th call, an exit, a region outside the ABI.
void crash_on_seventh(const contactbench_barrier_query* q, contactbench_barrier_result* r) {
  static int calls = 0;  // in the child: counts its own calls
  if (++calls == 7) std::raise(SIGSEGV);
  barrier_shim(q, r);
}
void exits(const contactbench_barrier_query*, contactbench_barrier_result*) { _exit(3); }
void polygon_of_seven(const contactbench_rounded_triangle_contact_query* q,
                      contactbench_rounded_triangle_contact_result* r) {
  rounded_triangle_contact_shim(q, r);
  r->polygon_count = 7;
}
void root_count_minus_one(const contactbench_ellipsoid_contact_query* q, contactbench_ellipsoid_contact_result* r) {
  ellipsoid_contact_shim(q, r);
  r->root_count = -1;
}
void state_three(const contactbench_ellipsoid_contact_query* q, contactbench_ellipsoid_contact_result* r) {
  ellipsoid_contact_shim(q, r);
  r->state = 3;
}
void zone_five(const contactbench_edge_smoothing_query* q, contactbench_edge_smoothing_result* r) {
  edge_smoothing_shim(q, r);
  r->zone = 5;
}
void region_nine(const contactbench_closest_feature_query* q, contactbench_closest_feature_result* r) {
  closest_feature_shim(q, r);
  r->region = 9;
}

// The statistics without time, and without the length of fast's decision trace in the
// examples (pfc_resolution's plugin reports none).
std::string untimed(const harness::FamilyStats& s) {
  auto j = s.to_json();
  j.erase("time_ns");
  for (auto& [verdict, list] : j["examples"].items())
    for (auto& e : list)
      if (e.contains("fast") && e["fast"].is_object()) e["fast"].erase("decisions");
  return j.dump();
}

template <class Fn>
harness::Plugin in_process(const std::string& stem, Fn* fn) {
  return {"<test " + stem + ">", "contactbench_" + stem, reinterpret_cast<void*>(fn)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(plugin)

BOOST_AUTO_TEST_CASE(our_fast_kernel_as_a_plugin_gets_the_fast_variants_statistics) {
  const std::vector<std::pair<std::string, harness::Plugin>> plugins = {
      {"closest_feature", in_process("closest_feature", &closest_feature_shim)},
      {"barrier", in_process("barrier", &barrier_shim)},
      {"ground_ccd", in_process("ground_ccd", &ground_ccd_shim)},
      {"triangle_intersection", in_process("triangle_intersection", &triangle_intersection_shim)},
      {"ccd", in_process("ccd", &ccd_shim)},
      {"edge_smoothing", in_process("edge_smoothing", &edge_smoothing_shim)},
      {"rounded_triangle_contact", in_process("rounded_triangle_contact", &rounded_triangle_contact_shim)},
      {"ellipsoid_contact", in_process("ellipsoid_contact", &ellipsoid_contact_shim)},
      {"pfc_resolution", in_process("pfc_resolution", &pfc_resolution_shim)}};
  for (const auto& [name, p] : plugins)
    BOOST_TEST_CONTEXT(name) {
      const auto* f = harness::find_family(name);
      BOOST_REQUIRE(f);
      BOOST_TEST(f->plugin_abi);
      harness::CheckOptions o{.n = 1000, .seed = 11, .canonical = name != "ccd", .timing = false};
      const auto fast = f->check(o);
      o.plugin = &p;
      const auto plugged = f->check(o);
      BOOST_TEST(plugged.total.queries == fast.total.queries);
      BOOST_TEST(untimed(plugged) == untimed(fast));
    }
  // Every gated family has a C ABI.
  for (const auto& f : harness::families())
    if (f.gated()) BOOST_TEST(f.plugin_abi, f.name);
}

// pfc_resolution's plugin reports no decision trace; its rule (any reference decision within
// fast's bound excuses a difference) still finds planted slips wrong, and the query's
// previous contacts are read in place as the header's struct.
BOOST_AUTO_TEST_CASE(pfc_resolution_slips_as_plugins_are_wrong) {
  static_assert(sizeof(cases::PfcPrevious) == sizeof(contactbench_pfc_previous));
  const cases::PfcPrevious prev{7, {1, 2, 3}};
  const auto* c = reinterpret_cast<const contactbench_pfc_previous*>(&prev);
  BOOST_TEST(c->facet == 7);
  BOOST_TEST((c->wall_point[0] == 1 && c->wall_point[1] == 2 && c->wall_point[2] == 3));
  const auto* f = harness::find_family("pfc_resolution");
  for (auto* slip : {&pfc_winner_smallest, &pfc_side_flipped}) {
    const auto p = in_process("pfc_resolution", slip);
    harness::CheckOptions o{.n = 2000, .seed = 3, .canonical = true, .timing = false, .plugin = &p};
    const auto s = f->check(o).total;
    BOOST_TEST_MESSAGE("pfc slip as plugin: " << s.queries << " queries, " << s.wrong << " wrong");
    BOOST_TEST(s.wrong > 0u);
  }
}


BOOST_AUTO_TEST_CASE(a_crash_or_exit_is_a_plugin_error_naming_the_query_not_a_verdict) {
  const auto* f = harness::find_family("barrier");
  harness::CheckOptions o{.n = 200, .seed = 2, .canonical = false, .timing = false};
  auto message = [&](const harness::Plugin& p) -> std::string {
    o.plugin = &p;
    try {
      f->check(o);
    } catch (const harness::PluginError& e) {
      return e.what();
    }
    return "no error";
  };
  const auto crash = in_process("barrier", &crash_on_seventh);
  const auto m = message(crash);
  BOOST_TEST_INFO(m);
  BOOST_TEST(m.find("crashed (Segmentation fault, signal 11) on query ") != std::string::npos);
  BOOST_TEST(m.find('\n') == std::string::npos);
  const auto exit_plugin = in_process("barrier", &exits);
  const auto e = message(exit_plugin);
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("ended the process (exit status 3) on query ") != std::string::npos);
  // This process is intact: the same check with our kernel still runs.
  const auto honest = in_process("barrier", &barrier_shim);
  o.plugin = &honest;
  BOOST_TEST(f->check(o).total.queries == 200u);
}

BOOST_AUTO_TEST_CASE(a_value_outside_the_abi_is_a_plugin_error) {
  const auto p = in_process("closest_feature", &region_nine);
  harness::CheckOptions o{.n = 10, .seed = 2, .canonical = false, .timing = false, .plugin = &p};
  try {
    harness::find_family("closest_feature")->check(o);
    BOOST_FAIL("region 9 accepted");
  } catch (const harness::PluginError& e) {
    BOOST_TEST(std::string(e.what()).find("field region: 9 is not a region") != std::string::npos);
  }
}

// Variable-size results: a count beyond the header's capacity (or negative) and an enum value
// outside it are refused with one line naming the field.
BOOST_AUTO_TEST_CASE(a_count_beyond_capacity_is_a_plugin_error) {
  auto message = [](const std::string& family, const harness::Plugin& p) -> std::string {
    harness::CheckOptions o{.n = 10, .seed = 2, .canonical = false, .timing = false, .plugin = &p};
    try {
      harness::find_family(family)->check(o);
    } catch (const harness::PluginError& e) {
      return e.what();
    }
    return "no error";
  };
  const auto seven = in_process("rounded_triangle_contact", &polygon_of_seven);
  const auto m = message("rounded_triangle_contact", seven);
  BOOST_TEST_INFO(m);
  BOOST_TEST(m.find("field polygon_count: 7 is outside 0 .. 6") != std::string::npos);
  BOOST_TEST(m.find('\n') == std::string::npos);
  const auto negative = in_process("ellipsoid_contact", &root_count_minus_one);
  const auto n = message("ellipsoid_contact", negative);
  BOOST_TEST_INFO(n);
  BOOST_TEST(n.find("field root_count: -1 is outside 0 .. 4") != std::string::npos);
  const auto three = in_process("ellipsoid_contact", &state_three);
  const auto s = message("ellipsoid_contact", three);
  BOOST_TEST_INFO(s);
  BOOST_TEST(s.find("field state: 3 is not a state") != std::string::npos);
  const auto one_way = in_process("pfc_resolution", &pfc_one_way_link);
  const auto w = message("pfc_resolution", one_way);
  BOOST_TEST_INFO(w);
  BOOST_TEST(w.find("field contacts[0].links: bit 1 is not a link to another contact that links back") !=
             std::string::npos);
  const auto five = in_process("edge_smoothing", &zone_five);
  const auto z = message("edge_smoothing", five);
  BOOST_TEST_INFO(z);
  BOOST_TEST(z.find("field zone: 5 is not a zone") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
