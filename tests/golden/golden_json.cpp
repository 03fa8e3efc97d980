// Reading and writing golden files: a fixed, diff-friendly JSON layout (one summary field and one
// job per line) and a small JSON reader for exactly what the writer produces (objects, arrays,
// strings, numbers). Doubles are written in their shortest round-trip form (std::to_chars), so a
// file read back holds the very same bits; NaN and infinities are written as strings.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "golden_file.hpp"

namespace allocsim::golden {

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + '"';
}

std::string number(double value) {
  if (std::isnan(value)) return "\"NaN\"";
  if (std::isinf(value)) return value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

std::string string_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quoted(items[i]);
  return out + "]";
}

std::string number_row(const std::vector<double>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + number(values[i]);
  return out;
}

/// A parsed JSON value. Numbers keep their text so integers convert without rounding.
struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  std::string text;  ///< string value, or the number's text, or "true"/"false"
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json& at(const std::string& key) const {
    for (const auto& [name, value] : members)
      if (name == key) return value;
    throw std::runtime_error("golden file: missing key '" + key + "'");
  }
  const Json& expect(Kind wanted, const char* what) const {
    if (kind != wanted) throw std::runtime_error(std::string("golden file: expected ") + what);
    return *this;
  }
  const std::string& string() const { return expect(kString, "a string").text; }
  double real() const {
    if (kind == kString) {  // non-finite values are written as strings
      if (text == "NaN") return std::nan("");
      if (text == "Infinity") return INFINITY;
      if (text == "-Infinity") return -INFINITY;
    }
    expect(kNumber, "a number");
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
      throw std::runtime_error("golden file: bad number '" + text + "'");
    return value;
  }
  std::int64_t integer() const {
    expect(kNumber, "an integer");
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
      throw std::runtime_error("golden file: bad integer '" + text + "'");
    return value;
  }
  std::vector<std::string> strings() const {
    std::vector<std::string> out;
    for (const auto& item : expect(kArray, "an array").items) out.push_back(item.string());
    return out;
  }
};

/// Recursive-descent reader over the whole text.
class Reader {
 public:
  explicit Reader(const std::string& text) : text_(text) {}

  Json document() {
    Json value = parse_value();
    skip_space();
    if (pos_ != text_.size()) fail("trailing characters");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) line += text_[i] == '\n';
    throw std::runtime_error("golden file: " + what + " at line " + std::to_string(line));
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void need(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }

