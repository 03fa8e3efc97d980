// Failures of one compression walk (sched/failure_memo.hpp).
#include "allocsim/sched/failure_memo.hpp"

#include <algorithm>
#include <limits>

namespace allocsim {

double FailureMemo::covered_until(int need, double duration) const {
  double until = -std::numeric_limits<double>::infinity();
  for (const Failure& failure : front_)
    if (failure.need <= need && failure.duration <= duration)
      until = std::max(until, failure.start);
  return until;
}

void FailureMemo::record(int need, double duration, double start) {
  // A failure this one dominates covers less (its start is not later): dropped.
  front_.erase(std::remove_if(front_.begin(), front_.end(),
                              [&](const Failure& failure) {
                                return need <= failure.need && duration <= failure.duration;
                              }),
               front_.end());
  front_.push_back({need, duration, start});
}

}  // namespace allocsim
