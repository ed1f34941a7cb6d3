// `contactbench run square_drop`: the fast (double) and reference (MPFR) runs of the
// square drop, their comparison, key frames, and the JSON/CSV output described in
// README.md, section "square_drop".
#include "harness/scenarios/square_drop.hpp"

#include "reference/square_drop.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace contactbench::harness::square_drop {

Trajectory simulate_fast(const Params& p, const std::function<void(int)>& progress) {
  return cases::square_drop::simulate<FastKernels>(p, "fast", 53, progress);
}

KeyFrames key_frames(const Trajectory& t, double dhat) {
  KeyFrames k;
  const int states = static_cast<int>(t.min_height.size());
  for (int s = 0; s < states; ++s)
    if (t.min_height[s] < dhat) { k.first_within_dhat = s; break; }
  // Maximum compression by the deformation: the smallest bounding-box height (highest
  // minus lowest node), first on ties. Not the smallest distance to the ground: that is
  // reached at first contact (state 32), while the square is still undeformed.
  const std::size_t w = static_cast<std::size_t>(2 * t.nodes);
  double smallest = 0;
  for (int s = 0; s < states; ++s) {
    const std::size_t at = static_cast<std::size_t>(s) * w;
    double lo = t.x[at + 1], hi = lo;
    for (std::size_t i = 3; i < w; i += 2) {
      lo = std::min(lo, t.x[at + i]);
      hi = std::max(hi, t.x[at + i]);
    }
    if (k.max_compression < 0 || hi - lo < smallest) {
      k.max_compression = s;
      smallest = hi - lo;
    }
  }
  // At rest: the first state k such that every later state has bitwise the same
  // positions (every later step took zero Newton updates). Needs at least one such step.
  int rest = states - 1;
  while (rest > 0 && std::equal(t.x.begin() + (rest - 1) * w, t.x.begin() + rest * w,
                                t.x.begin() + (states - 1) * w))
    --rest;
  k.at_rest = rest < states - 1 ? rest : -1;
  return k;
}

TrajectoryComparison compare(const Trajectory& f, const Trajectory& r) {
  TrajectoryComparison c;
  const int states = std::min(static_cast<int>(f.iterations.size()),
                              static_cast<int>(r.iterations.size()));
  for (int s = 1; s < states; ++s)
    if (f.iterations[s] != r.iterations[s]) c.iteration_mismatches.push_back(s);
  for (int s = 0; s < states; ++s)
    for (int i = 0; i < 2 * f.nodes; ++i) {
      const double d = std::abs(f.position(s, i / 2, i % 2) - r.position(s, i / 2, i % 2));
      if (!(d <= c.max_position_difference)) {
        c.max_position_difference = d;
        c.max_position_difference_state = s;
      }
    }
  c.states = states;
  c.within_bound = c.iteration_mismatches.empty() && c.max_position_difference <= position_bound;
  return c;
}

namespace {

nlohmann::json run_json(const Trajectory& t, double dhat) {
  nlohmann::json j;
  j["precision_bits"] = t.precision_bits;
  j["iterations"] = t.iterations;
  j["min_height"] = t.min_height;
  j["energy"] = {{"kinetic", t.kinetic}, {"spring", t.spring}, {"gravity", t.gravity},
                 {"barrier", t.barrier}};
  nlohmann::json xs = nlohmann::json::array();
  const std::size_t w = static_cast<std::size_t>(2 * t.nodes);
  for (std::size_t s = 0; s < t.iterations.size(); ++s)
    xs.push_back(std::vector<double>(t.x.begin() + s * w, t.x.begin() + (s + 1) * w));
  j["x"] = std::move(xs);
  j["step_ns"] = t.step_ns;
  std::vector<double> ns(t.step_ns.begin() + (t.step_ns.empty() ? 0 : 1), t.step_ns.end());
  if (!ns.empty()) {
    std::nth_element(ns.begin(), ns.begin() + ns.size() / 2, ns.end());
    j["step_ns_median"] = ns[ns.size() / 2];
  }
  const KeyFrames k = key_frames(t, dhat);
  j["key_frames"] = {{"dropped", k.dropped}, {"first_within_dhat", k.first_within_dhat},
                     {"max_compression", k.max_compression}, {"at_rest", k.at_rest}};
  return j;
}

void write_csv(const std::string& dir, const std::vector<const Trajectory*>& runs, double h) {
  std::ofstream s(dir + "/square_drop.csv");
  s << "variant,state,t,iterations,min_height,kinetic,spring,gravity,barrier,step_ns\n";
  for (const auto* t : runs)
    for (std::size_t k = 0; k < t->iterations.size(); ++k)
      s << fmt::format("{},{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.0f}\n", t->variant,
                       k, static_cast<double>(k) * h, t->iterations[k], t->min_height[k],
                       t->kinetic[k], t->spring[k], t->gravity[k], t->barrier[k], t->step_ns[k]);
  std::ofstream p(dir + "/square_drop_positions.csv");
  p << "variant,state,node,x,y\n";
  for (const auto* t : runs)
    for (std::size_t k = 0; k < t->iterations.size(); ++k)
      for (int i = 0; i < t->nodes; ++i)
        p << fmt::format("{},{},{},{:.17g},{:.17g}\n", t->variant, k, i,
                         t->position(static_cast<int>(k), i, 0),
                         t->position(static_cast<int>(k), i, 1));
}

}  // namespace

}  // namespace contactbench::harness::square_drop

