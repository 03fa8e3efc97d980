// Hand-made busy maps with the expected choice of buddy2d, paging, mbs, anca and gabl, and the
// registry rows of the 2D mesh family.
#include <gtest/gtest.h>

#include "allocsim/alloc/mesh2d.hpp"
#include "allocsim/alloc/mesh2d_buddy.hpp"
#include "allocsim/alloc/mesh2d_gabl.hpp"
#include "allocsim/alloc/mesh2d_paging.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

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

/// A small machine whose busy map the test sets by committing allocations.
struct Machine {
  explicit Machine(const std::string& spec)
      : topology(Topology::parse(spec)),
        mesh{topology.side(0), topology.side(1)},
        busy(topology.node_count(), 0),
        free(topology.node_count()) {}
  MachineView view() { return MachineView(topology, busy, free, rng); }
  Allocation occupy(Allocator& allocator, const std::vector<NodeId>& nodes) {
    Allocation allocation;
    allocation.nodes = nodes;
    for (NodeId node : nodes) busy[node] = 1;
    free -= static_cast<int>(nodes.size());
    allocator.commit(allocation);
    return allocation;
  }
  void vacate(Allocator& allocator, const Allocation& allocation) {
    for (NodeId node : allocation.nodes) busy[node] = 0;
    free += static_cast<int>(allocation.nodes.size());
    allocator.release(allocation);
  }
  /// Allocates `job`, expects success, commits it.
  Allocation place(Allocator& allocator, const Job& job) {
    auto chosen = allocator.allocate(job, view());
    EXPECT_TRUE(chosen.has_value());
    if (!chosen) return {};
    occupy(allocator, chosen->nodes);
    return *chosen;
  }
  std::vector<NodeId> cells(std::initializer_list<std::pair<int, int>> xy) const {
    std::vector<NodeId> out;
    for (auto [x, y] : xy) out.push_back(mesh.id(x, y));
    return out;
  }
  Topology topology;
  Mesh2D mesh;
  std::vector<char> busy;
  int free;
  Rng rng{3};
};

