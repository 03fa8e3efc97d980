#pragma once
// The allocator interface (design sketch: "Interfaces worth getting right early").
//
// allocate() is a const choice: it changes no allocator state, and an allocator that draws
// nothing from the generator gives the same answer however often it is asked in the same state
// (schedulers ask freely: EASY's look-ahead, the idle check, decision experiments). An allocator
// that draws (`random`) draws on every call, so a repeated question gets a fresh answer and
// moves the generator: runs stay deterministic because schedulers ask in a deterministic order,
// but asking once more (a new look-ahead) changes later draws. request_key() is unset for such
// allocators, so that schedulers never reuse one of their answers. The Simulation commits the
// answer it takes; stateful allocators (buddy systems, busy lists, subtorus sets) follow the
// machine through commit() and release(). An allocator may memoise answers only in an explicitly
// `mutable`, documented, bounded cache whose key captures everything the answer depends on (never
// answers that depend on rng draws). Anything counted for the results (fallbacks()) is counted in
// commit(), from what allocate() recorded in the Allocation.
//
// The registry (src/alloc/registry.cpp) is one table: each family appends its rows (name, help,
// parameters, factory) from its own file; make_allocator() resolves `name:key=value,...`.
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/registry.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/util/time_limit.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim {

/// Read-only view of which processors are free, plus the generator for seeded choices, the
/// run's time limit (null: none), which searches that can run long poll (TimeLimitPoll), and the
/// simulated time of the question (now()).
class MachineView {
 public:
  MachineView(const Topology& topology, const std::vector<char>& busy, int free_count, Rng& rng,
              const TimeLimit* time_limit = nullptr, double now = NAN)
      : topology_(&topology),
        busy_(&busy),
        free_count_(free_count),
        rng_(&rng),
        time_limit_(time_limit),
        now_(now) {}

  const Topology& topology() const { return *topology_; }
  bool is_free(NodeId node) const { return !(*busy_)[node]; }
  /// The busy flag of every node (non-zero = busy), indexed by node id.
  const std::vector<char>& busy() const { return *busy_; }
  int free_count() const { return free_count_; }
  int node_count() const { return topology_->node_count(); }
  /// Free node ids in increasing order.
  std::vector<NodeId> free_nodes() const;
  Rng& rng() const { return *rng_; }
  /// The run's time limit, or null. Its check_time_limit() throws TimeoutError.
  const TimeLimit* time_limit() const { return time_limit_; }
  /// The simulated time at which the job would start with this answer: the Simulation's clock,
  /// or, in the backfilling planner's look-ahead, the future time it replays the machine to.
  /// NaN when the caller has none (unit tests, benchmarks); only time-dependent allocators
  /// (Allocator::wake_up) read it, and treat NaN as "no time limit applies".
  double now() const { return now_; }

 private:
  const Topology* topology_;
  const std::vector<char>* busy_;
  int free_count_;
  Rng* rng_;
  const TimeLimit* time_limit_;
  double now_;
};

/// What an allocator hands a job. `nodes` are all nodes made busy (may exceed the job's
/// processors for block-based allocators: the excess is internal fragmentation).
struct Allocation {
  std::vector<NodeId> nodes;
  int pieces = 1;  ///< contiguous blocks used (non-contiguous allocators)
  /// Set by allocate() when the allocator gave up on its own method and answered with its
  /// fallback (budgeted greedy-optimal / PTAS); commit() of such an allocation counts it.
  bool used_fallback = false;
  /// Allocator-specific token returned on release (block id, semitorus id ...), -1 if unused.
  std::int64_t token = -1;
};

/// Chooses processors for a job. Implementations cite the paper section they implement.
class Allocator {
 public:
  virtual ~Allocator() = default;
  /// The processors `job` would get on `machine` now, or nullopt ("not now"). A pure choice: it
  /// may draw from machine.rng() and fill a mutable cache, nothing else.
  virtual std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const = 0;
  /// The simulation committed `allocation` (made its nodes busy). Allocations are committed to
  /// the allocator that chose them (or, in decision experiments, to allocators that follow
  /// another allocator's placements).
  virtual void commit(const Allocation& /*allocation*/) {}
  /// The job holding `allocation` ended; its nodes are free again.
  virtual void release(const Allocation& /*allocation*/) {}
  /// Nodes this job occupies if placed (e.g. rounded up to a power of two or a buddy block).
  virtual int nodes_needed(const Job& job) const { return job.procs; }
  /// True when allocate() may refuse although nodes_needed() nodes are free (shape constraints).
  virtual bool contiguous_only() const { return false; }
  /// True when allocate() answers, whenever nodes_needed(job) nodes are free, with the
  /// nodes_needed(job) lowest free ids (`flat`), drawing nothing and whatever its state: a
  /// scheduler asking about a hypothetical free set may then take those ids itself.
  virtual bool takes_lowest_free_ids() const { return false; }
  /// Committed allocations for which the allocator had given up on its own method and used a
  /// fallback (Allocation::used_fallback; budgeted exact and PTAS allocators); reported as the
  /// run's allocator_fallbacks. Questions that were asked but not committed do not count. (An
  /// allocator following another's placements, as in decision experiments, counts the flags of
  /// the allocations it is given; only the simulation's own allocator's count is reported.)
  virtual std::int64_t fallbacks() const { return 0; }
  /// For allocators that work along a linear order of the processors: each node's rank in that
  /// order (span metrics are measured in it). Null when the allocator has no such order.
  virtual const std::vector<int>* linear_ranks() const { return nullptr; }
  /// A deep copy with the same state (for backfilling look-ahead and decision experiments).
  virtual std::unique_ptr<Allocator> clone() const = 0;
  /// Optional request key: when set, allocate() draws nothing from the generator and its answer
  /// (the Allocation itself) depends on the job only through this key, so two jobs with the
  /// same key get the same answer on an unchanged machine and allocator state. Schedulers use
  /// it to ask once per key and state (e.g. the subtorus allocator: log2 of the request).
  /// nodes_needed() must depend on the job only through the key too.
  virtual std::optional<std::uint64_t> request_key(const Job& /*job*/) const {
    return std::nullopt;
  }
  /// Time-dependent allocators (Slurm's `--switches=N@T`, alloc/slurm_select.hpp): a time after
  /// which allocate() may accept `job` on a machine where it refuses it before (it reads
  /// MachineView::now()); nullopt for allocators whose answer does not depend on the time. The
  /// Simulation runs a scheduling pass at that time, does not drop a job refused on an idle
  /// machine before it, and the backfilling planner tries the job there too. Such allocators
  /// also answer true to contiguous_only() (they may refuse although enough nodes are free).
  virtual std::optional<double> wake_up(const Job& /*job*/) const { return std::nullopt; }
};

/// Builds an allocator for a machine; throws InputError when the machine is not supported.
using AllocatorFactory = std::function<std::unique_ptr<Allocator>(const Params&, const Topology&)>;
using AllocatorRegistry = Registry<AllocatorFactory>;

/// The table of allocators (src/alloc/registry.cpp).
const AllocatorRegistry& allocator_registry();
/// Resolves `name:key=value,...` and builds it for `topology`.
std::unique_ptr<Allocator> make_allocator(const std::string& spec, const Topology& topology);

/// Helper for copyable allocators: clone() by copy construction.
template <class Derived>
class CloneableAllocator : public Allocator {
 public:
  std::unique_ptr<Allocator> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

}  // namespace allocsim
