#include "harness/plugin.hpp"

#include "include/contactbench/plugin.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstring>

namespace contactbench::harness {

Plugin load_plugin(const std::string& path, const std::string& stem) {
  // dlopen searches the library path for a bare name; a user means the file they named.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  void* h = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* why = dlerror();
    throw PluginError(fmt::format("plugin {}: cannot load: {}", path, why ? why : "dlopen failed"));
  }
  const auto* version = static_cast<const unsigned*>(dlsym(h, "contactbench_plugin_abi_version"));
  if (!version)
    throw PluginError(fmt::format("plugin {}: no symbol contactbench_plugin_abi_version "
                                  "(add CONTACTBENCH_PLUGIN_ABI(); from contactbench/plugin.h)", path));
  if (*version != CONTACTBENCH_PLUGIN_ABI_VERSION)
    throw PluginError(fmt::format("plugin {}: built for plugin ABI version {}, this contactbench "
                                  "speaks version {} (rebuild it against include/contactbench/)",
                                  path, *version, CONTACTBENCH_PLUGIN_ABI_VERSION));
  Plugin p{path, "contactbench_" + stem, nullptr};
  p.kernel = dlsym(h, p.symbol.c_str());
  if (!p.kernel)
    throw PluginError(fmt::format("plugin {}: no symbol {} (the kernel of family {}, declared "
                                  "in contactbench/{}.h; exported with extern \"C\"?)",
                                  path, p.symbol, stem, stem));
  return p;
}

void call_plugin_isolated(const Plugin& p, std::size_t count, const void* queries,
                          std::size_t result_size, PluginInvoke invoke, void* out,
                          std::vector<std::int64_t>& ns,
                          const std::function<std::string(std::size_t)>& label) {
  ns.assign(count, 0);
  if (count == 0) return;
  // Shared with the child: [current index][ns per call][results].
  const std::size_t bytes = sizeof(std::uint64_t) * (1 + count) + result_size * count;
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::runtime_error("plugin: cannot map shared memory for the results");
  auto* current = static_cast<std::uint64_t*>(mem);
  auto* times = reinterpret_cast<std::int64_t*>(current + 1);
  auto* results = reinterpret_cast<unsigned char*>(times + count);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    munmap(mem, bytes);
    throw std::runtime_error("plugin: fork failed");
  }
  if (pid == 0) {  // the child: only the plugin's calls, then _exit (no atexit, no flush)
    // The default action for a fault: the child dies and the parent sees the signal (a
    // handler inherited from the parent, e.g. a test framework's, must not catch it here).
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) signal(sig, SIG_DFL);
    using clock = std::chrono::steady_clock;
    for (std::size_t i = 0; i < count; ++i) {
      __atomic_store_n(current, i, __ATOMIC_RELAXED);
      const auto t0 = clock::now();
      invoke(p.kernel, queries, i, results);
      times[i] = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count();
    }
    __atomic_store_n(current, count, __ATOMIC_RELAXED);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) break;
  const std::size_t at = *current;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || at != count) {
    munmap(mem, bytes);
    const std::string where = at < count ? label(at) : std::string("after the last query");
    if (WIFSIGNALED(status))
      throw PluginError(fmt::format("plugin {}: {} crashed ({}, signal {}) on {}; not judged "
                                    "(the plugin runs in a forked child)",
                                    p.path, p.symbol, strsignal(WTERMSIG(status)), WTERMSIG(status), where));
    throw PluginError(fmt::format("plugin {}: {} ended the process (exit status {}) on {}; not judged",
                                  p.path, p.symbol, WIFEXITED(status) ? WEXITSTATUS(status) : -1, where));
  }
  std::memcpy(out, results, result_size * count);
  ns.assign(times, times + count);
  munmap(mem, bytes);
}

}  // namespace contactbench::harness
