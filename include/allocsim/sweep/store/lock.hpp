#pragma once
// Exclusive lock on a sweep's output file and its journal: two sweeps (or a
// sweep and a merge) writing one file destroy each other, so every writer first takes an
// flock() on `<file>.lock`, which holds "pid host" of the holder. The kernel releases the lock
// when the holder exits, however it dies, so a lock file left behind is never in the way; a
// second writer is refused at once with the holder's pid and host, or (`--resume`, whose
// predecessor may still be shutting down) waits a bounded time for it to exit.
#include <string>

namespace allocsim::sweep {

/// Holds `<path>.lock` exclusively from construction until destruction.
class OutputLock {
 public:
  /// Takes the lock of `path`, waiting up to `wait_seconds` (0: not at all) for a live holder.
  /// Throws InputError naming the holder's pid and host when the lock stays taken, or
  /// std::runtime_error when the lock file cannot be created.
  OutputLock(const std::string& path, double wait_seconds);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  static std::string lock_path(const std::string& path) { return path + ".lock"; }

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace allocsim::sweep
