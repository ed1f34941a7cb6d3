// The contract of a pair and the generic machinery every family shares: the comparison
// rule (DESIGN.md), one evaluation of a query (evaluate), the check loop (parallel, sharded,
// deterministic), eval of a user's JSON Lines file, and benchmark registration. A family's
// traits struct derives from Pair<V>, V being the family's vocabulary in cases/<stem>.hpp
// (query and result types, canonical cases, generators, JSON), and states only what is
// particular to it:
//
//   struct XPair : Pair<cases::X> {
//     static constexpr std::string_view stem = "x";
//     static constexpr Agreement agreement = Agreement::approximate;
//     static constexpr std::string_view rule = "...";   // the tolerance and why, one line
//     static Result reference(const Query& q) { return reference::x(q); }
//     static Result fast(const Query& q) { return fast::x(q); }
//     static Comparison compare(const Query&, const Result& ref, const Result& fast);
//         // the family's rule; also reports every discrete decision the reference took
//   };
//
// and may override what Pair<V> supplies by default: in_domain (the fast variant's stated
// domain; outside it fast is not run and the verdict is out_of_domain), decision_space
// (every value of every discrete decision, so `check` can flag one no query reached),
// peers (packaged peers for `bench`), canonical (to add file-based sets: public data, with
// their own source name). One line in the registry table (harness/registry.cpp) adds it.
// A family whose traits also state its C ABI (using CQuery/CResult, to_c(query),
// from_c(result); include/contactbench/<stem>.h) can judge a user's plugin in place of its
// fast variant (check/eval/bench --plugin; harness/plugin.hpp).
#pragma once
#include "cases/common.hpp"
#include "cases/seed_seq.hpp"
#include "harness/plugin.hpp"
#include "harness/shard.hpp"
#include "cases/strict_json.hpp"
#include "harness/stats.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <array>
#include <atomic>
#include <chrono>
#include <concepts>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace contactbench::harness {

enum class Agreement { exact, conservative, approximate };
const char* to_string(Agreement a);

// What one comparison of reference and fast found. Fields are filled by the family's
// compare(); judge() applies the rule of DESIGN.md under the family's agreement class.
// Every margin, bound and error carries its unit (a string literal, e.g. "× longest edge",
// "ULP", "rad"): `eval` prints it beside each number and writes it to the JSON record.
struct Comparison {
  struct Mismatch {
    std::string field, reference, fast;
    double margin;  // reference's exact margin of this decision, in `unit`
    double bound;   // fast variant's stated error bound for it, same unit
    const char* unit = "";
  };
  struct FieldError {
    std::string field;
    double error;  // |fast - reference| in `unit` (scale-relative or ULPs)
    double bound;  // stated bound in that unit
    const char* unit = "";
  };
  // One discrete decision the reference took, for the coverage table: its value, the
  // reference's exact margin of it (0: exactly on a boundary) and the fast variant's stated
  // bound for it, both in `unit`.
  struct Decision {
    std::string name, value;
    double margin, bound;
    const char* unit = "";
    // Set when the exact margin is costly and the count does not need it: `margin` is then a
    // proven bound on the same side of `bound` and of 0, and records (comparison_json) call
    // this for the exact margin.
    std::function<double()> exact_margin;
  };
  std::vector<Mismatch> mismatches;
  std::vector<FieldError> errors;
  std::vector<Decision> decisions;
  bool false_positive = false;  // conservative families: fast reports what is not there
  std::string note;             // extra detail for examples
  // What else explains this query's verdict, family-specific (eval shows it; empty: nothing),
  // e.g. for ccd the exact separation, the conditioning in the bound, cut_short, ground truth.
  // Built only when a record is written: check judges millions of queries and needs none.
  std::function<nlohmann::json()> explain;

  // Records a discrete field; only a difference is kept. `unit`: a string literal.
  template <class T>
  void discrete(std::string field, const T& ref, const T& fast, double margin, double bound,
                const char* unit) {
    if (ref == fast) return;
    mismatches.push_back({std::move(field), fmt::format("{}", ref), fmt::format("{}", fast),
                          margin, bound, unit});
  }
  void continuous(std::string field, double error, double bound, const char* unit) {
    errors.push_back({std::move(field), error, bound, unit});
  }
  void reached(std::string name, std::string value, double margin, double bound, const char* unit) {
    decisions.push_back({std::move(name), std::move(value), margin, bound, unit});
  }
};

