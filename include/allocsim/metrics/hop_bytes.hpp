#pragma once
// Communication metrics of a task mapping (Agarwal, Sharma and Kalé §3): hop-bytes, hops per
// byte, and the load that dimension-ordered routing puts on each network link.
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim {

/// A communication graph in CSR form, as metrics see it (mapping::TaskGraph::comm_view()):
/// each undirected edge listed from both ends with its bytes; `total_bytes` is all bytes (edge
/// bytes plus bytes that never leave a task).
struct CommGraphView {
  std::span<const std::int64_t> offsets;  // vertices + 1 entries
  std::span<const std::int32_t> targets;
  std::span<const double> bytes;
  double total_bytes = 0;
  int size() const { return offsets.empty() ? 0 : static_cast<int>(offsets.size()) - 1; }
};

/// Hop-bytes (§3): "the total size of inter-processor communication in bytes weighted by
/// distance between the respective end-processors". Hops per byte ("the average number of
/// network links a byte has to travel") divides it by the inter-processor bytes: bytes between
/// tasks on one processor, and the internal bytes of coalesced groups, cross no link and count
/// in neither term — §3's denominator sums the edges of the task graph being mapped, which in
/// §4 is the graph of p groups, and the authors' TopoLB.C drops same-group messages from both
/// hop-bytes and its "Avg hops" denominator. `total_bytes` keeps all bytes (a job's traffic).
/// Hops per byte is 0 when no byte leaves its processor.
struct HopBytes {
  double hop_bytes = 0;
  double total_bytes = 0;
  double inter_processor_bytes = 0;
  double hops_per_byte() const {
    return inter_processor_bytes > 0 ? hop_bytes / inter_processor_bytes : 0.0;
  }
};

/// O(m·d) for m edges; `placement[t]` is task t's node.
HopBytes hop_bytes(const CommGraphView& graph, const Topology& topology,
                   std::span<const NodeId> placement);

/// Per-link load under Topology::route (dimension-ordered routing; on a flat machine a message
/// crosses its source's injection and its destination's ejection link). Each edge of c bytes
/// sends c/2 from each endpoint to the other, so on grids the loads sum to the hop-bytes.
/// Links are directed; `mean` averages over every real link of the machine
/// (Topology::link_count()), `mean_used` over loaded ones.
struct LinkLoad {
  double max = 0;
  double mean = 0;
  double mean_used = 0;
  std::int64_t used_links = 0;
  std::int64_t machine_links = 0;
};

/// O(m·route length + link slots).
LinkLoad link_load(const CommGraphView& graph, const Topology& topology,
                   std::span<const NodeId> placement);

}  // namespace allocsim