std::vector<NodeId> concat(std::initializer_list<std::vector<NodeId>> parts) {
  std::vector<NodeId> out;
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// ---------------------------------------------------------------- buddy2d

TEST(Buddy2D, SplitsTheSmallestBlockAndMergesBack) {
  Machine machine("mesh:8x8");
  Buddy2DAllocator buddy(machine.mesh);
  EXPECT_EQ(buddy.nodes_needed(shaped(3, 3)), 16);
  EXPECT_EQ(buddy.nodes_needed(shaped(5, 1)), 64);
  EXPECT_EQ(buddy.nodes_needed(counted(5)), 16);  // side 3 rounds up to 4
  EXPECT_TRUE(buddy.contiguous_only());
  const Allocation a = machine.place(buddy, shaped(3, 3));
  EXPECT_EQ(a.nodes, machine.mesh.nodes_of(Rect{0, 0, 4, 4}));
  EXPECT_EQ(a.pieces, 1);
  const Allocation b = machine.place(buddy, shaped(1, 1));
  EXPECT_EQ(b.nodes, machine.mesh.nodes_of(Rect{4, 0, 1, 1}));
  // Exact 2x2 buddies now exist at (6,0), (4,2), (6,2): the lowest Morton index wins.
  const Allocation c = machine.place(buddy, shaped(2, 1));
  EXPECT_EQ(c.nodes, machine.mesh.nodes_of(Rect{6, 0, 2, 2}));
  const std::vector<Rect> expected{Rect{0, 4, 4, 4}, Rect{4, 4, 4, 4}, Rect{4, 2, 2, 2},
                                   Rect{6, 2, 2, 2}, Rect{5, 0, 1, 1}, Rect{4, 1, 1, 1},
                                   Rect{5, 1, 1, 1}};
  EXPECT_EQ(buddy.blocks().free_blocks(), expected);
  EXPECT_FALSE(buddy.allocate(shaped(5, 5), machine.view()).has_value());
  machine.vacate(buddy, b);
  machine.vacate(buddy, a);
  machine.vacate(buddy, c);
  EXPECT_EQ(buddy.blocks().free_blocks(), std::vector<Rect>{Rect({0, 0, 8, 8})});
}

TEST(Buddy2D, RefusesWhenNoBlockIsFreeAlthoughProcessorsAre) {
  Machine machine("mesh:4x4");
  Buddy2DAllocator buddy(machine.mesh);
  // One busy processor in each 2x2 quadrant: 12 free, no free 2x2 block.
  machine.occupy(buddy, machine.cells({{0, 0}, {2, 0}, {0, 2}, {2, 2}}));
  EXPECT_FALSE(buddy.allocate(shaped(2, 2), machine.view()).has_value());
  EXPECT_EQ(buddy.allocate(shaped(1, 1), machine.view())->nodes, machine.cells({{1, 0}}));
}

// ---------------------------------------------------------------- paging

std::vector<NodeId> order_ids(const Mesh2D& mesh, PageIndexing indexing) {
  std::vector<NodeId> ids;
  for (const Rect& page : page_order(mesh, 1, indexing)) ids.push_back(mesh.id(page.x, page.y));
  return ids;
}

TEST(Paging, IndexingSchemesOnA4x4Mesh) {
  const Mesh2D mesh{4, 4};
  EXPECT_EQ(order_ids(mesh, PageIndexing::row),
            (std::vector<NodeId>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(order_ids(mesh, PageIndexing::snake),
            (std::vector<NodeId>{0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12}));
  EXPECT_EQ(order_ids(mesh, PageIndexing::shuffled_row),
            (std::vector<NodeId>{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}));
  EXPECT_EQ(order_ids(mesh, PageIndexing::shuffled_snake),
            (std::vector<NodeId>{0, 1, 5, 4, 2, 3, 7, 6, 10, 11, 15, 14, 8, 9, 13, 12}));
}

TEST(Paging, FirstFreePagesInIndexOrder) {
  Machine machine("mesh:4x4");
  PagingAllocator paging0(machine.mesh, 0, PageIndexing::snake);
  machine.occupy(paging0, machine.cells({{1, 0}, {3, 1}}));
  const auto chosen = paging0.allocate(counted(5), machine.view());
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->nodes, (std::vector<NodeId>{0, 2, 3, 6, 5}));
  EXPECT_EQ(chosen->pieces, 5);
  EXPECT_EQ(paging0.nodes_needed(shaped(2, 3)), 6);
}

TEST(Paging, LargerPagesRoundUpAndSkipBusyPages) {
  Machine machine("mesh:4x4");
  PagingAllocator paging1(machine.mesh, 1, PageIndexing::row);
  machine.occupy(paging1, machine.mesh.nodes_of(Rect{0, 0, 2, 2}));  // page 0 busy
  EXPECT_EQ(paging1.nodes_needed(counted(5)), 8);
  const auto chosen = paging1.allocate(counted(5), machine.view());
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->nodes, concat({machine.mesh.nodes_of(Rect{2, 0, 2, 2}),
                                   machine.mesh.nodes_of(Rect{0, 2, 2, 2})}));
  EXPECT_EQ(chosen->pieces, 2);
  EXPECT_TRUE(paging1.allocate(counted(9), machine.view()).has_value());  // 3 pages
  EXPECT_FALSE(paging1.allocate(counted(13), machine.view()).has_value());
  EXPECT_THROW(PagingAllocator(Mesh2D{6, 6}, 2, PageIndexing::row), InputError);
}

// ---------------------------------------------------------------- mbs

TEST(Mbs, SplitsALargerBlockForEachDigit) {
  Machine machine("mesh:8x8");
  MbsAllocator mbs(machine.mesh);
  // 5 = 1·4 + 1·1: a 2x2 cut from the 8x8, then a 1x1 cut from the next free 2x2 buddy.
  const Allocation a = machine.place(mbs, counted(5));
  EXPECT_EQ(a.nodes, concat({machine.mesh.nodes_of(Rect{0, 0, 2, 2}), machine.cells({{2, 0}})}));
  EXPECT_EQ(a.pieces, 2);
  // 21 = 1·16 + 1·4 + 1·1: 4x4 at (4,0), 2x2 at (0,2), 1x1 at (3,0).
  const Allocation b = machine.place(mbs, shaped(3, 7));
  EXPECT_EQ(b.nodes, concat({machine.mesh.nodes_of(Rect{4, 0, 4, 4}),
                             machine.mesh.nodes_of(Rect{0, 2, 2, 2}), machine.cells({{3, 0}})}));
  EXPECT_EQ(b.pieces, 3);
  machine.vacate(mbs, a);
  machine.vacate(mbs, b);
  EXPECT_EQ(mbs.blocks().free_blocks(), std::vector<Rect>{Rect({0, 0, 8, 8})});
}

TEST(Mbs, BreaksARequestDownWhenNoBlockIsLargeEnough) {
  Machine machine("mesh:4x4");
  MbsAllocator mbs(machine.mesh);
  machine.occupy(mbs, machine.cells({{0, 0}, {2, 0}, {0, 2}, {2, 2}}));
  // 4 = one 2x2, but no 2x2 block is free: four 1x1 blocks in Morton order instead.
  const auto chosen = mbs.allocate(counted(4), machine.view());
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->nodes, machine.cells({{1, 0}, {0, 1}, {1, 1}, {3, 0}}));
  EXPECT_EQ(chosen->pieces, 4);
  EXPECT_FALSE(mbs.allocate(counted(13), machine.view()).has_value());
  EXPECT_TRUE(mbs.allocate(counted(12), machine.view()).has_value());
}

