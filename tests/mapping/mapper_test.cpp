// Mappers: permutation property, the exact 1.0 cases, refinement, random-mapping expectation,
// METIS balance, determinism and the link-load metric.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "allocsim/mapping/basic.hpp"
#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/partition.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/metrics/hop_bytes.hpp"
#include "allocsim/util/error.hpp"

using namespace allocsim;
using namespace allocsim::mapping;

namespace {

const std::vector<std::string> kChains{
    "identity",         "random", "topocentlb",    "topolb:order=1",          "topolb:order=2",
    "topolb:order=3",   "refine", "random+refine", "topolb+refine:scope=all", "scotch",
    "topocentlb+refine"};

std::vector<NodeId> whole(const Topology& topology) {
  std::vector<NodeId> nodes(topology.node_count());
  for (NodeId n = 0; n < topology.node_count(); ++n) nodes[n] = n;
  return nodes;
}

double map_hpb(const std::string& pattern, const std::string& machine, const std::string& mapper,
               std::uint64_t seed = 1) {
  const auto graph = make_pattern(pattern);
  const auto topology = Topology::parse(machine);
  return map_graph(graph, topology, whole(topology), mapper, seed).hop_bytes.hops_per_byte();
}

}  // namespace

TEST(Mappers, OutputsArePermutationsOfTheGivenProcessors) {
  Rng pick(7);
  for (const std::string machine : {"torus:8x8x4", "mesh:12x10", "torus:6x5", "flat:40"}) {
    const auto topology = Topology::parse(machine);
    for (int trial = 0; trial < 3; ++trial) {
      // A non-contiguous allocation: a random subset of the machine in random order.
      auto nodes = whole(topology);
      for (std::size_t i = 0; i < nodes.size(); ++i)
        std::swap(nodes[i], nodes[pick.uniform_int(i, nodes.size() - 1)]);
      const int p = static_cast<int>(pick.uniform_int(8, std::min<int>(40, topology.node_count())));
      nodes.resize(p);
      const int n = trial == 0 ? p : static_cast<int>(pick.uniform_int(1, p));
      const auto graph = make_pattern("random:" + std::to_string(n) +
                                      ",degree=" + std::to_string(std::min(n - 1, 4)) +
                                      ",seed=" + std::to_string(trial));
      for (const auto& chain : kChains) {
        Rng rng(3);
        const auto placement = MapperChain(chain).map({graph, topology, nodes}, rng);
        ASSERT_EQ(static_cast<int>(placement.size()), n) << chain;
        std::set<NodeId> used(placement.begin(), placement.end());
        EXPECT_EQ(static_cast<int>(used.size()), n) << chain << " on " << machine;
        for (const NodeId node : placement)
          EXPECT_NE(std::find(nodes.begin(), nodes.end(), node), nodes.end()) << chain;
      }
    }
  }
}

TEST(Mappers, TopoLBReachesOneHopPerByte) {
  // The paper's §5.2.2 case: an 8x8 mesh is a subgraph of the 4x4x4 torus.
  EXPECT_DOUBLE_EQ(map_hpb("mesh2d:8x8", "torus:4x4x4", "topolb:order=2"), 1.0);
  // 2D meshes onto 2D tori of the same size (all sizes tried reach 1.0; see the report).
  for (const std::string size : {"4x4", "5x5", "6x6", "7x7", "8x8", "10x10", "12x12", "16x16"})
    EXPECT_DOUBLE_EQ(map_hpb("mesh2d:" + size, "torus:" + size, "topolb"), 1.0) << size;
  EXPECT_DOUBLE_EQ(map_hpb("mesh3d:4x4x4", "torus:4x4x4", "topolb"), 1.0);
}

TEST(Mappers, OrderingOnStandardCases) {
  for (const auto& [pattern, machine] :
       std::vector<std::pair<std::string, std::string>>{{"mesh2d:16x16", "torus:16x16"},
                                                        {"mesh2d:16x16", "torus:8x8x4"},
                                                        {"mesh2d:32x32", "torus:8x8x16"}}) {
    const double topolb = map_hpb(pattern, machine, "topolb");
    const double topocentlb = map_hpb(pattern, machine, "topocentlb");
    const double random = map_hpb(pattern, machine, "random");
    EXPECT_LE(topolb, topocentlb) << pattern << " on " << machine;
    EXPECT_LE(topocentlb, random) << pattern << " on " << machine;
  }
}