  Json parse_value() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    const char c = text_[pos_];
    if (c == '{') return parse_object();
    if (c == '[') return parse_array();
    if (c == '"') {
      Json value;
      value.kind = Json::kString;
      value.text = parse_string();
      return value;
    }
    for (const char* word : {"true", "false", "null"})
      if (text_.compare(pos_, std::char_traits<char>::length(word), word) == 0) {
        pos_ += std::char_traits<char>::length(word);
        Json value;
        value.kind = word[0] == 'n' ? Json::kNull : Json::kBool;
        value.text = word;
        return value;
      }
    const std::size_t start = pos_;
    while (pos_ < text_.size() &&
           std::string_view("+-.0123456789eE").find(text_[pos_]) != std::string_view::npos)
      ++pos_;
    if (start == pos_) fail("unexpected character");
    Json value;
    value.kind = Json::kNumber;
    value.text = text_.substr(start, pos_ - start);
    return value;
  }

  std::string parse_string() {
    need('"');
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size()) fail("unterminated escape");
        c = text_[pos_++];
        if (c == 'n') {
          c = '\n';
        } else if (c == 't') {
          c = '\t';
        } else if (c == 'u') {
          if (pos_ + 4 > text_.size()) fail("short \\u escape");
          c = static_cast<char>(std::stoi(text_.substr(pos_, 4), nullptr, 16));
          pos_ += 4;
        }
      }
      out += c;
    }
    need('"');
    return out;
  }

  Json parse_array() {
    need('[');
    Json value;
    value.kind = Json::kArray;
    if (take(']')) return value;
    do value.items.push_back(parse_value());
    while (take(','));
    need(']');
    return value;
  }

  Json parse_object() {
    need('{');
    Json value;
    value.kind = Json::kObject;
    if (take('}')) return value;
    do {
      skip_space();
      std::string key = parse_string();
      need(':');
      value.members.emplace_back(std::move(key), parse_value());
    } while (take(','));
    need('}');
    return value;
  }

  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string to_json(const GoldenOutput& output) {
  std::string out = "{\n";
  out += "  \"family\": " + quoted(output.family) + ",\n";
  out += "  \"case\": " + quoted(output.name) + ",\n";
  out += "  \"config\": " + quoted(output.config) + ",\n";
  out += "  \"seed\": " + std::to_string(output.seed) + ",\n";
  out += "  \"workload_seed\": " + std::to_string(output.workload_seed) + ",\n";
  out += "  \"summary\": {";
  for (std::size_t i = 0; i < output.summary.size(); ++i)
    out += std::string(i ? "," : "") + "\n    " + quoted(output.summary[i].first) + ": " +
           number(output.summary[i].second);
  out += output.summary.empty() ? "},\n" : "\n  },\n";
  out += "  \"diagnostics\": {";
  std::size_t index = 0;
  for (const auto& [reason, count] : output.diagnostics)
    out +=
        std::string(index++ ? "," : "") + "\n    " + quoted(reason) + ": " + std::to_string(count);
  out += output.diagnostics.empty() ? "},\n" : "\n  },\n";
  out += "  \"notes\": " + string_list(output.notes) + ",\n";
  out += "  \"decision_columns\": " + string_list(output.decision_columns) + ",\n";
  out += "  \"decisions\": [";
  for (std::size_t i = 0; i < output.decisions.size(); ++i)
    out += std::string(i ? "," : "") + "\n    [" + quoted(output.decisions[i].first) + ", " +
           number_row(output.decisions[i].second) + "]";
  out += output.decisions.empty() ? "],\n" : "\n  ],\n";
  out += "  \"job_columns\": " + string_list(output.job_columns) + ",\n";
  out += "  \"jobs\": [";
  for (std::size_t i = 0; i < output.jobs.size(); ++i)
    out += std::string(i ? "," : "") + "\n    [" + number_row(output.jobs[i]) + "]";
  out += output.jobs.empty() ? "]\n" : "\n  ]\n";
  return out + "}\n";
}

GoldenOutput from_json(const std::string& text) {
  const Json root = Reader(text).document();
  root.expect(Json::kObject, "an object at the top");
  GoldenOutput output;
  output.family = root.at("family").string();
  output.name = root.at("case").string();
  output.config = root.at("config").string();
  output.seed = static_cast<std::uint64_t>(root.at("seed").integer());
  output.workload_seed = static_cast<std::uint64_t>(root.at("workload_seed").integer());
  for (const auto& [name, value] : root.at("summary").expect(Json::kObject, "an object").members)
    output.summary.emplace_back(name, value.real());
  for (const auto& [reason, count] :
       root.at("diagnostics").expect(Json::kObject, "an object").members)
    output.diagnostics[reason] = count.integer();
  output.notes = root.at("notes").strings();
  output.decision_columns = root.at("decision_columns").strings();
  for (const auto& row : root.at("decisions").expect(Json::kArray, "an array").items) {
    row.expect(Json::kArray, "a decision row");
    if (row.items.empty()) throw std::runtime_error("golden file: empty decision row");
    std::vector<double> values;
    for (std::size_t i = 1; i < row.items.size(); ++i) values.push_back(row.items[i].real());
    output.decisions.emplace_back(row.items[0].string(), std::move(values));
  }
  output.job_columns = root.at("job_columns").strings();
  for (const auto& row : root.at("jobs").expect(Json::kArray, "an array").items) {
    std::vector<double> values;
    for (const auto& item : row.expect(Json::kArray, "a job row").items)
      values.push_back(item.real());
    output.jobs.push_back(std::move(values));
  }
  return output;
}

}  // namespace allocsim::golden
