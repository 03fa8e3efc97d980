#pragma once
// The discrete-event simulation of one job stream on one machine (design sketch, `sim/`).
// A Simulation owns its clock, queues, machine state, allocator, scheduler and generator.
// Event order at equal times: completions first (by job id), then arrivals (by job id),
// then one scheduling pass.
#include <chrono>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/metrics/locality.hpp"
#include "allocsim/sim/config.hpp"
#include "allocsim/sim/runtime_model.hpp"

namespace allocsim {

class Scheduler;
class DecisionRecorder;

/// A job that is running: where, since when, and when it will end (actual and estimated).
struct RunningJob {
  int job = 0;           ///< index into jobs()
  double start = 0;
  double end = 0;        ///< actual end (from the runtime model)
  double estimated_end = 0;
  Allocation allocation;
};

/// Hears every placement before it is committed (situation/decision experiment, tracing).
class PlacementObserver {
 public:
  virtual ~PlacementObserver() = default;
  virtual void before_commit(const Job& job, const MachineView& machine,
                             const Allocation& chosen) = 0;
  /// A job ended and `allocation` was released.
  virtual void after_release(const Allocation& /*allocation*/) {}
};

class Simulation {
 public:
  /// Builds machine, allocator, scheduler and runtime model from `config` for `workload`
  /// (already transformed). Throws InputError on bad specs or an unsupported machine.
  Simulation(const RunConfig& config, Workload workload);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Runs to completion and returns the records and summary.
  RunResult run();

  // ---- State for schedulers ----
  double now() const { return now_; }
  const Topology& topology() const { return topology_; }
  const std::vector<Job>& jobs() const { return workload_.jobs; }
  /// Waiting job indices in arrival order.
  const std::vector<int>& waiting() const { return waiting_; }
  /// Running jobs (unordered).
  const std::vector<RunningJob>& running() const { return running_; }
  int free_count() const { return free_count_; }
  const std::vector<char>& busy() const { return busy_; }
  Allocator& allocator() { return *allocator_; }
  const Allocator& allocator() const { return *allocator_; }
  Rng& rng() { return rng_; }
  MachineView view() { return MachineView(topology_, busy_, free_count_, rng_); }

  /// Asks the allocator for `job_index` now; counts external fragmentation when it refuses
  /// although enough nodes are free.
  std::optional<Allocation> try_allocate(int job_index);
  /// Commits `allocation` and starts the job now (removes it from the waiting list).
  void start(int job_index, Allocation allocation);

  void add_observer(PlacementObserver* observer) { observers_.push_back(observer); }

 private:
  void finish(int running_index);
  void check_timeout();
  RunResult summarize();

  RunConfig config_;
  Workload workload_;
  Topology topology_;
  Rng rng_;
  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<RuntimeModel> runtime_model_;
  LocalityMeter meter_;

  double now_ = 0;
  std::vector<char> busy_;
  int free_count_ = 0;
  std::vector<int> waiting_;
  std::vector<RunningJob> running_;
  /// Completion events (end time, job id, job index), earliest first.
  using Completion = std::tuple<double, std::int64_t, int>;
  std::priority_queue<Completion, std::vector<Completion>, std::greater<>> completions_;
  std::vector<JobRecord> records_;
  std::vector<char> fragmentation_seen_;
  std::int64_t external_fragmentation_ = 0;
  std::vector<PlacementObserver*> observers_;
  /// The situation/decision experiment's recorder, when RunConfig::decisions is set.
  std::unique_ptr<DecisionRecorder> decision_recorder_;
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

}  // namespace allocsim
