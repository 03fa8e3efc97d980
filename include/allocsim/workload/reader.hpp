#pragma once
// Trace readers: Standard Workload Format (SWF, 18 fields) and the 4-column
// `submit procs runtime estimate` format, plain or gzip-compressed.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/workload/job.hpp"

namespace allocsim {

/// Options shared by the readers.
struct ReadOptions {
  /// A malformed line (not numbers, wrong field count, a field that is not finite, not an
  /// integer where one is needed, or out of range) is a hard InputError naming
  /// `file:line: field: what was expected` instead of a counted skip. SWF's "unknown" markers
  /// (runtime -1, processors -1) are still counted drops.
  bool strict = false;
  /// Estimate used when the trace has no requested time: `estimate_factor` x runtime.
  /// 2.0 matches the SST scheduler simulator's convention. Must be finite in (0, 1e6].
  double estimate_factor = 2.0;
};

/// Throws InputError unless the options are valid (estimate_factor finite in (0, 1e6]).
void validate_read_options(const ReadOptions& options);

/// Largest trace text the readers accept, compressed or decompressed (4 GiB).
inline constexpr std::size_t kMaxTraceBytes = std::size_t{1} << 32;

/// Reads an SWF file (.swf or .swf.gz). Processor count = allocated (field 5) if positive,
/// else requested (field 8); estimate = requested time (field 9) if positive, else
/// estimate_factor x runtime. Jobs with runtime < 0 or processors <= 0 are dropped and counted,
/// so are lines with a field that is not finite, a processor count, job number or user id that
/// is not an integer, or a value out of range (times within ±kMaxTime, processors within
/// ±(2^31-1)), each under its own reason with its line numbers.
Workload read_swf(const std::string& path, const ReadOptions& options = {});

/// Reads a 4-column file (`submit procs runtime estimate`, whitespace separated, optional .gz).
/// Job ids are 0-based line numbers among job lines. Fields are checked as for SWF.
Workload read_four_column(const std::string& path, const ReadOptions& options = {});

/// Picks the reader by content/extension: `.swf[.gz]` -> SWF, otherwise 4-column.
Workload read_trace(const std::string& path, const ReadOptions& options = {});

/// Parses SWF text already in memory; `source` names it in messages and Workload::source.
Workload parse_swf(std::string_view text, const std::string& source,
                   const ReadOptions& options = {});
/// Parses 4-column text already in memory.
Workload parse_four_column(std::string_view text, const std::string& source,
                           const ReadOptions& options = {});

/// Resolves a trace argument: an existing path, or a NAME looked up in `trace_dir` (normally
/// $ALLOCSIM_TRACE_DIR, then its derived/ folder) as NAME.swf, NAME.swf.gz, NAME.txt.gz, NAME.txt.
/// Throws InputError listing where it looked.
std::string resolve_trace_path(const std::string& name_or_path, const std::string& trace_dir);

/// Reads every line of a plain or gzip-compressed file (gzip detected by magic bytes).
std::vector<std::string> read_lines(const std::string& path);

/// How much a text reader accepts: at most `max_bytes` of file and of decompressed text (an
/// endless input such as /dev/zero or a FIFO stops there with an error naming `reader`), and
/// what the text should be (in the message about binary data).
struct TextLimit {
  std::size_t max_bytes = kMaxTraceBytes;
  std::string_view reader = "the trace reader";
  std::string_view expected = "a text trace, plain or gzip-compressed";
};

/// The raw bytes of a file; InputError naming the file when it cannot be read or exceeds
/// limit.max_bytes. Bytes that are not gzip data are refused at the first NUL byte (binary
/// data, e.g. /dev/zero) as soon as it is read.
std::string read_file_bytes(const std::string& path, const TextLimit& limit = {});
/// Text of a file's bytes: gzip data (detected by its magic bytes; concatenated members
/// allowed) is decompressed, other bytes pass through. A truncated or corrupt gzip stream,
/// data after it (other than zero padding), text beyond limit.max_bytes or a NUL byte in the
/// text is an InputError naming `source` and the compressed and decompressed byte offsets.
std::string decode_trace_bytes(std::string_view bytes, const std::string& source,
                               const TextLimit& limit = {});
/// read_file_bytes then decode_trace_bytes, without copying plain text.
std::string read_trace_text(const std::string& path, const TextLimit& limit = {});

}  // namespace allocsim
