#pragma once
// Conservative backfilling (Mu'alem & Feitelson, "Utilization, predictability, workloads, and
// user runtime estimates in scheduling the IBM SP2 with backfilling", IEEE TPDS 2001, Sec. 2):
// every waiting job, in queue order, holds a reservation at the earliest time the free-node
// profile lets it run for its estimate; a job starts when its reservation is now.
//
// Semantics (unchanged from the first implementation, kept bit for bit): at every pass the
// profile is what a plan from scratch gives: free nodes from now on, with every running job's
// nodes returned at its estimated end (clamped to now; a job past its estimate, or without a
// usable one, is assumed to end now), and the queue planned in order. A candidate start is a
// breakpoint of the profile (now, a running job's end, the end of an earlier reservation).
//
// What is incremental: the scheduler keeps the last pass's plan (profile with every
// reservation, and each queued job's start) and reuses it when a plan from scratch would give
// the same reservations, which holds when, since that pass,
//   (a) no running job ended before its estimated end (an early completion frees nodes the
//       plan did not count: the literature's "compression" point, so the queue is re-planned),
//   (b) every kept reservation starts at or after now (a reservation in the past means a job
//       whose nodes were expected did not free them: an overrun, or a reservation that was
//       "now" but the allocator could not place the job), and
//   (c) the queue is the planned queue with new jobs after it, and nothing else changed
//       (running jobs, their estimates and allocation sizes, the free count are checked).
// Proof sketch of (a)-(c): the profile restricted to [now, inf) is then the same function; the
// candidate set loses only breakpoints before now and gains now. A job's old start s >= now is
// still a candidate and still fits; a candidate c >= now had the same verdict before; the new
// candidate now fails because the last old breakpoint before it failed on a window that the
// window of now covers (same value at now, later window end by monotone rounding). So every
// kept job keeps its start, and new jobs are planned on the same profile as from scratch.
// Otherwise the pass re-plans from scratch, on a profile kept as a sorted array of breakpoints
// whose earliest-start search skips whole runs of failing candidates (see FreeProfile).
#include <memory>
#include <string>
#include <vector>

#include "allocsim/sched/scheduler.hpp"

namespace allocsim {

/// Free-node step function over time: breakpoint i holds the free count on
/// [time[i], time[i+1]); the first breakpoint is the pass's now, the last frees every node.
class FreeProfile {
 public:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  struct Point {
    double time;
    int free;
  };

  /// Profile of `free_now` nodes at `now` and (release time, nodes) pairs sorted by time,
  /// every time >= now.
  void reset(double now, int free_now, const std::vector<std::pair<double, int>>& releases);
  /// Index of the earliest breakpoint t with at least `need` free nodes at every breakpoint in
  /// [t, t + duration) (t itself always checked); the last breakpoint when none fits. Same
  /// answer as trying every breakpoint in order: a candidate c whose window holds a failing
  /// breakpoint b is followed by candidates in (c, b] whose windows hold b too (t + duration
  /// rounds monotonically), so the search resumes after b, and skips failing breakpoints.
  std::size_t earliest(int need, double duration) const;
  /// Same loop as earliest() over the candidates before `limit` whose window does not hold
  /// the time `fails_at` (a point with fewer than `need` free nodes): kNone when none fits.
  std::size_t earliest_before(int need, double duration, double limit, double fails_at) const;
  /// Earliest time in [from, before) with fewer than `need` free nodes (from itself or a
  /// breakpoint), infinity when there is none.
  double first_below(double from, int need, double before) const;
  /// Index of the breakpoint at `time`, kNone when there is none.
  std::size_t index_of(double time) const;
  /// Subtracts `nodes` over [time(from), to), adding a breakpoint at `to` when missing.
  void occupy(std::size_t from, double to, int nodes);
  /// Adds `delta` free nodes over [time(from), to); `to` must be a breakpoint (or beyond all).
  void adjust(std::size_t from, double to, int delta);
  /// Drops breakpoints before `now` and makes `now` the first one (value of the step there).
  void advance(double now);
  double time(std::size_t index) const { return points_[index].time; }
  int free(std::size_t index) const { return points_[index].free; }
  std::size_t size() const { return points_.size(); }

 private:
  std::vector<Point> points_;
};

/// Builds the conservative scheduler for a queue order (fifo, smallfirst, ...).
std::unique_ptr<Scheduler> make_conservative_scheduler(const std::string& order);

}  // namespace allocsim
