#include "harness/pair.hpp"

#include <unistd.h>

#include <cmath>
#include <iostream>

namespace contactbench::harness {

const char* to_string(Agreement a) {
  switch (a) {
    case Agreement::exact: return "exact";
    case Agreement::conservative: return "conservative";
    case Agreement::approximate: return "approximate";
  }
  return "?";
}

Verdict judge(const Comparison& c, Agreement agreement) {
  bool boundary = false;
  // A bound that is not finite excuses nothing: it is a kernel outside its stated domain.
  for (const auto& m : c.mismatches) {
    if (!std::isfinite(m.bound) || !(m.margin <= m.bound)) return Verdict::wrong;  // NaN too
    boundary = true;
  }
  // An exact family's decisions are exact: any mismatch is wrong.
  if (boundary && agreement == Agreement::exact) return Verdict::wrong;
  for (const auto& e : c.errors)
    if (!std::isfinite(e.bound) || !(std::abs(e.error) <= e.bound)) return Verdict::wrong;
  if (boundary) return Verdict::boundary;
  if (!c.false_positive) return Verdict::agree;
  // Only a conservative family may report what is not there.
  return agreement == Agreement::conservative ? Verdict::false_positive : Verdict::wrong;
}

namespace {
// " × longest edge" or "" when the unit is empty.
std::string with_unit(const char* unit) { return unit && *unit ? fmt::format(" {}", unit) : ""; }
bool within(double error, double bound) { return std::isfinite(bound) && std::abs(error) <= bound; }
}  // namespace

std::string describe(const Comparison& c) {
  std::string out;
  auto sep = [&] { if (!out.empty()) out += "; "; };
  for (const auto& m : c.mismatches) {
    sep();
    out += fmt::format("{}: reference {} fast {}, margin {:.3g} {} bound {:.3g}{}", m.field,
                       m.reference, m.fast, m.margin, m.margin <= m.bound ? "<=" : ">", m.bound,
                       with_unit(m.unit));
  }
  for (const auto& e : c.errors)
    if (!within(e.error, e.bound)) {
      sep();
      out += fmt::format("{}: error {:.3g} > bound {:.3g}{}", e.field, e.error, e.bound, with_unit(e.unit));
    }
  if (c.false_positive) {
    sep();
    out += "false positive";
  }
  if (!c.note.empty()) {
    sep();
    out += c.note;
  }
  return out.empty() ? "agree" : out;
}

nlohmann::json json_number(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

nlohmann::json comparison_json(const Comparison& c, Agreement agreement) {
  nlohmann::json mismatches = nlohmann::json::array(), errors = nlohmann::json::array(),
                 decisions = nlohmann::json::array();
  for (const auto& m : c.mismatches)
    mismatches.push_back({{"field", m.field}, {"reference", m.reference}, {"fast", m.fast},
                          {"margin", json_number(m.margin)}, {"bound", json_number(m.bound)},
                          {"unit", m.unit},
                          // judge's rule 2: within the bound, and the class allows boundaries
                          {"excused", agreement != Agreement::exact && std::isfinite(m.bound) &&
                                          m.margin <= m.bound}});
  for (const auto& e : c.errors)
    errors.push_back({{"field", e.field}, {"error", json_number(e.error)},
                      {"bound", json_number(e.bound)}, {"unit", e.unit},
                      {"within", within(e.error, e.bound)}});
  for (const auto& d : c.decisions)
    decisions.push_back({{"decision", d.name}, {"value", d.value},
                         {"margin", json_number(d.exact_margin ? d.exact_margin() : d.margin)},
                         {"bound", json_number(d.bound)}, {"unit", d.unit}});
  nlohmann::json out = {{"mismatches", mismatches}, {"errors", errors}, {"decisions", decisions}};
  if (c.false_positive) out["false_positive"] = true;
  if (c.explain) out["explain"] = c.explain();
  if (!c.note.empty()) out["note"] = c.note;
  return out;
}

// The coverage of a family's decisions against its declared decision space: every value no
// query reached, and every decision whose boundary no query lay on or within the stated bound
// of, unless the family explains why (DecisionSpace::explained).
nlohmann::json coverage_flags(const Family& f, const FamilyStats& s) {
  nlohmann::json flags = nlohmann::json::array(), explained = nlohmann::json::array();
  for (const auto& d : f.decision_space) {
    const auto it = s.coverage.find(d.name);
    std::uint64_t near = 0;
    auto reached = [&](const std::string& v) -> std::uint64_t {
      if (it == s.coverage.end()) return 0;
      const auto jt = it->second.find(v);
      return jt == it->second.end() ? 0 : jt->second.reached;
    };
    if (it != s.coverage.end())
      for (const auto& [v, c] : it->second) near += c.within_bound;
    for (const auto& v : d.values) {
      if (reached(v) > 0) continue;
      const auto why = d.explained.find(v);
      if (why == d.explained.end())
        flags.push_back(fmt::format("{}={}: no query reached it", d.name, v));
      else
        explained.push_back(fmt::format("{}={}: {}", d.name, v, why->second));
    }
    if (near == 0) {
      const auto why = d.explained.find("boundary");
      if (why == d.explained.end())
        flags.push_back(fmt::format("{}: no query on or within the stated bound of its boundary", d.name));
      else
        explained.push_back(fmt::format("{} boundary: {}", d.name, why->second));
    }
  }
  return {{"unreached", flags}, {"explained", explained}};
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && isatty(2)) {}

Progress::~Progress() {
  if (enabled_) std::cerr << "\r\033[K" << std::flush;
}

void Progress::tick(std::uint64_t k) {
  const auto done = done_.fetch_add(k, std::memory_order_relaxed) + k;
  if (!enabled_) return;
  const auto t = now_ns();
  auto last = last_ns_.load(std::memory_order_relaxed);
  if (t - last < 100'000'000 && done != total_) return;
  if (!last_ns_.compare_exchange_strong(last, t)) return;
  std::cerr << fmt::format("\r\033[K{}: {}/{} ({:.0f}%)", label_, done, total_,
                           total_ ? 100.0 * done / total_ : 100.0)
            << std::flush;
}

}  // namespace contactbench::harness
