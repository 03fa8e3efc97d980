#include "allocsim/mapping/partition.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <metis.h>

#include "allocsim/mapping/mapper.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::mapping {

namespace {
/// Positive METIS integers proportional to `values`, the largest becoming at most `ceiling`
/// and the smallest positive value at least 1 (where the ceiling allows).
std::vector<idx_t> to_metis_integers(const std::vector<double>& values, double ceiling) {
  double largest = 0, smallest = 0;
  for (const double v : values) {
    largest = std::max(largest, v);
    if (v > 0 && (smallest == 0 || v < smallest)) smallest = v;
  }
  double scale = smallest > 0 ? 1.0 / smallest : 1.0;
  if (largest * scale > ceiling) scale = ceiling / largest;
  std::vector<idx_t> result;
  result.reserve(values.size());
  for (const double v : values)
    result.push_back(std::max<idx_t>(1, static_cast<idx_t>(std::llround(v * scale))));
  return result;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

Partition partition_metis(const TaskGraph& graph, int parts, std::uint64_t seed, bool recursive) {
  if (parts < 1) throw InputError("partition: need at least one part");
  const int n = graph.size();
  Partition result;
  result.parts = parts;
  result.group_of.assign(n, 0);
  if (parts == 1) return result;
  if (n <= parts) {
    for (TaskId t = 0; t < n; ++t) result.group_of[t] = t;
    return result;
  }
  idx_t vertices = n, constraints = 1, nparts = parts, cut = 0;
  std::vector<idx_t> offsets(graph.offsets().begin(), graph.offsets().end());
  std::vector<idx_t> targets(graph.targets().begin(), graph.targets().end());
  std::vector<idx_t> loads = to_metis_integers(graph.loads(), 1e6);
  std::vector<idx_t> bytes = to_metis_integers(graph.all_edge_bytes(), 100);
  std::vector<idx_t> part(n, 0);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed & 0x7fffffff);
  options[METIS_OPTION_NUMBERING] = 0;
  const auto metis = recursive ? METIS_PartGraphRecursive : METIS_PartGraphKway;
  const int status = metis(&vertices, &constraints, offsets.data(), targets.data(), loads.data(),
                           nullptr, bytes.empty() ? nullptr : bytes.data(), &nparts, nullptr,
                           nullptr, options, &cut, part.data());
  if (status != METIS_OK)
    throw std::runtime_error(
        std::string(recursive ? "METIS_PartGraphRecursive" : "METIS_PartGraphKway") +
        " failed with status " + std::to_string(status));
  for (TaskId t = 0; t < n; ++t) result.group_of[t] = static_cast<int>(part[t]);
  return result;
}

TaskGraph coalesce(const TaskGraph& graph, const Partition& partition) {
  std::vector<double> loads(partition.parts, 0.0);
  std::vector<TaskEdge> edges;
  for (TaskId t = 0; t < graph.size(); ++t) {
    const int g = partition.group_of[t];
    loads[g] += graph.load(t);
    if (graph.internal_bytes(t) > 0) edges.push_back({g, g, graph.internal_bytes(t)});
    const auto neighbours = graph.neighbours(t);
    const auto bytes = graph.edge_bytes(t);
    for (std::size_t i = 0; i < neighbours.size(); ++i)
      if (neighbours[i] > t) edges.push_back({g, partition.group_of[neighbours[i]], bytes[i]});
  }
  return TaskGraph::from_edges(partition.parts, std::move(edges), std::move(loads));
}

MapOutcome map_graph(const TaskGraph& graph, const Topology& topology,
                     std::span<const NodeId> processors, const std::string& mapper,
                     std::uint64_t seed) {
  MapOutcome outcome;
  const MapperChain chain(mapper);
  outcome.mapper = chain.canonical();
  const int p = static_cast<int>(processors.size());
  if (p == 0 && graph.size() > 0) throw InputError("no processors to map onto");
  Rng rng(mix_seed(seed, 0x6d6170706572));
  if (graph.size() <= p) {
    const auto start = std::chrono::steady_clock::now();
    outcome.placement = chain.map({graph, topology, processors}, rng);
    outcome.map_seconds = seconds_since(start);
    outcome.groups = graph.size();
    outcome.group_average_degree = graph.average_degree();
  } else {
    auto start = std::chrono::steady_clock::now();
    const Partition partition = partition_metis(graph, p, mix_seed(seed, 0x6d65746973));
    const TaskGraph groups = coalesce(graph, partition);
    outcome.partition_seconds = seconds_since(start);
    outcome.partitioned = true;
    outcome.groups = p;
    outcome.group_average_degree = groups.average_degree();
    start = std::chrono::steady_clock::now();
    const auto group_nodes = chain.map({groups, topology, processors}, rng);
    outcome.map_seconds = seconds_since(start);
    outcome.placement.resize(graph.size());
    for (TaskId t = 0; t < graph.size(); ++t)
      outcome.placement[t] = group_nodes[partition.group_of[t]];
    double total = 0;
    for (TaskId g = 0; g < groups.size(); ++g) {
      outcome.max_group_load = std::max(outcome.max_group_load, groups.load(g));
      total += groups.load(g);
    }
    outcome.mean_group_load = total / p;
  }
  outcome.hop_bytes = hop_bytes(graph, topology, outcome.placement);
  outcome.link_load = link_load(graph, topology, outcome.placement);
  return outcome;
}

}  // namespace allocsim::mapping
