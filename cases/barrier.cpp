#include "cases/barrier.hpp"

#include "cases/json_input.hpp"

#include <cmath>
#include <limits>

namespace contactbench::cases {

void validate(const BarrierQuery& q, const Where& where) {
  // d = +inf is a node infinitely far above the ground: valid, inactive.
  if (std::isnan(q.d) || !(q.d > 0))
    where.fail("d", "distance to the ground must be > 0 (the node has reached the ground)");
  auto positive_finite = [&](double v, const char* field) {
    if (!std::isfinite(v) || !(v > 0)) where.fail(field, "must be finite and > 0");
  };
  positive_finite(q.dhat, "dhat");
  positive_finite(q.kappa, "kappa");
  positive_finite(q.area, "area");
}

bool barrier_in_fast_domain(const BarrierQuery& q) {
  auto param = [](double v) { return v >= barrier_param_min && v <= barrier_param_max; };
  if (!param(q.dhat) || !param(q.kappa) || !param(q.area)) return false;
  return !(q.d < q.dhat) || q.d / q.dhat >= barrier_min_ratio;
}

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

double step_ulps(double x, double toward, long k) {
  for (long i = 0; i < k; ++i) x = std::nextafter(x, toward);
  return x;
}

// Labels from the query itself, so a rounding that moved d across a line never mislabels.
std::string label(const BarrierQuery& q) {
  const double s = q.d / q.dhat;
  const double ulp = std::nextafter(q.dhat, inf) - q.dhat;
  const char* config = q.d == q.dhat                                  ? "at_dhat"
                       : q.d < q.dhat && q.dhat - q.d <= 8 * ulp      ? "just_inside"
                       : q.d > q.dhat && q.d - q.dhat <= 8 * ulp      ? "just_outside"
                       : q.d > q.dhat                                 ? "inactive"
                       : s >= 0.5                                     ? "near"
                       : s >= 1e-3                                    ? "mid"
                       : s >= 1e-9                                    ? "far_below"
                                                                      : "tiny";
  auto near_end = [](double v) {
    return v < barrier_param_min * 1e3 || v > barrier_param_max * 1e-3;
  };
  auto beyond = [](double v) { return v < barrier_param_min || v > barrier_param_max; };
  const char* params = q.kappa == 1e5 && q.area == 0.25          ? "book"
                       : beyond(q.kappa) || beyond(q.area)       ? "extreme"
                       : near_end(q.kappa) || near_end(q.area)   ? "end"
                                                                 : "typical";
  const bool inside = barrier_in_fast_domain(q);
  const char* domain = !inside                                                   ? "outside"
                       : near_end(q.dhat) || near_end(q.kappa) || near_end(q.area) ||
                               (q.d < q.dhat && s < 1e3 * barrier_min_ratio)     ? "end"
                                                                                 : "inside";
  const std::string scale =
      q.dhat >= 1e-7 && q.dhat <= 1e5 ? scale_tag(q.dhat) : std::string("extreme");
  return regime({{"config", config}, {"scale", scale}, {"params", params}, {"domain", domain}});
}

// Keeps a query that is meant to be inside the fast domain inside it despite the roundings
// of log_uniform and of d = s·d̂ (an ulp or two).
void clamp_inside(BarrierQuery& q) {
  auto clamp = [](double& v) {
    if (v < barrier_param_min) v = barrier_param_min;
    if (v > barrier_param_max) v = barrier_param_max;
  };
  clamp(q.dhat);
  clamp(q.kappa);
  clamp(q.area);
  while (q.d < q.dhat && q.d / q.dhat < barrier_min_ratio) q.d = std::nextafter(q.d, inf);
}

// d = s·d̂ kept positive and finite (a subnormal d̂ times a small s could round to 0).
double times(double dhat, double s) {
  double d = dhat * s;
  if (!(d > 0)) d = std::numeric_limits<double>::denorm_min();
  if (!std::isfinite(d)) d = std::numeric_limits<double>::max();
  return d;
}

// s for one of the configurations (random draw).
double random_ratio(Rng& rng, long config) {
  switch (config) {
    case 0: return log_uniform(rng, 1e-9, 1e-3);                  // far_below
    case 1: return log_uniform(rng, barrier_min_ratio, 1e-9);     // tiny: largest values
    case 2: return log_uniform(rng, 1e-3, 0.5);                   // mid
    case 3: return 1 - log_uniform(rng, 1e-16, 0.5);              // near: 1 - s to 1e-16
    default: return log_uniform(rng, 1.0, 1e3);                   // inactive
  }
}

}  // namespace

