#include "harness/scenarios/ccd_public.hpp"

#include "fast/ccd.hpp"
#include "harness/output.hpp"
#include "harness/pairs/ccd.hpp"
#include "reference/ccd.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace contactbench::harness {

int run_ccd_public(const ScenarioOptions& o) {
  ParamReader in("ccd_public", o);
  const int repeat = in.get_int("repeat", 5, 1, 1000);
  in.done();
  const bool do_ref = o.variant != "fast", do_fast = o.variant != "reference";
  const auto queries = cases::Ccd::public_queries(o.shared_dir);
  // Verdicts by the family's own rule (CcdPair::compare through evaluate), beside the timed
  // runs below; the counts against the ground truth are the data's own.
  // A false positive's threshold is the one the rule applied (the bound of the reference's
  // `hit = miss` decision: half the fast variant's stated resolution at its own toi, whose
  // conditioning can reach the 2^-22 cap), never a constant restated here.
  std::vector<Verdict> verdicts;
  std::vector<double> excused_below;
  if (do_ref && do_fast) {
    std::vector<cases::CcdQuery> qs;
    for (const auto& nq : queries) qs.push_back(nq.query);
    for (const auto& e : evaluate<CcdPair>(qs)) {
      verdicts.push_back(e.verdict);
      double threshold = -1;
      for (const auto& d : e.comparison.decisions)
        if (d.name == "hit" && d.value == "miss") threshold = d.bound;
      excused_below.push_back(threshold);
    }
  }
  Progress progress("ccd_public", queries.size(), o.progress);
  nlohmann::json records = nlohmann::json::array();
  std::size_t wrong_ref = 0, misses = 0, false_pos = 0;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto& nq = queries[i];
    const auto& q = nq.query;
    nlohmann::json r{{"source", nq.source}, {"name", nq.name}, {"kind", cases::to_string(q.kind)},
                     {"ground_truth", q.ground_truth}};
    cases::CcdResult ref, fst;
    if (do_ref) {
      std::int64_t best = INT64_MAX;
      for (int k = 0; k < repeat; ++k) {
        const auto t0 = now_ns();
        ref = reference::ccd(q);
        best = std::min(best, now_ns() - t0);
      }
      r["reference"] = {{"hit", ref.hit}, {"toi", ref.toi}, {"toi_up", ref.toi_up}, {"ns", best}};
      wrong_ref += ref.hit != (q.ground_truth == 1);
    }
    if (do_fast) {
      std::int64_t best = INT64_MAX;
      fast::CcdTrace tr;
      for (int k = 0; k < repeat; ++k) {
        const auto t0 = now_ns();
        fst = fast::ccd(q, &tr);
        best = std::min(best, now_ns() - t0);
      }
      r["fast"] = {{"hit", fst.hit}, {"toi", fst.toi}, {"ns", best}, {"nodes", tr.nodes},
                   {"second_stage", tr.second_stage}, {"budget_exhausted", tr.budget_exhausted},
                   {"cut_short", fst.cut_short}};
      const bool truth = q.ground_truth == 1;
      misses += truth && !fst.hit;
      if (!truth && fst.hit) {
        ++false_pos;
        r["separation"] = reference::ccd_separation_of_miss(q);
        if (!excused_below.empty() && excused_below[i] >= 0) r["excused_below"] = excused_below[i];
      }
    }
    if (!verdicts.empty()) r["verdict"] = to_string(verdicts[i]);
    records.push_back(std::move(r));
    progress.tick();
  }
  nlohmann::json out = scenario_header("ccd_public");
  out["repeat"] = repeat;
  out["fast_limits"] = {{"max_depth", fast::ccd_max_depth},
                        {"max_nodes", fast::ccd_max_nodes},
                        {"max_depth_dd", fast::ccd_max_depth_dd},
                        {"max_nodes_dd", fast::ccd_max_nodes_dd},
                        {"max_nodes_jump", fast::ccd_max_nodes_jump},
                        {"toi_gap_bound", fast::ccd_toi_gap_bound}};
  out["queries"] = std::move(records);
  write_json(o.out_dir + "/ccd_public.json", out);
  const auto wrong = std::count(verdicts.begin(), verdicts.end(), Verdict::wrong);
  fmt::print("ccd_public: {} queries; reference vs ground truth: {} differ; fast: {} missed, {} "
             "false positives; {} judged wrong by the family's rule\n",
             queries.size(), wrong_ref, misses, false_pos, wrong);
  return wrong_ref || misses || wrong ? 1 : 0;
}

}  // namespace contactbench::harness
