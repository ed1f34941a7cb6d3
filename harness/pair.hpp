// The contract of a pair and the generic machinery every family shares: the comparison
// rule (DESIGN.md), the check loop (parallel, sharded, deterministic), eval of a user's
// JSON Lines file, and benchmark registration. A family supplies a traits struct:
//
//   struct XPair {
//     using Query = cases::XQuery;  using Result = cases::XResult;
//     static constexpr std::string_view stem = "x";
//     static Result reference(const Query&);            // reference::x
//     static Result fast(const Query&);                 // fast::x
//     static std::vector<cases::Named<Query>> canonical(const CheckOptions&);
//     static cases::Generated<Query> random(cases::Rng&);      // query + regime label
//     static cases::Generated<Query> degenerate(cases::Rng&);
//     static Comparison compare(const Query&, const Result& ref, const Result& fast);
//         // also reports every discrete decision the reference took: c.reached(...)
//     static nlohmann::json query_to_json(const Query&);
//     static Query query_from_json(const nlohmann::json&, const cases::Where&);
//     static nlohmann::json result_to_json(const Result&);
//     // optional: static std::vector<Peer<Query>> peers();  packaged peers for `bench`
//     // optional: static std::vector<DecisionSpace> decision_space();  every value of every
//     //           discrete decision, so `check` can flag one that no query reached
//     // optional: static bool in_domain(const Query&);  false: the query is outside the fast
//     //           variant's stated domain; fast is not run, the verdict is out_of_domain
//   };
//
// File-based sets (public data) are returned by canonical() with their own source name,
// and one line in the registry table (harness/registry.cpp).
#pragma once
#include "cases/common.hpp"
#include "harness/stats.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>
#include <concepts>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace contactbench::cases {
// A query with a name (canonical cases) or a source label (data-set entries).
template <class Q>
struct Named {
  std::string name;
  Q query;
  std::string source = "canonical";  // by_source key in the statistics
};
}  // namespace contactbench::cases

namespace contactbench::harness {

enum class Agreement { exact, conservative, approximate };
const char* to_string(Agreement a);

// What one comparison of reference and fast found. Fields are filled by the family's
// compare(); judge() applies the rule of DESIGN.md to them.
struct Comparison {
  struct Mismatch {
    std::string field, reference, fast;
    double margin;  // reference's exact margin of this decision, in the family's unit
    double bound;   // fast variant's stated error bound for it, same unit
  };
  struct FieldError {
    std::string field;
    double error;  // |fast - reference| in the field's unit (scale-relative or ULPs)
    double bound;  // stated bound in that unit
  };
  // One discrete decision the reference took, for the coverage table: its value, the
  // reference's exact margin of it (0: exactly on a boundary) and the fast variant's stated
  // bound for it, both in the family's unit for that decision.
  struct Decision {
    std::string name, value;
    double margin, bound;
  };
  std::vector<Mismatch> mismatches;
  std::vector<FieldError> errors;
  std::vector<Decision> decisions;
  bool false_positive = false;  // conservative families: fast reports what is not there
  std::string note;             // extra detail for examples

