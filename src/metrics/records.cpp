#include "allocsim/metrics/records.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "allocsim/topo/hostlist.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

const std::vector<Column<JobRecord>>& job_columns() {
  static const std::vector<Column<JobRecord>> columns{
      {"submit", &JobRecord::submit, "s", "submit time, as in the trace (after transforms)"},
      {"start", &JobRecord::start, "s", "start time"},
      {"end", &JobRecord::end, "s",
       "end time: start + actual runtime (under the runtime model, with all jobs)"},
      {"wait", &JobRecord::wait, "s",
       "start - submit (set by the actual runtimes of the jobs before it)"},
      {"procs", &JobRecord::procs, "processors", "processors requested"},
      {"runtime", &JobRecord::runtime, "s",
       "actual runtime: end - start, under the runtime model with all jobs running"},
      {"estimate", &JobRecord::estimate, "s",
       "user runtime estimate used by backfilling (from the trace; none of the three runtimes)"},
      {"bounded_slowdown", &JobRecord::bounded_slowdown, "1",
       "max(response, threshold) / max(actual runtime, threshold), response = end - submit: "
       "divided by the stretched runtime, it shows queueing only (see bounded_slowdown_trace)"},
      {"avg_pairwise_hops", &JobRecord::avg_pairwise_hops, "hops",
       "mean hop distance over pairs of the job's nodes (graph machines: links of a minimal "
       "route, injection and ejection included)"},
      {"components", &JobRecord::components, "1",
       "connected components of the job's nodes (grids and flat only; 0 on graph machines)"},
      {"nodes", &JobRecord::nodes, "nodes", "nodes made busy (>= procs for block allocators)"},
      {"internal_fragmentation", &JobRecord::internal_fragmentation, "nodes", "nodes - procs"},
      {"pieces", &JobRecord::pieces, "1", "contiguous blocks the allocator used"},
      {"bbox_volume", &JobRecord::bbox_volume, "nodes",
       "volume of the bounding box of the job's nodes (grids and flat only; 0 on graph "
       "machines)"},
      {"bbox_ratio", &JobRecord::bbox_ratio, "1",
       "bounding box volume / smallest box holding the job (grids and flat only; 0 on graph "
       "machines)"},
      {"bbox_sides", &JobRecord::bbox_sides, "nodes",
       "sum of the bounding box's sides (grids and flat only; 0 on graph machines)"},
      {"bounding_cube_ratio", &JobRecord::bounding_cube_ratio, "1",
       "bounding cube volume / smallest cube holding the job (grids and flat only; 0 on graph "
       "machines)"},
      {"linear_span", &JobRecord::linear_span, "ranks",
       "max - min + 1 of the nodes' ranks in the allocator's order"},
      {"ring_span", &JobRecord::ring_span, "ranks",
       "shortest arc holding the nodes' ranks on the ring of that order (grids and flat only; "
       "0 on graph machines)"},
      {"stretch", &JobRecord::stretch, "1", "linear span / nodes"},
      {"router_hops", &JobRecord::router_hops, "hops",
       "mean router-to-router links on a minimal route over pairs of the job's nodes (graph "
       "machines only; 0 on grids)"},
      {"routers_spanned", &JobRecord::routers_spanned, "routers",
       "routers or leaf switches the job's nodes attach to (graph machines only; 0 on grids)"},
      {"groups_spanned", &JobRecord::groups_spanned, "groups",
       "groups the job's nodes are in: dragonfly groups, fat-tree pods, Slurm switch groups "
       "(graph machines only; 0 on grids)"},
      {"comm_bytes", &JobRecord::comm_bytes, "bytes",
       "bytes per iteration of the job's mapped pattern (0 without)"},
      {"hop_bytes", &JobRecord::hop_bytes, "byte hops", "sum over messages of bytes x hops"},
      {"hops_per_byte", &JobRecord::hops_per_byte, "hops", "hop-bytes / bytes"},
      {"max_link_load", &JobRecord::max_link_load, "bytes",
       "most bytes on one directed link (dimension-ordered routes)"},
      {"comm_slowdown", &JobRecord::comm_slowdown, "1",
       "actual runtime / alone-compact runtime (alone on the reference compact allocation: the "
       "trace runtime under fixed, dispersal, distance and flow; 1 under fixed)"},
      {"trace_runtime", &JobRecord::trace_runtime, "s",
       "trace runtime: the job's runtime in the trace (after transforms)"},
      {"runtime_alone", &JobRecord::runtime_alone, "s",
       "alone runtime: the job under the runtime model alone on its own allocation, its own "
       "traffic only (0 where not measured: wormhole)"},
      {"interference", &JobRecord::interference, "1",
       "actual runtime / alone runtime: the slowdown other jobs' traffic causes the job (0 "
       "where the alone runtime is not measured)"},
      {"bounded_slowdown_trace", &JobRecord::bounded_slowdown_trace, "1",
       "max(response, threshold) / max(trace runtime, threshold), response = end - submit with "
       "the actual runtime: counts the communication stretch as slowdown"},
      {"comm_class", &JobRecord::comm_class, "1",
       "communication class from the comm_classes transform: 0 none, 1 light, 2 heavy"},
  };
  return columns;
}

