#pragma once
// A run's wall-clock limit as long computations see it (issue 16: "the time limit checked in
// every loop that can run long"). The simulation implements TimeLimit; schedulers, the planner
// and allocators' searches poll it, and when the budget is spent check_time_limit() throws
// TimeoutError, which ends the run as timed out. Polling never changes an answer: a search
// either finishes with the result it would always give or throws, so results stay deterministic.
#include <cstdint>

namespace allocsim {

/// Something that knows whether the run's wall-clock budget is spent.
class TimeLimit {
 public:
  virtual ~TimeLimit() = default;
  /// Throws TimeoutError when the budget is spent; otherwise does nothing.
  virtual void check_time_limit() const = 0;
};

/// Polls a TimeLimit from a hot loop at a bounded cost: the loop reports the work it did
/// (roughly, elementary steps) and the limit is asked once per `interval` units of work, so a
/// clock read is amortised over thousands of steps while the overshoot stays a few
/// milliseconds. A null limit makes every call a no-op.
class TimeLimitPoll {
 public:
  static constexpr std::int64_t kDefaultInterval = std::int64_t{1} << 16;

  explicit TimeLimitPoll(const TimeLimit* limit, std::int64_t interval = kDefaultInterval)
      : limit_(limit), interval_(interval > 0 ? interval : 1) {}

  /// Counts `work` units; asks the limit (which may throw TimeoutError) once the units counted
  /// since the last question reach the interval.
  void add(std::int64_t work = 1) {
    if (!limit_) return;
    pending_ += work;
    if (pending_ < interval_) return;
    pending_ = 0;
    limit_->check_time_limit();
  }
  /// Asks the limit now (e.g. before a step of unknown cost).
  void check() const {
    if (limit_) limit_->check_time_limit();
  }
  const TimeLimit* limit() const { return limit_; }

 private:
  const TimeLimit* limit_;
  std::int64_t interval_;
  std::int64_t pending_ = 0;
};

}  // namespace allocsim
