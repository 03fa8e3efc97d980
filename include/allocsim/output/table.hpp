#pragma once
// Aligned text tables for the console (`allocsim report`).
#include <string>
#include <vector>

namespace allocsim::output {

/// Compact fixed-point text of a number for an aligned table ("-" for NaN; integers without
/// decimals; 1 decimal from 1000, 3 from 1, else 4).
std::string table_number(double value);

/// A text table: the header line, then one line per row; each column as wide as its widest
/// cell, cells separated by two spaces, left-aligned where `left[c]`, else right-aligned.
std::string aligned_table(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows,
                          const std::vector<bool>& left);

}  // namespace allocsim::output
