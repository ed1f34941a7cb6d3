#include "harness/scenario.hpp"

#include "cases/common.hpp"
#include "harness/output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace contactbench::harness {

nlohmann::json scenario_header(std::string_view name) {
  return {{"schema", run_schema}, {"scenario", name}, {"context", run_context()}};
}

namespace {

// The whole of s as a T (from_chars: no leading blanks or '+', no trailing characters).
template <class T>
bool parse_all(const std::string& s, T& v) {
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  return ec == std::errc() && ptr == end;
}

}  // namespace

ParamReader::ParamReader(std::string_view scenario, const ScenarioOptions& o)
    : scenario_(scenario), given_(o.params) {}

const std::string* ParamReader::find(const std::string& key) {
  if (std::find(taken_.begin(), taken_.end(), key) == taken_.end()) taken_.push_back(key);
  const auto it = given_.find(key);
  return it == given_.end() ? nullptr : &it->second;
}

void ParamReader::fail(const std::string& key, const std::string& what) const {
  throw cases::InputError(fmt::format("--param {}: {}", key, what));
}

int ParamReader::get_int(const std::string& key, int def, int lo, int hi) {
  const std::string* s = find(key);
  if (!s) return def;
  int v = 0;
  if (!parse_all(*s, v) || v < lo || v > hi)
    fail(key, fmt::format("expected an integer in [{}, {}], got \"{}\"", lo, hi, *s));
  return v;
}

double ParamReader::get_double(const std::string& key, double def, double lo, double hi) {
  const std::string* s = find(key);
  if (!s) return def;
  double v = 0;
  if (!parse_all(*s, v) || !std::isfinite(v) || v < lo || v > hi) {
    const bool bounded = std::isfinite(lo) || std::isfinite(hi);
    fail(key, fmt::format("expected a finite number{}, got \"{}\"",
                          bounded ? fmt::format(" in [{}, {}]", lo, hi) : "", *s));
  }
  return v;
}

double ParamReader::get_positive(const std::string& key, double def) {
  const std::string* s = find(key);
  if (!s) return def;
  double v = 0;
  if (!parse_all(*s, v) || !std::isfinite(v) || !(v > 0))
    fail(key, fmt::format("expected a finite number > 0, got \"{}\"", *s));
  return v;
}

std::vector<int> ParamReader::get_int_list(const std::string& key, std::vector<int> def, int lo,
                                           int hi) {
  const std::string* s = find(key);
  if (!s) return def;
  std::vector<int> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = std::min(s->find(',', start), s->size());
    int v = 0;
    if (!parse_all(s->substr(start, comma - start), v) || v < lo || v > hi)
      fail(key, fmt::format("expected a comma-separated list of integers in [{}, {}], got \"{}\"",
                            lo, hi, *s));
    out.push_back(v);
    if (comma == s->size()) return out;
    start = comma + 1;
  }
}

void ParamReader::done() const {
  for (const auto& [key, value] : given_)
    if (std::find(taken_.begin(), taken_.end(), key) == taken_.end())
      fail(key, fmt::format("unknown key ({} takes: {})", scenario_, fmt::join(taken_, ", ")));
}

void ParamReader::check_steps(const std::string& keys, double steps) {
  if (!(steps <= max_steps))
    throw cases::InputError(fmt::format(
        "--param {}: {:.3g} time steps in one run, more than the limit of {:.0e}", keys, steps,
        max_steps));
}

}  // namespace contactbench::harness
