#include "harness/pair.hpp"

#include <unistd.h>

#include <cmath>
#include <iostream>

namespace contactbench::harness {

const char* to_string(Agreement a) {
  switch (a) {
    case Agreement::exact: return "exact";
    case Agreement::conservative: return "conservative";
    case Agreement::approximate: return "approximate";
  }
  return "?";
}

Verdict judge(const Comparison& c) {
  bool boundary = false;
  // A bound that is not finite excuses nothing: it is a kernel outside its stated domain.
  for (const auto& m : c.mismatches) {
    if (!std::isfinite(m.bound) || !(m.margin <= m.bound)) return Verdict::wrong;  // NaN too
    boundary = true;
  }
  for (const auto& e : c.errors)
    if (!std::isfinite(e.bound) || !(std::abs(e.error) <= e.bound)) return Verdict::wrong;
  if (boundary) return Verdict::boundary;
  return c.false_positive ? Verdict::false_positive : Verdict::agree;
}

std::string describe(const Comparison& c) {
  std::string out;
  auto sep = [&] { if (!out.empty()) out += "; "; };
  for (const auto& m : c.mismatches) {
    sep();
    out += fmt::format("{}: reference {} fast {}, margin {:.3g} {} bound {:.3g}", m.field,
                       m.reference, m.fast, m.margin, m.margin <= m.bound ? "<=" : ">", m.bound);
  }
  for (const auto& e : c.errors)
    if (!std::isfinite(e.bound) || !(std::abs(e.error) <= e.bound)) {
      sep();
      out += fmt::format("{}: error {:.3g} > bound {:.3g}", e.field, e.error, e.bound);
    }
  if (c.false_positive) {
    sep();
    out += "false positive";
  }
  if (!c.note.empty()) {
    sep();
    out += c.note;
  }
  return out.empty() ? "agree" : out;
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled && isatty(2)) {}

Progress::~Progress() {
  if (enabled_) std::cerr << "\r\033[K" << std::flush;
}

void Progress::tick(std::uint64_t k) {
  const auto done = done_.fetch_add(k, std::memory_order_relaxed) + k;
  if (!enabled_) return;
  const auto t = now_ns();
  auto last = last_ns_.load(std::memory_order_relaxed);
  if (t - last < 100'000'000 && done != total_) return;
  if (!last_ns_.compare_exchange_strong(last, t)) return;
  std::cerr << fmt::format("\r\033[K{}: {}/{} ({:.0f}%)", label_, done, total_,
                           total_ ? 100.0 * done / total_ : 100.0)
            << std::flush;
}

}  // namespace contactbench::harness
