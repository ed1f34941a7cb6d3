// The one way every reader turns bytes into JSON, with the limits that keep a bad input to
// one short error line: files must be regular text files, nesting is limited before any
// recursion, a key may appear once per object, and a number must be a double that is not
// rounded to 0 or infinity. What a message quotes of the input is cut and escaped (quote).
#pragma once
#include "cases/common.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <fstream>
#include <string>
#include <string_view>

namespace contactbench::cases {

// Deepest JSON nesting any reader accepts (a query needs 4; a check file 6).
inline constexpr int max_json_depth = 64;
// Longest line of a JSON Lines file, and largest JSON file (a check file is well below).
inline constexpr std::size_t max_line_bytes = std::size_t{16} << 20;
inline constexpr std::size_t max_file_bytes = std::size_t{512} << 20;

// s for an error message: at most 40 characters, in double quotes, control characters and
// quotes escaped, a longer s cut with "... (N bytes)".
std::string quote(std::string_view s);
// msg on one line: control characters escaped, cut at max bytes with "...". Every error
// line passes through it (Where::fail), whatever the readers quoted.
std::string one_line(std::string_view msg, std::size_t max = 400);
// A JSON value for an error message without echoing it whole: a number or short string as
// written (cut as quote cuts), an array or object only by kind and size.
std::string brief(const nlohmann::json& v);

// Parses text (the whole of one JSON document or one JSON Lines record) as above. Errors
// go through where: syntax errors name the line within text when it has several, the
// others name the field ("mesh.vertices[3][1]").
nlohmann::json parse_json_strict(std::string_view text, const Where& where);

// Reads a file that must be a readable regular file (or a pipe), not a directory or device,
// without NUL bytes, of at most max_file_bytes.
std::string read_text_file(const std::string& path);

// Line-by-line reading of a JSON Lines or CSV file with the same checks: each line at most
// max_line_bytes, no NUL byte, line numbers from 1.
class LineReader {
 public:
  explicit LineReader(const std::string& path);
  // The next line without its '\n' (and '\r'); false at the end of the file.
  bool next(std::string& line);
  std::size_t line_number() const { return line_; }

 private:
  std::string path_;
  std::ifstream in_;
  std::size_t line_ = 0;
};

}  // namespace contactbench::cases
