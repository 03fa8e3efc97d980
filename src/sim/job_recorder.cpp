// Per-job records as an observer; see sim/job_recorder.hpp.
#include "allocsim/sim/job_recorder.hpp"

#include <utility>

#include "allocsim/sim/runtime_model.hpp"

namespace allocsim {

JobRecorder::JobRecorder(const Topology& topology, const std::vector<int>* ranks_of_nodes,
                         std::size_t job_count, double bsd_threshold, bool record_nodes)
    : builder_(topology, ranks_of_nodes),
      bsd_threshold_(bsd_threshold),
      record_nodes_(record_nodes),
      records_(job_count),
      dropped_(job_count, 0) {}

void JobRecorder::on_start(int job_index, const Job& job, double now,
                           const Allocation& allocation) {
  builder_.start(records_[job_index], job, now, allocation.nodes, allocation.pieces);
  if (record_nodes_)
    records_[job_index].allocated_nodes =
        node_interval_set({allocation.nodes.begin(), allocation.nodes.end()});
}

void JobRecorder::on_finish(int job_index, const Job& job, double now, const Allocation&) {
  JobRecord& record = records_[job_index];
  JobRecordBuilder::finish(record, now, bsd_threshold_);
  const double alone = runtime_model_ ? runtime_model_->alone_runtime(job_index, job) : job.runtime;
  record.comm_slowdown = alone > 0 ? record.runtime / alone : 1;
  // runtime_alone holds the work at start until now (set_start_work).
  const double work = record.runtime_alone;
  const double own =
      runtime_model_ ? runtime_model_->own_alone_runtime(job_index, job, work) : work;
  if (own < 0) {  // not measured by the model
    record.runtime_alone = 0;
    record.interference = 0;
  } else {
    record.runtime_alone = own;
    // A job of no work alone ends at its start with others too: nobody slowed it.
    record.interference = own > 0 ? record.runtime / own : 1;
  }
}

std::vector<JobRecord> JobRecorder::take_records() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    if (dropped_[i]) continue;
    if (kept != i) records_[kept] = std::move(records_[i]);  // (records are large: no self-copies)
    ++kept;
  }
  records_.resize(kept);
  dropped_.clear();
  return std::move(records_);
}

}  // namespace allocsim
