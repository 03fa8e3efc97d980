// SST's dragonfly allocators, Level-Spread and Jokanovic's group allocation on graph machines
// (definitions and sources: alloc/graph_alloc.hpp). Each call counts the free nodes per router
// and group once (GraphLayout::free_counts, O(nodes)); the choice itself then costs O(routers)
// or O(groups) plus the nodes it scans in the routers it takes from.
#include "allocsim/alloc/graph_alloc.hpp"

#include <algorithm>
#include <numeric>

#include "allocsim/alloc/basic.hpp"
#include "allocsim/alloc/graph_layout.hpp"

namespace allocsim {

namespace {

using Layout = std::shared_ptr<const GraphLayout>;
using Counts = GraphLayout::FreeCounts;

/// Rounds over `units` (in order): each unit with nodes left gives take(unit, need) ≥ 1 nodes
/// per turn; units whose `left` count reaches 0 drop out. Stops when `need` nodes are taken
/// (the caller checked that the units hold at least that many).
template <class Take>
void round_robin(std::vector<int> units, std::vector<int>& left, int need, Take take) {
  while (need > 0) {
    std::size_t kept = 0;
    for (std::size_t at = 0; at < units.size() && need > 0; ++at) {
      const int unit = units[at];
      const int got = take(unit, need);
      need -= got;
      left[unit] -= got;
      if (left[unit] > 0) units[kept++] = unit;
    }
    units.resize(kept);
  }
}

/// The next free node of `group` in index order after cursor (router position, node position).
struct GroupCursor {
  int router_at = 0;
  int node_at = 0;
};
NodeId next_free_in_group(const GraphLayout& layout, const MachineView& machine, int group,
                          GroupCursor& cursor) {
  const std::span<const int> routers = layout.routers(group);
  for (; cursor.router_at < static_cast<int>(routers.size()); ++cursor.router_at) {
    const std::span<const NodeId> nodes = layout.nodes(routers[cursor.router_at]);
    while (cursor.node_at < static_cast<int>(nodes.size())) {
      const NodeId node = nodes[cursor.node_at++];
      if (machine.is_free(node)) return node;
    }
    cursor.node_at = 0;
  }
  return -1;  // unreachable when the group's free count is respected
}

/// One node per group in turn from group 0 (dfly-rrn; Level-Spread's last level).
void round_robin_nodes_over_groups(const GraphLayout& layout, const MachineView& machine,
                                   Counts& counts, int need, std::vector<NodeId>& out) {
  std::vector<int> groups;
  for (int group = 0; group < layout.group_count(); ++group)
    if (counts.group[group] > 0) groups.push_back(group);
  std::vector<GroupCursor> cursors(layout.group_count());
  round_robin(groups, counts.group, need, [&](int group, int) {
    out.push_back(next_free_in_group(layout, machine, group, cursors[group]));
    return 1;
  });
}

/// Base of the graph allocators: the layout, shared by clones.
template <class Derived>
class GraphAllocator : public CloneableAllocator<Derived> {
 public:
  explicit GraphAllocator(Layout layout) : layout_(std::move(layout)) {}

 protected:
  const GraphLayout& layout() const { return *layout_; }

 private:
  Layout layout_;
};

/// DflyRDRAllocator: routers in random order, all their free nodes.
class RandomRouters final : public GraphAllocator<RandomRouters> {
 public:
  using GraphAllocator::GraphAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    const Counts counts = layout().free_counts(machine);
    std::vector<int> routers;
    for (int router = 0; router < layout().router_count(); ++router)
      if (counts.router[router] > 0) routers.push_back(router);
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    // SST: "randomly choose a router", then "select all nodes in this router".
    for (std::size_t i = 0; static_cast<int>(allocation.nodes.size()) < job.procs; ++i) {
      const auto j = machine.rng().uniform_int(static_cast<std::int64_t>(i),
                                               static_cast<std::int64_t>(routers.size()) - 1);
      std::swap(routers[i], routers[j]);
      layout().append_free(routers[i], job.procs - static_cast<int>(allocation.nodes.size()),
                           machine, allocation.nodes);
    }
    return allocation;
  }
};

/// DflyRDGAllocator: groups in random order, their free nodes in index order.
class RandomGroups final : public GraphAllocator<RandomGroups> {
 public:
  using GraphAllocator::GraphAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    const Counts counts = layout().free_counts(machine);
    std::vector<int> groups;
    for (int group = 0; group < layout().group_count(); ++group)
      if (counts.group[group] > 0) groups.push_back(group);
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    // SST: "randomly choose a group", then "select nodes one by one in this group".
    for (std::size_t i = 0; static_cast<int>(allocation.nodes.size()) < job.procs; ++i) {
      const auto j = machine.rng().uniform_int(static_cast<std::int64_t>(i),
                                               static_cast<std::int64_t>(groups.size()) - 1);
      std::swap(groups[i], groups[j]);
      for (int router : layout().routers(groups[i]))
        layout().append_free(router, job.procs - static_cast<int>(allocation.nodes.size()), machine,
                             allocation.nodes);
    }
    return allocation;
  }
};