// The values one discrete decision can take. `explained` names values (or "boundary", for
// the decision's boundary) that no generated query is expected to reach, with the reason;
// `check` flags any other value, and a boundary, that no query reached.
struct DecisionSpace {
  std::string name;
  std::vector<std::string> values;
  std::map<std::string, std::string> explained = {};
};

// Rule 1-3 of DESIGN.md, under the family's agreement class: a discrete mismatch is
// `boundary` only when margin <= bound and the class allows boundaries (not `exact`); a
// continuous error above its bound (or NaN) is `wrong`; a false positive counts as such only
// in a `conservative` family, and is `wrong` in any other.
Verdict judge(const Comparison& c, Agreement agreement);
std::string describe(const Comparison& c);

struct CheckOptions {
  std::uint64_t n = 10000;      // generated queries (half random, half degenerate)
  std::uint64_t seed = 1;
  unsigned shard = 0, shards = 1;
  bool canonical = true;        // include canonical cases and data sets
  std::string shared_dir;       // ../shared (data sets); empty: cases::shared_dir's default
  bool progress = false;        // draw a progress line on stderr
  bool timing = true;           // time each call (distribution only; bench is authoritative)
  const Plugin* plugin = nullptr;  // judge this plugin in place of the fast variant
};

// Packaged peer for benchmarks: returns something to keep the optimizer honest.
template <class Q>
struct Peer {
  std::string name;
  std::function<double(const Q&)> run;
};

// What Pair<V> supplies by default: V is the family's vocabulary (cases/<stem>.hpp), a
// struct with the Query and Result types, canonical(), random(rng), degenerate(rng),
// to_json(query), to_json(result) and from_json(json, where). A traits struct hides any of
// these members by declaring its own.
template <class V>
struct Pair {
  using Query = typename V::Query;
  using Result = typename V::Result;
  static std::vector<cases::Named<Query>> canonical(const CheckOptions&) { return V::canonical(); }
  static cases::Generated<Query> random(cases::Rng& rng) { return V::random(rng); }
  static cases::Generated<Query> degenerate(cases::Rng& rng) { return V::degenerate(rng); }
  static nlohmann::json query_to_json(const Query& q) { return V::to_json(q); }
  static Query query_from_json(const nlohmann::json& j, const cases::Where& w) {
    return V::from_json(j, w);
  }
  static nlohmann::json result_to_json(const Result& r) { return V::to_json(r); }
  static bool in_domain(const Query&) { return true; }  // the fast variant's stated domain
  static std::vector<DecisionSpace> decision_space() { return {}; }
  static std::vector<Peer<Query>> peers() { return {}; }
};

// Traits that state the family's C ABI: CQuery/CResult the structs of
// include/contactbench/<stem>.h, to_c(query) (may point into the query, which outlives the
// call), from_c(result, query) (throws PluginError on a value the ABI does not allow).
template <class P>
concept HasPluginAbi = requires(const typename P::Query& q, const typename P::CResult& r) {
  { P::to_c(q) } -> std::convertible_to<typename P::CQuery>;
  { P::from_c(r, q) } -> std::convertible_to<typename P::Result>;
};

// Where a plugin is called: the fast variant's stated domain, narrowed by the family's C ABI
// where it has limits of its own (P::plugin_in_domain).
template <class P>
bool plugin_in_domain(const typename P::Query& q) {
  if constexpr (requires { P::plugin_in_domain(q); })
    return P::plugin_in_domain(q);
  else
    return P::in_domain(q);
}

// P's verdict on fast's answer to q: P's rule under P's agreement class.
template <class P>
Verdict verdict(const typename P::Query& q, const typename P::Result& ref,
                const typename P::Result& fast) {
  return judge(P::compare(q, ref, fast), P::agreement);
}

std::int64_t now_ns();

// One query judged: the reference's answer, fast's (not run outside its stated domain), the
// comparison and the verdict; times in ns when asked for. Every place that judges a query —
// check, eval, the scenarios that re-judge queries, the report's data — goes through
// evaluate, so a family's rule is written once, in its compare().
template <class P>
struct Evaluation {
  typename P::Result reference;
  std::optional<typename P::Result> fast;
  Comparison comparison;
  Verdict verdict = Verdict::agree;
  std::int64_t reference_ns = 0, fast_ns = 0;
};

