#pragma once
// Jobs of one compression walk (sched/compressing.hpp) that found no earlier fit, reused to
// skip the searches of the jobs they dominate.
//
// Why: a job E (need n, duration d, start s) revisited with no fit before a time u <= s (u = s
// when it stays, its new start when it moves) has, for every time t in [now, u), a witness x
// in [t, t + d] with x < s and P(x) < n (its window's failing step; one inside E's own window
// [s, s + d) would need P < 0 there, and failures are recorded only while P >= 0 everywhere).
// This holds whether E's search ran or was skipped: a settled job's candidates outside its
// search bounds do not fit (the header's "settled jobs" argument), nor do those before the u
// of a failure that dominates it (below). Later in the walk P before s only goes down: E's own
// move, and any job revisited after E (start s' >= s), give nodes back on their old windows
// [s', s' + d') only, and take nodes anywhere. So a job Z revisited later, with need >= n and
// duration >= d, has no fit at any t < u either (the same witness, before s <= s', outside
// Z's own window): its search starts at the largest such u, and is skipped when that is past
// every candidate it has.
#include <cstddef>
#include <limits>
#include <vector>

namespace allocsim {

/// A set of (need, duration) pairs asked only whether one of them is at most a given pair in
/// both: the failures of a FailureMemo from some start on (FailureMemo::fill), for the jobs past
/// the reach of every logged gain (sched/compressing.hpp), with no start to compare.
class Staircase {
 public:
  void clear() {
    needs_.clear();
    durations_.clear();
  }
  /// Adds a pair (pairs it is at most in both are dropped; nothing when one is at most it).
  void add(int need, double duration);
  /// Whether some pair has need <= `need` and duration <= `duration`.
  bool dominates(int need, double duration) const {
    bool found = false;
    for (std::size_t i = 0; i < needs_.size(); ++i)
      found |= (needs_[i] <= need) & (durations_[i] <= duration);
    return found;
  }
  /// The same, asking first the pair at `hint` (a row of jobs is mostly dominated by one
  /// pair), then all; `hint` becomes the pair found.
  bool dominates(int need, double duration, std::size_t& hint) const {
    if (hint < needs_.size() && needs_[hint] <= need && durations_[hint] <= duration) return true;
    for (std::size_t i = 0; i < needs_.size(); ++i)
      if (needs_[i] <= need && durations_[i] <= duration) {
        hint = i;
        return true;
      }
    return false;
  }
  /// Number of pairs kept.
  std::size_t size() const { return needs_.size(); }

 private:
  std::vector<int> needs_;
  std::vector<double> durations_;
};

/// The failures of one walk, by start; those dominated by a later one (need and duration at
/// most theirs) are dropped in batches.
class FailureMemo {
 public:
  /// Forgets every failure (at the start of a walk).
  void clear() {
    front_.clear();
    compacted_ = 0;
    min_need_ = std::numeric_limits<int>::max();
    min_duration_ = std::numeric_limits<double>::infinity();
  }
  /// Largest start among the recorded failures with need <= `need` and duration <=
  /// `duration`; -infinity when none. The failures are kept by start: the first dominating
  /// one from the latest start is the answer (no need to look at them all).
  /// `index`, when one dominates, gets the failure's hint (record()).
  double covered_until(int need, double duration, std::size_t* index = nullptr) const {
    if (need < min_need_ || duration < min_duration_)  // none dominates
      return -std::numeric_limits<double>::infinity();
    for (auto failure = front_.rbegin(); failure != front_.rend(); ++failure)
      if (failure->need <= need && failure->duration <= duration) {
        if (index) *index = failure->index;
        return failure->start;
      }
    return -std::numeric_limits<double>::infinity();
  }
  /// Records a failure: no fit before `start`. `index`: a hint kept with it, for the caller
  /// (the compression: a profile breakpoint index not after the first at or after `start`).
  void record(int need, double duration, double start, std::size_t index = 0);
  /// The (need, duration) of every failure with start >= `from`, into `stair` (cleared first):
  /// stair.dominates(n, d) is then covered_until(n, d) >= from, for `from` > -infinity.
  void fill(double from, Staircase& stair) const;
  /// Number of failures kept.
  std::size_t size() const { return front_.size(); }

 private:
  struct Failure {
    int need;
    double duration;
    double start;
    std::size_t index;
  };
  /// Drops every failure dominated by one after it (need and duration at most its own, start
  /// not earlier): such a failure is never an answer of covered_until (the one after it is
  /// met first, with a start not earlier) and adds nothing to a fill.
  void compact();
  std::vector<Failure> front_;  // by start, ascending (dominated ones dropped now and then)
  std::vector<Failure> kept_;   // compact()'s scratch
  std::size_t compacted_ = 0;   // size after the last compaction
  int min_need_ = std::numeric_limits<int>::max();  // smallest need and duration kept
  double min_duration_ = std::numeric_limits<double>::infinity();
};

}  // namespace allocsim
