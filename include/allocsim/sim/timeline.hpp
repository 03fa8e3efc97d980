#pragma once
// The machine's state over time, as evalys draws it from a Batsim schedule: utilization (busy
// nodes / machine nodes), queue length and running jobs (`allocsim run --timeline-out`, the
// sweep's /timeline/<id> tables, tools/plot_timeline.py). Collected by an observer.
#include <vector>

#include "allocsim/sim/observer.hpp"
#include "allocsim/sim/timeline_row.hpp"

namespace allocsim {

/// The observer that records a TimelineRow per event time at which busy nodes, queued jobs or
/// running jobs change: the state once every event at that time is done (arrivals, starts,
/// ends and drops at one time give one row; a job that arrives and starts at the same time never
/// shows in the queue). Times at which nothing changes (an end and a start of the same size at
/// once, a scheduling pass that starts nothing) give no row, so each row differs from the one
/// before; the first row is the first time the machine is not empty and idle (the state before
/// it is all zeros).
class TimelineRecorder final : public SimulationObserver {
 public:
  explicit TimelineRecorder(int machine_nodes);

  void on_submit(int job_index, const Job& job, double now) override;
  void on_start(int job_index, const Job& job, double now, const Allocation& allocation) override;
  void on_finish(int job_index, const Job& job, double now, const Allocation& allocation) override;
  void on_drop(int job_index, double now) override;

  /// The rows (after the run), in time order.
  std::vector<TimelineRow> take_rows();

 private:
  /// Writes the current state as the row of `now` (replacing that time's earlier row).
  void record(double now);

  int machine_nodes_;
  TimelineRow state_;
  std::vector<TimelineRow> rows_;
};

}  // namespace allocsim
