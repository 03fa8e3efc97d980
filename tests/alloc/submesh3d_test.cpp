// The 3D contiguous allocator (`submesh3d`) against brute force on small meshes and tori: the
// prefix-sum search finds exactly the box a direct scan of every base and orientation finds
// (First Fit and Best Fit), box shapes, node lists, and the allocator through the registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "allocsim/alloc/submesh3d.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

Grid3 grid_of(const std::string& spec) {
  return require_grid3(Topology::parse(spec), "test");
}

/// Whether `(x, y, z)` lies on the machine (false: outside a mesh side).
bool on_machine(const Grid3& grid, std::array<int, 3> c) {
  for (int axis = 0; axis < 3; ++axis)
    if (!grid.wraps[axis] && (c[axis] < 0 || c[axis] >= grid.sides[axis])) return false;
  return true;
}

NodeId node_at(const Grid3& grid, std::array<int, 3> c) {
  for (int axis = 0; axis < 3; ++axis)
    c[axis] = ((c[axis] % grid.sides[axis]) + grid.sides[axis]) % grid.sides[axis];
  return grid.id(c[0], c[1], c[2]);
}

/// Brute force: every base in node-id order, every orientation in the documented order, each
/// cell tested directly; Best Fit scores counted face cell by face cell.
std::optional<Box3> brute_force(const Grid3& grid, const std::vector<char>& busy,
                                std::array<int, 3> shape, Fit fit, bool rotate) {
  std::vector<std::array<int, 3>> shapes{shape};
  if (rotate) {
    std::array<int, 3> p = shape;
    std::sort(p.begin(), p.end());
    do
      if (p != shape) shapes.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
  }
  std::optional<Box3> best;
  int best_score = -1;
  for (int z = 0; z < grid.sides[2]; ++z)
    for (int y = 0; y < grid.sides[1]; ++y)
      for (int x = 0; x < grid.sides[0]; ++x)
        for (const auto& s : shapes) {
          const std::array<int, 3> base{x, y, z};
          bool ok = true;
          for (int axis = 0; axis < 3; ++axis) {
            if (s[axis] > grid.sides[axis]) ok = false;
            if (!grid.wraps[axis] && base[axis] + s[axis] > grid.sides[axis]) ok = false;
            if (grid.wraps[axis] && s[axis] == grid.sides[axis] && base[axis] != 0) ok = false;
          }
          if (!ok) continue;
          for (int dz = 0; dz < s[2] && ok; ++dz)
            for (int dy = 0; dy < s[1] && ok; ++dy)
              for (int dx = 0; dx < s[0] && ok; ++dx)
                if (busy[node_at(grid, {x + dx, y + dy, z + dz})]) ok = false;
          if (!ok) continue;
          const Box3 box{base, s};
          if (fit == Fit::first) return box;
          int score = 0;
          for (int axis = 0; axis < 3; ++axis) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            for (int side : {-1, s[axis]})
              for (int du = 0; du < s[u]; ++du)
                for (int dv = 0; dv < s[v]; ++dv) {
                  std::array<int, 3> c = base;
                  c[axis] += side;
                  c[u] += du;
                  c[v] += dv;
                  if (!on_machine(grid, c) || busy[node_at(grid, c)]) ++score;
                }
          }
          if (score > best_score) {
            best = box;
            best_score = score;
          }
        }
  return best;
}

TEST(Submesh3D, SearchEqualsBruteForceOnSmallMeshesAndTori) {
  Rng rng(17);
  int found = 0, refused = 0;
  for (const char* spec : {"mesh:3x3x3", "mesh:4x3x2", "torus:3x3x3", "torus:4x2x3", "torus:2x2x2",
                           "mesh:5x4", "torus:4x4"}) {
    const Grid3 grid = grid_of(spec);
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<char> busy(grid.nodes());
      const double density = rng.uniform() * 0.6;
      for (auto& cell : busy) cell = rng.uniform() < density;
      const std::array<int, 3> shape{static_cast<int>(rng.uniform_int(1, 4)),
                                     static_cast<int>(rng.uniform_int(1, 3)),
                                     static_cast<int>(rng.uniform_int(1, 3))};
      for (Fit fit : {Fit::first, Fit::best})
        for (bool rotate : {false, true}) {
          const auto got = find_free_box(grid, busy, shape, fit, rotate);
          const auto want = brute_force(grid, busy, shape, fit, rotate);
          ASSERT_EQ(got.has_value(), want.has_value()) << spec << " trial " << trial;
          if (!got) {
            ++refused;
            continue;
          }
          ++found;
          EXPECT_EQ(got->base, want->base) << spec << " trial " << trial;
          EXPECT_EQ(got->sides, want->sides) << spec << " trial " << trial;
          for (NodeId node : box_nodes(grid, *got)) EXPECT_FALSE(busy[node]);
        }
    }
  }
  EXPECT_GT(found, 1000);  // both outcomes were exercised
  EXPECT_GT(refused, 1000);
}

