#pragma once
// Crash-safe result storage of one sweep. Every outcome goes first to the
// journal (`<file>.journal`, one frame per write()), then into the live HDF5 file, flushed every
// two seconds. At the end the file is rewritten in expansion order (a temporary file renamed
// over it) and, when every config finished, the journal is removed. `--resume` rebuilds the
// state from the journal, or from a finished file when there is no journal, so a SIGKILL at any
// moment loses only the configs in flight.
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/sweep/store/journal.hpp"
#include "allocsim/sweep/store/results.hpp"

namespace allocsim::sweep {

struct StoreOptions {
  bool resume = false;        ///< continue from the journal / existing file
  bool retry_failed = false;  ///< also rerun failed and timed-out configs
  bool overwrite = false;     ///< start again even though the file exists
};

class ResultStore {
 public:
  /// Opens the store of `path` for the configs `members` (expansion indices) of `expansion`.
  /// Throws InputError when the file exists without --resume/--overwrite, or belongs to
  /// another experiment, seed or shard. Notes for the user go to `log`.
  ResultStore(std::string path, FileInfo info, const Expansion& expansion,
              std::vector<std::int64_t> members, const StoreOptions& options, std::ostream& log);
  ~ResultStore();

  /// Members still to run, in index order.
  const std::vector<std::int64_t>& todo() const { return todo_; }
  std::int64_t members() const { return static_cast<std::int64_t>(members_.size()); }
  /// Members with an outcome, and how many of those failed or timed out.
  std::int64_t finished() const { return static_cast<std::int64_t>(recorded_.size()); }
  std::int64_t failed() const { return failed_; }
  /// Outcomes carried over from an earlier run.
  std::int64_t resumed() const { return resumed_; }

  /// Journals the outcome, then adds it to the live file.
  void record(const ConfigOutcome& outcome);
  /// Flushes the live file when two seconds have passed since the last flush.
  void tick();
  /// Rewrites the file in index order with `info` (counts filled in), removes the journal when
  /// every member finished, and returns the info written.
  FileInfo finish(FileInfo info);

  static std::string journal_path(const std::string& path) { return path + ".journal"; }

 private:
  struct Recorded {
    std::uint64_t offset = 0;
    ConfigStatus status = ConfigStatus::pending;
  };
  void carry_over(const ConfigOutcome& outcome);

  std::string path_;
  const Expansion* expansion_;
  std::vector<std::int64_t> members_;
  std::map<std::uint64_t, std::int64_t> index_of_;  ///< id -> expansion index (members)
  std::map<std::uint64_t, Recorded> recorded_;
  std::vector<std::int64_t> todo_;
  std::int64_t failed_ = 0, resumed_ = 0;
  std::unique_ptr<JournalWriter> journal_;
  std::uint64_t journal_bytes_ = 0;
  std::unique_ptr<ResultWriter> live_;
  double last_flush_ = 0;
};

}  // namespace allocsim::sweep
