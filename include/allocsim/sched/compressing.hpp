#pragma once
// Conservative backfilling with compression: the `conservative` scheduler (its default,
// `replan=compress`). `conservative:replan=full` is the earlier scheduler that plans the whole
// queue again at every pass (sched/conservative.hpp).
//
// Mu'alem & Feitelson, "Utilization, predictability, workloads, and user runtime estimates in
// scheduling the IBM SP2 with backfilling", IEEE TPDS 12(6), 2001, Sec. 2 (wording as recalled
// from the paper, not checked against a copy here): in conservative backfilling "every job is
// given a reservation when it enters the system", and "backfilling moves jobs forward only if
// they do not delay any previously queued job"; when a job "terminates before its estimated
// time", the schedule is "compressed": reservations may move earlier, never later.
//
// The rules implemented (the reference in tests/sim/conservative_compress_test.cpp follows them
// literally, with a profile rebuilt from scratch for every search):
// - Profile. P(t), t >= now, is the machine's node count minus every running job's nodes until
//   its release (estimated end, clamped to now; a NaN estimate ends now) minus every waiting
//   job's reservation: `need` (the allocator's nodes_needed) over [start, start + duration),
//   duration = max(estimate, 0) (0 for NaN). A job fits at t when P >= need on [t, t + d) (at t
//   itself when d = 0). Only node counts are planned, whatever the allocator.
// - Arrival. A job without a reservation gets the earliest t >= now where it fits in P. Jobs
//   that arrive at one pass are reserved in queue order (`order`, ties by arrival).
// - Each pass walks the reservations once, in the order of revisiting: reservation start at
//   the beginning of the pass, ties in queue order. A job reserved at or before now is offered
//   to the allocator and starts if placed. When capacity came back since the last pass (a
//   running job ended before its estimated end, or a waiting job left the queue without
//   starting: the simulation drops a job no empty machine can hold), the walk also compresses:
//   each job reserved after now is taken out of P and put back at min(its start, its earliest
//   fit in P without it); a job that moves to now is offered at once. So a compression never
//   moves a reservation later. Each job is revisited once (the paper's sweep, not a fixed
//   point). Then the pass's arrivals are reserved; one reserved at now is offered at once.
// - A missed reservation: the allocator refuses a job at its reserved time (a shape
//   constraint such as a contiguous submesh, or a running job past its estimate still holding
//   nodes the profile counts as free). The job is re-reserved at the earliest time after now
//   where P without it changes value, or at which a time-dependent allocator may answer
//   otherwise (Allocator::wake_up: Slurm's --switches wait), and P admits it (it keeps no claim
//   on now). A job that
//   compression moved to now and that is refused there goes to such a time before its old
//   start, else keeps its old start: it never moves later. A job whose reservation had come
//   (start <= now) goes to the earliest such time, without bound (else stays at now, offered
//   again at the next pass): the one case where a reservation moves later.
// - Passes. After every pass the scheduler asks for one (SchedulerContext::request_pass) at
//   the earliest reservation start after now, if any; at that pass it asks for the next. So a
//   job starts at its reservation even when no job arrives or ends then (e.g. after a missed
//   reservation, or behind a job that outran its estimate): every reservation start is asked
//   for before it is reached. (Until 2026-11-29 it asked at every new reservation start, ~44 %
//   of SDSC-BLUE's passes being asked for starts that had moved earlier since; nothing happens
//   at such a pass, so the schedules are the same.)
//
// Speed: P is a sorted array of breakpoints (sched/step_profile.hpp), the reservations' starts
// and ends pinned (compaction drops only redundant breakpoints not pinned). The allocator is asked
// only at a job's start. A compression skips or bounds each job's search, with the same
// answers as a full search:
// - Settled jobs: a job placed at its earliest fit (at arrival or at its last revisit) had no
//   fit before its start s: every window [t, t + d), t < s, held a failing step x (P(x) <
//   need) with x < s (inside its own window P without it is >= need while P >= 0; a search
//   that fails while P < 0 somewhere unsettles the job instead). Since then P went up only on
//   logged intervals [a, b) (early ends, drops, refusals, windows left by moved jobs); a window
//   that meets none of them still fails, so an earlier fit starts in (a - d, b) for some
//   interval with a < s. The search runs over the hull of the intervals logged between walks
//   (GainLog), and over the hull of the windows left by the jobs this walk moved before it:
//   those moved in earlier walks after the job's revisit left windows at or after s, which
//   hold no failing step (so they are not looked at). None logged: no search. (Time passing
//   keeps this: a fit at a new now slides back to the breakpoint before it.) A job refused
//   where P admitted it is unsettled: full search.
// - Failures of the walk (sched/failure_memo.hpp): a job with no fit before a time u (its
//   start, or its new start when it moves) keeps none there for the rest of the walk, and
//   neither has any later job with a need and a duration at least its own (P before the
//   job's start only goes down in the rest of the walk). A job's search starts at the largest
//   such u, and is skipped when that reaches its last candidate (its start, or for a settled
//   job the end of the last logged gain).
// - Past the gains' reach: a settled job starting at or after R, the largest end of the
//   logged gains, has its candidates before R, so a failure with start >= R and a need and a
//   duration at most its own skips it, whatever the starts (covered_until(need, duration)
//   >= R). Those failures are kept as a Staircase (sched/failure_memo.hpp) while R holds, and
//   the settled jobs after such a job (they start no earlier) are skipped in a row while the
//   staircase dominates them. The row reads the dense slots in revisit order (need, duration,
//   unsettled), not the scattered reservations, and writes no settle stamps: a job skipped
//   there has no fit before its start at that point of the walk, so the gains logged since the
//   walk began bound its candidates, and after the walk the logs keep exactly those
//   (GainLog::prune); a hull asked from an older number answers from the first entry kept, a
//   span at least as wide: the same earliest fit.
// - A move (out of the old window, into the one found) is one StepProfile::move, told the
//   found window's end by the search; a revisit the memo skips records nothing (the failure
//   that covers it dominates it). After the walk only the slots flagged are placed again
//   (started: dropped; moved earlier: insertion; due and refused: inserted by binary search).
// Counted (temporary counters, one run each; bench/bench_conservative.cpp has the times):
//   SDSC-BLUE x0.8: 515 k passes (43 k quiet), 205 k walks after a gain, 82 M revisits (74 M
//   skipped in a row, 0.8 M covered by a failure), 9.7 M searches (4.2 M fail), 5.3 M moves;
//   before the bound by this walk's moves: 16.3 M revisits not in a row, 14 M searches (8.5 M
//   fail). SDSC-BLUE x1.0: 504 k passes (36 k quiet), 181 k walks, 2.7 M searches (1.7 M
//   fail), 0.85 M moves; before: 830 k passes (361 k quiet), 3.2 M searches (2.3 M fail).
// Tried and not faster (same schedules, paired whole-process runs): the memo as three arrays
// queried without branches; the profile as two arrays with a branch-free binary search;
// cutting the walk where one failure dominates every job left; a bound by the largest free
// count before the job's start; the reservations' start and key in the slots; a forward scan
// for GainLog::hull, or its last answer remembered; StepProfile::earliest without the
// own-window test before the own window (or adding its nodes without a branch: slower); the
// memo capped at 12 failures; covered_until without branches (slower, x0.8 4.9 -> 6.0 s) and
// FailureMemo::record without a branch (-> 6.1 s); skipping a pass-span search when no
// breakpoint before its end has the need (1.03); the reordering as a merge (1.01, x1.0); a
// moved job's gain logged as [max(old, new + d), old + d) only (1.007); the pass and move
// spans searched as one when they overlap (1.00); a search's first index galloped from the last
// search's (1.01); compaction at a half's growth (1.00). Counted and not
// built: the gains' individual windows instead of their hull (the windows left by a walk's moves
// overlap: 1.6 runs of them per search, 136 M candidate breakpoints against 143 M); failures kept
// across walks (they would help only jobs settled before the failure was recorded, i.e. ties in
// start). Then (wt-cons6): compaction no longer lists and sorts every reservation's start and
// end (its scattered reads and sort were ~5 %): StepProfile::reserve pins them, in Point's
// padding (paired x0.8 0.924); a move's failure is not recorded when the search began at the fit
// found (a kept failure dominates it: 14 % of the records), and FailureMemo::record compacts
// without a branch (0.982). Tried there, same schedules, no gain: a branch-free lower_from
// (1.05, slower); room before the first breakpoint (advance() not erasing, inserts moving the
// shorter side: memmove 5.7 -> 3.6 % by perf, 1.00); a move dropping its old start when left
// redundant and unpinned, in the insert's memmove (0.995); the rows' dominating pair held in
// registers (1.00); record scanning read-only up to its first drop (1.00); the reordering after
// a walk limited to the slots flagged (1.00); compaction at 1/8 or 1/16 growth (0.99; 1/8 was
// 1.01 before the pins).
// Then (wt-cons7; counted: 10.8 M searches, 79 % starting at the covering failure's start, 8.7 M
// binary searches for a first index, 8.1 M records with ~10 failures kept, 35 % of them never
// an answer): a failure keeps the breakpoint index it was found at (a lower bound of its
// start's index: a walk only inserts), and a search from it gallops (paired x0.8 0.933); the
// memo drops dominated failures in batches when it doubles, not at every record (0.948: a
// dominated failure is never an answer). Not faster: the memo's failure in 24 bytes (1.01), its
// batches at 1.5x or 3x (1.02, 1.00), the staircase's pairs dropped in batches too (1.04: the
// rows scan them), Staircase::add in one branch-free pass (0.998), covered_until's two tests in
// one branch (0.999), a move galloping to its old window from the new window's end (1.00).
// What remains at x0.8 (perf, wt-cons7): the walk 29 % (its rows ~6 %, covered_until ~3 %),
// StepProfile::earliest 17 %, move 8.7 %, memmove of breakpoint inserts 6.5 %, Staircase::add
// 2.7 %, FailureMemo::compact 2.3 %, record 1.7 %, lower_gallop 1.7 %; EASY's share
// (allocator, locality, summary) ~15 %. Most of it goes with the 5.3 M moves.
// Then (wt-cons8; counted at x0.8: 205 k walks, 74 M revisits skipped in a row in 4.1 M rows,
// 9.7 M searches (4.2 M fail, none without a call of StepProfile::earliest), 5.28 M moves of a
// finite duration, 4.69 M of them (89 %) into a window overlapping the old one, with 37.6 M
// breakpoints (8 a move) in the overlap [old start, new end); earliest read 122 M candidates and
// 92 M breakpoints of windows; profile ~470 breakpoints): a search accepts a fit once its
// window's scan reaches the job's own window while P >= 0 (every count there is P + need >=
// need) and tells the move the own window's start index; StepProfile::move_overlapping shifts
// only [new start, old start) and [new end, old end) (the overlap went down by `need` and back
// up); candidates before the own window read their counts without the own-window test when the
// limit is by its start (all of the compression's searches). Paired whole process against main
// (12ade38): x0.8 0.952, x1.0 0.975. Tried and not faster: the rows' test against every pair
// without a hint (1.018) or with a second hint (1.00); the reservations a row skipped over
// fetched ahead when it ends (1.00); the reordering's slot written without a byte patched into
// its copy (1.00); FailureMemo::compact asking a staircase of the kept pairs (1.029, slower);
// the staircase kept (not filled again) when the reach grows past no failure (0.996).
// Counted and not built: failures kept with the largest count at the failing steps their search
// met (no fit in [first candidate, u) for any need above it): 4.9 % of the searches skipped,
// 11 % shortened. What remains at x0.8 (perf): the walk 30 % (rows ~7 %, covered_until ~4 %,
// the reordering ~2 %), earliest 15 %, memmove 7.4 % (mostly the insert of a move's new end),
// move_overlapping 6 % (its scans over the old window), the memo and staircase ~6 %,
// lower_gallop 1.9 %; EASY's share ~15 %.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/sched/failure_memo.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sched/step_profile.hpp"

