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
// own clock, not at events), when jobs wait. Pending jobs in priority order: a job starts now
// when enough nodes are free for its whole time limit given the running jobs (ending at start +
// time limit) and the reservations of the jobs tested before it; otherwise, if its earliest
// start is within the window (start <= now + bf_window), it reserves its nodes from that start
// for its time limit ("_add_reservation"), with start and end rounded down to bf_resolution
// ("start_time = (start_time / backfill_resolution) * backfill_resolution", the same for
// end_reserve) and the map ending at the window's end (now + bf_window, rounded down), beyond
// which every node counts as free. A job starting later than the window gets no reservation.
// bf_max_job_test: the pass ends once that many jobs were tested ("bf_max_job_test: limit of %d
// reached"); bf_max_job_user: a user's jobs beyond that many are skipped (not tested, so they do
// not count against bf_max_job_test).
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
// nothing: bf_continue is accepted and has no effect). Node choice is the run's allocator.
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
  /// Skip backfill passes whose outcome is provably the last one's and end a pass once no job
  /// left to test can start (same schedules; tests compare with false, which tests every job).
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
