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
// Speed: P is a sorted array of breakpoints (sched/step_profile.hpp). The allocator is asked
// only at a job's start. A compression skips or bounds each job's search, with the same
// answers as a full search:
// - Settled jobs: a job placed at its earliest fit (at arrival or at its last revisit) had no
//   fit before its start. Since then P went up only on logged intervals [a, b) (early ends,
//   drops, refusals, windows left by moved jobs); everywhere else it went down or stayed. A
//   window [t, t + d) that meets no such interval did not fit then and does not fit now, so an
//   earlier fit starts in [a - d, b) for some logged interval: the search runs over the hull of
//   the intervals logged between walks, then of those left by moves, and not at all when none
//   was logged. (Time passing keeps this: a fit at a new now slides back to the breakpoint
//   before it.) A job refused where P admitted it is unsettled: full search.
// - Failures of the walk (sched/failure_memo.hpp): a job with no fit before a time u (its
//   start, or its new start when it moves) keeps none there for the rest of the walk, and
//   neither has any later job with a need and a duration at least its own (P before the
//   job's start only goes down in the rest of the walk). A job's search starts at the largest
//   such u, and is skipped when that reaches its last candidate (its start, or for a settled
//   job the end of the last logged gain).
// (A bound by the largest free count before the job's start, kept by the walk, skipped 1.5 M
// of 85 M revisits at SDSC-BLUE x0.8 and cost more than it saved once failures were kept.)
// - Past the gains' reach: a settled job starting at or after R, the largest end of the
//   logged gains, has its candidates before R, so a failure with start >= R and a need and a
//   duration at most its own skips it, whatever the starts (covered_until(need, duration)
//   >= R). Those failures are kept as a Staircase (sched/failure_memo.hpp) while R holds, and
//   the settled jobs after such a job (they start no earlier) are skipped in a row while the
//   staircase dominates them: 68.5 M of the 85 M revisits at SDSC-BLUE x0.8 (3.6 M of 7.6 M
//   at SDSC-BLUE), ~4 pairs (the one that dominated the job before asked first). The row
//   reads a dense array of slots in revisit order (need, duration, unsettled), not the
//   scattered reservations, and writes no settle stamps:
//   a job skipped there has no fit before its start at that point of the walk, so the gains
//   logged since the walk began bound its candidates, and after the walk the logs keep exactly
//   those (GainLog::prune); a hull asked from an older number answers from the first entry
//   kept, a span at least as wide: the same earliest fit. (The staircase alone, asked in the
//   walk's loop, was not measurably faster; the skip in a row gained ~4 % at x0.8.)
// - A move (out of the old window, into the one found) is one StepProfile::move, its searches
//   bounded by the found index; a revisit the memo skips records nothing (the failure that
//   covers it dominates it).
// Measured (bench/bench_conservative.cpp, SDSC-BLUE x0.8): of 85 M revisits in 205 k
// compressions the failures skip 71 M; 14 M searches remain, 5.5 M of which move a job (8.5 M
// fail). 120 k of the compressions move ~45 jobs each; the 85 k that move none still make
// 32 M revisits, most of them skipped in a row. The searches look at ~14 candidates and ~10
// steps of their windows each, over ~590 breakpoints (before compaction at a quarter's
// growth); the failure memo holds 8 to 31 failures at most records; the gain logs' stacks
// ~19 entries each.
// Tried and not faster (same schedules): the memo as three arrays queried without branches,
// a per-walk staircase of the failures past the gains' reach asked in the loop (kept now, for
// the skip in a row above), the profile as two arrays with a branch-free binary search,
// cutting the walk where one failure dominates every job left (would skip 4.8 M revisits);
// and (this session, paired whole-process runs, no change beyond the noise of ~2 %): the
// reservations' start and key in the slots too, so that the end-of-walk reordering (~13 % of
// the walk on SDSC-BLUE by perf) and the compaction read no reservation; a forward scan for
// GainLog::hull instead of its binary searches; StepProfile::earliest scanning the breakpoints
// before the own window without the own-window test; the failure memo capped at its 12
// newest failures. Slower: covered_until's test without branches (its loop-carried maximum:
// x0.8 4.9 -> 6.0 s) and FailureMemo::record copying every failure in place without a branch
// (-> 6.1 s), and its pass skipped when the new need or duration is above all kept (x 1.08,
// with the maxima kept). Also slower before: the own window's nodes added without a branch in
// StepProfile::earliest (the branch is well predicted).
// Kept: the failure memo in start order, so covered_until stops at the first dominating
// failure from the latest start instead of looking at all (~15 at x0.8): ~7 % at x0.8
// (paired whole-process runs, 0.93, range 0.85-0.99).
// What remains: no one part dominates. At x0.8 (perf, after): the walk 25 % (the rows, the
// end-of-walk reordering, the bounds), StepProfile::earliest 11 %, FailureMemo::record 9 %,
// move 7.5 %, compaction with its sort ~9.5 %, binary searches 5.6 %, memmove 4.6 %: roughly
// 100-250 ns per revisit not skipped in a row (a failed search to a move), ~16 M of them. Halving
// that needs fewer searches, not cheaper ones: e.g. spans from the individual gains instead of
// their hull, or failures kept across walks (P before a settled job's start goes up only on logged
// gains); not done. Skipping whole blocks of the rows (per-block minimum need and duration) would
// save little now that a row costs a few ns a job.
// SDSC-BLUE x1.0 (the 2 x EASY target; counted with temporary counters, one run): 830 k passes,
// 181 k walks after a gain (95 k move nothing), 7.6 M revisits (3.56 M skipped in a row, 0.79 M
// covered by a failure), 3.24 M searches (2.26 M fail), 1 M moves; 45 reservations, 58
// breakpoints and 14.5 running jobs on average. 361 k passes (44 %) are quiet: asked for a
// reservation start that moved earlier since, no job ends, arrives or is due. Kept (same
// schedules; paired whole-process runs of the x1.0 case, 9 pairs: 0.96, range 0.90-1.07; x0.8
// 0.97): a quiet pass returns before sync, advance, compaction and the walk; sync skips its scan
// of the running jobs when as many run as are held (none ended); PassTimes finds its first
// non-empty bucket by a bit mask (its scan of 65 buckets was ~half of schedule()'s own time);
// the queue order decided once (its name was compared at every arrival); an arrival reserved
// at now is offered without putting its reservation in P and taking it out again; and
// StepProfile::lower answers the first breakpoint without a binary search (1.19 M of 3.63 M
// searches start at now). Tried at x1.0 and not faster (paired runs against the above): the
// end-of-walk reordering as a merge of the few changed jobs into the others (1.01); skipping a
// pass-span search when no breakpoint before the span's end has the job's need, the maximum
// kept while P is unchanged (skips 1.83 M of 3.22 M such searches, yet 1.03: those searches
// fail at their first steps anyway); GainLog::hull remembering its last answer (1.00). Counted
// and not built: failures no later job of the walk could use (0.36 M of 16.9 M records, both
// cases). Asking the simulation only for the earliest current reservation start (no quiet
// passes at all; same schedules and mean waits) gave 0.974 of the whole process, but changes
// the set of passes, which tests/sim/conservative_compress_test.cpp compares pass by pass
// with the reference: not kept. What remains at x1.0 (perf, after): the walk 18 %, earliest
// 8.6 %, FailureMemo::record 5.6 %, move 5.2 %, binary searches 3.8 %, compaction with its
// sorts ~3.5 %, schedule() 3.3 %; EASY's share (allocator, locality, summary) ~30 %.
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
    bool gone = false;     // started in the current walk
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
  std::vector<double> keep_;
  double asked_ = 0;  // the last pass time asked of the simulation
  FailureMemo memo_;  // jobs of the current walk with no earlier fit
  Staircase stair_;   // those failures from the gains' reach on (walk)
  std::uint64_t stamp_ = 0;
  GainLog pass_gains_;  // capacity back between walks (early ends, drops, refusals at now)
};

}  // namespace allocsim
