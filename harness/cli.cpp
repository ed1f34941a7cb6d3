#include "harness/cli.hpp"

#include "cases/json_input.hpp"
#include "harness/merge.hpp"
#include "harness/compare.hpp"
#include "harness/options.hpp"
#include "harness/output.hpp"
#include "harness/registry.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <utility>
#include <sstream>
#include <fstream>
#include <iostream>

namespace contactbench::harness {
namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The named families (default: every family's own fast variant, each followed by its
// published methods); with `planted`, each selected own variant's planted faults follow too.
std::vector<const Family*> select_families(const std::vector<std::string>& names,
                                           bool planted = false) {
  std::vector<const Family*> out;
  if (names.empty()) {
    for (const auto& f : families())
      if (f.gated()) out.push_back(&f);
  } else {
    for (const auto& n : names) {
      const Family* f = find_family(n);
      if (!f) throw UsageError(fmt::format("unknown family \"{}\" (see `contactbench list`)", n));
      out.push_back(f);
    }
  }
  std::vector<const Family*> with;
  for (const Family* f : out) {
    with.push_back(f);
    if (!f->gated()) continue;
    for (const auto& p : families())
      if (p.parent == f->name && (p.role == Role::published || (planted && p.planted())))
        with.push_back(&p);
  }
  return with;
}

// "tag n (b boundary, w wrong, o out of domain)" per axis, one line per axis.
void print_regimes(const nlohmann::json& f) {
  if (!f.contains("by_regime")) return;
  std::map<std::string, std::string> lines;
  for (const auto& [tag, c] : f["by_regime"].items()) {
    const auto eq = tag.find('=');
    const std::string axis = tag.substr(0, eq), value = tag.substr(eq + 1);
    std::string extra;
    for (const char* k : {"boundary", "false_positive", "wrong", "out_of_domain"})
      if (c.value(k, std::uint64_t{0}) > 0)
        extra += fmt::format("{}{} {}", extra.empty() ? "" : ", ", c[k].get<std::uint64_t>(),
                             std::string(k) == "false_positive" ? "false+" : k);
    auto& line = lines[axis];
    line += fmt::format("{}{} {}{}", line.empty() ? "" : "; ", value,
                        c["queries"].get<std::uint64_t>(), extra.empty() ? "" : " (" + extra + ")");
  }
  for (const auto& [axis, line] : lines) fmt::print("    regime {:<8} {}\n", axis, line);
}

// "value reached (on boundary / within bound)" per decision, then the flags.
void print_coverage(const nlohmann::json& f) {
  if (f.contains("coverage"))
    for (const auto& [d, values] : f["coverage"].items()) {
      std::string line;
      for (const auto& [v, c] : values.items())
        line += fmt::format("{}{} {} ({}/{})", line.empty() ? "" : "; ", v,
                            c["reached"].get<std::uint64_t>(), c["on_boundary"].get<std::uint64_t>(),
                            c["within_bound"].get<std::uint64_t>());
      fmt::print("    decision {:<14} {}\n", d, line);
    }
  if (!f.contains("coverage_flags")) return;
  for (const auto& flag : f["coverage_flags"]["unreached"])
    fmt::print("    UNREACHED {}\n", flag.get<std::string>());
  for (const auto& e : f["coverage_flags"]["explained"])
    fmt::print("    not reached, explained: {}\n", e.get<std::string>());
}

void print_summary(const nlohmann::json& doc) {
  fmt::print("{:<38} {:>10} {:>10} {:>9} {:>8} {:>7} {:>7}\n", "family", "queries", "agree",
             "boundary", "false+", "wrong", "outdom");
  for (const auto& f : doc["families"]) {
    fmt::print("{:<38} {:>10} {:>10} {:>9} {:>8} {:>7} {:>7}\n", f["family"].get<std::string>(),
               f["queries"].get<std::uint64_t>(), f["agree"].get<std::uint64_t>(),
               f["boundary"].get<std::uint64_t>(), f["false_positive"].get<std::uint64_t>(),
               f["wrong"].get<std::uint64_t>(), f.value("out_of_domain", std::uint64_t{0}));
    if (f.contains("planted_fault_of")) continue;  // details of the honest families only
    const bool published = f.contains("published_method_of");  // its verdicts and speed
    if (!published) print_regimes(f);
    if (!published) print_coverage(f);
    if (f.contains("errors"))
      for (const auto& [field, h] : f["errors"].items())
        fmt::print("    {:<30} max error {:.3g} (stated bound up to {:.3g}), median {:.2g}{}\n", field,
                   h["max"].get<double>(), h["bound"].get<double>(), h["median"].get<double>(),
                   h.contains("unit") && h["unit"].is_string() ? " [" + h["unit"].get<std::string>() + "]" : "");
    if (f.contains("time_ns"))
      for (const auto& [impl, h] : f["time_ns"].items())
        fmt::print("    time {:<25} median ~{:.3g} ns, max {:.3g} ns ({})\n", impl,
                   h["median"].get<double>(), h["max"].get<double>(),
                   h["max_at"].get<std::string>());
  }
}

// Planted faults: found when the check judged at least one query `wrong`; which sources and
// regimes found it.
void print_mutation(const nlohmann::json& doc) {
  std::map<std::string, std::pair<int, int>> score;  // parent -> found, planted
  std::vector<std::string> lines;
  for (const auto& f : doc["families"]) {
    if (!f.contains("planted_fault_of")) continue;
    const bool found = f["wrong"].get<std::uint64_t>() > 0;
    auto& [k, n] = score[f["planted_fault_of"].get<std::string>()];
    k += found;
    ++n;
    // Who found it: every source, and the regimes with the most wrong queries.
    auto finders = [&](const char* key, std::size_t most) {
      std::vector<std::pair<std::uint64_t, std::string>> hits;
      if (f.contains(key))
        for (const auto& [name, c] : f[key].items())
          if (const auto w = c["wrong"].get<std::uint64_t>(); w > 0) hits.emplace_back(w, name);
      std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      std::string out;
      for (std::size_t i = 0; i < hits.size() && i < most; ++i)
        out += fmt::format("{}{} {}", out.empty() ? "" : ", ", hits[i].second, hits[i].first);
      if (hits.size() > most) out += fmt::format(", ... {} more", hits.size() - most);
      return out;
    };
    lines.push_back(fmt::format("  {:<48} {:<9} {}{}{}", f["family"].get<std::string>(),
                                found ? "found" : "SURVIVED", finders("by_source", 8),
                                found ? "; most in " : "", finders("by_regime", 4)));
  }
  if (lines.empty()) return;
  fmt::print("mutation score (planted faults found wrong / planted):");
  for (const auto& [parent, kn] : score) fmt::print(" {} {}/{}", parent, kn.first, kn.second);
  fmt::print("\n");
  for (const auto& l : lines) fmt::print("{}\n", l);
}

// 1 when a gated family has a `wrong` query, else 0 (a published method is measured, not
// gated). In a mutation run (check --planted) a planted fault is expected to be wrong
// instead: 1 when one survived (the gate did not bite).
int exit_code(const nlohmann::json& doc) {
  const bool mutation = doc["context"].value("planted", false);
  for (const auto& f : doc["families"]) {
    if (f.contains("published_method_of")) continue;
    const bool wrong = f["wrong"].get<std::uint64_t>() > 0;
    if (mutation && f.contains("planted_fault_of") ? !wrong : wrong) return 1;
  }
  return 0;
}

nlohmann::json run_check(const std::vector<const Family*>& fams, const CheckOptions& o,
                         bool planted, const std::string& shard_source = "none") {
  nlohmann::json doc = {{"schema", check_schema}, {"context", run_context()}};
  doc["context"]["planted"] = planted;
  doc["context"]["seed"] = o.seed;
  doc["context"]["n"] = o.n;
  doc["context"]["canonical"] = o.canonical;
  doc["context"]["plugin"] = o.plugin ? nlohmann::json(o.plugin->path) : nlohmann::json();
  doc["context"]["shard"] = fmt::format("{}/{}", o.shard, o.shards);
  doc["context"]["shard_source"] = shard_source;
  doc["context"]["shard_deal"] = shard_deal_name;
  doc["families"] = nlohmann::json::array();
  for (const Family* f : fams) doc["families"].push_back(family_json(*f, f->check(o)));
  return doc;
}

// eval's text output: per query the verdict, every discrete mismatch and continuous field
// with its margin or error against its bound and unit, the decisions the reference took, and
// the family's explanation (ccd: separation, conditioning, cut short, ground truth).
std::string number_text(const nlohmann::json& v) {
  return v.is_number() ? fmt::format("{:.3g}", v.get<double>()) : v.get<std::string>();
}

void print_explain(const nlohmann::json& explain) {
  for (const auto& [name, v] : explain.items()) {
    std::string text;
    if (v.is_object() && v.contains("value")) {
      text = fmt::format("{} {}", number_text(v["value"]), v.value("unit", ""));
    } else if (v.is_object()) {
      for (const auto& [k, x] : v.items())
        if (k != "what") text += fmt::format("{}{} {}", text.empty() ? "" : ", ", k, x.is_number() ? number_text(x) : x.dump());
    } else {
      text = v.is_string() ? v.get<std::string>() : v.dump();
    }
    fmt::print("    {:<18} {}\n", name, text);
  }
}

void print_eval_record(const nlohmann::json& r) {
  fmt::print("line {}: {}\n", r["line"].get<std::uint64_t>(), r["verdict"].get<std::string>());
  const auto& c = r["comparison"];
  for (const auto& m : c["mismatches"])
    fmt::print("    {:<18} reference {} fast {}: margin {} {} bound {} {} ({})\n", m["field"].get<std::string>(),
               m["reference"].get<std::string>(), m["fast"].get<std::string>(), number_text(m["margin"]),
               m["excused"].get<bool>() ? "<=" : "vs", number_text(m["bound"]), m["unit"].get<std::string>(),
               m["excused"].get<bool>() ? "excused: boundary" : "not excused");
  for (const auto& e : c["errors"])
    fmt::print("    {:<18} error {} {} bound {} {}\n", e["field"].get<std::string>(), number_text(e["error"]),
               e["within"].get<bool>() ? "<=" : "> ", number_text(e["bound"]), e["unit"].get<std::string>());
  for (const auto& d : c["decisions"])
    fmt::print("    decision {:<9} {} (margin {}, bound {} {})\n", d["decision"].get<std::string>(),
               d["value"].get<std::string>(), number_text(d["margin"]), number_text(d["bound"]),
               d["unit"].get<std::string>());
  if (c.contains("false_positive")) fmt::print("    false positive (fast reports a contact that is not there)\n");
  if (c.contains("explain")) print_explain(c["explain"]);
  if (c.contains("note")) fmt::print("    note: {}\n", c["note"].get<std::string>());
  fmt::print("    reference {}\n    fast      {}\n", r["reference"].dump(), r["fast"].dump());
}

constexpr const char* verdict_names[] = {"agree", "boundary", "false_positive", "wrong", "out_of_domain"};

// --only a,b: the verdicts to show (empty: all).
std::set<std::string> parse_only(const std::string& s) {
  std::set<std::string> out;
  std::istringstream in(s);
  for (std::string v; std::getline(in, v, ',');) {
    if (std::find(std::begin(verdict_names), std::end(verdict_names), v) == std::end(verdict_names))
      throw UsageError(fmt::format("--only: unknown verdict \"{}\" ({})", v, fmt::join(verdict_names, ", ")));
    out.insert(v);
  }
  return out;
}

std::string self_dir() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

int run_bench(const std::vector<std::string>& fams, const std::string& out, double min_time,
              int repetitions, const std::string& plugin = "") {
  std::string filter;
  for (const auto& f : fams) filter += (filter.empty() ? "^(" : "|") + f + "/";
  if (!filter.empty()) filter += ")";
  if (std::filesystem::path(out).has_parent_path())
    std::filesystem::create_directories(std::filesystem::path(out).parent_path());
  std::string cmd = fmt::format("'{}/contactbench_bench' --benchmark_out='{}' "
                                "--benchmark_out_format=json --benchmark_min_time={}",
                                self_dir(), out, min_time);
  if (repetitions > 1)
    cmd += fmt::format(" --benchmark_repetitions={} --benchmark_report_aggregates_only=true",
                       repetitions);
  if (!filter.empty()) cmd += fmt::format(" '--benchmark_filter={}'", filter);
  if (!plugin.empty()) cmd += fmt::format(" '--contactbench_plugin={}' '--contactbench_plugin_family={}'", plugin, fams.at(0));
  const int rc = std::system(cmd.c_str());
  // The plugin runs inside the benchmark process: a crash ends that process, not this one.
  if (rc != 0 && !plugin.empty() && WIFEXITED(rc) && WEXITSTATUS(rc) > 128)
    throw PluginError(fmt::format("plugin {}: the benchmark process died with signal {} ({}); no timings",
                                  plugin, WEXITSTATUS(rc) - 128, strsignal(WEXITSTATUS(rc) - 128)));
  return rc == 0 ? 0 : 2;
}

}  // namespace

int cli_main(int argc, char** argv) {
  CLI::App app{"contactbench: fast contact-mechanics kernels certified against exact oracles"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all");

  CheckOptions opts;
  opts.shared_dir = cases::shared_dir();
  std::vector<std::string> family_names;
  std::string json_out = "results/check.json", shard, input, scenario_name, out_dir = "results/run";
  std::string bench_out = "results/bench.json";
  std::vector<std::string> params, merge_inputs;
  std::string variant = "both", plugin_path, only, compare_old, compare_new;
  std::optional<unsigned> shards_option;
  CompareOptions compare_opts;
  bool quiet = false, no_canonical = false, planted = false;
  double min_time = 0.05;
  int repetitions = 1;

  auto* list = app.add_subcommand("list", "families, canonical cases, generators, scenarios");
  list->add_option("--shared", opts.shared_dir, "the shared folder (data sets)");
  auto* check = app.add_subcommand("check", "run reference and fast, compare, write JSON");
  check->add_option("--family", family_names, "family (repeatable; default: all)");
  check->add_option("--n", opts.n, "generated queries, half random, half degenerate")->capture_default_str()->check(whole_number(0, max_queries));
  check->add_option("--seed", opts.seed, "seed of the generated queries")->capture_default_str()->check(whole_number(0, UINT64_MAX));
  check->add_option("--json", json_out, "output file")->capture_default_str();
  check->add_option("--shard", shard,
                    "i/N: run part i of N, shards numbered from 0 (0 <= i < N); default: from "
                    "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX with "
                    "--shards or CONTACTBENCH_SHARDS, GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS");
  check->add_option("--shards", shards_option, "N: the number of shards for JOB_COMPLETION_INDEX (Kubernetes Indexed Job)");
  check->add_option("--plugin", plugin_path, "shared library with your kernel (include/contactbench/<family>.h), judged in place of fast; needs one --family");
  check->add_option("--shared", opts.shared_dir, "the shared folder (data sets)");
  check->add_flag("--no-canonical", no_canonical, "skip canonical cases and data sets");
  check->add_flag("--quiet", quiet, "no progress line");
  check->add_flag("--planted", planted, "also run each selected family's planted faults (exit 1 if one survives)");
  auto* merge = app.add_subcommand("merge", "merge check JSON files of shards");
  merge->add_option("inputs", merge_inputs, "shard files")->required();
  merge->add_option("--json", json_out, "output file")->capture_default_str();
  auto* eval = app.add_subcommand("eval", "evaluate both variants on your own queries (JSON Lines)");
  eval->add_option("--family", family_names, "family")->required();
  eval->add_option("--input", input, "JSON Lines file, one query per line")->required();
  eval->add_option("--json", json_out, "also write the per-query records here");
  eval->add_option("--plugin", plugin_path, "shared library with your kernel, evaluated in place of fast");
  eval->add_option("--only", only, "show only these verdicts, e.g. wrong,boundary (the summary counts all)");
  eval->add_option("--shared", opts.shared_dir, "the shared folder (data sets)");
  auto* bench = app.add_subcommand("bench", "Google Benchmark of every pair (and peers)");
  bench->add_option("--family", family_names, "family (repeatable; default: all)");
  bench->add_option("--json", bench_out, "output file")->capture_default_str();
  bench->add_option("--min-time", min_time, "seconds per benchmark")->capture_default_str()->check(finite_number(0, 60));
  bench->add_option("--repetitions", repetitions, "repetitions (aggregates reported)")->check(whole_number(1, 1000));
  bench->add_option("--plugin", plugin_path, "shared library with your kernel, timed as <family>/<case>/plugin; needs one --family");
  bench->add_option("--shared", opts.shared_dir, "the shared folder (data sets)");
  auto* run = app.add_subcommand("run", "time series of a canonical scenario");
  run->add_option("scenario", scenario_name, "scenario name (see `contactbench list`)")->required();
  run->add_option("--out-dir", out_dir, "output folder")->capture_default_str();
  run->add_option("--variant", variant, "fast, reference or both")->capture_default_str();
  run->add_option("--param", params, "key=value, scenario-specific (repeatable)");
  run->add_option("--shared", opts.shared_dir, "the shared folder (data sets)");
  auto* compare = app.add_subcommand("compare", "what got worse between two check or two bench results (exit 1)");
  compare->add_option("old", compare_old, "OLD.json (check or bench output)")->required();
  compare->add_option("new", compare_new, "NEW.json, same kind")->required();
  compare->add_option("--max-slowdown", compare_opts.max_slowdown,
                      "bench: CPU time ratio NEW/OLD above 1 + this is a regression")->capture_default_str();
  auto* report = app.add_subcommand("report", "check + bench + every scenario, then the HTML report");
  report->add_option("--n", opts.n, "generated queries per family")->capture_default_str()->check(whole_number(0, max_queries));
  report->add_option("--min-time", min_time, "seconds per benchmark")->capture_default_str()->check(finite_number(0, 60));
  report->add_option("--shared", opts.shared_dir, "the shared folder (data sets)");

  // An unknown command is named (CLI11 would only say that one is required).
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const auto* sub : std::as_const(app).get_subcommands([](const CLI::App*) { return true; })) {
      known = known || sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      fmt::print(stderr, "error: unknown command {} (commands: {})\n", cases::quote(argv[1]), names);
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {  // one line naming the option
    fmt::print(stderr, "error: {} (see --help)\n", e.what());
    return 2;
  }
  opts.progress = !quiet && isatty(2);

  try {
    if (*list) {
      for (const auto& f : families()) {
        if (!f.gated()) continue;  // listed under their family
        fmt::print("{}  [{}]\n    {}\n", f.name, to_string(f.agreement), f.justification);
        fmt::print("    generators: random, degenerate (regime-labelled)\n");
        for (const auto& d : f.decision_space)
          fmt::print("    decision {}: {}\n", d.name, fmt::join(d.values, ", "));
        std::vector<std::string> faults, published;
        for (const auto& p : families())
          if (p.parent == f.name) (p.planted() ? faults : published).push_back(p.name);
        if (!published.empty()) fmt::print("    published methods (not gated): {}\n", fmt::join(published, ", "));
        if (!faults.empty()) fmt::print("    planted faults: {}\n", fmt::join(faults, ", "));
        try {  // a missing data set must not hide the other families
          const auto names = f.canonical_names(opts);
          fmt::print("    canonical: {} cases", names.size());
          for (std::size_t i = 0; i < names.size() && i < 8; ++i) fmt::print("{} {}", i ? "," : ":", names[i]);
          fmt::print("{}\n", names.size() > 8 ? ", ..." : "");
        } catch (const cases::InputError& e) {
          fmt::print("    canonical: unavailable: {}\n", e.what());
        }
      }
      fmt::print("scenarios:\n");
      for (const auto& s : scenarios()) fmt::print("  {:<26} {}\n", s.name, s.description);
      return 0;
    }
    // A plugin stands in for one family's fast variant (loaded once; every call in a child).
    std::optional<Plugin> plugin;
    auto load = [&]() -> const Plugin* {
      if (plugin_path.empty()) return nullptr;
      if (family_names.size() != 1) throw UsageError("--plugin takes exactly one --family");
      const Family* f = find_family(family_names[0]);
      if (!f || !f->gated()) throw UsageError(fmt::format("--plugin: \"{}\" is not a family (see `contactbench list`)", family_names[0]));
      if (!f->plugin_abi) {
        std::vector<std::string> with;
        for (const auto& g : families()) if (g.gated() && g.plugin_abi) with.push_back(g.name);
        throw UsageError(fmt::format("--plugin: family {} has no C ABI yet (families with one: {})", f->name, fmt::join(with, ", ")));
      }
      plugin = load_plugin(plugin_path, f->name);
      return &*plugin;
    };
    if (*check) {
      const ShardSpec spec = resolve_shard(shard, shards_option);
      opts.shard = spec.shard;
      opts.shards = spec.shards;
      opts.canonical = !no_canonical;
      opts.plugin = load();
      const auto fams = opts.plugin ? std::vector<const Family*>{find_family(family_names[0])}
                                    : select_families(family_names, planted);
      const auto doc = run_check(fams, opts, planted, spec.source);
      write_json(json_out, doc);
      print_summary(doc);
      print_mutation(doc);
      if (opts.plugin) fmt::print("{}: judged plugin {} in place of the fast variant\n", family_names[0], plugin_path);
      fmt::print("seed {}, shard {} (numbered from 0; from {}); results in {}\n", opts.seed,
                 doc["context"]["shard"].get<std::string>(), spec.source, json_out);
      return exit_code(doc);
    }
    if (*merge) {
      const auto doc = merge_check_files(merge_inputs);
      write_json(json_out, doc);
      print_summary(doc);
      print_mutation(doc);
      return exit_code(doc);
    }
    if (*eval) {
      if (family_names.size() != 1) throw UsageError("eval takes exactly one --family");
      const Family* f = select_families(family_names).front();
      opts.plugin = load();
      const auto shown = parse_only(only);
      const auto records = f->eval(input, opts);
      int rc = 0;
      std::map<std::string, std::uint64_t> counts;
      nlohmann::json kept = nlohmann::json::array();
      for (const auto& r : records) {
        const std::string v = r["verdict"].get<std::string>();
        ++counts[v];
        if (v == "wrong") rc = 1;
        if (!shown.empty() && !shown.count(v)) continue;
        print_eval_record(r);
        kept.push_back(r);
      }
      std::string summary = fmt::format("{} queries:", records.size());
      for (const char* v : verdict_names)
        summary += fmt::format("{} {} {}", v == verdict_names[0] ? "" : ",", v, counts[v]);
      if (!shown.empty()) summary += fmt::format(" (shown: {})", fmt::join(shown, ","));
      fmt::print("{}\n", summary);
      if (eval->count("--json")) {
        nlohmann::json c = nlohmann::json::object();
        for (const auto& [v, n] : counts) c[v] = n;
        write_json(json_out, {{"schema", "contactbench.eval/1"}, {"context", run_context()}, {"family", f->name},
                              {"counts", c}, {"records", kept}});
      }
      return rc;
    }
    if (*compare) return compare_files(compare_old, compare_new, compare_opts);
    if (*bench) {
      for (const auto& n : family_names) select_families({n});
      if (!plugin_path.empty()) load();  // a bad plugin: one line here, before the benchmark runs
      // The benchmark executable reads the data sets from $CONTACTBENCH_SHARED.
      if (bench->count("--shared")) setenv("CONTACTBENCH_SHARED", opts.shared_dir.c_str(), 1);
      return run_bench(family_names, bench_out, min_time, repetitions, plugin_path);
    }
    if (*run) {
      const Scenario* s = find_scenario(scenario_name);
      if (!s) throw UsageError(fmt::format("unknown scenario \"{}\" (see `contactbench list`)", scenario_name));
      if (variant != "fast" && variant != "reference" && variant != "both")
        throw UsageError("--variant must be fast, reference or both");
      ScenarioOptions so{out_dir, variant, {}, opts.shared_dir, opts.progress};
      for (const auto& p : params) {
        const auto eq = p.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError(fmt::format("--param expects key=value, got \"{}\"", p));
        if (!so.params.emplace(p.substr(0, eq), p.substr(eq + 1)).second)
          throw UsageError(fmt::format("--param {}: given twice", p.substr(0, eq)));
      }
      return s->run(so);
    }
    if (*report) {
      // Five stages, each announced on its own line and closed with its wall time. stdout is
      // flushed before every child process (bench, the Python scripts) writes to the same
      // stream, so a pipe or a log file keeps the order a terminal shows.
      using clock = std::chrono::steady_clock;
      const auto start = clock::now();
      int stage = 0;
      auto seconds_since = [](clock::time_point t0) {
        return std::chrono::duration<double>(clock::now() - t0).count();
      };
      auto begin = [&](const std::string& what) {
        fmt::print("[{}/5] {}\n", ++stage, what);
        std::fflush(stdout);
        return clock::now();
      };
      auto done = [&](clock::time_point t0) {
        fmt::print("[{}/5] done in {:.0f} s\n", stage, seconds_since(t0));
        std::fflush(stdout);
      };
      auto t0 = begin(fmt::format("check: reference and fast on every family, published method and "
                                  "planted fault ({} generated queries each) -> results/check.json",
                                  opts.n));
      const auto doc = run_check(select_families({}, true), opts, true);
      write_json("results/check.json", doc);
      print_summary(doc);
      print_mutation(doc);
      int rc = exit_code(doc);
      done(t0);
      t0 = begin("bench: Google Benchmark of every pair, peer and scenario step (about a minute; "
                 "a line as each benchmark ends, the largest square drop alone takes ~30 s) -> "
                 "results/bench.json");
      if (run_bench({}, "results/bench.json", min_time, 1) != 0) rc = 2;
      done(t0);
      const auto& all = scenarios();
      t0 = begin(fmt::format("scenarios: {} of them -> results/run/", all.size()));
      for (std::size_t i = 0; i < all.size(); ++i) {
        fmt::print("run {} ({}/{})\n", all[i].name, i + 1, all.size());
        std::fflush(stdout);
        rc = std::max(rc, all[i].run(ScenarioOptions{"results/run", "both", {}, opts.shared_dir, opts.progress}));
        std::fflush(stdout);
      }
      done(t0);
      // The ellipsoid slide (state map) is made by its section's script through `eval` of
      // this binary; it is not a C++ scenario yet.
      t0 = begin("ellipsoid_contact slide (reports/sections/ellipsoid_contact.py through eval)");
      const std::string slide = fmt::format(
          "/usr/bin/python3 '{}/reports/sections/ellipsoid_contact.py' --results results --binary '{}'",
          CONTACTBENCH_SOURCE_DIR, std::filesystem::read_symlink("/proc/self/exe").string());
      if (std::system(slide.c_str()) != 0) rc = std::max(rc, 2);
      done(t0);
      t0 = begin("HTML report (reports/report.py) -> reports/out/index.html");
      const std::string cmd = fmt::format("/usr/bin/python3 '{}/reports/report.py' --results results --out reports/out",
                                          CONTACTBENCH_SOURCE_DIR);
      if (std::system(cmd.c_str()) != 0) rc = std::max(rc, 2);
      done(t0);
      const int total = static_cast<int>(seconds_since(start) + 0.5);
      fmt::print("report: reports/out/index.html ({} min {} s in all)\n", total / 60, total % 60);
      return rc;
    }
  } catch (const cases::InputError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const PluginError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const UsageError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "error: out of memory (is an input far larger than intended?)\n");
    return 2;
  } catch (const nlohmann::json::exception& e) {  // a reader let a library error through
    fmt::print(stderr, "error: internal error reading JSON, please report it: {}\n", cases::one_line(e.what()));
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "error: {}\n", cases::one_line(e.what()));
    return 2;
  }
  return 2;
}

}  // namespace contactbench::harness
