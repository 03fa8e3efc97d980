// The machine's state over time as an observer; see sim/timeline.hpp.
#include "allocsim/sim/timeline.hpp"

namespace allocsim {

const std::vector<TimelineColumn>& timeline_columns() {
  static const std::vector<TimelineColumn> columns = {
      {"time", "s", "simulated time of the events after which the row holds (trace clock)"},
      {"busy_nodes", "nodes", "nodes allocated to running jobs"},
      {"utilization", "1", "busy nodes / machine nodes"},
      {"queued_jobs", "jobs", "jobs arrived and neither started nor dropped"},
      {"running_jobs", "jobs", "jobs started and not ended"}};
  return columns;
}

TimelineRecorder::TimelineRecorder(int machine_nodes) : machine_nodes_(machine_nodes) {}

void TimelineRecorder::on_submit(int, const Job&, double now) {
  ++state_.queued_jobs;
  record(now);
}

void TimelineRecorder::on_start(int, const Job&, double now, const Allocation& allocation) {
  --state_.queued_jobs;
  ++state_.running_jobs;
  state_.busy_nodes += static_cast<std::int64_t>(allocation.nodes.size());
  record(now);
}

void TimelineRecorder::on_finish(int, const Job&, double now, const Allocation& allocation) {
  --state_.running_jobs;
  state_.busy_nodes -= static_cast<std::int64_t>(allocation.nodes.size());
  record(now);
}

void TimelineRecorder::on_drop(int, double now) {
  --state_.queued_jobs;
  record(now);
}

void TimelineRecorder::record(double now) {
  state_.time = now;
  state_.utilization =
      machine_nodes_ > 0 ? static_cast<double>(state_.busy_nodes) / machine_nodes_ : 0.0;
  // The rows before the last are final (the clock never goes back): one row per time.
  if (!rows_.empty() && rows_.back().time == now)
    rows_.back() = state_;
  else
    rows_.push_back(state_);
  // A time whose state ends equal to the row before changed nothing: no row.
  const TimelineRow before = rows_.size() > 1 ? rows_[rows_.size() - 2] : TimelineRow{};
  TimelineRow same = state_;
  same.time = before.time;
  if (same == before) rows_.pop_back();
}

std::vector<TimelineRow> TimelineRecorder::take_rows() {
  return std::move(rows_);
}

}  // namespace allocsim
