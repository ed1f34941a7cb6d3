// Suite plugin: a user's kernel behind the C ABI (include/contactbench/) judged in place of
// the fast variant. Here the "plugins" are functions of this executable with the ABI's
// signatures (the library loading is tested by ctest on examples/plugin/): each family's
// to_c/from_c must lose nothing, so a plugin that is our own fast kernel gets exactly the
// fast variant's statistics; a crash, an exit and a value outside the ABI are PluginErrors.
#include "fast/barrier.hpp"
#include "fast/ccd.hpp"
#include "fast/closest_feature.hpp"
#include "fast/ground_ccd.hpp"
#include "fast/triangle_intersection.hpp"
#include "harness/registry.hpp"
#include "include/contactbench/barrier.h"
#include "include/contactbench/ccd.h"
#include "include/contactbench/closest_feature.h"
#include "include/contactbench/ground_ccd.h"
#include "include/contactbench/triangle_intersection.h"

#include <boost/test/unit_test.hpp>

#include <csignal>
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

// Faulty plugins: a crash on the 7th call, an exit, a region outside the ABI.
void crash_on_seventh(const contactbench_barrier_query* q, contactbench_barrier_result* r) {
  static int calls = 0;  // in the child: counts its own calls
  if (++calls == 7) std::raise(SIGSEGV);
  barrier_shim(q, r);
}
void exits(const contactbench_barrier_query*, contactbench_barrier_result*) { _exit(3); }
void region_nine(const contactbench_closest_feature_query* q, contactbench_closest_feature_result* r) {
  closest_feature_shim(q, r);
  r->region = 9;
}

std::string untimed(const harness::FamilyStats& s) {
  auto j = s.to_json();
  j.erase("time_ns");
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
      {"ccd", in_process("ccd", &ccd_shim)}};
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
  // Families without a C ABI say so (the CLI refuses --plugin for them).
  BOOST_TEST(!harness::find_family("edge_smoothing")->plugin_abi);
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

BOOST_AUTO_TEST_SUITE_END()
