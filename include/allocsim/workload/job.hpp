#pragma once
// A job of a workload, and a workload with the diagnostics of how it was read and transformed.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace allocsim {

/// Communication class of a job (the `comm_classes` transform): unset in traces.
enum class CommClass : std::uint8_t { none = 0, light = 1, heavy = 2 };
/// The pattern a job's communication follows under the `flow` model, when a transform set one:
/// `none` leaves the model's own (all-to-all, or the run's mapped pattern).
enum class CommPattern : std::uint8_t { none = 0, alltoall = 1, stencil = 2 };

/// One job. Times are in seconds (or the synthetic workload's time unit).
struct Job {
  std::int64_t id = 0;  ///< trace job number (SWF field 1), or 0-based line for 4-column
  double submit = 0;    ///< arrival time
  double runtime = 0;   ///< actual running time on the trace's machine
  double estimate = 0;  ///< user's requested time (used for reservations)
  int procs = 0;        ///< processors requested
  int shape_a = 0;      ///< requested submesh sides a x b (0 when only a count is known)
  int shape_b = 0;
  int user = -1;  ///< SWF user id, -1 if unknown
  /// Line of the trace file the job was read from (0 = not from a file): diagnostics of jobs
  /// dropped later (too large for the machine) list it among their first_lines.
  std::int64_t line = 0;
  /// The job's own communication share (fraction of its trace runtime spent communicating
  /// alone on a compact allocation), overriding the `flow` model's `comm` when ≥ 0; −1: unset
  /// (traces carry no communication data; the `comm_classes` transform sets it).
  double comm_share = -1;
  CommPattern comm_pattern = CommPattern::none;  ///< overrides the flow model's all-to-all
  CommClass comm_class = CommClass::none;        ///< written to the job's record (comm_class)
};

/// Counts of what a reader or transform dropped, sorted or changed, with example line numbers.
struct Diagnostics {
  struct Entry {
    std::int64_t count = 0;
    std::vector<std::int64_t> first_lines;  ///< up to 5 line numbers (0 when not line-based)
  };
  std::map<std::string, Entry> entries;  ///< reason -> count
  std::vector<std::string> notes;        ///< free-text notes (fallbacks used, transforms applied)

  /// Counts one occurrence of `reason` at `line` (line 0 = not from a file line).
  void count(const std::string& reason, std::int64_t line = 0, std::int64_t how_many = 1);
  std::int64_t total(const std::string& reason) const;
  /// Multi-line human-readable report.
  std::string report() const;
};

/// A job stream ready to simulate: jobs sorted by submit time (stably), machine size from the
/// trace header when known.
struct Workload {
  std::string source;        ///< file path or synthetic spec
  int header_max_procs = 0;  ///< SWF MaxProcs (0 = unknown)
  int header_max_nodes = 0;  ///< SWF MaxNodes (0 = unknown)
  std::vector<Job> jobs;
  Diagnostics diagnostics;
  std::vector<std::string> transforms;  ///< canonical specs of the transforms applied, in order
};

}  // namespace allocsim
