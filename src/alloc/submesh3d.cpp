// Contiguous 3D allocation (`submesh3d`): box shapes, the exact free-box search over 3D prefix
// sums of the busy map, and the allocator's registry row.
#include "allocsim/alloc/submesh3d.hpp"

#include <algorithm>

#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

/// Busy counts of any box of an extended grid in constant time. Along each axis the grid is
/// extended so that boxes and their faces never need index arithmetic: extended index i stands
/// for coordinate i - 1; on a mesh axis the indices 0 and side + 1 are the boundary (counted as
/// busy), on a torus axis the coordinates repeat (2·side + 2 indices cover a box spanning the
/// side plus a face on each end).
class BusyPrefix {
 public:
  BusyPrefix(const Grid3& grid, const std::vector<char>& busy) {
    std::array<std::vector<int>, 3> coordinate;  // extended index -> coordinate, -1 = boundary
    for (int axis = 0; axis < 3; ++axis) {
      const int side = grid.sides[axis];
      extent_[axis] = grid.wraps[axis] ? 2 * side + 2 : side + 2;
      for (int i = 0; i < extent_[axis]; ++i) {
        const int c = i - 1;
        if (grid.wraps[axis])
          coordinate[axis].push_back(((c % side) + side) % side);
        else
          coordinate[axis].push_back(c >= 0 && c < side ? c : -1);
      }
    }
    sums_.assign(static_cast<std::size_t>(extent_[0] + 1) * (extent_[1] + 1) * (extent_[2] + 1), 0);
    for (int k = 0; k < extent_[2]; ++k)
      for (int j = 0; j < extent_[1]; ++j)
        for (int i = 0; i < extent_[0]; ++i) {
          const int x = coordinate[0][i], y = coordinate[1][j], z = coordinate[2][k];
          const int cell = (x < 0 || y < 0 || z < 0) ? 1 : (busy[grid.id(x, y, z)] != 0);
          sums_[at(i + 1, j + 1, k + 1)] = cell + sums_[at(i, j + 1, k + 1)] +
                                           sums_[at(i + 1, j, k + 1)] + sums_[at(i + 1, j + 1, k)] -
                                           sums_[at(i, j, k + 1)] - sums_[at(i, j + 1, k)] -
                                           sums_[at(i + 1, j, k)] + sums_[at(i, j, k)];
        }
  }

  /// Busy (or boundary) cells in extended indices [lo, hi) along each axis.
  int count(const std::array<int, 3>& lo, const std::array<int, 3>& hi) const {
    return sums_[at(hi[0], hi[1], hi[2])] - sums_[at(lo[0], hi[1], hi[2])] -
           sums_[at(hi[0], lo[1], hi[2])] - sums_[at(hi[0], hi[1], lo[2])] +
           sums_[at(lo[0], lo[1], hi[2])] + sums_[at(lo[0], hi[1], lo[2])] +
           sums_[at(hi[0], lo[1], lo[2])] - sums_[at(lo[0], lo[1], lo[2])];
  }

 private:
  std::size_t at(int i, int j, int k) const {
    return (static_cast<std::size_t>(k) * (extent_[1] + 1) + j) * (extent_[0] + 1) + i;
  }

  std::array<int, 3> extent_{};
  std::vector<int> sums_;
};

bool fits(const Grid3& grid, const std::array<int, 3>& shape) {
  for (int axis = 0; axis < 3; ++axis)
    if (shape[axis] < 1 || shape[axis] > grid.sides[axis]) return false;
  return true;
}

/// The shape, then (with rotate) its other distinct orientations in lexicographic order; only
/// those that fit the grid.
std::vector<std::array<int, 3>> orientations(const Grid3& grid, std::array<int, 3> shape,
                                             bool rotate) {
  std::vector<std::array<int, 3>> result;
  if (fits(grid, shape)) result.push_back(shape);
  if (!rotate) return result;
  std::array<int, 3> permutation = shape;
  std::sort(permutation.begin(), permutation.end());
  do {
    if (permutation != shape && fits(grid, permutation)) result.push_back(permutation);
  } while (std::next_permutation(permutation.begin(), permutation.end()));
  return result;
}

/// Whether a box of side `length` may start at `base` along `axis`.
bool valid_base(const Grid3& grid, int axis, int base, int length) {
  const int side = grid.sides[axis];
  if (!grid.wraps[axis]) return base + length <= side;
  return length < side || base == 0;  // a box spanning a ring has one base
}

}  // namespace

Grid3 require_grid3(const Topology& topology, const std::string& allocator) {
  if (topology.graph()) topology.require_grid("allocator '" + allocator + "'");
  if (!topology.has_coordinates() || topology.dims() > 3)
    throw InputError("allocator '" + allocator +
                     "' needs a mesh or torus of up to three dimensions such as mesh:8x8x8, "
                     "not " +
                     topology.spec() + ".");
  Grid3 grid;
  for (int axis = 0; axis < topology.dims(); ++axis) {
    grid.sides[axis] = topology.side(axis);
    grid.wraps[axis] = topology.wraps(axis);
  }
  return grid;
}

