#pragma once
// Stop requests for a sweep: SIGTERM (Slurm at the time limit), SIGINT
// (Ctrl-C) and SIGUSR1 (which srun and mpirun forward to the ranks without killing them). The
// signals are blocked and polled with sigtimedwait, so no handler and no global flag are needed.
// They are blocked from the process's first instruction on (block_stop_signals_at_start(),
// which the executable runs from .preinit_array, before any library initialiser and long
// before MPI_Init): every thread that a library or Open MPI starts inherits the mask, and a
// signal that arrives while a rank is starting stays pending until the sweep polls it. A
// blocked signal needs no handler, so whatever dispositions MPI_Init installs cannot lose it.
#include <csignal>

namespace allocsim::sweep {

/// Blocks SIGTERM, SIGINT and SIGUSR1 in the calling (the only) thread and remembers the mask
/// the process started with. Run before main (see src/cli/main.cpp); safe to call again.
void block_stop_signals_at_start();

/// For commands that do not poll the stop signals: restores the mask the process started with,
/// so that a signal that came during start-up (pending) is delivered now, with its usual effect.
void release_stop_signals_at_start();

class StopSignals {
 public:
  /// Blocks the stop signals in the calling thread (and every thread it starts later).
  StopSignals();
  /// Consumes the signals still pending and restores the previous mask.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The stop signal received since the last call, or 0. Never blocks.
  int poll();
  /// A stop signal received and not yet polled, or 0 (it stays pending for poll()).
  int pending() const;

 private:
  sigset_t stop_set_;
  sigset_t previous_;
};

}  // namespace allocsim::sweep
