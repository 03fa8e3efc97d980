#pragma once
// Validation of a result file's contents on read (issue 25): the rules readers rely on and
// that tools/allocsim_results.py checks the same way (its validate()). Each check throws
// InputError naming the file, the dataset or attribute, and what was expected.
#include <cstdint>
#include <string>

#include "allocsim/sweep/store/h5.hpp"
#include "allocsim/sweep/store/results.hpp"

namespace allocsim::sweep {

/// The label attributes of a table (format 2: text columns stored as uint32 codes): every
/// uint32 column has `labels_<column>` with pages @1, @2, ... without gaps, every labels
/// attribute belongs to such a column, no label repeats, and the labels of /configs status are
/// status names. (That every code has a label is checked by h5::File::read_table.)
void check_labels(const h5::File& file, const std::string& table);

/// /configs and /summary agree with each other and with the root attributes: config ids are
/// unique in each, every /summary row is a done config, and (unless the file is a live one,
/// status "running") every done config has a /summary row and the done, failed and timed_out
/// attributes count the rows of each status (pending at least the pending rows).
void check_result_contents(const std::string& path, const FileInfo& info, const h5::Table& configs,
                           const h5::Table& summary);

/// Nodes of the machine `spec` ("KIND:AxBx...[:params]": the product of the sides), or -1
/// when the spec has no such sides.
std::int64_t machine_nodes(const std::string& spec);

/// Every /jobs/<id> table belongs to a config of /configs (16 hex digits) and its node
/// intervals (/job_nodes/<id>) are sound: offsets in order and within the table, first <= last,
/// node ids within the config's machine.
void check_job_tables(const h5::File& file, const h5::Table& configs);

}  // namespace allocsim::sweep
