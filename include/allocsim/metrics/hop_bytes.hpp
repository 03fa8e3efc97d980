#pragma once
// Communication metrics of a task mapping (Agarwal, Sharma and Kalé §3): hop-bytes, hops per
// byte, and the load that the machine's routing puts on each network link. Bytes are put on
// links by the one routing function of the network layer (network/link_loads.hpp,
// route_task_graph), on every machine kind.
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/network/link_loads.hpp"  // CommGraphView, route_task_graph
#include "allocsim/topo/topology.hpp"

namespace allocsim {

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

/// `placement[t]` is task t's node. The hops of a byte are the links its route crosses: on graph
/// machines hop-bytes is the sum of route_task_graph's link loads (each byte weighted by the
/// mean length of its pair's paths under the machine's routing: distance() under minimal
/// routing, longer under Valiant), O(Σ route lengths + links). On grids, whose single route
/// from a to b crosses exactly distance(a, b) links, that sum is Σ bytes · distance(), computed
/// so (the grid fast path, O(m·d) for m edges; tests check the two agree). Flat keeps its
/// distance 1 per pair (one crossbar hop), although its route lists two links (the source's
/// injection and the destination's ejection): there the link bytes sum to twice the hop-bytes.
HopBytes hop_bytes(const CommGraphView& graph, const Topology& topology,
                   std::span<const NodeId> placement);

/// Per-link load from route_task_graph (dimension-ordered routing on grids; on a flat machine a
/// message crosses its source's injection and its destination's ejection link; the graph's own
/// routes, multipath split by weight, on graph machines). Each edge of c bytes sends c/2 from
/// each endpoint to the other, so the bytes on links sum to the hop-bytes. On graph machines a
/// link's load is its bytes over its capacity (Topology::link_capacity; 1 on grids and flat), the
/// time it is busy at unit bandwidth, as the flow model normalises. Links are directed; `mean`
/// averages over every real link of the machine (Topology::link_count()), `mean_used` over
/// loaded ones.
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
