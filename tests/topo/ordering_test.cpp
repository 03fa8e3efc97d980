// Orderings (topo/ordering.hpp): permutations, adjacency where the curve guarantees it, the
// generalized Hilbert curve on every small box, ordering files and the quality measures.
#include "allocsim/topo/ordering.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "testing/tiny_graph.hpp"

namespace allocsim {
namespace {

Topology box(std::vector<int> sides) {
  return Topology(sides, std::vector<bool>(sides.size(), false));
}

const char* const kMachines[] = {"mesh:1x1",   "mesh:7",       "mesh:16x16",      "mesh:16x22",
                                 "mesh:5x3",   "mesh:8x8x5",   "mesh:4x1x3",      "torus:4x4x4",
                                 "torus:6x10", "mesh:3x4x5x6", "torus:2x2x2x6x8", "flat:12"};

TEST(Ordering, EveryOrderingIsAPermutationOfAllNodes) {
  for (const char* spec : kMachines) {
    const Topology machine = Topology::parse(spec);
    for (const char* name : {"row", "snake", "hilbert", "ghilbert"}) {
      const auto order = make_ordering(name, machine);
      EXPECT_TRUE(is_node_permutation(order, machine.node_count())) << name << " on " << spec;
    }
  }
}

TEST(Ordering, RowIsIdentityAndRanksInvertTheOrder) {
  const Topology machine = Topology::parse("mesh:4x3");
  const auto row = make_ordering("row", machine);
  for (int i = 0; i < machine.node_count(); ++i) EXPECT_EQ(row[i], i);
  const auto hilbert = make_ordering("hilbert", machine);
  const auto rank = ranks_of_nodes(hilbert);
  for (int r = 0; r < machine.node_count(); ++r) EXPECT_EQ(rank[hilbert[r]], r);
}

TEST(Ordering, SnakeStepsAreAlwaysOneHop) {
  for (const auto& sides : std::vector<std::vector<int>>{
           {9}, {5, 3}, {3, 5}, {16, 16}, {8, 8, 5}, {3, 3, 3}, {2, 5, 3, 4}, {7, 1, 6}}) {
    const Topology machine = box(sides);
    const auto order = make_ordering("snake", machine);
    ASSERT_TRUE(is_node_permutation(order, machine.node_count()));
    EXPECT_EQ(max_consecutive_distance(machine, order), machine.node_count() > 1 ? 1 : 0)
        << machine.spec();
  }
}

TEST(Ordering, HilbertStepsAreOneHopOnPowerOfTwoSquaresAndCubes) {
  for (int side = 2; side <= 64; side *= 2) {
    const Topology square = box({side, side});
    EXPECT_EQ(max_consecutive_distance(square, hilbert_order(square)), 1) << square.spec();
  }
  for (int side = 2; side <= 16; side *= 2) {
    const Topology cube = box({side, side, side});
    const auto order = hilbert_order(cube);
    ASSERT_TRUE(is_node_permutation(order, cube.node_count()));
    EXPECT_EQ(max_consecutive_distance(cube, order), 1) << cube.spec();
  }
  // Axes of side 1 are ignored: 8x1x8 is the 8x8 square.
  const Topology flat_box = box({8, 1, 8});
  EXPECT_EQ(max_consecutive_distance(flat_box, hilbert_order(flat_box)), 1);
}

TEST(Ordering, HilbertOnFourByFourIsThePublishedCurve) {
  // Hilbert's second-order curve from (0,0) to (3,0), as node ids x + 4y.
  const std::vector<NodeId> expected = {0, 1, 5, 4, 8, 12, 13, 9, 10, 14, 15, 11, 7, 6, 2, 3};
  EXPECT_EQ(hilbert_order(box({4, 4})), expected);
}

TEST(Ordering, GeneralizedHilbertEqualsHilbertOnPowerOfTwoSquares) {
  // Two independent constructions (Skilling's index transform, the Gilbert recursion).
  for (int side = 1; side <= 64; side *= 2) {
    const Topology square = box({side, side});
    EXPECT_EQ(generalized_hilbert_order(square), hilbert_order(square)) << square.spec();
  }
}

TEST(Ordering, GeneralizedHilbertOnEveryBoxUpTo33x33) {
  for (int w = 1; w <= 33; ++w)
    for (int h = 1; h <= 33; ++h) {
      const Topology machine = box({w, h});
      const auto order = generalized_hilbert_order(machine);
      ASSERT_TRUE(is_node_permutation(order, machine.node_count())) << w << "x" << h;
      const int step = max_consecutive_distance(machine, order);
      EXPECT_LE(step, 2) << w << "x" << h;  // at most one diagonal step's worth
      if (w % 2 == 0 || h == 1) {
        EXPECT_LE(step, 1) << w << "x" << h;
      }
      EXPECT_EQ(order.front(), 0) << w << "x" << h;  // starts in a corner
    }
}

TEST(Ordering, GeneralizedHilbertOn3DBoxes) {
  std::vector<std::vector<int>> boxes = {{8, 8, 5},    {7, 6, 4},   {5, 5, 5},
                                         {3, 17, 2},   {33, 3, 9},  {1, 9, 7},
                                         {40, 30, 20}, {20, 12, 2}, {13, 11, 7}};
  for (int w = 1; w <= 9; ++w)
    for (int h = 1; h <= 9; ++h)
      for (int d = 1; d <= 9; ++d) boxes.push_back({w, h, d});
  for (const auto& sides : boxes) {
    const Topology machine = box(sides);
    const auto order = generalized_hilbert_order(machine);
    ASSERT_TRUE(is_node_permutation(order, machine.node_count())) << machine.spec();
    const int step = max_consecutive_distance(machine, order);
    EXPECT_LE(step, 2) << machine.spec();
    if (sides[0] % 2 == 0 && sides[1] % 2 == 0 && sides[2] % 2 == 0) {
      EXPECT_EQ(step, 1) << machine.spec();
    }
  }
}

TEST(Ordering, GeneralizedHilbertBeyondThreeDimensions) {
  for (const auto& sides :
       std::vector<std::vector<int>>{{2, 2, 2, 6, 8}, {3, 4, 5, 6}, {4, 4, 4, 4}}) {
    const Topology machine = box(sides);
    const auto order = generalized_hilbert_order(machine);
    ASSERT_TRUE(is_node_permutation(order, machine.node_count())) << machine.spec();
    EXPECT_LE(max_consecutive_distance(machine, order), 2) << machine.spec();
  }
}

TEST(Ordering, ClippedHilbertJumpsOnNonSquareMeshesWhereGeneralizedDoesNot) {
  const Topology machine = Topology::parse("mesh:16x22");
  EXPECT_GT(max_consecutive_distance(machine, hilbert_order(machine)), 2);
  EXPECT_EQ(max_consecutive_distance(machine, generalized_hilbert_order(machine)), 1);
}

TEST(Ordering, TorusOrderingsIgnoreWrapLinks) {
  for (const char* name : {"row", "snake", "hilbert", "ghilbert"})
    EXPECT_EQ(make_ordering(name, Topology::parse("torus:6x10")),
              make_ordering(name, Topology::parse("mesh:6x10")))
        << name;
}

TEST(Ordering, FlatMachineOrderingsAreTheIdentity) {
  const Topology machine = Topology::flat(5);
  for (const char* name : {"row", "snake", "hilbert", "ghilbert"})
    EXPECT_EQ(make_ordering(name, machine), (std::vector<NodeId>{0, 1, 2, 3, 4})) << name;
}

// Graph machines (issue 26): row and file use node ids only and work; the curves walk
// coordinates and refuse the machine by the ordering's name (the tiny tree has 4 nodes).
TEST(Ordering, GraphMachinesGetRowAndFileOrdersAndCurvesRefuseThem) {
  const Topology tree = allocsim::testing::tiny_tree();
  EXPECT_EQ(make_ordering("row", tree), (std::vector<NodeId>{0, 1, 2, 3}));
  std::istringstream file("3\n1\n2\n0\n");
  EXPECT_EQ(parse_ordering(file, tree, "test"), (std::vector<NodeId>{3, 1, 2, 0}));
  for (const std::string name : {"snake", "hilbert", "ghilbert"}) {
    try {
      make_ordering(name, tree);
      ADD_FAILURE() << name << " ordered a graph machine";
    } catch (const InputError& refusal) {
      EXPECT_EQ(std::string(refusal.what()),
                "ordering '" + name +
                    "' works on grids (mesh, torus, semitorus) only; machine 'tinytree' is a "
                    "tinytree");
    }
  }
}

TEST(Ordering, ParsesOrderingText) {
  const Topology machine = Topology::parse("mesh:2x2");
  std::istringstream text("# a 2x2 ring\n0\n1   # right\n\n3\n2\n");
  EXPECT_EQ(parse_ordering(text, machine, "test"), (std::vector<NodeId>{0, 1, 3, 2}));
}

TEST(Ordering, RejectsBadOrderingText) {
  const Topology machine = Topology::parse("mesh:2x2");
  for (const char* bad : {"0\n1\n1\n2\n3\n", "0\n1\n2\n4\n", "0\n1\n2\n", "0\n1 2\n3\n",
                          "0\nx\n1\n2\n3\n", "-1\n0\n1\n2\n3\n"}) {
    std::istringstream text(bad);
    EXPECT_THROW(parse_ordering(text, machine, "test"), InputError) << bad;
  }
  try {
    std::istringstream text("0\n1\n1\n");
    parse_ordering(text, machine, "ring.txt");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("line 3"), std::string::npos) << error.what();
  }
}

TEST(Ordering, ReadsOrderingFileThroughTheRegistry) {
  const std::string path = ::testing::TempDir() + "/allocsim_ordering_test.txt";
  {
    std::ofstream out(path);
    out << "3\n2\n1\n0\n";
  }
  EXPECT_EQ(make_ordering("file:path=" + path, Topology::parse("mesh:4")),
            (std::vector<NodeId>{3, 2, 1, 0}));
  EXPECT_THROW(make_ordering("file:path=" + path, Topology::parse("mesh:5")), InputError);
  EXPECT_THROW(make_ordering("file", Topology::parse("mesh:4")), InputError);
  EXPECT_THROW(make_ordering("file:path=/nonexistent/ordering.txt", Topology::parse("mesh:4")),
               InputError);
}

TEST(Ordering, UnknownNamesAndParametersAreErrors) {
  const Topology machine = Topology::parse("mesh:4x4");
  try {
    make_ordering("hilbrt", machine);
    FAIL();
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("hilbert"), std::string::npos) << message;
    EXPECT_NE(message.find("ghilbert"), std::string::npos) << message;
  }
  EXPECT_THROW(make_ordering("row:bits=3", machine), InputError);
  EXPECT_EQ(ordering_registry().names(),
            (std::vector<std::string>{"row", "snake", "hilbert", "ghilbert", "file"}));
}

