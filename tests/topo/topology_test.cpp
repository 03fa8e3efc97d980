#include "allocsim/topo/topology.hpp"
#include "allocsim/topo/topology_registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "allocsim/util/error.hpp"

using namespace allocsim;

TEST(Topology, ParsesMeshTorusFlat) {
  const Topology mesh = Topology::parse("mesh:16x16");
  EXPECT_EQ(mesh.node_count(), 256);
  EXPECT_EQ(mesh.dims(), 2);
  EXPECT_EQ(mesh.kind(), Topology::Kind::mesh);
  EXPECT_EQ(Topology::parse("mesh:8x8x5").node_count(), 320);
  const Topology torus = Topology::parse("torus:2x2x2x6x8");
  EXPECT_EQ(torus.node_count(), 384);
  EXPECT_EQ(torus.dims(), 5);
  EXPECT_TRUE(torus.wraps(3));
  EXPECT_EQ(Topology::parse("flat:256").node_count(), 256);
  EXPECT_EQ(torus.spec(), "torus:2x2x2x6x8");
}

TEST(Topology, MalformedSpecsShowAcceptedForms) {
  for (const char* bad : {"mesh:16x", "torus:0x4", "cube:4", "mesh", "mesh:axb", "flat:4x4"}) {
    try {
      Topology::parse(bad);
      FAIL() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("accepted forms"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(Topology, IdsNumberFirstDimensionFastest) {
  const Topology mesh = Topology::parse("mesh:4x3x2");
  const std::vector<int> c{1, 2, 1};
  EXPECT_EQ(mesh.id(c), 1 + 4 * 2 + 4 * 3 * 1);
  for (NodeId node = 0; node < mesh.node_count(); ++node)
    EXPECT_EQ(mesh.id(mesh.coords(node)), node);
  EXPECT_EQ(mesh.coord(23, 0), 3);
  EXPECT_EQ(mesh.coord(23, 1), 2);
  EXPECT_EQ(mesh.coord(23, 2), 1);
}

TEST(Topology, DistancesMeshTorusFlat) {
  const Topology mesh = Topology::parse("mesh:8x8");
  const Topology torus = Topology::parse("torus:8x8");
  const NodeId a = 0, b = 7 + 8 * 7;  // opposite corners
  EXPECT_EQ(mesh.distance(a, b), 14);
  EXPECT_EQ(torus.distance(a, b), 2);
  EXPECT_EQ(torus.distance(0, 4), 4);
  EXPECT_EQ(torus.distance(0, 5), 3);
  EXPECT_EQ(Topology::parse("flat:10").distance(2, 9), 1);
  EXPECT_EQ(Topology::parse("flat:10").distance(3, 3), 0);
}

TEST(Topology, NeighboursAreAtDistanceOneAndSymmetric) {
  for (const char* spec : {"mesh:5x4x3", "torus:2x3x4", "torus:2x2x2x6x8", "mesh:1x7"}) {
    const Topology t = Topology::parse(spec);
    for (NodeId node = 0; node < t.node_count(); ++node) {
      auto around = t.neighbours(node);
      std::sort(around.begin(), around.end());
      EXPECT_EQ(std::adjacent_find(around.begin(), around.end()), around.end()) << spec;
      for (NodeId other : around) {
        EXPECT_EQ(t.distance(node, other), 1) << spec;
        auto back = t.neighbours(other);
        EXPECT_NE(std::find(back.begin(), back.end(), node), back.end()) << spec;
      }
      int at_one = 0;
      for (NodeId other = 0; other < t.node_count(); ++other)
        at_one += t.distance(node, other) == 1;
      EXPECT_EQ(at_one, static_cast<int>(around.size())) << spec;
    }
  }
  EXPECT_EQ(Topology::parse("flat:5").neighbours(2).size(), 4u);
}

namespace {
std::string error_of(const std::string& spec) {
  try {
    Topology::parse(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}
}  // namespace

TEST(Topology, SpecRoundTripsForEveryForm) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dims_dist(1, 5), side_dist(1, 9), coin(0, 1);
  for (int trial = 0; trial < 2000; ++trial) {
    const int dims = dims_dist(rng);
    std::vector<int> sides(dims);
    std::vector<bool> wrap(dims);
    for (int axis = 0; axis < dims; ++axis) sides[axis] = side_dist(rng), wrap[axis] = coin(rng);
    const Topology t = trial % 10 == 0 ? Topology::flat(side_dist(rng) * 7) : Topology(sides, wrap);
    const Topology back = Topology::parse(t.spec());
    EXPECT_EQ(back, t) << t.spec();
    EXPECT_EQ(back.spec(), t.spec());
    EXPECT_EQ(back.node_count(), t.node_count());
  }
  const Topology semi = Topology::parse("torus:4x4:wrap=10");
  EXPECT_TRUE(semi.wraps(0));
  EXPECT_FALSE(semi.wraps(1));
  EXPECT_EQ(semi.spec(), "torus:4x4:wrap=10");
  EXPECT_EQ(Topology::parse("semitorus:8x8x4:wrap=110"), Topology({8, 8, 4}, {true, true, false}));
  EXPECT_EQ(Topology::parse("semitorus:8x8x4:wrap=110").spec(), "torus:8x8x4:wrap=110");
  EXPECT_EQ(Topology::parse("torus:4x4:wrap=11"), Topology::parse("torus:4x4"));
  EXPECT_EQ(Topology::parse("torus:4x4:wrap=00"), Topology::parse("mesh:4x4"));
  EXPECT_NE(Topology::parse("mesh:4x4"), Topology::parse("torus:4x4"));
  EXPECT_NE(Topology::parse("flat:16"), Topology::parse("mesh:16"));
}

TEST(Topology, TableErrorsNameTheSpecAndTheClosestKind) {
  const std::string unknown = error_of("tours:4x4");
  EXPECT_NE(unknown.find("tours:4x4"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("did you mean 'torus'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("valid topologies: mesh torus semitorus flat"), std::string::npos)
      << unknown;
  EXPECT_NE(error_of("torus:4x4:wrp=10").find("did you mean 'wrap'"), std::string::npos);
  for (const char* bad : {"torus:4x4:wrap=1", "torus:4x4:wrap=12", "semitorus:4x4", "torus:4x4:",
                          "mesh:4x4:wrap=10", "flat:4:wrap=1", "flat:4x4", "mesh:-3x4"}) {
    const std::string message = error_of(bad);
    EXPECT_NE(message.find(std::string("'") + bad + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("accepted forms"), std::string::npos) << message;
  }
}

TEST(Topology, NodeCountsBeyondIntAreRejected) {
  for (const char* huge : {"mesh:50000x50000", "flat:2147483647", "flat:99999999999",
                           "torus:1024x1024x1024", "mesh:65536x65536x65536x65536"}) {
    const std::string message = error_of(huge);
    EXPECT_NE(message.find(huge), std::string::npos) << message;
    EXPECT_NE(message.find("accepted forms"), std::string::npos) << message;
  }
  EXPECT_EQ(Topology::parse("flat:1073741823").node_count(), 1073741823);
}

TEST(Topology, TableAndCapabilities) {
  EXPECT_EQ(topology_registry().names(),
            (std::vector<std::string>{"mesh", "torus", "semitorus", "flat", "dragonfly", "fattree",
                                      "slurm-topology"}));
  EXPECT_EQ(topology_registry().describe().rfind("topologies:\n", 0), 0u);
  EXPECT_TRUE(Topology::parse("mesh:4x4").has_coordinates());
  EXPECT_TRUE(Topology::parse("torus:4x4:wrap=01").has_coordinates());
  EXPECT_FALSE(Topology::parse("flat:16").has_coordinates());
  EXPECT_TRUE(Topology::parse("flat:16").fully_connected());
  EXPECT_FALSE(Topology::parse("torus:2x2").fully_connected());
}

namespace allocsim {
namespace {

TEST(TopologySize, MoreThanTenMillionNodesNeedsAllowLarge) {
  try {
    check_machine_size("torus:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2");
    FAIL() << "a 2^24-node machine was built without allow_large";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("16777216 nodes would take about 1.2 GB"), std::string::npos) << message;
    EXPECT_NE(message.find("allow_large=1"), std::string::npos) << message;
  }
  EXPECT_NO_THROW(
      check_machine_size("torus:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2:allow_large=1"));
  EXPECT_NO_THROW(check_machine_size("mesh:3000x3000"));
  // The permission is no topology parameter: a small machine with it is the same machine.
  const Topology small = Topology::parse("torus:4x4:allow_large=1");
  EXPECT_EQ(small.spec(), "torus:4x4");
  EXPECT_EQ(Topology::parse("semitorus:4x4:wrap=10,allow_large=1").spec(), "torus:4x4:wrap=10");
  EXPECT_THROW(Topology::parse("mesh:4x4:allow_large=maybe"), InputError);
}

}  // namespace
}  // namespace allocsim
