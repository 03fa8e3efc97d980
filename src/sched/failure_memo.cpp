// Failures of one compression walk (sched/failure_memo.hpp).
#include "allocsim/sched/failure_memo.hpp"

#include <algorithm>
#include <limits>

namespace allocsim {

void FailureMemo::record(int need, double duration, double start) {
  // A failure this one dominates with a start not later covers less: dropped.
  front_.erase(std::remove_if(front_.begin(), front_.end(),
                              [&](const Failure& failure) {
                                return need <= failure.need && duration <= failure.duration &&
                                       failure.start <= start;
                              }),
               front_.end());
  front_.push_back({need, duration, start});
  min_need_ = std::min(min_need_, need);  // (dropped failures had need and duration >= these)
  min_duration_ = std::min(min_duration_, duration);
}

}  // namespace allocsim