TEST(OrderingQuality, HandMadeFigures) {
  // A path of three nodes in row order: k=1 contributes (1+1)/2, k=2 contributes 2/4.
  const Topology line = Topology::parse("mesh:3");
  const auto row = row_order(line);
  EXPECT_DOUBLE_EQ(weighted_locality_sum(line, row), 1.5);
  // On a ring of three, nodes 0 and 2 are neighbours: k=2 contributes 1/4.
  EXPECT_DOUBLE_EQ(weighted_locality_sum(Topology::parse("torus:3"), row), 1.25);
  // Row-major 4x4: the step from (3,0) to (0,1) is 4 hops.
  const Topology square = Topology::parse("mesh:4x4");
  EXPECT_EQ(max_consecutive_distance(square, row_order(square)), 4);
  const OrderingQuality quality = ordering_quality(square, row_order(square));
  EXPECT_EQ(quality.max_step, 4);
  EXPECT_DOUBLE_EQ(quality.mean_step, (12 * 1 + 3 * 4) / 15.0);
  EXPECT_DOUBLE_EQ(quality.locality_per_node, quality.locality / 16);
}

TEST(OrderingQuality, WeightedSumMatchesDirectFormula) {
  const Topology machine = Topology::parse("torus:5x4x3");
  const auto order = make_ordering("ghilbert", machine);
  for (int cap : {1, 3, 20, 100}) {
    double expected = 0;
    for (int k = 1; k <= cap; ++k)
      for (int i = 0; i + k < machine.node_count(); ++i)
        expected += std::ldexp(machine.distance(order[i], order[i + k]), -k);
    EXPECT_NEAR(weighted_locality_sum(machine, order, cap), expected, 1e-9 * expected) << cap;
  }
}

TEST(OrderingQuality, CurvesBeatRowMajorOnSquares) {
  const Topology machine = Topology::parse("mesh:16x16");
  const double row = ordering_quality(machine, make_ordering("row", machine)).locality;
  const double snake = ordering_quality(machine, make_ordering("snake", machine)).locality;
  const double hilbert = ordering_quality(machine, make_ordering("hilbert", machine)).locality;
  EXPECT_LT(hilbert, snake);
  EXPECT_LT(snake, row);
}

}  // namespace
}  // namespace allocsim
