#include "harness/merge.hpp"

#include "cases/json_input.hpp"
#include "harness/registry.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

namespace contactbench::harness {

nlohmann::json family_json(const Family& f, const FamilyStats& s) {
  nlohmann::json j = s.to_json();
  j["family"] = f.name;
  j["agreement"] = to_string(f.agreement);
  j["justification"] = f.justification;
  j["gated"] = f.gated();
  if (f.planted()) j["planted_fault_of"] = f.parent;
  if (f.role == Role::published) j["published_method_of"] = f.parent;
  j["coverage_flags"] = coverage_flags(f, s);
  return j;
}

namespace {

// A JSON value quoted in a message: short, on one line.
std::string quote(const nlohmann::json& v) {
  std::string s = v.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  return s.size() > 40 ? s.substr(0, 40) + "..." : s;
}

// Validates a check file's family record before FamilyStats::from_json reads it, so that
// reading cannot throw and every count is a count.
class RecordCheck {
 public:
  RecordCheck(const cases::Where& where, std::string family) : w_(where), f_(std::move(family)) {}

  const nlohmann::json& member(const nlohmann::json& obj, const std::string& path, const char* key) const {
    if (!obj.is_object() || !obj.contains(key)) fail(path + key, "missing");
    return obj[key];
  }
  const nlohmann::json& object(const nlohmann::json& v, const std::string& field) const {
    if (!v.is_object()) fail(field, "expected an object, got " + quote(v));
    return v;
  }
  std::uint64_t count(const nlohmann::json& obj, const std::string& path, const char* key,
                      std::uint64_t at_most, const char* whole) const {
    const auto& v = member(obj, path, key);
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0))
      fail(path + key, "expected a non-negative integer count, got " + quote(v));
    const auto n = v.get<std::uint64_t>();
    if (n > at_most) fail(path + key, fmt::format("{} is larger than {} ({})", n, whole, at_most));
    return n;
  }
  // queries, agree, boundary, false_positive, wrong, out_of_domain: the parts add up to queries.
  std::uint64_t counts(const nlohmann::json& obj, const std::string& path, std::uint64_t at_most,
                       const char* whole) const {
    object(obj, path.empty() ? "family" : path.substr(0, path.size() - 1));
    const auto q = count(obj, path, "queries", at_most, whole);
    std::uint64_t sum = 0;
    for (const char* k : {"agree", "boundary", "false_positive", "wrong"}) sum += count(obj, path, k, q, "queries");
    if (obj.contains("out_of_domain")) sum += count(obj, path, "out_of_domain", q, "queries");
    if (sum != q) fail(path + "queries", fmt::format("{} but the verdicts add up to {}", q, sum));
    return q;
  }
  void histogram(const nlohmann::json& h, const std::string& path) const {
    object(h, path.substr(0, path.size() - 1));
    const auto n = count(h, path, "count", std::numeric_limits<std::uint64_t>::max(), "");
    const auto& c = member(h, path, "counts");
    if (!c.is_array() || c.size() != static_cast<std::size_t>(LogHistogram::nbins))
      fail(path + "counts", fmt::format("expected an array of {} counts", LogHistogram::nbins));
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (!c[i].is_number_unsigned()) fail(fmt::format("{}counts[{}]", path, i), "expected a non-negative integer count, got " + quote(c[i]));
      if (c[i].get<std::uint64_t>() > n) fail(fmt::format("{}counts[{}]", path, i), "larger than the histogram's count");
      sum += c[i].get<std::uint64_t>();
    }
    for (const char* k : {"zeros", "below", "above"}) sum += count(h, path, k, n, "the histogram's count");
    if (sum != n) fail(path + "count", fmt::format("{} but the bins add up to {}", n, sum));
    const auto& mx = member(h, path, "max");
    if (!mx.is_null() && !(mx.is_number() && mx.get<double>() >= 0)) fail(path + "max", "expected a non-negative number, got " + quote(mx));
    if (!member(h, path, "max_at").is_string()) fail(path + "max_at", "expected a string");
    if (h.contains("sum_exact")) {
      const auto& s = h["sum_exact"];
      try {
        if (!s.is_string()) throw std::invalid_argument("");
        ExactSum::from_hex(s.get<std::string>());
      } catch (const std::exception&) {
        fail(path + "sum_exact", "expected \"inf\" or lower-case hexadecimal digits, got " + quote(s));
      }
    } else {
      const auto& s = member(h, path, "sum");
      if (!s.is_null() && !(s.is_number() && s.get<double>() >= 0)) fail(path + "sum", "expected a non-negative number");
    }
  }
  void family(const nlohmann::json& f, std::uint64_t max_generated) const {
    const auto q = counts(f, "", std::numeric_limits<std::uint64_t>::max(), "");
    std::uint64_t generated = 0;
    for (const char* key : {"by_source", "by_regime"})
      if (f.contains(key))
        for (const auto& [k, c] : object(f[key], key).items()) {
          const auto n = counts(c, fmt::format("{}.{}.", key, k), q, "the family's queries");
          if (std::string(key) == "by_source" && (k == "random" || k == "degenerate")) generated += n;
        }
    if (generated > max_generated)
      fail("by_source", fmt::format("{} generated queries, more than the campaign's n = {}", generated, max_generated));
    if (f.contains("coverage"))
      for (const auto& [d, values] : object(f["coverage"], "coverage").items())
        for (const auto& [v, c] : object(values, "coverage." + d).items()) {
          const std::string path = fmt::format("coverage.{}.{}.", d, v);
          object(c, path.substr(0, path.size() - 1));
          // A decision may be taken several times per query (ground_ccd: per node).
          const auto r = count(c, path, "reached", std::numeric_limits<std::uint64_t>::max(), "");
          count(c, path, "on_boundary", r, "reached");
          count(c, path, "within_bound", r, "reached");
        }
    for (const char* key : {"errors", "time_ns"})
      if (f.contains(key))
        for (const auto& [k, h] : object(f[key], key).items()) {
          histogram(h, fmt::format("{}.{}.", key, k));  // a field may be measured per contact
          if (std::string(key) == "errors" && h.contains("bound") && !h["bound"].is_null() && !h["bound"].is_number())
            fail(fmt::format("errors.{}.bound", k), "expected a number, got " + quote(h["bound"]));
        }
    if (f.contains("check_seconds"))
      for (const char* k : {"cpu", "wall"}) {
        const auto& t = member(object(f["check_seconds"], "check_seconds"), "check_seconds.", k);
        if (!t.is_number() || !(t.get<double>() >= 0) || !std::isfinite(t.get<double>()))
          fail(std::string("check_seconds.") + k, "expected a non-negative number of seconds, got " + quote(t));
      }
    if (f.contains("examples"))
      for (const auto& [v, list] : object(f["examples"], "examples").items()) {
        if (!list.is_array()) fail("examples." + v, "expected an array");
        for (std::size_t i = 0; i < list.size(); ++i) {
          const std::string path = fmt::format("examples.{}[{}].", v, i);
          object(list[i], path.substr(0, path.size() - 1));
          if (!member(list[i], path, "source").is_string()) fail(path + "source", "expected a string");
          count(list[i], path, "index", std::numeric_limits<std::uint64_t>::max(), "");
        }
      }
  }

 private:
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    w_.fail(fmt::format("families[\"{}\"].{}", f_, field), what);
  }
  cases::Where w_;
  std::string f_;
};

