#pragma once
// Internal: hop distances between the processors of a mapping problem, by list index.
#include <span>
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim::mapping {

/// Distances between the given processors by list index: Topology::distance of the two nodes.
/// Grids: coordinates stored once, so distance(i, j) costs O(d) without division. Flat: 1
/// between distinct processors. Graph machines: the nodes' routers are numbered among the
/// routers the processors span, and the router-to-router distances stored in a table (two nodes
/// of one router are 2 links apart; between routers the distance depends only on the routers:
/// graph_machine.hpp), or asked of the machine when that table would be too large.
class ProcessorGeometry {
 public:
  ProcessorGeometry(const Topology& topology, std::span<const NodeId> processors)
      : topology_(&topology), count_(static_cast<int>(processors.size())) {
    if (const GraphMachine* graph = topology.graph()) {
      init_graph(*graph, processors);
      return;
    }
    dims_ = topology.has_coordinates() ? topology.dims() : 0;
    coords_.resize(static_cast<std::size_t>(count_) * dims_);
    for (int i = 0; i < count_; ++i)
      for (int axis = 0; axis < dims_; ++axis)
        coords_[static_cast<std::size_t>(i) * dims_ + axis] = topology.coord(processors[i], axis);
  }
  int size() const { return count_; }
  int distance(int i, int j) const {
    if (graph_) return graph_distance(i, j);
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
  /// Largest router table kept (entries): 4096 routers spanned, 64 MB of ints.
  static constexpr std::size_t kMaxRouterTable = std::size_t{4096} * 4096;

  void init_graph(const GraphMachine& graph, std::span<const NodeId> processors) {
    graph_ = &graph;
    nodes_.assign(processors.begin(), processors.end());
    router_.resize(count_);
    std::vector<int> index_of_router(graph.router_count(), -1);
    std::vector<NodeId> example;  // one processor per spanned router
    for (int i = 0; i < count_; ++i) {
      int& index = index_of_router[graph.router_of(processors[i]) - graph.node_count()];
      if (index < 0) {
        index = static_cast<int>(example.size());
        example.push_back(processors[i]);
      }
      router_[i] = index;
    }
    routers_ = static_cast<int>(example.size());
    if (static_cast<std::size_t>(routers_) * routers_ > kMaxRouterTable) return;
    table_.assign(static_cast<std::size_t>(routers_) * routers_, 2);  // diagonal: same router
    for (int r = 0; r < routers_; ++r)
      for (int s = r + 1; s < routers_; ++s)
        table_[static_cast<std::size_t>(r) * routers_ + s] =
            table_[static_cast<std::size_t>(s) * routers_ + r] =
                graph.distance(example[r], example[s]);
  }
  int graph_distance(int i, int j) const {
    if (i == j) return 0;
    if (table_.empty()) return graph_->distance(nodes_[i], nodes_[j]);
    return table_[static_cast<std::size_t>(router_[i]) * routers_ + router_[j]];
  }

  const Topology* topology_;
  int count_;
  int dims_ = 0;
  std::vector<int> coords_;
  // Graph machines.
  const GraphMachine* graph_ = nullptr;
  std::vector<NodeId> nodes_;
  std::vector<int> router_;  ///< processor index -> index of its router among those spanned
  int routers_ = 0;
  std::vector<int> table_;  ///< routers_ x routers_ distances, empty when too large
};

}  // namespace allocsim::mapping
