#pragma once
// Runtime models turn (job, allocation, machine, what else runs) into running time. `fixed` (the
// trace's runtime) is the default; `dispersal` stretches runtime by the allocation's dispersal.
//
// A running job holds its remaining work and its current rate (work per second). At start its
// work is runtime() and its rate 1, so it ends at start + runtime() exactly. The model is asked
// again (rerate()) after every start and after the completions at each time; it sees every
// running job with its allocation and may set any running job's rate, which moves that job's
// end event (network models in which jobs slow each other down). A model that never changes a
// rate keeps every job's end exactly where it was computed at start.
#include <functional>
#include <memory>
#include <span>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/metrics/records.hpp"
#include "allocsim/sched/context.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim {

struct JobTraffic;  // sim/job_mapping.hpp

/// What a runtime model sees, and may change, when the set of running jobs changes.
class RateContext {
 public:
  virtual ~RateContext() = default;
  virtual double now() const = 0;
  virtual const Topology& topology() const = 0;
  virtual const std::vector<Job>& jobs() const = 0;
  /// Running jobs with their allocations (unordered).
  virtual const std::vector<RunningJob>& running() const = 0;
  /// Current rate of a running job (1 until a model changes it).
  virtual double rate(int job_index) const = 0;
  /// Work the running job has left at now(), in seconds at rate 1.
  virtual double remaining_work(int job_index) const = 0;
  /// From now() on the job progresses at `rate` (> 0): its work done so far is accounted at
  /// the old rate and its end event moves to now() + remaining / rate.
  virtual void set_rate(int job_index, double rate) = 0;
  /// The running job ends exactly at `end` (≥ now()): for models that know end times rather
  /// than rates (the message-level network). Its rate becomes remaining / (end − now()).
  /// Setting the end it already has changes nothing.
  virtual void set_end(int job_index, double end) = 0;
  /// A seed for the model's own random draws that depends on the workload only (the run's
  /// workload seed), so every allocator of one replicate sees the same draws.
  virtual std::uint64_t workload_seed() const { return 1; }
  /// The mapped communication of a running job (task graph, placement, per-node-pair bytes,
  /// hop-bytes, link loads; sim/job_mapping.hpp), or nullptr when the run has no pattern or
  /// the job is not running. Mapping happens at start before the model is asked, so a started
  /// job's traffic is there when rerate() hears of it.
  virtual const JobTraffic* traffic(int /*job_index*/) const { return nullptr; }
  /// The run's wall-clock limit, for models whose one re-rating can run long (network
  /// simulations, max-min solves): they poll it in their inner loops (TimeLimitPoll), so a run
  /// given --timeout stops within its limit even inside the model. Null: no limit.
  virtual const TimeLimit* time_limit() const { return nullptr; }
};

/// Why the model is asked: `jobs` (indices) just started, or just ended and were released.
struct RunningChange {
  enum class Kind { started, ended };
  Kind kind = Kind::started;
  std::span<const int> jobs;
};

/// Running-time model of a run; one instance per simulation (it may keep state between calls).
class RuntimeModel {
 public:
  virtual ~RuntimeModel() = default;
  /// Work of `job` placed on `allocation`: its running time at rate 1.
  virtual double runtime(const Job& job, const Allocation& allocation,
                         const Topology& topology) const = 0;
  /// The running set changed; the model may call context.set_rate() for any running job.
  /// Default: every rate stays as it is.
  virtual void rerate(RateContext& /*context*/, const RunningChange& /*change*/) {}
  /// The job's running time alone on a compact allocation, the denominator of its record's
  /// comm_slowdown; asked when the job ends. Default: the trace runtime.
  virtual double alone_runtime(int /*job_index*/, const Job& job) const { return job.runtime; }
  /// The job's alone runtime: its running time under this model alone on its own allocation,
  /// its own traffic only (no other job), the denominator of its record's interference; asked
  /// when the job ends. `work`: what runtime() gave at its start. Default: `work`, the actual
  /// runtime of every model that never changes a rate (fixed, dispersal, distance). A
  /// negative value: not measured (the record's runtime_alone and interference are then 0).
  virtual double own_alone_runtime(int /*job_index*/, const Job& /*job*/, double work) const {
    return work;
  }
  /// Size guard, asked once before the run starts with the machine and the jobs that will run:
  /// throws InputError with an estimate of the memory or work when the model's parameters
  /// would take more than its limit (network models; see check_wormhole_size). Default: none.
  virtual void check_size(const Topology& /*topology*/, std::span<const Job> /*jobs*/) const {}
  /// Adds what the model measured over the run to the summary (e.g. link utilization).
  virtual void summarize(RunSummary& /*summary*/) const {}
};

using RuntimeModelFactory = std::function<std::unique_ptr<RuntimeModel>(const Params&)>;
using RuntimeModelRegistry = Registry<RuntimeModelFactory>;
const RuntimeModelRegistry& runtime_model_registry();

}  // namespace allocsim
