#pragma once
// Slurm's scheduling as slurm.conf configures it, modelled on Slurm 22.05 (the version Debian 12
// ships): the main scheduler, the sched/backfill plugin and the priority/basic and
// priority/multifactor plugins, with one partition holding every node.
//
// Main scheduler (slurmctld job_scheduler.c, schedule()): at every pass, pending jobs in
// priority order start while they fit; the first that does not fit stops the pass ("when a job
// can not start, its partition is marked as unavailable to lower priority jobs": one partition,
// so nothing behind it starts). allocsim runs this pass at every event (submit, completion, and
// the backfill wake-ups), where Slurm runs it at submit, at completion and every sched_interval.
//
// Backfill (src/plugins/sched/backfill/backfill.c, _attempt_backfill): a pass every bf_interval
// seconds, at the multiples of bf_interval of simulated time (the backfill thread wakes on its
// own clock, not at events), when jobs wait. Reservations are on specific nodes, as Slurm's:
// the pass keeps backfill.c's node_space map (sched/slurm_backfill.hpp), time segments from now
// to the window's end (now + bf_window, rounded down to bf_resolution) with the nodes held by
// the reservations of the jobs tested so far. Pending jobs in priority order, each from
// start_res = now:
//  - usable nodes: those no segment overlapping [start_res, start_res + limit] holds (both
//    ends included, as backfill.c's "begin_time <= end_time");
//  - when and where: the select plugin's will-run test on the usable nodes (select/cons_tres
//    _will_run_test: the running jobs, planned to end at start + limit, removed in groups of
//    planned ends aligned to 30 s, sched/slurm_backfill.hpp); the node set is the run's
//    allocator asked on the usable nodes free at that time ("avail_bitmap at this point
//    contains a bitmap of nodes selected for this job to be allocated"), a copy with the
//    ended jobs released for allocators with shape constraints; an answer with a node outside
//    that set counts as none;
//  - a start after `later_start` (the first map boundary after which a node not usable
//    becomes usable) is tried again from there ("Try later when some nodes currently reserved
//    for pending jobs are free"); chosen nodes held by a reservation over the job's own
//    [start, start + limit) are tried again from that start, one bf_resolution later when it
//    equals start_res ("overlaps with existing reservation");
//  - a job that can start now starts on nodes no reservation holds over [now, now + limit]
//    ("Try to start the job on any non-reserved nodes": the allocator asked with the held
//    nodes marked busy, SchedulerContext::try_allocate_excluding);
//  - otherwise, if its start is within the window (start <= now + bf_window), it holds its
//    nodes from start to start + limit, both rounded down to bf_resolution ("start_time =
//    (start_time / backfill_resolution) * backfill_resolution", the same for end_reserve), at
//    least one bf_resolution long ("Ensure that the job always occupies at least one
//    bf_resolution slot within the map"), cut at the window's end; a later start gets no
//    reservation ("Starts too far in the future to worry about").
// A job started by the pass runs until now + limit in the later tests. bf_max_job_test: the
// pass ends once that many jobs were tested ("bf_max_job_test: limit of %d reached");
// bf_max_job_user: a user's jobs beyond that many are skipped (not tested, so they do not count
// against bf_max_job_test). Completing nodes (a node is offered again once its epilog is
// reported) do not exist here: a job's nodes are free at its end.
//
// Priorities (priority/multifactor, PriorityFlags=NO_FAIR_TREE, i.e. classic fair share):
//   priority = trunc(WeightAge·age + WeightJobSize·size + WeightFairshare·fairshare), at least 1;
//   age = min(now − submit, PriorityMaxAge) / PriorityMaxAge;
//   size = nodes / machine nodes (one CPU per node, so the CPU term equals it), 1 − that with
//          PriorityFavorSmall=YES;
//   fairshare = 2^(−U/S) ("F = 2**(-U/S)", the classic formula): U the user's usage (nodes ×
//          seconds, decayed with half-life PriorityDecayHalfLife, 0 = no decay) over everyone's,
//          S = 1 / (users in the trace): every SWF user (field 12; unknown = one user) has an
//          equal share in a flat tree; groups are left out (the Job has no group field).
//   Ties: earlier submit first (lower job id: Slurm's ids follow submission).
// PriorityCalcPeriod (minutes, 0 = every pass): priorities and usage are those of the last
// multiple of the period (Slurm's decay thread recomputes them every period); a job submitted
// since then has age 0. priority/basic (Slurm's default): first come first served.
//
// Time limits: a job's limit is its estimate rounded up to whole minutes (Slurm keeps time
// limits in minutes); no estimate means no limit (the partition's INFINITE, planned as a year).
// With enforce_limits=1 (default) a job still running at start + limit ends there (killed,
// counted in the diagnostics); OverTimeLimit=0 and KillWait are not modelled.
//
// Left out: partitions and their priority tiers, QOS, associations beyond one flat level of
// users, accounting limits, preemption, advance reservations, licenses, GRES, job arrays,
// heterogeneous jobs, Fair Tree (the 22.05 default; NO_FAIR_TREE semantics here), the
// PriorityWeightPartition/QOS/TRES factors, sched_interval and default_queue_depth, and the
// time a pass takes (a pass is instantaneous, so bf_continue and bf_yield_interval change
// nothing: bf_continue is accepted and has no effect), bf_busy_nodes, bf_running_job_reserve.
// Node choice is the run's allocator, for the main pass, the backfill starts and the
// reservations alike.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/sched/scheduler.hpp"

