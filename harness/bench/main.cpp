// contactbench_bench: every registered pair on its random and degenerate sets, as
// <stem>/<case>/<impl> (reference, fast, packaged peers), plus the scenario benchmarks
// registered by the other files of this folder. `contactbench bench --plugin` passes
// --contactbench_plugin=PATH --contactbench_plugin_family=F: the plugin is timed as
// <F>/<case>/plugin on the same sets (a crash ends this process; the caller reports it).
#include "harness/registry.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  using namespace contactbench::harness;
  std::string plugin_path, plugin_family;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {  // our two flags out, Google Benchmark's left in argv
    const std::string_view a = argv[i];
    if (a.starts_with("--contactbench_plugin=")) plugin_path = a.substr(22);
    else if (a.starts_with("--contactbench_plugin_family=")) plugin_family = a.substr(29);
    else argv[kept++] = argv[i];
  }
  argc = kept;
  std::optional<Plugin> plugin;
  if (!plugin_path.empty()) {
    try {
      plugin = load_plugin(plugin_path, plugin_family);
    } catch (const PluginError& e) {
      fmt::print(stderr, "error: {}\n", e.what());
      return 2;
    }
  }
  for (const auto& f : families()) {
    if (f.planted()) continue;
    BenchOptions o;
    if (plugin && f.name == plugin_family) o.plugin = &*plugin;
    f.register_benchmarks(o);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
