// libFuzzer target: the CCD CSV reader (cases::read_ccd_csv, the public query format).
// Bad input may only end in cases::InputError.
#include "cases/ccd.hpp"
#include "fuzz/tmpfile.hpp"

using namespace contactbench::cases;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz_input_file(data, size, ".csv");
  try {
    (void)read_ccd_csv(path, size % 2 ? CcdKind::edge_edge : CcdKind::vertex_face);
  } catch (const InputError&) {
  }
  return 0;
}
