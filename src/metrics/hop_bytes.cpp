#include "allocsim/metrics/hop_bytes.hpp"

#include <algorithm>

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
  for (std::int32_t t = 0; t < graph.size(); ++t) {
    for (std::int64_t i = graph.offsets[t]; i < graph.offsets[t + 1]; ++i)
      if (graph.targets[i] > t)
        result.hop_bytes +=
            graph.bytes[i] * topology.distance(placement[t], placement[graph.targets[i]]);
  }
  return result;
}

LinkLoad link_load(const CommGraphView& graph, const Topology& topology,
                   std::span<const NodeId> placement) {
  check_placement(graph, topology, placement);
  LinkLoad result;
  const std::int64_t nodes = topology.node_count();
  std::vector<double> load;
  if (topology.is_flat()) {
    // Complete graph: the message between two nodes uses their own channel.
    result.machine_links = nodes * (nodes - 1);
    std::vector<std::pair<std::int64_t, double>> used;
    for (std::int32_t t = 0; t < graph.size(); ++t) {
      for (std::int64_t i = graph.offsets[t]; i < graph.offsets[t + 1]; ++i)
        if (placement[t] != placement[graph.targets[i]])
          used.emplace_back(placement[t] * nodes + placement[graph.targets[i]], graph.bytes[i] / 2);
    }
    std::sort(used.begin(), used.end());
    for (std::size_t i = 0; i < used.size();) {
      double sum = 0;
      std::size_t j = i;
      while (j < used.size() && used[j].first == used[i].first) sum += used[j++].second;
      load.push_back(sum);
      i = j;
    }
  } else {
    for (int axis = 0; axis < topology.dims(); ++axis) {
      const int side = topology.side(axis);
      const std::int64_t rings = nodes / side;
      if (side == 1) continue;
      if (!topology.wraps(axis))
        result.machine_links += rings * (side - 1) * 2;
      else
        result.machine_links += rings * (side == 2 ? 2 : 2 * side);
    }
    std::vector<double> channels(static_cast<std::size_t>(nodes) * topology.dims() * 2, 0.0);
    for (std::int32_t t = 0; t < graph.size(); ++t) {
      for (std::int64_t i = graph.offsets[t]; i < graph.offsets[t + 1]; ++i) {
        const double half = graph.bytes[i] / 2;
        for_each_route_channel(topology, placement[t], placement[graph.targets[i]],
                               [&](std::int64_t channel) { channels[channel] += half; });
      }
    }
    for (const double value : channels)
      if (value > 0) load.push_back(value);
  }
  double sum = 0;
  for (const double value : load) {
    result.max = std::max(result.max, value);
    sum += value;
  }
  result.used_links = static_cast<std::int64_t>(load.size());
  result.mean = result.machine_links ? sum / static_cast<double>(result.machine_links) : 0.0;
  result.mean_used = load.empty() ? 0.0 : sum / static_cast<double>(load.size());
  return result;
}

}  // namespace allocsim
