// Topology-oblivious baselines (random, flat) and Cplant's sorted free list (Leung et al.:
// "the first p free processors in a fixed order", row-major or snake).
#include "allocsim/alloc/basic.hpp"

#include <algorithm>

namespace allocsim {

std::vector<NodeId> MachineView::free_nodes() const {
  std::vector<NodeId> result;
  result.reserve(free_count_);
  for (NodeId node = 0; node < node_count(); ++node)
    if (!(*busy_)[node]) result.push_back(node);
  return result;
}

std::vector<NodeId> snake_order(const Topology& topology) {
  const int dims = topology.dims();
  std::vector<NodeId> order(topology.node_count());
  std::vector<int> digits(dims), coords(dims);
  for (NodeId rank = 0; rank < topology.node_count(); ++rank) {
    NodeId rest = rank;
    for (int axis = 0; axis < dims; ++axis) {
      digits[axis] = rest % topology.side(axis);
      rest /= topology.side(axis);
    }
    // Boustrophedon: an axis runs backwards when the higher coordinates sum to an odd number.
    int higher_sum = 0;
    for (int axis = dims - 1; axis >= 0; --axis) {
      coords[axis] = (higher_sum % 2) ? topology.side(axis) - 1 - digits[axis] : digits[axis];
      higher_sum += coords[axis];
    }
    order[rank] = topology.id(coords);
  }
  return order;
}

namespace {

/// Any p free processors: the lowest free ids (the topology-oblivious baseline).
class FlatAllocator final : public CloneableAllocator<FlatAllocator> {
 public:
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) override {
    if (machine.free_count() < job.procs) return std::nullopt;
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    for (NodeId node = 0; static_cast<int>(allocation.nodes.size()) < job.procs; ++node)
      if (machine.is_free(node)) allocation.nodes.push_back(node);
    return allocation;
  }
};

/// p free processors drawn uniformly at random from the simulation's generator.
class RandomAllocator final : public CloneableAllocator<RandomAllocator> {
 public:
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) override {
    if (machine.free_count() < job.procs) return std::nullopt;
    std::vector<NodeId> free = machine.free_nodes();
    for (int i = 0; i < job.procs; ++i) {  // partial Fisher-Yates
      const auto j = machine.rng().uniform_int(i, static_cast<std::int64_t>(free.size()) - 1);
      std::swap(free[i], free[j]);
    }
    free.resize(job.procs);
    std::sort(free.begin(), free.end());
    Allocation allocation;
    allocation.nodes = std::move(free);
    return allocation;
  }
};

/// Cplant's baseline: scan a fixed order and take the first p free processors.
class SortedFreeListAllocator final : public CloneableAllocator<SortedFreeListAllocator> {
 public:
  explicit SortedFreeListAllocator(std::vector<NodeId> order) : order_(std::move(order)) {}
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) override {
    if (machine.free_count() < job.procs) return std::nullopt;
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    for (std::size_t rank = 0; static_cast<int>(allocation.nodes.size()) < job.procs; ++rank)
      if (machine.is_free(order_[rank])) allocation.nodes.push_back(order_[rank]);
    return allocation;
  }

 private:
  std::vector<NodeId> order_;  // rank -> node; shared by copies through the vector copy
};

}  // namespace

void append_basic_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back({"flat", "any p free processors (lowest ids): the topology-oblivious baseline",
                     {},
                     [](const Params&, const Topology&) -> std::unique_ptr<Allocator> {
                       return std::make_unique<FlatAllocator>();
                     }});
  entries.push_back({"random", "p free processors chosen uniformly at random (seeded)",
                     {},
                     [](const Params&, const Topology&) -> std::unique_ptr<Allocator> {
                       return std::make_unique<RandomAllocator>();
                     }});
  entries.push_back(
      {"sortedfreelist",
       "Cplant baseline: first p free processors in row-major or snake order",
       {{"order", ParamKind::choice, "row", "processor order", {"row", "snake"}}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         std::vector<NodeId> order;
         if (params.text("order") == "snake" && !topology.is_flat()) {
           order = snake_order(topology);
         } else {
           order.resize(topology.node_count());
           for (NodeId node = 0; node < topology.node_count(); ++node) order[node] = node;
         }
         return std::make_unique<SortedFreeListAllocator>(std::move(order));
       }});
}

}  // namespace allocsim
