// Grids with several nodes per router (issue 26, item 5), worked by hand on torus:4x4:per_router=2.
//
// Routers: the 4x4 torus, router r = x + 4y, vertex 32 + r. Nodes: 2 per router, node
// n = slot + 2r. Links: node n injection 2n, ejection 2n + 1 (0 .. 63); then every grid link
// slot (all real on a 4x4 torus): slot s = 4r + 2·dim + (direction > 0) becomes link 64 + s
// (64 .. 127): 128 links.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allocsim/topo/grid_routers.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

std::vector<LinkId> route_links(const Topology& t, NodeId a, NodeId b) {
  std::vector<LinkId> links;
  t.route_weighted(a, b, [&](LinkId link, double weight) {
    EXPECT_EQ(weight, 1.0);
    links.push_back(link);
  });
  return links;
}

TEST(GridRouters, TorusFourByFourTwoPerRouter) {
  const Topology t = Topology::parse("torus:4x4:per_router=2");
  ASSERT_NE(t.graph(), nullptr);
  const auto& machine = dynamic_cast<const GridRouters&>(*t.graph());
  EXPECT_EQ(t.node_count(), 32);
  EXPECT_EQ(machine.router_count(), 16);
  EXPECT_EQ(machine.vertex_count(), 48);
  EXPECT_EQ(t.link_count(), 128);
  EXPECT_EQ(machine.group_count(), 1);
  EXPECT_FALSE(t.has_coordinates());
  EXPECT_TRUE(machine.routers().has_coordinates());
  EXPECT_EQ(machine.routers().spec(), "torus:4x4");
  EXPECT_EQ(machine.per_router(), 2);
  EXPECT_EQ(machine.router_of(7), 35);  // router 3
  EXPECT_EQ(machine.grid_router_of(7), 3);
  EXPECT_EQ(machine.slot_of(7), 1);
  EXPECT_EQ(machine.router_name(35), "r3");
  // Grid slot 0 is router 0's − link along x: to router 3 (the wrap).
  EXPECT_EQ(machine.link_of_grid_link(0), 64);
  EXPECT_EQ(machine.links()[64], (GraphLink{32, 35, 1, LinkClass::local}));
  EXPECT_EQ(machine.links()[14], (GraphLink{7, 35, 1, LinkClass::injection}));
  EXPECT_EQ(machine.links()[15], (GraphLink{35, 7, 1, LinkClass::ejection}));

  // Same router: injection, ejection.
  EXPECT_EQ(route_links(t, 0, 1), (std::vector<LinkId>{0, 3}));
  EXPECT_EQ(t.distance(0, 1), 2);
  // Node 0 (router 0) -> node 7 (router 3 = (3, 0)): one hop − along x round the wrap, slot 0.
  EXPECT_EQ(route_links(t, 0, 7), (std::vector<LinkId>{0, 64, 15}));
  EXPECT_EQ(t.distance(0, 7), 3);
  // Node 1 (router 0) -> node 10 (router 5 = (1, 1)): + x from router 0 (slot 1 -> 65), then
  // + y from router 1 (slot 4 + 2 + 1 = 7 -> 71), ejection 21.
  EXPECT_EQ(route_links(t, 1, 10), (std::vector<LinkId>{2, 65, 71, 21}));
  EXPECT_EQ(t.distance(1, 10), 4);
  // Node 0 -> node 20 (router 10 = (2, 2)): ties go +: + x from routers 0, 1 (slots 1, 5 ->
  // 65, 69), + y from routers 2, 6 (slots 11, 27 -> 75, 91), ejection 41.
  EXPECT_EQ(route_links(t, 0, 20), (std::vector<LinkId>{0, 65, 69, 75, 91, 41}));
  EXPECT_EQ(t.distance(0, 20), 6);
  EXPECT_TRUE(route_links(t, 4, 4).empty());
  EXPECT_EQ(t.distance(4, 4), 0);
  // Neighbours of node 0: node 1 on router 0 and the nodes of routers 1, 3, 4, 12.
  EXPECT_EQ(t.neighbours(0), (std::vector<NodeId>{1, 2, 3, 6, 7, 8, 9, 24, 25}));
}

