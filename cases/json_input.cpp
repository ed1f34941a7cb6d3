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

bool exactly_collinear(const Vec3& a, const Vec3& b, const Vec3& c) {
  mpq_class u[3], v[3];
  for (int i = 0; i < 3; ++i) {
    u[i] = mpq_class(b[i]) - mpq_class(a[i]);
    v[i] = mpq_class(c[i]) - mpq_class(a[i]);
  }
  return u[1] * v[2] == u[2] * v[1] && u[2] * v[0] == u[0] * v[2] && u[0] * v[1] == u[1] * v[0];
}

bool twice_area_at_least(const Vec3& a, const Vec3& b, const Vec3& c, int log2_min) {
  mpq_class u[3], v[3];
  for (int i = 0; i < 3; ++i) {
    u[i] = mpq_class(b[i]) - mpq_class(a[i]);
    v[i] = mpq_class(c[i]) - mpq_class(a[i]);
  }
  const mpq_class n0 = u[1] * v[2] - u[2] * v[1], n1 = u[2] * v[0] - u[0] * v[2],
                  n2 = u[0] * v[1] - u[1] * v[0];
  mpq_class bound = 1;
  if (log2_min >= 0)
    mpz_mul_2exp(bound.get_num_mpz_t(), bound.get_num_mpz_t(), 2 * static_cast<unsigned long>(log2_min));
  else
    mpz_mul_2exp(bound.get_den_mpz_t(), bound.get_den_mpz_t(), 2 * static_cast<unsigned long>(-log2_min));
  return n0 * n0 + n1 * n1 + n2 * n2 >= bound;
}

nlohmann::json to_json(const Vec3& v) { return nlohmann::json::array({v[0], v[1], v[2]}); }

}  // namespace contactbench::cases
