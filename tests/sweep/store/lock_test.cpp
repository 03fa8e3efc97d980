// Output lock, temporary files and result-file verification.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "allocsim/sweep/store/lock.hpp"
#include "allocsim/sweep/store/temporary.hpp"
#include "allocsim/sweep/store/verify.hpp"
#include "allocsim/util/error.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

namespace fs = std::filesystem;

std::string host() {
  char buffer[256] = {};
  gethostname(buffer, sizeof buffer - 1);
  return buffer;
}

TEST(OutputLock, SecondHolderIsRefusedWithPidAndHost) {
  const TempDir temp_path("allocsim_lock_test");
  const std::string output = temp_path("results.h5");
  {
    const OutputLock first(output, 0);
    std::ifstream in(OutputLock::lock_path(output));
    std::string pid, name;
    in >> pid >> name;
    EXPECT_EQ(pid, std::to_string(getpid()));
    EXPECT_EQ(name, host());
    try {
      const OutputLock second(output, 0);
      FAIL() << "a second lock was granted";
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("in use by pid " + std::to_string(getpid()) + " on host " + host()),
                std::string::npos)
          << message;
    }
  }
  // Released: the lock file is gone and the lock can be taken again.
  EXPECT_FALSE(fs::exists(OutputLock::lock_path(output)));
  const OutputLock again(output, 0);
}

TEST(OutputLock, LeftoverLockFileOfADeadHolderIsNoObstacle) {
  const TempDir temp_path("allocsim_lock_test");
  const std::string output = temp_path("results.h5");
  std::ofstream(OutputLock::lock_path(output)) << "999999 elsewhere\n";
  const OutputLock lock(output, 0);
  std::ifstream in(OutputLock::lock_path(output));
  std::string pid;
  in >> pid;
  EXPECT_EQ(pid, std::to_string(getpid()));
}

TEST(TemporaryFile, RemovedUnlessCommitted) {
  const TempDir temp_path("allocsim_lock_test");
  const std::string target = temp_path("out.h5");
  try {
    TemporaryFile temporary(target + ".tmp");
    std::ofstream(temporary.path()) << "partial";
    throw std::runtime_error("disk full");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(fs::exists(target + ".tmp"));
  {
    TemporaryFile temporary(target + ".tmp");
    std::ofstream(temporary.path()) << "whole";
    temporary.commit(target);
  }
  EXPECT_FALSE(fs::exists(target + ".tmp"));
  std::ifstream in(target);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "whole");
}

TEST(VerifyResultFile, GarbageIsAClearError) {
  const TempDir temp_path("allocsim_lock_test");
  const std::string path = temp_path("garbage.h5");
  std::ofstream(path) << "not an HDF5 file at all";
  try {
    verify_result_file(path);
    FAIL() << "garbage accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace allocsim::sweep