Generated<BarrierQuery> Barrier::random(Rng& rng) {
  BarrierQuery q;
  const long config = uniform_int(rng, 0, 6);  // 5: a few ulps around d̂; 6: near again
  const long params = uniform_int(rng, 0, 3);
  const long domain = uniform_int(rng, 0, 15);  // 0..12 inside, 13..14 end, 15 outside
  q.dhat = log_uniform(rng, 1e-6, 1e4);
  if (params == 0) {
    q.kappa = 1e5;
    q.area = 0.25;
  } else {
    q.kappa = log_uniform(rng, 1.0, 1e12);
    q.area = log_uniform(rng, 1e-6, 1e2);
  }
  if (domain == 13 || domain == 14) {  // the ends of the fast domain, one or more at once
    auto end = [&](double& v) {
      if (uniform_int(rng, 0, 1))
        v = uniform_int(rng, 0, 1) ? log_uniform(rng, barrier_param_min, 1e-47)
                                   : log_uniform(rng, 1e47, barrier_param_max);
    };
    end(q.dhat);
    end(q.kappa);
    end(q.area);
  } else if (domain == 15) {  // beyond the fast domain: the reference only
    switch (uniform_int(rng, 0, 4)) {
      case 0: q.dhat = log_uniform(rng, 1e-320, 1e-50); break;  // subnormal .. 1e-50
      case 1: q.dhat = log_uniform(rng, 1e50, 1e308); break;
      case 2: q.kappa = log_uniform(rng, 1e50, 1e308); break;
      case 3: q.area = log_uniform(rng, 1e-320, 1e-50); break;
      default: break;  // s below 1e-12, set below
    }
  }
  if (config == 5) {
    const long k = uniform_int(rng, -8, 8);
    q.d = step_ulps(q.dhat, k < 0 ? 0.0 : inf, std::abs(k));
  } else {
    q.d = times(q.dhat, random_ratio(rng, config == 6 ? 3 : config));
    if (config == 3 || config == 6) {  // near stays below d̂
      if (!(q.d < q.dhat)) q.d = std::nextafter(q.dhat, 0.0);
    }
  }
  if (domain == 15 && q.dhat >= barrier_param_min && q.dhat <= barrier_param_max &&
      q.kappa <= barrier_param_max && q.area >= barrier_param_min)
    q.d = times(q.dhat, log_uniform(rng, 1e-300, barrier_min_ratio));
  if (domain < 15) clamp_inside(q);
  if (!(q.d > 0)) q.d = std::numeric_limits<double>::denorm_min();
  return {q, label(q)};
}

Generated<BarrierQuery> Barrier::degenerate(Rng& rng) {
  BarrierQuery q;
  const long domain = uniform_int(rng, 0, 15);  // 0..12 inside, 13..14 end, 15 outside
  // d̂ either the book's 0.01 (scaled by a power of two) or m·2^-10 on a dyadic grid.
  const double scale = pick_scale(rng);
  q.dhat = uniform_int(rng, 0, 1)
               ? 0.01 * scale
               : std::ldexp(static_cast<double>(uniform_int(rng, 1, 1023)), -10) * scale;
  if (uniform_int(rng, 0, 1)) {
    q.kappa = 1e5;
    q.area = 0.25;
  } else {
    q.kappa = std::ldexp(1.0, static_cast<int>(uniform_int(rng, 0, 40)));
    q.area = std::ldexp(1.0, static_cast<int>(uniform_int(rng, -20, 4)));
  }
  int min_k = 1, max_k = 39;  // s = 2^-k stays >= 2^-39 = 1.8e-12 inside the domain
  if (domain == 13 || domain == 14) {
    // Powers of two at the ends of the domain: 2^-166 = 1.07e-50, 2^166 = 9.4e49.
    auto end = [&](double& v) {
      if (uniform_int(rng, 0, 1)) v = std::ldexp(1.0, uniform_int(rng, 0, 1) ? -166 : 166);
    };
    end(q.dhat);
    end(q.kappa);
    end(q.area);
    min_k = 30;
  } else if (domain == 15) {
    switch (uniform_int(rng, 0, 3)) {
      case 0:  // d̂ subnormal: m·2^-1074
        q.dhat = std::ldexp(static_cast<double>(uniform_int(rng, 2, 1 << 20)), -1074);
        break;
      case 1:  // d̂ near the top of the doubles
        q.dhat = std::ldexp(static_cast<double>(uniform_int(rng, 1, 1023)), 1013);
        break;
      case 2:  // κ and A at the ends of the doubles
        q.kappa = std::ldexp(1.0, static_cast<int>(uniform_int(rng, 167, 1023)));
        q.area = std::ldexp(1.0, -static_cast<int>(uniform_int(rng, 167, 1074)));
        break;
      default:  // s = 2^-k far below 1e-12, down to the subnormal d = 2^-1074
        min_k = 40;
        max_k = 1100;
        break;
    }
  }
  switch (uniform_int(rng, 0, 7)) {
    case 0: q.d = q.dhat; break;                                                  // at d̂
    case 1: q.d = step_ulps(q.dhat, 0.0, uniform_int(rng, 1, 4)); break;          // inside
    case 2: q.d = step_ulps(q.dhat, inf, uniform_int(rng, 1, 4)); break;          // outside
    case 3:                                                                       // s = 1 - 2^-k
      q.d = q.dhat - std::ldexp(q.dhat, -static_cast<int>(uniform_int(rng, 1, 52)));
      break;
    case 4:                                                                       // s = 2^-k
      q.d = std::ldexp(q.dhat, -static_cast<int>(uniform_int(rng, min_k, max_k)));
      break;
    case 5:                                                                       // grid, active
      q.d = q.dhat * std::ldexp(static_cast<double>(uniform_int(rng, 1, 1023)), -10);
      break;
    case 6:                                                                       // grid, inactive
      q.d = q.dhat * std::ldexp(static_cast<double>(uniform_int(rng, 65, 4096)), -6);
      break;
    default:                                                                      // tiny, the largest values
      q.d = std::ldexp(q.dhat, -static_cast<int>(uniform_int(rng, std::max(min_k, 30), max_k)));
      break;
  }
  if (!(q.d > 0)) q.d = std::numeric_limits<double>::denorm_min();
  if (!std::isfinite(q.d)) q.d = std::numeric_limits<double>::max();
  return {q, label(q)};
}

