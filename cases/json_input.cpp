#include "cases/json_input.hpp"

#include "cases/strict_json.hpp"

#include <fmt/format.h>
#include <gmpxx.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace contactbench::cases {

const nlohmann::json& require(const nlohmann::json& obj, const std::string& key,
                              const Where& where, const std::string& prefix) {
  if (!obj.is_object()) where.fail(prefix.empty() ? key : prefix, "expected a JSON object");
  auto it = obj.find(key);
  if (it == obj.end()) where.fail(prefix + key, "missing");
  return *it;
}

namespace {
double parse_number(const nlohmann::json& v, const std::string& field, const Where& where) {
  double d = 0;
  if (v.is_number()) {
    d = v.get<double>();
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    char* end = nullptr;
    errno = 0;
    d = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || std::isspace(static_cast<unsigned char>(s[0])))
      where.fail(field, fmt::format("expected a number, got the string {}", quote(s)));
    if (errno == ERANGE && std::isfinite(d) && d == 0)
      where.fail(field, fmt::format("{} is below the smallest double (it would read as 0)", quote(s)));
  } else {
    where.fail(field, fmt::format("expected a number, got {}", v.type_name()));
  }
  if (!std::isfinite(d)) where.fail(field, "NaN or infinite value");
  return d;
}
}  // namespace

double read_double(const nlohmann::json& obj, const std::string& key, const Where& where,
                   const std::string& prefix) {
  return parse_number(require(obj, key, where, prefix), prefix + key, where);
}

std::vector<double> read_double_array(const nlohmann::json& obj, const std::string& key,
                                      const Where& where, const std::string& prefix) {
  const auto& v = require(obj, key, where, prefix);
  if (!v.is_array())
    where.fail(prefix + key, fmt::format("expected an array of numbers, got {}", v.type_name()));
  std::vector<double> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(parse_number(v[i], fmt::format("{}{}[{}]", prefix, key, i), where));
  return out;
}

Vec3 read_vec3(const nlohmann::json& obj, const std::string& key, const Where& where,
               const std::string& prefix) {
  const auto& v = require(obj, key, where, prefix);
  if (!v.is_array() || v.size() != 3)
    where.fail(prefix + key, fmt::format("expected an array of 3 numbers, got {}",
                                         v.is_array() ? fmt::format("{} elements", v.size())
                                                      : std::string(v.type_name())));
  Vec3 out;
  for (int i = 0; i < 3; ++i)
    out[i] = parse_number(v[i], fmt::format("{}{}[{}]", prefix, key, i), where);
  return out;
}

std::vector<Vec3> read_vec3_list(const nlohmann::json& obj, const std::string& key,
                                 const Where& where, const std::string& prefix) {
  const auto& v = require(obj, key, where, prefix);
  if (!v.is_array()) where.fail(prefix + key, fmt::format("expected an array, got {}", v.type_name()));
  std::vector<Vec3> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string field = fmt::format("{}{}[{}]", prefix, key, i);
    const auto& p = v[i];
    if (!p.is_array() || p.size() != 3) where.fail(field, "expected an array of 3 numbers");
    Vec3 x;
    for (int d = 0; d < 3; ++d) x[d] = parse_number(p[d], fmt::format("{}[{}]", field, d), where);
    out.push_back(x);
  }
  return out;
}

namespace {
long long parse_integer(const nlohmann::json& v, long long lo, long long hi,
                        const std::string& field, const Where& where) {
  if (!v.is_number_integer()) where.fail(field, fmt::format("expected an integer, got {}", brief(v)));
  const bool neg = v.is_number_integer() && !v.is_number_unsigned() && v.get<long long>() < 0;
  if (!neg && v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi))
    where.fail(field, fmt::format("{} out of range [{}, {}]", brief(v), lo, hi));
  const long long x = v.get<long long>();
  if (x < lo || x > hi) where.fail(field, fmt::format("{} out of range [{}, {}]", x, lo, hi));
  return x;
}
}  // namespace

std::vector<std::array<int, 3>> read_index_triples(const nlohmann::json& obj,
                                                   const std::string& key, const Where& where,
                                                   const std::string& prefix) {
  const auto& v = require(obj, key, where, prefix);
  if (!v.is_array()) where.fail(prefix + key, fmt::format("expected an array, got {}", v.type_name()));
  std::vector<std::array<int, 3>> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string field = fmt::format("{}{}[{}]", prefix, key, i);
    const auto& t = v[i];
    if (!t.is_array() || t.size() != 3) where.fail(field, "expected an array of 3 vertex indices");
    std::array<int, 3> x;
    for (int d = 0; d < 3; ++d)
      x[d] = static_cast<int>(parse_integer(t[d], 0, std::numeric_limits<int>::max(),
                                            fmt::format("{}[{}]", field, d), where));
    out.push_back(x);
  }
  return out;
}

long long read_integer(const nlohmann::json& obj, const std::string& key, long long lo,
                       long long hi, const Where& where, const std::string& prefix) {
  return parse_integer(require(obj, key, where, prefix), lo, hi, prefix + key, where);
}

