// 2D buddy system and Multiple Buddy System over a quadtree of free counts
// (Li & Cheng 1991; Lo, Windisch, Liu & Nitzberg 1997, §3.3).
#include "allocsim/alloc/mesh2d_buddy.hpp"

#include <algorithm>

namespace allocsim {

std::size_t morton_index(int x, int y) {
  std::size_t index = 0;
  for (int bit = 0; (x >> bit) != 0 || (y >> bit) != 0; ++bit) {
    index |= static_cast<std::size_t>((x >> bit) & 1) << (2 * bit);
    index |= static_cast<std::size_t>((y >> bit) & 1) << (2 * bit + 1);
  }
  return index;
}

namespace {

/// Inverse of morton_index.
void morton_coords(std::size_t index, int& x, int& y) {
  x = y = 0;
  for (int bit = 0; index != 0; ++bit, index >>= 2) {
    x |= static_cast<int>(index & 1) << bit;
    y |= static_cast<int>((index >> 1) & 1) << bit;
  }
}

}  // namespace

QuadBlocks::QuadBlocks(Mesh2D mesh) : mesh_(mesh) {
  while ((1 << top_) < std::max(mesh.width, mesh.height)) ++top_;
  free_.resize(top_ + 1);
  for (int level = 0; level <= top_; ++level)
    free_[level].assign(std::size_t{1} << (2 * (top_ - level)), 0);
  std::vector<NodeId> all(mesh.nodes());
  for (NodeId node = 0; node < mesh.nodes(); ++node) all[node] = node;
  vacate(all);
}

QuadBlocks QuadBlocks::from_machine(const Mesh2D& mesh, const MachineView& machine) {
  QuadBlocks blocks(mesh);
  std::vector<NodeId> busy;
  for (NodeId node = 0; node < mesh.nodes(); ++node)
    if (!machine.is_free(node)) busy.push_back(node);
  blocks.occupy(busy);
  return blocks;
}

void QuadBlocks::update(std::span<const NodeId> nodes, int delta) {
  for (const NodeId node : nodes) {
    const std::size_t index = morton_index(mesh_.x_of(node), mesh_.y_of(node));
    for (int level = 0; level <= top_; ++level) free_[level][index >> (2 * level)] += delta;
  }
}

void QuadBlocks::occupy(const Rect& block) {
  occupy(mesh_.nodes_of(block));
}

Rect QuadBlocks::block_rect(int level, std::size_t index, int side) const {
  int bx = 0, by = 0;
  morton_coords(index, bx, by);
  return Rect{bx << level, by << level, side, side};
}

std::vector<Rect> QuadBlocks::free_blocks() const {
  std::vector<Rect> blocks;
  for (int level = top_; level >= 0; --level)
    for (std::size_t index = 0; index < free_[level].size(); ++index)
      if (maximal(level, index)) blocks.push_back(block_rect(level, index, 1 << level));
  return blocks;
}

std::optional<Rect> QuadBlocks::take(int level) const {
  if (level < 0) return std::nullopt;
  // The smallest level holding a maximal free block, lowest Morton index first; its base
  // sub-block of side 2^level is what repeated buddy splitting hands out.
  for (int from = level; from <= top_; ++from)
    for (std::size_t index = 0; index < free_[from].size(); ++index)
      if (maximal(from, index)) return block_rect(from, index, 1 << level);
  return std::nullopt;
}

const QuadBlocks& TrackedQuadBlocks::view(const MachineView& machine,
                                          std::optional<QuadBlocks>& scratch) const {
  if (blocks_.free_count() == machine.free_count()) return blocks_;
  scratch = QuadBlocks::from_machine(blocks_.mesh(), machine);
  return *scratch;
}

// ---------------------------------------------------------------- buddy2d

int Buddy2DAllocator::block_level(const Job& job) {
  int side = 1;
  if (job.shape_a > 0 && job.shape_b > 0) {
    side = std::max(job.shape_a, job.shape_b);
  } else {
    const int p = std::max(1, job.procs);
    while (side * side < p) ++side;
  }
  int level = 0;
  while ((1 << level) < side) ++level;
  return level;
}

std::optional<Allocation> Buddy2DAllocator::allocate(const Job& job,
                                                     const MachineView& machine) const {
  const int level = block_level(job);
  if (machine.free_count() < (1 << (2 * level))) return std::nullopt;
  std::optional<QuadBlocks> scratch;
  const std::optional<Rect> block = blocks_.view(machine, scratch).take(level);
  if (!block) return std::nullopt;
  Allocation allocation;
  allocation.nodes = mesh_.nodes_of(*block);
  allocation.pieces = 1;
  return allocation;
}

// ---------------------------------------------------------------- mbs

std::optional<Allocation> MbsAllocator::allocate(const Job& job, const MachineView& machine) const {
  const int p = job_processors(job);
  if (machine.free_count() < p) return std::nullopt;
  std::optional<QuadBlocks> scratch;
  QuadBlocks work = blocks_.view(machine, scratch);
  const int top = work.top_level();
  // Base-4 digits of p: d[i] blocks of 2^i x 2^i (the top digit takes what is left).
  std::vector<int> wanted(top + 1, 0);
  int rest = p;
  for (int level = 0; level < top; ++level, rest /= 4) wanted[level] = rest % 4;
  wanted[top] = rest;
  Allocation allocation;
  allocation.pieces = 0;
  for (int level = top; level >= 0; --level) {
    for (int taken = 0; taken < wanted[level]; ++taken) {
      const std::optional<Rect> block = work.take(level);
      if (!block) {
        if (level == 0) return std::nullopt;               // fewer free processors than counted
        wanted[level - 1] += 4 * (wanted[level] - taken);  // break the rest into quarters
        break;
      }
      work.occupy(*block);
      mesh_.append_nodes(*block, allocation.nodes);
      ++allocation.pieces;
    }
  }
  return allocation;
}

}  // namespace allocsim
