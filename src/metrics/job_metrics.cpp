// Per-job records and run summaries; see metrics/job_metrics.hpp.
#include "allocsim/metrics/job_metrics.hpp"

#include <algorithm>
#include <cmath>

#include "allocsim/metrics/span.hpp"

namespace allocsim {

namespace {

double mean_of(const std::vector<JobRecord>& records, double JobRecord::*field,
               bool (*include)(const JobRecord&) = nullptr) {
  double sum = 0;
  std::size_t count = 0;
  for (const auto& record : records)
    if (!include || include(record)) {
      sum += record.*field;
      ++count;
    }
  return count ? sum / static_cast<double>(count) : 0;
}

}  // namespace

JobRecordBuilder::JobRecordBuilder(const Topology& topology, const std::vector<int>* ranks_of_nodes)
    : topology_(&topology), ranks_of_nodes_(ranks_of_nodes), meter_(topology) {}

void JobRecordBuilder::start(JobRecord& record, const Job& job, double start,
                             std::span<const NodeId> nodes, int pieces) {
  record.job_id = job.id;
  record.submit = job.submit;
  record.start = start;
  record.wait = start - job.submit;
  record.procs = job.procs;
  record.estimate = job.estimate;
  record.trace_runtime = job.runtime;
  record.comm_class = static_cast<double>(job.comm_class);
  const auto k = static_cast<double>(nodes.size());
  record.nodes = k;
  record.internal_fragmentation = k - job.procs;
  record.pieces = pieces;
  ranks_.clear();
  if (ranks_of_nodes_)
    for (NodeId node : nodes) ranks_.push_back((*ranks_of_nodes_)[node]);
  else
    ranks_.assign(nodes.begin(), nodes.end());
  record.linear_span = linear_span(ranks_);
  record.stretch = k > 0 ? record.linear_span / k : 0;
  const LocalityMeasures locality = meter_.measure(nodes);
  const double pairs = k * (k - 1) / 2;
  if (k >= 2) record.avg_pairwise_hops = static_cast<double>(locality.pairwise_sum) / pairs;
  if (!locality.grid) {  // a graph machine: router measures; boxes, components, ring span 0
    if (k >= 2) record.router_hops = static_cast<double>(locality.router_hop_sum) / pairs;
    record.routers_spanned = locality.routers;
    record.groups_spanned = locality.groups;
    return;
  }
  record.components = locality.components;
  const BoundingBox& box = locality.box;
  record.bbox_volume = static_cast<double>(box.volume);
  record.bbox_sides = static_cast<double>(box.sides_sum);
  const int size = static_cast<int>(nodes.size());
  record.bbox_ratio = record.bbox_volume / static_cast<double>(meter_.smallest_box(size));
  // Bounding cube: the cube (capped by the machine's sides) around the longest box side.
  const int cube_side =
      box.extents.empty() ? 0 : *std::max_element(box.extents.begin(), box.extents.end());
  double cube = 1;
  for (int side : topology_->sides()) cube *= std::min(cube_side, side);
  record.bounding_cube_ratio = cube / static_cast<double>(meter_.smallest_cube(size));
  record.ring_span = ring_span(ranks_, topology_->node_count());
}

void JobRecordBuilder::finish(JobRecord& record, double end, double delta) {
  record.end = end;
  record.runtime = end - record.start;
  record.bounded_slowdown =
      std::max(record.end - record.submit, delta) / std::max(record.runtime, delta);
  record.bounded_slowdown_trace =
      std::max(record.end - record.submit, delta) / std::max(record.trace_runtime, delta);
}

namespace {

/// Mean, nearest-rank 95th percentile and maximum of interference over the records with a
/// measured alone runtime (interference > 0) and, when `comm_class` ≥ 0, of that class; all 0 when
/// none.
void interference_stats(const std::vector<JobRecord>& records, double comm_class, double& mean,
                        double& p95, double& max) {
  std::vector<double> values;
  for (const auto& r : records)
    if (r.interference > 0 && (comm_class < 0 || r.comm_class == comm_class))
      values.push_back(r.interference);
  if (values.empty()) return;
  double sum = 0;
  for (const double v : values) sum += v;  // record order: the same sum on every run
  std::sort(values.begin(), values.end());
  const auto n = static_cast<double>(values.size());
  mean = sum / n;
  p95 = values[static_cast<std::size_t>(std::ceil(0.95 * n)) - 1];
  max = values.back();
}

}  // namespace

RunSummary summarize_records(const std::vector<JobRecord>& records, int node_count,
                             double offered_load) {
  RunSummary s;
  const double n = static_cast<double>(records.size());
  s.jobs = n;
  if (records.empty()) return s;
  s.first_submit = records.front().submit;
  s.last_end = records.front().end;
  double work = 0, trace_work = 0;
  std::vector<double> waits;
  waits.reserve(records.size());
  for (const auto& r : records) {
    s.first_submit = std::min(s.first_submit, r.submit);
    s.last_end = std::max(s.last_end, r.end);
    work += r.procs * r.runtime;
    trace_work += r.procs * r.trace_runtime;
    waits.push_back(r.wait);
  }
  s.makespan = s.last_end - s.first_submit;
  s.utilization = s.makespan > 0 ? work / (node_count * s.makespan) : 0;
  s.utilization_trace = s.makespan > 0 ? trace_work / (node_count * s.makespan) : 0;
  s.offered_load = offered_load;
  std::sort(waits.begin(), waits.end());
  s.mean_wait = mean_of(records, &JobRecord::wait);
  s.median_wait = waits.size() % 2 ? waits[waits.size() / 2]
                                   : (waits[waits.size() / 2 - 1] + waits[waits.size() / 2]) / 2;
  // p95: nearest rank.
  s.p95_wait = waits[static_cast<std::size_t>(std::ceil(0.95 * n)) - 1];
  s.max_wait = waits.back();
  double response = 0;
  for (const auto& r : records) response += r.end - r.submit;
  s.mean_response = response / n;
  s.mean_bounded_slowdown = mean_of(records, &JobRecord::bounded_slowdown);
  auto multi_node = [](const JobRecord& r) { return r.nodes >= 2; };
  s.mean_pairwise_hops = mean_of(records, &JobRecord::avg_pairwise_hops, multi_node);
  s.mean_components = mean_of(records, &JobRecord::components);
  s.mean_internal_fragmentation = mean_of(records, &JobRecord::internal_fragmentation);
  s.mean_pieces = mean_of(records, &JobRecord::pieces);
  s.mean_bbox_ratio = mean_of(records, &JobRecord::bbox_ratio);
  s.mean_bbox_sides = mean_of(records, &JobRecord::bbox_sides);
  s.mean_bounding_cube_ratio = mean_of(records, &JobRecord::bounding_cube_ratio);
  s.mean_linear_span = mean_of(records, &JobRecord::linear_span);
  s.mean_ring_span = mean_of(records, &JobRecord::ring_span);
  s.mean_stretch = mean_of(records, &JobRecord::stretch);
  s.mean_router_hops = mean_of(records, &JobRecord::router_hops, multi_node);
  s.mean_routers_spanned = mean_of(records, &JobRecord::routers_spanned);
  s.mean_groups_spanned = mean_of(records, &JobRecord::groups_spanned);
  auto communicates = [](const JobRecord& r) { return r.comm_bytes > 0; };
  s.mean_hop_bytes = mean_of(records, &JobRecord::hop_bytes, communicates);
  s.mean_hops_per_byte = mean_of(records, &JobRecord::hops_per_byte, communicates);
  s.mean_max_link_load = mean_of(records, &JobRecord::max_link_load, communicates);
  for (const auto& r : records) s.max_link_load = std::max(s.max_link_load, r.max_link_load);
  s.mean_comm_slowdown = mean_of(records, &JobRecord::comm_slowdown);
  s.mean_bounded_slowdown_trace = mean_of(records, &JobRecord::bounded_slowdown_trace);
  interference_stats(records, -1, s.mean_interference, s.p95_interference, s.max_interference);
  interference_stats(records, static_cast<double>(CommClass::heavy), s.mean_interference_heavy,
                     s.p95_interference_heavy, s.max_interference_heavy);
  interference_stats(records, static_cast<double>(CommClass::light), s.mean_interference_light,
                     s.p95_interference_light, s.max_interference_light);
  return s;
}

}  // namespace allocsim