template <class P>
Evaluation<P> evaluate(const typename P::Query& q, bool timed = false) {
  Evaluation<P> e;
  auto t0 = timed ? now_ns() : 0;
  e.reference = P::reference(q);
  if (timed) e.reference_ns = now_ns() - t0;
  if (!P::in_domain(q)) {
    e.verdict = Verdict::out_of_domain;
    e.comparison.note = "outside the fast variant's stated domain; fast not run";
    return e;
  }
  t0 = timed ? now_ns() : 0;
  e.fast = P::fast(q);
  if (timed) e.fast_ns = now_ns() - t0;
  e.comparison = P::compare(q, e.reference, *e.fast);
  e.verdict = judge(e.comparison, P::agreement);
  return e;
}

// The same with fast's answer given (a plugin's, computed elsewhere; nullopt: q outside the
// fast variant's stated domain, not run).
template <class P>
Evaluation<P> evaluate_given(const typename P::Query& q, const std::optional<typename P::Result>& fast,
                             std::int64_t fast_ns, bool timed = false) {
  Evaluation<P> e;
  const auto t0 = timed ? now_ns() : 0;
  e.reference = P::reference(q);
  if (timed) e.reference_ns = now_ns() - t0;
  if (!fast) {
    e.verdict = Verdict::out_of_domain;
    e.comparison.note = "outside the fast variant's stated domain; fast not run";
    return e;
  }
  e.fast = *fast;
  if (timed) e.fast_ns = fast_ns;
  e.comparison = P::compare(q, e.reference, *e.fast);
  e.verdict = judge(e.comparison, P::agreement);
  return e;
}

// A plugin's answers to queries[0 .. n) (nullopt outside the fast variant's stated domain,
// where it is not called) and their times, every call in a forked child (harness/plugin.hpp).
template <class P>
void plugin_answers(const Plugin& plugin, std::size_t n,
                    const std::function<const typename P::Query&(std::size_t)>& query,
                    const std::function<std::string(std::size_t)>& label,
                    std::vector<std::optional<typename P::Result>>& out, std::vector<std::int64_t>& ns) {
  out.assign(n, std::nullopt);
  ns.assign(n, 0);
  if constexpr (HasPluginAbi<P>) {
    std::vector<typename P::CQuery> in;
    std::vector<std::size_t> at;
    for (std::size_t k = 0; k < n; ++k)
      if (plugin_in_domain<P>(query(k))) {
        in.push_back(P::to_c(query(k)));
        at.push_back(k);
      }
    std::vector<std::int64_t> t;
    const auto res = call_plugin<typename P::CQuery, typename P::CResult>(
        plugin, in, t, [&](std::size_t j) { return label(at[j]); });
    for (std::size_t j = 0; j < at.size(); ++j) {
      try {
        out[at[j]] = P::from_c(res[j], query(at[j]));
      } catch (const PluginError& e) {
        throw PluginError(fmt::format("plugin {}: {} on {}", plugin.path, e.what(), label(at[j])));
      }
      ns[at[j]] = t[j];
    }
  } else {
    throw PluginError(fmt::format("family {} has no plugin ABI", P::stem));
  }
}

template <class P>
std::vector<Evaluation<P>> evaluate(const std::vector<typename P::Query>& queries) {
  std::vector<Evaluation<P>> out(queries.size());
  tbb::parallel_for(std::size_t{0}, queries.size(), [&](std::size_t i) { out[i] = evaluate<P>(queries[i]); });
  return out;
}

// A number for a JSON record: finite doubles as numbers, the rest as "inf", "-inf", "nan"
// (JSON has no such numbers; nlohmann would write null).
nlohmann::json json_number(double v);

// The comparison, field by field, with numbers and units: {"mismatches": [{field, reference,
// fast, margin, bound, unit, excused}], "errors": [{field, error, bound, unit, within}],
// "decisions": [{decision, value, margin, bound, unit}]} plus "explain" and "note" when set.
nlohmann::json comparison_json(const Comparison& c, Agreement agreement);

