#include "harness/stats.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace contactbench::harness {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::agree: return "agree";
    case Verdict::boundary: return "boundary";
    case Verdict::false_positive: return "false_positive";
    case Verdict::wrong: return "wrong";
    case Verdict::out_of_domain: return "out_of_domain";
  }
  return "?";
}

void ExactSum::add(double v) {
  if (std::isinf(v)) {
    infinite = true;
    return;
  }
  const auto bits = std::bit_cast<std::uint64_t>(v);
  const int e = static_cast<int>((bits >> 52) & 0x7FF);
  std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  if (m == 0 && e == 0) return;
  if (e > 0) m |= std::uint64_t{1} << 52;
  const int shift = e > 0 ? e - 1 : 0;  // v = m · 2^shift · 2^-1074
  const int i = shift / 64, off = shift % 64;
  const std::uint64_t lo = m << off, hi = off ? m >> (64 - off) : 0;
  auto add_at = [&](int k, std::uint64_t x) {
    for (; x != 0 && k < limbs; ++k) {
      w[k] += x;
      x = w[k] < x ? 1 : 0;  // carry
    }
  };
  add_at(i, lo);
  add_at(i + 1, hi);
}

void ExactSum::merge(const ExactSum& o) {
  infinite = infinite || o.infinite;
  std::uint64_t carry = 0;
  for (int k = 0; k < limbs; ++k) {
    const std::uint64_t a = w[k] + o.w[k];
    const std::uint64_t c1 = a < w[k] ? 1 : 0;
    w[k] = a + carry;
    carry = c1 + (w[k] < a ? 1 : 0);
  }
}

double ExactSum::value() const {
  if (infinite) return INFINITY;
  int top = limbs - 1;
  while (top >= 0 && w[top] == 0) --top;
  if (top < 0) return 0;
  const int p = top * 64 + 63 - std::countl_zero(w[top]);  // the highest set bit
  if (p <= 52) return std::ldexp(static_cast<double>(w[0]), -1074);  // exact (subnormal)
  // The 64 bits ending at bit p, and whether any bit below them is set.
  auto bit_range = [&](int lo_bit) {
    const int i = lo_bit / 64, off = lo_bit % 64;
    std::uint64_t x = w[i] >> off;
    if (off && i + 1 < limbs) x |= w[i + 1] << (64 - off);
    return x;
  };
  std::uint64_t window;
  bool sticky = false;
  if (p < 63) {
    window = w[0] << (63 - p);
  } else {
    const int lo_bit = p - 63;
    window = bit_range(lo_bit);
    for (int k = 0; k < lo_bit / 64 && !sticky; ++k) sticky = w[k] != 0;
    if (lo_bit % 64) sticky = sticky || (w[lo_bit / 64] & ((std::uint64_t{1} << (lo_bit % 64)) - 1)) != 0;
  }
  std::uint64_t mant = window >> 11;  // 53 bits, bit 52 = bit p
  const bool round = (window >> 10) & 1;
  sticky = sticky || (window & 0x3FF) != 0;
  if (round && (sticky || (mant & 1))) ++mant;  // to nearest, ties to even
  return std::ldexp(static_cast<double>(mant), p - 52 - 1074);
}

std::string ExactSum::hex() const {
  if (infinite) return "inf";
  std::string out;
  for (int k = limbs - 1; k >= 0; --k) {
    if (out.empty() && w[k] == 0) continue;
    char buf[17];
    std::snprintf(buf, sizeof buf, out.empty() ? "%llx" : "%016llx", static_cast<unsigned long long>(w[k]));
    out += buf;
  }
  return out.empty() ? "0" : out;
}

