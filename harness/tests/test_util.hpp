// Small helpers shared by the test files.
#pragma once
#include "harness/cli.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace contactbench::test {

// Runs the command in-process with the given arguments; returns its exit code.
inline int run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "contactbench");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return harness::cli_main(static_cast<int>(argv.size()), argv.data());
}

// A file in a fresh temporary folder, removed with the object.
struct TempFile {
  std::filesystem::path dir, path;
  explicit TempFile(const std::string& name, const std::string& content = "") {
    dir = std::filesystem::temp_directory_path() /
          ("contactbench_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    std::filesystem::create_directories(dir);
    path = dir / name;
    std::ofstream(path) << content;
  }
  ~TempFile() { std::filesystem::remove_all(dir); }
  std::string str() const { return path.string(); }
  static int& counter() {
    static int c = 0;
    return c;
  }
};

}  // namespace contactbench::test
