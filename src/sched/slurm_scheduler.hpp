// The `slurm` scheduler's class, shared by its files (internal: not installed). Slurm 22.05's
// main and backfill scheduling with basic or multifactor priorities; the model and what it leaves
// out are in sched/slurm.hpp. src/sched/slurm.cpp: the main pass, the running jobs as planned,
// the allocator's answers; slurm_backfill_pass.cpp: a backfill pass and will-run;
// slurm_pass_memory.cpp: what a pass keeps so that the next one may be skipped or replayed.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "allocsim/sched/slurm.hpp"
#include "allocsim/sched/slurm_backfill.hpp"
#include "allocsim/sched/slurm_priority.hpp"
#include "allocsim/sched/slurm_will_run.hpp"

namespace allocsim {

/// Seed of the scratch generator handed to the allocator when it is asked about a future
/// free set (any fixed value: every question of a pass draws alike).
inline constexpr std::uint64_t kSlurmPlanningSeed = 0x5eed;

/// `time` rounded down to a multiple of `resolution`.
inline double floor_to(double time, double resolution) {
  return std::floor(time / resolution) * resolution;
}

/// Slurm's scheduling of one partition holding every node (sched/slurm.hpp): the main pass at
/// every event, a backfill pass at each multiple of bf_interval while jobs wait.
class SlurmScheduler final : public Scheduler {
 public:
  explicit SlurmScheduler(SlurmConfig config) : config_(std::move(config)) {}

  double time_limit(const Job& job) const override {
    return config_.enforce_limits ? slurm_time_limit(job) : std::numeric_limits<double>::infinity();
  }

  void schedule(SchedulerContext& context) override;

 private:
  /// Per-job needs and limits, the users and their shares (SlurmPriority::index).
  void index_jobs(const SchedulerContext& context);

  /// The waiting jobs in priority order.
  const std::vector<int>& queue(const SchedulerContext& context) const {
    return priority_.queue(context);
  }

  /// Slurm's main scheduler: jobs in priority order start while they fit.
  void main_pass(SchedulerContext& context);

  /// Drops the jobs just started from the priority order.
  void forget_started() {
    priority_.forget(started_);
    started_.clear();
  }

  /// Running jobs are kept between passes (sync_planned()): their ends and nodes never change.
  using Planned = PlannedJob;

  /// A Planned entry for `job_index` running on `allocation` until `end`.
  Planned make_planned(int job_index, double end, const Allocation& allocation, int machine) const;

  /// Brings planned_ up to date with the context's running jobs: drops the ended ones, adds the
  /// started ones, and orders them by planned end, ties in the order of context.running() (as a
  /// stable sort of it: will-run's groups depend on that order, since a job without usable nodes
  /// skips the test of the next job's end).
  void sync_planned(const SchedulerContext& context);

  /// Inserts `job` into planned_ after the entries ending no later.
  void add_planned(Planned job);

  /// The allocator's choice for `job_index` on the nodes of `usable` at `time` (the select
  /// plugin's node choice, asked on the predicted free set). An allocator with shape
  /// constraints answers from its own state: a copy with the running jobs that end by `time`
  /// released (as conservative's planner replays them); an answer using a node outside
  /// `usable` counts as none.
  std::optional<Allocation> choose(SchedulerContext& context, int job_index, const NodeSet& usable,
                                   double time, int usable_count);

  /// The select plugin's will-run test (sched/slurm_backfill.hpp): when and on which nodes of
  /// `usable` the job can start, given the running jobs; false when never.
  /// The nodes are not chosen for a job that can start now from `from` = now on an allocator
  /// without shape constraints (the pass starts it through the context, which chooses them).
  bool will_run(SchedulerContext& context, int job_index, const NodeSet& usable,
                std::uint64_t usable_hash, double from, double& start, NodeSet& nodes);

  /// The jobs a pass tests, in priority order: at most bf_max_job_test, and bf_max_job_user per
  /// user ("bf_max_job_test: limit of %d reached"; a skipped job is not counted).
  void select_tested(const std::vector<int>& queue, std::vector<int>& tested);