std::vector<Named<BarrierQuery>> Barrier::canonical() {
  // The book's constants (d̂ = 0.01, κ = 1e5, A = 0.25 for n_seg = 4) at distances that
  // matter: s = 1/2 exactly (0.005 is exactly half of the double 0.01), decades down to
  // s = 1e-12, s -> 1 from below, the boundary d = d̂ and one ulp either side, and the
  // smallest height of the square drop (6.388 mm).
  auto book = [](double d) { return Query{d, 0.01, 1e5, 0.25}; };
  return {
      {"half_dhat", book(0.005)},
      {"tenth_dhat", book(0.001)},
      {"s_1e-6", book(1e-8)},
      {"s_1e-12", book(1e-14)},
      {"s_1_minus_1e-4", book(0.01 * (1 - 1e-4))},
      {"s_1_minus_1e-8", book(0.01 * (1 - 1e-8))},
      {"one_ulp_inside", book(std::nextafter(0.01, 0.0))},
      {"at_dhat", book(0.01)},
      {"one_ulp_outside", book(std::nextafter(0.01, 1.0))},
      {"far_above", book(0.5)},
      {"square_drop_min_height", book(0.0063880713)},
      {"unit_dhat_half", Query{0.5, 1.0, 1.0, 1.0}},
      // Beyond the fast domain (out_of_domain; the reference answers): both distances
      // subnormal with s = 1/2, and the book's s = 1/2 at d̂ = 2^1000.
      {"subnormal_half", Query{0x1p-1074, 0x1p-1073, 1e5, 0.25}},
      {"huge_dhat_half", Query{0x1p999, 0x1p1000, 1e5, 0.25}},
  };
}

nlohmann::json Barrier::to_json(const Query& q) {
  return {{"d", q.d}, {"dhat", q.dhat}, {"kappa", q.kappa}, {"area", q.area}};
}

BarrierQuery Barrier::from_json(const nlohmann::json& j, const Where& w) {
  reject_unknown_keys(j, {"d", "dhat", "kappa", "area"}, w);
  Query q;
  q.d = read_double(j, "d", w);
  if (j.contains("dhat")) q.dhat = read_double(j, "dhat", w);
  if (j.contains("kappa")) q.kappa = read_double(j, "kappa", w);
  if (j.contains("area")) q.area = read_double(j, "area", w);
  validate(q, w);  // bad input only: the fast domain is in_domain()
  return q;
}

nlohmann::json Barrier::to_json(const Result& r) {
  return {{"active", r.active}, {"value", r.value}, {"gradient", r.gradient}, {"hessian", r.hessian}};
}

}  // namespace contactbench::cases
