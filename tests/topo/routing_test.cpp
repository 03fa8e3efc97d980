// Links and dimension-ordered routing (Topology::route).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"
#include "testing/random_grid.hpp"

using namespace allocsim;

namespace {

using allocsim::testing::random_grid;

std::vector<LinkId> route_of(const Topology& t, NodeId a, NodeId b) {
  std::vector<LinkId> links;
  t.route(a, b, [&](LinkId link) { links.push_back(link); });
  return links;
}

/// Checks one route: real links, contiguous from a to b, dimensions in order, length = distance.
void check_route(const Topology& t, NodeId a, NodeId b) {
  const std::vector<LinkId> links = route_of(t, a, b);
  ASSERT_EQ(static_cast<int>(links.size()), t.distance(a, b))
      << t.spec() << " " << a << " -> " << b;
  NodeId at = a;
  int last_dim = 0;
  for (LinkId id : links) {
    ASSERT_GE(id, 0);
    ASSERT_LT(id, t.link_slot_count());
    ASSERT_TRUE(t.is_link(id)) << t.spec() << " slot " << id;
    const Topology::Link link = t.link(id);
    ASSERT_EQ(link.from, at) << t.spec() << " route " << a << " -> " << b << " not contiguous";
    ASSERT_EQ(t.distance(link.from, link.to), 1) << t.spec();
    ASSERT_GE(link.dim, last_dim) << t.spec() << ": dimensions out of order";
    last_dim = link.dim;
    at = link.to;
  }
  EXPECT_EQ(at, b) << t.spec() << " route " << a << " -> " << b << " ends elsewhere";
}

}  // namespace

TEST(Routing, RandomGridRoutesAreContiguousAndAsLongAsTheDistance) {
  std::mt19937 rng(20261123);
  for (int trial = 0; trial < 300; ++trial) {
    const Topology t = random_grid(rng);
    std::uniform_int_distribution<NodeId> node(0, t.node_count() - 1);
    for (int pair = 0; pair < 40; ++pair) check_route(t, node(rng), node(rng));
  }
  for (const char* spec : {"mesh:16x16", "torus:8x8x8", "torus:5x6x7", "torus:2x2x2x6x8"}) {
    const Topology t = Topology::parse(spec);
    std::uniform_int_distribution<NodeId> node(0, t.node_count() - 1);
    for (int pair = 0; pair < 500; ++pair) check_route(t, node(rng), node(rng));
  }
}

TEST(Routing, AllPairsOnSmallSemitorus) {
  const Topology t({4, 3, 2}, {true, false, true});
  for (NodeId a = 0; a < t.node_count(); ++a)
    for (NodeId b = 0; b < t.node_count(); ++b) check_route(t, a, b);
}

TEST(Routing, DimensionZeroFirstOnAMesh) {
  const Topology mesh = Topology::parse("mesh:4x4");
  // (0,0) -> (2,1): two + steps along x, then one + step along y.
  const std::vector<LinkId> expected{mesh.link_id(0, 0, +1), mesh.link_id(1, 0, +1),
                                     mesh.link_id(2, 1, +1)};
  EXPECT_EQ(route_of(mesh, 0, 2 + 4 * 1), expected);
  // (3,3) -> (1,2): x backwards first, then y backwards.
  const std::vector<LinkId> back{mesh.link_id(15, 0, -1), mesh.link_id(14, 0, -1),
                                 mesh.link_id(13, 1, -1)};
  EXPECT_EQ(route_of(mesh, 15, 1 + 4 * 2), back);
  EXPECT_TRUE(route_of(mesh, 5, 5).empty());
}

