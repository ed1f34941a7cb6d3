// Writing results: JSON files with a run context (commit, compiler, CGAL version, ...).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace contactbench::harness {

// commit, compiler, CGAL/GMP/MPFR versions, date (UTC), host, hardware threads.
nlohmann::json run_context();

// Writes j (pretty) to path, creating parent folders; throws std::runtime_error on failure.
void write_json(const std::string& path, const nlohmann::json& j);

}  // namespace contactbench::harness
