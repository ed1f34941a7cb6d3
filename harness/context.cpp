#include "harness/output.hpp"

#include "reference/version.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#ifndef CONTACTBENCH_COMMIT
#define CONTACTBENCH_COMMIT "unknown"
#endif

namespace contactbench::harness {

nlohmann::json run_context() {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  const std::time_t t = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return {{"commit", CONTACTBENCH_COMMIT},
          {"compiler", fmt::format("{} {}", "g++", __VERSION__)},
          {"cgal_version", reference::cgal_version()},
          {"gmp_mpfr", reference::gmp_mpfr_versions()},
          {"date", date},
          {"host", host},
          {"threads", std::thread::hardware_concurrency()}};
}

void write_json(const std::string& path, const nlohmann::json& j) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << j.dump(1) << '\n';
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace contactbench::harness
