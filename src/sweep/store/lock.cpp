// Exclusive output lock: flock() on `<canonical file>.lock` holding "pid host", and on the file.
#include "allocsim/sweep/store/lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

namespace fs = std::filesystem;

namespace {

std::string this_host() {
  char buffer[256] = {};
  gethostname(buffer, sizeof buffer - 1);
  return buffer;
}

/// `path` with every symlink resolved, also a dangling last one (its target is what a writer
/// creates), and made absolute; the path as given when nothing can be resolved.
std::string resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = path;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  const fs::path canonical = fs::weakly_canonical(p, ec);
  return ec ? path : canonical.string();
}

/// Device and inode of an open file or of a path.
struct Identity {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const Identity&) const = default;
};
std::optional<Identity> identity_of(int fd) {
  struct stat s {};
  if (fstat(fd, &s) != 0) return std::nullopt;
  return Identity{s.st_dev, s.st_ino};
}
std::optional<Identity> identity_of(const std::string& path) {
  struct stat s {};
  if (stat(path.c_str(), &s) != 0) return std::nullopt;
  return Identity{s.st_dev, s.st_ino};
}

/// True when `fd` is still the file at `path` (a releasing holder unlinks it; whoever locked
/// the unlinked file must start again, or two processes could hold "the" lock).
bool still_linked(int fd, const std::string& path) {
  const auto open_file = identity_of(fd), named = identity_of(path);
  return open_file && named && *open_file == *named;
}

/// The pid holding an exclusive flock() on the file `id`, from /proc/locks (this host only),
/// or 0.
long flock_holder_pid(const Identity& id) {
  std::ifstream locks("/proc/locks");
  char want[64];
  std::snprintf(want, sizeof want, "%02x:%02x:%llu", major(id.dev), minor(id.dev),
                static_cast<unsigned long long>(id.ino));
  std::string line;
  while (std::getline(locks, line)) {
    // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (waiters are marked "->")
    std::istringstream in(line);
    std::string number, kind, mode, access, pid, file;
    if (!(in >> number >> kind) || kind != "FLOCK" || !(in >> mode >> access >> pid >> file))
      continue;
    if (access == "WRITE" && file == want) return std::atol(pid.c_str());
  }
  return 0;
}

/// "pid host" from a lock file's contents (best effort: the holder may be writing).
LockHolder read_holder(int fd, const std::string& lock_file) {
  char buffer[512] = {};
  const ssize_t n = pread(fd, buffer, sizeof buffer - 1, 0);
  std::string text = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  LockHolder holder;
  holder.lock_file = lock_file;
  const auto space = text.find(' ');
  if (!text.empty() && space != std::string::npos) {
    holder.pid = std::atol(text.substr(0, space).c_str());
    holder.host = text.substr(space + 1);
  }
  return holder;
}

/// Whoever holds the file lock of the output file open as `fd`.
LockHolder file_holder(int fd, const std::string& file) {
  LockHolder holder;
  holder.lock_file = file;
  if (const auto id = identity_of(fd)) holder.pid = flock_holder_pid(*id);
  if (holder.pid != 0) holder.host = this_host();
  return holder;
}

bool lock_unsupported(int error) {
  return error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS || error == EINVAL;
}

[[noreturn]] void refuse(const std::string& path, const LockHolder& holder, bool same_name,
                         double wait_seconds) {
  const std::string wait =
      wait_seconds > 0
          ? ", still after waiting " + std::to_string(static_cast<int>(wait_seconds)) + " s"
          : "";
  throw InputError("'" + path + "' is in use by " + holder.describe() +
                   (same_name ? "" : " (under another name: a hard link to the same file)") + wait +
                   ": wait for it to end or stop it first");
}

}  // namespace

std::string LockHolder::describe() const {
  std::string text = pid > 0 ? "pid " + std::to_string(pid) : "another process";
  if (!host.empty()) text += " on host " + host;
  return text + " (lock '" + lock_file + "')";
}

std::string OutputLock::lock_path(const std::string& path) {
  return resolved(path) + ".lock";
}

