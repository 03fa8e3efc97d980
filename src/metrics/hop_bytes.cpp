#include "allocsim/metrics/hop_bytes.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {
void check_placement(const CommGraphView& graph, const Topology& topology,
                     std::span<const NodeId> placement) {
  if (static_cast<int>(placement.size()) != graph.size())
    throw InputError("mapping places " + std::to_string(placement.size()) + " tasks, graph has " +
                     std::to_string(graph.size()));
  for (const NodeId node : placement)
    if (node < 0 || node >= topology.node_count())
      throw InputError("mapping uses node " + std::to_string(node) + " outside " + topology.spec());
}
}  // namespace

HopBytes hop_bytes(const CommGraphView& graph, const Topology& topology,
                   std::span<const NodeId> placement) {
  check_placement(graph, topology, placement);
  HopBytes result;
  result.total_bytes = graph.total_bytes;
  const bool grid_route = topology.graph() == nullptr;  // one route of distance() links
  for (std::int32_t t = 0; t < graph.size(); ++t) {
    for (std::int64_t i = graph.offsets[t]; i < graph.offsets[t + 1]; ++i) {
      const std::int32_t other = graph.targets[i];
      if (other <= t || placement[t] == placement[other]) continue;  // once; no link crossed
      if (grid_route)
        result.hop_bytes += graph.bytes[i] * topology.distance(placement[t], placement[other]);
      result.inter_processor_bytes += graph.bytes[i];
    }
  }
  if (!grid_route) {
    // The bytes routed (multipath split by weight): Σ over links of the bytes crossing them.
    LinkLoadScratch scratch;
    for (const auto& [link, bytes] : route_task_graph(topology, graph, placement, scratch))
      result.hop_bytes += bytes;
  }
  // Task graphs bound their bytes (mapping::kMaxEdgeBytes) so that this never happens; a graph
  // built otherwise is refused rather than reported as `null` hop-bytes and 0 hops per byte.
  if (!std::isfinite(result.hop_bytes) || !std::isfinite(result.total_bytes))
    throw InputError("hop-bytes of this mapping overflow a double (" +
                     std::to_string(graph.size()) + " tasks); edge bytes must be at most 1e18");
  return result;
}

LinkLoad link_load(const CommGraphView& graph, const Topology& topology,
                   std::span<const NodeId> placement) {
  check_placement(graph, topology, placement);
  LinkLoad result;
  result.machine_links = topology.link_count();
  std::vector<double> load(static_cast<std::size_t>(topology.link_slot_count()), 0.0);
  accumulate_task_graph(topology, graph, placement, load);
  const bool capacities = topology.graph() != nullptr;  // 1 on grids and flat
  double sum = 0;
  for (std::size_t link = 0; link < load.size(); ++link) {
    double value = load[link];
    if (value <= 0) continue;
    if (capacities) value /= topology.link_capacity(static_cast<LinkId>(link));
    result.max = std::max(result.max, value);
    sum += value;
    ++result.used_links;
  }
  if (!std::isfinite(sum))
    throw InputError("link loads of this mapping overflow a double (" +
                     std::to_string(graph.size()) + " tasks); edge bytes must be at most 1e18");
  result.mean = result.machine_links ? sum / static_cast<double>(result.machine_links) : 0.0;
  result.mean_used = result.used_links ? sum / static_cast<double>(result.used_links) : 0.0;
  return result;
}

}  // namespace allocsim