namespace contactbench::harness {

int run_square_drop(const ScenarioOptions& o) {
  using namespace square_drop;
  ParamReader in("square_drop", o);
  Params p;
  p.n_seg = in.get_int("n_seg", 4, 1, 256);
  p.steps = in.get_int("steps", 600, 0, 1000000);
  const int prec = in.get_int("precision", 128, 128, 4096);
  in.done();
  if (o.variant != "fast" && o.variant != "reference" && o.variant != "both")
    cases::Where{"--variant", o.variant}.fail("variant", "must be fast, reference or both");

  auto progress_for = [&](const char* label) -> std::function<void(int)> {
    if (!o.progress) return {};
    return [label, steps = p.steps](int k) {
      if (k % 10 == 0 || k == steps)
        std::fprintf(stderr, "\rsquare_drop %s: step %d/%d%s", label, k, steps,
                     k == steps ? "\n" : "");
    };
  };
  std::vector<Trajectory> runs;
  if (o.variant != "reference") runs.push_back(simulate_fast(p, progress_for("fast")));
  if (o.variant != "fast") runs.push_back(reference::simulate_square_drop(p, prec, progress_for("reference")));

  const double dhat = 0.01, h = 0.01;
  nlohmann::json j = scenario_header("square_drop");
  j["source"] = "ipc-square-drop.txt; phys-sim-book/solid-sim-tutorial 3_contact (README: Square drop)";
  j["params"] = {{"n_seg", p.n_seg}, {"steps", p.steps}, {"precision", prec}};
  Simulator<FastKernels> probe(p.n_seg);
  j["constants"] = {{"h", h}, {"dhat", dhat}, {"kappa", 1e5}, {"k", 2e4}, {"y_ground", -1.0},
                    {"gravity", 9.81}, {"tol", 1e-2}, {"mass", probe.mass()},
                    {"contact_area", probe.contact_area()}};
  j["mesh"] = {{"nodes", probe.nodes()}, {"springs", probe.springs()}};
  std::vector<const Trajectory*> ptrs;
  for (const auto& t : runs) {
    j["runs"][t.variant] = run_json(t, dhat);
    ptrs.push_back(&t);
  }
  if (runs.size() == 2) {
    const TrajectoryComparison c = compare(runs[0], runs[1]);
    j["comparison"] = {{"states", c.states},
                       {"iterations_equal", c.iteration_mismatches.empty()},
                       {"iteration_mismatches", c.iteration_mismatches},
                       {"max_position_difference", c.max_position_difference},
                       {"max_position_difference_state", c.max_position_difference_state},
                       {"position_bound", position_bound},
                       {"within_bound", c.within_bound}};
  }
  std::filesystem::create_directories(o.out_dir);
  std::ofstream(o.out_dir + "/square_drop.json") << j.dump() << "\n";
  write_csv(o.out_dir, ptrs, h);

  for (const auto& t : runs) {
    const KeyFrames k = key_frames(t, dhat);
    const int total = [&] { int s = 0; for (int i : t.iterations) s += i; return s; }();
    std::printf("square_drop %-9s n_seg=%d steps=%d newton=%d min_height=%.6g key frames: "
                "dropped %d, within d^ %d, max compression %d, at rest %d\n",
                t.variant.c_str(), t.n_seg, t.steps, total,
                *std::min_element(t.min_height.begin(), t.min_height.end()), k.dropped,
                k.first_within_dhat, k.max_compression, k.at_rest);
  }
  if (j.contains("comparison"))
    std::printf("square_drop fast vs reference: iterations %s, max |dx| = %.3g m (bound %.0e) -> %s\n",
                j["comparison"]["iterations_equal"].get<bool>() ? "equal in every step" : "DIFFER",
                j["comparison"]["max_position_difference"].get<double>(), position_bound,
                j["comparison"]["within_bound"].get<bool>() ? "agree" : "DISAGREE");
  std::printf("wrote %s/square_drop.json, square_drop.csv, square_drop_positions.csv\n",
              o.out_dir.c_str());
  return j.contains("comparison") && !j["comparison"]["within_bound"].get<bool>() ? 1 : 0;
}

}  // namespace contactbench::harness
