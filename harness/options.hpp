// Validators of the command's numeric options (CLI11 checks on the text as typed, so a
// negative count never wraps around and an empty or partial number is never a default),
// and the limits they enforce, which --help states.
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace contactbench::harness {

// Largest --n: ten billion queries, about a week of one family on two cores; a larger
// campaign is several seeds.
inline constexpr std::uint64_t max_queries = 10'000'000'000ULL;

// A whole number in [lo, hi] written in decimal digits only (no sign, exponent or blank).
CLI::Validator whole_number(std::uint64_t lo, std::uint64_t hi);
// A finite decimal number in [lo, hi].
CLI::Validator finite_number(double lo, double hi);

}  // namespace contactbench::harness
