#pragma once
// Result files are checked before use: `report`, `merge` and `--resume`
// read files that may be damaged, and libhdf5 can crash (global-heap reads of corrupted
// variable-length strings) or loop forever on some corruptions. So the whole file is first
// read in a child process: a crash, a hang (bounded wait) or an error there becomes a clear
// InputError in the caller, which then reads the file itself knowing the reads succeed.
#include <string>

#include "allocsim/sweep/store/h5.hpp"

namespace allocsim::sweep {

/// Reads every table of the result file `path` (root attributes, /configs, /summary, /jobs/*,
/// /decisions/*) in a forked child and checks their layout (check_result_layout). Throws
/// InputError naming the file and what went wrong (the child's error, the signal that killed
/// it, or a read that did not end within 30 s + 1 s per MB). Stop signals (SIGTERM, SIGINT,
/// SIGUSR1) that are blocked and pending end the wait at once with an InputError; unblocked
/// ones end the caller as usual and the child with it.
void verify_result_file(const std::string& path);

/// Throws InputError unless /configs and /summary have the columns readers rely on with their
/// types (config_id, index, status, error, wall_seconds, rank, label, diagnostics; config_id).
void check_result_layout(const std::string& path, const h5::Table& configs,
                         const h5::Table& summary);

}  // namespace allocsim::sweep
