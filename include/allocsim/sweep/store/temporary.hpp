#pragma once
// A temporary file that is renamed over its target on success and removed on every other path
// (a full disk or any error must not leave `*.tmp` files behind).
#include <string>

namespace allocsim::sweep {

/// Owns the name `path` of a file being written: removes it on destruction unless committed.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path) : path_(std::move(path)) {}
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::string& path() const { return path_; }
  /// Renames the file to `target` (atomically replacing it); throws std::runtime_error (and
  /// removes the file) when that fails.
  void commit(const std::string& target);

 private:
  std::string path_;
  bool committed_ = false;
};

}  // namespace allocsim::sweep
