// Free-submesh search (busy list, Right-of-Busy-Submeshes) against hand-made maps and against
// the bitmap reference on thousands of random maps; shape rule; the `submesh` allocator.
#include <gtest/gtest.h>

#include <algorithm>

#include "allocsim/alloc/submesh.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {
namespace {

BusyGrid grid_of(const BusyList& list) {
  BusyGrid grid(list.mesh());
  for (const Rect& r : list.rects()) grid.mark(r, true);
  return grid;
}

Job shaped(int a, int b) {
  Job job;
  job.procs = a * b;
  job.shape_a = a;
  job.shape_b = b;
  return job;
}

Job counted(int p) {
  Job job;
  job.procs = p;
  return job;
}

TEST(SubmeshShape, RuleForCountOnlyJobs) {
  const Mesh2D mesh{16, 16};
  auto square = [&](int p) { return job_shape(counted(p), ShapeRule::square, mesh); };
  auto row = [&](int p) { return job_shape(counted(p), ShapeRule::row, mesh); };
  EXPECT_EQ(square(1).w, 1);
  EXPECT_EQ(square(1).h, 1);
  EXPECT_EQ(square(7).w, 3);  // 3x3 >= 7
  EXPECT_EQ(square(7).h, 3);
  EXPECT_EQ(square(12).w, 4);  // 4x3
  EXPECT_EQ(square(12).h, 3);
  EXPECT_EQ(square(16).area(), 16);
  EXPECT_EQ(row(5).w, 5);
  EXPECT_EQ(row(5).h, 1);
  EXPECT_EQ(row(20).w, 16);  // folded onto the mesh width
  EXPECT_EQ(row(20).h, 2);
  EXPECT_EQ(job_processors(counted(9)), 9);
  EXPECT_EQ(job_processors(shaped(3, 5)), 15);
}

TEST(SubmeshShape, RequestedShapeIsKeptOrTurnedToFit) {
  const Shape kept = job_shape(shaped(3, 5), ShapeRule::square, Mesh2D{16, 16});
  EXPECT_EQ(kept.w, 3);
  EXPECT_EQ(kept.h, 5);
  const Shape turned = job_shape(shaped(20, 2), ShapeRule::square, Mesh2D{16, 32});
  EXPECT_EQ(turned.w, 2);
  EXPECT_EQ(turned.h, 20);
}

TEST(SubmeshDecompose, GreedyRectangles) {
  const Mesh2D mesh{4, 4};
  // An L: row 0 columns 0..2 plus column 0 of rows 1..2 -> a 3x1 then a 1x2.
  const std::vector<NodeId> nodes{mesh.id(0, 0), mesh.id(1, 0), mesh.id(2, 0), mesh.id(0, 1),
                                  mesh.id(0, 2)};
  const auto rects = decompose_rects(mesh, nodes);
  ASSERT_EQ(rects.size(), 2u);
  EXPECT_EQ(rects[0], (Rect{0, 0, 3, 1}));
  EXPECT_EQ(rects[1], (Rect{0, 1, 1, 2}));
  // A whole block comes back as one rectangle.
  const auto block = decompose_rects(mesh, mesh.nodes_of(Rect{1, 1, 3, 2}));
  ASSERT_EQ(block.size(), 1u);
  EXPECT_EQ(block[0], (Rect{1, 1, 3, 2}));
}

TEST(SubmeshSearch, HandMadeFirstFit) {
  BusyList list(Mesh2D{8, 8});
  list.add(Rect{0, 0, 3, 2});
  list.add(Rect{5, 0, 3, 3});
  list.add(Rect{0, 4, 2, 4});
  EXPECT_EQ(list.find(2, 2, Fit::first), (Rect{3, 0, 2, 2}));
  EXPECT_EQ(list.find(3, 3, Fit::first), (Rect{2, 2, 3, 3}));
  EXPECT_EQ(list.find(6, 4, Fit::first), (Rect{2, 3, 6, 4}));
  EXPECT_FALSE(list.find(7, 5, Fit::first).has_value());
  EXPECT_FALSE(list.find(9, 1, Fit::first).has_value());
  EXPECT_EQ(list.busy_area(), 6 + 9 + 8);
}

TEST(SubmeshSearch, HandMadeBestFitPrefersTheSnugHole) {
  // 6x6: a full busy row y=2, and a 2x2 hole at (4,3) walled in by busy processors and the
  // boundary on all four sides (contact 8). First Fit takes (0,0) (contact 6).
  BusyList list(Mesh2D{6, 6});
  list.add(Rect{0, 2, 6, 1});
  list.add(Rect{3, 3, 1, 2});
  list.add(Rect{4, 5, 2, 1});
  EXPECT_EQ(list.find(2, 2, Fit::first), (Rect{0, 0, 2, 2}));
  EXPECT_EQ(list.find(2, 2, Fit::best), (Rect{4, 3, 2, 2}));
  EXPECT_EQ(list.contact(Rect{4, 3, 2, 2}), 8);
  EXPECT_EQ(list.contact(Rect{0, 0, 2, 2}), 6);
  EXPECT_EQ(list.contact(Rect{0, 3, 2, 2}), 4);
  const BusyGrid grid = grid_of(list);
  EXPECT_EQ(grid.find(2, 2, Fit::best), (Rect{4, 3, 2, 2}));
}

TEST(SubmeshSearch, SubtractCutsAcrossRectangles) {
  BusyList list(Mesh2D{6, 6});
  list.add(Rect{0, 0, 6, 3});
  list.subtract(Rect{2, 1, 2, 1});  // hole in the middle: 4 pieces remain
  EXPECT_EQ(list.busy_area(), 16);
  EXPECT_TRUE(list.is_free(Rect{2, 1, 2, 1}));
  EXPECT_FALSE(list.is_free(Rect{1, 1, 2, 1}));
  list.subtract(Rect{0, 0, 6, 3});
  EXPECT_EQ(list.busy_area(), 0);
  EXPECT_TRUE(list.rects().empty());
}

TEST(SubmeshSearch, LargestFreeSubmeshHandMade) {
  BusyList list(Mesh2D{8, 8});
  list.add(Rect{0, 3, 8, 5});  // rows 0..2 free: 8x3
  EXPECT_EQ(list.largest(8, 8, 64), (Rect{0, 0, 8, 3}));
  EXPECT_EQ(list.largest(4, 4, 64), (Rect{0, 0, 4, 3}));
  // Area at most 5: 2x2 and 4x1 both give 4; ties go to the narrower.
  EXPECT_EQ(list.largest(4, 4, 5), (Rect{0, 0, 2, 2}));
  EXPECT_EQ(list.largest(1, 8, 64), (Rect{0, 0, 1, 3}));
}

/// A random busy list: random rectangles dropped where free, then some cut out again.
BusyList random_list(Rng& rng, int width, int height) {
  BusyList list(Mesh2D{width, height});
  const int tries = static_cast<int>(rng.uniform_int(0, 12));
  for (int t = 0; t < tries; ++t) {
    const int w = static_cast<int>(rng.uniform_int(1, std::max(1, width / 2)));
    const int h = static_cast<int>(rng.uniform_int(1, std::max(1, height / 2)));
    const Rect r{static_cast<int>(rng.uniform_int(0, width - w)),
                 static_cast<int>(rng.uniform_int(0, height - h)), w, h};
    if (list.is_free(r)) list.add(r);
  }
  return list;
}

/// A random bitmap decomposed into a busy list.
BusyList random_cells(Rng& rng, int width, int height) {
  const Mesh2D mesh{width, height};
  const double density = rng.uniform() * 0.6;
  std::vector<NodeId> busy;
  for (NodeId node = 0; node < mesh.nodes(); ++node)
    if (rng.uniform() < density) busy.push_back(node);
  BusyList list(mesh);
  list.add_nodes(busy);
  EXPECT_EQ(list.busy_area(), static_cast<int>(busy.size()));
  return list;
}

TEST(SubmeshSearch, AgreesWithBitmapOnRandomMaps) {
  Rng rng(20240611);
  int maps = 0, found_first = 0, found_best = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int width = static_cast<int>(rng.uniform_int(1, 12));
    const int height = static_cast<int>(rng.uniform_int(1, 12));
    BusyList list =
        trial % 2 == 0 ? random_list(rng, width, height) : random_cells(rng, width, height);
    if (trial % 3 == 0) {  // cut a random rectangle out (another decomposition)
      const int w = static_cast<int>(rng.uniform_int(1, width));
      const int h = static_cast<int>(rng.uniform_int(1, height));
      list.subtract(Rect{static_cast<int>(rng.uniform_int(0, width - w)),
                         static_cast<int>(rng.uniform_int(0, height - h)), w, h});
    }
    const BusyGrid grid = grid_of(list);
    int busy_cells = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) busy_cells += grid.busy(x, y);
    ASSERT_EQ(list.busy_area(), busy_cells) << "rectangles overlap after subtract";
    ++maps;
    for (int q = 0; q < 6; ++q) {
      const int w = static_cast<int>(rng.uniform_int(1, width));
      const int h = static_cast<int>(rng.uniform_int(1, height));
      const auto first = list.find(w, h, Fit::first);
      ASSERT_EQ(first, grid.find(w, h, Fit::first)) << "trial " << trial << " " << w << "x" << h;
      const auto best = list.find(w, h, Fit::best);
      ASSERT_EQ(best, grid.find(w, h, Fit::best)) << "trial " << trial << " " << w << "x" << h;
      found_first += first.has_value();
      found_best += best.has_value();
      if (best) {
        EXPECT_EQ(list.contact(*best), grid.contact(*best));
        EXPECT_TRUE(grid.in_corner(*best));
      }
      const int max_area = static_cast<int>(rng.uniform_int(1, width * height));
      ASSERT_EQ(list.largest(w, h, max_area), grid.largest(w, h, max_area)) << "trial " << trial;
    }
  }
  EXPECT_EQ(maps, 3000);
  EXPECT_EQ(found_first, found_best);  // best fit exists exactly when first fit does
  EXPECT_GT(found_first, 3000);        // the maps are not all full
}

