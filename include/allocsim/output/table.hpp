#pragma once
// Aligned text tables for the console (`allocsim report`).
#include <cstddef>
#include <string>
#include <vector>

namespace allocsim::output {

/// Compact fixed-point text of a number for an aligned table ("-" for NaN; integers without
/// decimals; 1 decimal from 1000, 3 from 1, else 4).
std::string table_number(double value);

/// A column of numbers with one precision, chosen by the largest magnitude as table_number does
/// (so that decimals line up); "-" for NaN.
std::vector<std::string> table_numbers(const std::vector<double>& values);

/// A text table: the header line, then one line per row; each column as wide as its widest
/// cell, cells separated by two spaces, left-aligned where `left[c]`, else right-aligned.
std::string aligned_table(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::vector<bool>& left);

/// Width of console tables: wider tables are split by wrapped_table.
inline constexpr std::size_t console_width = 120;

/// aligned_table, split into blocks of columns that each fit `max_width` characters; every
/// block repeats the first `key_columns` columns (the row names).
std::string wrapped_table(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::vector<bool>& left, std::size_t key_columns,
                          std::size_t max_width = console_width);

}  // namespace allocsim::output
