// Failures of one compression walk (sched/failure_memo.hpp).
#include "allocsim/sched/failure_memo.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace allocsim {

void FailureMemo::record(int need, double duration, double start, std::size_t index) {
  // The failures it dominates are dropped in batches, when the memo has doubled (was: at every
  // record, in a pass over all, ~9 % at SDSC-BLUE x0.8). The answers are the same: a dominated
  // failure is never an answer (compact()).
  if (front_.size() >= 2 * compacted_ + 16) compact();
  // In start order (mostly at the end: the walk goes by start).
  auto at = front_.end();
  while (at != front_.begin() && std::prev(at)->start > start) --at;
  front_.insert(at, {need, duration, start, index});
  min_need_ = std::min(min_need_, need);  // (dropped failures had need and duration >= these)
  min_duration_ = std::min(min_duration_, duration);
}

void FailureMemo::compact() {
  // From the latest start back, each failure against those kept after it (no branch).
  kept_.clear();
  for (auto failure = front_.rbegin(); failure != front_.rend(); ++failure) {
    bool dominated = false;
    for (const Failure& later : kept_)
      dominated |= (later.need <= failure->need) & (later.duration <= failure->duration);
    if (!dominated) kept_.push_back(*failure);
  }
  front_.assign(kept_.rbegin(), kept_.rend());
  compacted_ = front_.size();
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
