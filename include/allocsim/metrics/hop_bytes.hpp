#pragma once
// Communication metrics of a task mapping (Agarwal, Sharma and Kalé §3): hop-bytes, hops per
// byte, and the load that dimension-ordered routing puts on each network link.
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim {

/// A communication graph in CSR form, as metrics see it (mapping::TaskGraph::comm_view()):
/// each undirected edge listed from both ends with its bytes; `total_bytes` is the
/// hops-per-byte denominator (edge bytes plus bytes that never leave a task).
struct CommGraphView {
  std::span<const std::int64_t> offsets;  // vertices + 1 entries
  std::span<const std::int32_t> targets;
  std::span<const double> bytes;
  double total_bytes = 0;
  int size() const { return offsets.empty() ? 0 : static_cast<int>(offsets.size()) - 1; }
};

/// Hop-bytes (§3): Σ over edges of bytes × hop distance between the endpoints' processors.
/// Hops per byte divides by all bytes, including bytes between tasks on one processor and
/// internal bytes of coalesced groups (0 when the graph has no bytes).
struct HopBytes {
  double hop_bytes = 0;
  double total_bytes = 0;
  double hops_per_byte() const { return total_bytes > 0 ? hop_bytes / total_bytes : 0.0; }
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
