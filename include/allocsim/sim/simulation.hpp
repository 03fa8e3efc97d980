#pragma once
// The discrete-event simulation of one job stream on one machine (design sketch, `sim/`).
// A Simulation owns its clock, queues, machine state, allocator, scheduler, runtime model,
// observers and generator.
//
// Event order at one time t:
//   1. completions: every job whose end event is at t ends (by job id): observers hear
//      on_finish, its nodes are released, then after_release;
//   2. re-rating: the runtime model is asked once about the jobs that just ended and may change
//      any running job's rate, moving its end; a job whose end moves to t ends now (back to 1);
//   3. arrivals at t join the queue (by job id);
//   4. one scheduling pass; every start inside it commits the allocation, tells the observers
//      and asks the runtime model again (re-rating at each start).
// A scheduler with time limits (Scheduler::time_limit: Slurm's) ends a job still running at
// start + limit there (in step 1, as a completion; counted in the diagnostics as killed). A
// scheduler may ask for passes at later times (SchedulerContext::request_pass: Slurm's
// backfill interval), which join the allocator's wake-ups.
// A time-dependent allocator (Allocator::wake_up: Slurm's --switches wait) adds event times at
// which nothing but a scheduling pass happens: a waiting job it refused may be accepted then.
// A running job holds its remaining work and its rate; its end is now + remaining / rate when
// its rate was last set, so with a model that never re-rates (fixed, dispersal) a job ends at
// exactly start + runtime. End events are a heap with lazy invalidation: each job's event
// carries a version number, and re-rating bumps it.
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/context.hpp"
#include "allocsim/sim/config.hpp"
#include "allocsim/sim/observer.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

class Scheduler;
class DecisionRecorder;
class JobRecorder;
class JobMappingObserver;
class TimelineRecorder;

/// One simulation. Schedulers see it as a SchedulerContext, runtime models as a RateContext.
class Simulation final : public SchedulerContext, public RateContext {
 public:
  /// Builds machine, allocator, scheduler and runtime model from `config` for `workload`
  /// (already transformed). Throws InputError on bad specs or an unsupported machine.
  Simulation(const RunConfig& config, Workload workload);
  /// The same on an already built machine: `machine` must be machine_topology(config).
  Simulation(const RunConfig& config, Workload workload, Topology machine);
  ~Simulation() override;
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Runs to completion and returns the records and summary.
  RunResult run();

  // ---- SchedulerContext and RateContext ----
  double now() const override { return now_; }
  const Topology& topology() const override { return topology_; }
  const std::vector<Job>& jobs() const override { return workload_.jobs; }
  const std::vector<int>& waiting() const override { return waiting_; }
  const std::vector<RunningJob>& running() const override { return running_; }
  int free_count() const override { return free_count_; }
  const std::vector<char>& busy() const override { return busy_; }
  const Allocator& allocator() const override { return *allocator_; }
  /// Asks the allocator for `job_index` now; counts external fragmentation when it refuses
  /// although enough nodes are free.
  std::optional<Allocation> try_allocate(int job_index) override;
  /// The same with the excluded nodes made busy, drawing from the run's generator.
  std::optional<Allocation> try_allocate_excluding(int job_index,
                                                   const std::vector<char>& excluded) override {
    return allocate_excluding(job_index, excluded, rng_);
  }
  /// What a refused try_allocate counts (external fragmentation), without asking.
  void note_refusal(int job_index) override;
  /// Commits `allocation`, starts the job now (removes it from the waiting list), tells the
  /// observers and lets the runtime model re-rate.
  void start(int job_index, Allocation allocation) override;
  /// Adds `time` to the wake-up heap (a pass then), when it is after now and finite.
  void request_pass(double time) override;
  /// Throws TimeoutError once config.timeout_seconds of wall time have passed since run().
  void check_time_limit() const override;

  double rate(int job_index) const override { return progress_[job_index].rate; }
  double remaining_work(int job_index) const override;
  void set_rate(int job_index, double rate) override;
  void set_end(int job_index, double end) override;
  std::uint64_t workload_seed() const override { return config_.workload_seed; }
  const JobTraffic* traffic(int job_index) const override;
  const TimeLimit* time_limit() const override { return this; }

  // ---- Other state ----
  Rng& rng() { return rng_; }
  /// The machine now, at the simulation's clock (MachineView::now).
  MachineView view() { return MachineView(topology_, busy_, free_count_, rng_, this, now_); }

