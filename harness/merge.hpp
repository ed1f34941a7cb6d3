// The check JSON (schema contactbench.check/1): one family's record, and `merge` of the shard
// files of one campaign into the file the unsharded run writes (apart from its context).
#pragma once
#include "harness/pair.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace contactbench::harness {

inline constexpr const char* check_schema = "contactbench.check/1";

// One family's record of a check file: its statistics plus what the registry says of it.
nlohmann::json family_json(const Family& f, const FamilyStats& s);

// The context keys that define a campaign: shards merge only when all of them agree.
inline constexpr const char* campaign_keys[] = {"commit", "seed", "n", "planted", "canonical",
                                                "plugin", "shard_deal"};

// Merges the shard files of one campaign (parts 0..N-1, each once). Refuses, with one
// InputError line naming the file and the field, a file that is not a check file, a
// malformed record (a count that is not a non-negative integer, a part larger than its
// whole, generated queries beyond the campaign's n, an unreadable histogram), and shards
// whose campaign (campaign_keys) or family set differ from the first file's.
nlohmann::json merge_check_files(const std::vector<std::string>& paths);

}  // namespace contactbench::harness
