#include "harness/output.hpp"

#include "reference/version.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#ifndef CONTACTBENCH_COMMIT
#define CONTACTBENCH_COMMIT "unknown"
#endif

namespace contactbench::harness {

namespace {
// The source tree's commit at run time (the build may predate the last commit), with
// "-dirty" for uncommitted changes; the configure-time value when git is unavailable.
std::string source_commit() {
  const std::string cmd = fmt::format("git -C '{}' describe --always --dirty 2>/dev/null", CONTACTBENCH_SOURCE_DIR);
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[128];
    while (fgets(buf, sizeof buf, f)) out += buf;
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out.empty() ? CONTACTBENCH_COMMIT : out;
}
}  // namespace

nlohmann::json run_context() {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  const std::time_t t = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return {{"commit", source_commit()},
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
