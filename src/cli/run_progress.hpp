#pragma once
// Progress of `allocsim run` on a terminal: jobs finished out of the total and simulated time,
// rewritten in place on stderr at most five times a second, only when stderr is a terminal and
// only once the run has taken a second (short runs print nothing). Wall-clock reads only
// decide when to print; the simulation never sees them.
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "allocsim/sim/observer.hpp"

namespace allocsim::cli {

/// Observer printing `run: N/M jobs done (P %), simulated time T s` on stderr.
class RunProgress final : public SimulationObserver {
 public:
  explicit RunProgress(std::size_t jobs);
  ~RunProgress() override { finish(); }
  /// True when stderr is a terminal (the only case a RunProgress should be attached).
  static bool wanted();

  void on_finish(int, const Job&, double now, const Allocation&) override { step(now); }
  void on_drop(int, double now) override { step(now); }
  /// Erases the progress line (once).
  void finish();

 private:
  void step(double now);

  std::size_t total_;
  std::size_t done_ = 0;
  double last_time_ = 0;
  bool shown_ = false;
  std::chrono::steady_clock::time_point started_, last_print_;
};

}  // namespace allocsim::cli
