#pragma once
// The HDF5 result file of a sweep (design sketch "HDF5 result file"):
//   root attributes  provenance (FileInfo)
//   /configs         one row per config: id, index, status, error, wall time, rank, fields,
//                    free variables, label, canonical form, diagnostics
//   /summary         one row per done config: config_id + summary_columns() (run's JSON keys)
//   /jobs/<id hex>   per-job records (job_id + job_columns() + where the job's node intervals
//                    are in /job_nodes/<id hex>) when keep_jobs
//   /job_nodes/<id hex>  the jobs' allocated node ids as [first, last] intervals, job after job
//   /decisions/<id hex>  situation/decision rows when requested
// Text columns are stored as codes with their labels in attributes (h5.hpp), so h5py reads
// every string of the file as `str`; format 1 files (text in string members, node ids as
// interval-set text) are still read, and rewritten in format 2 by --resume and merge.
// Only the master writes it: every /configs row when the file is created (a pending config),
// then per result its outcome columns and /summary row, buffered; the file is flushed often.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/sweep/store/h5.hpp"
#include "allocsim/sweep/store/outcome.hpp"
#include "allocsim/sweep/store/provenance.hpp"

namespace allocsim::sweep {

/// HDF5 chunk sizes (rows) of the result tables. /configs and /summary grow by one row per
/// config and are read whole, so a few hundred rows per chunk keep both appends and reads cheap;
/// a /jobs/<id> table is written once, as one compressed chunk of up to kJobChunkRowsMax rows;
/// a /decisions/<id> table holds one row per decision allocator.
inline constexpr std::size_t kConfigChunkRows = 256;
inline constexpr std::size_t kJobChunkRowsMax = 4096;
inline constexpr std::size_t kDecisionChunkRows = 64;

/// The `format` root attribute of the files written; read_info accepts 1 and 2.
inline constexpr const char* kResultFormat = "allocsim-sweep/2";

/// Provenance and bookkeeping stored as root attributes.
struct FileInfo {
  std::string format = kResultFormat;
  std::string version;     ///< ALLOCSIM_VERSION (project version + git describe)
  std::string experiment;  ///< experiment name
  std::string experiment_file;
  std::string experiment_text;
  std::uint64_t seed = 0;
  std::uint64_t fingerprint = 0;   ///< Expansion::fingerprint: "same experiment"
  std::int64_t total_configs = 0;  ///< configs of the whole experiment
  std::string shard;               ///< "K/N", or empty for a whole sweep or a merge
  std::int64_t file_configs = 0;   ///< configs this file is responsible for
  std::string host;
  std::int64_t ranks = 0;
  std::string start_time, end_time;  ///< ISO 8601 UTC
  std::string status = "running";    ///< running | complete | interrupted | partial (merge)
  double dispatch_seconds = 0;       ///< wall time from first dispatch to last result
  double master_cpu_seconds = 0;     ///< master CPU time over that interval
  double master_cpu_share = 0;       ///< master_cpu_seconds / dispatch_seconds
  std::string master_cpu_scope;      ///< "process" (MPI) or "thread" (one rank)
  std::int64_t done = 0, failed = 0, timed_out = 0, pending = 0;
  // Provenance (root attributes command_line, trace_dir, trace_names/_paths/_sha256 and
  // *_version): enough to say what produced the numbers and from which input bytes.
  std::string command_line;             ///< the sweep's command line, arguments shell-quoted
  std::string trace_dir;                ///< $ALLOCSIM_TRACE_DIR when the sweep started
  std::vector<TraceProvenance> traces;  ///< every trace the configs read, with its SHA-256
  std::string hdf5_version, mpi_version, boost_version;
};

void write_info(h5::File& file, const FileInfo& info);
FileInfo read_info(const h5::File& file);

/// Column layout of /configs for an expansion (its free variables become columns: float64
/// when every value is a number, else strings).
std::vector<h5::ColumnDef> config_columns(const Expansion& expansion);
std::vector<h5::ColumnDef> summary_table_columns();
std::vector<h5::ColumnDef> job_table_columns();
/// Columns of /job_nodes/<id hex>: first and last node id of each interval.
std::vector<h5::ColumnDef> job_node_columns();

/// Writes /jobs/<hex> and /job_nodes/<hex> of one config's per-job records.
void write_job_tables(h5::File& file, const std::string& hex, const std::vector<JobRecord>& jobs);
/// Reads them back (format 1 tables too), allocated_nodes as the interval-set text. Throws
/// InputError naming the file and table when the node intervals are unsound: offsets out of
/// order or past the end of /job_nodes/<hex>, first > last, a node id below 0 or (when
/// `machine_nodes` >= 0) not below machine_nodes.
std::vector<JobRecord> read_job_tables(const h5::File& file, const std::string& hex,
                                       std::int64_t machine_nodes = -1);
/// Writes /timeline/<hex>: one config's timeline (columns timeline_columns(): time and
/// utilization float64, the counts int64).
void write_timeline_table(h5::File& file, const std::string& hex,
                          const std::vector<TimelineRow>& rows);
/// Reads /timeline/<hex> back.
std::vector<TimelineRow> read_timeline_table(const h5::File& file, const std::string& hex);
/// Copies a config's /jobs, /job_nodes, /decisions and /timeline tables into `to`, rewriting format
/// 1 tables in the current format.
void copy_config_tables(const h5::File& from, h5::File& to, std::uint64_t config_id);
/// Writes a result file: create (with every /configs row), add outcomes row after row, flush,
/// close. The config's own /configs columns (fields, variables, label, canonical text) are
/// written when the file is created, in appends of kPrefillRows rows, with the outcome columns
/// (status, error, wall_seconds, rank, diagnostics) of a pending config; add() then writes only
/// the outcome columns over its row (HDF5 partial compound writes, buffered: one write per
/// append()) and its /summary row. Readers see the same columns and values as when whole rows
/// were appended per result.
class ResultWriter {
 public:
  /// Creates `path` with /configs rows for the configs `rows` (expansion indices, row order).
  ResultWriter(const std::string& path, const FileInfo& info, const Expansion& expansion,
               const std::vector<std::int64_t>& rows);

