#include "cases/ground_ccd.hpp"

#include "cases/json_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace contactbench::cases {

void validate(const GroundCcdQuery& q, const Where& where) {
  if (!std::isfinite(q.y_ground)) where.fail("y_ground", "must be finite");
  if (q.y.empty()) where.fail("y", "needs at least one node");
  if (q.py.size() != q.y.size())
    where.fail("py", "has " + std::to_string(q.py.size()) + " entries, y has " +
                         std::to_string(q.y.size()));
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    const std::string yi = "y[" + std::to_string(i) + "]";
    if (!std::isfinite(q.y[i])) where.fail(yi, "must be finite");
    if (!(q.y[i] > q.y_ground)) where.fail(yi, "node is on or below the ground (precondition y > y_ground)");
    if (!std::isfinite(q.py[i])) where.fail("py[" + std::to_string(i) + "]", "must be finite");
  }
}

bool ground_ccd_in_fast_domain(const GroundCcdQuery& q) {
  if (std::abs(q.y_ground) > ground_ccd_max_abs) return false;
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    if (std::abs(q.y[i]) > ground_ccd_max_abs || std::abs(q.py[i]) > ground_ccd_max_abs) return false;
    const double gap = q.y[i] - q.y_ground;
    if (!(gap >= ground_ccd_min_gap)) return false;
    if (q.py[i] < 0 && gap / -q.py[i] < ground_ccd_min_gap) return false;
  }
  return true;
}

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

const char* nodes_tag(std::size_t n) { return n == 1 ? "1" : n <= 8 ? "few" : "many"; }

long draw_nodes(Rng& rng) {
  switch (uniform_int(rng, 0, 2)) {
    case 0: return 1;
    case 1: return uniform_int(rng, 2, 8);
    default: return uniform_int(rng, 9, 64);
  }
}

// The domain tag from the query itself.
const char* domain_tag(const GroundCcdQuery& q) {
  if (!ground_ccd_in_fast_domain(q)) return "outside";
  bool end = std::abs(q.y_ground) > 1e-10 * ground_ccd_max_abs;
  for (std::size_t i = 0; i < q.y.size(); ++i) {
    const double gap = q.y[i] - q.y_ground;
    end = end || std::abs(q.y[i]) > 1e-10 * ground_ccd_max_abs ||
          std::abs(q.py[i]) > 1e-10 * ground_ccd_max_abs || gap < 1e10 * ground_ccd_min_gap ||
          (q.py[i] < 0 && gap / -q.py[i] < 1e10 * ground_ccd_min_gap);
  }
  return end ? "end" : "inside";
}

Generated<GroundCcdQuery> labelled(const GroundCcdQuery& q, const char* config, double scale,
                                   const char* place) {
  return {q, regime({{"config", config}, {"nodes", nodes_tag(q.y.size())},
                     {"scale", scale_tag(scale)}, {"place", place}, {"domain", domain_tag(q)}})};
}

// A node h above the ground (h > 0), kept strictly above it despite the rounding of y_g + h.
double above(double y_ground, double h) {
  const double y = y_ground + h;
  return y > y_ground ? y : std::nextafter(y_ground, inf);
}

// Queries beyond the fast domain: the reference answers them exactly, fast is not run.
Generated<GroundCcdQuery> outside(Rng& rng) {
  GroundCcdQuery q;
  const long n = uniform_int(rng, 1, 4);
  const char* config = "mixed";
  switch (uniform_int(rng, 0, 3)) {
    case 0:  // subnormal heights and velocities, ground at 0: candidates 0.9 k/j exactly
      q.y_ground = 0;
      config = "approaching";
      for (long i = 0; i < n; ++i) {
        q.y.push_back(std::ldexp(static_cast<double>(uniform_int(rng, 1, 1 << 20)), -1074));
        q.py.push_back(-std::ldexp(static_cast<double>(uniform_int(rng, 1, 1 << 20)), -1074));
      }
      break;
    case 1:  // near the top of the doubles: y - y_g overflows in double
      q.y_ground = -uniform(rng, 0.5, 1.0) * 1.7e308;
      for (long i = 0; i < n; ++i) {
        q.y.push_back(uniform(rng, -1.0, 1.0) * 1.7e308);
        if (!(q.y.back() > q.y_ground)) q.y.back() = 1e308;
        q.py.push_back(-uniform(rng, 0.1, 1.0) * 1.7e308);
      }
      config = "approaching";
      break;
    case 2:  // deep: gap / -p far below 1e-300, alpha underflows in double
      q.y_ground = 0;
      config = "deep";
      for (long i = 0; i < n; ++i) {
        q.y.push_back(log_uniform(rng, 1e-300, 1e-100));
        q.py.push_back(-log_uniform(rng, 1e100, 1e300));
      }
      break;
    default:  // a node a subnormal distance above a normal ground
      q.y_ground = uniform(rng, -1.0, 1.0) * 1e-300;
      for (long i = 0; i < n; ++i) {
        q.y.push_back(above(q.y_ground, log_uniform(rng, 1e-323, 1e-300)));
        q.py.push_back(uniform_int(rng, 0, 3) ? -log_uniform(rng, 1e-320, 1.0) : 0.0);
      }
      break;
  }
  return labelled(q, config, 1.0, "origin");
}

