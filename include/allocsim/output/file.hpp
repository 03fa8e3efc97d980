#pragma once
// Output files that report every write error. A full disk or a quota makes write(2) fail
// (ENOSPC, EDQUOT, EFBIG past RLIMIT_FSIZE) with the data half written; an std::ofstream only
// sets a flag that nobody reads, and the program exits 0 with a truncated file. OutputFile
// writes through a buffer of its own, keeps the first system error, and finish() (flush, fsync
// is not needed: close reports what the kernel knows) throws OutputError naming the file.
#include <memory>
#include <ostream>
#include <string>

namespace allocsim::output {

/// A text file being written (created or truncated at construction).
class OutputFile {
 public:
  /// Opens `path` for writing; `what` names it in errors ("--jobs-out file"). Throws
  /// OutputError naming the file and the reason when it cannot be created.
  OutputFile(std::string path, std::string what);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  /// Flushes and closes; throws OutputError naming the file and the first system error when
  /// any byte could not be written.
  void finish();

 private:
  class Buffer;
  std::string path_, what_;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
};

/// Writes `text` to `path` (an OutputFile).
void write_text_file(const std::string& path, const std::string& text, const std::string& what);

/// Flushes the process's standard output; throws OutputError ("cannot write standard output:
/// REASON") when it or an earlier write to it failed.
void finish_standard_output();

}  // namespace allocsim::output
