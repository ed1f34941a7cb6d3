#include "harness/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace contactbench::harness {
namespace {

// A decimal integer in [0, max], nothing else (no sign, no spaces, no exponent).
unsigned parse_count(const std::string& s, const std::string& what, unsigned max) {
  const auto cut = [](const std::string& v) { return v.size() > 24 ? v.substr(0, 24) + "..." : v; };
  if (s.empty() || s.size() > 10 || s.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(fmt::format("{}: expected a non-negative integer, got \"{}\"", what, cut(s)));
  const unsigned long long v = std::stoull(s);
  if (v > max) throw std::invalid_argument(fmt::format("{}: {} is larger than {}", what, s, max));
  return static_cast<unsigned>(v);
}

constexpr unsigned max_shards = 1u << 20;

}  // namespace

ShardSpec resolve_shard(const std::string& explicit_shard, std::optional<unsigned> shards_option,
                        const EnvReader& env_reader) {
  const EnvReader env = env_reader ? env_reader : [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  ShardSpec s;
  auto finish = [&](unsigned i, unsigned n, std::string source, const std::string& what) {
    if (n == 0) throw std::invalid_argument(fmt::format("{}: the number of shards must be at least 1", what));
    if (i >= n)
      throw std::invalid_argument(fmt::format("{}: shard {} of {} (shards are numbered from 0 to {})", what, i, n, n - 1));
    if (shards_option && *shards_option != n && source != "JOB_COMPLETION_INDEX/--shards")
      throw std::invalid_argument(fmt::format("--shards {} disagrees with {} ({} shards)", *shards_option, source, n));
    s = {i, n, std::move(source)};
    return s;
  };
  if (shards_option && *shards_option == 0) throw std::invalid_argument("--shards: must be at least 1");
  if (!explicit_shard.empty()) {
    const auto slash = explicit_shard.find('/');
    if (slash == std::string::npos)
      throw std::invalid_argument(fmt::format("--shard expects i/N with 0 <= i < N, got \"{}\"", explicit_shard.substr(0, 40)));
    return finish(parse_count(explicit_shard.substr(0, slash), "--shard i/N: i", max_shards),
                  parse_count(explicit_shard.substr(slash + 1), "--shard i/N: N", max_shards), "--shard", "--shard");
  }
  if (const auto id = env("SLURM_ARRAY_TASK_ID")) {
    const auto count = env("SLURM_ARRAY_TASK_COUNT");
    if (!count) throw std::invalid_argument("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not");
    if (const auto step = env("SLURM_ARRAY_TASK_STEP"); step && *step != "1")
      throw std::invalid_argument(fmt::format("SLURM_ARRAY_TASK_STEP: {} (an array with a step other than 1 "
                                              "does not number shards consecutively; use --array=0-{{N-1}})", step->substr(0, 24)));
    const unsigned i = parse_count(*id, "SLURM_ARRAY_TASK_ID", std::numeric_limits<unsigned>::max());
    const unsigned min = env("SLURM_ARRAY_TASK_MIN") ? parse_count(*env("SLURM_ARRAY_TASK_MIN"), "SLURM_ARRAY_TASK_MIN", std::numeric_limits<unsigned>::max()) : 0;
    if (i < min) throw std::invalid_argument(fmt::format("SLURM_ARRAY_TASK_ID: {} is below SLURM_ARRAY_TASK_MIN {}", i, min));
    return finish(i - min, parse_count(*count, "SLURM_ARRAY_TASK_COUNT", max_shards),
                  "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_ID");
  }
  if (const auto index = env("JOB_COMPLETION_INDEX")) {
    const unsigned i = parse_count(*index, "JOB_COMPLETION_INDEX", std::numeric_limits<unsigned>::max());
    if (shards_option) return finish(i, *shards_option, "JOB_COMPLETION_INDEX/--shards", "JOB_COMPLETION_INDEX");
    const auto count = env("CONTACTBENCH_SHARDS");
    if (!count)
      throw std::invalid_argument("JOB_COMPLETION_INDEX is set: give the number of shards with --shards N or CONTACTBENCH_SHARDS");
    return finish(i, parse_count(*count, "CONTACTBENCH_SHARDS", max_shards),
                  "JOB_COMPLETION_INDEX/CONTACTBENCH_SHARDS", "JOB_COMPLETION_INDEX");
  }
  if (const auto index = env("GTEST_SHARD_INDEX")) {
    const auto total = env("GTEST_TOTAL_SHARDS");
    if (!total) throw std::invalid_argument("GTEST_SHARD_INDEX is set but GTEST_TOTAL_SHARDS is not");
    return finish(parse_count(*index, "GTEST_SHARD_INDEX", std::numeric_limits<unsigned>::max()),
                  parse_count(*total, "GTEST_TOTAL_SHARDS", max_shards),
                  "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX");
  }
  if (shards_option && *shards_option != 1)
    throw std::invalid_argument("--shards N needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); otherwise use --shard i/N");
  return s;
}

std::vector<std::uint64_t> deal_shard(
    std::uint64_t n, unsigned shard, unsigned shards,
    const std::function<std::vector<std::string>(std::uint64_t, std::uint64_t)>& labels) {
  std::vector<std::uint64_t> mine;
  if (shards <= 1) {
    mine.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) mine[i] = i;
    return mine;
  }
  mine.reserve(n / shards + 1);
  std::unordered_map<std::string, std::size_t> tag_id;
  std::vector<std::uint64_t> seen;  // seen[tag * shards + s]: queries with that tag dealt to s
  std::vector<std::uint64_t> dealt(shards, 0);
  std::vector<std::size_t> tags;
  constexpr std::uint64_t block = 1 << 14;
  for (std::uint64_t first = 0; first < n; first += block) {
    const std::uint64_t count = std::min(block, n - first);
    const auto lab = labels(first, count);
    for (std::uint64_t k = 0; k < count; ++k) {
      const std::uint64_t i = first + k;
      tags.clear();
      std::string_view rest = lab[k];
      while (!rest.empty()) {
        const auto sp = rest.find(' ');
        const auto tag = rest.substr(0, sp);
        if (!tag.empty()) {
          auto [it, fresh] = tag_id.emplace(std::string(tag), tag_id.size());
          if (fresh) seen.resize(seen.size() + shards, 0);
          tags.push_back(it->second);
        }
        if (sp == std::string_view::npos) break;
        rest.remove_prefix(sp + 1);
      }
      // Eligible: shards at most one query ahead of the least-dealt one (so totals differ by
      // at most 2). Among them the one where this query's tags lead least: smallest largest
      // lead (a tag's count there minus its smallest count over all shards), then smallest
      // sum of leads, then fewest queries, then the lower index.
      const std::uint64_t least = *std::min_element(dealt.begin(), dealt.end());
      unsigned best = shards;
      std::uint64_t best_max = 0, best_sum = 0;
      for (unsigned s = 0; s < shards; ++s) {
        if (dealt[s] > least + 1) continue;
        std::uint64_t max_lead = 0, sum_lead = 0;
        for (auto t : tags) {
          const auto* row = &seen[t * shards];
          const std::uint64_t lead = row[s] + 1 - *std::min_element(row, row + shards);
          max_lead = std::max(max_lead, lead);
          sum_lead += lead;
        }
        if (best == shards || std::tie(max_lead, sum_lead, dealt[s]) < std::tie(best_max, best_sum, dealt[best]))
          best = s, best_max = max_lead, best_sum = sum_lead;
      }
      ++dealt[best];
      for (auto t : tags) ++seen[t * shards + best];
      if (best == shard) mine.push_back(i);
    }
  }
  return mine;
}

}  // namespace contactbench::harness
