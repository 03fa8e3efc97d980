// Slurm's topology/block node selection (eval_nodes_block), `slurm-block`; the definition and
// the sentences it follows are in alloc/slurm_select.hpp.
#include <algorithm>
#include <memory>
#include <string>

#include "allocsim/alloc/slurm_select.hpp"
#include "allocsim/topo/slurm_topology.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim {

namespace {

/// The base blocks of a block-form Slurm topology file and its BlockSizes levels.
struct BlockLayout {
  std::vector<std::vector<NodeId>> bblocks;  ///< nodes of each base block, in id order
  int base_size = 1;                         ///< the planning base block size, in nodes
  std::vector<int> levels;                   ///< log2(size / base size) of each BlockSizes entry
};

/// topology/block: the smallest BlockSizes level that fits, best fit within base blocks,
/// optional segments.
class SlurmBlockAllocator final : public CloneableAllocator<SlurmBlockAllocator> {
 public:
  SlurmBlockAllocator(std::shared_ptr<const BlockLayout> layout, int segment)
      : layout_(std::move(layout)), segment_(segment) {}

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    const int n = job.procs;
    if (n <= 0 || machine.free_count() < n) return std::nullopt;
    // Segments: only for a job of a multiple of S nodes (Slurm ignores S > n and refuses the
    // job when S does not divide n; here it is placed whole).
    const bool segmented = segment_ > 0 && segment_ <= n && n % segment_ == 0;
    const int piece = segmented ? segment_ : n;
    std::vector<char> taken(machine.node_count(), 0);
    Allocation allocation;
    allocation.pieces = 0;
    for (int placed = 0; placed < n; placed += piece)
      if (!place(piece, machine, taken, allocation)) return std::nullopt;
    std::sort(allocation.nodes.begin(), allocation.nodes.end());
    return allocation;
  }

  bool contiguous_only() const override { return true; }

 private:
  /// Places `m` nodes among the free nodes not yet `taken`; false when no block holds them.
  bool place(int m, const MachineView& machine, std::vector<char>& taken,
             Allocation& allocation) const {
    const BlockLayout& layout = *layout_;
    const int base_blocks = static_cast<int>(layout.bblocks.size());
    // The smallest BlockSizes level of at least ceil(log2(ceil(m / base))) base blocks.
    const int needed = (m + layout.base_size - 1) / layout.base_size;
    int level = 0;
    while ((1 << level) < needed) ++level;
    int per_block = base_blocks;  // no such level: the whole machine is one block
    for (int l : layout.levels)
      if (l >= level) {
        per_block = 1 << l;
        break;
      }
    std::vector<int> free_in(base_blocks, 0);
    for (int b = 0; b < base_blocks; ++b)
      for (NodeId node : layout.bblocks[b])
        free_in[b] += machine.is_free(node) && !taken[node] ? 1 : 0;
    // "Select the block: ... with lowest sufficient count of nodes - to minimize fragmentation"
    // (the last in order among equals).
    int block = -1, block_free = 0;
    for (int first = 0; first < base_blocks; first += per_block) {
      int free = 0;
      for (int b = first; b < std::min(first + per_block, base_blocks); ++b) free += free_in[b];
      if (free >= m && (block == -1 || free <= block_free)) block = first, block_free = free;
    }
    if (block == -1) return false;
    const int end = std::min(block + per_block, base_blocks);
    std::vector<char> used(base_blocks, 0);
    int remaining = m;
    for (int before = remaining + 1; before != remaining && remaining > 0;) {
      before = remaining;
      // _choose_best_bblock: one that holds the rest beats one that does not; among those
      // that hold it the fewest free nodes, among the others the most (the last among equals).
      int best = -1;
      bool best_fits = false;
      for (int b = block; b < end; ++b) {
        if (used[b]) continue;
        const bool fits = free_in[b] >= remaining;
        if (best == -1 || (fits && !best_fits) ||
            (!fits && !best_fits && free_in[b] >= free_in[best]) ||
            (fits && free_in[b] <= free_in[best]))
          best = b, best_fits = fits;
      }
      if (best == -1) break;
      used[best] = 1;
      bool any = false;
      for (NodeId node : layout.bblocks[best]) {
        if (remaining == 0) break;
        if (!machine.is_free(node) || taken[node]) continue;
        taken[node] = 1;
        allocation.nodes.push_back(node);
        --remaining;
        any = true;
      }
      allocation.pieces += any ? 1 : 0;
    }
    return remaining == 0;
  }

  std::shared_ptr<const BlockLayout> layout_;
  int segment_;  ///< --segment=S; 0: none
};

std::shared_ptr<const BlockLayout> block_layout(const Topology& topology) {
  const auto* slurm = dynamic_cast<const SlurmTopology*>(topology.graph());
  const std::string refusal =
      "allocator 'slurm-block' works on slurm-topology files of the block form (BlockName= "
      "lines, topology/block) only, not on ";
  if (!topology.graph())
    throw InputError(refusal + "grids or flat machines such as " + topology.spec());
  if (!slurm)
    throw InputError(refusal + topology.kind_name() + " machines such as " + topology.spec() +
                     ", nor on grids or flat machines");
  if (!slurm->block_form())
    throw InputError(refusal + "tree files such as " + topology.spec() +
                     " (SwitchName= lines; use slurm-tree)");
  auto layout = std::make_shared<BlockLayout>();
  for (const SlurmSwitch& s : slurm->switches()) {
    if (s.implicit) continue;
    std::vector<NodeId> nodes = s.nodes;
    std::sort(nodes.begin(), nodes.end());
    layout->bblocks.push_back(std::move(nodes));
  }
  const std::vector<int>& sizes = slurm->block_sizes();
  layout->base_size = sizes.front();
  for (int size : sizes) {
    int level = 0;
    while ((layout->base_size << level) < size) ++level;
    layout->levels.push_back(level);
  }
  return layout;
}

}  // namespace

void append_slurm_block_allocator(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back(
      {"slurm-block",
       "Slurm topology/block: the smallest BlockSizes level that holds the job, best fit within "
       "its base blocks; segment=S places jobs of a multiple of S nodes as segments of S",
       {{"segment",
         ParamKind::integer,
         "0",
         "--segment=S: nodes per segment (0: none)",
         {},
         integer_rule(0, 1e9)}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         return std::make_unique<SlurmBlockAllocator>(block_layout(topology),
                                                      static_cast<int>(params.integer("segment")));
       }});
}

}  // namespace allocsim
