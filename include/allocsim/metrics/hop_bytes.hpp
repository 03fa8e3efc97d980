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

/// Per-link load under dimension-ordered routing. Each edge of c bytes sends c/2 from each
/// endpoint to the other, so the loads sum to the hop-bytes. Links are directed channels;
/// `mean` averages over every channel of the machine, `mean_used` over loaded ones.
struct LinkLoad {
  double max = 0;
  double mean = 0;
  double mean_used = 0;
  std::int64_t used_links = 0;
  std::int64_t machine_links = 0;
};

/// O(m·route length + machine links). Flat machines count one channel per ordered node pair.
LinkLoad link_load(const CommGraphView& graph, const Topology& topology,
                   std::span<const NodeId> placement);

/// Directed channels of a mesh/torus: the channel leaving `node` along `axis` in direction
/// `positive` has id (node·dims + axis)·2 + positive. Ids of missing mesh-edge channels and of
/// the duplicate channel on a side-2 ring are never produced by the router.
inline std::int64_t channel_id(const Topology& topology, NodeId node, int axis, bool positive) {
  return (static_cast<std::int64_t>(node) * topology.dims() + axis) * 2 + (positive ? 1 : 0);
}

/// Dimension-ordered route from `from` to `to`: axis 0 first, on each axis the shorter way
/// around (positive direction when both ways are equally long). Calls visit(channel id) per hop.
template <class Visit>
void for_each_route_channel(const Topology& topology, NodeId from, NodeId to, Visit&& visit) {
  NodeId at = from;
  int stride = 1;
  for (int axis = 0; axis < topology.dims(); ++axis) {
    const int side = topology.side(axis);
    const int a = topology.coord(from, axis), b = topology.coord(to, axis);
    int forward = b - a, backward = a - b;
    if (topology.wraps(axis)) {
      forward = ((forward % side) + side) % side;
      backward = ((backward % side) + side) % side;
    }
    const bool positive = topology.wraps(axis) ? forward <= backward : b >= a;
    const int steps = positive ? forward : backward;
    int c = a;
    for (int s = 0; s < steps; ++s) {
      visit(channel_id(topology, at, axis, positive));
      const int next = positive ? (c + 1 == side ? 0 : c + 1) : (c == 0 ? side - 1 : c - 1);
      at += (next - c) * stride;
      c = next;
    }
    stride *= side;
  }
}

}  // namespace allocsim
