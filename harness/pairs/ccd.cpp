#include "harness/pairs/ccd.hpp"

#include <tbb/concurrent_hash_map.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>

namespace contactbench::harness {

std::vector<cases::Named<cases::CcdQuery>> CcdPair::canonical(const CheckOptions& o) {
  auto out = cases::Ccd::canonical();
  auto pub = cases::Ccd::public_queries(o.shared_dir);
  out.insert(out.end(), std::make_move_iterator(pub.begin()), std::make_move_iterator(pub.end()));
  return out;
}

std::vector<DecisionSpace> CcdPair::decision_space() {
  return {
      {"hit", {"hit", "miss"}},
      {"toi", {"t0", "interior", "t1"}},
      {"feature", {"vf_face", "vf_edge", "vf_vertex", "ee_interior", "ee_edge_vertex", "ee_vertex_vertex"}},
  };
}

namespace {
// Kind and the 24 coordinates, bit for bit, in a fixed-size key (no heap string per entry).
struct MemoKey {
  std::array<std::uint64_t, 25> bits{};
  explicit MemoKey(const cases::CcdQuery& q) {
    bits[0] = static_cast<std::uint64_t>(q.kind);
    for (std::size_t i = 0; i < q.x.size(); ++i)
      for (int k = 0; k < 3; ++k) bits[1 + 3 * i + k] = std::bit_cast<std::uint64_t>(q.x[i][k]);
  }
  bool operator==(const MemoKey&) const = default;
};
struct MemoHash {
  static std::size_t hash(const MemoKey& k) {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (auto b : k.bits) h = (h ^ b) * 0xBF58476D1CE4E5B9ULL, h ^= h >> 29;
    return h;
  }
  static bool equal(const MemoKey& a, const MemoKey& b) { return a == b; }
};
using Memo = tbb::concurrent_hash_map<MemoKey, CcdMemoEntry, MemoHash>;
Memo& memo() {
  static Memo m;
  return m;
}
constexpr std::size_t memo_cap = std::size_t{1} << 20;  // ~100 MB at most
}  // namespace

void ccd_memo_store(const cases::CcdQuery& q, const CcdMemoEntry& e) {
  const MemoKey k(q);
  Memo::accessor a;
  if (!memo().find(a, k)) {
    if (memo().size() >= memo_cap) return;
    if (memo().insert(a, k)) {
      a->second = e;
      return;
    }
  }
  // Present: complete what is known (pure functions of the query, so never a change).
  if (a->second.sep < 0) a->second.sep = e.sep;
  a->second.sep_lower = std::max(a->second.sep_lower, e.sep_lower);
  a->second.sep_upper = std::min(a->second.sep_upper, e.sep_upper);
}

CcdMemoEntry ccd_memo(const cases::CcdQuery& q) {
  const MemoKey k(q);
  {
    Memo::const_accessor a;
    if (memo().find(a, k)) return a->second;
  }
  CcdMemoEntry e;
  e.ref = reference::ccd(q);
  ccd_memo_store(q, e);
  return e;
}

Comparison ccd_compare_memo(const cases::CcdQuery& q, const cases::CcdResult& ref,
                            const cases::CcdResult& fast, double claim) {
  CcdMemoEntry e = ccd_memo(q);
  const CcdMemoEntry before = e;
  auto c = CcdPair::compare_claim(q, ref, fast, claim, e);
  if (e.sep != before.sep || e.sep_lower != before.sep_lower || e.sep_upper != before.sep_upper)
    ccd_memo_store(q, e);
  return c;
}

Comparison CcdPair::compare(const Query& q, const Result& ref, const Result& fast) {
  // Keep the reference's answer and what was learnt of the separation for the planted
  // faults (ccd_memo).
  CcdMemoEntry e{ref};
  auto c = compare_claim(q, ref, fast, 1.0, e);
  ccd_memo_store(q, e);
  return c;
}

Comparison CcdPair::compare_claim(const Query& q, const Result& ref, const Result& fast,
                                  double claim, CcdMemoEntry& known) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  // The separation estimates are upper estimates up to ~2^-60 of the scale (long double);
  // excusing only below half the stated bound keeps that error far on the safe side.
  // The bound is the fast variant's resolution claim at its own toi (see fast/ccd.hpp).
  const auto bounds = fast::ccd_bounds(q, fast.hit ? fast.toi : 0.0);
  const double excuse_below = claim * bounds.separation / 2;
  Comparison c;
  std::function<double()> lazy_separation;  // set when the rule did not need the separation
  // The reference's decisions, for the coverage table.
  if (ref.hit) {
    c.reached("hit", "hit", 1 - ref.toi, 0.0, "time (step = 1)");
    const bool t0 = ref.toi_up == 0, t1 = ref.toi == 1;
    c.reached("toi", t0 ? "t0" : (t1 ? "t1" : "interior"),
              t0 || t1 ? 0.0 : std::min(ref.toi_up, 1 - ref.toi), bounds.toi_gap, "time (step = 1)");
    c.reached("feature", cases::to_string(ref.feature), ref.feature_margin, excuse_below, "× ccd scale");
  } else {
    // The count needs only whether the separation exceeds excuse_below, the false-positive
    // rule its value: a proven lower bound above the threshold settles the first.
    const bool settled = known.sep_lower > excuse_below || known.sep_upper <= excuse_below;
    if (known.sep < 0 && fast.hit) {
      known.sep = reference::ccd_separation_of_miss(q);
    } else if (known.sep < 0 && !settled) {
      known.sep_lower = std::max(known.sep_lower, reference::ccd_separation_lower_bound(q, excuse_below));
      if (!(known.sep_lower > excuse_below)) {
        if (reference::ccd_separation_of_miss_at_most(q, excuse_below))
          known.sep_upper = std::min(known.sep_upper, excuse_below);
        else  // the separation is a double above the threshold
          known.sep_lower = std::nextafter(excuse_below, inf);
      }
    }
    // A miss is decided exactly, so its margin is positive even where the long-double
    // estimate rounds to 0 (separations below ~2^-64 of the scale).
    auto margin = [](double s) { return std::max(s, std::numeric_limits<double>::denorm_min()); };
    if (known.sep >= 0) {
      c.reached("hit", "miss", margin(known.sep), excuse_below, "× ccd scale");
    } else {  // sep_lower > excuse_below or sep_upper <= excuse_below: the same count
      auto cache = std::make_shared<double>(-1.0);  // for a record: computed once
      lazy_separation = [q, cache] {
        if (*cache < 0) *cache = reference::ccd_separation_of_miss(q);
        return *cache;
      };
      const double side = known.sep_lower > excuse_below ? known.sep_lower : known.sep_upper;
      c.decisions.push_back({"hit", "miss", side, excuse_below, "× ccd scale",
                             [s = lazy_separation, margin] { return margin(s()); }});
    }
  }
  const double sep = known.sep;  // < 0 for a hit, or a miss where the rule did not need it
  if (q.ground_truth >= 0 && (q.ground_truth == 1) != ref.hit)
    c.mismatches.push_back({"reference_vs_ground_truth",
                            fmt::format("{} but ground truth is {}", ref.hit, q.ground_truth == 1),
                            fmt::format("{}", fast.hit), inf, 0.0, "(never excused)"});
  if (ref.hit && !fast.hit) c.discrete("hit", ref.hit, fast.hit, inf, 0.0, "(a miss is never excused)");
  if (!ref.hit && fast.hit) {
    if (fast.cut_short) {
      c.false_positive = true;
      c.note = fmt::format("search cut short (node budget or input range), separation {:.3g}", sep);
    } else if (sep <= excuse_below) {
      c.false_positive = true;
      c.note = fmt::format("separation {:.3g} <= {:.3g}", sep, excuse_below);
    } else {
      c.mismatches.push_back({"hit", "false", "true (not cut short)", sep, excuse_below, "× ccd scale"});
    }
  }
  if (ref.hit && fast.hit) {
    if (!(fast.toi <= ref.toi))
      c.mismatches.push_back({"toi_lower_bound", fmt::format("{:a}", ref.toi),
                              fmt::format("{:a}", fast.toi), inf, 0.0, "(never excused)"});
    const double gap = ref.toi - fast.toi;
    if (!(gap > bounds.toi_gap)) {
      c.continuous("toi_gap", gap, bounds.toi_gap, "time (step = 1)");
    } else if (fast.cut_short) {
      c.false_positive = true;  // an earlier contact that is not there
      c.note = fmt::format("toi {:.17g} early by {:.3g}: search cut short", fast.toi, gap);
    } else {
      // Early stop at a near contact: the primitives must be within the resolution bound at
      // the fast toi (distance there / scale, an upper estimate like the separation).
      c.continuous("toi_early_distance",
                   reference::ccd_distance_at(q, fast.toi) / cases::ccd_scale(q), excuse_below,
                   "× ccd scale");
      c.note = fmt::format("toi {:.17g} early by {:.3g}", fast.toi, gap);
    }
  }
  // What a user needs to judge the hard case: the separation the false-positive rule used,
  // the conditioning behind the stated bound (ccd_separation_bound_at = 2^-38 kappa, kappa
  // clamped to [4, 2^16], so kappa is recovered exactly), the cut-short flag, the ground truth.
  const double at = fast.hit ? fast.toi : 0.0, kappa = bounds.separation * 0x1p38;
  const double scale = cases::ccd_scale(q);
  const bool cut_short = fast.cut_short;
  const int ground_truth = q.ground_truth;
  c.explain = [=] {
    const double separation = ref.hit ? 0.0 : lazy_separation ? lazy_separation() : sep;
    return nlohmann::json{
        {"scale", {{"value", json_number(scale)}, {"unit", "length (query units)"},
                   {"what", "ccd scale: the largest |coordinate|; the unit of the distances below"}}},
        {"separation", {{"value", json_number(separation)}, {"unit", "× ccd scale"},
                        {"what", "minimum distance over the step (0 for a hit); exact decision, "
                                 "distance a long-double upper estimate (~2^-60 of the scale)"}}},
        {"excused_below", {{"value", json_number(excuse_below)}, {"unit", "× ccd scale"},
                           {"what", "a false positive is excused when the separation is at most this: "
                                    "half the stated bound 2^-38·kappa at the fast toi"}}},
        {"conditioning", {{"kappa", json_number(kappa)},
                          {"at_t", json_number(at)}, {"clamped_to", {4.0, 65536.0}},
                          {"what", "scale over the smallest altitude (vertex-face) or over "
                                   "min edge length × sin(angle) (edge-edge) at t"}}},
        {"cut_short", cut_short},
        {"ground_truth", ground_truth < 0 ? nlohmann::json("not supplied") : nlohmann::json(ground_truth)}};
  };
  return c;
}

}  // namespace contactbench::harness
