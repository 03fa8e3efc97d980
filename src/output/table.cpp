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

std::vector<std::string> table_numbers(const std::vector<double>& values) {
  double largest = 0;
  bool integral = true;
  for (const double v : values) {
    if (std::isnan(v)) continue;
    largest = std::max(largest, std::fabs(v));
    integral &= std::fabs(v) == std::floor(std::fabs(v)) && std::fabs(v) < 1e15;
  }
  const int decimals = integral ? 0 : largest >= 1000 ? 1 : largest >= 1 ? 3 : 4;
  std::vector<std::string> out;
  for (const double v : values) {
    if (std::isnan(v)) {
      out.emplace_back("-");
      continue;
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
    out.emplace_back(buffer);
  }
  return out;
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

std::string wrapped_table(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::vector<bool>& left, std::size_t key_columns,
                          std::size_t max_width) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  key_columns = std::min(key_columns, header.size());
  std::size_t key_width = 0;
  for (std::size_t c = 0; c < key_columns; ++c) key_width += width[c] + (c ? 2 : 0);
  // Greedy blocks of the other columns, each as wide as fits next to the key columns.
  std::vector<std::vector<std::size_t>> blocks;
  std::size_t used = max_width;
  for (std::size_t c = key_columns; c < header.size(); ++c) {
    if (blocks.empty() || used + 2 + width[c] > max_width) {
      blocks.emplace_back();
      used = key_width;
    }
    blocks.back().push_back(c);
    used += 2 + width[c];
  }
  if (blocks.size() <= 1) return aligned_table(header, rows, left);
  std::string out;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    std::vector<std::size_t> picked;
    for (std::size_t c = 0; c < key_columns; ++c) picked.push_back(c);
    picked.insert(picked.end(), blocks[b].begin(), blocks[b].end());
    auto pick = [&](const std::vector<std::string>& cells) {
      std::vector<std::string> part;
      for (auto c : picked) part.push_back(c < cells.size() ? cells[c] : std::string());
      return part;
    };
    std::vector<std::vector<std::string>> part_rows;
    for (const auto& row : rows) part_rows.push_back(pick(row));
    std::vector<bool> part_left;
    for (auto c : picked) part_left.push_back(left[c]);
    if (b) out += "\n";
    out += aligned_table(pick(header), part_rows, part_left);
  }
  return out;
}

}  // namespace allocsim::output