const std::vector<Column<RunSummary>>& summary_columns() {
  static const std::vector<Column<RunSummary>> columns{
      {"jobs", &RunSummary::jobs, "jobs", "completed jobs"},
      {"makespan", &RunSummary::makespan, "s",
       "last end - first submit (ends from actual runtimes)"},
      {"utilization", &RunSummary::utilization, "1",
       "sum procs x actual runtime / (nodes x makespan): counts communication-inflated time "
       "as work (see utilization_trace)"},
      {"offered_load", &RunSummary::offered_load, "1",
       "sum procs x trace runtime / (nodes x span of submit times)"},
      {"mean_wait", &RunSummary::mean_wait, "s", "mean wait (waits set by actual runtimes)"},
      {"median_wait", &RunSummary::median_wait, "s", "median wait"},
      {"p95_wait", &RunSummary::p95_wait, "s", "95th percentile wait (nearest rank)"},
      {"max_wait", &RunSummary::max_wait, "s", "longest wait"},
      {"mean_response", &RunSummary::mean_response, "s",
       "mean of end - submit (ends from actual runtimes)"},
      {"mean_bounded_slowdown", &RunSummary::mean_bounded_slowdown, "1",
       "mean bounded slowdown, divided by actual runtimes (queueing only)"},
      {"mean_pairwise_hops", &RunSummary::mean_pairwise_hops, "hops",
       "mean of avg_pairwise_hops over jobs of two or more nodes"},
      {"mean_components", &RunSummary::mean_components, "1",
       "mean connected components per job (grids and flat only; 0 on graph machines)"},
      {"external_fragmentation", &RunSummary::external_fragmentation, "jobs",
       "jobs that waited while enough processors were free"},
      {"mean_internal_fragmentation", &RunSummary::mean_internal_fragmentation, "nodes",
       "mean nodes - procs"},
      {"mean_pieces", &RunSummary::mean_pieces, "1", "mean contiguous blocks per job"},
      {"mean_bbox_ratio", &RunSummary::mean_bbox_ratio, "1",
       "mean bounding box ratio (grids and flat only; 0 on graph machines)"},
      {"mean_bbox_sides", &RunSummary::mean_bbox_sides, "nodes",
       "mean sum of bounding box sides (grids and flat only; 0 on graph machines)"},
      {"mean_bounding_cube_ratio", &RunSummary::mean_bounding_cube_ratio, "1",
       "mean bounding cube ratio (grids and flat only; 0 on graph machines)"},
      {"mean_linear_span", &RunSummary::mean_linear_span, "ranks", "mean linear span"},
      {"mean_ring_span", &RunSummary::mean_ring_span, "ranks",
       "mean ring span (grids and flat only; 0 on graph machines)"},
      {"mean_stretch", &RunSummary::mean_stretch, "1", "mean stretch"},
      {"mean_router_hops", &RunSummary::mean_router_hops, "hops",
       "mean of router_hops over jobs of two or more nodes (graph machines only; 0 on grids)"},
      {"mean_routers_spanned", &RunSummary::mean_routers_spanned, "routers",
       "mean routers spanned per job (graph machines only; 0 on grids)"},
      {"mean_groups_spanned", &RunSummary::mean_groups_spanned, "groups",
       "mean groups spanned per job (graph machines only; 0 on grids)"},
      {"allocator_fallbacks", &RunSummary::allocator_fallbacks, "1",
       "allocator fallbacks (e.g. greedy-optimal budget exhaustions)"},
      {"first_submit", &RunSummary::first_submit, "s", "first submit time"},
      {"last_end", &RunSummary::last_end, "s", "last end time (from actual runtimes)"},
      {"mean_hop_bytes", &RunSummary::mean_hop_bytes, "byte hops",
       "mean hop-bytes over jobs that communicate"},
      {"mean_hops_per_byte", &RunSummary::mean_hops_per_byte, "hops",
       "mean hops per byte over jobs that communicate"},
      {"mean_max_link_load", &RunSummary::mean_max_link_load, "bytes",
       "mean of max_link_load over jobs that communicate"},
      {"max_link_load", &RunSummary::max_link_load, "bytes", "largest max_link_load of any job"},
      {"mean_comm_slowdown", &RunSummary::mean_comm_slowdown, "1",
       "mean comm_slowdown (actual runtime / alone-compact runtime)"},
      {"mean_link_utilization", &RunSummary::mean_link_utilization, "1",
       "link utilization averaged over time and links (flow model)"},
      {"max_link_utilization", &RunSummary::max_link_utilization, "1",
       "largest time-averaged utilization of one link (flow model)"},
      {"max_link_util_endpoint", &RunSummary::max_link_util_endpoint, "1",
       "max_link_utilization over injection and ejection links only (node to its router and "
       "back; flow model on graph machines; 0 on grids and flat, whose links join nodes)"},
      {"max_link_util_local", &RunSummary::max_link_util_local, "1",
       "max_link_utilization over router-to-router links within a group only (dragonfly local "
       "links; links between the routers of a grid with routers; flow model; 0 on machines "
       "without such links: fat trees, Slurm trees, grids, flat)"},
      {"max_link_util_global", &RunSummary::max_link_util_global, "1",
       "max_link_utilization over dragonfly global links only (router to router between groups; "
       "flow model; 0 on machines without global links)"},
      {"max_link_util_router", &RunSummary::max_link_util_router, "1",
       "max_link_utilization over links between routers or switches (dragonfly local and "
       "global, fat-tree up and down; all but injection and ejection; flow model on graph "
       "machines; 0 on grids and flat)"},
      {"mean_message_latency", &RunSummary::mean_message_latency, "s",
       "mean message latency, release to tail delivered (wormhole model)"},
      {"mean_message_blocking", &RunSummary::mean_message_blocking, "s",
       "mean time message headers waited for busy channels (wormhole model)"},
      {"failed_messages", &RunSummary::failed_messages, "messages",
       "messages failed by the deadlock watchdog (wormhole model)"},
      {"utilization_trace", &RunSummary::utilization_trace, "1",
       "sum procs x trace runtime / (nodes x makespan): work counted on trace runtimes, so "
       "communication-inflated time is not work (makespan from actual runtimes)"},
      {"mean_bounded_slowdown_trace", &RunSummary::mean_bounded_slowdown_trace, "1",
       "mean bounded_slowdown_trace (divided by trace runtimes)"},
      {"mean_interference", &RunSummary::mean_interference, "1",
       "mean interference (actual / alone runtime) over jobs whose alone runtime is measured"},
      {"p95_interference", &RunSummary::p95_interference, "1",
       "95th percentile interference, actual / alone runtime (nearest rank)"},
      {"max_interference", &RunSummary::max_interference, "1",
       "largest interference, actual / alone runtime"},
      {"mean_interference_heavy", &RunSummary::mean_interference_heavy, "1",
       "mean interference (actual / alone runtime) of heavy communicators (comm_class 2)"},
      {"p95_interference_heavy", &RunSummary::p95_interference_heavy, "1",
       "95th percentile interference (actual / alone runtime) of heavy communicators"},
      {"max_interference_heavy", &RunSummary::max_interference_heavy, "1",
       "largest interference (actual / alone runtime) of heavy communicators"},
      {"mean_interference_light", &RunSummary::mean_interference_light, "1",
       "mean interference (actual / alone runtime) of light communicators (comm_class 1)"},
      {"p95_interference_light", &RunSummary::p95_interference_light, "1",
       "95th percentile interference (actual / alone runtime) of light communicators"},
      {"max_interference_light", &RunSummary::max_interference_light, "1",
       "largest interference (actual / alone runtime) of light communicators"},
  };
  return columns;
}

