#include "allocsim/metrics/records.hpp"

namespace allocsim {

const std::vector<Column<JobRecord>>& job_columns() {
  static const std::vector<Column<JobRecord>> columns{
      {"submit", &JobRecord::submit},
      {"start", &JobRecord::start},
      {"end", &JobRecord::end},
      {"wait", &JobRecord::wait},
      {"procs", &JobRecord::procs},
      {"runtime", &JobRecord::runtime},
      {"estimate", &JobRecord::estimate},
      {"bounded_slowdown", &JobRecord::bounded_slowdown},
      {"avg_pairwise_hops", &JobRecord::avg_pairwise_hops},
      {"components", &JobRecord::components},
      {"nodes", &JobRecord::nodes},
      {"internal_fragmentation", &JobRecord::internal_fragmentation},
      {"pieces", &JobRecord::pieces},
      {"bbox_volume", &JobRecord::bbox_volume},
      {"bbox_ratio", &JobRecord::bbox_ratio},
      {"bbox_sides", &JobRecord::bbox_sides},
      {"bounding_cube_ratio", &JobRecord::bounding_cube_ratio},
      {"linear_span", &JobRecord::linear_span},
      {"ring_span", &JobRecord::ring_span},
      {"stretch", &JobRecord::stretch},
      {"comm_bytes", &JobRecord::comm_bytes},
      {"hop_bytes", &JobRecord::hop_bytes},
      {"hops_per_byte", &JobRecord::hops_per_byte},
      {"max_link_load", &JobRecord::max_link_load},
      {"comm_slowdown", &JobRecord::comm_slowdown},
  };
  return columns;
}

const std::vector<Column<RunSummary>>& summary_columns() {
  static const std::vector<Column<RunSummary>> columns{
      {"jobs", &RunSummary::jobs},
      {"makespan", &RunSummary::makespan},
      {"utilization", &RunSummary::utilization},
      {"offered_load", &RunSummary::offered_load},
      {"mean_wait", &RunSummary::mean_wait},
      {"median_wait", &RunSummary::median_wait},
      {"p95_wait", &RunSummary::p95_wait},
      {"max_wait", &RunSummary::max_wait},
      {"mean_response", &RunSummary::mean_response},
      {"mean_bounded_slowdown", &RunSummary::mean_bounded_slowdown},
      {"mean_pairwise_hops", &RunSummary::mean_pairwise_hops},
      {"mean_components", &RunSummary::mean_components},
      {"external_fragmentation", &RunSummary::external_fragmentation},
      {"mean_internal_fragmentation", &RunSummary::mean_internal_fragmentation},
      {"mean_pieces", &RunSummary::mean_pieces},
      {"mean_bbox_ratio", &RunSummary::mean_bbox_ratio},
      {"mean_bbox_sides", &RunSummary::mean_bbox_sides},
      {"mean_bounding_cube_ratio", &RunSummary::mean_bounding_cube_ratio},
      {"mean_linear_span", &RunSummary::mean_linear_span},
      {"mean_ring_span", &RunSummary::mean_ring_span},
      {"mean_stretch", &RunSummary::mean_stretch},
      {"allocator_fallbacks", &RunSummary::allocator_fallbacks},
      {"first_submit", &RunSummary::first_submit},
      {"last_end", &RunSummary::last_end},
      {"mean_hop_bytes", &RunSummary::mean_hop_bytes},
      {"mean_hops_per_byte", &RunSummary::mean_hops_per_byte},
      {"mean_max_link_load", &RunSummary::mean_max_link_load},
      {"max_link_load", &RunSummary::max_link_load},
      {"mean_comm_slowdown", &RunSummary::mean_comm_slowdown},
      {"mean_link_utilization", &RunSummary::mean_link_utilization},
      {"max_link_utilization", &RunSummary::max_link_utilization},
      {"mean_message_latency", &RunSummary::mean_message_latency},
      {"mean_message_blocking", &RunSummary::mean_message_blocking},
      {"failed_messages", &RunSummary::failed_messages},
  };
  return columns;
}

}  // namespace allocsim