TEST(Routing, TorusGoesTheShorterWayAndTiesGoPlus) {
  const Topology ring = Topology::parse("torus:8");
  // 1 -> 7 is 2 hops backwards through the wrap: 1 -> 0 -> 7.
  EXPECT_EQ(route_of(ring, 1, 7),
            (std::vector<LinkId>{ring.link_id(1, 0, -1), ring.link_id(0, 0, -1)}));
  // Distance exactly 4 = side/2: both ways go in the + direction.
  const std::vector<LinkId> up = route_of(ring, 0, 4), down = route_of(ring, 4, 0);
  ASSERT_EQ(up.size(), 4u);
  ASSERT_EQ(down.size(), 4u);
  for (LinkId id : up) EXPECT_EQ(ring.link(id).direction, +1);
  for (LinkId id : down) EXPECT_EQ(ring.link(id).direction, +1);
  EXPECT_EQ(ring.link(down.back()).to, 0);  // 4 -> 5 -> 6 -> 7 -> 0 via the wrap
  // Side 2 with wrap: the tie also goes +, from 1 over the wrap link.
  const Topology pair({2}, {true});
  EXPECT_EQ(route_of(pair, 1, 0), std::vector<LinkId>{pair.link_id(1, 0, +1)});
  EXPECT_EQ(route_of(pair, 0, 1), std::vector<LinkId>{pair.link_id(0, 0, +1)});
  // Odd side: no tie, the shorter way.
  const Topology odd = Topology::parse("torus:5");
  EXPECT_EQ(route_of(odd, 0, 3),
            (std::vector<LinkId>{odd.link_id(0, 0, -1), odd.link_id(4, 0, -1)}));
}

TEST(Routing, LinkSlotsAndRealLinks) {
  const Topology mesh = Topology::parse("mesh:4x3");
  EXPECT_EQ(mesh.link_slots_per_node(), 4);
  EXPECT_EQ(mesh.link_slot_count(), 48);
  EXPECT_EQ(mesh.link_id(5, 1, +1), 5 * 4 + 3);
  EXPECT_EQ(mesh.link_id(5, 0, -1), 5 * 4 + 0);
  EXPECT_FALSE(mesh.is_link(mesh.link_id(3, 0, +1)));  // east border
  EXPECT_FALSE(mesh.is_link(mesh.link_id(0, 1, -1)));  // south border
  EXPECT_TRUE(mesh.is_link(mesh.link_id(3, 0, -1)));
  EXPECT_EQ(mesh.link_count(), 2 * (3 * 3 + 4 * 2));
  const Topology torus = Topology::parse("torus:4x3x1");
  EXPECT_EQ(torus.link_count(), 2 * (12 + 12));  // no links along the side of 1
  EXPECT_FALSE(torus.is_link(torus.link_id(0, 2, +1)));
  EXPECT_EQ(torus.link(torus.link_id(3, 0, +1)).to, 0);  // wrap link
  // link_count agrees with is_link, and every real link joins neighbours.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const Topology t = random_grid(rng);
    std::int64_t real = 0;
    for (LinkId id = 0; id < t.link_slot_count(); ++id) {
      const Topology::Link link = t.link(id);
      EXPECT_EQ(t.link_id(link.from, link.dim, link.direction), id);
      if (!t.is_link(id)) continue;
      ++real;
      const auto around = t.neighbours(link.from);
      EXPECT_NE(std::find(around.begin(), around.end(), link.to), around.end()) << t.spec();
    }
    EXPECT_EQ(real, t.link_count()) << t.spec();
  }
}

TEST(Routing, FlatRoutesThroughTheCrossbarPorts) {
  const Topology flat = Topology::flat(6);
  EXPECT_EQ(flat.link_slot_count(), 12);
  EXPECT_EQ(flat.link_count(), 12);
  const std::vector<LinkId> links = route_of(flat, 2, 5);
  ASSERT_EQ(links, (std::vector<LinkId>{flat.link_id(2, 0, +1), flat.link_id(5, 0, -1)}));
  const Topology::Link in = flat.link(links[0]), out = flat.link(links[1]);
  EXPECT_EQ(in.from, 2);
  EXPECT_EQ(in.to, Topology::kCrossbar);
  EXPECT_EQ(out.from, Topology::kCrossbar);
  EXPECT_EQ(out.to, 5);
  EXPECT_TRUE(route_of(flat, 3, 3).empty());
  EXPECT_EQ(Topology::flat(1).link_count(), 0);
  EXPECT_FALSE(Topology::flat(1).is_link(0));
}

TEST(Routing, LinkIdsFitAnInt) {
  EXPECT_THROW(Topology({65536, 65536}, {false, false}), InputError);
  EXPECT_THROW(Topology({1024, 1024, 1024}, {true, true, true}), InputError);
  EXPECT_NO_THROW(Topology({1024, 1024, 256}, {true, true, true}));
  try {
    Topology::parse("mesh:65536x65536");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh:65536x65536"), std::string::npos) << e.what();
  }
}
