#pragma once
// Trace readers: Standard Workload Format (SWF, 18 fields) and the 4-column
// `submit procs runtime estimate` format, plain or gzip-compressed.
#include <string>

#include "allocsim/workload/job.hpp"

namespace allocsim {

/// Options shared by the readers.
struct ReadOptions {
  /// A malformed line is a hard InputError naming file:line instead of a counted skip.
  bool strict = false;
  /// Estimate used when the trace has no requested time: `estimate_factor` x runtime.
  /// 2.0 matches the SST scheduler simulator's convention.
  double estimate_factor = 2.0;
};

/// Reads an SWF file (.swf or .swf.gz). Processor count = allocated (field 5) if positive,
/// else requested (field 8); estimate = requested time (field 9) if positive, else
/// estimate_factor x runtime. Jobs with runtime < 0 or processors <= 0 are dropped and counted.
Workload read_swf(const std::string& path, const ReadOptions& options = {});

/// Reads a 4-column file (`submit procs runtime estimate`, whitespace separated, optional .gz).
/// Job ids are 0-based line numbers among job lines.
Workload read_four_column(const std::string& path, const ReadOptions& options = {});

/// Picks the reader by content/extension: `.swf[.gz]` -> SWF, otherwise 4-column.
Workload read_trace(const std::string& path, const ReadOptions& options = {});

/// Resolves a trace argument: an existing path, or a NAME looked up in `trace_dir` (normally
/// $ALLOCSIM_TRACE_DIR, then its derived/ folder) as NAME.swf, NAME.swf.gz, NAME.txt.gz, NAME.txt.
/// Throws InputError listing where it looked.
std::string resolve_trace_path(const std::string& name_or_path, const std::string& trace_dir);

/// Reads every line of a plain or gzip-compressed file (gzip detected by magic bytes).
std::vector<std::string> read_lines(const std::string& path);

}  // namespace allocsim
