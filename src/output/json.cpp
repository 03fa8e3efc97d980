// JSON text of results and configs.
#include "allocsim/output/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "allocsim/sim/config_fields.hpp"

namespace allocsim::output {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

std::string summary_json(const RunSummary& summary) {
  std::string out = "{";
  bool first = true;
  for (const auto& column : summary_columns()) {
    out +=
        (first ? "" : ", ") + json_string(column.name) + ": " + json_number(summary.*column.member);
    first = false;
  }
  return out + "}";
}

std::string diagnostics_json(const Diagnostics& diagnostics) {
  std::string out = "{";
  bool first = true;
  for (const auto& [reason, entry] : diagnostics.entries) {
    out += (first ? "" : ", ") + json_string(reason) +
           ": {\"count\": " + std::to_string(entry.count) + ", \"first_lines\": [";
    for (std::size_t i = 0; i < entry.first_lines.size(); ++i)
      out += (i ? ", " : "") + std::to_string(entry.first_lines[i]);
    out += "]}";
    first = false;
  }
  out += std::string(first ? "" : ", ") + "\"notes\": [";
  for (std::size_t i = 0; i < diagnostics.notes.size(); ++i)
    out += (i ? ", " : "") + json_string(diagnostics.notes[i]);
  return out + "]}";
}

std::string decisions_json(const std::vector<DecisionRow>& rows) {
  std::string out = "[";
  for (std::size_t i = 0; i < rows.size(); ++i)
    out += std::string(i ? ", " : "") + "{\"decision\": " + json_string(rows[i].decision) +
           ", \"mean_pairwise_sum\": " + json_number(rows[i].mean_pairwise_sum) +
           ", \"mean_avg_pairwise\": " + json_number(rows[i].mean_avg_pairwise) +
           ", \"jobs\": " + json_number(rows[i].jobs) +
           ", \"refusals\": " + json_number(rows[i].refusals) + "}";
  return out + "]";
}

namespace {
/// One config field's value as JSON.
struct JsonOf {
  std::string operator()(const std::string& value) const { return json_string(value); }
  std::string operator()(const std::vector<std::string>& value) const {
    std::string out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + json_string(value[i]);
    return out + "]";
  }
  std::string operator()(double value) const { return json_number(value); }
  std::string operator()(bool value) const { return value ? "true" : "false"; }
  std::string operator()(std::uint64_t value) const { return std::to_string(value); }
};
}  // namespace

std::string config_json(const RunConfig& config) {
  std::string out = "{";
  bool first = true;
  for (const auto& field : config_fields()) {
    out +=
        (first ? "" : ", ") + json_string(field.name) + ": " + visit_field(config, field, JsonOf{});
    first = false;
  }
  return out + "}";
}

}  // namespace allocsim::output