  /// Replaces the scheduler built from the config (tests: reference implementations).
  void set_scheduler(std::unique_ptr<Scheduler> scheduler);
  /// Replaces the allocator built from the config (tests and benchmarks: reference
  /// implementations). Before run(); its linear_ranks() must be the replaced one's (the span
  /// metrics are set up from it).
  void set_allocator(std::unique_ptr<Allocator> allocator);
  /// Replaces the runtime model built from the config (tests, models not in the table).
  void set_runtime_model(std::unique_ptr<RuntimeModel> model);
  /// Adds an observer (not owned; must outlive run()).
  void add_observer(SimulationObserver* observer) { observers_.push_back(observer); }

 private:
  /// A running job's progress (indexed by job index).
  struct Progress {
    double remaining = 0;  ///< work left at `since`, in seconds at rate 1
    double rate = 1;
    double since = 0;  ///< when `remaining` was last brought up to date
    double end = 0;    ///< the end event's time
    /// Start + the scheduler's time_limit: the job ends here if still running (killed).
    double limit_end = INFINITY;
    std::uint32_t version = 0;
    bool running = false;
  };
  /// End event: (time, job id, job index, version); stale when the version is not the job's.
  using Completion = std::tuple<double, std::int64_t, int, std::uint32_t>;

  void finish(int job_index);
  /// Counts the job once for external fragmentation (enough nodes free, wrong shape).
  void count_fragmentation(int job_index);
  /// Pops stale end events; true when a valid one is left on top.
  bool has_completion();
  /// Completions at now_ with the re-ratings they cause (event order steps 1 and 2).
  void complete_jobs_ending_now();
  void push_completion(int job_index);
  /// Throws InputError naming the runtime model and the job: the model derived a time that is
  /// not finite (`what`, e.g. "a running time of inf").
  [[noreturn]] void throw_bad_time(int job_index, const std::string& what) const;
  RunResult summarize();

  RunConfig config_;
  Workload workload_;
  Topology topology_;
  Rng rng_;
  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<RuntimeModel> runtime_model_;

  double now_ = 0;
  std::vector<char> busy_;
  int free_count_ = 0;
  std::vector<int> waiting_;
  std::vector<RunningJob> running_;
  std::vector<Progress> progress_;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
  std::vector<int> ended_;  // scratch: jobs that ended at now_
  /// Times of extra scheduling passes: the allocator's wake_up() of each arrived job (a
  /// time-dependent allocator may accept a waiting job then although nothing else changed),
  /// and the times a scheduler asked for (request_pass).
  std::priority_queue<double, std::vector<double>, std::greater<>> wake_ups_;
  std::vector<char> fragmentation_seen_;
  std::int64_t external_fragmentation_ = 0;
  std::vector<SimulationObserver*> observers_;
  /// Per-job records (always on: the summary is computed from them).
  std::unique_ptr<JobRecorder> job_recorder_;
  /// Maps each job's pattern onto its nodes, when RunConfig::pattern is set.
  std::unique_ptr<JobMappingObserver> job_mapping_;
  /// The situation/decision experiment's recorder, when RunConfig::decisions is set.
  std::unique_ptr<DecisionRecorder> decision_recorder_;
  /// The machine's state over time, when RunConfig::keep_timeline is set.
  std::unique_ptr<TimelineRecorder> timeline_recorder_;
  std::chrono::steady_clock::time_point started_;
};

/// Reads (or generates) the config's workload and applies its transforms.
/// `trace_dir` is where trace NAMEs are looked up (normally $ALLOCSIM_TRACE_DIR).
Workload load_workload(const RunConfig& config, const std::string& trace_dir);
/// Applies the config's transforms to an already-read base workload (sweep trace cache).
Workload transform_workload(const RunConfig& config, const Workload& base);
/// One whole simulation: load, transform, simulate, summarize.
RunResult simulate(const RunConfig& config, const std::string& trace_dir);
/// Same, from a cached base workload (not yet transformed).
RunResult simulate(const RunConfig& config, const Workload& base);
/// Same, on an already built machine (`machine` must be machine_topology(config)): a sweep
/// worker builds each machine once.
RunResult simulate(const RunConfig& config, const Workload& base, const Topology& machine);
/// The config's machine, refused (InputError) when too large: what a Simulation runs on.
Topology machine_topology(const RunConfig& config);
/// load_workload of a synthetic trace from its already parsed spec (`spec` must be
/// SyntheticSpec(config.trace)): the same workload, without parsing the spec again.
Workload synthetic_workload(const RunConfig& config, const SyntheticSpec& spec);

}  // namespace allocsim
