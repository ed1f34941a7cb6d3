// Reading validated values out of JSON files and JSON Lines query files. Every
// failure becomes one InputError line naming file, record and field.
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace contactbench::cases {

// A finite double: a JSON number, or a string strtod reads completely ("0x1.8p-3" for
// exact hex input). NaN, Inf, other types and missing keys are errors.
double read_double(const nlohmann::json& obj, const std::string& key, const Where& where,
                   const std::string& prefix = "");
// A JSON array of such doubles (any length, possibly empty); element i of a bad array is
// named key[i] ("py[3]"). Not an array, or a missing key, is an error naming key.
std::vector<double> read_double_array(const nlohmann::json& obj, const std::string& key,
                                      const Where& where, const std::string& prefix = "");
Vec3 read_vec3(const nlohmann::json& obj, const std::string& key, const Where& where,
               const std::string& prefix = "");
// A list of points: obj[key] an array whose elements are [x, y, z] (each coordinate as in
// read_double); errors name key[i] or key[i][d].
std::vector<Vec3> read_vec3_list(const nlohmann::json& obj, const std::string& key,
                                 const Where& where, const std::string& prefix = "");
// A list of index triples: obj[key] an array whose elements are [i, j, k], each a JSON
// integer in [0, INT_MAX] (range against the data is the caller's check).
std::vector<std::array<int, 3>> read_index_triples(const nlohmann::json& obj,
                                                   const std::string& key, const Where& where,
                                                   const std::string& prefix = "");
// A JSON integer (not a float, not a string) in [lo, hi].
long long read_integer(const nlohmann::json& obj, const std::string& key, long long lo,
                       long long hi, const Where& where, const std::string& prefix = "");
const nlohmann::json& require(const nlohmann::json& obj, const std::string& key,
                              const Where& where, const std::string& prefix = "");

// Misspelled keys must not silently fall back to defaults: any key of obj outside `allowed`
// fails with the unknown key's name.
void reject_unknown_keys(const nlohmann::json& obj, std::initializer_list<const char*> allowed,
                         const Where& where, const std::string& prefix = "");

// Parse a whole JSON document from a file; a parse error names the line.
nlohmann::json read_json_file(const std::string& path);

// The triangle a, b, c has exactly zero area (collinear or coincident vertices): decided
// exactly, so a sliver is accepted and a true degeneracy is not.
bool exactly_collinear(const Vec3& a, const Vec3& b, const Vec3& c);
// Exact test |(b - a) × (c - a)|^2 >= 2^(2·log2_min): twice the area at least 2^log2_min,
// at any finite double input.
bool twice_area_at_least(const Vec3& a, const Vec3& b, const Vec3& c, int log2_min);
// Both are filtered: the cross product in double with a proved error bound per component
// (derivation in json_input.cpp) decides where it can, rationals decide the rest. The
// filters alone (for the tests): the exact answer when they decide, else nothing.
std::optional<bool> collinear_filter(const Vec3& a, const Vec3& b, const Vec3& c);
std::optional<bool> twice_area_at_least_filter(const Vec3& a, const Vec3& b, const Vec3& c, int log2_min);

nlohmann::json to_json(const Vec3& v);

}  // namespace contactbench::cases