TEST(SubmeshSearch, FromMachineMatchesBitmap) {
  const Topology topology = Topology::parse("mesh:5x4");
  const Mesh2D mesh = require_mesh2d(topology, "test");
  std::vector<char> busy(20, 0);
  for (NodeId node : {1, 2, 6, 7, 13, 19}) busy[node] = 1;
  Rng rng(1);
  const MachineView view(topology, busy, 14, rng);
  const BusyList list = BusyList::from_machine(mesh, view);
  EXPECT_EQ(list.busy_area(), 6);
  EXPECT_EQ(list.find(2, 2, Fit::first), (Rect{3, 0, 2, 2}));
}

// ---------------------------------------------------------------- the allocator

struct Machine {
  explicit Machine(const std::string& spec)
      : topology(Topology::parse(spec)),
        busy(topology.node_count(), 0),
        free(topology.node_count()) {}
  MachineView view() { return MachineView(topology, busy, free, rng); }
  void occupy(Allocator& allocator, const std::vector<NodeId>& nodes) {
    Allocation allocation;
    allocation.nodes = nodes;
    for (NodeId node : nodes) busy[node] = 1;
    free -= static_cast<int>(nodes.size());
    allocator.commit(allocation);
  }
  Topology topology;
  std::vector<char> busy;
  int free;
  Rng rng{7};
};

