#include "output.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace allocsim::cli {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
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
    out += (first ? "" : ", ") + json_string(column.name) + ": " + json_number(summary.*column.member);
    first = false;
  }
  return out + "}";
}

std::string diagnostics_json(const Diagnostics& diagnostics) {
  std::string out = "{";
  bool first = true;
  for (const auto& [reason, entry] : diagnostics.entries) {
    out += (first ? "" : ", ") + json_string(reason) + ": {\"count\": " +
           std::to_string(entry.count) + ", \"first_lines\": [";
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

void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs) {
  out << "job_id";
  for (const auto& column : job_columns()) out << ',' << column.name;
  out << '\n';
  for (const auto& job : jobs) {
    out << job.job_id;
    for (const auto& column : job_columns()) out << ',' << json_number(job.*column.member);
    out << '\n';
  }
}

}  // namespace allocsim::cli
