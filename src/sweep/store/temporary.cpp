// Temporary files removed on every error path.
#include "allocsim/sweep/store/temporary.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace allocsim::sweep {

TemporaryFile::~TemporaryFile() {
  if (committed_) return;
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

void TemporaryFile::commit(const std::string& target) {
  std::error_code ec;
  std::filesystem::rename(path_, target, ec);
  if (ec)
    throw std::runtime_error("cannot rename '" + path_ + "' to '" + target + "': " + ec.message());
  committed_ = true;
}

}  // namespace allocsim::sweep