TEST(Mappers, RefineNeverIncreasesHopBytes) {
  const auto topology = Topology::parse("torus:6x6x3");
  const auto nodes = whole(topology);
  for (int seed = 0; seed < 8; ++seed) {
    const auto graph = make_pattern("random:108,degree=5,seed=" + std::to_string(seed));
    for (const std::string first : {"random", "topocentlb", "topolb", "identity"}) {
      Rng rng(seed);
      const auto before = MapperChain(first).map({graph, topology, nodes}, rng);
      Rng again(seed);
      const auto after = MapperChain(first + "+refine").map({graph, topology, nodes}, again);
      EXPECT_LE(hop_bytes(graph, topology, after).hop_bytes,
                hop_bytes(graph, topology, before).hop_bytes)
          << first << " seed " << seed;
    }
  }
}

TEST(Mappers, RandomMappingMatchesTheAnalyticExpectation) {
  // Per axis of side k with wrap: k/4 (even k), (k²-1)/(4k) (odd k); times p/(p-1).
  const auto even = Topology::parse("torus:16x16");
  EXPECT_DOUBLE_EQ(random_mapping_expectation(even), 2 * 16 / 4.0 * 256 / 255);
  const auto odd = Topology::parse("torus:5x5x5");
  EXPECT_DOUBLE_EQ(random_mapping_expectation(odd), 3 * 24 / 20.0 * 125 / 124);
  for (const auto& [pattern, machine] :
       std::vector<std::pair<std::string, std::string>>{{"mesh2d:16x16", "torus:16x16"},
                                                        {"mesh2d:25x5", "torus:5x5x5"},
                                                        {"mesh2d:32x16", "torus:8x8x8"}}) {
    const auto topology = Topology::parse(machine);
    double sum = 0;
    const int seeds = 200;
    for (int seed = 0; seed < seeds; ++seed) sum += map_hpb(pattern, machine, "random", seed);
    EXPECT_NEAR(sum / seeds / random_mapping_expectation(topology), 1.0, 0.01) << machine;
  }
}

TEST(Mappers, DeterministicGivenTheSeed) {
  const auto graph = make_pattern("random:64,degree=4,seed=1");
  const auto topology = Topology::parse("torus:4x4x4");
  const auto nodes = whole(topology);
  for (const std::string chain : {"random", "scotch", "topolb+refine"}) {
    const auto a = map_graph(graph, topology, nodes, chain, 5).placement;
    const auto b = map_graph(graph, topology, nodes, chain, 5).placement;
    EXPECT_EQ(a, b) << chain;
  }
  EXPECT_NE(map_graph(graph, topology, nodes, "random", 5).placement,
            map_graph(graph, topology, nodes, "random", 6).placement);
}

TEST(Mappers, ScotchNumbersTheGivenProcessorsInListOrder) {
  // A 4x4 block of an 8x8 mesh, listed in a shuffled order: Scotch's part numbers index the
  // list, so a good mapping survives the shuffle (identity does not).
  const auto topology = Topology::parse("mesh:8x8");
  std::vector<NodeId> block;
  for (int y = 2; y < 6; ++y)
    for (int x = 2; x < 6; ++x) block.push_back(x + 8 * y);
  Rng shuffle(3);
  for (std::size_t i = 0; i < block.size(); ++i)
    std::swap(block[i], block[shuffle.uniform_int(i, block.size() - 1)]);
  const auto graph = make_pattern("mesh2d:4x4");
  EXPECT_LE(map_graph(graph, topology, block, "scotch", 1).hop_bytes.hops_per_byte(), 1.25);
  EXPECT_GT(map_graph(graph, topology, block, "identity", 1).hop_bytes.hops_per_byte(), 1.5);
}

TEST(Mappers, ChainsAndErrors) {
  EXPECT_EQ(MapperChain("topolb:order=2+refine").canonical(),
            "topolb:order=2+refine:passes=20,scope=near");
  EXPECT_THROW(MapperChain("topolb:order=4"), InputError);
  EXPECT_THROW(MapperChain("topolb+"), InputError);
  EXPECT_THROW(MapperChain("topolbb"), InputError);
  const auto graph = make_pattern("ring:5");
  const auto topology = Topology::parse("mesh:2x2");
  Rng rng(1);
  EXPECT_THROW(MapperChain("identity").map({graph, topology, whole(topology)}, rng), InputError);
}

