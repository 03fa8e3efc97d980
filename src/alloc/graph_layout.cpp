// Leaf routers and groups of a graph machine for the graph allocators (alloc/graph_layout.hpp).
#include "allocsim/alloc/graph_layout.hpp"

#include <algorithm>

#include "allocsim/util/error.hpp"

namespace allocsim {

GraphLayout::GraphLayout(const Topology& topology, const std::string& who) {
  const GraphMachine* graph = topology.graph();
  if (graph == nullptr)
    throw InputError(who +
                     " works on graph machines (dragonfly, fattree, slurm-topology, grids with "
                     "per_router) only, not on grids (mesh, torus, semitorus) or flat; machine '" +
                     topology.spec() + "' is a " + topology.kind_name());
  node_count_ = graph->node_count();
  router_offsets_.push_back(0);
  for (VertexId vertex = graph->node_count(); vertex < graph->vertex_count(); ++vertex) {
    const std::span<const NodeId> nodes = graph->nodes_of(vertex);
    if (nodes.empty()) continue;
    router_vertex_.push_back(vertex);
    router_nodes_.insert(router_nodes_.end(), nodes.begin(), nodes.end());
    router_offsets_.push_back(static_cast<int>(router_nodes_.size()));
    router_group_.push_back(graph->group_of(nodes.front()));
    max_router_nodes_ = std::max(max_router_nodes_, static_cast<int>(nodes.size()));
  }
  routers_in_id_order_ = std::is_sorted(router_nodes_.begin(), router_nodes_.end());
  node_router_.assign(node_count_, -1);
  for (int router = 0; router < router_count(); ++router)
    for (NodeId node : nodes(router)) node_router_[node] = router;
  // Groups: counting sort of the leaf routers by group, vertex order kept within a group.
  const int groups = graph->group_count();
  group_offsets_.assign(groups + 1, 0);
  for (int group : router_group_) ++group_offsets_[group + 1];
  for (int group = 0; group < groups; ++group) group_offsets_[group + 1] += group_offsets_[group];
  group_routers_.resize(router_vertex_.size());
  router_index_.resize(router_vertex_.size());
  std::vector<int> next(group_offsets_.begin(), group_offsets_.end() - 1);
  for (int router = 0; router < router_count(); ++router) {
    const int group = router_group_[router];
    router_index_[router] = next[group] - group_offsets_[group];
    group_routers_[next[group]++] = router;
  }
  for (int group = 0; group < groups; ++group) {
    int nodes_in_group = 0;
    for (int router : routers(group))
      nodes_in_group += router_offsets_[router + 1] - router_offsets_[router];
    max_group_nodes_ = std::max(max_group_nodes_, nodes_in_group);
  }
}

GraphLayout::FreeCounts GraphLayout::free_counts(const MachineView& machine) const {
  FreeCounts counts;
  counts.router.resize(router_vertex_.size());
  counts.group.assign(group_count(), 0);
  const char* busy = machine.busy().data();
  for (int router = 0; router < router_count(); ++router) {
    int free = 0;
    for (int at = router_offsets_[router]; at < router_offsets_[router + 1]; ++at)
      free += busy[router_nodes_[at]] == 0;
    counts.router[router] = free;
    counts.group[router_group_[router]] += free;
  }
  return counts;
}

int GraphLayout::append_free(int router, int limit, const MachineView& machine,
                             std::vector<NodeId>& out) const {
  int taken = 0;
  for (int at = router_offsets_[router]; at < router_offsets_[router + 1] && taken < limit; ++at)
    if (machine.is_free(router_nodes_[at])) {
      out.push_back(router_nodes_[at]);
      ++taken;
    }
  return taken;
}

}  // namespace allocsim
