// Output files that report every write error (file.hpp).
#include "allocsim/output/file.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <vector>

#include "allocsim/util/error.hpp"

namespace allocsim::output {

/// Buffered writes to a file descriptor, keeping the first errno of a failed write.
class OutputFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd), data_(std::size_t{1} << 16) {
    setp(data_.data(), data_.data() + data_.size());
  }
  ~Buffer() override {
    if (fd_ >= 0) ::close(fd_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  int error() const { return error_; }
  /// Writes what is buffered and closes the descriptor; false on any failure (error()).
  bool close() {
    drain();
    if (fd_ >= 0 && ::close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
    return error_ == 0;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* at = pbase();
    while (error_ == 0 && at < pptr()) {
      const ssize_t n = ::write(fd_, at, static_cast<std::size_t>(pptr() - at));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : ENOSPC;
        break;
      }
      at += n;
    }
    setp(data_.data(), data_.data() + data_.size());  // after an error, the rest is dropped
    return error_ == 0;
  }

  int fd_;
  int error_ = 0;
  std::vector<char> data_;
};

namespace {
std::string reason(int error) {
  return std::string(std::strerror(error)) + " (errno " + std::to_string(error) + ")";
}
}  // namespace

OutputFile::OutputFile(std::string path, std::string what)
    : path_(std::move(path)), what_(std::move(what)) {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw OutputError("cannot create " + what_ + " '" + path_ + "': " + reason(errno));
  buffer_ = std::make_unique<Buffer>(fd);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

OutputFile::~OutputFile() = default;

std::ostream& OutputFile::stream() {
  return *stream_;
}

void OutputFile::finish() {
  stream_->flush();
  if (!buffer_->close())
    throw OutputError("cannot write " + what_ + " '" + path_ + "': " + reason(buffer_->error()) +
                      "; the file is incomplete");
}

void write_text_file(const std::string& path, const std::string& text, const std::string& what) {
  OutputFile file(path, what);
  file.stream() << text;
  file.finish();
}

namespace {
/// Why writes to standard output failed earlier, when stdio no longer knows (it keeps a flag,
/// not the errno): a full device or file system, or the file size limit; 0 when unknown.
int standard_output_reason() {
  struct stat s {};
  if (fstat(STDOUT_FILENO, &s) != 0) return 0;
  if (S_ISCHR(s.st_mode) && s.st_rdev == makedev(1, 7)) return ENOSPC;  // /dev/full
  if (!S_ISREG(s.st_mode)) return 0;
  struct rlimit limit {};
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      static_cast<rlim_t>(s.st_size) >= limit.rlim_cur)
    return EFBIG;
  struct statvfs fs {};
  if (fstatvfs(STDOUT_FILENO, &fs) == 0 && fs.f_bavail == 0) return ENOSPC;
  return 0;
}
}  // namespace

void finish_standard_output() {
  std::cout.flush();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error = flushed ? standard_output_reason() : errno;
  if (flushed && !std::ferror(stdout) && std::cout.good()) return;
  std::clearerr(stdout);
  std::cout.clear();
  throw OutputError("cannot write standard output: " +
                    (error != 0 ? reason(error) : std::string("an earlier write failed")) +
                    "; the output is incomplete");
}

}  // namespace allocsim::output
