// The bad-input corpus (harness/tests/bad_input/cases.jsonl): every entry runs the built
// `contactbench` with its arguments and must exit with the stated code after writing ONE
// line to stderr ("error: ..."), at most 500 bytes, without control characters, that names
// the stated file/line/field or option, within one second of CPU time (a hang is killed
// after 30 s of wall time; under AddressSanitizer, whose allocator makes the JSON reader of
// the 20,000-facet fan 5-10x slower, within five). Inputs too large to commit (200,000-deep
// JSON, an 8 MB value, a 20,000-facet fan) are written by make_generated() into a temporary
// folder: {tmp} in the arguments; {dir} is the corpus folder.
#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path corpus_dir = fs::path(CONTACTBENCH_SOURCE_DIR) / "harness/tests/bad_input";

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

// A closed fan of n facets around vertex 0 (apex at the origin, rim on the unit circle,
// lifted alternately so no facet is flat with its neighbours), as an edge_smoothing query.
std::string fan_query(int n) {
  nlohmann::json v = nlohmann::json::array({{0, 0, 0}}), f = nlohmann::json::array();
  for (int i = 0; i < n; ++i) {
    const double t = 2 * M_PI * i / n;
    v.push_back({std::cos(t), std::sin(t), (i % 2) ? 0.25 : -0.25});
    f.push_back({0, 1 + i, 1 + (i + 1) % n});
  }
  return nlohmann::json{{"centre", {0.01, 0.01, 1}}, {"radius", 1.0}, {"facet", 0},
                        {"mesh", {{"vertices", v}, {"facets", f}}}}
      .dump();
}

void make_generated(const fs::path& tmp) {
  const std::string tri = R"("a":[0,0,0],"b":[1,0,0],"c":[0,1,0])";
  auto write = [&](const char* name, const std::string& text) {
    std::ofstream(tmp / name, std::ios::binary) << text;
  };
  write("deep.jsonl", repeat("[", 200000) + repeat("]", 200000) + "\n");
  write("deep_field.jsonl",
        "{\"p\":" + repeat("[", 200000) + repeat("]", 200000) + "," + tri + "}\n");
  write("deep_object.jsonl", repeat("{\"a\":", 200000) + "1" + repeat("}", 200000) + "\n");
  write("huge_value.jsonl", "{\"p\":[\"" + repeat("9", 8 << 20) + "x\",0,0]," + tri + "}\n");
  write("huge_key.jsonl", "{\"" + repeat("k", 8 << 20) + "\":1," + tri + "}\n");
  write("fan.jsonl", fan_query(20000) + "\n");
  write("long_line.jsonl", "{\"p\":[0,0,0]," + tri + repeat(" ", 17 << 20) + "}\n");
}

#if defined(__SANITIZE_ADDRESS__)
constexpr double cpu_limit_seconds = 5.0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double cpu_limit_seconds = 5.0;
#else
constexpr double cpu_limit_seconds = 1.0;
#endif
#else
constexpr double cpu_limit_seconds = 1.0;
#endif

struct Outcome {
  int exit_code = -1;
  std::string err;
  double cpu_seconds = 0;
  bool killed = false;
};

// Runs exe with args; stdout discarded, stderr captured in a file.
Outcome run(const std::string& exe, const std::vector<std::string>& args, const fs::path& tmp) {
  const fs::path err_path = tmp / "stderr.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open("/dev/null", O_WRONLY);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> argv{const_cast<char*>(exe.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  Outcome o;
  int status = 0;
  rusage usage{};
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    const pid_t r = wait4(pid, &status, WNOHANG, &usage);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(30)) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      o.killed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  o.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  std::ifstream in(err_path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  o.err = ss.str();
  return o;
}

std::string substitute(std::string s, const fs::path& tmp) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{tmp}", tmp.string()},
                                   {"{dir}", corpus_dir.string()}}) {
    for (std::size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), value);
  }
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bad_input)

BOOST_AUTO_TEST_CASE(every_corpus_entry_gets_one_clear_line) {
  const std::string exe = (fs::read_symlink("/proc/self/exe").parent_path() / "contactbench").string();
  BOOST_REQUIRE(fs::exists(exe));
  const fs::path tmp = fs::temp_directory_path() / ("contactbench-bad-input-" + std::to_string(getpid()));
  fs::create_directories(tmp);
  make_generated(tmp);
  std::ifstream table(corpus_dir / "cases.jsonl");
  BOOST_REQUIRE(table);
  std::string line;
  int entries = 0;
  std::set<std::string> classes;
  for (int lineno = 1; std::getline(table, line); ++lineno) {
    if (line.empty() || line[0] == '#') continue;
    const auto e = nlohmann::json::parse(line);
    std::vector<std::string> args;
    for (const auto& a : e.at("args")) args.push_back(substitute(a.get<std::string>(), tmp));
    const std::string names = substitute(e.at("names").get<std::string>(), tmp);
    classes.insert(e.at("class").get<std::string>());
    BOOST_TEST_CONTEXT("cases.jsonl line " << lineno << ": " << e.at("args").dump()) {
      const Outcome o = run(exe, args, tmp);
      ++entries;
      BOOST_TEST(!o.killed);
      BOOST_TEST(o.exit_code == e.at("exit").get<int>());
      BOOST_TEST(o.cpu_seconds <= cpu_limit_seconds);
      // ONE line, "error: ..." naming what it must, short and free of control characters.
      BOOST_TEST(o.err.rfind("error: ", 0) == 0);
      BOOST_TEST((!o.err.empty() && o.err.back() == '\n' &&
                  o.err.find('\n') == o.err.size() - 1));
      BOOST_TEST(o.err.find(names) != std::string::npos, "must name " << names << ": " << o.err.substr(0, 600));
      BOOST_TEST(o.err.size() <= 500);
      bool clean = true;
      for (std::size_t i = 0; i + 1 < o.err.size(); ++i)
        clean = clean && static_cast<unsigned char>(o.err[i]) >= 0x20 && o.err[i] != 0x7f;
      BOOST_TEST(clean);
    }
  }
  fs::remove_all(tmp);
  // Every class of the issue is covered.
  for (const char* c : {"crash", "hang", "silent", "unclear", "new-user"})
    BOOST_TEST(classes.count(c) == 1, "no entry of class " << c);
  BOOST_TEST(entries >= 40);
}

BOOST_AUTO_TEST_SUITE_END()