// {"verdict", "detail", "query", "reference", "fast", "comparison"} of one evaluation (fast
// null when not run; "comparison" as comparison_json).
template <class P>
nlohmann::json to_json(const typename P::Query& q, const Evaluation<P>& e) {
  return {{"verdict", to_string(e.verdict)}, {"detail", describe(e.comparison)},
          {"query", P::query_to_json(q)}, {"reference", P::result_to_json(e.reference)},
          {"fast", e.fast ? P::result_to_json(*e.fast) : nlohmann::json()},
          {"comparison", comparison_json(e.comparison, P::agreement)}};
}

struct BenchOptions {
  std::uint64_t seed = 1;
  std::size_t set_size = 4096;
  const Plugin* plugin = nullptr;  // also time this plugin as <stem>/<case>/plugin
};

// What a registry entry is to its family: the family's own fast variant (gated: a `wrong`
// fails the check), a published method measured beside it (not gated), or a planted fault
// (must be found `wrong`: the mutation test).
enum class Role { own, published, planted };

// The type-erased registry entry.
struct Family {
  std::string name;
  Agreement agreement = Agreement::exact;
  std::string justification;
  Role role = Role::own;
  std::string parent;    // published or planted: the family whose rule judges it
  bool gated() const { return role == Role::own; }
  bool planted() const { return role == Role::planted; }
  std::vector<DecisionSpace> decision_space;
  std::function<FamilyStats(const CheckOptions&)> check;
  // Evaluate a JSON Lines file of queries; returns per-query records, throws InputError.
  std::function<nlohmann::json(const std::string& path, const CheckOptions&)> eval;
  std::function<void(const BenchOptions&)> register_benchmarks;  // empty for planted faults
  std::function<std::vector<std::string>(const CheckOptions&)> canonical_names;
  // The first o.n generated queries of the campaign (o.seed) as eval reports them: records
  // {"verdict", "detail", "query", "reference", "fast"}. Their "query" lines are an eval
  // input that must give the same records back (the JSON round trip of the registry test).
  std::function<nlohmann::json(const CheckOptions&)> sample;
  bool plugin_abi = false;  // the traits state a C ABI: --plugin can stand in for fast
  // The tags ("generator=random shape=... ...") of the generated queries shard o.shard of
  // o.shards runs, in index order (what the shard deal balances; no query is evaluated).
  std::function<std::vector<std::string>(const CheckOptions&)> shard_tags;
};

// {"unreached": [...], "explained": [...]}: each value of f's decision space that no query
// in s reached, and each decision with no query on or within the stated bound of its
// boundary — unless the family explains why (DecisionSpace::explained).
nlohmann::json coverage_flags(const Family& f, const FamilyStats& s);

// Progress line on a terminal, thread-safe and cheap (updates at most ~10 times a second).
class Progress {
 public:
  Progress(std::string label, std::uint64_t total, bool enabled);
  ~Progress();
  void tick(std::uint64_t k = 1);

 private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::int64_t> last_ns_{0};
};

namespace detail {

// Calls fn(tag) for every "axis=value" tag of a regime label.
template <class F>
void for_each_tag(std::string_view regime, F&& fn) {
  while (!regime.empty()) {
    const auto sp = regime.find(' ');
    const auto tag = regime.substr(0, sp);
    if (!tag.empty()) fn(std::string(tag));
    if (sp == std::string_view::npos) break;
    regime.remove_prefix(sp + 1);
  }
}

template <class P>
void record(FamilyStats& s, const std::string& source, std::uint64_t index,
            const std::string& label, const std::string& regime, const typename P::Query& q,
            const Evaluation<P>& e, bool timed) {
  const Verdict v = e.verdict;
  s.total.add(v);
  s.by_source[source].add(v);
  for_each_tag(regime, [&](const std::string& tag) { s.by_regime[tag].add(v); });
  for (const auto& d : e.comparison.decisions) s.coverage[d.name][d.value].add(d.margin, d.bound);
  for (const auto& err : e.comparison.errors) {
    s.errors[err.field].add(std::abs(err.error), label);
    double& b = s.error_bound[err.field];
    b = std::max(b, err.bound);
    if (err.unit && *err.unit) s.error_unit.try_emplace(err.field, err.unit);
  }
  if (timed && e.fast) {
    s.time_ns["reference"].add(static_cast<double>(e.reference_ns), label);
    s.time_ns["fast"].add(static_cast<double>(e.fast_ns), label);
  }
  if (v == Verdict::agree || !s.keeps_example(v, source, index)) return;
  nlohmann::json body = {{"label", label}, {"query", P::query_to_json(q)},
                         {"reference", P::result_to_json(e.reference)},
                         {"detail", describe(e.comparison)}};
  if (e.fast) body["fast"] = P::result_to_json(*e.fast);
  if (!regime.empty()) body["regime"] = regime;
  s.add_example(v, {source, index, std::move(body)});
}

// Generated query i with its regime label: the degenerate or the random generator.
template <class P>
cases::Generated<typename P::Query> generate(cases::Rng& rng, bool degenerate) {
  return degenerate ? P::degenerate(rng) : P::random(rng);
}

// Tags of generated queries first .. first + count - 1: their generator and regime label.
template <class P>
std::vector<std::string> generated_tags(std::uint64_t seed, std::uint64_t first, std::uint64_t count) {
  std::vector<std::string> out(count);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, 256), [&](auto range) {
    for (std::uint64_t k = range.begin(); k != range.end(); ++k) {
      const std::uint64_t i = first + k;
      const bool deg = (i % 2) == 1;
      auto rng = cases::query_rng(seed, P::stem, deg ? "degenerate" : "random", i);
      out[k] = fmt::format("generator={} {}", deg ? "degenerate" : "random", generate<P>(rng, deg).regime);
    }
  });
  return out;
}