  // Records a discrete field; only a difference is kept.
  template <class T>
  void discrete(std::string field, const T& ref, const T& fast, double margin, double bound) {
    if (ref == fast) return;
    mismatches.push_back({std::move(field), fmt::format("{}", ref), fmt::format("{}", fast),
                          margin, bound});
  }
  void continuous(std::string field, double error, double bound) {
    errors.push_back({std::move(field), error, bound});
  }
  void reached(std::string name, std::string value, double margin, double bound) {
    decisions.push_back({std::move(name), std::move(value), margin, bound});
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

// Rule 1-3 of DESIGN.md: a discrete mismatch is `boundary` only when margin <= bound;
// a continuous error above its bound (or NaN) is `wrong`.
Verdict judge(const Comparison& c);
std::string describe(const Comparison& c);

struct CheckOptions {
  std::uint64_t n = 10000;      // generated queries (half random, half degenerate)
  std::uint64_t seed = 1;
  unsigned shard = 0, shards = 1;
  bool canonical = true;        // include canonical cases and data sets
  std::string shared_dir;       // ../shared (data sets); empty: search next to the source
  bool progress = false;        // draw a progress line on stderr
  bool timing = true;           // time each call (distribution only; bench is authoritative)
};

// Packaged peer for benchmarks: returns something to keep the optimizer honest.
template <class Q>
struct Peer {
  std::string name;
  std::function<double(const Q&)> run;
};

struct BenchOptions {
  std::uint64_t seed = 1;
  std::size_t set_size = 4096;
};

// The type-erased registry entry.
struct Family {
  std::string name;
  Agreement agreement = Agreement::exact;
  std::string justification;
  bool planted = false;  // deliberately faulty, for the tests that show the gate bites
  std::string parent;    // planted: the family whose fast variant it mutates
  std::vector<DecisionSpace> decision_space;
  std::function<FamilyStats(const CheckOptions&)> check;
  // Evaluate a JSON Lines file of queries; returns per-query records, throws InputError.
  std::function<nlohmann::json(const std::string& path, const CheckOptions&)> eval;
  std::function<void(const BenchOptions&)> register_benchmarks;
  std::function<std::vector<std::string>(const CheckOptions&)> canonical_names;
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

std::int64_t now_ns();

namespace detail {

template <class P>
nlohmann::json example_body(const std::string& label, const typename P::Query& q,
                            const typename P::Result& r, const typename P::Result& f,
                            const Comparison& c) {
  return {{"label", label}, {"query", P::query_to_json(q)}, {"reference", P::result_to_json(r)},
          {"fast", P::result_to_json(f)}, {"detail", describe(c)}};
}

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
            const Comparison& c, const typename P::Result& r, const typename P::Result& f,
            std::int64_t t_ref, std::int64_t t_fast, bool timed) {
  const Verdict v = judge(c);
  s.total.add(v);
  s.by_source[source].add(v);
  for_each_tag(regime, [&](const std::string& tag) { s.by_regime[tag].add(v); });
  for (const auto& d : c.decisions) s.coverage[d.name][d.value].add(d.margin, d.bound);
  for (const auto& e : c.errors) {
    s.errors[e.field].add(std::abs(e.error), label);
    double& b = s.error_bound[e.field];
    b = std::max(b, e.bound);
  }
  if (timed) {
    s.time_ns["reference"].add(static_cast<double>(t_ref), label);
    s.time_ns["fast"].add(static_cast<double>(t_fast), label);
  }
  if (v != Verdict::agree) {
    auto body = example_body<P>(label, q, r, f, c);
    if (!regime.empty()) body["regime"] = regime;
    s.add_example(v, {source, index, std::move(body)});
  }
}

// A query outside the fast variant's stated domain: the reference answers, fast is not run.
template <class P>
void record_out_of_domain(FamilyStats& s, const std::string& source, std::uint64_t index,
                          const std::string& label, const std::string& regime,
                          const typename P::Query& q, const typename P::Result& r) {
  s.total.add(Verdict::out_of_domain);
  s.by_source[source].add(Verdict::out_of_domain);
  for_each_tag(regime, [&](const std::string& tag) { s.by_regime[tag].add(Verdict::out_of_domain); });
  nlohmann::json body = {{"label", label}, {"query", P::query_to_json(q)},
                         {"reference", P::result_to_json(r)},
                         {"detail", "outside the fast variant's stated domain"}};
  if (!regime.empty()) body["regime"] = regime;
  s.add_example(Verdict::out_of_domain, {source, index, std::move(body)});
}

template <class P>
bool in_domain(const typename P::Query& q) {
  if constexpr (requires { P::in_domain(q); }) return P::in_domain(q);
  return true;
}

// Generated query i with its regime label: the degenerate or the random generator.
template <class P>
cases::Generated<typename P::Query> generate(cases::Rng& rng, bool degenerate) {
  return degenerate ? P::degenerate(rng) : P::random(rng);
}

template <class P>
std::pair<typename P::Result, std::int64_t> timed_call(typename P::Result (*fn)(const typename P::Query&),
                                                       const typename P::Query& q, bool timed) {
  if (!timed) return {fn(q), 0};
  const auto t0 = now_ns();
  auto r = fn(q);
  return {std::move(r), now_ns() - t0};
}

template <class P>
FamilyStats check(const CheckOptions& o) {
  using Q = typename P::Query;
  using R = typename P::Result;
  FamilyStats total;
  total.family = std::string(P::stem);
  tbb::enumerable_thread_specific<FamilyStats> local([&] {
    FamilyStats s;
    s.family = std::string(P::stem);
    return s;
  });
  auto run_one = [&](FamilyStats& s, const std::string& source, std::uint64_t index,
                     const std::string& label, const std::string& regime, const Q& q) {
    auto [r, tr] = timed_call<P>(&P::reference, q, o.timing);
    if (!in_domain<P>(q)) return record_out_of_domain<P>(s, source, index, label, regime, q, r);
    auto [f, tf] = timed_call<P>(&P::fast, q, o.timing);
    record<P>(s, source, index, label, regime, q, P::compare(q, r, f), r, f, tr, tf, o.timing);
  };
  // Canonical cases and data sets: sharded by position like generated queries.
  std::vector<cases::Named<Q>> canon;
  if (o.canonical) canon = P::canonical(o);
  std::vector<std::uint64_t> mine_canon;
  for (std::uint64_t i = 0; i < canon.size(); ++i)
    if (i % o.shards == o.shard) mine_canon.push_back(i);
  std::uint64_t mine_gen = 0;
  for (std::uint64_t i = o.shard; i < o.n; i += o.shards) ++mine_gen;
  Progress progress(std::string(P::stem), mine_canon.size() + mine_gen, o.progress);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, mine_canon.size(), 16), [&](auto range) {
    auto& s = local.local();
    for (std::size_t k = range.begin(); k != range.end(); ++k) {
      const auto& c = canon[mine_canon[k]];
      run_one(s, c.source, mine_canon[k], c.name, "", c.query);
      progress.tick();
    }
  });
  // Generated queries: even index random, odd index degenerate; query i depends on (seed, i)
  // only, so shards and thread counts never change which queries are run.
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, mine_gen, 256), [&](auto range) {
    auto& s = local.local();
    for (std::uint64_t k = range.begin(); k != range.end(); ++k) {
      const std::uint64_t i = o.shard + k * o.shards;
      const bool deg = (i % 2) == 1;
      const char* gen = deg ? "degenerate" : "random";
      auto rng = cases::query_rng(o.seed, P::stem, gen, i);
      const auto g = generate<P>(rng, deg);
      run_one(s, gen, i, fmt::format("{}#{}", gen, i), g.regime, g.query);
      progress.tick();
    }
  });
  for (auto& s : local) total.merge(s);
  return total;
}