// At the ends of the fast domain: heights near 1e-300 or magnitudes near 1e300.
Generated<GroundCcdQuery> domain_end(Rng& rng) {
  GroundCcdQuery q;
  const long n = draw_nodes(rng);
  const long kind = uniform_int(rng, 0, 2);
  q.y_ground = kind == 1 ? -uniform(rng, 0.5, 1.0) * ground_ccd_max_abs / 2 : 0.0;
  for (long i = 0; i < n; ++i) {
    double h, p;
    if (kind == 0) {  // tiny heights, tiny velocities
      h = log_uniform(rng, 1e-299, 1e-290);
      p = -h * log_uniform(rng, 1e-3, 1e3);
    } else if (kind == 1) {  // magnitudes near 1e300
      h = uniform(rng, 0.01, 1.0) * ground_ccd_max_abs / 2;
      p = -h * log_uniform(rng, 1e-3, 1.9);
    } else {  // deep: candidates near 1e-300
      h = log_uniform(rng, 1e-3, 1.0);
      p = -h * log_uniform(rng, 1e290, 1e299);
    }
    q.y.push_back(above(q.y_ground, h));
    q.py.push_back(uniform_int(rng, 0, 4) ? p : -p);
  }
  return labelled(q, kind == 2 ? "deep" : "mixed", 1.0, kind == 1 ? "far" : "origin");
}

}  // namespace

Generated<GroundCcdQuery> GroundCcd::random(Rng& rng) {
  const long domain = uniform_int(rng, 0, 31);  // 0..29 inside, 30 end, 31 outside
  if (domain == 31) return outside(rng);
  if (domain == 30) return domain_end(rng);
  GroundCcdQuery q;
  const double scale = pick_scale(rng);
  const long place = uniform_int(rng, 0, 3);  // 0, 1 origin; 2 far; 3 high
  q.y_ground = place == 2 ? (uniform_int(rng, 0, 1) ? 1 : -1) * uniform(rng, 0.5, 1.0) * 0x1p20 * scale
                          : uniform(rng, -2, 2) * scale;
  const long n = draw_nodes(rng);
  static const char* const configs[] = {"mixed",  "approaching", "receding", "resting", "grazing",
                                        "deep",   "near_cap",    "near_tie", "touching"};
  const long config = uniform_int(rng, 0, 8);
  for (long i = 0; i < n; ++i) {
    const double h = place == 3 ? log_uniform(rng, 1e3, 1e6) * scale : log_uniform(rng, 1e-6, 1.0) * scale;
    q.y.push_back(above(q.y_ground, h));
    const double gap = q.y.back() - q.y_ground;  // the height the kernels see
    const double mag = log_uniform(rng, 1e-7, 10.0) * scale;
    double p;
    switch (config) {
      case 1: p = -gap * log_uniform(rng, 1e-3, 1e2); break;
      case 2: p = uniform_int(rng, 0, 5) ? mag : 0.0; break;
      case 3: p = uniform_int(rng, 0, 3) ? (uniform_int(rng, 0, 1) ? 0.0 : -0.0) : mag; break;
      case 4: p = -gap * log_uniform(rng, 1e-12, 1e-3); break;
      case 5: p = -gap * log_uniform(rng, 1e1, 1e12); break;
      case 6:  // the candidate 0.9 gap / -p within a relative t of 1, either side
        if (i == 0 || uniform_int(rng, 0, 1)) {
          const double t = log_uniform(rng, 1e-16, 1e-2);
          p = -0.9 * gap * (uniform_int(rng, 0, 1) ? 1 + t : 1 - t);
        } else {
          p = -gap * log_uniform(rng, 1e-3, 0.8);  // capped
        }
        break;
      case 7:  // node i > 0 within a relative t of node 0's candidate
        if (i == 0) {
          p = -gap * log_uniform(rng, 1.0, 1e2);
        } else if (uniform_int(rng, 0, 1)) {
          const double t = log_uniform(rng, 1e-16, 1e-3);
          const double ratio = (q.y[0] - q.y_ground) / -q.py[0];
          p = -gap / (ratio * (uniform_int(rng, 0, 1) ? 1 + t : 1 - t));
        } else {
          p = -gap * log_uniform(rng, 1e-3, 1.0);
        }
        break;
      case 8: p = uniform_int(rng, 0, 2) ? -gap : mag; break;  // raw ratio 1 (rounded gap)
      default: {
        const long kind = uniform_int(rng, 0, 9);
        p = kind == 0 ? 0.0 : kind <= 6 ? -mag : mag;
      }
    }
    q.py.push_back(p);
  }
  return labelled(q, configs[config], scale, place == 2 ? "far" : place == 3 ? "high" : "origin");
}

