// libFuzzer target: the merge reader, through the command itself (`contactbench merge FILE`):
// every exception ends in an error line and exit 2 inside cli_main, so the findings are
// sanitizer reports (out-of-bounds, float-to-integer overflow, ...), crashes and timeouts.
// Run with -close_fd_mask=3: the command's own output is not the fuzzer's.
#include "fuzz/tmpfile.hpp"
#include "harness/cli.hpp"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string path = fuzz_input_file(data, size, ".json");
  std::string args[] = {"contactbench", "merge", path, "--json", "/dev/null"};
  char* argv[] = {args[0].data(), args[1].data(), args[2].data(), args[3].data(), args[4].data()};
  (void)contactbench::harness::cli_main(5, argv);
  return 0;
}
