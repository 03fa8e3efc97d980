#pragma once
// What a scheduler sees of the simulation: the clock, the jobs, the queue, the running jobs
// with their estimated ends and allocations, the machine's busy map, and the allocator (for
// nodes_needed / contiguous_only / clone). The Simulation implements it; scheduler tests use a
// small hand-written fake. Nothing here depends on sim/.
#include <optional>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim {

/// A running job as schedulers see it: where it runs, since when, and when its user estimate
/// says it ends. Its actual end is the runtime model's business and may move while it runs.
struct RunningJob {
  int job = 0;  ///< index into SchedulerContext::jobs()
  double start = 0;
  double estimated_end = 0;  ///< start + the job's estimate
  Allocation allocation;
};

/// The narrow interface a scheduling pass works on. It is the run's TimeLimit too: the planner
/// hands it to the allocators it asks, whose searches poll it.
class SchedulerContext : public TimeLimit {
 public:
  ~SchedulerContext() override = default;

  /// Current simulated time.
  virtual double now() const = 0;
  virtual const Topology& topology() const = 0;
  /// Every job of the run; job indices below refer to this vector.
  virtual const std::vector<Job>& jobs() const = 0;
  /// Waiting job indices in arrival order.
  virtual const std::vector<int>& waiting() const = 0;
  /// Running jobs (unordered).
  virtual const std::vector<RunningJob>& running() const = 0;
  virtual int free_count() const = 0;
  /// One entry per node, nonzero when busy.
  virtual const std::vector<char>& busy() const = 0;
  /// The run's allocator, read-only (nodes_needed, contiguous_only, clone for look-ahead).
  virtual const Allocator& allocator() const = 0;

  /// Nodes the job occupies if placed (the allocator's nodes_needed).
  int nodes_needed(int job_index) const { return allocator().nodes_needed(jobs()[job_index]); }
  /// Asks the allocator where `job_index` would go now (nothing is committed).
  virtual std::optional<Allocation> try_allocate(int job_index) = 0;
  /// Where `job_index` would go now if the nodes flagged in `excluded` (one entry per node) were
  /// busy too: Slurm's backfill starts a job only on nodes that no reservation of a
  /// higher-priority job holds while it runs. nullopt when the allocator refuses, or answers
  /// with an excluded node (a stateful allocator may read its own state, not the view). Counts
  /// no refusal. The default asks with a scratch generator; the Simulation with its own.
  virtual std::optional<Allocation> try_allocate_excluding(int job_index,
                                                           const std::vector<char>& excluded) {
    Rng scratch(1);
    return allocate_excluding(job_index, excluded, scratch);
  }
  /// The scheduler knows, without asking, that try_allocate(job_index) would refuse now (an
  /// identical request, same allocator request_key, was refused on the unchanged machine):
  /// does whatever a refused try_allocate does besides answering (the simulation counts
  /// external fragmentation). The default asks.
  virtual void note_refusal(int job_index) { try_allocate(job_index); }
  /// Commits `allocation` and starts the job now (removes it from the waiting list).
  virtual void start(int job_index, Allocation allocation) = 0;
  /// Asks for a scheduling pass at `time` even if no job arrives or ends then (conservative
  /// backfilling: a reservation's start). Times not after now are ignored. The default (test
  /// fakes) ignores every request.
  virtual void request_pass(double /*time*/) {}
  /// Throws TimeoutError when the run's wall-clock budget is spent (checked in every loop that
  /// can run long). Schedulers and the planner call it once per
  /// job or release they look at; the default (test fakes) never throws.
  void check_time_limit() const override {}

 protected:
  /// try_allocate_excluding on busy() with the excluded nodes made busy, drawing from `rng`.
  std::optional<Allocation> allocate_excluding(int job_index, const std::vector<char>& excluded,
                                               Rng& rng) {
    std::vector<char> busy = this->busy();
    int free = free_count();
    for (std::size_t node = 0; node < busy.size(); ++node) {
      if (excluded[node] && !busy[node]) {
        busy[node] = 1;
        --free;
      }
    }
    if (free < nodes_needed(job_index)) return std::nullopt;
    const MachineView view(topology(), busy, free, rng, this, now());
    auto allocation = allocator().allocate(jobs()[job_index], view);
    if (allocation) {
      for (NodeId node : allocation->nodes)
        if (busy[node]) return std::nullopt;
    }
    return allocation;
  }
};

}  // namespace allocsim
