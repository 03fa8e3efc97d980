// Slurm topology files (topo/slurm_topology.hpp) and hostlist expressions (topo/hostlist.hpp).
// Expected values are derived by hand in the comments, from the rules in slurm_topology.hpp:
// node ids in file order; switch vertices node_count + switch index in file order (an implicit
// top last); links per node i: injection 2i, ejection 2i + 1, then per switch with a parent, in
// switch order, up then down.
#include "allocsim/topo/slurm_topology.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "allocsim/topo/hostlist.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

const std::string kData = std::string(ALLOCSIM_TEST_DATA) + "/slurm_topology/";

std::vector<std::string> names(const std::string& hostlist) {
  return expand_hostlist(hostlist);
}

const SlurmTopology& read(const std::string& file, std::shared_ptr<const GraphMachine>& keep) {
  keep = make_slurm_topology(kData + file);
  return dynamic_cast<const SlurmTopology&>(*keep);
}

std::vector<LinkId> route(const GraphMachine& m, NodeId a, NodeId b) {
  std::vector<LinkId> links;
  int paths = 0;
  m.for_each_path(a, b, [&](std::span<const LinkId> path, double weight) {
    links.assign(path.begin(), path.end());
    EXPECT_EQ(weight, 1.0);
    ++paths;
  });
  EXPECT_EQ(paths, a == b ? 0 : 1);
  return links;
}

std::vector<std::string> classes(const GraphMachine& m, const std::vector<LinkId>& links) {
  std::vector<std::string> out;
  for (LinkId l : links) out.push_back(link_class_name(m.links()[l].link_class));
  return out;
}

TEST(Hostlist, SlurmForms) {
  // topology.conf(5): "Nodes=tux[0-3,12,18-20]" and "Switches=s[0-2,4-8,12]" will parse fine.
  EXPECT_EQ(names("tux[0-3,12,18-20]"),
            (std::vector<std::string>{"tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19",
                                      "tux20"}));
  EXPECT_EQ(names("s[0-2,4-8,12]").size(), 3u + 5u + 1u);
  // Zero padding to the width of the low bound as written.
  EXPECT_EQ(names("node[08-10]"), (std::vector<std::string>{"node08", "node09", "node10"}));
  EXPECT_EQ(names("n[001-2]"), (std::vector<std::string>{"n001", "n002"}));
  EXPECT_EQ(names("x[9-10]"), (std::vector<std::string>{"x9", "x10"}));
  // Several bracket groups: every combination, the first group slowest; a suffix after them.
  EXPECT_EQ(names("r[1-2]n[1-2]-ib"),
            (std::vector<std::string>{"r1n1-ib", "r1n2-ib", "r2n1-ib", "r2n2-ib"}));
  // Comma-separated items outside brackets, in the order written.
  EXPECT_EQ(names("login,tux[1-2],gpu7"),
            (std::vector<std::string>{"login", "tux1", "tux2", "gpu7"}));
  EXPECT_EQ(names("plain"), (std::vector<std::string>{"plain"}));
}