// The generated queries shard o.shard of o.shards runs (harness/shard.hpp), all when unsharded.
template <class P>
std::vector<std::uint64_t> shard_queries(const CheckOptions& o) {
  return deal_shard(o.n, o.shard, o.shards, [&](std::uint64_t first, std::uint64_t count) {
    return generated_tags<P>(o.seed, first, count);
  });
}

template <class Q>
struct Item {
  std::string source;
  std::uint64_t index = 0;
  std::string label, regime;
  Q query;
};

template <class P>
FamilyStats check(const CheckOptions& o) {
  using Q = typename P::Query;
  FamilyStats total;
  total.family = std::string(P::stem);
  tbb::enumerable_thread_specific<FamilyStats> local([&] {
    FamilyStats s;
    s.family = std::string(P::stem);
    return s;
  });
  // Canonical cases and data sets: sharded by position (each source a block, so each shard
  // gets its share of every source).
  std::vector<cases::Named<Q>> canon;
  if (o.canonical) canon = P::canonical(o);
  std::vector<std::uint64_t> mine_canon;
  for (std::uint64_t i = 0; i < canon.size(); ++i)
    if (i % o.shards == o.shard) mine_canon.push_back(i);
  // Generated queries: even index random, odd index degenerate; query i depends on (seed, i)
  // only, so shards and thread counts never change which queries are run.
  const auto mine_gen = shard_queries<P>(o);
  Progress progress(std::string(P::stem), mine_canon.size() + mine_gen.size(), o.progress);
  // In blocks: fast's answers (or the plugin's, from a forked child), then the reference and
  // the rule on both cores.
  auto run_items = [&](const std::vector<Item<Q>>& items) {
    std::vector<std::optional<typename P::Result>> given;
    std::vector<std::int64_t> given_ns;
    if (o.plugin)
      plugin_answers<P>(*o.plugin, items.size(), [&](std::size_t k) -> const Q& { return items[k].query; },
                        [&](std::size_t k) { return fmt::format("query {} ({})", items[k].label, items[k].source); },
                        given, given_ns);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, items.size(), 16), [&](auto range) {
      auto& s = local.local();
      for (std::size_t k = range.begin(); k != range.end(); ++k) {
        const auto& it = items[k];
        const auto e = o.plugin ? evaluate_given<P>(it.query, given[k], given_ns[k], o.timing)
                                : evaluate<P>(it.query, o.timing);
        record<P>(s, it.source, it.index, it.label, it.regime, it.query, e, o.timing);
        progress.tick();
      }
    });
  };
  constexpr std::size_t block = 1 << 14;
  for (std::size_t start = 0; start < mine_canon.size(); start += block) {
    std::vector<Item<Q>> items;
    for (std::size_t k = start; k < mine_canon.size() && k < start + block; ++k) {
      const auto& c = canon[mine_canon[k]];
      items.push_back({c.source, mine_canon[k], c.name, "", c.query});
    }
    run_items(items);
  }
  for (std::size_t start = 0; start < mine_gen.size(); start += block) {
    std::vector<Item<Q>> items(std::min(block, mine_gen.size() - start));
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, items.size(), 256), [&](auto range) {
      // The streams of query_rng, seeded a few queries at a time (cases/seed_seq.hpp).
      constexpr std::size_t lanes = cases::query_rng_lanes;
      std::array<cases::Rng, lanes> rngs;
      std::array<std::uint64_t, lanes> index;
      std::array<std::string_view, lanes> gens;
      for (std::size_t k0 = range.begin(); k0 < range.end(); k0 += lanes) {
        const std::size_t m = std::min(lanes, range.end() - k0);
        for (std::size_t j = 0; j < m; ++j) {
          index[j] = mine_gen[start + k0 + j];
          gens[j] = index[j] % 2 == 1 ? "degenerate" : "random";
        }
        cases::query_rngs(o.seed, P::stem, gens.data(), index.data(), m, rngs.data());
        for (std::size_t j = 0; j < m; ++j) {
          const std::uint64_t i = index[j];
          const bool deg = (i % 2) == 1;
          const char* gen = deg ? "degenerate" : "random";
          auto g = generate<P>(rngs[j], deg);
          items[k0 + j] = {gen, i, fmt::format("{}#{}", gen, i), std::move(g.regime), std::move(g.query)};
        }
      }
    });
    run_items(items);
  }
  for (auto& s : local) total.merge(s);
  return total;
}

