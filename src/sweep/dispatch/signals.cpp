// Polled stop signals, blocked from the process's start.
#include "allocsim/sweep/dispatch/signals.hpp"

#include <pthread.h>

#include <ctime>
#include <initializer_list>

namespace allocsim::sweep {

namespace {
sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGUSR1);
  return set;
}

/// The mask the process started with (set once, before main, by block_stop_signals_at_start).
struct StartMask {
  sigset_t mask;
  bool saved = false;
};

StartMask& start_mask() {
  static StartMask saved;
  return saved;
}
}  // namespace

void block_stop_signals_at_start() {
  StartMask& start = start_mask();
  const sigset_t set = stop_set();
  sigset_t previous;
  if (sigprocmask(SIG_BLOCK, &set, &previous) != 0 || start.saved) return;
  start.mask = previous;
  start.saved = true;
}

void release_stop_signals_at_start() {
  StartMask& start = start_mask();
  if (!start.saved) return;
  pthread_sigmask(SIG_SETMASK, &start.mask, nullptr);
}

StopSignals::StopSignals() : stop_set_(stop_set()) {
  pthread_sigmask(SIG_BLOCK, &stop_set_, &previous_);
}

StopSignals::~StopSignals() {
  // Consume what is pending so that restoring the mask does not kill the process.
  while (poll() != 0) {
  }
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

int StopSignals::poll() {
  const timespec zero{0, 0};
  siginfo_t info;
  const int signal = sigtimedwait(&stop_set_, &info, &zero);
  return signal > 0 ? signal : 0;
}

int StopSignals::pending() const {
  sigset_t pending;
  sigemptyset(&pending);
  if (sigpending(&pending) != 0) return 0;
  for (int signal : {SIGTERM, SIGINT, SIGUSR1})
    if (sigismember(&pending, signal) == 1) return signal;
  return 0;
}

}  // namespace allocsim::sweep
