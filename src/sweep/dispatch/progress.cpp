// Progress line of a sweep.
#include "allocsim/sweep/dispatch/progress.hpp"

#include <cmath>

namespace allocsim::sweep {

Progress::Progress(std::int64_t total, std::int64_t already, bool terminal, std::FILE* out)
    : total_(total),
      already_(already),
      terminal_(terminal),
      out_(out),
      start_(Clock::now()),
      last_print_(start_) {}

std::string Progress::clock_text(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return buffer;
}

std::string Progress::line(std::int64_t finished, std::int64_t total, double rate, double eta,
                           std::int64_t failed) {
  const int width = static_cast<int>(std::to_string(total).size());
  const double percent =
      total > 0 ? 100.0 * static_cast<double>(finished) / static_cast<double>(total) : 100.0;
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "[%*lld/%lld] %.1f%%  %.*f cfg/s  ETA %s  failed %lld",
                width, static_cast<long long>(finished), static_cast<long long>(total), percent,
                rate > 0 && rate < 1 ? 2 : 1, rate, eta < 0 ? "?:??:??" : clock_text(eta).c_str(),
                static_cast<long long>(failed));
  return buffer;
}

std::string Progress::current(std::int64_t finished, std::int64_t failed,
                              Clock::time_point now) const {
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const auto ran = finished - already_;
  const double rate = elapsed > 0 && ran > 0 ? static_cast<double>(ran) / elapsed : 0;
  const double eta = rate > 0 ? static_cast<double>(total_ - finished) / rate : -1;
  return line(finished, total_, rate, eta, failed);
}

void Progress::update(std::int64_t finished, std::int64_t failed, Clock::time_point now) {
  if (out_ == nullptr) return;
  const double since = std::chrono::duration<double>(now - last_print_).count();
  if (terminal_) {
    if (printed_ && since < 0.2) return;
    std::fprintf(out_, "\r%s\033[K", current(finished, failed, now).c_str());
  } else {
    const std::int64_t step = total_ > 0 ? finished * 20 / total_ : 20;
    const bool new_step = step > last_step_ && since >= 1.0;
    if (!(new_step || since >= 10.0 || !printed_)) return;
    last_step_ = step;
    last_finished_ = finished;
    std::fprintf(out_, "%s\n", current(finished, failed, now).c_str());
  }
  std::fflush(out_);
  printed_ = true;
  last_print_ = now;
}

void Progress::finish(std::int64_t finished, std::int64_t failed, Clock::time_point now) {
  if (out_ == nullptr || (!terminal_ && printed_ && last_finished_ == finished)) return;
  std::fprintf(out_, terminal_ ? "\r%s\033[K\n" : "%s\n", current(finished, failed, now).c_str());
  std::fflush(out_);
}

}  // namespace allocsim::sweep