TEST(Hostlist, BadExpressions) {
  const auto message = [](const std::string& text, std::size_t max_names = 1 << 20) {
    try {
      expand_hostlist(text, max_names);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("tux[3-1]"),
            "bad hostlist 'tux[3-1]': the range 3-1 goes down; expected LOW-HIGH with LOW <= HIGH");
  EXPECT_THAT(message("tux[0-3"), ::testing::HasSubstr("'[' without ']'"));
  EXPECT_THAT(message("tux0]"), ::testing::HasSubstr("']' without '['"));
  EXPECT_THAT(message("tux[]"), ::testing::HasSubstr("empty brackets"));
  EXPECT_THAT(message("tux[a-3]"), ::testing::HasSubstr("'a' is not a number"));
  EXPECT_THAT(message("tux[1,,3]"), ::testing::HasSubstr("empty item between commas"));
  EXPECT_THAT(message("a,,b"), ::testing::HasSubstr("empty name between commas"));
  EXPECT_THAT(message("a[1[2]]"), ::testing::HasSubstr("nested '['"));
  EXPECT_THAT(message(""), ::testing::HasSubstr("empty"));
  // 0..9 is 10 names, over a limit of 8.
  EXPECT_THAT(message("n[0-9]", 8), ::testing::HasSubstr("more than 8 names"));
  EXPECT_THAT(message("n[0-1]m[0-4]", 8), ::testing::HasSubstr("more than 8 names"));
}

// The EXAMPLE of Slurm's topology.conf(5) (Slurm 22.05 to 26.11, topology/tree section):
//   SwitchName=s0 Nodes=dev[0-5]
//   SwitchName=s1 Nodes=dev[6-11]
//   SwitchName=s2 Nodes=dev[12-17]
//   SwitchName=s3 Switches=s[0-2]
// Nodes dev0 .. dev17 are ids 0 .. 17; switches s0 .. s3 are vertices 18 .. 21. Links: node i
// 2i, 2i + 1 (0 .. 35); s0 up 36 down 37, s1 38 39, s2 40 41 (s3 is the top).
TEST(SlurmTopology, TheExampleOfSlurmsManPage) {
  std::shared_ptr<const GraphMachine> keep;
  const SlurmTopology& m = read("slurm_doc_example.conf", keep);
  EXPECT_EQ(m.form(), SlurmTopology::Form::conf_tree);
  EXPECT_EQ(m.kind_name(), "slurm-topology");
  EXPECT_EQ(m.spec(), "slurm-topology:" + kData + "slurm_doc_example.conf");
  EXPECT_EQ(m.node_count(), 18);
  EXPECT_EQ(m.router_count(), 4);
  EXPECT_EQ(m.links().size(), 42u);
  EXPECT_EQ(m.node_name(0), "dev0");
  EXPECT_EQ(m.node_name(17), "dev17");
  EXPECT_EQ(m.node_id("dev6"), 6);
  EXPECT_EQ(m.router_name(21), "s3");
  ASSERT_EQ(m.switches().size(), 4u);
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(m.switches()[s].parent, 3);
    EXPECT_EQ(m.switches()[s].level, 0);
    EXPECT_EQ(m.switches()[s].nodes.size(), 6u);
  }
  EXPECT_EQ(m.switches()[3].parent, -1);
  EXPECT_EQ(m.switches()[3].level, 1);
  EXPECT_EQ(m.switches()[3].children, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(m.top_switch(), 3);
  EXPECT_EQ(m.implicit_top(), -1);
  EXPECT_EQ(m.router_of(0), 18);
  EXPECT_EQ(m.router_of(6), 19);
  EXPECT_EQ(m.router_of(17), 20);
  // Groups: the leaves' parent is s3 for all, so one switch group.
  EXPECT_EQ(m.group_count(), 1);
  EXPECT_EQ(m.group_of(17), 0);
  EXPECT_EQ(m.group_word(), "switch group");
  EXPECT_TRUE(m.block_sizes().empty());
  EXPECT_EQ(m.block_of(3), -1);
  // Distances: same leaf 2 (injection, ejection), across leaves 4 (+ up, down).
  EXPECT_EQ(m.distance(0, 0), 0);
  EXPECT_EQ(m.distance(0, 5), 2);
  EXPECT_EQ(m.distance(0, 17), 4);
  // dev0 -> dev17: injection 0, s0 up 36, s3 -> s2 down 41, ejection 2 * 17 + 1 = 35.
  EXPECT_EQ(route(m, 0, 17), (std::vector<LinkId>{0, 36, 41, 35}));
  EXPECT_EQ(classes(m, route(m, 0, 17)),
            (std::vector<std::string>{"injection", "up", "down", "ejection"}));
  EXPECT_EQ(route(m, 2, 4), (std::vector<LinkId>{4, 9}));
  // Through the registry: the same machine behind Topology's graph kind.
  const Topology topology = Topology::parse("slurm-topology:" + kData + "slurm_doc_example.conf");
  EXPECT_EQ(topology.kind(), Topology::Kind::graph);
  EXPECT_EQ(topology.node_count(), 18);
  EXPECT_EQ(topology.distance(0, 17), 4);
}

// three_level.conf (see the file): switches core 0, agg1 1, agg2 2, leaf01 3, leaf02 4,
// leaf03 5, leaf04 6, leaf05 7 (vertices 13 .. 20). Nodes in file order: tux0 tux1 tux2 (0-2),
// tux3 tux4 gpu7 (3-5), tux5 tux6 (6, 7), r1n1 r1n2 r2n1 r2n2 (8-11), login1 (12). Links: nodes
// 0 .. 25; agg1 up 26 down 27, agg2 28 29, leaf01 30 31, leaf02 32 33, leaf03 34 35, leaf04 36 37,
// leaf05 38 39 (40 links). Groups by switch index of the leaf's parent: core (login1) 0, agg1 1,
// agg2 2.
TEST(SlurmTopology, AGeneratedThreeLevelTree) {
  std::shared_ptr<const GraphMachine> keep;
  const SlurmTopology& m = read("three_level.conf", keep);
  EXPECT_EQ(m.node_count(), 13);
  EXPECT_EQ(m.router_count(), 8);
  EXPECT_EQ(m.links().size(), 40u);
  const std::vector<std::string> expected_names{"tux0", "tux1", "tux2",  "tux3", "tux4",
                                                "gpu7", "tux5", "tux6",  "r1n1", "r1n2",
                                                "r2n1", "r2n2", "login1"};
  for (NodeId node = 0; node < 13; ++node) EXPECT_EQ(m.node_name(node), expected_names[node]);
  const std::vector<int> parents{-1, 0, 0, 1, 1, 2, 2, 0};
  const std::vector<int> levels{2, 1, 1, 0, 0, 0, 0, 0};
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(m.switches()[s].parent, parents[s]) << m.switches()[s].name;
    EXPECT_EQ(m.switches()[s].level, levels[s]) << m.switches()[s].name;
  }
  EXPECT_EQ(m.switches()[0].children, (std::vector<int>{1, 2, 7}));
  EXPECT_EQ(m.switches()[1].link_speed, 200);
  EXPECT_EQ(m.switches()[4].nodes, (std::vector<NodeId>{3, 4, 5}));
  EXPECT_EQ(m.switches()[5].line, 11);  // leaf03, after a blank line
  EXPECT_EQ(m.router_of(0), 16);        // tux0 on leaf01 (index 3)
  EXPECT_EQ(m.router_of(11), 19);       // r2n2 on leaf04 (index 6)
  EXPECT_EQ(m.router_of(12), 20);       // login1 on leaf05 (index 7)
  EXPECT_EQ(m.group_count(), 3);
  EXPECT_EQ(m.group_of(12), 0);
  EXPECT_EQ(m.group_of(0), 1);
  EXPECT_EQ(m.group_of(5), 1);
  EXPECT_EQ(m.group_of(6), 2);
  EXPECT_EQ(m.group_of(11), 2);
  // Distances: same leaf 2; leaf01 - agg1 - leaf02 4; leaf01 - agg1 - core - agg2 - leaf04 6;
  // leaf01 - agg1 - core - leaf05 5.
  EXPECT_EQ(m.distance(0, 1), 2);
  EXPECT_EQ(m.distance(0, 5), 4);
  EXPECT_EQ(m.distance(0, 11), 6);
  EXPECT_EQ(m.distance(0, 12), 5);
  EXPECT_EQ(m.distance(12, 0), 5);
  EXPECT_EQ(m.router_hops(0, 11), 4);
  // tux0 -> r2n2: injection 0, leaf01 up 30, agg1 up 26, core -> agg2 down 29,
  // agg2 -> leaf04 down 37, ejection 23.
  EXPECT_EQ(route(m, 0, 11), (std::vector<LinkId>{0, 30, 26, 29, 37, 23}));
  EXPECT_EQ(classes(m, route(m, 0, 11)),
            (std::vector<std::string>{"injection", "up", "up", "down", "down", "ejection"}));
  // login1 -> tux0: injection 24, leaf05 up 38, core -> agg1 down 27, agg1 -> leaf01 down 31,
  // ejection 1.
  EXPECT_EQ(route(m, 12, 0), (std::vector<LinkId>{24, 38, 27, 31, 1}));
  // Every route has distance(a, b) links and starts and ends at its nodes.
  for (NodeId a = 0; a < 13; ++a)
    for (NodeId b = 0; b < 13; ++b) {
      const std::vector<LinkId> links = route(m, a, b);
      EXPECT_EQ(static_cast<int>(links.size()), m.distance(a, b));
      if (a == b) continue;
      EXPECT_EQ(m.links()[links.front()].from, a);
      EXPECT_EQ(m.links()[links.back()].to, b);
      for (std::size_t i = 1; i < links.size(); ++i)
        EXPECT_EQ(m.links()[links[i - 1]].to, m.links()[links[i]].from);
    }
}