ExactSum ExactSum::from_hex(const std::string& s) {
  ExactSum r;
  if (s == "inf") {
    r.infinite = true;
    return r;
  }
  if (s.empty() || s.size() > 16 * limbs || s.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw std::invalid_argument("exact sum: expected \"inf\" or lower-case hexadecimal digits");
  for (std::size_t k = 0; k * 16 < s.size(); ++k) {
    const std::size_t end = s.size() - k * 16, begin = end >= 16 ? end - 16 : 0;
    r.w[k] = std::stoull(s.substr(begin, end - begin), nullptr, 16);
  }
  return r;
}

void LogHistogram::add(double v, const std::string_view label) {
  ++count;
  if (!(v >= 0)) v = INFINITY;  // NaN errors count as infinitely large
  sum.add(v);
  // Ties go to the smaller label, so the maximum's label does not depend on thread order.
  if (count == 1 || v > max || (v == max && label < max_at)) {
    max = v;
    max_at = label;
  }
  if (v == 0) { ++zeros; return; }
  const double e = std::log10(v);
  if (e < lo_exp) { ++below; return; }
  if (!(e < hi_exp)) { ++above; return; }
  ++counts[static_cast<int>((e - lo_exp) * bins_per_decade)];
}

void LogHistogram::merge(const LogHistogram& o) {
  for (int i = 0; i < nbins; ++i) counts[i] += o.counts[i];
  zeros += o.zeros; below += o.below; above += o.above; count += o.count; sum.merge(o.sum);
  if (o.count > 0 && (count == o.count || o.max > max || (o.max == max && o.max_at < max_at))) {
    max = o.max; max_at = o.max_at;
  }
}

double LogHistogram::quantile(double q) const {
  if (count == 0) return 0;
  const double target = q * static_cast<double>(count);
  double seen = static_cast<double>(zeros);
  if (seen >= target) return 0;
  seen += static_cast<double>(below);
  if (seen >= target) return std::pow(10.0, lo_exp);
  for (int i = 0; i < nbins; ++i) {
    seen += static_cast<double>(counts[i]);
    if (seen >= target) return std::pow(10.0, lo_exp + (i + 0.5) / bins_per_decade);
  }
  return max;
}

nlohmann::json LogHistogram::to_json() const {
  nlohmann::json j;
  j["lo_log10"] = lo_exp;
  j["bins_per_decade"] = bins_per_decade;
  j["counts"] = counts;
  j["zeros"] = zeros; j["below"] = below; j["above"] = above; j["count"] = count;
  j["max"] = max; j["max_at"] = max_at;
  j["mean"] = count ? sum.value() / static_cast<double>(count) : 0.0;
  j["sum"] = sum.value();
  j["sum_exact"] = sum.hex();  // what `merge` adds, so merged shards equal the whole run
  j["median"] = quantile(0.5);
  return j;
}

namespace {
// JSON has no infinity or NaN: nlohmann writes them as null. Read null back as +inf, the
// value that keeps a merged maximum or bound conservative.
double number_or_inf(const nlohmann::json& j) {
  return j.is_null() ? INFINITY : j.get<double>();
}
}  // namespace

LogHistogram LogHistogram::from_json(const nlohmann::json& j) {
  LogHistogram h;
  auto c = j.at("counts").get<std::vector<std::uint64_t>>();
  for (int i = 0; i < nbins && i < static_cast<int>(c.size()); ++i) h.counts[i] = c[i];
  h.zeros = j.at("zeros"); h.below = j.at("below"); h.above = j.at("above");
  h.count = j.at("count"); h.max = number_or_inf(j.at("max")); h.max_at = j.at("max_at");
  if (j.contains("sum_exact")) {
    h.sum = ExactSum::from_hex(j.at("sum_exact").get<std::string>());
  } else {  // files from before the exact sum: the rounded value
    h.sum.add(number_or_inf(j.at("sum")));
  }
  return h;
}

void Counts::add(Verdict v) {
  ++queries;
  switch (v) {
    case Verdict::agree: ++agree; break;
    case Verdict::boundary: ++boundary; break;
    case Verdict::false_positive: ++false_positive; break;
    case Verdict::wrong: ++wrong; break;
    case Verdict::out_of_domain: ++out_of_domain; break;
  }
}

void Counts::merge(const Counts& o) {
  queries += o.queries; agree += o.agree; boundary += o.boundary;
  false_positive += o.false_positive; wrong += o.wrong; out_of_domain += o.out_of_domain;
}

nlohmann::json Counts::to_json() const {
  return {{"queries", queries}, {"agree", agree}, {"boundary", boundary},
          {"false_positive", false_positive}, {"wrong", wrong}, {"out_of_domain", out_of_domain}};
}

Counts Counts::from_json(const nlohmann::json& j) {
  Counts c;
  c.queries = j.at("queries"); c.agree = j.at("agree"); c.boundary = j.at("boundary");
  c.false_positive = j.at("false_positive"); c.wrong = j.at("wrong");
  c.out_of_domain = j.value("out_of_domain", std::uint64_t{0});
  return c;
}

void Coverage::add(double margin, double bound) {
  ++reached;
  if (margin == 0) ++on_boundary;
  if (margin <= bound) ++within_bound;  // NaN margin or bound: not counted as near
}

void Coverage::merge(const Coverage& o) {
  reached += o.reached; on_boundary += o.on_boundary; within_bound += o.within_bound;
}

nlohmann::json Coverage::to_json() const {
  return {{"reached", reached}, {"on_boundary", on_boundary}, {"within_bound", within_bound}};
}

Coverage Coverage::from_json(const nlohmann::json& j) {
  return {j.at("reached"), j.at("on_boundary"), j.at("within_bound")};
}

bool FamilyStats::keeps_example(Verdict v, const std::string& source, std::uint64_t index) const {
  const auto it = example_cutoff.find(to_string(v));
  return it == example_cutoff.end() || std::tie(source, index) <= std::tie(it->second.first, it->second.second);
}

void FamilyStats::add_example(Verdict v, Example e) {
  const std::string key = to_string(v);
  auto& list = examples[key];
  list.push_back(std::move(e));
  // Keep the lowest (source, index) so results do not depend on thread scheduling.
  if (list.size() > 2 * max_examples) {
    std::sort(list.begin(), list.end(), [](const Example& a, const Example& b) {
      return std::tie(a.source, a.index) < std::tie(b.source, b.index);
    });
    list.resize(max_examples);
    example_cutoff[key] = {list.back().source, list.back().index};
  }
}

void FamilyStats::merge(const FamilyStats& o) {
  if (family.empty()) family = o.family;
  total.merge(o.total);
  for (const auto& [k, v] : o.by_source) by_source[k].merge(v);
  for (const auto& [k, v] : o.by_regime) by_regime[k].merge(v);
  for (const auto& [d, values] : o.coverage)
    for (const auto& [k, v] : values) coverage[d][k].merge(v);
  for (const auto& [k, v] : o.errors) errors[k].merge(v);
  for (const auto& [k, v] : o.error_bound) error_bound[k] = std::max(error_bound[k], v);
  for (const auto& [k, v] : o.error_unit) error_unit.try_emplace(k, v);
  for (const auto& [k, v] : o.time_ns) time_ns[k].merge(v);
  check_cpu_seconds += o.check_cpu_seconds;
  check_wall_seconds += o.check_wall_seconds;
  for (const auto& [k, list] : o.examples) {
    auto& mine = examples[k];
    mine.insert(mine.end(), list.begin(), list.end());
  }
  for (auto& [k, list] : examples) {
    std::sort(list.begin(), list.end(), [](const Example& a, const Example& b) {
      return std::tie(a.source, a.index) < std::tie(b.source, b.index);
    });
    if (list.size() > max_examples) list.resize(max_examples);
  }
}

nlohmann::json FamilyStats::to_json() const {
  nlohmann::json j = total.to_json();
  j["family"] = family;
  for (const auto& [k, v] : by_source) j["by_source"][k] = v.to_json();
  for (const auto& [k, v] : by_regime) j["by_regime"][k] = v.to_json();
  for (const auto& [d, values] : coverage)
    for (const auto& [k, v] : values) j["coverage"][d][k] = v.to_json();
  for (const auto& [k, v] : errors) {
    j["errors"][k] = v.to_json();
    j["errors"][k]["bound"] = error_bound.count(k) ? error_bound.at(k) : 0.0;
    if (error_unit.count(k)) j["errors"][k]["unit"] = error_unit.at(k);
  }
  for (const auto& [k, v] : time_ns) j["time_ns"][k] = v.to_json();
  if (check_cpu_seconds > 0 || check_wall_seconds > 0)
    j["check_seconds"] = {{"cpu", check_cpu_seconds}, {"wall", check_wall_seconds}};
  j["examples"] = nlohmann::json::object();
  for (const auto& [k, list] : examples) {
    auto& arr = j["examples"][k] = nlohmann::json::array();
    for (const auto& e : list) {
      nlohmann::json b = e.body;
      b["source"] = e.source;
      b["index"] = e.index;
      arr.push_back(b);
    }
  }
  return j;
}

FamilyStats FamilyStats::from_json(const nlohmann::json& j) {
  FamilyStats s;
  s.family = j.at("family");
  s.total = Counts::from_json(j);
  if (j.contains("by_source"))
    for (const auto& [k, v] : j["by_source"].items()) s.by_source[k] = Counts::from_json(v);
  if (j.contains("by_regime"))
    for (const auto& [k, v] : j["by_regime"].items()) s.by_regime[k] = Counts::from_json(v);
  if (j.contains("coverage"))
    for (const auto& [d, values] : j["coverage"].items())
      for (const auto& [k, v] : values.items()) s.coverage[d][k] = Coverage::from_json(v);
  if (j.contains("errors"))
    for (const auto& [k, v] : j["errors"].items()) {
      s.errors[k] = LogHistogram::from_json(v);
      s.error_bound[k] = v.contains("bound") ? number_or_inf(v["bound"]) : 0.0;
      if (v.contains("unit") && v["unit"].is_string()) s.error_unit[k] = v["unit"].get<std::string>();
    }
  if (j.contains("time_ns"))
    for (const auto& [k, v] : j["time_ns"].items()) s.time_ns[k] = LogHistogram::from_json(v);
  if (j.contains("check_seconds")) {
    s.check_cpu_seconds = j["check_seconds"].at("cpu");
    s.check_wall_seconds = j["check_seconds"].at("wall");
  }
  if (j.contains("examples"))
    for (const auto& [k, arr] : j["examples"].items())
      for (const auto& b : arr) {
        Example e{b.value("source", ""), b.value("index", std::uint64_t{0}), b};
        e.body.erase("source");
        e.body.erase("index");
        s.examples[k].push_back(std::move(e));
      }
  return s;
}

}  // namespace contactbench::harness
