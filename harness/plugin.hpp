// A user's kernel behind the C ABI of include/contactbench/ (plugin.h and one header per
// family): loading it, and calling it so that a crash is reported as a crash, never as a
// verdict. Every call runs in a forked child process (one child per batch of queries, the
// calls in order on one thread), writing its results into shared memory; a child that dies
// by a signal or exits names the query it was on. The family's traits (harness/pairs/) say
// how a query and a result convert to and from the C structs (to_c, from_c).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace contactbench::harness {

// A bad plugin: cannot be loaded, lacks a symbol, speaks another ABI version, crashed, or
// broke the ABI's contract (e.g. an enum value out of range). One line; the command exits 2.
struct PluginError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Plugin {
  std::string path;    // as given on the command line
  std::string symbol;  // contactbench_<stem>
  void* kernel = nullptr;
};

// dlopen(path), check contactbench_plugin_abi_version (a data symbol: reading it runs no
// plugin code) against CONTACTBENCH_PLUGIN_ABI_VERSION, find contactbench_<stem>.
// (The library's own static constructors run in this process, as with any dlopen.)
Plugin load_plugin(const std::string& path, const std::string& stem);

// Calls invoke(kernel, i) for i in [0, count) in a forked child, in order; invoke writes the
// i-th result into out_base + i * result_size (shared memory the caller gets back in `out`),
// ns[i] the call's time in ns. A child that crashes or exits throws PluginError naming
// label(i) of the query it was on.
using PluginInvoke = void (*)(void* kernel, const void* queries, std::size_t i, void* results);
void call_plugin_isolated(const Plugin& p, std::size_t count, const void* queries,
                          std::size_t result_size, PluginInvoke invoke, void* out,
                          std::vector<std::int64_t>& ns,
                          const std::function<std::string(std::size_t)>& label);

// The typed form: results[i] = kernel(queries[i]). One child per chunk of at most 32 MiB of
// results (a family with large result structs gets smaller chunks).
template <class CQuery, class CResult>
std::vector<CResult> call_plugin(const Plugin& p, const std::vector<CQuery>& queries,
                                 std::vector<std::int64_t>& ns,
                                 const std::function<std::string(std::size_t)>& label) {
  std::vector<CResult> out(queries.size());
  ns.assign(queries.size(), 0);
  PluginInvoke invoke = [](void* kernel, const void* in, std::size_t i, void* res) {
    reinterpret_cast<void (*)(const CQuery*, CResult*)>(kernel)(
        static_cast<const CQuery*>(in) + i, static_cast<CResult*>(res) + i);
  };
  const std::size_t chunk = std::max<std::size_t>(1, (std::size_t{32} << 20) / sizeof(CResult));
  std::vector<std::int64_t> t;
  for (std::size_t first = 0; first < queries.size(); first += chunk) {
    const std::size_t n = std::min(chunk, queries.size() - first);
    call_plugin_isolated(p, n, queries.data() + first, sizeof(CResult), invoke, out.data() + first, t,
                         [&](std::size_t i) { return label(first + i); });
    std::copy(t.begin(), t.end(), ns.begin() + static_cast<std::ptrdiff_t>(first));
  }
  return out;
}

}  // namespace contactbench::harness