/// DflyRRNAllocator: one node per group in turn.
class RoundRobinNodes final : public GraphAllocator<RoundRobinNodes> {
 public:
  using GraphAllocator::GraphAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    Counts counts = layout().free_counts(machine);
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    round_robin_nodes_over_groups(layout(), machine, counts, job.procs, allocation.nodes);
    return allocation;
  }
};

/// DflyRRRAllocator: per group in turn, all free nodes of its first router with any.
class RoundRobinRouters final : public GraphAllocator<RoundRobinRouters> {
 public:
  using GraphAllocator::GraphAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    Counts counts = layout().free_counts(machine);
    std::vector<int> groups;
    for (int group = 0; group < layout().group_count(); ++group)
      if (counts.group[group] > 0) groups.push_back(group);
    std::vector<int> next_router(layout().group_count(), 0);
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    // SST: "find the first not-full router in this group", "allocate all the nodes in this
    // router", "then go to the next group".
    round_robin(groups, counts.group, job.procs, [&](int group, int need) {
      const std::span<const int> routers = layout().routers(group);
      int& at = next_router[group];
      while (counts.router[routers[at]] == 0) ++at;
      return layout().append_free(routers[at++], need, machine, allocation.nodes);
    });
    return allocation;
  }
};

/// SimpleSpreadAllocator: the first free nodes in (router index, group) order.
class SpreadOrder final : public GraphAllocator<SpreadOrder> {
 public:
  explicit SpreadOrder(Layout layout) : GraphAllocator(std::move(layout)) {
    const GraphLayout& l = this->layout();
    std::vector<int> order(l.router_count());
    std::iota(order.begin(), order.end(), 0);
    // "use the same local ID in the next group", then "the next local ID in the first group".
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return std::pair(l.index_in_group(a), l.group_of_router(a)) <
             std::pair(l.index_in_group(b), l.group_of_router(b));
    });
    order_ = std::make_shared<const std::vector<int>>(std::move(order));
  }
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    for (std::size_t at = 0; static_cast<int>(allocation.nodes.size()) < job.procs; ++at)
      layout().append_free((*order_)[at], job.procs - static_cast<int>(allocation.nodes.size()),
                           machine, allocation.nodes);
    return allocation;
  }

 private:
  std::shared_ptr<const std::vector<int>> order_;  // leaf routers in spread order, shared by clones
};

/// Level-Spread (Zhang et al., IPDPS 2018).
class LevelSpread final : public GraphAllocator<LevelSpread> {
 public:
  using GraphAllocator::GraphAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    const GraphLayout& l = layout();
    Counts counts = l.free_counts(machine);
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    // "If a job fits within the available nodes that are connected to a single router, it
    // selects the router with the largest number of idle nodes and allocates the job there."
    if (job.procs <= l.max_router_nodes()) {
      const auto best = std::max_element(counts.router.begin(), counts.router.end());
      if (*best >= job.procs) {
        l.append_free(static_cast<int>(best - counts.router.begin()), job.procs, machine,
                      allocation.nodes);
        return allocation;
      }
    }
    // "If a job cannot fit within a single router but fits within the available nodes in a
    // single group, it selects the most idle group ... it selects nodes connected to different
    // routers in a round-robin manner."
    if (job.procs <= l.max_group_nodes()) {
      const auto best = std::max_element(counts.group.begin(), counts.group.end());
      if (*best >= job.procs) {
        const int group = static_cast<int>(best - counts.group.begin());
        std::vector<int> routers;
        for (int router : l.routers(group))
          if (counts.router[router] > 0) routers.push_back(router);
        std::vector<int> taken(l.router_count(), 0);
        round_robin(routers, counts.router, job.procs, [&](int router, int) {
          const std::span<const NodeId> nodes = l.nodes(router);
          int& at = taken[router];
          while (!machine.is_free(nodes[at])) ++at;
          allocation.nodes.push_back(nodes[at++]);
          return 1;
        });
        return allocation;
      }
    }
    // "If a job cannot fit within a single group, it spreads the job throughout the entire
    // network, where it selects nodes in different groups in a round-robin manner."
    round_robin_nodes_over_groups(l, machine, counts, job.procs, allocation.nodes);
    return allocation;
  }
};

