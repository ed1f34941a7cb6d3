#include "harness/compare.hpp"

#include "cases/json_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace contactbench::harness {
namespace {

using nlohmann::json;
constexpr const char* check_schema = "contactbench.check/1";
constexpr const char* verdicts[] = {"agree", "boundary", "false_positive", "wrong", "out_of_domain"};

std::string kind_of(const json& doc, const std::string& path) {
  const cases::Where where{path, ""};
  if (!doc.is_object()) where.fail("", "expected a JSON object (a check or bench result)");
  if (doc.contains("schema")) {
    if (doc["schema"] == check_schema) return "check";
    where.fail("schema", fmt::format("{} is not {} (compare takes check or bench results)",
                                     doc["schema"].dump(), check_schema));
  }
  if (doc.contains("benchmarks")) return "bench";
  where.fail("schema", fmt::format("missing: neither a check result (schema {}) nor a bench "
                                   "result (Google Benchmark JSON with \"benchmarks\")",
                                   check_schema));
}

// ---- check ----

struct Family {
  std::string name;
  bool gated = true, planted = false;
  std::map<std::string, std::uint64_t> counts;                       // verdict -> n
  std::map<std::string, std::map<std::string, std::uint64_t>> regimes;  // tag -> verdict -> n
  std::map<std::string, double> error_max;                           // field -> max (inf ok)
  std::set<std::string> sources, unreached;
};

std::uint64_t count_of(const json& obj, const char* key, const cases::Where& where,
                       const std::string& prefix, bool optional) {
  if (optional && !obj.contains(key)) return 0;
  return static_cast<std::uint64_t>(
      cases::read_integer(obj, key, 0, std::numeric_limits<long long>::max(), where, prefix));
}

std::map<std::string, std::uint64_t> counts_of(const json& obj, const cases::Where& where,
                                               const std::string& prefix) {
  if (!obj.is_object()) where.fail(prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1), "expected an object of verdict counts");
  std::map<std::string, std::uint64_t> c;
  c["queries"] = count_of(obj, "queries", where, prefix, false);
  for (const char* v : verdicts) c[v] = count_of(obj, v, where, prefix, std::string(v) == "out_of_domain");
  return c;
}

std::vector<Family> read_check(const json& doc, const std::string& path) {
  const cases::Where where{path, ""};
  const auto& fams = cases::require(doc, "families", where);
  if (!fams.is_array()) where.fail("families", "expected an array");
  std::vector<Family> out;
  for (std::size_t i = 0; i < fams.size(); ++i) {
    const auto& f = fams[i];
    const std::string at = fmt::format("families[{}].", i);
    if (!f.is_object()) where.fail(at.substr(0, at.size() - 1), "expected an object");
    Family fam;
    const auto& name = cases::require(f, "family", where, at);
    if (!name.is_string()) where.fail(at + "family", "expected a string");
    fam.name = name.get<std::string>();
    fam.planted = f.contains("planted_fault_of");
    fam.gated = f.value("gated", !fam.planted && !f.contains("published_method_of"));
    fam.counts = counts_of(f, where, at);
    if (f.contains("by_regime")) {
      if (!f["by_regime"].is_object()) where.fail(at + "by_regime", "expected an object");
      for (const auto& [tag, c] : f["by_regime"].items())
        fam.regimes[tag] = counts_of(c, where, fmt::format("{}by_regime.{}.", at, tag));
    }
    if (f.contains("by_source") && f["by_source"].is_object())
      for (const auto& [s, c] : f["by_source"].items()) fam.sources.insert(s);
    if (f.contains("errors")) {
      if (!f["errors"].is_object()) where.fail(at + "errors", "expected an object");
      for (const auto& [field, h] : f["errors"].items()) {
        const std::string key = fmt::format("{}errors.{}.max", at, field);
        if (!h.is_object() || !h.contains("max")) where.fail(key, "missing");
        const auto& m = h["max"];
        // JSON has no infinity: a histogram whose max is +inf is written null.
        if (m.is_null()) fam.error_max[field] = std::numeric_limits<double>::infinity();
        else if (m.is_number() && m.get<double>() >= 0) fam.error_max[field] = m.get<double>();
        else where.fail(key, fmt::format("expected a non-negative number, got {}", m.dump()));
      }
    }
    if (f.contains("coverage_flags") && f["coverage_flags"].contains("unreached"))
      for (const auto& u : f["coverage_flags"]["unreached"])
        if (u.is_string()) fam.unreached.insert(u.get<std::string>());
    out.push_back(std::move(fam));
  }
  return out;
}

std::string campaign(const json& doc) {
  const auto& c = doc.value("context", json::object());
  return fmt::format("seed {}, n {}, shard {}", c.value("seed", json()).dump(),
                     c.value("n", json()).dump(), c.value("shard", json()).dump());
}

