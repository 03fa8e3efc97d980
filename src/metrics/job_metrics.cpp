// Per-job records and run summaries; see metrics/job_metrics.hpp.
#include "allocsim/metrics/job_metrics.hpp"

#include <algorithm>
#include <cmath>

#include "allocsim/metrics/span.hpp"

namespace allocsim {

namespace {

/// A mean summed in record order (the same sum on every run).
struct Mean {
  double sum = 0;
  std::size_t count = 0;
  void add(double value) {
    sum += value;
    ++count;
  }
  double value() const { return count ? sum / static_cast<double>(count) : 0; }
};

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

/// Mean (summed in record order), nearest-rank 95th percentile and maximum of `values`; all 0
/// when there are none.
void stats_of(std::vector<double>& values, double& mean, double& p95, double& max) {
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
  // One pass over the records (they are large: a pass per column was most of this function's
  // time); every mean still sums its values in record order, so the same bits as one pass each.
  double work = 0, trace_work = 0, response = 0;
  std::vector<double> waits, interference, heavy, light;
  waits.reserve(records.size());
  Mean wait, bounded_slowdown, pairwise_hops, components, internal_fragmentation, pieces,
      bbox_ratio, bbox_sides, bounding_cube_ratio, linear_span, ring_span, stretch, router_hops,
      routers_spanned, groups_spanned, hop_bytes, hops_per_byte, max_link_load, comm_slowdown,
      bounded_slowdown_trace;
  const auto heavy_class = static_cast<double>(CommClass::heavy);
  const auto light_class = static_cast<double>(CommClass::light);
  for (const auto& r : records) {
    s.first_submit = std::min(s.first_submit, r.submit);
    s.last_end = std::max(s.last_end, r.end);
    work += r.procs * r.runtime;
    trace_work += r.procs * r.trace_runtime;
    waits.push_back(r.wait);
    wait.add(r.wait);
    response += r.end - r.submit;
    bounded_slowdown.add(r.bounded_slowdown);
    if (r.nodes >= 2) pairwise_hops.add(r.avg_pairwise_hops);
    components.add(r.components);
    internal_fragmentation.add(r.internal_fragmentation);
    pieces.add(r.pieces);
    bbox_ratio.add(r.bbox_ratio);
    bbox_sides.add(r.bbox_sides);
    bounding_cube_ratio.add(r.bounding_cube_ratio);
    linear_span.add(r.linear_span);
    ring_span.add(r.ring_span);
    stretch.add(r.stretch);
    if (r.nodes >= 2) router_hops.add(r.router_hops);
    routers_spanned.add(r.routers_spanned);
    groups_spanned.add(r.groups_spanned);
    if (r.comm_bytes > 0) {
      hop_bytes.add(r.hop_bytes);
      hops_per_byte.add(r.hops_per_byte);
      max_link_load.add(r.max_link_load);
    }
    s.max_link_load = std::max(s.max_link_load, r.max_link_load);
    comm_slowdown.add(r.comm_slowdown);
    bounded_slowdown_trace.add(r.bounded_slowdown_trace);
    // Interference over the records with a measured alone runtime, and per class.
    if (r.interference > 0) {
      interference.push_back(r.interference);
      if (r.comm_class == heavy_class) heavy.push_back(r.interference);
      if (r.comm_class == light_class) light.push_back(r.interference);
    }
  }
  s.makespan = s.last_end - s.first_submit;
  s.utilization = s.makespan > 0 ? work / (node_count * s.makespan) : 0;
  s.utilization_trace = s.makespan > 0 ? trace_work / (node_count * s.makespan) : 0;
  s.offered_load = offered_load;
  std::sort(waits.begin(), waits.end());
  s.mean_wait = wait.value();
  s.median_wait = waits.size() % 2 ? waits[waits.size() / 2]
                                   : (waits[waits.size() / 2 - 1] + waits[waits.size() / 2]) / 2;
  // p95: nearest rank.
  s.p95_wait = waits[static_cast<std::size_t>(std::ceil(0.95 * n)) - 1];
  s.max_wait = waits.back();
  s.mean_response = response / n;
  s.mean_bounded_slowdown = bounded_slowdown.value();
  s.mean_pairwise_hops = pairwise_hops.value();
  s.mean_components = components.value();
  s.mean_internal_fragmentation = internal_fragmentation.value();
  s.mean_pieces = pieces.value();
  s.mean_bbox_ratio = bbox_ratio.value();
  s.mean_bbox_sides = bbox_sides.value();
  s.mean_bounding_cube_ratio = bounding_cube_ratio.value();
  s.mean_linear_span = linear_span.value();
  s.mean_ring_span = ring_span.value();
  s.mean_stretch = stretch.value();
  s.mean_router_hops = router_hops.value();
  s.mean_routers_spanned = routers_spanned.value();
  s.mean_groups_spanned = groups_spanned.value();
  s.mean_hop_bytes = hop_bytes.value();
  s.mean_hops_per_byte = hops_per_byte.value();
  s.mean_max_link_load = max_link_load.value();
  s.mean_comm_slowdown = comm_slowdown.value();
  s.mean_bounded_slowdown_trace = bounded_slowdown_trace.value();
  stats_of(interference, s.mean_interference, s.p95_interference, s.max_interference);
  stats_of(heavy, s.mean_interference_heavy, s.p95_interference_heavy, s.max_interference_heavy);
  stats_of(light, s.mean_interference_light, s.p95_interference_light, s.max_interference_light);
  return s;
}

}  // namespace allocsim