  /// One pass of sched/backfill (backfill.c, _attempt_backfill) on the node_space map
  /// (sched/slurm_backfill.hpp). Each job in priority order, from start_res = now: the nodes
  /// no reservation holds over [start_res, start_res + limit]; will_run on them gives its start
  /// and nodes; a start after later_start, or nodes held by a reservation over the job's own
  /// [start, end) ("overlaps with existing reservation"), tries again from later_start (or from
  /// that start, one bf_resolution later when it equals start_res). A job that can start now
  /// starts on nodes no reservation holds; one that cannot reserves its chosen nodes from its
  /// start for its limit, both rounded down to bf_resolution (at least one bf_resolution
  /// long), unless it starts beyond the window. Only starts are observable (reservations live
  /// for one pass), so the pass stops once no job left needs at most the free nodes.
  void backfill_pass(SchedulerContext& context);

  /// What same_outcome() compares a later pass with.
  struct LastPass {
    bool valid = false;
    double time = 0;  ///< when it ran
    /// The pass started nothing, and no start or reservation depended on its time (a job
    /// refused at now, a reservation from now, a running job past its planned end).
    bool clean = false;
    double window_end = 0;
    bool clipped = false;    ///< a reservation reached the window's end (cut there or ending there)
    bool tail_read = false;  ///< after that, a question from the window's end
    bool tail_scanned = false;  ///< after that, one reaching it or a later_start scan finding none
    double first_past_end = 0;  ///< the earliest from or to of those reservations >= window_end
    double first_beyond_window = 0;   ///< earliest start of a job beyond the window
    double first_try_beyond_end = 0;  ///< earliest start_res past the window's end
    std::vector<double> boundaries;   ///< the final map's segment boundaries, ascending
    std::vector<double> ends;         ///< the running jobs' planned ends, ascending
    std::vector<double> limits;       ///< the tested jobs' limits, distinct, ascending
    /// space_ and free_ are its final map and free nodes (it did not end before building them).
    bool has_map = false;
    std::vector<int> queue, running;
    std::vector<int> tested;  ///< the jobs it tested (or would have), in order
  };

  void remember_pass(const SchedulerContext& context);

  /// True when a backfill pass now would start nothing, as the last one, so it can be skipped:
  /// the last pass was clean, the queue (in priority order) and the running jobs are the same,
  /// and nothing it computed depends on the time since then. The pass depends on its time t
  /// only through: the segments overlapping [t, t + limit] (the same when no boundary of its
  /// final map lies in (then, now] or in (then + L, now + L] for a tested limit L: every map
  /// of the pass had a subset of those boundaries), the planned ends passed (none in (then,
  /// now]; will-run's groups of ends do not depend on t), and the window (no start beyond it that
  /// is within it now, no start_res past its end that is not now). When the window's end W moved
  /// to W' and a reservation reached W: up to the first from or to >= W of those reservations,
  /// the new map is the old one with its last segment stretched to W', which only a question
  /// from W can tell apart (tail_read); beyond it, the new map has a boundary in [W, W') that a
  /// question reaching W, or a later_start scan that read the last segments, may see
  /// (tail_scanned). Jobs only added at the queue's end: only_appended_cannot_start().
  bool same_outcome(const SchedulerContext& context);

  /// Jobs were only added at the end of the queue since the last pass (same running jobs, the
  /// other conditions of same_outcome met): a pass now tests the jobs the last one tested with
  /// the same outcome, then the added ones that bf_max_job_test and bf_max_job_user let it test,
  /// on a map holding at least the last pass's final map (reservations only grow during a
  /// pass). A job starts only from start_res = now, on enough free nodes held by no reservation
  /// over [now, now + limit]; true (and the last pass now stands for this queue) when no added
  /// job has them on that final map, so none can in the pass. Their limits join the limits whose
  /// map boundaries a later same_outcome watches: none in (then + limit, later + limit] means
  /// none in (then + limit, now + limit] either, so the answer later is the answer now.
  bool only_appended_cannot_start(const SchedulerContext& context);