Generated<GroundCcdQuery> GroundCcd::degenerate(Rng& rng) {
  const long domain = uniform_int(rng, 0, 31);  // 0..29 grid, 30..31 beyond the domain
  if (domain >= 30) {
    // Exact subnormal grid: heights and velocities k·2^-1074, ties and touching exact.
    GroundCcdQuery q;
    q.y_ground = 0;
    const long n = uniform_int(rng, 1, 8);
    for (long i = 0; i < n; ++i) {
      const long k = uniform_int(rng, 1, 64);
      q.y.push_back(std::ldexp(static_cast<double>(k), -1074));
      switch (uniform_int(rng, 0, 3)) {
        case 0: q.py.push_back(-std::ldexp(static_cast<double>(k), -1074)); break;  // touching
        case 1: q.py.push_back(0.0); break;
        case 2: q.py.push_back(-std::ldexp(static_cast<double>(2 * k), -1074)); break;  // ratio 1/2: ties
        default: q.py.push_back(-std::ldexp(static_cast<double>(uniform_int(rng, 1, 128)), -1074)); break;
      }
    }
    return labelled(q, "mixed", 1.0, "origin");
  }
  GroundCcdQuery q;
  const double scale = pick_scale(rng);
  static const char* const configs[] = {"mixed",    "touching", "tie",  "cap_exact", "resting",
                                        "receding", "grazing",  "deep", "at_dhat",   "on_ground"};
  const long config = uniform_int(rng, 0, 9);
  const bool at_dhat = config == 8;
  // The ground on the grid (at 0 for at_dhat, so that a height of exactly 0.01 exists).
  q.y_ground = at_dhat ? 0.0 : dyadic(rng, 4, 32, scale);
  const long place = at_dhat ? 0 : uniform_int(rng, 0, 3);  // 3: ground far, 2^20·scale
  if (place == 3) q.y_ground += std::ldexp(static_cast<double>(uniform_int(rng, -4, 4)), 20) * scale;
  const long n = draw_nodes(rng);
  for (long i = 0; i < n; ++i) {
    double h = std::ldexp(static_cast<double>(uniform_int(rng, 1, 64)), -6) * scale;
    if (at_dhat && uniform_int(rng, 0, 1)) h = 0.01;
    double p;
    // Background nodes that never bind: receding, resting, or capped (0.9/0.875 > 1).
    auto background = [&] {
      switch (uniform_int(rng, 0, 2)) {
        case 0: return std::abs(dyadic(rng, 6, 64, scale));
        case 1: return 0.0;
        default: return -h * 0.875;
      }
    };
    switch (config) {
      case 1: p = uniform_int(rng, 0, 2) ? (uniform_int(rng, 0, 1) ? -h : -2 * h) : background(); break;
      case 2:
        if (i > 0 && uniform_int(rng, 0, 1)) {  // a scaled copy of an earlier node: exact tie
          const long j = uniform_int(rng, 0, i - 1);
          const double f = std::ldexp(1.0, static_cast<int>(uniform_int(rng, -1, 1)));
          h = (q.y[j] - q.y_ground) * f;
          p = q.py[j] * f;
        } else {
          p = -h * std::ldexp(static_cast<double>(uniform_int(rng, 1, 16)), -3);
        }
        break;
      case 3:  // 9/10 · (10·2^-k) / (9·2^-k) = 1 exactly: the cap tie
        if (uniform_int(rng, 0, 1)) {
          const int k = static_cast<int>(uniform_int(rng, 4, 8));
          h = std::ldexp(10.0, -k) * scale;
          p = -std::ldexp(9.0, -k) * scale;
        } else {
          p = background();
        }
        break;
      case 4: p = uniform_int(rng, 0, 2) ? (uniform_int(rng, 0, 1) ? 0.0 : -0.0) : background(); break;
      case 5: p = std::abs(dyadic(rng, 6, 64, scale)); break;
      case 6: p = -std::ldexp(h, -static_cast<int>(uniform_int(rng, 4, 40))); break;  // grazing
      case 7: p = -std::ldexp(h, static_cast<int>(uniform_int(rng, 4, 40))); break;   // deep
      case 8: p = uniform_int(rng, 0, 1) ? -h : background(); break;
      case 9:  // one ulp above the ground (exact), resting or creeping down by ulps
        h = std::nextafter(q.y_ground, inf) - q.y_ground;
        switch (uniform_int(rng, 0, 3)) {
          case 0: p = 0.0; break;
          case 1: p = -h; break;
          case 2: p = -std::ldexp(h, static_cast<int>(uniform_int(rng, -3, 3))); break;
          default: p = background(); break;
        }
        break;
      default:
        switch (uniform_int(rng, 0, 5)) {
          case 0: p = 0.0; break;
          case 1: p = -h; break;
          case 2: p = -2 * h; break;
          case 3: p = dyadic(rng, 6, 64, scale); break;
          case 4:
            if (i > 0) {  // repeat the previous node: exact tie
              h = q.y[i - 1] - q.y_ground;
              p = q.py[i - 1];
            } else {
              p = -h;
            }
            break;
          default: p = -h * 0.875; break;
        }
    }
    q.y.push_back(q.y_ground + h);  // exact on the grid (0 + 0.01 too); far: 20 + 12 bits
    q.py.push_back(p);
  }
  return labelled(q, configs[config], scale, place == 3 ? "far" : "origin");
}