namespace allocsim {

/// Where capacity came back, for the bounds of the compression's searches: an append-only log
/// of intervals [a, b) (entry i logged as number i), kept as the suffix minima of a and suffix
/// maxima of b, so the hull of the entries from any number on is a binary search away.
class GainLog {
 public:
  /// Number the next entry gets.
  std::uint64_t next() const { return next_; }
  void push(double a, double b);
  /// Smallest a and largest b over the entries numbered `since` or more; false if none.
  bool hull(std::uint64_t since, double& lo, double& hi) const;
  /// Forgets the entries numbered below `since`.
  void prune(std::uint64_t since);
  /// Largest b over the entries kept; -infinity when none.
  double reach() const;

 private:
  std::vector<std::pair<std::uint64_t, double>> min_a_, max_b_;
  std::uint64_t next_ = 0;
};

/// Conservative backfilling with compression (rules above).
class CompressingConservative final : public Scheduler {
 public:
  explicit CompressingConservative(std::string order);
  void schedule(SchedulerContext& context) override;
  /// (job index, reservation start) of every waiting job holding a reservation, in revisit
  /// order (start, then queue order). For tests.
  std::vector<std::pair<int, double>> reservations() const;

 private:
  // One cache line each (56 bytes unaligned straddle two lines one time in two; the walk
  // touches each reservation once per compression, prefetched one line ahead).
  struct alignas(64) Reserved {
    double start = 0;
    double duration = 0;
    double key = 0;  // queue order key (0 for fifo)
    int need = 0;
    bool active = false;
    /// Refused at a time the profile admitted it: P may admit it before its start, so its
    /// searches are not bounded by the gains.
    bool unsettled = false;
    std::uint64_t seen = 0;
    std::uint64_t since_pass = 0;  // pass_gains_ entries it has not seen
  };
  /// A reserved job in revisit order with what the skip past the gains' reach reads (need and
  /// duration never change while reserved; `unsettled` is kept equal to Reserved::unsettled):
  /// a row of skipped jobs is read from this dense array, not from the scattered reservations.
  struct Slot {
    double duration = 0;
    int job = 0;
    int need = 0;
    bool unsettled = false;
    bool earlier = false;  // moved earlier in the current walk (for the reordering after it)
    bool gone = false;     // started (or refused when due: relocated_) in the current walk
  };
  struct Held {
    double release_end = 0;  // estimated end as given (NaN: none)
    int nodes = 0;
    std::uint64_t seen = 0;
    bool active = false;
  };
  bool before(int a, int b) const;
  void reset(SchedulerContext& context);
  bool sync(SchedulerContext& context);  // true when capacity came back
  /// The running jobs against those held: the ended ones give their nodes back (`gained` set
  /// when one ended before its estimated end), the unknown ones are held from now.
  void sync_running(SchedulerContext& context, bool& gained);
  /// Asks the simulation for a pass at the earliest reservation start after now, when it is
  /// not the time asked last.
  void ask_next(SchedulerContext& context);
  /// Offers the due jobs and, after a gain, compresses: one walk in revisit order.
  void walk(SchedulerContext& context, bool gained);
  void reserve_arrivals(SchedulerContext& context);
  /// Starts `job` now if the allocator places it (its reservation is out of P already):
  /// the nodes it got, -1 when refused.
  int try_start(SchedulerContext& context, int job);
  /// Where a refused job goes (its reservation out of P): the earliest time after now and
  /// before `limit` where P changes, or the allocator's wake-up for it, and P admits it;
  /// `otherwise` when there is none.
  double retry_time(const SchedulerContext& context, int job, double limit, double otherwise) const;
  void insert_ordered(int job);
  /// The slot of a reserved job (from its reservation).
  Slot slot_of(int job) const;
  double key_of(const Job& job) const;

  /// The queue order's key (key_of); every other order (fifo) keys all jobs 0: arrival order.
  enum class Order { arrival, smallfirst, largefirst, shortfirst, longfirst };
  Order order_ = Order::arrival;
  const SchedulerContext* context_ = nullptr;
  std::size_t job_count_ = 0;
  double now_ = 0;
  StepProfile profile_;
  std::vector<Reserved> reserved_;  // by job index
  std::vector<Slot> order_list_;    // reserved jobs by (start, key, index)
  std::vector<Held> held_;          // by job index
  std::vector<int> held_list_;      // running jobs as the profile holds them
  std::vector<int> scratch_;
  std::vector<int> relocated_;  // due jobs refused in the walk: placed again after it
  std::vector<double> keep_;
  double asked_ = 0;  // the last pass time asked of the simulation
  FailureMemo memo_;  // jobs of the current walk with no earlier fit
  Staircase stair_;   // those failures from the gains' reach on (walk)
  std::uint64_t stamp_ = 0;
  GainLog pass_gains_;  // capacity back from now or between walks (early ends, drops, refusals)
};

}  // namespace allocsim
