#pragma once
// Stop requests for a sweep: SIGTERM (Slurm at the time limit), SIGINT
// (Ctrl-C) and SIGUSR1 (which mpirun forwards to the ranks without killing them). The signals
// are blocked and polled with sigtimedwait, so no handler and no global flag are needed; they
// must be blocked before MPI starts its threads, which then inherit the mask.
#include <csignal>

namespace allocsim::sweep {

class StopSignals {
 public:
  /// Blocks the stop signals in the calling thread (and every thread it starts later).
  StopSignals();
  /// Restores the previous mask (a signal still pending is then delivered).
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The stop signal received since the last call, or 0. Never blocks.
  int poll();

 private:
  sigset_t stop_set_;
  sigset_t previous_;
};

}  // namespace allocsim::sweep
