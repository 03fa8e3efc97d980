// Malformed Slurm topology files: each gets InputError "FILE:LINE: what was wrong; expected ...".
// The line and reason of each case are read off its text by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "allocsim/topo/slurm_topology.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

struct BadFile {
  const char* name;    ///< file name in the temp folder (its extension picks the reader)
  std::string text;    ///< the file
  int line;            ///< the line the error names
  const char* reason;  ///< a part of the message after "FILE:LINE: "
};

void PrintTo(const BadFile& bad, std::ostream* out) {
  *out << bad.name;
}

std::string deep_tree() {  // s0 (a leaf) under s1 under ... s16: 17 levels
  std::string text = "SwitchName=s0 Nodes=n0\n";
  for (int s = 1; s <= 16; ++s)
    text += "SwitchName=s" + std::to_string(s) + " Switches=s" + std::to_string(s - 1) + "\n";
  return text;
}

const BadFile kBad[] = {
    // topology.conf
    {"empty.conf", "", 1, "the file defines no switches; expected lines such as SwitchName="},
    {"comments.conf", "# nothing here\n\n   # still nothing\n", 1, "defines no switches"},
    {"unknown_switch.conf", "SwitchName=s0 Nodes=a[0-1]\nSwitchName=top Switches=s[0-1]\n", 2,
     "switch 'top' lists switch 's1', which is not defined; expected the name of a switch the file "
     "defines"},
    {"cycle.conf",
     "SwitchName=a Switches=b\nSwitchName=b Switches=c\nSwitchName=c Switches=a\n"
     "SwitchName=d Nodes=n1\n",
     1,
     "the switches form a cycle ('a' -> 'b' -> 'c' -> 'a', each listing the next in "
     "Switches=); expected a tree"},
    {"self_cycle.conf", "SwitchName=n Nodes=x1\nSwitchName=a Switches=a\n", 2,
     "form a cycle ('a' -> 'a'"},
    {"two_leaves.conf",
     "SwitchName=s0 Nodes=tux[0-3]\nSwitchName=s1 Nodes=tux[3-5]\nSwitchName=top Switches=s[0-1]\n",
     2,
     "node 'tux3' is under both switch 's0' (line 1) and 's1'; expected each node under one "
     "leaf switch"},
    {"node_twice.conf", "SwitchName=s0 Nodes=tux[0-3],tux2\n", 1,
     "node 'tux2' is listed twice under switch 's0'"},
    {"neither.conf", "SwitchName=s0 Nodes=a1\nSwitchName=s1 LinkSpeed=10\n", 2,
     "switch 's1' has neither nodes nor switches; expected Nodes= (a leaf) or Switches="},
    {"both.conf", "SwitchName=s0 Nodes=a1 Switches=s1\nSwitchName=s1 Nodes=a2\n", 1,
     "switch 's0' has both nodes and switches"},
    {"defined_twice.conf", "SwitchName=s0 Nodes=a1\n# again:\nSwitchName=s0 Nodes=a2\n", 3,
     "switch 's0' is defined twice (first on line 1); expected each name once"},
    {"unknown_key.conf", "SwitchName=s0 Nodes=a1 Speed=10\n", 1,
     "unknown key 'Speed'; expected SwitchName, Switches, Nodes, LinkSpeed"},
    {"no_switchname.conf", "SwitchName=s0 Nodes=a1\nNodes=tux[0-3]\n", 2,
     "the line has no SwitchName=; expected SwitchName=NAME first"},
    {"bad_range.conf", "SwitchName=s0 Nodes=tux[3-1]\n", 1,
     "Nodes=: bad hostlist 'tux[3-1]': the range 3-1 goes down"},
    {"unclosed.conf", "SwitchName=s0\tNodes=a1\nSwitchName=s1 Nodes=tux[0-3\n", 2,
     "Nodes=: bad hostlist 'tux[0-3': '[' without ']'"},
    {"bad_switches_hostlist.conf", "SwitchName=s0 Nodes=a1\nSwitchName=t switches=s[x]\n", 2,
     "switches=: bad hostlist 's[x]': 'x' is not a number"},
    {"not_key_value.conf", "SwitchName=s0 Nodes a1\n", 1, "'Nodes' is not KEY=VALUE"},
    {"link_speed.conf", "SwitchName=s0 Nodes=a1 LinkSpeed=fast\n", 1,
     "LinkSpeed=fast is not a whole number; expected e.g. LinkSpeed=100"},
    {"two_parents.conf",
     "SwitchName=s0 Nodes=a1\nSwitchName=p1 Switches=s0\n"
     "SwitchName=p2 Switches=s0\n",
     3, "switch 's0' is under both 'p1' (line 2) and 'p2'; expected a tree"},
    {"mixed.conf", "SwitchName=s0 Nodes=a1\nBlockName=b0 Nodes=a2\n", 2,
     "BlockName= in a file of SwitchName= lines"},
    {"small_block.conf", "BlockName=b0 Nodes=n[0-3]\nBlockName=b1 Nodes=n[4-5]\nBlockSizes=4,16\n",
     2, "block 'b1' has 2 nodes, fewer than the base block size 4"},
    {"block_sizes.conf", "BlockName=b0 Nodes=n[0-3]\nBlockSizes=4,12\n", 2,
     "block size 12 is not a power of two (at least 2) times 4"},
    {"empty_value.conf", "SwitchName= Nodes=a1\n", 1, "SwitchName= has no value"},
    {"key_twice.conf", "SwitchName=s0 Nodes=a1 nodes=a2\n", 1,
     "key 'nodes' appears twice on the line"},
    {"too_deep.conf", deep_tree(), 1, "switch 's0' is 17 switch levels deep; expected at most 16"},
    {"block_with_switches.conf", "BlockName=b0 Switches=s1\n", 1,
     "key 'Switches' does not belong on a BlockName line; expected BlockName=NAME Nodes=..."},
    // topology.yaml
    {"empty.yaml", "", 1, "the file defines no topologies"},
    {"syntax.yaml", "- topology: t\n  tree: {switches: [}\n", 2, "YAML syntax: "},
    {"not_a_list.yaml", "topology: t\ntree: {}\n", 1, "the file is not a list of topologies"},
    {"unknown_key.yaml",
     "- topology: t\n  tree:\n    switches:\n      - switch: s0\n        node: a1\n", 5,
     "unknown key 'node' in a switch; expected switch, children, nodes"},
    {"no_default.yaml", "- topology: a\n  flat: true\n- topology: b\n  flat: true\n", 1,
     "2 topologies and none has cluster_default: true"},
    {"flat.yaml", "- topology: a\n  flat: true\n", 1,
     "topology 'a' is flat; expected a tree or block topology"},
    {"no_switch_name.yaml", "- topology: t\n  tree:\n    switches:\n      - nodes: a1\n", 4,
     "a switch without 'switch: NAME'"},
    {"unknown_child.yaml",
     "- topology: t\n  tree:\n    switches:\n      - switch: top\n        children: s[0-1]\n"
     "      - switch: s0\n        nodes: a1\n",
     4, "switch 'top' lists switch 's1', which is not defined"},
    {"block_size_word.yaml",
     "- topology: t\n  block:\n    block_sizes: [four]\n    blocks:\n      - block: b0\n"
     "        nodes: n[1-4]\n",
     3, "block_sizes: 'four' is not a whole number"},
    {"name_not_first.yaml", "- tree: {switches: [{switch: s, nodes: a}]}\n  topology: t\n", 1,
     "does not start with 'topology: NAME'"},
    {"two_kinds.yaml", "- topology: t\n  flat: true\n  block: {blocks: []}\n", 1,
     "topology 't' has 2 of tree, block, flat; expected one"},
    {"block_twice.yaml",
     "- topology: t\n  block:\n    blocks:\n      - block: b0\n        nodes: n[1-4]\n"
     "      - block: b1\n        nodes: n[4-7]\n",
     6,
     "node 'n4' is under both block 'b0' (line 4) and 'b1'; expected each node under one "
     "block"},
    {"bad_nodes.yaml",
     "- topology: t\n  tree:\n    switches:\n      - switch: s0\n        nodes: [a1, \"b[2-1]\"]\n",
     5, "nodes: bad hostlist 'b[2-1]'"},
    {"empty_nodes.yaml",
     "- topology: t\n  tree:\n    switches:\n      - switch: s0\n        nodes: a1\n"
     "      - switch: s1\n        nodes: []\n",
     7, "nodes is an empty list"},
    {"no_blocks.yaml", "- topology: t\n  block:\n    block_sizes: [4]\n    blocks: []\n", 1,
     "the file defines no blocks; expected entries such as '- block: b0' with 'nodes: tux[0-3]'"},
    {"neither.yaml",
     "- topology: t\n  tree:\n    switches:\n      - switch: s0\n        nodes: a1\n"
     "      - switch: s1\n",
     6, "switch 's1' has neither nodes nor switches; expected nodes: (a leaf) or children:"},
    {"block_without_nodes.conf", "BlockName=b0 Nodes=n[1-2]\nBlockName=b1\n", 2,
     "block 'b1' has no nodes; expected Nodes="},
};