template <class P>
nlohmann::json eval(const std::string& path, const CheckOptions& o) {
  cases::LineReader in(path);  // refuses directories, devices, NUL bytes, endless lines
  std::vector<std::pair<std::uint64_t, typename P::Query>> queries;
  std::string line;
  while (in.next(line)) {
    const std::uint64_t lineno = in.line_number();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const cases::Where where{path, fmt::format("line {}", lineno)};
    const nlohmann::json j = cases::parse_json_strict(line, where);
    queries.emplace_back(lineno, P::query_from_json(j, where));
  }
  if (queries.empty()) cases::Where{path, ""}.fail("", "no queries (the file is empty or blank)");
  std::vector<std::optional<typename P::Result>> given;
  std::vector<std::int64_t> given_ns;
  if (o.plugin)
    plugin_answers<P>(*o.plugin, queries.size(), [&](std::size_t k) -> const typename P::Query& { return queries[k].second; },
                      [&](std::size_t k) { return fmt::format("{} line {}", path, queries[k].first); },
                      given, given_ns);
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t k = 0; k < queries.size(); ++k) {
    const auto& q = queries[k].second;
    nlohmann::json record = {{"line", queries[k].first}};
    record.update(to_json<P>(q, o.plugin ? evaluate_given<P>(q, given[k], 0) : evaluate<P>(q)));
    out.push_back(std::move(record));
  }
  return out;
}

template <class P>
nlohmann::json sample(const CheckOptions& o) {
  nlohmann::json out = nlohmann::json::array();
  for (std::uint64_t i = 0; i < o.n; ++i) {
    const bool deg = (i % 2) == 1;
    auto rng = cases::query_rng(o.seed, P::stem, deg ? "degenerate" : "random", i);
    const auto g = generate<P>(rng, deg);
    out.push_back(to_json<P>(g.query, evaluate<P>(g.query)));
  }
  return out;
}

