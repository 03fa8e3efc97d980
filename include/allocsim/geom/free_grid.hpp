#pragma once
// The free processors of a mesh or torus as a persistent bit grid, kept by an allocator between
// decisions and brought up to date from the machine's busy map (only the nodes that changed are
// touched), for the MC1x1 scan of geom/mc.hpp (mc1x1_on_grid).
//
// Layout: node ids are in machine order (axis 0 fastest, as Topology numbers them), so node
// id = x + X · row, where `row` numbers the lines along axis 0 (the coordinates on axes 1 … d−1,
// axis 1 fastest). Each line is one 64-bit word whose bit x is set when node (x, row) is free;
// hence axis 0 may have at most 64 positions (and at most 8 axes) (usable() is false otherwise and
// callers use the point-set solvers). A box count is then one masked popcount per line of the box.
#include <cstdint>
#include <span>
#include <vector>

namespace allocsim::geom {

/// Free nodes of a grid machine (sides, ring lengths: 0 = line axis), one word per axis-0 line.
class FreeGrid {
 public:
  FreeGrid() = default;
  /// An all-busy grid with the given sides and rings (ring length per axis, 0 = line).
  FreeGrid(std::vector<int> sides, std::vector<int> rings);

  /// False when the grid has no axes or more than 8, or axis 0 is longer than 64 positions.
  bool usable() const { return usable_; }
  /// Makes the free set that of `busy` (one flag per node, non-zero = busy), touching only the
  /// lines whose nodes changed (found 8 nodes at a time). True when anything changed.
  bool sync(std::span<const char> busy);

  int dims() const { return static_cast<int>(sides_.size()); }
  int side(int axis) const { return sides_[axis]; }
  int ring(int axis) const { return rings_[axis]; }
  const std::vector<int>& rings() const { return rings_; }
  int node_count() const { return node_count_; }
  int line_count() const { return static_cast<int>(lines_.size()); }
  /// Line `row` of axis-0 positions: bit x set when node x + side(0) · row is free.
  std::uint64_t line(int row) const { return lines_[row]; }
  const std::vector<std::uint64_t>& lines() const { return lines_; }
  /// Stride of axis a (≥ 1) in line numbers.
  int line_stride(int axis) const { return line_stride_[axis]; }
  int free_count() const { return free_count_; }
  /// Free nodes of line `row` at axis-0 positions lo … hi (0 ≤ lo ≤ hi < side(0)): two lookups
  /// in the line's running counts (kept for the lines a sync changed).
  int count_in(int row, int lo, int hi) const {
    const std::uint8_t* running = running_.data() + static_cast<std::size_t>(row) * (sides_[0] + 1);
    return running[hi + 1] - running[lo];
  }
  /// Free nodes of line `row`.
  int line_free(int row) const { return count_in(row, 0, sides_[0] - 1); }
  bool is_free(int node) const { return (lines_[node / sides_[0]] >> (node % sides_[0])) & 1u; }

 private:
  std::vector<int> sides_, rings_, line_stride_;
  std::vector<std::uint64_t> lines_;
  std::vector<std::uint8_t> running_;  // per line: free nodes below each position (side(0)+1)
  std::vector<int> dirty_;             // lines changed during a sync
  std::vector<char> busy_;             // the busy map of the last sync
  int node_count_ = 0;
  int free_count_ = 0;
  bool usable_ = false;
};

}  // namespace allocsim::geom
