#include "harness/options.hpp"

#include "cases/strict_json.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace contactbench::harness {

CLI::Validator whole_number(std::uint64_t lo, std::uint64_t hi) {
  const std::string what = fmt::format("a whole number in [{}, {}]", lo, hi);
  return CLI::Validator(
      [lo, hi, what](std::string& s) -> std::string {
        std::uint64_t v = 0;
        const char* end = s.data() + s.size();
        const auto [ptr, ec] = std::from_chars(s.data(), end, v);
        const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || ec != std::errc() || ptr != end || v < lo || v > hi)
          return fmt::format("expected {} (digits only), got {}", what, cases::quote(s));
        return "";
      },
      what);
}

CLI::Validator finite_number(double lo, double hi) {
  const std::string what = fmt::format("a number in [{}, {}]", lo, hi);
  return CLI::Validator(
      [lo, hi, what](std::string& s) -> std::string {
        double v = 0;
        const char* end = s.data() + s.size();
        const auto [ptr, ec] = std::from_chars(s.data(), end, v);
        if (s.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < lo || v > hi)
          return fmt::format("expected {}, got {}", what, cases::quote(s));
        return "";
      },
      what);
}

}  // namespace contactbench::harness