// "boundary 10 -> 15, wrong 0 -> 3" for the verdicts whose counts differ.
std::string count_changes(const std::map<std::string, std::uint64_t>& a,
                          const std::map<std::string, std::uint64_t>& b) {
  std::string out;
  for (const char* v : verdicts) {
    const auto x = a.count(v) ? a.at(v) : 0, y = b.count(v) ? b.at(v) : 0;
    if (x != y) out += fmt::format("{}{} {} -> {}", out.empty() ? "" : ", ", v, x, y);
  }
  return out;
}

void compare_check(const json& old_doc, const std::string& old_path, const json& new_doc,
                   const std::string& new_path, CompareReport& r) {
  const auto olds = read_check(old_doc, old_path), news = read_check(new_doc, new_path);
  const bool same_campaign = campaign(old_doc) == campaign(new_doc);
  r.lines.push_back(fmt::format("check: {} ({}) -> {} ({}){}", old_path, campaign(old_doc), new_path,
                                campaign(new_doc),
                                same_campaign ? "; same campaign: every count and maximum is judged"
                                              : "; different campaigns: only wrong and planted faults are judged"));
  std::map<std::string, const Family*> by_name;
  for (const auto& f : olds) by_name[f.name] = &f;
  std::set<std::string> seen;
  for (const auto& n : news) {
    seen.insert(n.name);
    const auto it = by_name.find(n.name);
    if (it == by_name.end()) {
      r.lines.push_back(fmt::format("{}: only in NEW ({} queries)", n.name, n.counts.at("queries")));
      continue;
    }
    const Family& o = *it->second;
    // Strict judgement needs the same queries: same campaign and the same sources.
    const bool strict = same_campaign && o.sources == n.sources && n.gated;
    auto regress = [&](const std::string& what) {
      r.regressions.push_back(fmt::format("{}: {}", n.name, what));
    };
    const std::string changes = count_changes(o.counts, n.counts);
    if (!changes.empty()) r.lines.push_back(fmt::format("{}: {}", n.name, changes));
    if (n.gated && n.counts.at("wrong") > o.counts.at("wrong"))
      regress(fmt::format("wrong {} -> {}", o.counts.at("wrong"), n.counts.at("wrong")));
    if (n.planted && o.counts.at("wrong") > 0 && n.counts.at("wrong") == 0)
      regress("planted fault no longer found wrong (the gate stopped biting)");
    // The same queries with fewer `agree`: some moved to boundary, false_positive or
    // out_of_domain (a query moving from wrong to boundary is better, and leaves agree alone).
    if (strict && n.counts.at("agree") < o.counts.at("agree"))
      regress(fmt::format("agree {} -> {} (queries moved to {})", o.counts.at("agree"), n.counts.at("agree"),
                          count_changes(o.counts, n.counts)));
    std::set<std::string> tags;
    for (const auto& [t, c] : o.regimes) tags.insert(t);
    for (const auto& [t, c] : n.regimes) tags.insert(t);
    for (const auto& t : tags) {
      static const std::map<std::string, std::uint64_t> none;
      const auto ot = o.regimes.find(t), nt = n.regimes.find(t);
      const std::string ch = count_changes(ot == o.regimes.end() ? none : ot->second,
                                           nt == n.regimes.end() ? none : nt->second);
      if (!ch.empty()) r.lines.push_back(fmt::format("  regime {}: {}", t, ch));
    }
    for (const auto& [field, m] : n.error_max) {
      const auto oe = o.error_max.find(field);
      if (oe == o.error_max.end()) continue;
      if (m > oe->second) {
        r.lines.push_back(fmt::format("  error {}: max {:.3g} -> {:.3g} (grown{})", field, oe->second, m,
                                      strict ? "" : "; not judged across campaigns"));
        if (strict) regress(fmt::format("max error of {} grew {:.3g} -> {:.3g}", field, oe->second, m));
      } else if (m < oe->second) {
        r.lines.push_back(fmt::format("  error {}: max {:.3g} -> {:.3g}", field, oe->second, m));
      }
    }
    for (const auto& u : n.unreached)
      if (!o.unreached.count(u)) {
        r.lines.push_back(fmt::format("  newly UNREACHED {}", u));
        if (strict) regress(fmt::format("newly unreached: {}", u));
      }
  }
  for (const auto& o : olds)
    if (!seen.count(o.name)) r.lines.push_back(fmt::format("{}: only in OLD (not compared)", o.name));
}

// ---- bench (Google Benchmark JSON) ----

double to_ns(double t, const std::string& unit) {
  if (unit == "ns") return t;
  if (unit == "us") return t * 1e3;
  if (unit == "ms") return t * 1e6;
  if (unit == "s") return t * 1e9;
  return std::numeric_limits<double>::quiet_NaN();
}

struct BenchRow {
  double cpu_ns = 0;
  bool error = false;
};