  /// The outcome of the next row's config (rows are filled in order; another config throws
  /// std::logic_error); buffers its outcome columns and /summary row, writes /jobs and
  /// /decisions at once.
  void add(const ConfigEntry& entry, const ConfigOutcome& outcome);
  /// The next row stays pending (its outcome columns are rewritten as such).
  void add_pending(const ConfigEntry& entry);
  /// Writes the buffered outcome columns and /summary rows (one HDF5 write per table).
  void append();
  /// Appends buffered rows and flushes the file to disk.
  void flush();
  void set_info(const FileInfo& info);
  void close();
  std::size_t buffered() const { return outcomes_.rows(); }

  /// Rows per /configs append when the file is created.
  static constexpr std::size_t kPrefillRows = 16384;

 private:
  std::vector<h5::Table::Cell> config_row(const ConfigEntry& entry) const;

  h5::File file_;
  const Expansion* expansion_;
  std::vector<h5::ColumnType> variable_types_;  ///< of the free variables' columns
  std::vector<h5::ColumnDef> config_columns_;
  std::vector<std::uint64_t> row_ids_;  ///< config id of each /configs row
  std::size_t written_rows_ = 0;        ///< rows whose outcome columns are written
  h5::Table outcomes_;                  ///< outcome columns of the rows after written_rows_
  h5::Table summary_;
};

/// /configs and /summary of a result file, read whole after verify_result_file() (a damaged
/// file is an InputError, never a crash).
struct ResultTables {
  FileInfo info;
  h5::Table configs;
  h5::Table summary;
};
ResultTables read_result_tables(const std::string& path);

/// The RunConfig of one /configs row (fields the file lacks keep their defaults).
RunConfig read_config(const h5::Table& configs, std::size_t row);

/// Rebuilds the outcomes stored in a finished result file (for --resume without a journal);
/// verifies the file first.
std::vector<ConfigOutcome> read_outcomes(const std::string& path);

/// Compact one-line text of diagnostics ("reason: count; ...; note").
std::string diagnostics_text(const Diagnostics& diagnostics);

}  // namespace allocsim::sweep
