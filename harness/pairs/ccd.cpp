#include "harness/pairs/ccd.hpp"

#include "harness/registry.hpp"

#include <cmath>
#include <limits>

namespace contactbench::harness {

std::vector<cases::Named<cases::CcdQuery>> ccd_public_queries(const std::string& shared_dir) {
  std::vector<cases::Named<cases::CcdQuery>> out;
  for (auto& d : cases::load_ccd_public(shared_dir.empty() ? default_shared_dir() : shared_dir))
    out.push_back({std::move(d.name), d.query, std::move(d.source)});
  return out;
}

std::vector<cases::Named<cases::CcdQuery>> CcdPair::canonical(const CheckOptions& o) {
  std::vector<cases::Named<Query>> out;
  for (const auto& c : cases::ccd_canonical_cases()) {
    Query q = c.query;
    q.ground_truth = c.hit ? 1 : 0;  // the reference is held to the hand-derived answer
    out.push_back({c.name, q, "canonical"});
  }
  auto pub = ccd_public_queries(o.shared_dir);
  out.insert(out.end(), std::make_move_iterator(pub.begin()), std::make_move_iterator(pub.end()));
  return out;
}

Comparison CcdPair::compare(const Query& q, const Result& ref, const Result& fast) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  Comparison c;
  if (q.ground_truth >= 0)
    c.discrete("reference_vs_ground_truth", q.ground_truth == 1, ref.hit, inf, 0.0);
  if (ref.hit && !fast.hit) c.discrete("hit", ref.hit, fast.hit, inf, 0.0);
  if (!ref.hit && fast.hit) c.false_positive = true;
  if (ref.hit && fast.hit) {
    if (!(fast.toi <= ref.toi))
      c.mismatches.push_back({"toi_lower_bound", fmt::format("{:a}", ref.toi),
                              fmt::format("{:a}", fast.toi), inf, 0.0});
    c.continuous("toi_gap", ref.toi - fast.toi, 1.0);
  }
  if (c.false_positive) c.note = fmt::format("separation {:.3g}", reference::ccd_separation(q));
  return c;
}

}  // namespace contactbench::harness