TEST(GridRouters, CountsOfAMeshAndASemitorus) {
  // mesh:4x4: 2 axes × 3 edges × 4 rows × 2 directions = 48 grid links; 64 nodes: 128
  // injection/ejection links.
  const Topology mesh = Topology::parse("mesh:4x4:per_router=4");
  EXPECT_EQ(mesh.node_count(), 64);
  EXPECT_EQ(mesh.link_count(), 176);
  // Node 0 -> node 63 (router 15 = (3, 3)): 3 + 3 hops.
  EXPECT_EQ(mesh.distance(0, 63), 8);
  // Semitorus 4x4 wrapping along x only: (0, 0) -> (3, 3) is 1 + 3 router hops.
  const Topology semi = Topology::parse("semitorus:4x4:wrap=10,per_router=2");
  EXPECT_EQ(semi.distance(0, 31), 6);
  EXPECT_EQ(semi.node_count(), 32);
  // 16 routers: x wraps, 4 · 4 · 2 = 32 links; y open, 3 · 4 · 2 = 24.
  EXPECT_EQ(semi.link_count(), 64 + 56);
}

TEST(GridRouters, SpecsRoundTrip) {
  const std::vector<std::pair<std::string, std::string>> specs{
      {"torus:8x8:per_router=2", "torus:8x8:per_router=2"},
      {"mesh:4x4:per_router=4", "mesh:4x4:per_router=4"},
      {"torus:4x4:wrap=10,per_router=2", "torus:4x4:wrap=10,per_router=2"},
      {"semitorus:4x4:wrap=10,per_router=2", "torus:4x4:wrap=10,per_router=2"},
      {"torus:4x4:per_router=2,wrap=11", "torus:4x4:per_router=2"},
  };
  for (const auto& [given, canonical] : specs) {
    const Topology t = Topology::parse(given);
    EXPECT_EQ(t.spec(), canonical);
    EXPECT_TRUE(Topology::parse(t.spec()) == t) << given;
  }
  // per_router=1 is the plain grid.
  EXPECT_EQ(Topology::parse("torus:4x4:per_router=1").kind(), Topology::Kind::torus);
  EXPECT_FALSE(Topology::parse("torus:4x4:per_router=2") == Topology::parse("torus:4x4"));
}

TEST(GridRouters, GridOnlyConsumersNameTheMachine) {
  const Topology t = Topology::parse("torus:4x4:per_router=2");
  try {
    t.require_grid("allocator 'mc'");
    FAIL() << "accepted";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "allocator 'mc' works on grids (mesh, torus, semitorus) only; machine "
                 "'torus:4x4:per_router=2' is a torus with 2 nodes per router");
  }
  EXPECT_THROW(Topology::parse("mesh:4x4:per_router=0"), InputError);
  // 3000 x 3000 routers (under the limit) x 2 = 18,000,000 nodes: refused without allow_large
  // (before building).
  try {
    Topology::parse("mesh:3000x3000:per_router=2");
    FAIL() << "accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("18000000 nodes (2 per router)"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace allocsim

namespace allocsim {
namespace {

TEST(GridRouters, EveryRouteJoinsItsEndpointsAlongTheGridRoute) {
  for (const std::string spec : {"torus:3x4:per_router=3", "mesh:3x2x2:per_router=2",
                                 "torus:2x3:per_router=2", "torus:4x3:wrap=01,per_router=2"}) {
    const Topology t = Topology::parse(spec);
    const auto& g = dynamic_cast<const GridRouters&>(*t.graph());
    const Topology& grid = g.routers();
    for (NodeId a = 0; a < t.node_count(); ++a)
      for (NodeId b = 0; b < t.node_count(); ++b) {
        if (a == b) continue;
        std::vector<LinkId> expected{g.injection_link(a)};
        grid.route(a / g.per_router(), b / g.per_router(),
                   [&](LinkId slot) { expected.push_back(g.link_of_grid_link(slot)); });
        expected.push_back(g.ejection_link(b));
        const std::vector<LinkId> found = route_links(t, a, b);
        EXPECT_EQ(found, expected) << spec << " " << a << "->" << b;
        EXPECT_EQ(static_cast<int>(found.size()), t.distance(a, b));
        for (std::size_t i = 0; i + 1 < found.size(); ++i)
          EXPECT_EQ(g.links()[found[i]].to, g.links()[found[i + 1]].from) << spec;
        EXPECT_EQ(g.links()[found.back()].to, b);
      }
  }
}

}  // namespace
}  // namespace allocsim
