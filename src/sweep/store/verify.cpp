// Reading a result file in a child process before using it.
#include "allocsim/sweep/store/verify.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include "allocsim/sweep/store/file_checks.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "allocsim/sweep/store/validate.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

namespace {

using h5::ColumnType;

void require_column(const std::string& path, const std::string& table, const h5::Table& t,
                    const std::string& name, ColumnType type) {
  const int c = t.find(name);
  if (c < 0 || t.columns()[static_cast<std::size_t>(c)].type != type)
    throw InputError("'" + path + "' is damaged: " + table + " has no valid column '" + name + "'");
}

/// Everything readers of a result file touch; throws on any problem. The cheap checks come
/// first (root attributes, then the shape and labels of every table, from metadata alone), so
/// that most damage is refused before a large or broken table is read.
void read_everything(const std::string& path) {
  h5::File file(path, h5::File::Mode::read);
  const FileInfo info = read_info(file);
  std::vector<std::string> tables = {"/configs", "/summary"};
  for (const std::string group : {"/jobs", "/job_nodes", "/decisions", "/timeline"})
    for (const auto& name : file.list(group)) tables.push_back(group + "/" + name);
  for (const auto& table : tables) check_table_shape(file, table);
  for (const auto& table : tables) check_labels(file, table);
  const h5::Table configs = file.read_table("/configs");
  const h5::Table summary = file.read_table("/summary");
  check_result_layout(path, configs, summary);
  check_result_contents(path, info, configs, summary);
  check_job_tables(file, configs);
  for (const std::string group : {"/job_nodes", "/decisions"})
    for (const auto& name : file.list(group)) {
      const h5::Table table = file.read_table(group + "/" + name);
      if (group == "/decisions") {
        require_column(path, group + "/" + name, table, "decision", ColumnType::text);
        require_column(path, group + "/" + name, table, "mean_pairwise_sum", ColumnType::f64);
      }
    }
  for (const auto& name : file.list("/timeline")) read_timeline_table(file, name);
}

/// Child: read, report an error message on `fd`, exit 0 (fine) or 1 (error).
[[noreturn]] void child_main(const std::string& path, int fd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the caller
  std::string message;
  try {
    read_everything(path);
  } catch (const std::exception& error) {
    message = error.what();
    if (message.empty()) message = "unreadable";
  } catch (...) {
    message = "unreadable";
  }
  h5::close_library();  // a crash in libhdf5's shutdown is the file's damage too
  std::size_t written = 0;
  while (written < message.size()) {
    const ssize_t n = ::write(fd, message.data() + written, message.size() - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  _exit(message.empty() ? 0 : 1);
}

/// A blocked stop signal waiting for the caller, or 0.
int pending_stop_signal() {
  sigset_t pending, blocked;
  sigemptyset(&pending);
  if (sigpending(&pending) != 0 || pthread_sigmask(SIG_BLOCK, nullptr, &blocked) != 0) return 0;
  for (int signal : {SIGTERM, SIGINT, SIGUSR1})
    if (sigismember(&pending, signal) == 1 && sigismember(&blocked, signal) == 1) return signal;
  return 0;
}

}  // namespace

void check_result_layout(const std::string& path, const h5::Table& configs,
                         const h5::Table& summary) {
  for (const auto& [name, type] :
       std::initializer_list<std::pair<const char*, ColumnType>>{{"config_id", ColumnType::u64},
                                                                 {"index", ColumnType::i64},
                                                                 {"status", ColumnType::text},
                                                                 {"error", ColumnType::text},
                                                                 {"wall_seconds", ColumnType::f64},
                                                                 {"rank", ColumnType::i64},
                                                                 {"label", ColumnType::text},
                                                                 {"diagnostics", ColumnType::text}})
    require_column(path, "/configs", configs, name, type);
  require_column(path, "/summary", summary, "config_id", ColumnType::u64);
}

void verify_result_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  check_hdf5_superblock(path);  // a truncated or foreign file is refused before any HDF5 read
  const double limit = 30.0 + static_cast<double>(st.st_size) / 1e6;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t child = fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    ::close(fds[0]);
    child_main(path, fds[1]);
  }
  ::close(fds[1]);
  std::string message;
  std::string failure;  // set when the child had to be killed
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready > 0) {
      char buffer[4096];
      const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n > 0) {
        message.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      if (n == 0 || errno != EINTR) break;  // end of the child's output
    }
    if (const int signal = pending_stop_signal()) {
      failure = "interrupted by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
    } else if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
               limit) {
      failure = "reading it did not end within " + std::to_string(static_cast<int>(limit)) + " s";
    }
    if (!failure.empty()) {
      ::kill(child, SIGKILL);
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!failure.empty()) throw InputError("cannot use '" + path + "': " + failure);
  if (WIFSIGNALED(status))
    throw InputError("'" + path + "' is damaged: reading it crashed the HDF5 library (signal " +
                     std::to_string(WTERMSIG(status)) + ", " + strsignal(WTERMSIG(status)) + ")");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (message.rfind("cannot open HDF5 file", 0) == 0) {
      // libhdf5 refuses to open a file another process has open for writing (its file lock).
      if (const std::string holder = describe_lock_holder(path); !holder.empty())
        throw InputError("cannot open '" + path + "': a running sweep writes it, " + holder +
                         " holds its lock: wait for it to end (or stop it) and try again");
    }
    if (message.find("'" + path + "'") == std::string::npos)
      message = "'" + path + "' is damaged or not a result file (" + message + ")";
    throw InputError(message);
  }
}

}  // namespace allocsim::sweep
