// Suite `barrier`: the book's ground barrier (ipc-square-drop.txt, Implementation 8.3.1).
#include "harness/pairs/barrier.hpp"
#include "harness/pairs/ulp.hpp"
#include "harness/registry.hpp"
#include "harness/tests/test_util.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>

using namespace contactbench;
using cases::BarrierQuery;

namespace {

constexpr long double ln2 = 0.693147180559945309417232121458176568L;

// |r - exact| <= 0.5 ULP of r (plus a hair for the long-double evaluation of `exact`).
bool correctly_rounded(double r, long double exact) {
  const double toward = static_cast<long double>(r) < exact ? INFINITY : -INFINITY;
  const double spacing = std::abs(std::nextafter(r, toward) - r);
  return std::abs(static_cast<long double>(r) - exact) <= 0.5000001L * spacing;
}

// Central difference of f at d with step about delta, divided by the step actually taken
// (d ± delta round; their difference is exact).
template <class F>
double central(F f, double d, double delta) {
  const double hi = d + delta, lo = d - delta;
  return (f(hi) - f(lo)) / (hi - lo);
}

// Distances to test: s = d/d̂ at every decade 1e-12 ... 1e-1, and 1 - 10^-k for k = 1..10.
std::vector<double> decade_ratios() {
  std::vector<double> s;
  for (int k = 12; k >= 1; --k) s.push_back(std::pow(10.0, -k));
  for (int k = 1; k <= 10; ++k) s.push_back(1 - std::pow(10.0, -k));
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(barrier)

BOOST_AUTO_TEST_SUITE(reference)

// s = 1/2: b = A d̂ κ ln2 / 4, b' = -(Aκ/2)(1 + ln 2), b'' = Aκ (3d̂/2) / (2 d̂²/4) = 3Aκ/d̂.
BOOST_AUTO_TEST_CASE(closed_forms_at_half_dhat) {
  {  // unit constants: d = 1/2, d̂ = κ = A = 1
    const auto r = contactbench::reference::barrier({0.5, 1.0, 1.0, 1.0});
    BOOST_TEST(r.active);
    BOOST_TEST(correctly_rounded(r.value, ln2 / 4));
    BOOST_TEST(correctly_rounded(r.gradient, -(1 + ln2) / 2));
    BOOST_TEST(r.hessian == 3.0);
  }
  {  // the book's constants: 0.005 is exactly half of the double 0.01
    const double dhat = 0.01;
    BOOST_REQUIRE(0.005 == dhat / 2);
    const auto r = contactbench::reference::barrier({0.005, dhat, 1e5, 0.25});
    const long double A = 0.25L, K = 1e5L, D = dhat;
    BOOST_TEST(correctly_rounded(r.value, A * D * K * ln2 / 4));
    BOOST_TEST(correctly_rounded(r.gradient, -A * K / 2 * (1 + ln2)));
    BOOST_TEST(correctly_rounded(r.hessian, 3 * A * K / D));
  }
  // s = 1/4 with unit constants: b = (3/4) ln 2 · ... = (1/2)(-3/4)(-2 ln 2) = (3/4) ln 2,
  // b' = (1/2)(ln(1/4) + (-3/4)/(1/4)) = -(ln 2 + 3/2), b'' = (5/4)/(2/16) = 10.
  const auto q = contactbench::reference::barrier({0.25, 1.0, 1.0, 1.0});
  BOOST_TEST(correctly_rounded(q.value, 3 * ln2 / 4));
  BOOST_TEST(correctly_rounded(q.gradient, -(ln2 + 1.5L)));
  BOOST_TEST(q.hessian == 10.0);
}

BOOST_AUTO_TEST_CASE(zero_at_and_above_dhat) {
  for (double d : {0.01, std::nextafter(0.01, 1.0), 0.02, 1e300,
                   std::numeric_limits<double>::infinity()}) {
    for (auto r : {contactbench::reference::barrier({d, 0.01, 1e5, 0.25}),
                   contactbench::fast::barrier({d, 0.01, 1e5, 0.25})}) {
      BOOST_TEST(!r.active);
      BOOST_TEST(r.value == 0.0);
      BOOST_TEST(r.gradient == 0.0);
      BOOST_TEST(r.hessian == 0.0);
    }
  }
  // One ulp inside: active, value positive and tiny, pushing up (gradient < 0).
  const auto in = contactbench::reference::barrier({std::nextafter(0.01, 0.0), 0.01, 1e5, 0.25});
  BOOST_TEST(in.active);
  BOOST_TEST(in.value > 0.0);
  BOOST_TEST(in.value < 1e-25);
  BOOST_TEST(in.gradient < 0.0);
  BOOST_TEST(in.hessian > 0.0);
}

// The reference's own derivatives agree with central differences of its value.
BOOST_AUTO_TEST_CASE(derivatives_consistent) {
  const double dhat = 0.01;
  auto val = [&](double d) { return contactbench::reference::barrier({d, dhat, 1e5, 0.25}).value; };
  auto grad = [&](double d) { return contactbench::reference::barrier({d, dhat, 1e5, 0.25}).gradient; };
  for (double s : decade_ratios()) {
    const double d = s * dhat, delta = 1e-5 * std::min(d, dhat - d);
    const auto r = contactbench::reference::barrier({d, dhat, 1e5, 0.25});
    BOOST_TEST(central(val, d, delta) == r.gradient, boost::test_tools::tolerance(1e-6));
    BOOST_TEST(central(grad, d, delta) == r.hessian, boost::test_tools::tolerance(1e-6));
  }
}

// Invariance under exact scaling: d, d̂ -> 2^k d, 2^k d̂ and A -> 2^-k A leave b unchanged and
// scale b' by 2^-k, b'' by 2^-2k exactly; a correctly rounded reference must follow bit for
// bit wherever the results are normal doubles (k up to ±600: far outside the fast domain).
BOOST_AUTO_TEST_CASE(scaling_invariance) {
  int compared = 0;
  for (std::uint64_t i = 0; i < 3000; ++i) {
    auto rng = cases::query_rng(5, "barrier", "scaling", i);
    const auto q = (i % 2 ? cases::Barrier::degenerate(rng) : cases::Barrier::random(rng)).query;
    const int k = static_cast<int>(cases::uniform_int(rng, -600, 600));
    const cases::BarrierQuery s{std::ldexp(q.d, k), std::ldexp(q.dhat, k), q.kappa, std::ldexp(q.area, -k)};
    if (std::ldexp(s.d, -k) != q.d || std::ldexp(s.dhat, -k) != q.dhat || std::ldexp(s.area, k) != q.area)
      continue;  // a scaled input left the doubles or lost bits
    const auto a = contactbench::reference::barrier(q), b = contactbench::reference::barrier(s);
    BOOST_TEST_REQUIRE(a.active == b.active);
    auto normal = [](double x, double y) { return std::isnormal(x) && std::isnormal(y); };
    if (normal(a.value, b.value)) BOOST_TEST(b.value == a.value);
    if (normal(a.gradient, b.gradient)) BOOST_TEST(b.gradient == std::ldexp(a.gradient, -k));
    if (normal(a.hessian, b.hessian)) BOOST_TEST(b.hessian == std::ldexp(a.hessian, -2 * k));
    compared += normal(a.value, b.value);
  }
  BOOST_TEST(compared > 1000);
}

// d <= 0 (and NaN) is the caller's error: both kernels throw, the loader names the field.
BOOST_AUTO_TEST_CASE(nonpositive_distance_is_an_error) {
  for (double d : {0.0, -0.0, -1e-300, -0.005, std::numeric_limits<double>::quiet_NaN(),
                   -std::numeric_limits<double>::infinity()}) {
    BOOST_CHECK_THROW(contactbench::reference::barrier({d, 0.01, 1e5, 0.25}), std::domain_error);
    BOOST_CHECK_THROW(contactbench::fast::barrier({d, 0.01, 1e5, 0.25}), std::domain_error);
  }
  const cases::Where w{"queries.jsonl", "line 3"};
  for (const char* text : {R"({"d": 0})", R"({"d": -0.001})", R"({"d": "nan"})", R"({"d": 0.005, "dhat": 0})",
                           R"({"dhat": 0.01})"}) {
    try {
      harness::BarrierPair::query_from_json(nlohmann::json::parse(text), w);
      BOOST_ERROR("accepted " << text);
    } catch (const cases::InputError& e) {
      const std::string msg = e.what();
      BOOST_TEST(msg.find("queries.jsonl: line 3: field ") == 0, msg);
    }
  }
  const auto ok = harness::BarrierPair::query_from_json(nlohmann::json::parse(R"({"d": 0.005})"), w);
  BOOST_TEST(ok.dhat == 0.01);
  BOOST_TEST(ok.kappa == 1e5);
  BOOST_TEST(ok.area == 0.25);
}

// A misspelled key is an error naming it, not a silent fall-back to the default.
BOOST_AUTO_TEST_CASE(unknown_keys_rejected) {
  const cases::Where w{"queries.jsonl", "line 1"};
  for (const char* text : {R"({"d": 0.005, "d_hat": 1.0, "Kappa": 5})", R"({"d": 0.005, "Area": 1})"}) {
    try {
      harness::BarrierPair::query_from_json(nlohmann::json::parse(text), w);
      BOOST_ERROR("accepted " << text);
    } catch (const cases::InputError& e) {
      const std::string msg = e.what();
      BOOST_TEST(msg.find("unknown key") != std::string::npos, msg);
    }
  }
  const auto hex = harness::BarrierPair::query_from_json(
      nlohmann::json::parse(R"({"d": "0x1p-8", "dhat": "0x1p-6", "kappa": 5, "area": 1})"), w);
  BOOST_TEST(hex.d == 0x1p-8);
  BOOST_TEST(hex.kappa == 5.0);
}

// Every positive double is valid input: what the fast kernel cannot do (its stated domain,
// cases/barrier.hpp) is `out_of_domain`, never an InputError. The loader accepts these; the
// pair's in_domain() says no.
BOOST_AUTO_TEST_CASE(outside_fast_domain_is_accepted) {
  const cases::Where w{"queries.jsonl", "line 2"};
  for (const char* text : {R"({"d": 0.005, "kappa": 1e306})",  // fast Hessian +inf
                           R"({"d": 1e-320, "dhat": 1e-300})", // 2 d d dhat = 0 in double
                           R"({"d": 1e-20, "dhat": 0.01})",    // s = 1e-18 < 1e-12
                           R"({"d": 0.005, "area": 1e-60})", R"({"d": 0.5, "dhat": 1e60})",
                           R"({"d": "0x1p-1074", "dhat": "0x1p-1073"})",
                           R"({"d": 1.7e308, "dhat": 1.79e308, "kappa": 1e-320, "area": 1e300})"}) {
    const auto q = harness::BarrierPair::query_from_json(nlohmann::json::parse(text), w);
    BOOST_TEST(!harness::BarrierPair::in_domain(q), text);
    const auto r = contactbench::reference::barrier(q);  // answers, never throws
    BOOST_TEST(r.active, text);
  }
  // Inside: inactive nodes far above whatever d is; s exactly at the limit.
  for (const char* text : {R"({"d": 1e300})", R"({"d": 1e-14})"})
    BOOST_TEST(harness::BarrierPair::in_domain(
                   harness::BarrierPair::query_from_json(nlohmann::json::parse(text), w)),
               text);
  // eval: out_of_domain lines are counted, not failed (exit 0), and carry the reference.
  test::TempFile in("q.jsonl", "{\"d\": 1e-320, \"dhat\": 1e-300}\n{\"d\": 0.005}\n"), out("r.json");
  BOOST_TEST(test::run_cli({"eval", "--family", "barrier", "--input", in.str(), "--json", out.str()}) == 0);
  const auto records = nlohmann::json::parse(std::ifstream(out.path))["records"];
  BOOST_REQUIRE(records.size() == 2u);
  BOOST_TEST(records[0]["verdict"].get<std::string>() == "out_of_domain");
  BOOST_TEST(records[0]["reference"]["active"].get<bool>());
  BOOST_TEST(records[1]["verdict"].get<std::string>() == "agree");
}

// Hand-derived values at the ends of the doubles. With s = d/d̂:
//   b = A κ (d̂ - d)/2 · ln(d̂/d),  b' = -(A κ/2)(ln(d̂/d) + (d̂ - d)/d),  b'' = A κ (d + d̂)/(2 d²).
BOOST_AUTO_TEST_CASE(extremes_hand_derived) {
  using contactbench::reference::barrier;
  {  // Subnormal d = 2^-1074, d̂ = 2^-1073 (s = 1/2), A κ = 25000: b = 12500 ln2 · 2^-1074,
     // a subnormal: the integer nearest 12500 ln 2 = 8664.339 times 2^-1074; b' = -12500(ln2 + 1),
     // normal; b'' = 3·12500·2^1074 overflows: +inf.
    const auto r = barrier({0x1p-1074, 0x1p-1073, 1e5, 0.25});
    BOOST_TEST(r.active);
    BOOST_TEST(r.value == 8664 * 0x1p-1074);
    BOOST_TEST(correctly_rounded(r.gradient, -12500 * (ln2 + 1)));
    BOOST_TEST(std::isinf(r.hessian));
    BOOST_TEST(r.hessian > 0);
    // A κ = 1: b = ln2 · 2^-1075 = 0.35 · 2^-1074 rounds to 0.
    BOOST_TEST(barrier({0x1p-1074, 0x1p-1073, 1.0, 1.0}).value == 0.0);
  }
  {  // Near the top: d = 2^999, d̂ = 2^1000, κ = A = 1: b = 2^998 ln 2, b' = -(ln2 + 1)/2,
     // b'' = 3·2^999/2^1999 = 3·2^-1000 exactly.
    const auto r = barrier({0x1p999, 0x1p1000, 1.0, 1.0});
    BOOST_TEST(correctly_rounded(r.value, std::ldexp(ln2, 998)));
    BOOST_TEST(correctly_rounded(r.gradient, -(ln2 + 1) / 2));
    BOOST_TEST(r.hessian == 3 * 0x1p-1000);
  }
  {  // s = 2^-1074 (d subnormal, d̂ = 1), κ = A = 1: b = (1 - 2^-1074)/2 · 1074 ln 2 = 537 ln 2
     // to far below an ulp; b' ~ -2^1073 and b'' ~ 2^2147: both beyond the doubles.
    const auto r = barrier({0x1p-1074, 1.0, 1.0, 1.0});
    BOOST_TEST(correctly_rounded(r.value, 537 * ln2));
    BOOST_TEST(r.gradient == -std::numeric_limits<double>::infinity());
    BOOST_TEST(r.hessian == std::numeric_limits<double>::infinity());
  }
  {  // κ = A = 1e300 at the book's d, d̂: every field beyond the doubles, signs kept.
    const auto r = barrier({0.005, 0.01, 1e300, 1e300});
    BOOST_TEST(r.value == std::numeric_limits<double>::infinity());
    BOOST_TEST(r.gradient == -std::numeric_limits<double>::infinity());
    BOOST_TEST(r.hessian == std::numeric_limits<double>::infinity());
  }
  {  // κ = A = 2^-600 at s = 1/2, d̂ = 1: b = 2^-1200 ln2/4, b' = -2^-1201 (1 + ln 2) and
     // b'' = 3·2^-1200 all lie far below the smallest subnormal 2^-1074: they round to zero.
    const auto r = barrier({0.5, 1.0, 0x1p-600, 0x1p-600});
    BOOST_TEST(r.value == 0.0);
    BOOST_TEST(r.gradient == 0.0);  // -0 or +0: the exact value rounds to zero
    BOOST_TEST(r.hessian == 0.0);
  }
  {  // Exact ties on the subnormal grid: d = d̂ = 5·2^-1074 inactive, 4·2^-1074 active.
    BOOST_TEST(!barrier({0x5p-1074, 0x5p-1074, 1.0, 1.0}).active);
    const auto r = barrier({0x4p-1074, 0x5p-1074, 1e300, 1e300});
    BOOST_TEST(r.active);
    // b = A κ · 2^-1075 · ln(5/4) = 5.5e275, finite; b' = -(A κ/2)(ln(5/4) + 1/4) ~ -1e599: -inf.
    BOOST_TEST(correctly_rounded(r.value, static_cast<long double>(1e300) * 1e300 * 0x1p-1075L * std::log(1.25L)));
    BOOST_TEST(r.gradient == -std::numeric_limits<double>::infinity());
  }
  // The margin of `active`: exact |d - d̂|/d̂ rounded up.
  using contactbench::reference::barrier_active_margin;
  BOOST_TEST(barrier_active_margin({0.01, 0.01, 1, 1}) == 0.0);
  BOOST_TEST(barrier_active_margin({1 + 0x1p-52, 1.0, 1, 1}) == 0x1p-52);
  BOOST_TEST(barrier_active_margin({0x1p-1074, 1e300, 1, 1}) == 1.0);  // 1 - 1e-624, up
  BOOST_TEST(barrier_active_margin({0.75, 1.0, 1, 1}) == 0.25);
  BOOST_TEST(barrier_active_margin({1.0, 3.0, 1, 1}) == std::nextafter(2.0 / 3, 1.0));
  BOOST_TEST(std::isinf(barrier_active_margin({std::numeric_limits<double>::infinity(), 1.0, 1, 1})));
}

// At the corners of the domain every field of the fast kernel is a finite normal double
// within the stated bound: the domain is wide enough to be useful and narrow enough to hold.
BOOST_AUTO_TEST_CASE(domain_corners_within_bound) {
  const double lo = cases::barrier_param_min, hi = cases::barrier_param_max;
  int n = 0;
  for (double dhat : {lo, 1.0, hi})
    for (double kappa : {lo, hi})
      for (double area : {lo, hi})
        for (double s : {cases::barrier_min_ratio, 0.5, 1 - 0x1p-52}) {
          double d = s * dhat;
          while (d / dhat < cases::barrier_min_ratio) d = std::nextafter(d, INFINITY);
          if (!(d < dhat)) d = std::nextafter(dhat, 0.0);
          const cases::BarrierQuery q{d, dhat, kappa, area};
          cases::validate(q, {});
          BOOST_TEST_REQUIRE(harness::BarrierPair::in_domain(q));
          const auto r = contactbench::reference::barrier(q), f = contactbench::fast::barrier(q);
          BOOST_TEST_CONTEXT("d " << d << " dhat " << dhat << " kappa " << kappa << " area " << area) {
            for (double v : {f.value, f.gradient, f.hessian}) BOOST_TEST(std::isnormal(v));
            const auto b = contactbench::fast::barrier_bounds(q);
            BOOST_TEST(harness::ulp_error(f.value, r.value) <= b.value_ulp);
            BOOST_TEST(harness::ulp_error(f.gradient, r.gradient) <= b.gradient_ulp);
            BOOST_TEST(harness::ulp_error(f.hessian, r.hessian) <= b.hessian_ulp);
          }
          ++n;
        }
  BOOST_TEST(n == 36);
}

// Canonical and generated queries are valid input and carry their regime labels; a label's
// domain tag says whether the query lies in the fast domain; every configuration occurs.
BOOST_AUTO_TEST_CASE(generators_valid_and_labelled) {
  for (const auto& c : harness::BarrierPair::canonical({})) cases::validate(c.query, {"", c.name});
  std::map<std::string, int> tags;
  for (std::uint64_t i = 0; i < 20000; ++i) {
    for (const char* gen : {"random", "degenerate"}) {
      auto rng = cases::query_rng(1, "barrier", gen, i);
      const auto g = gen[0] == 'r' ? cases::Barrier::random(rng) : cases::Barrier::degenerate(rng);
      cases::validate(g.query, {"", gen});
      BOOST_TEST_REQUIRE(g.regime.find("config=") == 0u, g.regime);
      for (const char* axis : {" scale=", " params=", " domain="})
        BOOST_TEST_REQUIRE(g.regime.find(axis) != std::string::npos, g.regime);
      const bool outside = g.regime.find("domain=outside") != std::string::npos;
      BOOST_TEST_REQUIRE(outside == !harness::BarrierPair::in_domain(g.query), g.regime);
      harness::detail::for_each_tag(g.regime, [&](const std::string& t) { ++tags[t]; });
    }
  }
  for (const char* t : {"config=tiny", "config=far_below", "config=mid", "config=near",
                        "config=just_inside", "config=at_dhat", "config=just_outside",
                        "config=inactive", "domain=inside", "domain=end", "domain=outside",
                        "params=book", "params=typical", "params=end", "params=extreme"})
    BOOST_TEST(tags[t] > 100, t << ": " << tags[t]);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(fast)

// Finite differences of the fast value and gradient across decades of d/d̂, 1e-12 ... 1.
BOOST_AUTO_TEST_CASE(finite_differences_across_decades) {
  for (double dhat : {0.01, 1.0, 1024.0}) {
    auto val = [&](double d) { return contactbench::fast::barrier({d, dhat, 1e5, 0.25}).value; };
    auto grad = [&](double d) { return contactbench::fast::barrier({d, dhat, 1e5, 0.25}).gradient; };
    for (double s : decade_ratios()) {
      const double d = s * dhat, delta = 1e-5 * std::min(d, dhat - d);
      const auto r = contactbench::fast::barrier({d, dhat, 1e5, 0.25});
      BOOST_TEST_CONTEXT("d/dhat = " << s << ", dhat = " << dhat) {
        BOOST_TEST(r.value > 0.0);
        BOOST_TEST(r.gradient < 0.0);
        BOOST_TEST(r.hessian > 0.0);
        BOOST_TEST(central(val, d, delta) == r.gradient, boost::test_tools::tolerance(1e-6));
        BOOST_TEST(central(grad, d, delta) == r.hessian, boost::test_tools::tolerance(1e-6));
      }
    }
  }
}

// Near s = 1 the book's formula (s - 1 and ln s from the rounded s) loses bits; the fast
// kernel does not: it stays within the stated bound where the literal formula does not.
BOOST_AUTO_TEST_CASE(no_cancellation_near_dhat) {
  const double dhat = 0.01, kappa = 1e5, A = 0.25;
  double worst_book = 0;
  for (int k = 4; k <= 12; ++k) {
    const double d = dhat * (1 - std::pow(10.0, -k));
    const auto ref = contactbench::reference::barrier({d, dhat, kappa, A});
    const auto f = contactbench::fast::barrier({d, dhat, kappa, A});
    const auto b = contactbench::fast::barrier_bounds({d, dhat, kappa, A});
    BOOST_TEST(harness::ulp_error(f.value, ref.value) <= b.value_ulp);
    BOOST_TEST(harness::ulp_error(f.gradient, ref.gradient) <= b.gradient_ulp);
    // BarrierEnergy.val, literally (the published method barrier_published_book).
    const auto book = contactbench::fast::barrier_book_formula({d, dhat, kappa, A});
    worst_book = std::max(worst_book, harness::ulp_error(book.value, ref.value));
  }
  BOOST_TEST_MESSAGE("literal book formula near s = 1: up to " << worst_book << " ULP");
  BOOST_TEST(worst_book > 1000.0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(agreement)

BOOST_AUTO_TEST_CASE(flipped_boundary_is_wrong_exactly_there) {
  const cases::BarrierQuery at{0.01, 0.01, 1e5, 0.25}, in{std::nextafter(0.01, 0.0), 0.01, 1e5, 0.25};
  auto verdict = [](const cases::BarrierQuery& q) {
    const auto c = harness::BarrierActiveLeFault::compare(q, contactbench::reference::barrier(q),
                                                           harness::BarrierActiveLeFault::fast(q));
    return std::string(harness::to_string(harness::judge(c, harness::Agreement::approximate)));
  };
  BOOST_TEST(verdict(at) == "wrong");
  BOOST_TEST(verdict(in) == "agree");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
