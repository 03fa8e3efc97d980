// The output lock is the file's, whatever name reaches it (issue 25): a symlink, a hard link, a
// symlink to a file that does not exist yet. Each test locks in a child process and tries again
// in the parent once the child says it holds the lock (a pipe: the event itself, no waiting).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "allocsim/sweep/store/lock.hpp"
#include "allocsim/util/error.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

namespace fs = std::filesystem;

/// A child process holding OutputLock(path) until release().
class Holder {
 public:
  explicit Holder(const std::string& path) {
    if (pipe(ready_) != 0 || pipe(done_) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      char byte = 0;
      try {
        const OutputLock lock(path, 0);
        byte = 'y';
        (void)!write(ready_[1], &byte, 1);
        (void)!read(done_[0], &byte, 1);  // until the parent is done
      } catch (...) {
        byte = 'n';
        (void)!write(ready_[1], &byte, 1);
      }
      _exit(0);
    }
    char byte = 0;
    locked_ = read(ready_[0], &byte, 1) == 1 && byte == 'y';
  }
  ~Holder() { release(); }
  bool locked() const { return locked_; }
  pid_t pid() const { return pid_; }
  void release() {
    if (pid_ <= 0) return;
    const char byte = 'x';
    (void)!write(done_[1], &byte, 1);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
    for (int fd : {ready_[0], ready_[1], done_[0], done_[1]}) close(fd);
  }

 private:
  int ready_[2] = {-1, -1}, done_[2] = {-1, -1};
  pid_t pid_ = -1;
  bool locked_ = false;
};

/// The InputError of OutputLock(path), or "" when it was granted.
std::string refusal(const std::string& path) {
  try {
    const OutputLock lock(path, 0);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

TEST(OutputLockLinks, SymlinkToTheFileIsTheSameLock) {
  const TempDir temp_path("allocsim_lock_links");
  const std::string real = temp_path("real.h5"), link = temp_path("link.h5");
  std::ofstream(real) << "results";
  fs::create_symlink(real, link);
  Holder holder(real);
  ASSERT_TRUE(holder.locked());
  const std::string error = refusal(link);
  EXPECT_NE(error.find("in use by pid " + std::to_string(holder.pid())), std::string::npos)
      << error;
  const auto found = output_lock_holder(link);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->pid, holder.pid());
  holder.release();
  EXPECT_EQ(refusal(link), "");
  EXPECT_FALSE(output_lock_holder(real).has_value());
}

TEST(OutputLockLinks, HardLinkToTheFileIsTheSameLock) {
  const TempDir temp_path("allocsim_lock_links");
  const std::string real = temp_path("real.h5"), other = temp_path("other-name.h5");
  std::ofstream(real) << "results";
  fs::create_hard_link(real, other);
  Holder holder(real);
  ASSERT_TRUE(holder.locked());
  const std::string error = refusal(other);
  EXPECT_NE(error.find("in use by pid " + std::to_string(holder.pid())), std::string::npos)
      << error;
  EXPECT_NE(error.find("hard link"), std::string::npos) << error;
  const auto found = output_lock_holder(other);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->pid, holder.pid());
  holder.release();
  EXPECT_EQ(refusal(other), "");
  std::ifstream in(real);
  std::string content;
  in >> content;
  EXPECT_EQ(content, "results");  // the lock never touches what is there
}

TEST(OutputLockLinks, FileNotThereYetThroughADanglingSymlink) {
  const TempDir temp_path("allocsim_lock_links");
  const std::string real = temp_path("new.h5"), link = temp_path("new-link.h5");
  fs::create_symlink(real, link);  // dangling: the sweep would create new.h5
  Holder holder(link);
  ASSERT_TRUE(holder.locked());
  EXPECT_NE(refusal(real).find("in use by pid"), std::string::npos);
  holder.release();
  // Nothing written: the empty file the lock created is gone again, the symlink stays.
  EXPECT_FALSE(fs::exists(real));
  EXPECT_TRUE(fs::is_symlink(link));
}

}  // namespace
}  // namespace allocsim::sweep