std::array<int, 3> box_shape(int procs, const Grid3& grid) {
  if (procs >= grid.nodes()) return grid.sides;
  const int p = std::max(1, procs);
  std::array<int, 3> best = grid.sides;
  auto key = [](const std::array<int, 3>& s) {
    // Smaller is better: longest side, volume, then longest along axis 0, then axis 1.
    return std::array<long long, 4>{std::max({s[0], s[1], s[2]}),
                                    static_cast<long long>(s[0]) * s[1] * s[2], -s[0], -s[1]};
  };
  for (int a = 1; a <= grid.sides[0]; ++a)
    for (int b = 1; b <= grid.sides[1]; ++b) {
      const int c = (p + a * b - 1) / (a * b);  // the least c: best for every criterion
      if (c > grid.sides[2]) continue;
      const std::array<int, 3> candidate{a, b, c};
      if (key(candidate) < key(best)) best = candidate;
    }
  return best;
}

std::vector<NodeId> box_nodes(const Grid3& grid, const Box3& box) {
  std::vector<NodeId> nodes;
  nodes.reserve(box.volume());
  for (int dz = 0; dz < box.sides[2]; ++dz)
    for (int dy = 0; dy < box.sides[1]; ++dy)
      for (int dx = 0; dx < box.sides[0]; ++dx)
        nodes.push_back(grid.id((box.base[0] + dx) % grid.sides[0],
                                (box.base[1] + dy) % grid.sides[1],
                                (box.base[2] + dz) % grid.sides[2]));
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

std::optional<Box3> find_free_box(const Grid3& grid, const std::vector<char>& busy,
                                  std::array<int, 3> shape, Fit fit, bool rotate) {
  const auto shapes = orientations(grid, shape, rotate);
  if (shapes.empty()) return std::nullopt;
  const BusyPrefix prefix(grid, busy);
  std::optional<Box3> best;
  int best_score = -1;
  for (int z = 0; z < grid.sides[2]; ++z)
    for (int y = 0; y < grid.sides[1]; ++y)
      for (int x = 0; x < grid.sides[0]; ++x)
        for (const auto& sides : shapes) {
          const std::array<int, 3> base{x, y, z};
          bool valid = true;
          std::array<int, 3> lo{}, hi{};
          for (int axis = 0; axis < 3; ++axis) {
            valid = valid && valid_base(grid, axis, base[axis], sides[axis]);
            lo[axis] = base[axis] + 1;
            hi[axis] = lo[axis] + sides[axis];
          }
          if (!valid || prefix.count(lo, hi) != 0) continue;
          const Box3 box{base, sides};
          if (fit == Fit::first) return box;
          int score = 0;  // busy or boundary processors on the faces, axis by axis
          for (int axis = 0; axis < 3; ++axis) {
            std::array<int, 3> grown_lo = lo, grown_hi = hi;
            --grown_lo[axis];
            ++grown_hi[axis];
            score += prefix.count(grown_lo, grown_hi);
          }
          if (score > best_score) {
            best = box;
            best_score = score;
          }
        }
  return best;
}

std::array<int, 3> Submesh3DAllocator::shape_of(const Job& job) const {
  if (job.shape_a > 0 && job.shape_b > 0) return {job.shape_a, job.shape_b, 1};
  return box_shape(job.procs, grid_);
}

int Submesh3DAllocator::nodes_needed(const Job& job) const {
  const auto shape = shape_of(job);
  return shape[0] * shape[1] * shape[2];
}

std::optional<Allocation> Submesh3DAllocator::allocate(const Job& job,
                                                       const MachineView& machine) const {
  const auto shape = shape_of(job);
  if (machine.free_count() < shape[0] * shape[1] * shape[2]) return std::nullopt;
  std::vector<char> busy(grid_.nodes());
  for (NodeId node = 0; node < grid_.nodes(); ++node) busy[node] = !machine.is_free(node);
  const std::optional<Box3> box = find_free_box(grid_, busy, shape, fit_, rotate_);
  if (!box) return std::nullopt;
  Allocation allocation;
  allocation.nodes = box_nodes(grid_, *box);
  allocation.pieces = 1;
  return allocation;
}

void append_submesh3d_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back(
      {"submesh3d",
       "contiguous a x b x c box on a 3D (or 2D) mesh or torus by First Fit or Best Fit "
       "(Cplant, Red Storm)",
       {ParamSpec{"fit",
                  ParamKind::choice,
                  "first",
                  "first: lowest base in node-id order; best: the free box with the most busy "
                  "or boundary processors next to its faces",
                  {"first", "best"}},
        ParamSpec{"rotate",
                  ParamKind::choice,
                  "1",
                  "1: also try the other orientations of the box",
                  {"0", "1"}}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         return std::make_unique<Submesh3DAllocator>(
             require_grid3(topology, "submesh3d"),
             params.text("fit") == "best" ? Fit::best : Fit::first, params.text("rotate") == "1");
       }});
}

}  // namespace allocsim
