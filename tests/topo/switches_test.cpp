// Several processors per switch on the box topologies (topo/switches.hpp): Leung et al.'s §4
// machine, "an 8 x 8 mesh of switches with toroidal wraps in both dimensions. Four of the rows
// have four processors per switch", as torus:4x8x4:wrap=010.
#include "allocsim/topo/switches.hpp"

#include <gtest/gtest.h>

#include "allocsim/topo/ordering.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

TEST(Switches, Section4MachineHas128ProcessorsOn32Switches) {
  const Topology machine = Topology::parse("torus:4x8x4:wrap=010");
  EXPECT_EQ(machine.node_count(), 128);
  const Topology switches = switch_topology(machine);
  EXPECT_EQ(switches.spec(), Topology::parse("torus:8x4:wrap=10").spec());
  // Processor slot + 4 x (column + 8 x row): switch (3, 2) holds processors 76..79.
  for (NodeId node = 76; node < 80; ++node) EXPECT_EQ(switch_of(machine, node), 3 + 8 * 2);
  // Switches in one compute row are a ring of 8; the compute rows a line of 4 (no wrap).
  EXPECT_EQ(switches.distance(0, 7), 1);
  EXPECT_EQ(switches.distance(0, 24), 3);
  EXPECT_THROW(switch_topology(Topology::parse("mesh:16")), InputError);
}

TEST(Switches, SwitchMajorOrderKeepsEachSwitchsProcessorsTogether) {
  EXPECT_EQ(switch_major_order({2, 0, 1}, 3), (std::vector<NodeId>{6, 7, 8, 0, 1, 2, 3, 4, 5}));
  const Topology machine = Topology::parse("torus:4x8x4:wrap=010");
  const std::vector<NodeId> order =
      switch_major_order(hilbert_order(switch_topology(machine)), machine.side(0));
  ASSERT_TRUE(is_node_permutation(order, machine.node_count()));
  for (std::size_t rank = 0; rank < order.size(); ++rank)
    EXPECT_EQ(switch_of(machine, order[rank]), switch_of(machine, order[rank - rank % 4]));
}

}  // namespace
}  // namespace allocsim
