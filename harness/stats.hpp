// Agreement statistics of one family: counts per query source, continuous-error
// distributions, timings and the first disagreeing examples. Mergeable (shards, threads).
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace contactbench::harness {

// out_of_domain: the query lies outside the fast variant's stated domain (counted, not
// failed; the reference answers every finite double).
enum class Verdict { agree, boundary, false_positive, wrong, out_of_domain };
const char* to_string(Verdict v);

// The exact sum of non-negative doubles (+inf counted apart): an integer in units of
// 2^-1074, of which every double is a multiple, so the sum does not depend on the order of
// additions — threads and shards merge to the same bits as one sequential run.
struct ExactSum {
  static constexpr int limbs = 34;  // 2,176 bits: every double (2,098 bits) times 2^78 terms
  std::array<std::uint64_t, limbs> w{};
  bool infinite = false;
  void add(double v);  // v >= 0 or +inf
  void merge(const ExactSum& o);
  double value() const;  // correctly rounded to the nearest double
  std::string hex() const;  // "inf", or the integer in hexadecimal
  static ExactSum from_hex(const std::string& s);  // throws std::invalid_argument
};

// Decade histogram of non-negative values, fixed layout so shards merge by addition:
// bins of width 1/4 decade from 1e-24 up to 1e12; zeros and values beyond counted apart.
struct LogHistogram {
  static constexpr double lo_exp = -24, hi_exp = 12;
  static constexpr int bins_per_decade = 4;
  static constexpr int nbins = static_cast<int>((hi_exp - lo_exp) * bins_per_decade);
  std::array<std::uint64_t, nbins> counts{};
  std::uint64_t zeros = 0, below = 0, above = 0, count = 0;
  double max = 0;
  ExactSum sum;
  std::string max_at;  // label of the query that set max (the smallest label on ties)
  void add(double v, const std::string_view label);
  void merge(const LogHistogram& o);
  double quantile(double q) const;  // bin-centre estimate
  nlohmann::json to_json() const;
  static LogHistogram from_json(const nlohmann::json& j);
};

struct Counts {
  std::uint64_t queries = 0, agree = 0, boundary = 0, false_positive = 0, wrong = 0,
                out_of_domain = 0;
  void add(Verdict v);
  void merge(const Counts& o);
  nlohmann::json to_json() const;
  static Counts from_json(const nlohmann::json& j);
};

// How often the reference reached one value of one discrete decision, and how many of those
// queries lay exactly on a boundary of that decision (margin 0) or within the fast variant's
// stated bound of one (margin <= bound, including the exact ones).
struct Coverage {
  std::uint64_t reached = 0, on_boundary = 0, within_bound = 0;
  void add(double margin, double bound);
  void merge(const Coverage& o);
  nlohmann::json to_json() const;
  static Coverage from_json(const nlohmann::json& j);
};

struct Example {
  std::string source;  // "canonical", "random", "degenerate", a data set name
  std::uint64_t index = 0;
  nlohmann::json body;  // label, query, reference, fast, detail
};

struct FamilyStats {
  std::string family;
  Counts total;
  std::map<std::string, Counts> by_source;
  std::map<std::string, Counts> by_regime;  // "axis=value" tag -> counts (generated queries)
  std::map<std::string, std::map<std::string, Coverage>> coverage;  // decision -> value
  std::map<std::string, LogHistogram> errors;       // field -> |error| / bound-unit
  std::map<std::string, double> error_bound;        // field -> largest stated bound met
  std::map<std::string, std::string> error_unit;     // field -> unit of its error and bound
  std::map<std::string, LogHistogram> time_ns;      // "reference"/"fast" -> ns per query
  // The whole check of this family, set by the command (0: not measured): CPU seconds of
  // every thread and plugin child, and wall seconds. Shards' times add up.
  double check_cpu_seconds = 0, check_wall_seconds = 0;
  std::map<std::string, std::vector<Example>> examples;  // verdict -> examples
  static constexpr std::size_t max_examples = 200;
  // verdict -> the largest (source, index) kept when the list was last cut to max_examples:
  // an example above it can never be among the lowest max_examples.
  std::map<std::string, std::pair<std::string, std::uint64_t>> example_cutoff;

  void merge(const FamilyStats& o);
  // Whether an example of verdict v at (source, index) can still be kept (else building it
  // is wasted work), and the adding itself.
  bool keeps_example(Verdict v, const std::string& source, std::uint64_t index) const;
  void add_example(Verdict v, Example e);
  nlohmann::json to_json() const;
  static FamilyStats from_json(const nlohmann::json& j);
};

}  // namespace contactbench::harness
