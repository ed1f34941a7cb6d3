// `contactbench compare OLD.json NEW.json`: what got worse between two `check` results or two
// `bench` results (Google Benchmark JSON), so a CI job can say "this change made nothing worse".
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace contactbench::harness {

struct CompareOptions {
  // bench: a benchmark whose CPU time per iteration grew by more than this fraction is a
  // regression (timings are noisy: compare runs of one quiet machine).
  double max_slowdown = 0.10;
};

struct CompareReport {
  std::string kind;                     // "check" or "bench"
  std::vector<std::string> lines;       // what changed, in reading order
  std::vector<std::string> regressions; // one line each; non-empty: exit 1
};

// Compares two documents already read from old_path and new_path. Throws cases::InputError
// naming the file and field when either is not a check or bench result, or they differ in
// kind. Rules (check): a gated family with more `wrong` than before; a planted fault that was
// found `wrong` and no longer is; and, when both runs are the same campaign (seed, n, shard,
// canonical cases), fewer `agree` (queries moved to boundary, false_positive or
// out_of_domain), a continuous field's maximum error
// grown, or a decision value or boundary newly unreached. (bench): CPU time per iteration
// grown by more than max_slowdown; a benchmark only in OLD is listed, not judged.
CompareReport compare_results(const nlohmann::json& old_doc, const std::string& old_path,
                              const nlohmann::json& new_doc, const std::string& new_path,
                              const CompareOptions& o = {});

// Reads both files, prints the report, returns 1 on a regression, else 0 (bad input:
// cases::InputError, which the command turns into exit 2).
int compare_files(const std::string& old_path, const std::string& new_path, const CompareOptions& o);

}  // namespace contactbench::harness
