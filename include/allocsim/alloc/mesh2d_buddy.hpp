#pragma once
// Block allocators of 2D meshes built on square power-of-two blocks: the 2D buddy system
// (`buddy2d`, Li & Cheng 1991) and the Multiple Buddy System (`mbs`, Lo, Windisch, Liu &
// Nitzberg 1997, §3.3).
#include <optional>
#include <span>
#include <vector>

#include "allocsim/alloc/submesh.hpp"

namespace allocsim {

/// The buddy system's state as a quadtree of free-processor counts: the block of side 2^k at
/// block coordinates (bx, by) is kept at index morton(bx, by) of level k. A block is free when
/// all of its 4^k processors are free (so it lies wholly inside the mesh); the buddy free lists
/// are the maximal free blocks (free, parent not free). Splitting is taking a sub-block of a
/// larger free block and merging of buddies happens by itself when counts return to full, so
/// the state depends only on which processors are busy and copies cheaply (4/3 · 4^K ints).
class QuadBlocks {
 public:
  /// An all-free mesh (any sides: blocks must lie wholly inside it).
  explicit QuadBlocks(Mesh2D mesh);
  static QuadBlocks from_machine(const Mesh2D& mesh, const MachineView& machine);

  const Mesh2D& mesh() const { return mesh_; }
  /// K, where 2^K is the side of the enclosing power-of-two square.
  int top_level() const { return top_; }
  int free_count() const { return free_[top_][0]; }

  void occupy(std::span<const NodeId> nodes) { update(nodes, -1); }
  void vacate(std::span<const NodeId> nodes) { update(nodes, +1); }
  void occupy(const Rect& block);

  /// Maximal free blocks (the buddy free lists), largest first, then in Morton order.
  std::vector<Rect> free_blocks() const;
  /// The 2^level block the buddy system hands out: a maximal free block of exactly that size
  /// if any, else the base sub-block of the smallest larger one (splitting it); among equals
  /// the lowest Morton index (lowest buddy address). nullopt when no free block is that large.
  std::optional<Rect> take(int level) const;

 private:
  void update(std::span<const NodeId> nodes, int delta);
  bool whole(int level, std::size_t index) const {
    return free_[level][index] == (1 << (2 * level));
  }
  bool maximal(int level, std::size_t index) const {
    return whole(level, index) && (level == top_ || !whole(level + 1, index >> 2));
  }
  Rect block_rect(int level, std::size_t index, int side) const;

  Mesh2D mesh_;
  int top_ = 0;
  std::vector<std::vector<int>> free_;  // [level][morton index] free processors in the block
};

/// Keeps QuadBlocks in step through commit()/release() and checks it against the machine in
/// allocate() (rebuilding a copy from the machine when the free counts disagree).
class TrackedQuadBlocks {
 public:
  explicit TrackedQuadBlocks(Mesh2D mesh) : blocks_(mesh) {}
  const QuadBlocks& view(const MachineView& machine, std::optional<QuadBlocks>& scratch) const;
  void commit(const Allocation& allocation) { blocks_.occupy(allocation.nodes); }
  void release(const Allocation& allocation) { blocks_.vacate(allocation.nodes); }
  const QuadBlocks& blocks() const { return blocks_; }

 private:
  QuadBlocks blocks_;
};

/// `buddy2d`: 2D buddy system on a square power-of-two mesh. A job a×b gets one s×s block,
/// s = 2^ceil(log2 max(a, b)) (count-only jobs: the smallest s with s² >= p); all s² nodes are
/// made busy, the excess being internal fragmentation. Blocks split on demand and buddies merge
/// on release. The factory refuses other meshes (use `mbs` there).
class Buddy2DAllocator : public CloneableAllocator<Buddy2DAllocator> {
 public:
  explicit Buddy2DAllocator(Mesh2D mesh) : mesh_(mesh), blocks_(mesh) {}

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  void commit(const Allocation& allocation) override { blocks_.commit(allocation); }
  void release(const Allocation& allocation) override { blocks_.release(allocation); }
  int nodes_needed(const Job& job) const override { return 1 << (2 * block_level(job)); }
  bool contiguous_only() const override { return true; }

  /// log2 of the block side a job gets.
  static int block_level(const Job& job);
  const QuadBlocks& blocks() const { return blocks_.blocks(); }

 private:
  Mesh2D mesh_;
  TrackedQuadBlocks blocks_;
};

/// `mbs`: Multiple Buddy System. The request p (= a·b) is written in base 4, p = Σ d_i·4^i,
/// and asks for d_i blocks of 2^i×2^i, largest first. A missing block is cut from a larger free
/// one (buddy split); when no free block is that large, each missing block becomes four requests
/// of the next smaller size. Never fails when p processors are free; buddies merge on release.
/// Works on any 2D mesh (blocks lie wholly inside it, as in the paper's initial division).
class MbsAllocator : public CloneableAllocator<MbsAllocator> {
 public:
  explicit MbsAllocator(Mesh2D mesh) : mesh_(mesh), blocks_(mesh) {}

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  void commit(const Allocation& allocation) override { blocks_.commit(allocation); }
  void release(const Allocation& allocation) override { blocks_.release(allocation); }
  int nodes_needed(const Job& job) const override { return job_processors(job); }

  const QuadBlocks& blocks() const { return blocks_.blocks(); }

 private:
  Mesh2D mesh_;
  TrackedQuadBlocks blocks_;
};

/// Interleaves the bits of x (even positions) and y (odd positions): Z order.
std::size_t morton_index(int x, int y);

}  // namespace allocsim
