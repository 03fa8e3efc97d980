#pragma once
// Locality metrics of one allocation: sum/average of pairwise hops, connected components,
// bounding box. Pairwise sums cost O(k·d + machine side) via per-axis histograms (the L1 and
// wrap-aware ring distances both separate by axis), never O(k²).
//
// Machine kinds (issue 26): the pairwise sum works on every machine. On a graph machine
// (Topology::graph()) it is aggregated per router, and the shape measures are routers and
// groups spanned; components and bounding boxes are grid measures (they need coordinates):
// components() and bounding_box() refuse graph machines (Topology::require_grid), and measure()
// leaves them out there (LocalityMeasures::grid false).
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim {

/// Sum over unordered pairs of the hop distance between `nodes` (grids: O(k·d + Σ sides); graph
/// machines: O(k + R²) for R routers spanned); a LocalityMeter does the same without allocating.
std::int64_t pairwise_hop_sum(const Topology& topology, std::span<const NodeId> nodes);
/// The same by brute force over all pairs, O(k²) (reference for tests).
std::int64_t pairwise_hop_sum_brute(const Topology& topology, std::span<const NodeId> nodes);
/// Sum over unordered pairs of |a-b| (ring distance when `ring_length` > 0) of values in
/// [0, side): the one-dimensional building block, O(k + side).
std::int64_t pairwise_axis_sum(std::span<const int> values, int side, bool wrap);

/// Bounding box of a node set: extent per axis (on a wrapped axis the shortest arc covering
/// every coordinate), its volume and the sum of its sides.
struct BoundingBox {
  std::vector<int> extents;
  std::int64_t volume = 0;
  std::int64_t sides_sum = 0;
};

/// The shape metrics of one allocation that JobRecordBuilder records.
struct LocalityMeasures {
  std::int64_t pairwise_sum = 0;
  /// True on grids and flat: `components` and `box` are set. False on graph machines, where
  /// they are not applicable and the router measures below are set instead.
  bool grid = true;
  int components = 0;
  BoundingBox box;
  /// Graph machines only: sum over unordered node pairs of GraphMachine::router_hops, and the
  /// distinct routers and groups (GraphMachine::group_of) of the nodes.
  std::int64_t router_hop_sum = 0;
  int routers = 0;
  int groups = 0;
};

/// Reusable scratch space for per-job metrics on one machine. Each call splits the nodes into
/// coordinates once (one division per axis and node) and works on those, so the per-job cost is
/// O(k·d + Σ sides) with no allocation once the scratch has grown.
class LocalityMeter {
 public:
  explicit LocalityMeter(const Topology& topology);

  /// All three metrics below from one split of the nodes into coordinates.
  LocalityMeasures measure(std::span<const NodeId> nodes);

  std::int64_t pairwise_sum(std::span<const NodeId> nodes);
  /// Connected components of the induced subgraph (flat machine: 1). Grids and flat only.
  int components(std::span<const NodeId> nodes);
  /// Grids and flat only (flat: a line of k nodes).
  BoundingBox bounding_box(std::span<const NodeId> nodes);
  /// Smallest box volume, with sides within the machine's, holding at least k nodes.
  std::int64_t smallest_box(int k) const { return smallest_box_[k]; }
  /// Smallest cube volume side^d (capped per axis by the machine side) holding >= k nodes.
  std::int64_t smallest_cube(int k) const { return smallest_cube_[k]; }

 private:
  /// Fills coords_ axis-major: coordinate of nodes[i] on axis a at coords_[a * k + i].
  void split_coordinates(std::span<const NodeId> nodes);
  std::span<const int> axis_coordinates(int axis, std::size_t k) const {
    return {coords_.data() + static_cast<std::size_t>(axis) * k, k};
  }
  // The three metrics on the coordinates split by split_coordinates(nodes).
  std::int64_t pairwise_sum_of_split(std::span<const NodeId> nodes);
  int components_of_split(std::span<const NodeId> nodes);
  BoundingBox bounding_box_of_split(std::span<const NodeId> nodes);
  /// Graph machines: counts the nodes per router (router_nodes_, spanned_) and the groups, and
  /// returns the pairwise distance sum; fills `out`'s router fields when not null.
  std::int64_t graph_pairwise_sum(std::span<const NodeId> nodes, LocalityMeasures* out);

  const Topology* topology_;
  std::vector<int> coords_;
  std::vector<std::int64_t> axis_counts_;
  std::vector<char> present_;
  std::vector<int> slot_;  ///< node -> its index in the nodes being measured
  std::vector<std::uint32_t> stamp_;
  std::uint32_t generation_ = 0;
  std::vector<NodeId> stack_;
  std::vector<std::int64_t> smallest_box_;
  std::vector<std::int64_t> smallest_cube_;
  // Graph machines: per router (index vertex − node_count) the job's nodes on it and one of
  // them, the routers touched, and a per-group mark.
  std::vector<int> router_nodes_;
  std::vector<NodeId> router_example_;
  std::vector<int> spanned_;
  std::vector<char> group_seen_;
};

}  // namespace allocsim
