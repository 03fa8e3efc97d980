// Aligned text tables for the console.
#include "allocsim/output/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace allocsim::output {

std::string table_number(double value) {
  if (std::isnan(value)) return "-";
  char buffer[64];
  const double magnitude = std::fabs(value);
  if (magnitude == std::floor(magnitude) && magnitude < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else if (magnitude >= 1000) {
    std::snprintf(buffer, sizeof buffer, "%.1f", value);
  } else if (magnitude >= 1) {
    std::snprintf(buffer, sizeof buffer, "%.3f", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.4f", value);
  }
  return buffer;
}

std::string aligned_table(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::vector<bool>& left) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  std::string out;
  auto put_line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size() && c < width.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      out += (c ? "  " : "") + (left[c] ? cells[c] + pad : pad + cells[c]);
    }
    out += "\n";
  };
  put_line(header);
  for (const auto& row : rows) put_line(row);
  return out;
}

}  // namespace allocsim::output
