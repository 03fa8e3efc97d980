#include <sstream>

#include "allocsim/workload/job.hpp"

namespace allocsim {

void Diagnostics::count(const std::string& reason, std::int64_t line, std::int64_t how_many) {
  Entry& entry = entries[reason];
  entry.count += how_many;
  if (line > 0 && entry.first_lines.size() < 5) entry.first_lines.push_back(line);
}

std::int64_t Diagnostics::total(const std::string& reason) const {
  auto found = entries.find(reason);
  return found == entries.end() ? 0 : found->second.count;
}

std::string Diagnostics::report() const {
  std::ostringstream out;
  if (entries.empty() && notes.empty()) return "no jobs dropped or changed\n";
  for (const auto& [reason, entry] : entries) {
    out << "  " << reason << ": " << entry.count;
    if (!entry.first_lines.empty()) {
      out << " (lines";
      for (auto line : entry.first_lines) out << ' ' << line;
      if (entry.count > static_cast<std::int64_t>(entry.first_lines.size())) out << " ...";
      out << ')';
    }
    out << '\n';
  }
  for (const auto& note : notes) out << "  note: " << note << '\n';
  return out.str();
}

}  // namespace allocsim
