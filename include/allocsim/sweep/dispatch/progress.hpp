#pragma once
// Sweep progress: on a terminal one updating line
// `[ 37/120] 30.8%  2.1 cfg/s  ETA 0:00:39  failed 0`; in a batch log one such line every
// ten seconds or every 5 % (at most one a second), and a final one.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace allocsim::sweep {

/// Formats and prints the progress line.
class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  /// `total` configs of which `already` were finished before this run (resume).
  Progress(std::int64_t total, std::int64_t already, bool terminal, std::FILE* out);

  /// Reports `finished` configs (including `already`), `failed` of them failed or timed out.
  void update(std::int64_t finished, std::int64_t failed, Clock::time_point now = Clock::now());
  /// Prints the last line (and ends the terminal line).
  void finish(std::int64_t finished, std::int64_t failed, Clock::time_point now = Clock::now());

  /// The line itself; `rate` in configs/s (0 = unknown), `eta` in seconds (< 0 = unknown).
  static std::string line(std::int64_t finished, std::int64_t total, double rate, double eta,
                          std::int64_t failed);
  /// h:mm:ss.
  static std::string clock_text(double seconds);

 private:
  std::string current(std::int64_t finished, std::int64_t failed, Clock::time_point now) const;

  std::int64_t total_, already_;
  bool terminal_;
  std::FILE* out_;
  Clock::time_point start_, last_print_;
  std::int64_t last_step_ = -1;      ///< last 5 % step printed (batch mode)
  std::int64_t last_finished_ = -1;  ///< count on the last line printed (batch mode)
  bool printed_ = false;
};

}  // namespace allocsim::sweep
