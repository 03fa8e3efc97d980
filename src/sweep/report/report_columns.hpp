#pragma once
// Column helpers shared by the parts of `allocsim report` (report.cpp, paired.cpp): not a
// public header.
#include <string>
#include <vector>

#include "allocsim/sweep/store/h5.hpp"

namespace allocsim::sweep {

/// The default metrics present in `summary`: utilization, makespan, mean_wait,
/// mean_bounded_slowdown, mean_pairwise_hops.
std::vector<std::string> default_metrics(const h5::Table& summary);
/// `requested` (or the defaults when empty) with the papers' short names resolved (bsd,
/// mean_bsd) and each name once.
std::vector<std::string> report_metrics(const h5::Table& summary,
                                        const std::vector<std::string>& requested);
/// The index of column `name` of `table`; InputError "unknown <what> 'name' (did you mean
/// ...?); valid: ..." otherwise.
std::size_t column_of(const h5::Table& table, const std::string& name, const std::string& what,
                      const std::vector<std::string>& valid);
/// The descriptive /configs columns that take more than one value (the default grouping).
std::vector<std::string> varying_columns(const h5::Table& configs);
/// `names` with each name once, in first-appearance order.
std::vector<std::string> unique_names(const std::vector<std::string>& names);

}  // namespace allocsim::sweep