// A generated three-level file: core over agg0 .. agg2, each over four leaves (leaf0 .. leaf11),
// each with five nodes (n0 .. n59). Switches: core 0, agg a 1 + a, leaf l 4 + l (vertices 60 +
// switch). Node i sits on leaf i / 5 under agg i / 20. Links: nodes 0 .. 119, agg a up 120 + 2a
// down 121 + 2a, leaf l up 126 + 2l down 127 + 2l.
TEST(SlurmTopology, AGeneratedThreeLevelFile) {
  std::string text = "SwitchName=core Switches=agg[0-2]\n";
  for (int a = 0; a < 3; ++a)
    text += "SwitchName=agg" + std::to_string(a) + " Switches=leaf[" + std::to_string(4 * a) + "-" +
            std::to_string(4 * a + 3) + "]\n";
  for (int l = 0; l < 12; ++l)
    text += "SwitchName=leaf" + std::to_string(l) + " Nodes=n[" + std::to_string(5 * l) + "-" +
            std::to_string(5 * l + 4) + "]\n";
  const std::string path = ::testing::TempDir() + "/slurm_topology_generated.conf";
  std::ofstream(path) << text;
  const auto machine = make_slurm_topology(path);
  const auto& m = dynamic_cast<const SlurmTopology&>(*machine);
  ASSERT_EQ(m.node_count(), 60);
  EXPECT_EQ(m.router_count(), 16);
  EXPECT_EQ(m.links().size(), 150u);
  EXPECT_EQ(m.group_count(), 3);
  for (NodeId i = 0; i < 60; ++i) {
    std::string name = "n";  // appended: GCC 12 warns -Wrestrict on "n" + std::to_string(i)
    name += std::to_string(i);
    EXPECT_EQ(m.node_name(i), name);
    EXPECT_EQ(m.router_of(i), 60 + 4 + i / 5);
    EXPECT_EQ(m.group_of(i), i / 20);
    EXPECT_EQ(m.switches()[4 + i / 5].parent, 1 + i / 20);
    for (NodeId j = 0; j < 60; ++j) {
      const int expected = i == j ? 0 : i / 5 == j / 5 ? 2 : i / 20 == j / 20 ? 4 : 6;
      EXPECT_EQ(m.distance(i, j), expected) << i << " " << j;
    }
  }
  EXPECT_EQ(m.switches()[0].level, 2);
  EXPECT_EQ(m.switches()[2].children, (std::vector<int>{8, 9, 10, 11}));
  // n0 -> n59: injection 0, leaf0 up 126, agg0 up 120, core -> agg2 down 125,
  // agg2 -> leaf11 down 149, ejection 119.
  EXPECT_EQ(route(m, 0, 59), (std::vector<LinkId>{0, 126, 120, 125, 149, 119}));
}

