// The fuzz input as a file, for readers that take a path: one file per process, rewritten
// for every input.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

inline std::string fuzz_input_file(const std::uint8_t* data, std::size_t size, const char* ext) {
  static const std::string path =
      "/tmp/contactbench-fuzz-" + std::to_string(::getpid()) + ext;
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}