void reject_unknown_keys(const nlohmann::json& obj, std::initializer_list<const char*> allowed,
                         const Where& where, const std::string& prefix) {
  if (!obj.is_object()) where.fail(prefix, "expected a JSON object");
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      // A plain short key as written; anything else quoted (cut, escaped).
      const bool plain = key.size() <= 40 && !key.empty() &&
                         std::all_of(key.begin(), key.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
                         });
      where.fail(prefix + (plain ? key : quote(key)),
                 fmt::format("unknown key (expected one of: {})", list));
    }
  }
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json_strict(read_text_file(path), Where{path, ""});
}

namespace {

// The cross product n = (b - a) × (c - a) in double, each component with a bound B_i on
// its error against the exact n_i: |n_i - r_i| <= B_i whenever `finite`. Derivation, u =
// 2^-53, η = 2^-1075 (the absolute error of a product that underflows): a difference
// d = fl(x - y) = (x - y)(1 + δ), |δ| <= u (a subnormal difference is exact), so the exact
// difference is within 1.0000001u|d| of d and an exact product of two differences within
// 2.0001u of the product of the rounded ones; r = fl(fl(d1 d2) - fl(d3 d4)) adds u|p| + η
// per product and u(|p| + |q|) for the subtraction: |r - n_i| <= 4.001u(|p| + |q|) + 3η.
// B_i = 8u·fl(|p| + |q|) + 2^-1070 covers it: the sum rounds by (1 ± u), the scaling by the
// power of two 8u is exact unless it underflows (η), and the last addition rounds by u
// relative; the slack of 8u against 4.001u absorbs all three. Assumes IEEE binary64 with
// one rounding per operation (x86-64 SSE, -ffp-contract=off), no flush to zero.
struct FilteredNormal {
  double r[3], bound[3];
  bool finite;
};

FilteredNormal filtered_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  FilteredNormal n;
  n.finite = true;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double p = u[j] * v[k], q = u[k] * v[j];
    n.r[i] = p - q;
    n.bound[i] = 0x1p-50 * (std::abs(p) + std::abs(q)) + 0x1p-1070;
    n.finite = n.finite && std::isfinite(n.r[i]) && std::isfinite(n.bound[i]);  // NaN too
  }
  return n;
}

struct ExactNormal {
  mpq_class n[3];
};

ExactNormal exact_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
  mpq_class u[3], v[3];
  for (int i = 0; i < 3; ++i) {
    u[i] = mpq_class(b[i]) - mpq_class(a[i]);
    v[i] = mpq_class(c[i]) - mpq_class(a[i]);
  }
  return {{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]}};
}

}  // namespace

std::optional<bool> collinear_filter(const Vec3& a, const Vec3& b, const Vec3& c) {
  const FilteredNormal f = filtered_normal(a, b, c);
  if (f.finite)
    for (int i = 0; i < 3; ++i)
      if (std::abs(f.r[i]) > f.bound[i]) return false;
  return std::nullopt;
}

bool exactly_collinear(const Vec3& a, const Vec3& b, const Vec3& c) {
  if (const auto decided = collinear_filter(a, b, c)) return *decided;
  const ExactNormal e = exact_normal(a, b, c);
  return e.n[0] == 0 && e.n[1] == 0 && e.n[2] == 0;
}

// L and H enclose |n|² from |r_i| ∓ B_i, rounded outward by a factor 1 ∓ 2^-48 (along either
// side the bracket, its square, the two sums and the final product and offset round at most
// 8 times by (1 ± u) each: far below 32u) and by 2^-1070 (each square that underflows loses
// at most 2^-1075). H may be +inf: then it decides nothing; L = +inf proves the bound.
std::optional<bool> twice_area_at_least_filter(const Vec3& a, const Vec3& b, const Vec3& c, int log2_min) {
  if (std::abs(log2_min) > 500) return std::nullopt;  // the threshold must be a normal double
  const FilteredNormal f = filtered_normal(a, b, c);
  if (!f.finite) return std::nullopt;
  double lo = 0, hi = 0;
  for (int i = 0; i < 3; ++i) {
    const double l = std::max(std::abs(f.r[i]) - f.bound[i], 0.0), h = std::abs(f.r[i]) + f.bound[i];
    lo += l * l;
    hi += h * h;
  }
  const double threshold = std::ldexp(1.0, 2 * log2_min);
  if (lo * (1 - 0x1p-48) - 0x1p-1070 >= threshold) return true;
  if (hi * (1 + 0x1p-48) + 0x1p-1070 < threshold) return false;
  return std::nullopt;
}

bool twice_area_at_least(const Vec3& a, const Vec3& b, const Vec3& c, int log2_min) {
  if (const auto decided = twice_area_at_least_filter(a, b, c, log2_min)) return *decided;
  const ExactNormal e = exact_normal(a, b, c);
  const mpq_class squared = e.n[0] * e.n[0] + e.n[1] * e.n[1] + e.n[2] * e.n[2];
  mpq_class bound = 1;
  if (log2_min >= 0)
    mpz_mul_2exp(bound.get_num_mpz_t(), bound.get_num_mpz_t(), 2 * static_cast<unsigned long>(log2_min));
  else
    mpz_mul_2exp(bound.get_den_mpz_t(), bound.get_den_mpz_t(), 2 * static_cast<unsigned long>(-log2_min));
  return squared >= bound;
}

nlohmann::json to_json(const Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); }

}  // namespace contactbench::cases