OutputLock::OutputLock(const std::string& path, double wait_seconds)
    : path_(resolved(path)), lock_path_(path_ + ".lock") {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(wait_seconds, 0.0));
  auto wait_more = [&] {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return true;
  };
  // The name lock.
  while (true) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      throw std::runtime_error("cannot create the lock file '" + lock_path_ +
                               "': " + std::strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      if (!still_linked(fd, lock_path_)) {
        ::close(fd);
        continue;
      }
      const std::string holder = std::to_string(getpid()) + " " + this_host() + "\n";
      if (ftruncate(fd, 0) != 0 ||
          pwrite(fd, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size())) {
        const int error = errno;
        ::close(fd);
        throw std::runtime_error("cannot write the lock file '" + lock_path_ +
                                 "': " + std::strerror(error));
      }
      fd_ = fd;
      break;
    }
    const int error = errno;
    const LockHolder holder = read_holder(fd, lock_path_);
    ::close(fd);
    if (error != EWOULDBLOCK && error != EINTR)
      throw std::runtime_error("cannot lock '" + lock_path_ + "': " + std::strerror(error));
    if (!wait_more()) refuse(path, holder, true, wait_seconds);
  }
  // The file lock (on the inode: shared by every name of the file).
  while (true) {
    int fd = ::open(path_.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    existed_ = fd < 0;
    if (fd < 0 && errno == EEXIST) fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      const int error = errno;
      if (error == ENOENT) continue;  // removed in between
      ::unlink(lock_path_.c_str());
      ::close(fd_);
      throw std::runtime_error("cannot open the output file '" + path +
                               "': " + std::strerror(error));
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      if (!still_linked(fd, path_)) {
        ::close(fd);
        continue;
      }
      file_fd_ = fd;
      return;
    }
    const int error = errno;
    if (lock_unsupported(error)) {  // a file system without flock: the name lock alone
      file_fd_ = fd;
      return;
    }
    const LockHolder holder = file_holder(fd, path_);
    ::close(fd);
    if (error != EWOULDBLOCK && error != EINTR) {
      ::unlink(lock_path_.c_str());
      ::close(fd_);
      throw std::runtime_error("cannot lock '" + path + "': " + std::strerror(error));
    }
    if (!wait_more()) {
      ::unlink(lock_path_.c_str());
      ::close(fd_);
      refuse(path, holder, false, wait_seconds);
    }
  }
}

void OutputLock::suspend_file_lock() {
  if (file_fd_ < 0) return;
  struct stat s {};
  if (fstat(file_fd_, &s) == 0) {
    size_ = static_cast<long long>(s.st_size);
    mtime_ns_ = static_cast<long long>(s.st_mtim.tv_sec) * 1000000000LL + s.st_mtim.tv_nsec;
  }
  flock(file_fd_, LOCK_UN);
}

void OutputLock::resume_file_lock() {
  if (file_fd_ < 0) return;
  if (flock(file_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (lock_unsupported(errno)) return;
    refuse(path_, file_holder(file_fd_, path_), false, 0);
  }
  struct stat s {};
  const bool same =
      fstat(file_fd_, &s) == 0 && still_linked(file_fd_, path_) &&
      static_cast<long long>(s.st_size) == size_ &&
      static_cast<long long>(s.st_mtim.tv_sec) * 1000000000LL + s.st_mtim.tv_nsec == mtime_ns_;
  if (!same)
    throw InputError("'" + path_ +
                     "' changed while it was being read for --resume: another process writes "
                     "it under another name (a hard link)?");
}

OutputLock::~OutputLock() {
  if (file_fd_ >= 0) {
    struct stat s {};
    // A file this lock created and nobody wrote: a refused or failed start leaves nothing.
    if (!existed_ && fstat(file_fd_, &s) == 0 && s.st_size == 0 && still_linked(file_fd_, path_))
      ::unlink(path_.c_str());
    ::close(file_fd_);
  }
  if (fd_ < 0) return;
  // Unlink while still holding the lock, so no one can lock this file after the release.
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

std::optional<LockHolder> output_lock_holder(const std::string& path) {
  const std::string file = resolved(path), lock_file = file + ".lock";
  // The name lock: held when some process has an exclusive flock on it.
  const int fd = ::open(lock_file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    LockHolder holder = read_holder(fd, lock_file);
    const auto id = identity_of(fd);
    ::close(fd);
    const long pid = id ? flock_holder_pid(*id) : 0;
    if (pid != 0) {
      holder.pid = pid;
      return holder;
    }
    // Held from another host (a shared file system: /proc/locks shows this host's only).
    if (holder.pid != 0 && !holder.host.empty() && holder.host != this_host()) return holder;
  }
  // The file lock (a writer under another name of the file).
  if (const auto id = identity_of(file)) {
    if (const long pid = flock_holder_pid(*id)) return LockHolder{pid, this_host(), file};
  }
  return std::nullopt;
}

}  // namespace allocsim::sweep