// Two top-level switches: an implicit top "(top)" joins them (vertex 4 + 2 = 6); each leaf with
// no parent in the file is its own group.
TEST(SlurmTopology, SeveralTopLevelSwitchesAreJoinedByAnImplicitTop) {
  const std::string path = ::testing::TempDir() + "/slurm_topology_two_roots.conf";
  std::ofstream(path) << "SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[3-4]\n";
  const auto machine = make_slurm_topology(path);
  const auto& m = dynamic_cast<const SlurmTopology&>(*machine);
  EXPECT_EQ(m.router_count(), 3);
  EXPECT_EQ(m.implicit_top(), 2);
  EXPECT_EQ(m.router_name(6), "(top)");
  EXPECT_TRUE(m.switches()[2].implicit);
  EXPECT_EQ(m.switches()[2].level, 1);
  EXPECT_EQ(m.group_count(), 2);
  EXPECT_EQ(m.group_of(3), 1);
  // n1 -> n4: injection 0, a up 8, (top) -> b down 11, ejection 7.
  EXPECT_EQ(route(m, 0, 3), (std::vector<LinkId>{0, 8, 11, 7}));
  EXPECT_THAT(m.routing_description(), ::testing::HasSubstr("implicit top switch"));
}

// topology.conf(5), topology/block EXAMPLE: BlockName=block1 Nodes=node[1-32] ... block4
// Nodes=node[97-128], BlockSizes=30,120. 128 nodes; blocks 0 .. 3 and the implicit top 4.
TEST(SlurmTopology, TheBlockExampleOfSlurmsManPage) {
  std::shared_ptr<const GraphMachine> keep;
  const SlurmTopology& m = read("slurm_doc_block_example.conf", keep);
  EXPECT_EQ(m.form(), SlurmTopology::Form::conf_block);
  EXPECT_EQ(m.node_count(), 128);
  EXPECT_EQ(m.router_count(), 5);
  EXPECT_EQ(m.block_sizes(), (std::vector<int>{30, 120}));
  EXPECT_EQ(m.node_name(32), "node33");
  EXPECT_EQ(m.block_of(31), 0);
  EXPECT_EQ(m.block_of(32), 1);
  EXPECT_EQ(m.block_of(127), 3);
  EXPECT_EQ(m.implicit_top(), 4);
  EXPECT_EQ(m.group_count(), 4);
  EXPECT_EQ(m.distance(0, 31), 2);
  EXPECT_EQ(m.distance(0, 127), 4);
}