// name -> CPU time per iteration (ns): the median aggregate when repetitions were reported
// as aggregates, else the median of the iteration runs of that name.
std::map<std::string, BenchRow> read_bench(const json& doc, const std::string& path) {
  const cases::Where where{path, ""};
  const auto& rows = doc["benchmarks"];
  if (!rows.is_array()) where.fail("benchmarks", "expected an array");
  bool aggregates = false;
  for (const auto& b : rows)
    if (b.is_object() && b.value("run_type", "") == "aggregate") aggregates = true;
  std::map<std::string, std::vector<double>> times;
  std::map<std::string, BenchRow> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& b = rows[i];
    const std::string at = fmt::format("benchmarks[{}].", i);
    if (!b.is_object()) where.fail(at.substr(0, at.size() - 1), "expected an object");
    const auto& name = cases::require(b, "name", where, at);
    if (!name.is_string()) where.fail(at + "name", "expected a string");
    std::string key = name.get<std::string>();
    if (b.value("error_occurred", false)) {
      out[key].error = true;
      continue;
    }
    if (aggregates) {
      if (b.value("aggregate_name", "") != "median") continue;
      key = b.value("run_name", key.substr(0, key.rfind("_median")));
    }
    const auto& cpu = cases::require(b, "cpu_time", where, at);
    if (!cpu.is_number() || !(cpu.get<double>() >= 0))
      where.fail(at + "cpu_time", fmt::format("expected a non-negative number, got {}", cpu.dump()));
    const std::string unit = b.value("time_unit", "ns");
    const double ns = to_ns(cpu.get<double>(), unit);
    if (std::isnan(ns)) where.fail(at + "time_unit", fmt::format("unknown unit \"{}\" (ns, us, ms, s)", unit));
    times[key].push_back(ns);
  }
  for (auto& [k, v] : times) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    out[k].cpu_ns = v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
  }
  return out;
}

void compare_bench(const json& old_doc, const std::string& old_path, const json& new_doc,
                   const std::string& new_path, const CompareOptions& o, CompareReport& r) {
  const auto olds = read_bench(old_doc, old_path), news = read_bench(new_doc, new_path);
  r.lines.push_back(fmt::format("bench: {} -> {}; CPU time per iteration, ratio NEW/OLD "
                                "(regression above {:.2f})", old_path, new_path, 1 + o.max_slowdown));
  r.lines.push_back(fmt::format("  {:<56} {:>12} {:>12} {:>7}", "benchmark", "OLD ns", "NEW ns", "ratio"));
  for (const auto& [name, n] : news) {
    const auto it = olds.find(name);
    if (it == olds.end()) {
      r.lines.push_back(fmt::format("  {:<56} {:>12} {:>12.4g} {:>7}", name, "-", n.cpu_ns, "new"));
      continue;
    }
    const BenchRow& old = it->second;
    if (n.error || old.error) {
      r.lines.push_back(fmt::format("  {:<56} {}", name, n.error ? "error in NEW" : "error in OLD only"));
      if (n.error && !old.error) r.regressions.push_back(fmt::format("{}: fails in NEW", name));
      continue;
    }
    const double ratio = old.cpu_ns > 0 ? n.cpu_ns / old.cpu_ns : (n.cpu_ns > 0 ? INFINITY : 1.0);
    const bool slower = ratio > 1 + o.max_slowdown;
    r.lines.push_back(fmt::format("  {:<56} {:>12.4g} {:>12.4g} {:>7.3f}{}", name, old.cpu_ns, n.cpu_ns,
                                  ratio, slower ? "  SLOWER" : ""));
    if (slower) r.regressions.push_back(fmt::format("{}: {:.3g}x the CPU time", name, ratio));
  }
  for (const auto& [name, old] : olds)
    if (!news.count(name)) r.lines.push_back(fmt::format("  {:<56} only in OLD (not compared)", name));
}

}  // namespace

CompareReport compare_results(const json& old_doc, const std::string& old_path, const json& new_doc,
                              const std::string& new_path, const CompareOptions& o) {
  CompareReport r;
  const std::string ko = kind_of(old_doc, old_path), kn = kind_of(new_doc, new_path);
  if (ko != kn)
    cases::Where{new_path, ""}.fail("schema", fmt::format("a {} result, but {} is a {} result", kn, old_path, ko));
  r.kind = ko;
  if (ko == "check") compare_check(old_doc, old_path, new_doc, new_path, r);
  else compare_bench(old_doc, old_path, new_doc, new_path, o, r);
  return r;
}

int compare_files(const std::string& old_path, const std::string& new_path, const CompareOptions& o) {
  const auto r = compare_results(cases::read_json_file(old_path), old_path,
                                 cases::read_json_file(new_path), new_path, o);
  for (const auto& l : r.lines) fmt::print("{}\n", l);
  for (const auto& l : r.regressions) fmt::print("REGRESSION {}\n", l);
  fmt::print("{}\n", r.regressions.empty() ? "no regression" : fmt::format("{} regression(s)", r.regressions.size()));
  return r.regressions.empty() ? 0 : 1;
}

}  // namespace contactbench::harness
