// Campaigns split into shards: where a shard's number comes from (the command line or the
// variables a scheduler sets) and which generated queries each shard runs.
//
// Shards are numbered from 0: shard i of N, 0 <= i < N (as Slurm array indices 0..N-1,
// Kubernetes' JOB_COMPLETION_INDEX and GTEST_SHARD_INDEX are).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace contactbench::harness {

struct ShardSpec {
  unsigned shard = 0, shards = 1;
  std::string source = "none";  // "--shard", "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT", ...
};

// The shard of this run, first that applies:
//   1. --shard i/N (explicit_shard non-empty);
//   2. SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (the index taken relative to
//      SLURM_ARRAY_TASK_MIN when set; an array with a step other than 1 is refused);
//   3. JOB_COMPLETION_INDEX (Kubernetes Indexed Job) with the count from --shards, else
//      CONTACTBENCH_SHARDS;
//   4. GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS;
//   otherwise 0/1. --shards without JOB_COMPLETION_INDEX must agree with the count found.
// A malformed or out-of-range value throws std::invalid_argument naming the option or the
// variable. `env` reads a variable (nullopt when unset); the default reads the process's.
using EnvReader = std::function<std::optional<std::string>(const char*)>;
ShardSpec resolve_shard(const std::string& explicit_shard, std::optional<unsigned> shards_option,
                        const EnvReader& env = {});

// The generated queries shard `shard` of `shards` runs, in increasing order, so that every
// shard sees the campaign's categories in its proportions (interleaving by index would give
// an even number of shards only random or only degenerate queries). Queries are dealt in
// index order, each to a shard at most one query ahead of the least-dealt one, choosing the
// shard where the query's tags (generator and regime tags) lead least over their least
// count. Dealing depends only on the labels, so every shard computes the same deal and the
// shards partition [0, n); each shard generates every query's label for it (cheap beside the
// reference). labels(first, count) returns the space-separated tags of queries first ..
// first + count - 1 (asked for in order, in blocks).
std::vector<std::uint64_t> deal_shard(
    std::uint64_t n, unsigned shard, unsigned shards,
    const std::function<std::vector<std::string>(std::uint64_t first, std::uint64_t count)>& labels);

// What the context records about dealing ("context.shard_deal"); merge refuses to mix deals.
inline constexpr const char* shard_deal_name = "balanced by generator and regime tags, v2";

}  // namespace contactbench::harness
