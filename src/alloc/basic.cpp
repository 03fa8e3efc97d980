// Topology-oblivious baselines (random, flat) and Cplant's sorted free list (Leung et al.:
// "the first p free processors in a fixed order", row-major or snake).
#include "allocsim/alloc/basic.hpp"
#include "allocsim/topo/ordering.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace allocsim {

std::vector<NodeId> MachineView::free_nodes() const {
  // Without a branch per node (on a mostly free 100k-node machine the branch mispredicts
  // often): every id is written at the next slot, which only a free node keeps. The slot is
  // clamped to the last one, so a free count that disagrees with the busy map cannot write past
  // the end; it is reported instead.
  const std::vector<char>& busy = *busy_;
  const std::size_t limit = static_cast<std::size_t>(std::max(free_count_, 0));
  std::vector<NodeId> result(limit + 1);
  std::size_t at = 0, seen = 0;
  for (NodeId node = 0; node < node_count(); ++node) {
    const std::size_t is_free = busy[node] == 0;
    result[at] = node;
    seen += is_free;
    at = std::min(at + is_free, limit);
  }
  if (seen != limit)
    throw std::logic_error("machine view: free count " + std::to_string(free_count_) +
                           " disagrees with the busy map's " + std::to_string(seen));
  result.resize(limit);
  return result;
}

namespace {

/// Any p free processors: the lowest free ids (the topology-oblivious baseline).
class FlatAllocator final : public CloneableAllocator<FlatAllocator> {
 public:
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    for (NodeId node = 0; static_cast<int>(allocation.nodes.size()) < job.procs; ++node)
      if (machine.is_free(node)) allocation.nodes.push_back(node);
    return allocation;
  }
  bool takes_lowest_free_ids() const override { return true; }
};

/// p free processors drawn uniformly at random from the simulation's generator.
class RandomAllocator final : public CloneableAllocator<RandomAllocator> {
 public:
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
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
  explicit SortedFreeListAllocator(std::vector<NodeId> order)
      : order_(std::make_shared<const std::vector<NodeId>>(std::move(order))) {}
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    for (NodeId node : *order_) {
      if (static_cast<int>(allocation.nodes.size()) == job.procs) break;
      if (machine.is_free(node)) allocation.nodes.push_back(node);
    }
    return allocation;
  }

 private:
  std::shared_ptr<const std::vector<NodeId>> order_;  // rank -> node, shared by clones
};

}  // namespace

std::unique_ptr<Allocator> make_flat_allocator() {
  return std::make_unique<FlatAllocator>();
}

void append_basic_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back({"flat",
                     "any p free processors (lowest ids): the topology-oblivious baseline",
                     {},
                     [](const Params&, const Topology&) -> std::unique_ptr<Allocator> {
                       return std::make_unique<FlatAllocator>();
                     }});
  entries.push_back({"random",
                     "p free processors chosen uniformly at random (seeded)",
                     {},
                     [](const Params&, const Topology&) -> std::unique_ptr<Allocator> {
                       return std::make_unique<RandomAllocator>();
                     }});
  entries.push_back(
      {"sortedfreelist",
       "Cplant baseline: first p free processors in a fixed order (row-major, snake, curve)",
       {{"order",
         ParamKind::choice,
         "row",
         "processor order (allocsim list orderings)",
         {"row", "snake", "hilbert", "ghilbert"}}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         const std::string& order = params.text("order");
         if (topology.graph() && order != "row")  // the other orders walk coordinates
           topology.require_grid("allocator 'sortedfreelist' with order=" + order);
         return std::make_unique<SortedFreeListAllocator>(make_ordering(order, topology));
       }});
}

}  // namespace allocsim