std::vector<Named<GroundCcdQuery>> GroundCcd::canonical() {
  using V = std::vector<double>;
  return {
      // The square's bottom row (y = -0.5) in free fall towards y = -1: 0.9·0.5/0.6 = 0.75.
      {"bottom_row_falling", {-1, V{-0.5, -0.5, -0.5, -0.5, -0.5}, V{-0.6, -0.6, -0.6, -0.6, -0.6}}},
      {"no_downward_motion", {-1, V{-0.5, -0.25, 0.0}, V{0.0, 0.1, 0.0}}},
      {"touches_exactly_at_1", {-1, V{-0.5}, V{-0.5}}},       // raw ratio 1: alpha 0.9
      {"node_at_dhat", {0, V{0.01, 0.02}, V{-0.01, -0.01}}},  // node exactly d̂ above ground
      {"exact_tie_two_nodes", {-1, V{-0.75, -0.5}, V{-0.5, -1.0}}},  // equal ratios 1/2
      {"capped_slow_approach", {-1, V{-0.5}, V{-0.25}}},      // 0.9·2 > 1: alpha 1
      {"near_cap", {-1, V{-0.5}, V{-0.45}}},                  // 0.9·0.5/0.45 ~ 1: the cap decision
      {"deep_penetrating_step", {-1, V{-0.99, -0.5}, V{-1.0, -1.0}}},
      {"cap_exact", {0, V{0.625}, V{-0.5625}}},  // 9/10 · 10/9 = 1 exactly: not below the cap
      // Beyond the fast domain (out_of_domain; the reference answers exactly): subnormal
      // heights (candidate 9/10 · 3/4), and a gap 2e308 that overflows in double.
      {"subnormal_heights", {0, V{0x3p-1074}, V{-0x4p-1074}}},
      {"gap_beyond_doubles", {-1e308, V{1e308}, V{-1e308}}},
  };
}

nlohmann::json GroundCcd::to_json(const Query& q) {
  return {{"y_ground", q.y_ground}, {"y", q.y}, {"py", q.py}};
}

GroundCcdQuery GroundCcd::from_json(const nlohmann::json& j, const Where& w) {
  reject_unknown_keys(j, {"y_ground", "y", "py"}, w);
  Query q;
  if (j.contains("y_ground")) q.y_ground = read_double(j, "y_ground", w);
  q.y = read_double_array(j, "y", w);
  q.py = read_double_array(j, "py", w);
  validate(q, w);  // bad input only: the fast domain is in_domain()
  return q;
}

nlohmann::json GroundCcd::to_json(const Result& r) {
  nlohmann::json j = {{"alpha", r.alpha}, {"binding", r.binding}};
  if (!std::isnan(r.margin)) j["margin"] = r.margin;  // reference only
  return j;
}

}  // namespace contactbench::cases