TEST(Mbs, WorksOnMeshesThatAreNotPowersOfTwo) {
  Machine machine("mesh:6x5");
  MbsAllocator mbs(machine.mesh);
  // Initial blocks lie wholly inside: 4x4 at (0,0), then 2x2 and 1x1 blocks around it.
  EXPECT_EQ(mbs.blocks().free_blocks().front(), (Rect{0, 0, 4, 4}));
  const auto all = mbs.allocate(counted(30), machine.view());
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->nodes.size(), 30u);
}

// ---------------------------------------------------------------- anca

TEST(Anca, HalvesUntilThePiecesFit) {
  // Rows 1 and 3 busy: only 4x1 strips are free, so a 2x2 request must be split.
  for (const bool rotate : {true, false}) {
    Machine machine("mesh:4x4");
    AncaAllocator anca(machine.mesh, rotate, ShapeRule::square);
    machine.occupy(anca, concat({machine.mesh.nodes_of(Rect{0, 1, 4, 1}),
                                 machine.mesh.nodes_of(Rect{0, 3, 4, 1})}));
    const auto chosen = anca.allocate(shaped(2, 2), machine.view());
    ASSERT_TRUE(chosen.has_value());
    // Halves are 1x2; turned they fit as 2x1. Without turning they halve again into 1x1s.
    EXPECT_EQ(chosen->nodes, machine.cells({{0, 0}, {1, 0}, {2, 0}, {3, 0}}));
    EXPECT_EQ(chosen->pieces, rotate ? 2 : 4);
  }
}

TEST(Anca, TakesTheWholeRequestWhenItFits) {
  Machine machine("mesh:8x8");
  AncaAllocator anca(machine.mesh, true, ShapeRule::square);
  const auto chosen = anca.allocate(shaped(3, 2), machine.view());
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->nodes, machine.mesh.nodes_of(Rect{0, 0, 3, 2}));
  EXPECT_EQ(chosen->pieces, 1);
}

// ---------------------------------------------------------------- gabl

/// 8x8 mesh whose free processors are a 4x3 block at (0,0), `second` and a 1x1 at (7,7).
Machine gabl_map(GablAllocator& gabl, const Rect& second) {
  Machine machine("mesh:8x8");
  std::vector<NodeId> busy;
  for (NodeId node = 0; node < 64; ++node) {
    const int x = machine.mesh.x_of(node), y = machine.mesh.y_of(node);
    if (Rect{0, 0, 4, 3}.contains(x, y) || second.contains(x, y) || (x == 7 && y == 7)) continue;
    busy.push_back(node);
  }
  machine.occupy(gabl, busy);
  return machine;
}