class SlurmTopologyBadFile : public ::testing::TestWithParam<BadFile> {};

TEST_P(SlurmTopologyBadFile, NamesTheLineAndTheReason) {
  const BadFile& bad = GetParam();
  const std::string path = ::testing::TempDir() + "/slurm_topology_bad_" + bad.name;
  std::ofstream(path, std::ios::binary) << bad.text;
  try {
    make_slurm_topology(path);
    FAIL() << bad.name << " was accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    const std::string prefix = path + ":" + std::to_string(bad.line) + ": ";
    EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
    EXPECT_THAT(message, ::testing::HasSubstr(bad.reason));
  }
}

INSTANTIATE_TEST_SUITE_P(Files, SlurmTopologyBadFile, ::testing::ValuesIn(kBad),
                         [](const ::testing::TestParamInfo<BadFile>& param) {
                           std::string name = param.param.name;
                           for (char& c : name)
                             if (c == '.') c = '_';
                           return name;
                         });

TEST(SlurmTopologyBadFile, AFileThatCannotBeRead) {
  const std::string path = ::testing::TempDir() + "/slurm_topology_missing.conf";
  std::remove(path.c_str());
  try {
    make_slurm_topology(path);
    FAIL() << "a missing file was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              path +
                  ": cannot be read (No such file or directory); expected a readable "
                  "topology.conf or topology.yaml file");
  }
  try {
    make_slurm_topology(::testing::TempDir());
    FAIL() << "a folder was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(": is a folder; expected a topology.conf"));
  }
  // Through the registry, the file's own message is passed on as it is.
  EXPECT_THROW(Topology::parse("slurm-topology:" + path), InputError);
}

}  // namespace
}  // namespace allocsim
