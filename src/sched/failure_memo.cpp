// Failures of one compression walk (sched/failure_memo.hpp).
#include "allocsim/sched/failure_memo.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace allocsim {

void FailureMemo::record(int need, double duration, double start, std::size_t index) {
  // A failure this one dominates with a start not later covers less: dropped. (One pass,
  // each kept entry written without a branch: drops are not predictable.)
  std::size_t kept = 0;
  const std::size_t count = front_.size();
  Failure* data = front_.data();
  for (std::size_t i = 0; i < count; ++i) {
    const Failure failure = data[i];
    data[kept] = failure;
    kept += static_cast<std::size_t>(
        !((need <= failure.need) & (duration <= failure.duration) & (failure.start <= start)));
  }
  front_.resize(kept);
  // In start order (mostly at the end: the walk goes by start).
  auto at = front_.end();
  while (at != front_.begin() && std::prev(at)->start > start) --at;
  front_.insert(at, {need, duration, start, index});
  min_need_ = std::min(min_need_, need);  // (dropped failures had need and duration >= these)
  min_duration_ = std::min(min_duration_, duration);
}

void FailureMemo::fill(double from, Staircase& stair) const {
  stair.clear();
  for (auto failure = front_.rbegin(); failure != front_.rend() && failure->start >= from;
       ++failure)
    stair.add(failure->need, failure->duration);  // (the set kept is the same in any order)
}

void Staircase::add(int need, double duration) {
  for (std::size_t i = 0; i < needs_.size(); ++i)
    if (needs_[i] <= need && durations_[i] <= duration) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < needs_.size(); ++i)
    if (!(need <= needs_[i] && duration <= durations_[i])) {
      needs_[kept] = needs_[i];
      durations_[kept++] = durations_[i];
    }
  needs_.resize(kept);
  durations_.resize(kept);
  needs_.push_back(need);
  durations_.push_back(duration);
}

}  // namespace allocsim