// "i/N" of a shard file's context.shard.
std::pair<unsigned, unsigned> shard_of(const nlohmann::json& ctx, const cases::Where& where) {
  const auto& s = cases::require(ctx, "shard", where, "context.");
  const std::string text = s.is_string() ? s.get<std::string>() : "";
  const auto slash = text.find('/');
  unsigned long long i = 0, n = 0;
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (slash == std::string::npos || !digits(text.substr(0, slash)) || !digits(text.substr(slash + 1)) ||
      (n = std::stoull(text.substr(slash + 1))) == 0 || (i = std::stoull(text.substr(0, slash))) >= n)
    where.fail("context.shard", "expected \"i/N\" with 0 <= i < N (merge takes the shard files of one campaign), got " + quote(s));
  return {static_cast<unsigned>(i), static_cast<unsigned>(n)};
}

}  // namespace

nlohmann::json merge_check_files(const std::vector<std::string>& paths) {
  nlohmann::json out;
  std::map<std::string, FamilyStats> merged;
  std::vector<std::string> order;
  std::set<unsigned> parts;
  unsigned total_parts = 0;
  std::uint64_t n = 0;
  for (const auto& p : paths) {
    const cases::Where where{p, ""};
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) where.fail("", "is a directory, not a check JSON file");
    const nlohmann::json doc = cases::read_json_file(p);
    if (!doc.is_object() || doc.value("schema", nlohmann::json()) != check_schema)
      where.fail("schema", fmt::format("expected \"{}\" (a file written by `contactbench check`)", check_schema));
    const auto& ctx = cases::require(doc, "context", where);
    if (!ctx.is_object()) where.fail("context", "expected an object");
    const auto [i, parts_n] = shard_of(ctx, where);
    const auto& cn = cases::require(ctx, "n", where, "context.");
    if (!cn.is_number_unsigned()) where.fail("context.n", "expected a non-negative integer, got " + quote(cn));
    const auto& fams = cases::require(doc, "families", where);
    if (!fams.is_array()) where.fail("families", "expected an array");
    std::vector<std::string> names;
    for (std::size_t k = 0; k < fams.size(); ++k) {
      if (!fams[k].is_object() || !fams[k].contains("family") || !fams[k]["family"].is_string())
        where.fail(fmt::format("families[{}].family", k), "expected the family's name");
      names.push_back(fams[k]["family"].get<std::string>());
      if (!find_family(names.back()))
        where.fail(fmt::format("families[{}].family", k), fmt::format("unknown family {}", quote(fams[k]["family"])));
    }
    if (out.is_null()) {
      out = {{"schema", check_schema}, {"context", ctx}};
      out["context"]["families"] = names;
      total_parts = parts_n;
      n = cn.get<std::uint64_t>();
    } else {
      for (const char* key : campaign_keys)
        if (ctx.value(key, nlohmann::json()) != out["context"].value(key, nlohmann::json()))
          where.fail(fmt::format("context.{}", key),
                     fmt::format("{} differs from the first file's {}: not the same campaign",
                                 quote(ctx.value(key, nlohmann::json())), quote(out["context"].value(key, nlohmann::json()))));
      if (parts_n != total_parts)
        where.fail("context.shard", fmt::format("is part of {} shards, the first file of {}", parts_n, total_parts));
      if (names != out["context"]["families"].get<std::vector<std::string>>())
        where.fail("families", "the family set differs from the first file's");
    }
    if (!parts.insert(i).second) where.fail("context.shard", fmt::format("shard {}/{} given twice", i, parts_n));
    for (const auto& f : fams) {
      const std::string name = f["family"];
      RecordCheck(where, name).family(f, n);
      auto it = merged.find(name);
      if (it == merged.end()) {
        order.push_back(name);
        merged[name] = FamilyStats::from_json(f);
      } else {
        it->second.merge(FamilyStats::from_json(f));
      }
    }
  }
  if (paths.empty()) throw cases::InputError("merge: no shard files given");
  if (parts.size() != total_parts)
    throw cases::InputError(fmt::format("merge: {} of {} shards given; all parts 0..{} of the campaign are needed",
                                        parts.size(), total_parts, total_parts - 1));
  out["context"].erase("families");
  out["context"]["shard"] = fmt::format("merged {} shards", total_parts);
  out["context"].erase("shard_source");
  out["families"] = nlohmann::json::array();
  for (const auto& name : order) {
    const auto& stats = merged[name];
    // Generated queries across the shards: at most the campaign's n.
    std::uint64_t generated = 0;
    for (const char* g : {"random", "degenerate"})
      if (auto it = stats.by_source.find(g); it != stats.by_source.end()) generated += it->second.queries;
    if (generated > n)
      throw cases::InputError(fmt::format("merge: family {}: the shards hold {} generated queries, more than n = {}", name, generated, n));
    out["families"].push_back(family_json(*find_family(name), stats));
  }
  return out;
}

}  // namespace contactbench::harness
