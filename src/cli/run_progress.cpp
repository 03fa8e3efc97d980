// Terminal progress of `allocsim run` (see run_progress.hpp).
#include "run_progress.hpp"

#include <unistd.h>

namespace allocsim::cli {

RunProgress::RunProgress(std::size_t jobs)
    : total_(jobs), started_(std::chrono::steady_clock::now()), last_print_(started_) {}

bool RunProgress::wanted() {
  return isatty(STDERR_FILENO) != 0;
}

void RunProgress::step(double now) {
  ++done_;
  last_time_ = now;
  if (done_ % 64 != 0 && done_ != total_) return;  // a clock read every 64 jobs
  const auto clock = std::chrono::steady_clock::now();
  if (clock - started_ < std::chrono::seconds(1) ||
      clock - last_print_ < std::chrono::milliseconds(200))
    return;
  last_print_ = clock;
  shown_ = true;
  const double percent =
      total_ ? 100.0 * static_cast<double>(done_) / static_cast<double>(total_) : 100.0;
  std::fprintf(stderr, "\rrun: %zu/%zu jobs done (%.1f %%), simulated time %.0f s\033[K", done_,
               total_, percent, now);
  std::fflush(stderr);
}

void RunProgress::finish() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace allocsim::cli
