#pragma once
// Exclusive lock on a sweep's output file and its journal: two sweeps (or a
// sweep and a merge) writing one file destroy each other, so every writer locks the file
// itself, whatever name it is reached by (a symlink, a hard link, a relative path):
//  - the name lock: an flock() on `<canonical path>.lock` (symlinks resolved), which holds
//    "pid host" of the holder; it serves a file that does not exist yet;
//  - the file lock: an flock() on the output file itself (created empty when missing), so a
//    hard link — another name of the same inode — finds it taken too. libhdf5's own lock is
//    off for the writer's handle (h5::File::Mode::create/write), which this one replaces.
// The kernel releases both when the holder exits, however it dies, so a lock file left behind
// is never in the way; a second writer is refused at once with the holder's pid and host, or
// (`--resume`, whose predecessor may still be shutting down) waits a bounded time for it.
#include <optional>
#include <string>

namespace allocsim::sweep {

/// Holds the name lock and the file lock of an output file from construction until destruction.
class OutputLock {
 public:
  /// Takes the locks of `path`, waiting up to `wait_seconds` (0: not at all) for a live holder.
  /// Throws InputError naming the holder's pid and host when a lock stays taken, or
  /// std::runtime_error when the lock file or the output file cannot be created.
  OutputLock(const std::string& path, double wait_seconds);
  /// Releases; removes the lock file, and the output file when it was created here and is
  /// still empty (a sweep refused before writing leaves nothing behind).
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  /// True when the output file existed before the lock was taken (the lock creates it empty).
  bool file_existed() const { return existed_; }
  /// Lets go of the file lock while this process reads the file through libhdf5 (whose
  /// readers take a shared lock of their own), keeping the name lock.
  void suspend_file_lock();
  /// Takes the file lock again; throws InputError when someone else took it meanwhile or the
  /// file changed.
  void resume_file_lock();

  /// The name lock of `path`: `<path with symlinks resolved>.lock`.
  static std::string lock_path(const std::string& path);

 private:
  std::string path_, lock_path_;
  int fd_ = -1;       ///< the name lock
  int file_fd_ = -1;  ///< the file lock (-1 where the file system has no flock)
  bool existed_ = true;
  long long size_ = 0, mtime_ns_ = 0;  ///< the file when the lock was suspended
};

/// The process holding the output lock of the result file `path` (any of its names), as
/// "pid N on host H" with the lock file, or nothing when no one holds it. For messages such as
/// `report`'s on a file a running sweep writes.
struct LockHolder {
  long pid = 0;           ///< 0 when unknown
  std::string host;       ///< "" when unknown
  std::string lock_file;  ///< the name lock, or the output file for a holder found by inode
  std::string describe() const;
};
std::optional<LockHolder> output_lock_holder(const std::string& path);

}  // namespace allocsim::sweep