/// Jokanovic et al. (IPDPS 2015): small jobs inside the first group that holds them.
class Jokanovic final : public GraphAllocator<Jokanovic> {
 public:
  using GraphAllocator::GraphAllocator;
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    const GraphLayout& l = layout();
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    if (job.procs <= l.max_group_nodes()) {
      const Counts counts = l.free_counts(machine);
      // The first group with enough free nodes; unlike SST, its choice stands.
      for (int group = 0; group < l.group_count(); ++group) {
        if (counts.group[group] < job.procs) continue;
        for (int router : l.routers(group))
          l.append_free(router, job.procs - static_cast<int>(allocation.nodes.size()), machine,
                        allocation.nodes);
        return allocation;
      }
      // No group holds the job: the lowest free ids.
      for (NodeId node = 0; static_cast<int>(allocation.nodes.size()) < job.procs; ++node)
        if (machine.is_free(node)) allocation.nodes.push_back(node);
      return allocation;
    }
    // Larger than a group: the highest free ids, from the top down.
    for (NodeId node = machine.node_count() - 1;
         static_cast<int>(allocation.nodes.size()) < job.procs; --node)
      if (machine.is_free(node)) allocation.nodes.push_back(node);
    return allocation;
  }
};

template <class A>
AllocatorFactory graph_factory(const char* name) {
  return [name](const Params&, const Topology& topology) -> std::unique_ptr<Allocator> {
    return std::make_unique<A>(
        std::make_shared<const GraphLayout>(topology, std::string("allocator '") + name + "'"));
  };
}

}  // namespace

void append_graph_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back({"simple",
                     "SST's simple allocator: the p lowest free node ids, filling routers then "
                     "groups (the same choice as flat)",
                     {},
                     [](const Params&, const Topology&) { return make_flat_allocator(); }});
  entries.push_back({"dfly-rdr",
                     "SST dragonfly: routers in random order, all their free nodes (graphs)",
                     {},
                     graph_factory<RandomRouters>("dfly-rdr")});
  entries.push_back({"dfly-rdg",
                     "SST dragonfly: groups in random order, their free nodes in index order "
                     "(graphs)",
                     {},
                     graph_factory<RandomGroups>("dfly-rdg")});
  entries.push_back({"dfly-rrn",
                     "SST dragonfly: one node per group round-robin from group 0 (graphs)",
                     {},
                     graph_factory<RoundRobinNodes>("dfly-rrn")});
  entries.push_back({"dfly-rrr",
                     "SST dragonfly: per group in turn, all free nodes of its first router with "
                     "any (graphs)",
                     {},
                     graph_factory<RoundRobinRouters>("dfly-rrr")});
  entries.push_back({"dfly-spread",
                     "SST dragonfly: fill a router, then the same-numbered router of the next "
                     "group (graphs)",
                     {},
                     graph_factory<SpreadOrder>("dfly-spread")});
  entries.push_back({"level-spread",
                     "Level-Spread (Zhang et al., IPDPS 2018): the emptiest router, else the "
                     "emptiest group round-robin over routers, else round-robin over groups "
                     "(graphs)",
                     {},
                     graph_factory<LevelSpread>("level-spread")});
  entries.push_back({"jokanovic",
                     "Jokanovic et al. (IPDPS 2015): a small job in the first group that holds "
                     "it, else lowest free ids; a job larger than a group from the top down "
                     "(graphs)",
                     {},
                     graph_factory<Jokanovic>("jokanovic")});
  entries.push_back({"nearest",
                     "greedy by router hops around the best of 8 centres (one per emptiest "
                     "group), as SST's nearest allocator (graphs)",
                     {},
                     [](const Params&, const Topology& topology) {
                       return make_graph_nearest_allocator(topology);
                     }});
}

}  // namespace allocsim
