// Helpers shared by the mapping tests: a temporary task-graph file and an InputError's message.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "allocsim/util/error.hpp"

namespace allocsim::testing {

/// A file in the system temp folder (named by the test's process and `name`), removed at the
/// end of the test.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      : path_((std::filesystem::temp_directory_path() /
               ("allocsim-mapping-" + std::to_string(::getpid()) + "-" + name))
                  .string()) {
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The InputError message of `f`, or "" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace allocsim::testing
