#include "allocsim/topo/topology.hpp"

#include <gtest/gtest.h>

#include <algorithm>

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
      for (NodeId other = 0; other < t.node_count(); ++other) at_one += t.distance(node, other) == 1;
      EXPECT_EQ(at_one, static_cast<int>(around.size())) << spec;
    }
  }
  EXPECT_EQ(Topology::parse("flat:5").neighbours(2).size(), 4u);
}
