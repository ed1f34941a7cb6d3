// libFuzzer target: one family's JSON Lines query reader, as `eval` reads a file (the family
// is chosen at build time: FUZZ_HEADER, FUZZ_VOCABULARY; CMake builds one target per family).
// Bad input may only end in cases::InputError; any other exception, a sanitizer report or a
// timeout is a finding. A query the reader accepts must read back from its own JSON.
#include FUZZ_HEADER
#include "cases/strict_json.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace contactbench::cases;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (std::size_t lineno = 1; !text.empty(); ++lineno) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const Where where{"fuzz.jsonl", fmt::format("line {}", lineno)};
    FUZZ_VOCABULARY::Query q;
    try {
      q = FUZZ_VOCABULARY::from_json(parse_json_strict(line, where), where);
    } catch (const InputError&) {
      continue;
    }
    try {  // the round trip: what was accepted is written so that it reads back
      (void)FUZZ_VOCABULARY::from_json(FUZZ_VOCABULARY::to_json(q), where);
    } catch (const InputError& e) {
      fmt::print(stderr, "accepted query does not read back: {}\n", e.what());
      std::abort();
    }
  }
  return 0;
}