// Block sizes as Slurm's block_record.c settles them: without BlockSizes the first block's node
// count (2) times 1, 2, 4, 8, cut after the first level of at least 3 blocks (4): {2, 4, 8};
// BlockSizes=2,4,8,16 over 2 blocks keeps 2 (1 block) and 4 (2 blocks, all of them): {2, 4}.
TEST(SlurmTopology, BlockSizesAsSlurmSettlesThem) {
  const std::string unsized = ::testing::TempDir() + "/slurm_topology_unsized.conf";
  std::ofstream(unsized) << "BlockName=b0 Nodes=n[0-1]\nBlockName=b1 Nodes=n[2-4]\n"
                            "BlockName=b2 Nodes=n[5-6]\n";
  const auto a = make_slurm_topology(unsized);
  EXPECT_EQ(dynamic_cast<const SlurmTopology&>(*a).block_sizes(), (std::vector<int>{2, 4, 8}));
  const std::string sized = ::testing::TempDir() + "/slurm_topology_sized.conf";
  std::ofstream(sized) << "BlockSizes=2,4,8,16\nBlockName=b0 Nodes=n[0-1]\n"
                          "BlockName=b1 Nodes=n[2-3]\n";
  const auto b = make_slurm_topology(sized);
  EXPECT_EQ(dynamic_cast<const SlurmTopology&>(*b).block_sizes(), (std::vector<int>{2, 4}));
}

