#pragma once
// The router/group structure that the graph allocators (alloc/graph_alloc.hpp) walk, read once
// from a GraphMachine (topo/graph_machine.hpp) when the allocator is built: the routers that
// have compute nodes ("leaf routers": dragonfly routers, fat-tree leaf switches, Slurm leaf
// switches, grid routers), in vertex order; each router's nodes in id order; the leaf routers
// of each group (dragonfly group, fat-tree pod, Slurm switch group) in vertex order, and each
// router's position among them (its "index within the group", SST's local router id). Per call,
// free_counts() gives every leaf router's and group's free nodes from the busy vector in one
// pass over the nodes (O(nodes), no branch per node).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Leaf routers and groups of a graph machine, in the numbering the graph allocators use.
/// Immutable; shared by an allocator and its clones.
class GraphLayout {
 public:
  /// Reads the structure of `topology`'s graph machine; throws InputError naming `who` (e.g.
  /// "allocator 'dfly-rdr'") and the machine kinds it supports when `topology` is not a graph
  /// machine (mesh, torus, flat).
  GraphLayout(const Topology& topology, const std::string& who);

  int node_count() const { return node_count_; }
  /// Leaf routers (routers with at least one node), numbered 0 .. router_count() − 1 in vertex
  /// order.
  int router_count() const { return static_cast<int>(router_vertex_.size()); }
  int group_count() const { return static_cast<int>(group_offsets_.size()) - 1; }
  VertexId router_vertex(int router) const { return router_vertex_[router]; }
  /// The nodes of leaf router `router`, in id order.
  std::span<const NodeId> nodes(int router) const {
    return {router_nodes_.data() + router_offsets_[router],
            router_nodes_.data() + router_offsets_[router + 1]};
  }
  /// The leaf router of `node`.
  int router_of(NodeId node) const { return node_router_[node]; }
  /// The group of leaf router `router` (the group of its nodes).
  int group_of_router(int router) const { return router_group_[router]; }
  /// The leaf routers of `group`, in vertex order (position in it: index_in_group()).
  std::span<const int> routers(int group) const {
    return {group_routers_.data() + group_offsets_[group],
            group_routers_.data() + group_offsets_[group + 1]};
  }
  /// Position of leaf router `router` among the leaf routers of its group.
  int index_in_group(int router) const { return router_index_[router]; }
  /// Most nodes on one leaf router / in one group (dragonfly: p and a·p).
  int max_router_nodes() const { return max_router_nodes_; }
  int max_group_nodes() const { return max_group_nodes_; }
  /// True when listing the leaf routers' nodes router after router gives ascending ids
  /// (dragonfly, fat tree; not every Slurm topology file).
  bool routers_in_id_order() const { return routers_in_id_order_; }

  /// Free nodes per leaf router and per group in the machine state `machine`.
  struct FreeCounts {
    std::vector<int> router;
    std::vector<int> group;
  };
  FreeCounts free_counts(const MachineView& machine) const;
  /// Appends to `out` the free nodes of `router` in id order, at most `limit`; returns how many.
  int append_free(int router, int limit, const MachineView& machine,
                  std::vector<NodeId>& out) const;

 private:
  int node_count_ = 0;
  std::vector<VertexId> router_vertex_;
  std::vector<int> router_offsets_;  ///< CSR: router_nodes_[offsets[r] .. offsets[r + 1])
  std::vector<NodeId> router_nodes_;
  std::vector<int> node_router_;
  std::vector<int> router_group_;
  std::vector<int> router_index_;
  std::vector<int> group_offsets_;  ///< CSR: group_routers_[offsets[g] .. offsets[g + 1])
  std::vector<int> group_routers_;
  int max_router_nodes_ = 0;
  int max_group_nodes_ = 0;
  bool routers_in_id_order_ = true;
};

/// The `nearest` allocator for `topology` (src/alloc/graph_nearest.cpp; definition in
/// alloc/graph_alloc.hpp).
std::unique_ptr<Allocator> make_graph_nearest_allocator(const Topology& topology);

}  // namespace allocsim
