#pragma once
// conservative:replan=full (the `conservative` scheduler before compression became the
// default, sched/compressing.hpp; its results are kept bit for bit, tests/golden).
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
// Otherwise the pass re-plans on a profile rebuilt from scratch, kept as a sorted array of
// breakpoints whose earliest-start search skips whole runs of failing candidates (FreeProfile).
//
// Re-planning with hints: when only (a) or (b) fails (same queue prefix, same running jobs with
// the same estimates and sizes), each kept job's old start s_i bounds its search. Write P_i for
// the partial profile after the first i jobs (old plan) and P'_i (this pass), D_i = P'_i - P_i
// on [now, inf). Facts used: (1) the earliest start is the earliest real t >= now whose window
// [t, t + d) (t itself when d = 0) has enough nodes: a fitting t that is not a breakpoint can
// slide left to the breakpoint before it (same value on the way, earlier window end), so the
// answer does not depend on which redundant breakpoints a profile holds; (2) D_0 is the early
// jobs' nodes over [now, their estimated end) (>= 0; an overrun's release is clamped to now in
// both plans, so it adds nothing). The scan keeps `until` with D_{i-1} = 0 on [until, inf):
// the early ends at first, then the end of the old and new window of each job whose start or
// node count changed. For job i with s_i >= now, if D_{i-1} >= 0 (no job changed yet) or
// s_i >= until, then s_i still fits (more nodes, or the same ones on its window) and every real
// t in [until, s_i) still fails (its window lies where nothing changed); so the answer is the
// first fitting breakpoint before min(s_i, until), else s_i (a breakpoint by (1)). Otherwise, and
// for new jobs, the search is the full one. The allocator is asked exactly as from scratch.
#include <limits>
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
  static constexpr double kNoLimit = std::numeric_limits<double>::infinity();
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
  /// The same search over the candidates before `limit` only: kNone when none of them fits.
  std::size_t earliest_before(int need, double duration, double limit) const;
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
