// libFuzzer target: the mesh file reader (cases::load_mesh: JSON, then the mesh checks:
// indices, zero-area and duplicate facets, non-manifold edges, orientable vertex fans).
// Bad input may only end in cases::InputError.
#include "cases/mesh.hpp"
#include "fuzz/tmpfile.hpp"

using namespace contactbench::cases;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz_input_file(data, size, ".json");
  try {
    (void)load_mesh(path);
  } catch (const InputError&) {
  }
  return 0;
}
