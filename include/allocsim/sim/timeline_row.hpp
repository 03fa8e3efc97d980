#pragma once
// One row of a run's timeline (sim/timeline.hpp records them; RunResult carries them).
#include <cstdint>
#include <vector>

namespace allocsim {

/// The state after every event at one time (a step function: it holds until the next row).
struct TimelineRow {
  double time = 0;                ///< simulated seconds (the trace's clock)
  std::int64_t busy_nodes = 0;    ///< nodes allocated to running jobs
  double utilization = 0;         ///< busy_nodes / machine nodes
  std::int64_t queued_jobs = 0;   ///< arrived, neither started nor dropped
  std::int64_t running_jobs = 0;  ///< started, not ended
  bool operator==(const TimelineRow&) const = default;
};

/// A timeline column (`run --timeline-out` CSV, the sweep's /timeline/<id> tables): name, unit
/// and description, in TimelineRow's member order.
struct TimelineColumn {
  const char* name;
  const char* unit;
  const char* description;
};
const std::vector<TimelineColumn>& timeline_columns();

}  // namespace allocsim
