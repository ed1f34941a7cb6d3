#include "harness/pairs/ccd.hpp"

#include <tbb/concurrent_hash_map.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
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
  if (memo().size() >= memo_cap) return;
  Memo::accessor a;
  if (memo().insert(a, MemoKey(q))) a->second = e;
}

CcdMemoEntry ccd_memo(const cases::CcdQuery& q) {
  const MemoKey k(q);
  {
    Memo::const_accessor a;
    if (memo().find(a, k)) return a->second;
  }
  CcdMemoEntry e;
  e.ref = reference::ccd(q);
  if (!e.ref.hit) e.sep = reference::ccd_separation_of_miss(q);
  ccd_memo_store(q, e);
  return e;
}

Comparison CcdPair::compare(const Query& q, const Result& ref, const Result& fast) {
  // The separation of a miss is needed for the coverage table anyway: compute it once and
  // keep it with the reference's answer for the planted faults (ccd_memo).
  const double sep = ref.hit ? -1.0 : reference::ccd_separation_of_miss(q);
  ccd_memo_store(q, {ref, sep});
  return compare_claim(q, ref, fast, 1.0, sep);
}

Comparison CcdPair::compare_claim(const Query& q, const Result& ref, const Result& fast,
                                  double claim, double sep) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  // The separation estimates are upper estimates up to ~2^-60 of the scale (long double);
  // excusing only below half the stated bound keeps that error far on the safe side.
  // The bound is the fast variant's resolution claim at its own toi (see fast/ccd.hpp).
  const auto bounds = fast::ccd_bounds(q, fast.hit ? fast.toi : 0.0);
  const double excuse_below = claim * bounds.separation / 2;
  Comparison c;
  // The reference's decisions, for the coverage table.
  if (ref.hit) {
    c.reached("hit", "hit", 1 - ref.toi, 0.0, "time (step = 1)");
    const bool t0 = ref.toi_up == 0, t1 = ref.toi == 1;
    c.reached("toi", t0 ? "t0" : (t1 ? "t1" : "interior"),
              t0 || t1 ? 0.0 : std::min(ref.toi_up, 1 - ref.toi), bounds.toi_gap, "time (step = 1)");
    c.reached("feature", cases::to_string(ref.feature), ref.feature_margin, excuse_below, "× ccd scale");
  } else {
    if (sep < 0) sep = reference::ccd_separation_of_miss(q);
    // A miss is decided exactly, so its margin is positive even where the long-double
    // estimate rounds to 0 (separations below ~2^-64 of the scale).
    c.reached("hit", "miss", std::max(sep, std::numeric_limits<double>::denorm_min()),
              excuse_below, "× ccd scale");
  }
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
  const double separation = ref.hit ? 0.0 : sep, scale = cases::ccd_scale(q);
  const bool cut_short = fast.cut_short;
  const int ground_truth = q.ground_truth;
  c.explain = [=] {
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
