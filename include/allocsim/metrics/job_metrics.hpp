#pragma once
// Per-job records and the run summary computed from them (design sketch: observers record
// metrics). The simulation's job recorder (sim/job_recorder.hpp) feeds these functions from
// its start and finish hooks; they depend only on the job, its nodes and the topology.
#include <span>
#include <vector>

#include "allocsim/metrics/locality.hpp"
#include "allocsim/metrics/records.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim {

/// Builds JobRecords on one machine, reusing its scratch space across jobs.
class JobRecordBuilder {
 public:
  /// `ranks_of_nodes`: each node's rank in the allocator's linear order (span metrics), or
  /// null, in which case ranks are node ids (row-major order). Must outlive the builder.
  JobRecordBuilder(const Topology& topology, const std::vector<int>* ranks_of_nodes);

  /// Fields known at start: id, times so far, sizes, and the locality of `nodes` (pairwise
  /// hops, components, bounding box and cube ratios, linear/ring span in the allocator's
  /// order, stretch). `pieces` is the allocator's count of contiguous blocks.
  void start(JobRecord& record, const Job& job, double start, std::span<const NodeId> nodes,
             int pieces);
  /// Fields final only at completion: end, runtime, bounded slowdown with threshold `delta`
  /// (against the actual runtime, and bounded_slowdown_trace against the trace runtime).
  static void finish(JobRecord& record, double end, double delta);

 private:
  const Topology* topology_;
  const std::vector<int>* ranks_of_nodes_;
  LocalityMeter meter_;
  std::vector<int> ranks_;  // scratch
};

/// Summary of a run's completed-job records on a machine of `node_count` nodes: makespan,
/// utilization, waits (mean, median, nearest-rank p95, max), response, bounded slowdown and
/// the means of the locality and mapped-communication fields; utilization and bounded slowdown
/// on trace runtimes too; interference (mean, nearest-rank p95, max) over the records whose
/// alone runtime was measured (interference > 0), overall and per communication class.
/// `offered_load` is stored as given when there are records. External fragmentation and allocator
/// fallbacks are left for the caller.
RunSummary summarize_records(const std::vector<JobRecord>& records, int node_count,
                             double offered_load);

}  // namespace allocsim