namespace allocsim {

/// The slurm.conf settings the model reads, with Slurm 22.05's defaults. Times in seconds.
struct SlurmConfig {
  bool multifactor = false;  ///< PriorityType=priority/multifactor (default priority/basic)
  bool backfill = true;      ///< SchedulerType=sched/backfill (sched/builtin: main pass only)
  double weight_age = 0, weight_job_size = 0, weight_fairshare = 0;  ///< PriorityWeight*
  double max_age = 7 * 86400.0;                                      ///< PriorityMaxAge (7-0)
  bool favor_small = false;                                          ///< PriorityFavorSmall
  double decay_half_life = 7 * 86400.0;  ///< PriorityDecayHalfLife (7-0; 0 = no decay)
  double calc_period = 300;              ///< PriorityCalcPeriod (5 minutes)
  double bf_interval = 30;               ///< SchedulerParameters=bf_interval (s)
  double bf_window = 1440 * 60.0;        ///< bf_window (minutes in slurm.conf)
  double bf_resolution = 60;             ///< bf_resolution (s)
  long long bf_max_job_test = 500;       ///< bf_max_job_test
  long long bf_max_job_user = 0;         ///< bf_max_job_user (0 = no limit)
  bool bf_continue = false;              ///< bf_continue (no effect: passes are instantaneous)
  bool enforce_limits = true;            ///< end a job at its time limit (allocsim's option)
  /// Skip backfill passes whose outcome is provably the last one's, end a pass once no job
  /// left to test can start, replay a pass's leading tests that provably come out as in the
  /// previous pass, keep the running jobs' node sets between passes and take a `flat`
  /// allocator's answer without asking it (same schedules; tests compare with false, which
  /// tests every job, rebuilds the running jobs' sets at every pass and asks the allocator).
  bool shortcuts = true;
  /// Canonical `Key=value` lines of every setting (for messages and tests).
  std::string describe() const;
};

/// Applies one slurm.conf line (`Key=Value`, `SchedulerParameters=a=1,b,c=2`; case-insensitive
/// keys, `#` comments) to `config`. Unknown or unsupported keys and values are appended to
/// `problems` as "WHERE: what" (WHERE is `file:line` or the spec).
void apply_slurm_conf_line(SlurmConfig& config, const std::string& line, const std::string& where,
                           std::vector<std::string>& problems);
/// Reads a slurm.conf fragment; throws InputError listing every problem (file:line).
SlurmConfig read_slurm_conf(const std::string& path);
/// Slurm's time strings ("min", "min:sec", "h:m:s", "d-h", "d-h:m", "d-h:m:s") in whole
/// minutes, seconds rounded up (time_str2mins); nullopt when malformed.
std::optional<long long> slurm_time_minutes(const std::string& text);

/// The time limit Slurm gives a job: its estimate rounded up to whole minutes, infinity when the
/// job has no usable estimate.
double slurm_time_limit(const Job& job);

/// The spec keys of the `slurm` registry entry (conf=FILE, the slurm.conf keys, the
/// SchedulerParameters options, enforce_limits).
std::vector<ParamSpec> slurm_params();
/// Builds the scheduler from validated spec parameters: the conf file first, then every key
/// given in the spec (spec keys override the file). Throws InputError listing every problem.
std::unique_ptr<Scheduler> make_slurm_scheduler(const Params& params);
/// The same from a config (tests).
std::unique_ptr<Scheduler> make_slurm_scheduler(const SlurmConfig& config);

}  // namespace allocsim