// The EXAMPLE of Slurm's topology.yaml(5) (Slurm 25.05): topo1 is the cluster default, a tree of
// one switch sw_root with node[01-04]: nodes 0 .. 3, the switch vertex 4, its own group.
TEST(SlurmTopology, TheYamlExampleOfSlurmsManPage) {
  std::shared_ptr<const GraphMachine> keep;
  const SlurmTopology& m = read("slurm_doc_example.yaml", keep);
  EXPECT_EQ(m.form(), SlurmTopology::Form::yaml_tree);
  EXPECT_EQ(m.node_count(), 4);
  EXPECT_EQ(m.router_count(), 1);
  EXPECT_EQ(m.router_name(4), "sw_root");
  EXPECT_EQ(m.node_name(3), "node04");
  EXPECT_EQ(m.group_count(), 1);
  EXPECT_EQ(m.distance(0, 3), 2);
  EXPECT_EQ(route(m, 0, 3), (std::vector<LinkId>{0, 7}));
}

// tree.yaml: the cluster_default topology "fabric" (the second): s0 (tux0, tux1), s1 (tux2, tux3,
// tux4; nodes given as a YAML list of hostlists), top over both. Vertices s0 5, s1 6, top 7;
// links: nodes 0 .. 9, s0 up 10 down 11, s1 up 12 down 13.
TEST(SlurmTopology, AYamlTree) {
  std::shared_ptr<const GraphMachine> keep;
  const SlurmTopology& m = read("tree.yaml", keep);
  EXPECT_EQ(m.form(), SlurmTopology::Form::yaml_tree);
  EXPECT_EQ(m.node_count(), 5);
  EXPECT_EQ(m.router_count(), 3);
  EXPECT_EQ(m.node_name(4), "tux4");
  EXPECT_EQ(m.router_of(2), 6);
  EXPECT_EQ(m.switches()[2].children, (std::vector<int>{0, 1}));
  EXPECT_EQ(m.switches()[2].level, 1);
  EXPECT_EQ(m.switches()[1].line, 15);
  EXPECT_EQ(m.group_count(), 1);
  EXPECT_EQ(route(m, 0, 4), (std::vector<LinkId>{0, 10, 13, 9}));
  EXPECT_EQ(m.distance(0, 4), 4);
}

// slurm_doc_block_example.yaml: Slurm's example with topo2 the default: blocks b1 .. b4 of four
// nodes (node01 .. node16 = ids 0 .. 15), block_sizes 4, 16; blocks are switches 0 .. 3
// (vertices 16 .. 19) under the implicit top 4 (vertex 20). Links: nodes 0 .. 31, b1 up 32 down
// 33, b2 34 35, b3 36 37, b4 38 39. Each block is its own group.
TEST(SlurmTopology, AYamlBlockTopology) {
  std::shared_ptr<const GraphMachine> keep;
  const SlurmTopology& m = read("slurm_doc_block_example.yaml", keep);
  EXPECT_EQ(m.form(), SlurmTopology::Form::yaml_block);
  EXPECT_TRUE(m.block_form());
  EXPECT_EQ(m.node_count(), 16);
  EXPECT_EQ(m.router_count(), 5);
  EXPECT_EQ(m.block_sizes(), (std::vector<int>{4, 16}));
  EXPECT_EQ(m.block_of(4), 1);
  EXPECT_EQ(m.block_of(15), 3);
  EXPECT_EQ(m.implicit_top(), 4);
  EXPECT_EQ(m.switches()[4].children, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(m.group_count(), 4);
  EXPECT_EQ(m.group_of(4), 1);
  EXPECT_EQ(m.distance(0, 3), 2);
  EXPECT_EQ(m.distance(0, 15), 4);
  EXPECT_EQ(route(m, 0, 15), (std::vector<LinkId>{0, 32, 39, 31}));
  EXPECT_THAT(m.routing_description(), ::testing::HasSubstr("blocks are joined"));
}

}  // namespace
}  // namespace allocsim