std::string node_interval_set(std::vector<int> nodes) {
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::string out;
  for (std::size_t i = 0; i < nodes.size();) {
    std::size_t last = i;
    while (last + 1 < nodes.size() && nodes[last + 1] == nodes[last] + 1) ++last;
    if (!out.empty()) out += ' ';
    out += std::to_string(nodes[i]);
    if (last > i) out += '-' + std::to_string(nodes[last]);
    i = last + 1;
  }
  return out;
}

std::vector<int> parse_node_interval_set(const std::string& text, int limit) {
  std::vector<int> nodes;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const auto dash = word.find('-');
    int first = -1, last = -1;
    try {
      std::size_t used = 0, used_last = 0;
      const std::string head = word.substr(0, dash);
      first = std::stoi(head, &used);
      if (dash == std::string::npos) {
        last = first;
      } else {
        const std::string tail = word.substr(dash + 1);
        last = std::stoi(tail, &used_last);
        if (used_last != tail.size() || tail.empty() ||
            !std::isdigit(static_cast<unsigned char>(tail[0])))
          throw std::exception();
      }
      if (used != head.size() || !std::isdigit(static_cast<unsigned char>(head[0])) ||
          last < first || first < 0)
        throw std::exception();
    } catch (const std::exception&) {
      throw InputError("node interval set '" + text +
                       "': expected ids or first-last ranges, "
                       "found '" +
                       word + "'");
    }
    if (last >= limit)
      throw InputError("node interval set: '" + word + "' names node " + std::to_string(last) +
                       ", but the machine has nodes 0-" + std::to_string(limit - 1));
    for (int node = first; node <= last; ++node) nodes.push_back(node);
  }
  return nodes;
}

std::string node_names_hostlist(const Topology& machine, const std::string& interval_set) {
  std::vector<std::string> names;
  for (const int node : parse_node_interval_set(interval_set))
    names.push_back(machine.graph() ? machine.graph()->node_name(node) : std::to_string(node));
  return compress_hostlist(names);
}

}  // namespace allocsim