TEST(Partition, MetisPartsAreBalanced) {
  const auto graph = make_pattern("leanmd:cells=6x6x6,procs=18");
  for (const int parts : {18, 64}) {
    const auto partition = partition_metis(graph, parts, 1);
    const auto groups = coalesce(graph, partition);
    double total = 0, largest = 0;
    for (TaskId g = 0; g < groups.size(); ++g) {
      total += groups.load(g);
      largest = std::max(largest, groups.load(g));
    }
    // METIS k-way default tolerance: ufactor 30, i.e. 3 % above the mean part load.
    EXPECT_LE(largest, 1.03 * total / parts) << parts;
    EXPECT_DOUBLE_EQ(groups.total_bytes(), graph.total_bytes());
  }
}

TEST(Partition, RecursiveBisectionAsCharmTopoLB) {
  // METIS_PartGraphRecursive (CHARM++'s TopoLB.C): every group used, loads balanced, and the
  // same seed gives the same groups.
  const auto graph = make_pattern("leanmd:cells=6x6x6,procs=64");
  const auto partition = partition_metis(graph, 64, 1, true);
  const auto groups = coalesce(graph, partition);
  double total = 0, largest = 0, smallest = 1e300;
  for (TaskId g = 0; g < groups.size(); ++g) {
    total += groups.load(g);
    largest = std::max(largest, groups.load(g));
    smallest = std::min(smallest, groups.load(g));
  }
  EXPECT_GT(smallest, 0);
  EXPECT_LE(largest, 1.1 * total / 64);
  EXPECT_EQ(partition.group_of, partition_metis(graph, 64, 1, true).group_of);
  EXPECT_NE(partition.group_of, partition_metis(graph, 64, 1).group_of);
}

TEST(Partition, SpecialCasesAndMapping) {
  const auto graph = make_pattern("mesh2d:6x6");
  const auto one = partition_metis(graph, 1, 1);
  EXPECT_EQ(std::set<int>(one.group_of.begin(), one.group_of.end()), std::set<int>{0});
  const auto many = partition_metis(graph, 50, 1);
  for (TaskId t = 0; t < 36; ++t) EXPECT_EQ(many.group_of[t], t);
  // 36 tasks on 4 processors: partitioned, all on the given nodes; intra-group bytes travel no
  // link and do not count in hops per byte (the four nodes are 2 or 4 hops apart).
  const auto topology = Topology::parse("torus:4x4");
  const std::vector<NodeId> nodes{0, 5, 10, 15};
  const auto outcome = map_graph(graph, topology, nodes, "topolb", 1);
  EXPECT_TRUE(outcome.partitioned);
  EXPECT_EQ(outcome.groups, 4);
  for (const NodeId node : outcome.placement)
    EXPECT_NE(std::find(nodes.begin(), nodes.end(), node), nodes.end());
  EXPECT_DOUBLE_EQ(outcome.hop_bytes.total_bytes, graph.total_bytes());
  EXPECT_LT(outcome.hop_bytes.inter_processor_bytes, graph.total_bytes());
  EXPECT_GE(outcome.hop_bytes.hops_per_byte(), 2.0);
  EXPECT_LE(outcome.hop_bytes.hops_per_byte(), 4.0);
  const std::vector<NodeId> single{3};
  EXPECT_DOUBLE_EQ(map_graph(graph, topology, single, "topolb", 1).hop_bytes.hop_bytes, 0.0);
}

TEST(LinkLoad, SumsToHopBytesOnGrids) {
  const auto topology = Topology::parse("torus:5x4x3");
  const auto graph = make_pattern("mesh3d:3x4x5");
  const auto nodes = whole(topology);
  const auto outcome = map_graph(graph, topology, nodes, "random", 2);
  const auto& load = outcome.link_load;
  EXPECT_NEAR(load.mean * static_cast<double>(load.machine_links), outcome.hop_bytes.hop_bytes,
              1e-6);
  EXPECT_EQ(load.machine_links, 2 * 3 * 60);
  EXPECT_GE(load.max, load.mean_used);
  // One hop per byte on a mesh of the same shape: identity loads each used channel with bytes/2.
  const auto mesh = Topology::parse("mesh:3x4x5");
  const auto same = map_graph(graph, mesh, whole(mesh), "identity", 1);
  EXPECT_DOUBLE_EQ(same.hop_bytes.hops_per_byte(), 1.0);
  EXPECT_DOUBLE_EQ(same.link_load.max, 512);
  // Flat crossbar: a message crosses its source's injection and its target's ejection link.
  const auto flat = Topology::parse("flat:4");
  const auto ring = map_graph(make_pattern("ring:4"), flat, whole(flat), "identity", 1);
  EXPECT_EQ(ring.link_load.machine_links, 8);
  EXPECT_DOUBLE_EQ(ring.link_load.max, 1024);  // two halves of 512 through every port
}
