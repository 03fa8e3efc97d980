// Per-job task mapping as an observer; see sim/job_mapping.hpp.
#include "allocsim/sim/job_mapping.hpp"

#include <algorithm>
#include <chrono>

#include "allocsim/mapping/job_pattern.hpp"
#include "allocsim/sim/job_recorder.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {

namespace {

/// Task graphs kept for reuse (one per job size); beyond this the cache starts over, which
/// costs time only (an all-to-all graph of k tasks holds k²/2 edges).
constexpr std::size_t kMaxCachedGraphs = 32;

/// Per-node-pair traffic of a placement: every edge between tasks on distinct nodes, merged.
std::vector<NodeFlow> node_flows(const mapping::TaskGraph& graph,
                                 const std::vector<NodeId>& placement) {
  std::vector<NodeFlow> flows;
  for (mapping::TaskId t = 0; t < graph.size(); ++t) {
    const auto neighbours = graph.neighbours(t);
    const auto bytes = graph.edge_bytes(t);
    for (std::size_t i = 0; i < neighbours.size(); ++i) {
      if (neighbours[i] < t) continue;  // each undirected edge once
      NodeId a = placement[t], b = placement[neighbours[i]];
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      flows.push_back({a, b, bytes[i]});
    }
  }
  std::sort(flows.begin(), flows.end(), [](const NodeFlow& x, const NodeFlow& y) {
    return x.a < y.a || (x.a == y.a && x.b < y.b);
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    if (kept > 0 && flows[kept - 1].a == flows[i].a && flows[kept - 1].b == flows[i].b)
      flows[kept - 1].bytes += flows[i].bytes;
    else
      flows[kept++] = flows[i];
  }
  flows.resize(kept);
  return flows;
}

}  // namespace

JobMappingObserver::JobMappingObserver(const Topology& topology, const std::string& pattern,
                                       const std::string& mapper, std::uint64_t seed,
                                       JobRecorder& records, const TimeLimit* time_limit)
    : topology_(&topology),
      pattern_(pattern),
      mapper_(mapper),
      seed_(mix_seed(seed, stable_hash("mapping"))),
      records_(&records),
      time_limit_(time_limit) {
  mapping::sized_pattern_spec(pattern_, 1);  // throws now on a bad pattern
}

std::shared_ptr<const mapping::TaskGraph> JobMappingObserver::graph_for(int tasks) {
  if (auto found = graphs_.find(tasks); found != graphs_.end()) return found->second;
  if (graphs_.size() >= kMaxCachedGraphs) graphs_.clear();
  auto graph =
      std::make_shared<const mapping::TaskGraph>(mapping::job_pattern_graph(pattern_, tasks));
  graphs_.emplace(tasks, graph);
  return graph;
}

void JobMappingObserver::on_start(int job_index, const Job& job, double,
                                  const Allocation& allocation) {
  const int tasks = std::min(job.procs, static_cast<int>(allocation.nodes.size()));
  if (tasks < 1) return;
  const auto started = std::chrono::steady_clock::now();
  JobTraffic traffic;
  traffic.graph = graph_for(tasks);
  Rng rng(mix_seed(seed_, static_cast<std::uint64_t>(job.id)));
  const mapping::MappingProblem problem{*traffic.graph, *topology_, allocation.nodes, time_limit_};
  traffic.placement = mapper_.map(problem, rng);
  traffic.flows = node_flows(*traffic.graph, traffic.placement);
  traffic.hop_bytes = mapping::hop_bytes(*traffic.graph, *topology_, traffic.placement);
  traffic.link_load = mapping::link_load(*traffic.graph, *topology_, traffic.placement);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  JobRecord& record = records_->record(job_index);
  record.comm_bytes = traffic.hop_bytes.total_bytes;
  record.hop_bytes = traffic.hop_bytes.hop_bytes;
  record.hops_per_byte = traffic.hop_bytes.hops_per_byte();
  record.max_link_load = traffic.link_load.max;
  running_[job_index] = std::move(traffic);
}

void JobMappingObserver::on_finish(int job_index, const Job&, double, const Allocation&) {
  running_.erase(job_index);
}

const JobTraffic* JobMappingObserver::traffic(int job_index) const {
  const auto found = running_.find(job_index);
  return found == running_.end() ? nullptr : &found->second;
}

}  // namespace allocsim
