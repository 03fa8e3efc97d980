#pragma once
// Look-ahead for backfilling: "when is the earliest time this job could start?" (design sketch).
// For allocators that only need a processor count this is a free-count profile over the
// running jobs' estimated ends. For shape-constrained allocators (contiguous_only) the planner
// copies the machine and allocator state and replays the estimated releases until the job fits.
// A running job that has outrun its estimate is assumed to end now; passes recompute the plan
// at every event, so the reservation simply moves forward while such a job keeps running.
// A time-dependent allocator (Allocator::wake_up, Slurm's --switches wait) is asked at the time
// of each replayed state, and also at its wake-up time, where it may accept the job on a state
// where it refused it before.
#include <limits>
#include <memory>
#include <optional>

#include "allocsim/sched/context.hpp"

namespace allocsim {

/// The head job's reservation: when it can start and, for count-only allocators, how many
/// nodes are left over at that time for jobs that run past it.
struct Reservation {
  double start = std::numeric_limits<double>::infinity();
  int spare_nodes = 0;
};

class Planner {
 public:
  explicit Planner(const SchedulerContext& context);

  /// Earliest start of `job_index` given only the running jobs.
  Reservation reserve(int job_index) const;
  /// Necessary condition of keeps_reservation() that needs no allocation: lets the scheduler
  /// skip asking a costly allocator about a job that could not be backfilled anyway.
  bool may_keep_reservation(const Reservation& reservation, int candidate) const;
  /// True if starting `candidate` now with `allocation` keeps `head`'s reservation.
  bool keeps_reservation(int head, const Reservation& reservation, int candidate,
                         const Allocation& allocation) const;
  /// Running-job release times (estimated end, clamped to now), ascending.
  const std::vector<std::pair<double, int>>& releases() const { return releases_; }

 private:
  /// Copy of machine + allocator with the given extra allocation committed and every running
  /// job whose release is <= `until` released; then asks whether `job` fits.
  bool fits_after_releases(int job, double until, const Allocation* extra) const;

  /// A copy of the machine's busy map and the allocator (optionally with one extra allocation
  /// committed) to which running jobs' releases are applied one by one.
  class Replay {
   public:
    Replay(const Planner& planner, const Allocation* extra);
    /// Applies the release of running job `running_index` (index into running()).
    void release(int running_index);
    /// Whether the allocator places `job` on the replayed state (a scratch generator) at
    /// simulated time `time` (MachineView::now: time-dependent allocators read it).
    bool fits(int job, double time) const;

   private:
    const Planner* planner_;
    std::vector<char> busy_;
    int free_;
    std::unique_ptr<Allocator> allocator_;
  };

  const SchedulerContext* context_;
  // Fixed during one pass; held here so the backfilling loop does not ask the context.
  const std::vector<Job>* jobs_;
  const Allocator* allocator_;
  double now_;
  bool shaped_;
  std::vector<std::pair<double, int>> releases_;  // (release time, index into running())
};

}  // namespace allocsim
