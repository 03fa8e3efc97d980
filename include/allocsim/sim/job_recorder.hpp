#pragma once
// The observer that keeps one JobRecord per job (metrics/job_metrics.hpp does the arithmetic).
#include <vector>

#include "allocsim/metrics/job_metrics.hpp"
#include "allocsim/sim/observer.hpp"

namespace allocsim {

class RuntimeModel;

/// Per-job records of one simulation, filled at start and completed at finish.
class JobRecorder final : public SimulationObserver {
 public:
  /// `ranks_of_nodes` as in JobRecordBuilder (the allocator's linear order, or null);
  /// `bsd_threshold` is bounded slowdown's threshold; `record_nodes`: also keep each job's
  /// node ids (JobRecord::allocated_nodes), for runs that keep their records.
  JobRecorder(const Topology& topology, const std::vector<int>* ranks_of_nodes,
              std::size_t job_count, double bsd_threshold, bool record_nodes = false);

  void on_start(int job_index, const Job& job, double now, const Allocation& allocation) override;
  void on_finish(int job_index, const Job& job, double now, const Allocation& allocation) override;
  void on_drop(int job_index, double) override { dropped_[job_index] = 1; }

  /// The runtime model whose alone_runtime() divides comm_slowdown (default: trace runtime).
  void set_runtime_model(const RuntimeModel* model) { runtime_model_ = model; }

  /// The job's work at its start (RuntimeModel::runtime()), handed to the model's
  /// own_alone_runtime() at its finish (the simulation calls this at every start).
  void set_start_work(int job_index, double work) { records_[job_index].runtime_alone = work; }

  /// The record of a started job (other observers, e.g. JobMappingObserver, add fields).
  JobRecord& record(int job_index) { return records_[job_index]; }

  /// The records of the jobs that ran, in job index order (dropped jobs left out).
  std::vector<JobRecord> take_records();

 private:
  JobRecordBuilder builder_;
  double bsd_threshold_;
  bool record_nodes_;
  std::vector<JobRecord> records_;
  std::vector<char> dropped_;
  const RuntimeModel* runtime_model_ = nullptr;
};

}  // namespace allocsim
