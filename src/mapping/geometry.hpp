#pragma once
// Internal: hop distances between the processors of a mapping problem, by list index.
#include <span>
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim::mapping {

/// Coordinates of the given processors, so distance(i, j) between list indices costs O(d)
/// without division. Flat machines: 1 between distinct processors.
class ProcessorGeometry {
 public:
  ProcessorGeometry(const Topology& topology, std::span<const NodeId> processors)
      : topology_(&topology), count_(static_cast<int>(processors.size())) {
    dims_ = topology.has_coordinates() ? topology.dims() : 0;
    coords_.resize(static_cast<std::size_t>(count_) * dims_);
    for (int i = 0; i < count_; ++i)
      for (int axis = 0; axis < dims_; ++axis)
        coords_[static_cast<std::size_t>(i) * dims_ + axis] = topology.coord(processors[i], axis);
  }
  int size() const { return count_; }
  int distance(int i, int j) const {
    if (dims_ == 0) return i == j ? 0 : 1;
    const int* a = &coords_[static_cast<std::size_t>(i) * dims_];
    const int* b = &coords_[static_cast<std::size_t>(j) * dims_];
    int sum = 0;
    for (int axis = 0; axis < dims_; ++axis)
      sum += topology_->axis_distance(axis, a[axis], b[axis]);
    return sum;
  }
  /// out[q] = distance(q, from) for every processor q.
  void distances_from(int from, std::vector<int>& out) const {
    out.resize(count_);
    for (int q = 0; q < count_; ++q) out[q] = distance(q, from);
  }

 private:
  const Topology* topology_;
  int count_;
  int dims_ = 0;
  std::vector<int> coords_;
};

}  // namespace allocsim::mapping
