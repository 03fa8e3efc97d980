#pragma once
// A scratch file in a folder of its own (per process and test), removed at the end of the test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace allocsim {

class ScratchFile {
 public:
  explicit ScratchFile(const std::string& name)
      : folder_(std::filesystem::temp_directory_path() /
                ("allocsim_workload_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    path_ = (folder_ / name).string();
  }
  ~ScratchFile() { std::filesystem::remove_all(folder_); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  const std::string& path() const { return path_; }
  /// Replaces the file's content with `bytes`.
  void write(const std::string& bytes) const {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes;
  }

 private:
  std::filesystem::path folder_;
  std::string path_;
};

}  // namespace allocsim
