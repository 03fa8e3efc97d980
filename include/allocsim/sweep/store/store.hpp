#pragma once
// Crash-safe result storage of one sweep. Every outcome goes first to the
// journal (`<file>.journal`; the frames of one dispatch iteration in one write()), then into the
// live HDF5 file. The file is created with every member's /configs row (pending; ResultWriter);
// outcomes fill their rows' outcome columns and append their /summary rows in expansion order:
// an outcome waits (encoded, in memory up to kHeldBytes, else as its journal offset, read back
// through the open journal) until every member before it has finished, so the file's content
// does not depend on the arrival order, the rank count or the batching. Rows are written
// kAppendRows at a time and the file flushed every two seconds. Finishing writes the remaining
// outcomes (members that did not run stay pending) and the final attributes: no rewrite, no file
// opened per config. When every config finished, the journal is removed. `--resume` rebuilds the
// state from the journal, or from a finished file when there is no journal, so a SIGKILL at any
// moment loses only the configs in flight.
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/sweep/store/journal.hpp"
#include "allocsim/sweep/store/lock.hpp"
#include "allocsim/sweep/store/results.hpp"

namespace allocsim::sweep {

struct StoreOptions {
  bool resume = false;        ///< continue from the journal / existing file
  bool retry_failed = false;  ///< also rerun failed and timed-out configs
  bool overwrite = false;     ///< start again even though the file exists
  /// With --resume: how long to wait for a live holder of the output lock (an earlier sweep
  /// still shutting down) before refusing; without --resume a holder is refused at once.
  double lock_wait_seconds = 10;
  /// How the command starts again when a file cannot be resumed (reproduce has no --overwrite).
  std::string restart_advice = "use --overwrite to start again";
};

class ResultStore {
 public:
  /// Opens the store of `path` for the configs `members` (expansion indices) of `expansion`.
  /// Throws InputError when another process holds the file's lock (OutputLock), when the file
  /// exists without --resume/--overwrite, or belongs to another experiment, seed or shard. Notes
  /// for the user go to `log`.
  ResultStore(std::string path, FileInfo info, const Expansion& expansion,
              std::vector<std::int64_t> members, const StoreOptions& options, std::ostream& log);
  ~ResultStore();

  /// Members still to run, in index order.
  const std::vector<std::int64_t>& todo() const { return todo_; }
  std::int64_t members() const { return static_cast<std::int64_t>(members_.size()); }
  /// Members with an outcome, and how many of those failed or timed out.
  std::int64_t finished() const { return finished_; }
  std::int64_t failed() const { return failed_; }
  /// Outcomes carried over from an earlier run.
  std::int64_t resumed() const { return resumed_; }

  /// Journals the outcome (with its encode_outcome() bytes when given, else encoded here); its
  /// rows reach the live file in index order.
  /// (`outcome` may hold only its head fields when `encoded` is given.)
  void record(const ConfigOutcome& outcome, std::string encoded = {}, std::uint64_t checksum = 0);
  /// Writes the journal frames queued since the last tick, appends the rows now in order, and
  /// flushes the live file every two seconds.
  void tick();
  /// Appends the remaining rows (pending for configs without an outcome) and `info` (counts
  /// filled in), removes the journal when every member finished, and returns the info written.
  FileInfo finish(FileInfo info);

  /// Outcomes held in memory while they wait for their turn in the file (beyond, their journal
  /// offset is kept and the frame read back).
  static constexpr std::size_t kHeldBytes = std::size_t{64} << 20;
  /// Rows buffered before an HDF5 append.
  static constexpr std::size_t kAppendRows = 4096;

  static std::string journal_path(const std::string& path) { return path + ".journal"; }

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  /// A member's latest outcome: its journal frame and status (offset kNone: none yet).
  struct Recorded {
    std::uint64_t offset = kNone;
    ConfigStatus status = ConfigStatus::pending;
  };
  /// Member position of an expansion index, or -1.
  std::int64_t position(std::int64_t index) const;
  void note(std::size_t position, std::uint64_t offset, ConfigStatus status);
  /// Appends the rows of the members finished in order since the last call.
  void append_ready();
  void append_row(std::size_t position);

  std::string path_;
  OutputLock lock_;  ///< first taken, last released
  const Expansion* expansion_;
  std::vector<std::int64_t> members_;      ///< expansion indices, ascending
  std::vector<std::int32_t> position_of_;  ///< expansion index -> member position or -1
  std::vector<Recorded> recorded_;         ///< per member position
  std::size_t written_ = 0;                ///< members whose rows are in the live file
  /// Outcomes waiting for their turn (encoded: a third of the memory of decoded ones), by
  /// member position, and their bytes.
  std::map<std::size_t, std::string> held_;
  std::size_t held_bytes_ = 0;
  std::vector<std::int64_t> todo_;
  std::int64_t finished_ = 0, failed_ = 0, resumed_ = 0;
  std::unique_ptr<JournalWriter> journal_;
  std::unique_ptr<ResultWriter> live_;
  double last_flush_ = 0;
};

}  // namespace allocsim::sweep
