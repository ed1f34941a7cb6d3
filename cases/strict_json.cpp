#include "cases/strict_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <vector>

namespace contactbench::cases {

namespace {

constexpr std::size_t quote_chars = 40;

// Control characters, backslash and double quote escaped; nothing cut.
std::string escape(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  return out;
}

// The DOM built iteratively from SAX events (no recursion at any depth), with the checks
// a plain parse lacks: depth, duplicate keys, numbers rounded to 0 or overflowing.
class StrictBuilder : public nlohmann::json_sax<nlohmann::json> {
 public:
  StrictBuilder(std::string_view text, const Where& where) : text_(text), where_(where) {}
  nlohmann::json root;

  bool null() override { return add(nullptr); }
  bool boolean(bool v) override { return add(v); }
  bool number_integer(number_integer_t v) override { return add(v); }
  bool number_unsigned(number_unsigned_t v) override { return add(v); }
  bool number_float(number_float_t v, const string_t& written) override {
    // strtod rounds 1e-400 to 0: a non-zero mantissa read as 0 is underflow, not zero.
    if (v == 0) {
      const auto mantissa = written.substr(0, written.find_first_of("eE"));
      if (mantissa.find_first_of("123456789") != std::string::npos)
        where_.fail(field(), fmt::format("{} is below the smallest double (it would read as 0)",
                                         quote(written)));
    }
    return add(v);
  }
  bool string(string_t& v) override { return add(std::move(v)); }
  bool binary(binary_t&) override { where_.fail(field(), "binary values are not JSON text"); }
  bool start_object(std::size_t) override { return open(nlohmann::json::object()); }
  bool start_array(std::size_t) override { return open(nlohmann::json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    if (!keys_.back().insert(k).second)
      where_.fail(field(k), "duplicate key (each key may appear once in an object)");
    key_ = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& e) override {
    const std::size_t upto = std::min(position, text_.size());
    const auto line = 1 + std::count(text_.begin(), text_.begin() + static_cast<long>(upto), '\n');
    Where at = where_;
    if (std::count(text_.begin(), text_.end(), '\n') > 0 && at.record.empty())
      at.record = fmt::format("line {}", line);
    if (e.id == 406)  // out_of_range: a number beyond the double range
      at.fail(field(), fmt::format("number {} is too large for a double", quote(last_token)));
    if (std::string_view(e.what()).find("unexpected end of input") != std::string_view::npos)
      at.fail("", "truncated JSON (unexpected end)");
    at.fail("", fmt::format("malformed JSON near {}", quote(last_token)));
  }

 private:
  // The field being read: the open containers' path plus the current key or index.
  std::string field(const std::string& key = {}) const {
    std::string f;
    for (std::size_t i = 1; i <= stack_.size(); ++i) {
      const std::string& seg = i < stack_.size() ? path_[i] : (key.empty() ? next_segment() : escape(key).substr(0, quote_chars));
      if (seg.empty()) continue;
      if (seg.front() != '[' && !f.empty()) f += '.';
      f += seg;
      if (f.size() > 120) return f.substr(0, 120) + "...";
    }
    return f;
  }
  // The segment the next value gets inside the innermost open container.
  std::string next_segment() const {
    if (stack_.empty()) return "";
    const nlohmann::json& c = *stack_.back();
    if (c.is_array()) return fmt::format("[{}]", c.size());
    return escape(key_).substr(0, quote_chars);
  }
  nlohmann::json* place(nlohmann::json&& v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    nlohmann::json& c = *stack_.back();
    if (c.is_array()) {
      c.push_back(std::move(v));
      return &c.back();
    }
    nlohmann::json& slot = c[key_];
    slot = std::move(v);
    return &slot;
  }
  bool add(nlohmann::json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(nlohmann::json&& container) {
    if (static_cast<int>(stack_.size()) >= max_json_depth)
      where_.fail(field(), fmt::format("nested deeper than {} levels", max_json_depth));
    const bool object = container.is_object();
    std::string seg = next_segment();
    stack_.push_back(place(std::move(container)));
    path_.push_back(std::move(seg));
    if (object) keys_.emplace_back();
    objects_.push_back(object);
    return true;
  }
  bool close() {
    if (objects_.back()) keys_.pop_back();
    objects_.pop_back();
    stack_.pop_back();
    path_.pop_back();
    return true;
  }

  std::string_view text_;
  const Where& where_;
  std::vector<nlohmann::json*> stack_;  // open containers, outermost first
  std::vector<std::string> path_;       // the segment naming each open container
  std::vector<std::set<std::string>> keys_;  // keys seen in each open object
  std::vector<bool> objects_;
  std::string key_;  // the key of the next value in the innermost open object
};

[[noreturn]] void fail_file(const std::string& path, const std::string& what) {
  Where{path, ""}.fail("", what);
}

// Opens path for reading after refusing what is not a file of text.
void open_checked(const std::string& path, std::ifstream& in) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) fail_file(path, "no such file");
  if (std::filesystem::is_directory(st)) fail_file(path, "is a directory, expected a file");
  if (!std::filesystem::is_regular_file(st) && !std::filesystem::is_fifo(st))
    fail_file(path, "not a regular file (a device or socket?)");
  in.open(path, std::ios::binary);
  if (!in) fail_file(path, "cannot open file (permission?)");
}

}  // namespace

std::string quote(std::string_view s) {
  if (s.size() <= quote_chars) return "\"" + escape(s) + "\"";
  return fmt::format("\"{}\"... ({} bytes)", escape(s.substr(0, quote_chars)), s.size());
}

std::string one_line(std::string_view msg, std::size_t max) {
  std::string out;
  for (const char ch : msg) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += ch;
    if (out.size() >= max) return out + "...";
  }
  return out;
}

