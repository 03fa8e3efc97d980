// Exclusive output lock: flock() on `<file>.lock` holding "pid host".
#include "allocsim/sweep/store/lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

namespace {

std::string this_host() {
  char buffer[256] = {};
  gethostname(buffer, sizeof buffer - 1);
  return buffer;
}

/// "pid N on host H" from the lock file's contents (best effort: the holder may be writing).
std::string describe_holder(int fd) {
  char buffer[512] = {};
  const ssize_t n = pread(fd, buffer, sizeof buffer - 1, 0);
  std::string text = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  const auto space = text.find(' ');
  if (text.empty() || space == std::string::npos) return "another process";
  return "pid " + text.substr(0, space) + " on host " + text.substr(space + 1);
}

/// True when `fd` is still the file at `path` (a releasing holder unlinks it; whoever locked
/// the unlinked file must start again, or two processes could hold "the" lock).
bool still_linked(int fd, const std::string& path) {
  struct stat open_file {};
  struct stat named {};
  if (fstat(fd, &open_file) != 0 || stat(path.c_str(), &named) != 0) return false;
  return open_file.st_dev == named.st_dev && open_file.st_ino == named.st_ino;
}

}  // namespace

OutputLock::OutputLock(const std::string& path, double wait_seconds) : lock_path_(lock_path(path)) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(wait_seconds, 0.0));
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
        ::close(fd);
        throw std::runtime_error("cannot write the lock file '" + lock_path_ +
                                 "': " + std::strerror(errno));
      }
      fd_ = fd;
      return;
    }
    const int error = errno;
    const std::string holder = describe_holder(fd);
    ::close(fd);
    if (error != EWOULDBLOCK && error != EINTR)
      throw std::runtime_error("cannot lock '" + lock_path_ + "': " + std::strerror(error));
    if (std::chrono::steady_clock::now() >= deadline)
      throw InputError("'" + path + "' is in use by " + holder + " (lock '" + lock_path_ + "')" +
                       (wait_seconds > 0 ? ", still after waiting " +
                                               std::to_string(static_cast<int>(wait_seconds)) + " s"
                                         : "") +
                       ": wait for it to end or stop it first");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  // Unlink while still holding the lock, so no one can lock this file after the release.
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

}  // namespace allocsim::sweep