TEST(Gabl, SeveralPiecesOfDecreasingSides) {
  for (const bool rotate : {false, true}) {
    GablAllocator gabl(Mesh2D{8, 8}, rotate, ShapeRule::square);
    Machine machine = gabl_map(gabl, Rect{5, 5, 3, 1});  // 12 + 3 + 1 = 16 free
    const auto chosen = gabl.allocate(shaped(4, 4), machine.view());
    ASSERT_TRUE(chosen.has_value());
    // 4x3 (12), then at most 4 in sides <= 4x3: the 3x1 strip, then 1x1.
    EXPECT_EQ(chosen->nodes,
              concat({machine.mesh.nodes_of(Rect{0, 0, 4, 3}),
                      machine.mesh.nodes_of(Rect{5, 5, 3, 1}), machine.cells({{7, 7}})}));
    EXPECT_EQ(chosen->pieces, 3);
    EXPECT_FALSE(gabl.allocate(shaped(4, 5), machine.view()).has_value());
  }
}

TEST(Gabl, PiecesNeverExceedTheMissingProcessors) {
  GablAllocator gabl(Mesh2D{8, 8}, false, ShapeRule::square);
  Machine machine = gabl_map(gabl, Rect{5, 5, 3, 2});  // a 3x2 region, but only 4 are missing
  const auto chosen = gabl.allocate(shaped(4, 4), machine.view());
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->nodes, concat({machine.mesh.nodes_of(Rect{0, 0, 4, 3}),
                                   machine.mesh.nodes_of(Rect{5, 5, 2, 2})}));
  EXPECT_EQ(chosen->pieces, 2);
}

TEST(Gabl, ContiguousWhenPossible) {
  GablAllocator gabl(Mesh2D{8, 8}, true, ShapeRule::square);
  Machine machine = gabl_map(gabl, Rect{5, 5, 3, 1});
  // 3x4 does not fit upright but turned (4x3) it does: one piece.
  const auto chosen = gabl.allocate(shaped(3, 4), machine.view());
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->nodes, machine.mesh.nodes_of(Rect{0, 0, 4, 3}));
  EXPECT_EQ(chosen->pieces, 1);
}

// ---------------------------------------------------------------- registry

TEST(Mesh2DRegistry, BuildsEveryRowAndRejectsOtherMachines) {
  const Topology mesh16 = Topology::parse("mesh:16x16");
  for (const char* spec :
       {"submesh", "submesh:fit=best,rotate=1,shape=row", "buddy2d", "paging",
        "paging:size_index=2,indexing=shuffled-snake", "mbs", "anca:rotate=0", "gabl"}) {
    EXPECT_NE(make_allocator(spec, mesh16), nullptr) << spec;
    EXPECT_THROW(make_allocator(spec, Topology::parse("torus:16x16")), InputError) << spec;
    EXPECT_THROW(make_allocator(spec, Topology::parse("mesh:4x4x4")), InputError) << spec;
  }
  EXPECT_THROW(make_allocator("buddy2d", Topology::parse("mesh:12x12")), InputError);
  EXPECT_THROW(make_allocator("buddy2d", Topology::parse("mesh:16x8")), InputError);
  EXPECT_NO_THROW(make_allocator("mbs", Topology::parse("mesh:12x10")));
  EXPECT_THROW(make_allocator("paging:size_index=3", Topology::parse("mesh:12x12")), InputError);
  EXPECT_THROW(make_allocator("submesh:fit=worst", mesh16), InputError);
  EXPECT_TRUE(make_allocator("submesh", mesh16)->contiguous_only());
  EXPECT_FALSE(make_allocator("gabl", mesh16)->contiguous_only());
}

}  // namespace
}  // namespace allocsim
