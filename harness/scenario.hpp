// The scenario contract: what `run` hands a scenario (ScenarioOptions), how a scenario reads
// its --param map (ParamReader: typed getters; an unknown key or a malformed value is one
// cases::InputError line naming the key, exit 2), and the header every scenario's JSON
// starts with (one schema for all: contactbench.run/1, the scenario named beside it).
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace contactbench::harness {

struct ScenarioOptions {
  std::string out_dir = "results/run";  // the scenario writes <out_dir>/<name>.json (and CSV)
  std::string variant = "both";         // "fast", "reference" or "both"
  std::map<std::string, std::string> params;  // --param key=value, scenario-specific
  std::string shared_dir;               // ../shared
  bool progress = false;
};

struct Scenario {
  std::string name;
  std::string description;
  // Returns 0 when the fast and reference runs agree within the scenario's stated bound (or
  // only one variant ran), 1 when they do not; throws InputError on bad parameters.
  std::function<int(const ScenarioOptions&)> run;
};

inline constexpr const char* run_schema = "contactbench.run/1";

// {"schema": run_schema, "scenario": name, "context": run_context()}: the start of every
// scenario's JSON document.
nlohmann::json scenario_header(std::string_view name);

// Reads a scenario's --param map. Each getter returns the default when the key is absent
// and remembers the key as one the scenario takes; done() then rejects any key given that no
// getter asked for. Call every getter, then done(), before the scenario does any work.
class ParamReader {
 public:
  ParamReader(std::string_view scenario, const ScenarioOptions& o);

  // A decimal integer in [lo, hi], nothing else on the value.
  int get_int(const std::string& key, int def, int lo, int hi);
  // A finite number in [lo, hi].
  double get_double(const std::string& key, double def,
                    double lo = -std::numeric_limits<double>::infinity(),
                    double hi = std::numeric_limits<double>::infinity());
  // A finite number > 0.
  double get_positive(const std::string& key, double def);
  // A comma-separated list of integers, each in [lo, hi].
  std::vector<int> get_int_list(const std::string& key, std::vector<int> def, int lo, int hi);
  // Throws on the first key given but never asked for, listing the keys the scenario takes.
  void done() const;
  // Most time steps (or path points) one run may take: a tiny dt or speed, or a long
  // duration, is refused at once rather than running for days.
  static constexpr double max_steps = 1e7;
  // Fails naming `keys` when `steps` (a duration over a step) exceeds max_steps.
  static void check_steps(const std::string& keys, double steps);

 private:
  const std::string* find(const std::string& key);
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;

  std::string scenario_;
  std::map<std::string, std::string> given_;
  std::vector<std::string> taken_;
};

}  // namespace contactbench::harness
