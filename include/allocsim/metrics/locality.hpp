#pragma once
// Locality metrics of one allocation: sum/average of pairwise hops, connected components,
// bounding box. Pairwise sums cost O(k·d + machine side) via per-axis histograms (the L1 and
// wrap-aware ring distances both separate by axis), never O(k²).
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim {

/// Sum over unordered pairs of the hop distance between `nodes` (O(k·d + Σ sides)); a
/// LocalityMeter does the same without allocating.
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
  int components = 0;
  BoundingBox box;
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
  /// Connected components of the induced subgraph (flat machine: 1).
  int components(std::span<const NodeId> nodes);
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
};

}  // namespace allocsim
