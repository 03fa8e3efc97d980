#include "allocsim/metrics/locality.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "allocsim/util/rng.hpp"

using namespace allocsim;

TEST(Locality, PairwiseSumMatchesBruteForceOnRandomSets) {
  Rng rng(3);
  for (const char* spec : {"mesh:16x8", "torus:4x4x4", "torus:5x7", "torus:2x2x2x6x8", "mesh:8x8x5",
                           "torus:1x9", "flat:30"}) {
    const Topology t = Topology::parse(spec);
    LocalityMeter meter(t);
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<NodeId> all(t.node_count());
      for (NodeId i = 0; i < t.node_count(); ++i) all[i] = i;
      const auto k = rng.uniform_int(0, t.node_count());
      for (int i = 0; i < k; ++i) std::swap(all[i], all[rng.uniform_int(i, t.node_count() - 1)]);
      all.resize(k);
      EXPECT_EQ(meter.pairwise_sum(all), pairwise_hop_sum_brute(t, all)) << spec;
    }
  }
}

TEST(Locality, ComponentsAndBoundingBox) {
  const Topology mesh = Topology::parse("mesh:4x4");
  LocalityMeter meter(mesh);
  const std::vector<NodeId> two_blocks{0, 1, 4, 5, 15};  // 2x2 block + far corner
  EXPECT_EQ(meter.components(two_blocks), 2);
  const BoundingBox box = meter.bounding_box(two_blocks);
  EXPECT_EQ(box.volume, 16);
  EXPECT_EQ(box.sides_sum, 8);
  EXPECT_EQ(meter.smallest_box(5), 6);  // 2x3
  EXPECT_EQ(meter.smallest_box(16), 16);
  EXPECT_EQ(meter.smallest_cube(5), 9);  // 3x3

  const Topology torus = Topology::parse("torus:8x1");
  LocalityMeter ring(torus);
  const std::vector<NodeId> wrapped{0, 7};  // adjacent through the wrap link
  EXPECT_EQ(ring.components(wrapped), 1);
  EXPECT_EQ(ring.bounding_box(wrapped).extents[0], 2);
  EXPECT_EQ(ring.pairwise_sum(wrapped), 1);
}