  /// What a job's test in a backfill pass did, as reusable_prefix() reads it.
  struct TestRecord {
    /// kNone: no reservation (too few usable nodes, none found, or a try past the window's
    /// end); kReserved: nodes over [from, to); kBeyondWindow: will-run's start `from` lies
    /// beyond the window; kNotReusable: it started, was refused at now, reserved from now, or
    /// was not tested (a jump, or the pass ended before it).
    enum Kind : signed char { kNotReusable, kNone, kReserved, kBeyondWindow };
    int job = -1;
    Kind kind = kNotReusable;
    bool tail_read = false, tail_scanned = false;  ///< it set these flags of LastPass
    double limit = 0, from = 0, to = 0;
    double min_start = 0;          ///< the least will-run start from a test after the one at now
    double try_beyond = 0;         ///< the least start_res past the window's end (a try's end)
    double question_past_end = 0;  ///< the least time >= the window's end it asked the map about
    NodeSet nodes;                 ///< kReserved: the nodes held
  };
  /// The last pass that recorded its tests (the lowest-ids allocator with shortcuts on).
  struct RecordedPass {
    bool valid = false;
    double time = 0, window_end = 0;
    std::vector<int> running;  ///< the running jobs when it began, in the context's order
    NodeSet free;              ///< the free nodes when it began
    std::vector<TestRecord> records;
    std::size_t count = 0;  ///< records of its tested jobs (the vector may be longer)
  };

  /// What one job's tries in a backfill pass came to (try_job()).
  struct TryOutcome {
    enum Kind { kNothing, kStarted, kReserved } kind;
    double from;  ///< kStarted: now; kReserved: the reservation's from
    int taken;    ///< kStarted: the nodes it took
  };
  /// One job's tries in backfill_pass(), from start_res = now (backfill_pass's comment): it
  /// starts (through the context), reserves on the map, or neither; `rec` records the test for
  /// the next pass's reusable_prefix().
  TryOutcome try_job(SchedulerContext& context, int job_index, TestRecord& rec, double window_end);

  /// How many leading jobs of this pass (tested_, on the map as reset, the free nodes and the
  /// running jobs as synced) test exactly as in the previous recorded pass, so that their
  /// recorded outcomes can be replayed. See the proof in the body.
  std::size_t reusable_prefix(const SchedulerContext& context, double window_end);

  SlurmConfig config_;
  LastPass last_;
  RecordedPass previous_;
  std::vector<TestRecord> records_;  ///< this pass's (swapped into previous_ at its end)
  std::vector<int> running_at_start_;
  NodeSet free_at_start_;
  AscendingTimes bounds_;          ///< reusable_prefix()'s reservation bounds
  double will_run_min_start_ = 0;  ///< the least will-run start after a test at now (per job)
  double requested_ = -std::numeric_limits<double>::infinity();
  SlurmPriority priority_{config_};  ///< the waiting jobs in priority order
  std::vector<double> limit_;        ///< job index -> time limit as planned (no limit: a year)
  std::vector<int> need_;            ///< job index -> nodes the allocator needs
  std::vector<int> started_;
  // Backfill scratch.
  std::vector<long long> tested_of_user_;
  std::vector<int> tested_, least_need_, appended_;
  std::vector<Planned> planned_;  ///< running jobs by planned end (kept between passes)
  std::vector<char> in_plan_;     ///< job index -> 1: in planned_ (2: running, while syncing)
  std::vector<int> position_;     ///< job index -> its place in context.running() (syncing)
  NodeSpace space_;
  NodeSet free_, usable_, fit_, held_;
  NodeSet chosen_;                ///< will-run's nodes for the job tested
  NodeSet retry_usable_;          ///< the usable set of a try that went on to later_start
  std::uint64_t retry_hash_ = 0;  ///< its hash
  double retry_start_ = 0;        ///< will-run's start on it
  WillRunWalk walk_;   ///< will-run's walk when the allocator chooses (or shortcuts are off)
  WillRunMemo walks_;  ///< will-run's walks of this pass since its last start, per usable set
  std::vector<std::size_t> candidates_;
  std::vector<long long> reach_;  ///< backfill_pass's earliest_start(): free + planned nodes
  std::vector<char> busy_, excluded_;
  const Rng fresh_{
      kSlurmPlanningSeed};           ///< the generator each question about the future starts from
  Rng scratch_{kSlurmPlanningSeed};  ///< the allocator's generator when it is asked so
};

}  // namespace allocsim
