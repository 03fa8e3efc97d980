// Polled stop signals.
#include "allocsim/sweep/dispatch/signals.hpp"

#include <pthread.h>

#include <ctime>

namespace allocsim::sweep {

StopSignals::StopSignals() {
  sigemptyset(&stop_set_);
  sigaddset(&stop_set_, SIGTERM);
  sigaddset(&stop_set_, SIGINT);
  sigaddset(&stop_set_, SIGUSR1);
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

}  // namespace allocsim::sweep