template <class P>
void register_benchmarks(const BenchOptions& o, const std::string& name) {
  using Q = typename P::Query;
  auto make_set = [o](const char* gen) {
    auto set = std::make_shared<std::vector<Q>>();
    for (std::size_t i = 0; i < o.set_size; ++i) {
      auto rng = cases::query_rng(o.seed, P::stem, gen, 2 * i + (gen[0] == 'd'));
      auto g = generate<P>(rng, gen[0] == 'd');
      if (P::in_domain(g.query)) set->push_back(std::move(g.query));
    }
    return set;
  };
  const bool own = name == P::stem;  // a published variant adds only its own fast row
  for (const char* gen : {"random", "degenerate"}) {
    auto set = make_set(gen);
    if (set->empty()) continue;  // every query outside the fast variant's domain
    auto add = [&](const std::string& impl, std::function<void(const Q&)> fn) {
      benchmark::RegisterBenchmark(fmt::format("{}/{}/{}", P::stem, gen, impl).c_str(),
                                   [set, fn](benchmark::State& st) {
                                     std::size_t i = 0;
                                     for (auto _ : st) {
                                       fn((*set)[i]);
                                       if (++i == set->size()) i = 0;
                                     }
                                     st.SetItemsProcessed(st.iterations());
                                   });
    };
    if (!own) {
      add(name, [](const Q& q) { benchmark::DoNotOptimize(P::fast(q)); });
      continue;
    }
    add("reference", [](const Q& q) { benchmark::DoNotOptimize(P::reference(q)); });
    add("fast", [](const Q& q) { benchmark::DoNotOptimize(P::fast(q)); });
    if constexpr (HasPluginAbi<P>) {
      using CQ = typename P::CQuery;
      using CR = typename P::CResult;
      auto in = std::make_shared<std::vector<CQ>>();
      if (o.plugin)  // the user's kernel on the same queries (in this process: bench runs apart)
        for (const auto& q : *set)  // may point into *set: kept alive
          if (plugin_in_domain<P>(q)) in->push_back(P::to_c(q));
      if (!in->empty()) {
        auto kernel = reinterpret_cast<void (*)(const CQ*, CR*)>(o.plugin->kernel);
        benchmark::RegisterBenchmark(fmt::format("{}/{}/plugin", P::stem, gen).c_str(),
                                     [set, in, kernel](benchmark::State& st) {
                                       std::size_t i = 0;
                                       CR r{};
                                       for (auto _ : st) {
                                         kernel(&(*in)[i], &r);
                                         benchmark::DoNotOptimize(r);
                                         if (++i == in->size()) i = 0;
                                       }
                                       st.SetItemsProcessed(st.iterations());
                                     });
      }
    }
    for (const auto& peer : P::peers()) {
      auto run = peer.run;
      add(peer.name, [run](const Q& q) { benchmark::DoNotOptimize(run(q)); });
    }
  }
}

// The registry entry of P under `name`, without benchmarks: what a planted fault needs
// (bench skips them), so their many instantiations do not compile benchmark code.
template <class P>
Family unbenchmarked_family(Role role, std::string name, std::string justification) {
  Family f;
  f.name = std::move(name);
  f.agreement = P::agreement;
  f.justification = std::move(justification);
  f.role = role;
  if (role != Role::own) f.parent = std::string(P::stem);
  f.decision_space = P::decision_space();
  f.check = &detail::check<P>;
  f.eval = &detail::eval<P>;
  f.sample = &detail::sample<P>;
  f.plugin_abi = HasPluginAbi<P>;
  f.shard_tags = [](const CheckOptions& o) {
    const auto all = detail::generated_tags<P>(o.seed, 0, o.n);
    std::vector<std::string> tags;
    for (auto i : detail::shard_queries<P>(o)) tags.push_back(all[i]);
    return tags;
  };
  f.canonical_names = [](const CheckOptions& o) {
    std::vector<std::string> names;
    for (const auto& c : P::canonical(o)) names.push_back(c.source + ":" + c.name);
    return names;
  };
  return f;
}
}  // namespace detail

// The registry entry of P (a traits struct deriving from Pair<V>) under `name`.
template <class P>
Family make_family(Role role = Role::own, std::string name = std::string(P::stem),
                   std::string justification = std::string(P::rule)) {
  Family f = detail::unbenchmarked_family<P>(role, std::move(name), std::move(justification));
  f.register_benchmarks = [name = f.name](const BenchOptions& o) { detail::register_benchmarks<P>(o, name); };
  return f;
}

// A published method of family P::stem, measured beside its own fast variant under the same
// rule but not gated: registered as "<stem>_published_<method>" and run by default.
template <class P>
Family make_published(std::string_view method, std::string description) {
  return make_family<P>(Role::published, fmt::format("{}_published_{}", P::stem, method),
                        "published method: " + std::move(description));
}

// A planted fault of family P::stem: registered as "<stem>_planted_<fault>", never run by
// default; the mutation test requires the CI-size check to find it `wrong`.
template <class P>
Family make_planted(std::string_view fault, std::string description) {
  return detail::unbenchmarked_family<P>(Role::planted, fmt::format("{}_planted_{}", P::stem, fault),
                                         "planted fault: " + std::move(description));
}

}  // namespace contactbench::harness