TEST(SubmeshAllocator, FirstFitRotationAndRefusal) {
  Machine machine("mesh:4x4");
  const Mesh2D mesh{4, 4};
  SubmeshAllocator plain(mesh, Fit::first, false, ShapeRule::square);
  SubmeshAllocator turning(mesh, Fit::first, true, ShapeRule::square);
  machine.occupy(plain, mesh.nodes_of(Rect{0, 0, 4, 2}));
  Allocation bottom;
  bottom.nodes = mesh.nodes_of(Rect{0, 0, 4, 2});
  turning.commit(bottom);
  const Job tall = shaped(1, 3);
  EXPECT_FALSE(plain.allocate(tall, machine.view()).has_value());
  const auto turned = turning.allocate(tall, machine.view());
  ASSERT_TRUE(turned.has_value());
  EXPECT_EQ(turned->nodes, mesh.nodes_of(Rect{0, 2, 3, 1}));
  EXPECT_EQ(turned->pieces, 1);
  EXPECT_TRUE(plain.contiguous_only());
  EXPECT_EQ(plain.nodes_needed(counted(7)), 9);  // square rule: 3x3
}

TEST(SubmeshAllocator, BestFitThroughMachineAndResync) {
  Machine machine("mesh:6x6");
  const Mesh2D mesh{6, 6};
  SubmeshAllocator best(mesh, Fit::best, false, ShapeRule::square);
  machine.occupy(best, mesh.nodes_of(Rect{0, 2, 6, 1}));
  machine.occupy(best, mesh.nodes_of(Rect{3, 3, 1, 2}));
  machine.occupy(best, mesh.nodes_of(Rect{4, 5, 2, 1}));
  const auto chosen = best.allocate(shaped(2, 2), machine.view());
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->nodes, mesh.nodes_of(Rect{4, 3, 2, 2}));
  // A fresh allocator that never heard the commits reads the machine instead.
  SubmeshAllocator fresh(mesh, Fit::best, false, ShapeRule::square);
  EXPECT_EQ(fresh.allocate(shaped(2, 2), machine.view())->nodes, chosen->nodes);
  // Releasing restores the empty busy list.
  for (const Rect& r : {Rect{0, 2, 6, 1}, Rect{3, 3, 1, 2}, Rect{4, 5, 2, 1}}) {
    Allocation allocation;
    allocation.nodes = mesh.nodes_of(r);
    best.release(allocation);
  }
  EXPECT_EQ(best.busy_list().busy_area(), 0);
}

TEST(SubmeshAllocator, RequiresA2DMesh) {
  EXPECT_THROW(require_mesh2d(Topology::parse("torus:8x8"), "submesh"), InputError);
  EXPECT_THROW(require_mesh2d(Topology::parse("mesh:4x4x4"), "submesh"), InputError);
  EXPECT_THROW(require_mesh2d(Topology::parse("flat:16"), "submesh"), InputError);
  EXPECT_EQ(require_mesh2d(Topology::parse("mesh:8x4"), "submesh").width, 8);
}

}  // namespace
}  // namespace allocsim