std::string brief(const nlohmann::json& v) {
  if (v.is_object()) return fmt::format("an object of {} keys", v.size());
  if (v.is_array()) return fmt::format("an array of {} elements", v.size());
  if (v.is_string()) return "the string " + quote(v.get_ref<const std::string&>());
  const std::string d = v.dump();  // a scalar: short
  return d.size() <= quote_chars ? d : quote(d);
}

nlohmann::json parse_json_strict(std::string_view text, const Where& where) {
  StrictBuilder b(text, where);
  nlohmann::json::sax_parse(text.begin(), text.end(), &b, nlohmann::json::input_format_t::json,
                            true, false);
  return std::move(b.root);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in;
  open_checked(path, in);
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    const std::string_view chunk(buf, static_cast<std::size_t>(in.gcount()));
    if (chunk.find('\0') != std::string_view::npos)
      fail_file(path, "binary data (a NUL byte), expected JSON text");
    text.append(chunk);
    if (text.size() > max_file_bytes)
      fail_file(path, fmt::format("larger than {} MiB", max_file_bytes >> 20));
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) fail_file(path, "empty file");
  return text;
}

LineReader::LineReader(const std::string& path) : path_(path) { open_checked(path, in_); }

bool LineReader::next(std::string& line) {
  line.clear();
  if (!in_.good()) return false;
  ++line_;
  const auto fail = [&](const std::string& what) {
    Where{path_, fmt::format("line {}", line_)}.fail("", what);
  };
  char buf[1 << 16];
  for (;;) {  // getline in chunks: a line longer than the buffer sets failbit, not an error
    in_.getline(buf, sizeof buf);
    const auto n = static_cast<std::size_t>(in_.gcount());
    const bool newline = !in_.fail() && !in_.eof();  // the delimiter was read (and counted)
    const std::size_t len = newline ? n - 1 : n;
    if (std::memchr(buf, '\0', len)) fail("binary data (a NUL byte), expected text");
    line.append(buf, len);
    if (line.size() > max_line_bytes)
      fail(fmt::format("line longer than {} MiB", max_line_bytes >> 20));
    if (newline || in_.eof()) break;
    if (in_.fail() && !in_.bad()) in_.clear();  // the buffer filled before the end of line
    else break;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return !(in_.eof() && line.empty() && in_.gcount() == 0);
}

}  // namespace contactbench::cases