TEST(Submesh3D, BoxesWrapAroundATorusButNotAMesh) {
  // Only column x = 1 is busy on a 4x1x1 line: a 2-long box fits at x = 2 on both, and a
  // 3-long box only on the torus (base 2, wrapping to x = 0).
  for (const char* spec : {"mesh:4x1x1", "torus:4x1x1"}) {
    const Grid3 grid = grid_of(spec);
    const std::vector<char> busy{0, 1, 0, 0};
    EXPECT_EQ(find_free_box(grid, busy, {2, 1, 1}, Fit::first, false)->base,
              (std::array<int, 3>{2, 0, 0}));
    const auto three = find_free_box(grid, busy, {3, 1, 1}, Fit::first, false);
    EXPECT_EQ(three.has_value(), grid.wraps[0]) << spec;
    if (three) {
      EXPECT_EQ(box_nodes(grid, *three), (std::vector<NodeId>{0, 2, 3}));
    }
  }
}

TEST(Submesh3D, BestFitPrefersACorner) {
  // Empty 4x4x4 mesh, a 2x2x2 box: Best Fit takes the corner at the origin (3 boundary faces);
  // with the origin busy, the first other corner (3 boundary faces, 12 processors).
  const Grid3 grid = grid_of("mesh:4x4x4");
  std::vector<char> busy(grid.nodes(), 0);
  EXPECT_EQ(find_free_box(grid, busy, {2, 2, 2}, Fit::best, false)->base,
            (std::array<int, 3>{0, 0, 0}));
  busy[grid.id(0, 0, 0)] = 1;
  const auto best = find_free_box(grid, busy, {2, 2, 2}, Fit::best, false);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->base, (std::array<int, 3>{2, 0, 0}));
  // Busy processors next to a face count like the boundary: with x = 1..3 of row (y 0..1, z 2)
  // busy as well, the box under them (base (2, 0, 0)) scores 12 + 4 and wins over the corners.
  for (int x = 1; x < 4; ++x)
    for (int y = 0; y < 2; ++y) busy[grid.id(x, y, 2)] = 1;
  EXPECT_EQ(find_free_box(grid, busy, {2, 2, 2}, Fit::best, false)->base,
            (std::array<int, 3>{2, 0, 0}));
}

TEST(Submesh3D, ShapesAreTheMostCubicBoxThatFits) {
  const Grid3 cube = grid_of("mesh:8x8x8");
  EXPECT_EQ(box_shape(1, cube), (std::array<int, 3>{1, 1, 1}));
  EXPECT_EQ(box_shape(7, cube), (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(box_shape(12, cube), (std::array<int, 3>{3, 2, 2}));
  EXPECT_EQ(box_shape(27, cube), (std::array<int, 3>{3, 3, 3}));
  EXPECT_EQ(box_shape(512, cube), (std::array<int, 3>{8, 8, 8}));
  const Grid3 flat = grid_of("mesh:8x8x2");
  EXPECT_EQ(box_shape(128, flat), (std::array<int, 3>{8, 8, 2}));
  EXPECT_EQ(box_shape(9, flat), (std::array<int, 3>{3, 3, 1}));   // longest side 3, exact
  EXPECT_EQ(box_shape(10, flat), (std::array<int, 3>{3, 2, 2}));  // 3x3x1 holds only 9
}

TEST(Submesh3D, AllocatorPlacesBoxesUntilTheMachineIsFull) {
  const Topology topology = Topology::parse("torus:4x4x4");
  const auto allocator = make_allocator("submesh3d:fit=best", topology);
  std::vector<char> busy(topology.node_count(), 0);
  int free = topology.node_count();
  Rng rng(3);
  Job job;
  job.procs = 8;
  EXPECT_EQ(allocator->nodes_needed(job), 8);
  for (int placed = 0; placed < 8; ++placed) {
    const MachineView view(topology, busy, free, rng);
    const auto allocation = allocator->allocate(job, view);
    ASSERT_TRUE(allocation) << "placement " << placed;
    ASSERT_EQ(allocation->nodes.size(), 8u);
    for (NodeId node : allocation->nodes) {
      ASSERT_FALSE(busy[node]);
      busy[node] = 1;
    }
    free -= 8;
  }
  const MachineView full(topology, busy, free, rng);
  EXPECT_FALSE(allocator->allocate(job, full));
  job.procs = 5;  // 2x2x2 box: internal fragmentation
  EXPECT_EQ(allocator->nodes_needed(job), 8);
}

TEST(Submesh3D, RefusedOnFlatMachines) {
  EXPECT_THROW(make_allocator("submesh3d", Topology::parse("flat:64")), InputError);
}

}  // namespace
}  // namespace allocsim