template <class P>
nlohmann::json eval(const std::string& path, const CheckOptions&) {
  std::ifstream in(path);
  if (!in) cases::Where{path, ""}.fail("", "cannot open file");
  nlohmann::json out = nlohmann::json::array();
  std::string line;
  std::uint64_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const cases::Where where{path, fmt::format("line {}", lineno)};
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
      where.fail("", fmt::format("not valid JSON (truncated or malformed): byte {}", e.byte));
    } catch (const nlohmann::json::exception& e) {  // e.g. 1e400: too large for a double
      where.fail("", fmt::format("unreadable JSON: {}", e.what()));
    }
    const auto q = P::query_from_json(j, where);
    const auto r = P::reference(q);
    if (!in_domain<P>(q)) {
      out.push_back({{"line", lineno}, {"verdict", to_string(Verdict::out_of_domain)},
                     {"detail", "outside the fast variant's stated domain; fast not run"},
                     {"query", P::query_to_json(q)}, {"reference", P::result_to_json(r)},
                     {"fast", nullptr}});
      continue;
    }
    const auto f = P::fast(q);
    const auto c = P::compare(q, r, f);
    out.push_back({{"line", lineno}, {"verdict", to_string(judge(c))}, {"detail", describe(c)},
                   {"query", P::query_to_json(q)}, {"reference", P::result_to_json(r)},
                   {"fast", P::result_to_json(f)}});
  }
  return out;
}

template <class P>
void register_benchmarks(const BenchOptions& o) {
  using Q = typename P::Query;
  auto make_set = [o](const char* gen) {
    auto set = std::make_shared<std::vector<Q>>();
    for (std::size_t i = 0; i < o.set_size; ++i) {
      auto rng = cases::query_rng(o.seed, P::stem, gen, 2 * i + (gen[0] == 'd'));
      auto g = generate<P>(rng, gen[0] == 'd');
      if (in_domain<P>(g.query)) set->push_back(std::move(g.query));
    }
    return set;
  };
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
    add("reference", [](const Q& q) { benchmark::DoNotOptimize(P::reference(q)); });
    add("fast", [](const Q& q) { benchmark::DoNotOptimize(P::fast(q)); });
    if constexpr (requires { P::peers(); }) {
      for (const auto& peer : P::peers()) {
        auto run = peer.run;
        add(peer.name, [run](const Q& q) { benchmark::DoNotOptimize(run(q)); });
      }
    }
  }
}

}  // namespace detail

template <class P>
Family make_family(Agreement agreement, std::string justification) {
  Family f;
  f.name = std::string(P::stem);
  f.agreement = agreement;
  f.justification = std::move(justification);
  if constexpr (requires { P::decision_space(); }) f.decision_space = P::decision_space();
  f.check = &detail::check<P>;
  f.eval = &detail::eval<P>;
  f.register_benchmarks = &detail::register_benchmarks<P>;
  f.canonical_names = [](const CheckOptions& o) {
    std::vector<std::string> names;
    for (const auto& c : P::canonical(o)) names.push_back(c.source + ":" + c.name);
    return names;
  };
  return f;
}

// A planted fault of family P::stem: registered as "<stem>_planted_<fault>", never run by
// default; the mutation test requires the CI-size check to find it `wrong`.
template <class P>
Family make_planted(Agreement agreement, std::string_view fault, std::string description) {
  Family f = make_family<P>(agreement, "planted fault: " + std::move(description));
  f.name = fmt::format("{}_planted_{}", P::stem, fault);
  f.planted = true;
  f.parent = std::string(P::stem);
  return f;
}

}  // namespace contactbench::harness
