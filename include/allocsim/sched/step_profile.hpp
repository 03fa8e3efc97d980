#pragma once
// The free-node step function of conservative backfilling with compression
// (sched/compressing.hpp): a sorted array of breakpoints, searched breakpoint by breakpoint.
// (Block summaries of the minimum and maximum, to skip a block of breakpoints in one
// comparison, were tried and were slower on SDSC-BLUE: the profiles hold a few hundred
// breakpoints and the searches' runs are short; the speed comes from searching less, see the
// compression's failure memo in sched/compressing.hpp.)
#include <cstddef>
#include <vector>

namespace allocsim {

/// A window whose nodes count as free in a StepProfile search (a job searched as if taken out
/// of the profile): `from` and `to` must be breakpoints.
struct OwnWindow {
  double from = 0;
  double to = 0;
  int nodes = 0;
};

/// Free-node step function over [now, inf) with arbitrary breakpoints; redundant breakpoints
/// (same count as the one before) change no search answer.
class StepProfile {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Point {
    double time;
    int free;
    int pins = 0;  // reservations starting or ending here (reserve(), move()), in the padding
  };
  /// `free` nodes from `now` on.
  void reset(double now, int free);
  /// Adds `delta` over [max(from, now), to); nothing when that is empty.
  void add(double from, double to, int delta);
  /// add() for a reservation's window (delta < 0: taken, > 0: given back): the breakpoints at
  /// its start (after the first) and end are pinned (taken) or unpinned (given back), and
  /// compaction keeps pinned ones.
  void reserve(double from, double to, int delta) { add(from, to, delta, delta < 0 ? 1 : -1); }
  /// Moves a reservation (its pins too) of `nodes` for a finite `duration` > 0 from [from, from +
  /// duration) to [to, to + duration), to < from: the same as add(from, from + duration, nodes)
  /// then add(to, to + duration, -nodes), with fewer searches. `from`, `from + duration` and `to`
  /// must be breakpoints, `to` the one at index `to_index`, after now. `to_stop`, when known:
  /// the index of the first breakpoint at or after to + duration (as earliest() gives it);
  /// `from_index`, when known: the index of `from` (as earliest() may give it, `own_start`).
  void move(double from, double to, std::size_t to_index, double duration, int nodes,
            std::size_t to_stop = kNone, std::size_t from_index = kNone);
  /// Drops the breakpoints before `now` (keeping the step that holds at now).
  void advance(double now);
  /// True when redundant breakpoints may have piled up since the last compaction.
  bool wants_compaction() const;
  /// Drops redundant breakpoints (same count as the one before) but pinned ones and those at
  /// `keep` (sorted).
  void compact(const std::vector<double>& keep);
  /// Earliest breakpoint index before `limit` where `need` fits for `duration`; kNone if none.
  /// A candidate whose window holds a failing breakpoint b is followed by candidates up to b
  /// whose windows hold b too, so the search resumes after b. `window_end`, if given, gets the
  /// index of the first breakpoint at or after the found fit's end (kept from the search), or
  /// kNone when not known: a fit whose window reaches into `own` and ends by own.to while no
  /// count is negative and own.nodes >= need is accepted there (every count inside passes);
  /// `own_start`, if given, then gets the index of own.from when the scan met it (else kNone).
  using Own = OwnWindow;
  std::size_t earliest(int need, double duration, double limit, std::size_t from = 0,
                       const OwnWindow& own = OwnWindow(), std::size_t* window_end = nullptr,
                       std::size_t* own_start = nullptr) const;
  /// Earliest breakpoint after now and before `limit` where the count changes and `need`
  /// fits; kNone if none.
  std::size_t earliest_change_after_now(int need, double duration, double limit) const;
  /// Whether `need` fits over [time, time + duration) (time need not be a breakpoint).
  bool fits_at(double time, int need, double duration) const;
  double time(std::size_t i) const { return points_[i].time; }
  int free(std::size_t i) const { return points_[i].free; }
  std::size_t size() const { return points_.size(); }
  /// Index of the first breakpoint at or after `time`.
  std::size_t lower(double time) const {
    // (Most searches start at now, the first breakpoint: no binary search then.)
    return points_.front().time < time ? lower_from(1, time) : 0;
  }
  /// Index of the first breakpoint at or after `time`, knowing it is not before `from`.
  std::size_t lower_from(std::size_t from, double time) const;
  /// lower_from() galloping from `from` (cheaper than a binary search when the answer is a few
  /// breakpoints on, e.g. a remembered index that later inserts may have pushed on).
  std::size_t lower_gallop(std::size_t from, double time) const;
  /// Index of the breakpoint at `time` (> the first), inserted (same count) when missing.
  std::size_t ensure(double time);
  /// Number of breakpoints with a negative free count (a running job given more nodes than
  /// planned); 0 means P >= 0 everywhere.
  std::size_t negatives() const { return negatives_; }

 private:
  void add(double from, double to, int delta, int pin);
  /// move() when the windows overlap (to + duration > from).
  void move_overlapping(double from, double to, std::size_t to_index, double duration, int nodes,
                        std::size_t to_stop, std::size_t from_index);
  bool fits(std::size_t candidate, int need, double duration) const;
  /// Adds `delta` to the breakpoints [first, stop).
  void shift(std::size_t first, std::size_t stop, int delta);
  void count_negatives();
  std::vector<Point> points_;
  std::size_t compacted_size_ = 0;
  std::size_t negatives_ = 0;
};

}  // namespace allocsim
