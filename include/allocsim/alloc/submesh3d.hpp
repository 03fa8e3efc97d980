#pragma once
// Contiguous allocation on 3D meshes and tori (`submesh3d`): each job gets one a x b x c box of
// free processors, chosen by First Fit or Best Fit. This is the 3D form of the 2D submesh
// allocator (Zhu 1992; Bani-Mohammad et al. 2007 §2) for machines such as Cplant and Red Storm,
// which are 3D meshes; on a torus a box may wrap around a side.
//
// The search tests every base with 3D prefix sums of the busy map (one pass over the machine,
// then constant time per candidate box), so it is exact: it finds a free box whenever one exists.
#include <array>
#include <optional>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/alloc/submesh.hpp"

namespace allocsim {

/// Sides and wrap-around of a machine of up to three dimensions (missing ones have side 1).
/// Node ids number axis 0 fastest, as Topology.
struct Grid3 {
  std::array<int, 3> sides{1, 1, 1};
  std::array<bool, 3> wraps{false, false, false};

  int nodes() const { return sides[0] * sides[1] * sides[2]; }
  NodeId id(int x, int y, int z) const { return x + sides[0] * (y + sides[1] * z); }
};

/// A box of a Grid3: its base (lowest corner; on a torus the box may run past the last index
/// and continue at 0) and its sides along axes 0, 1, 2.
struct Box3 {
  std::array<int, 3> base{0, 0, 0};
  std::array<int, 3> sides{1, 1, 1};
  int volume() const { return sides[0] * sides[1] * sides[2]; }
  friend bool operator==(const Box3&, const Box3&) = default;
};

/// The grid of `topology`; throws InputError naming `allocator` unless it is a mesh or torus of
/// two or three dimensions.
Grid3 require_grid3(const Topology& topology, const std::string& allocator);

/// The box a job of `procs` processors asks for on `grid`: among boxes that fit the machine
/// (a <= X, b <= Y, c <= Z) with a·b·c >= procs, the most cubic (smallest longest side), then
/// the smallest, then the one longest along axis 0, then axis 1. Requires procs <= grid.nodes().
std::array<int, 3> box_shape(int procs, const Grid3& grid);

/// The node ids of `box` on `grid`, in increasing order.
std::vector<NodeId> box_nodes(const Grid3& grid, const Box3& box);

/// A free box of the given `shape` (and, with `rotate`, of any orientation of it) on `grid`
/// whose processors are busy where busy[node] != 0, or nullopt.
/// First Fit: the box whose base comes first in node-id order (lowest z, then y, then x),
/// orientations in the order shape, then its other permutations in lexicographic order.
/// Best Fit: the free box with the most busy or boundary processors next to its six faces (the
/// 2D rule's perimeter, Zhu 1992, on faces), ties by First Fit order.
/// Bases on a torus range over the whole side unless the box spans it (then base 0 only).
std::optional<Box3> find_free_box(const Grid3& grid, const std::vector<char>& busy,
                                  std::array<int, 3> shape, Fit fit, bool rotate);

/// Contiguous 3D allocator: one free box per job (`box_shape`, or a x b x 1 for jobs that carry
/// a 2D shape); its volume beyond the job's processors is internal fragmentation.
class Submesh3DAllocator : public CloneableAllocator<Submesh3DAllocator> {
 public:
  Submesh3DAllocator(Grid3 grid, Fit fit, bool rotate) : grid_(grid), fit_(fit), rotate_(rotate) {}
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  int nodes_needed(const Job& job) const override;
  bool contiguous_only() const override { return true; }

 private:
  std::array<int, 3> shape_of(const Job& job) const;

  Grid3 grid_;
  Fit fit_;
  bool rotate_;
};

/// Appends the registry row of `submesh3d`.
void append_submesh3d_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

}  // namespace allocsim
