// Property tests of the routing function of every machine kind (issue 26, "Acceptance"): link
// loads from the single routing function (network/link_loads.hpp) equal brute-force per-flow
// routing; every path joins its endpoints; multipath weights sum to 1.
//
// The machines: grids, flat, the hand-made tiny tree (tests/testing/tiny_graph.hpp), a ring,
// fixed specs of every graph kind, and random machines of every kind (random grids, random
// dragonflies under every arrangement and routing, random k-ary and XGFT fat trees under both
// routings, random per_router grids, random Slurm topology files).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "allocsim/network/link_loads.hpp"
#include "allocsim/util/error.hpp"
#include "testing/random_grid.hpp"
#include "testing/tiny_graph.hpp"

using namespace allocsim;

namespace {

/// A machine under test with its name for messages.
struct Machine {
  std::string name;
  Topology topology;
};

/// A ring of `routers` routers with `per` nodes each, routed the shorter way round, split
/// evenly over both ways at a tie (multipath); ring links of capacity 2. Several nodes per
/// router exercise all_to_all_link_loads' per-(router, destination) multiplicities. Link ids:
/// node i injection 2i, ejection 2i+1; then router r's clockwise link base + 2r (to r + 1)
/// and counter-clockwise base + 2r + 1 (to r − 1), base = 2 · nodes.
class RingMachine final : public GraphMachine {
 public:
  RingMachine(int routers, int per) : routers_(routers) {
    node_count_ = routers * per;
    for (int r = 0; r < routers; ++r)
      router_names_.push_back(std::string(1, 'r').append(std::to_string(r)));
    for (NodeId node = 0; node < node_count_; ++node) {
      router_of_.push_back(node_count_ + node / per);
      group_of_.push_back(0);
      links_.push_back({node, router_of_.back(), 1, LinkClass::injection});
      links_.push_back({router_of_.back(), node, 1, LinkClass::ejection});
    }
    for (int r = 0; r < routers; ++r) {
      links_.push_back({node_count_ + r, node_count_ + (r + 1) % routers, 2, LinkClass::local});
      links_.push_back(
          {node_count_ + r, node_count_ + (r + routers - 1) % routers, 2, LinkClass::local});
    }
    finish();
  }
  std::string spec() const override { return "ring"; }
  std::string kind_name() const override { return "ring"; }
  int distance(NodeId a, NodeId b) const override {
    if (a == b) return 0;
    const int d = (router_of(b) - router_of(a) + routers_) % routers_;
    return 2 + std::min(d, routers_ - d);
  }
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView) const override {
    if (a == b) return;
    const int ra = router_of(a) - node_count_, rb = router_of(b) - node_count_;
    const int d = (rb - ra + routers_) % routers_;
    const auto walk = [&](bool clockwise, double weight) {
      std::vector<LinkId> path{injection_link(a)};
      int r = ra;
      for (int step = 0; step < (clockwise ? d : routers_ - d); ++step) {
        path.push_back(2 * node_count_ + 2 * r + (clockwise ? 0 : 1));
        r = (r + (clockwise ? 1 : routers_ - 1)) % routers_;
      }
      path.push_back(ejection_link(b));
      visit(path, weight);
    };
    if (d == 0 || 2 * d < routers_)
      walk(true, 1.0);
    else if (2 * d > routers_)
      walk(false, 1.0);
    else {
      walk(true, 0.5);
      walk(false, 0.5);
    }
  }
  std::string routing_description() const override { return "the shorter way round"; }

 private:
  int routers_;
};

/// A random Slurm topology.conf (a tree of 1 .. 3 levels above the leaves, 1 .. 3 nodes per leaf)
/// written to a temporary file, and the machine read from it.
Topology random_slurm_tree(std::mt19937& rng, int index) {
  const auto draw = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(rng);
  };
  std::ostringstream text;
  int node = 0, switch_id = 0;
  std::vector<std::string> level;  // switches of the level being built
  for (int leaf = draw(1, 4); leaf > 0; --leaf) {
    const int nodes = draw(1, 3);
    text << "SwitchName=s" << switch_id << " Nodes=n[" << node << "-" << node + nodes - 1 << "]\n";
    level.push_back(std::string(1, 's').append(std::to_string(switch_id++)));
    node += nodes;
  }
  for (int up = draw(0, 2); up > 0 && level.size() > 1; --up) {
    std::vector<std::string> parents;
    for (std::size_t i = 0; i < level.size(); i += 2) {
      text << "SwitchName=s" << switch_id << " Switches=" << level[i];
      if (i + 1 < level.size()) text << "," << level[i + 1];
      text << "\n";
      parents.push_back(std::string(1, 's').append(std::to_string(switch_id++)));
    }
    level = parents;
  }
  const auto path =
      std::filesystem::temp_directory_path() /
      ("allocsim_property_" + std::to_string(::getpid()) + "_" + std::to_string(index) + ".conf");
  std::ofstream(path) << text.str();
  Topology topology = Topology::parse("slurm-topology:" + path.string());
  std::filesystem::remove(path);
  return topology;
}

/// Random machines of every graph kind, by spec (and Slurm files).
std::vector<Machine> random_graph_machines(std::mt19937& rng) {
  const auto draw = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(rng);
  };
  const char* const arrangements[] = {"absolute", "relative", "circulant"};
  const char* const routings[] = {"minimal", "valiant", "ugal"};
  std::vector<Machine> list;
  for (int i = 0; i < 6; ++i) {
    const int a = draw(1, 4), h = draw(1, 3);
    const std::string spec =
        "dragonfly:p=" + std::to_string(draw(1, 3)) + ",a=" + std::to_string(a) +
        ",h=" + std::to_string(h) + ",g=" + std::to_string(draw(2, a * h + 1)) +
        ",arrangement=" + arrangements[draw(0, 2)] + ",routing=" + routings[draw(0, 2)];
    list.push_back({spec, Topology::parse(spec)});
  }
  for (int i = 0; i < 4; ++i) {
    const char* routing = draw(0, 1) ? "ecmp" : "dmodk";
    std::string spec = "fattree:k=" + std::to_string(2 * draw(1, 3)) + ",routing=" + routing;
    if (i % 2) {
      const int levels = draw(1, 3);
      std::string down, up;
      for (int l = 0; l < levels; ++l) {
        down.append(l ? "x" : "").append(std::to_string(draw(1, 3)));
        up.append(l ? "x" : "").append(std::to_string(l == 0 ? 1 : draw(1, 3)));
      }
      spec = "fattree:down=" + down + ",up=" + up + ",routing=" + routing;
    }
    list.push_back({spec, Topology::parse(spec)});
  }
  for (int i = 0; i < 3; ++i) {
    Topology grid = allocsim::testing::random_grid(rng, 2);
    const std::string spec =
        grid.spec() +
        (grid.spec().find(':', grid.spec().find(':') + 1) == std::string::npos ? ":" : ",") +
        "per_router=" + std::to_string(draw(2, 3));
    list.push_back({spec, Topology::parse(spec)});
  }
  for (int i = 0; i < 4; ++i) {
    Topology tree = random_slurm_tree(rng, i);
    list.push_back({"random Slurm tree " + std::to_string(i), std::move(tree)});
  }
  return list;
}

/// Every kind: grids and flat by spec, fixed specs of every graph kind, the tiny tree (even and
/// weighted splits, thin up links), a ring, random grids and random graph machines.
std::vector<Machine> machines() {
  std::vector<Machine> list;
  for (const char* spec :
       {"mesh:4x4", "torus:4x4", "torus:3x2x5:wrap=011", "mesh:1x5", "torus:2x2", "flat:6",
        "dragonfly:p=2,a=4,h=2", "dragonfly:p=2,a=4,h=2,routing=valiant",
        "dragonfly:p=2,a=4,h=2,routing=ugal", "dragonfly:p=1,a=2,h=1,arrangement=relative",
        "dragonfly:p=2,a=4,h=2,g=5", "dragonfly:p=2,a=4,h=2,g=6,arrangement=circulant",
        "fattree:k=4", "fattree:k=4,routing=ecmp", "fattree:down=4x3,up=1x2", "fattree:k=6",
        "fattree:down=2x3x2x2,up=1x2x3x2", "torus:4x4:per_router=2"})
    list.push_back({spec, Topology::parse(spec)});
  list.push_back({"tinytree(0.5)", allocsim::testing::tiny_tree()});
  list.push_back({"tinytree(0.75, up 0.25)", allocsim::testing::tiny_tree(0.75, 0.25)});
  list.push_back({"tinytree(1)", allocsim::testing::tiny_tree(1.0)});
  list.push_back(
      {"ring(5 routers, 3 nodes)", Topology::graph(std::make_shared<const RingMachine>(5, 3))});
  list.push_back({"ring(4 routers, 2 nodes, ties split)",
                  Topology::graph(std::make_shared<const RingMachine>(4, 2))});
  std::mt19937 rng(26);
  for (int i = 0; i < 6; ++i) {
    Topology grid = allocsim::testing::random_grid(rng, 3);
    list.push_back({grid.spec(), std::move(grid)});
  }
  for (Machine& machine : random_graph_machines(rng)) list.push_back(std::move(machine));
  return list;
}

std::vector<NodeId> random_subset(const Topology& t, std::mt19937& rng) {
  std::vector<NodeId> all(static_cast<std::size_t>(t.node_count()));
  for (NodeId v = 0; v < t.node_count(); ++v) all[static_cast<std::size_t>(v)] = v;
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(static_cast<std::size_t>(std::uniform_int_distribution<int>(0, t.node_count())(rng)));
  return all;
}

/// Brute force: every flow routed on its own with Topology::route_weighted, summed per link in
/// a map (no scratch, no aggregation).
using LoadMap = std::map<LinkId, double>;
void add_flow(const Topology& t, NodeId a, NodeId b, double amount, LoadMap& loads) {
  t.route_weighted(a, b, [&](LinkId link, double weight) { loads[link] += amount * weight; });
}

/// Same links, loads equal up to rounding (1e-9 relative): the aggregated sums add in another
/// order than the brute force's.
void expect_same_loads(const LoadMap& expected, const std::vector<std::pair<LinkId, double>>& got,
                       const std::string& what) {
  LoadMap positive;
  for (const auto& [link, load] : expected)
    if (load > 1e-12) positive[link] = load;
  ASSERT_EQ(got.size(), positive.size()) << what;
  auto it = positive.begin();
  for (const auto& [link, load] : got) {
    ASSERT_EQ(link, it->first) << what;
    EXPECT_NEAR(load, it->second, 1e-9 * std::max(1.0, it->second)) << what << " link " << link;
    ++it;
  }
}

}  // namespace

TEST(GraphRoutingProperty, EveryPathJoinsItsEndpointsAndWeightsSumToOne) {
  for (const Machine& m : machines()) {
    const Topology& t = m.topology;
    for (NodeId a = 0; a < t.node_count(); ++a)
      for (NodeId b = 0; b < t.node_count(); ++b) {
        const std::string what = m.name + " " + std::to_string(a) + "->" + std::to_string(b);
        if (const GraphMachine* g = t.graph()) {
          double total = 0;
          int paths = 0;
          g->for_each_path(a, b, [&](std::span<const LinkId> path, double weight) {
            ++paths;
            total += weight;
            EXPECT_GT(weight, 0) << what;
            ASSERT_FALSE(path.empty()) << what;
            EXPECT_EQ(g->links()[path.front()].from, a) << what;  // leaves a: its injection
            EXPECT_EQ(path.front(), g->injection_link(a)) << what;
            EXPECT_EQ(g->links()[path.back()].to, b) << what;  // enters b: its ejection
            EXPECT_EQ(path.back(), g->ejection_link(b)) << what;
            for (std::size_t i = 1; i < path.size(); ++i)
              EXPECT_EQ(g->links()[path[i - 1]].to, g->links()[path[i]].from) << what;
          });
          if (a == b) {
            EXPECT_EQ(paths, 0) << what;
          } else {
            EXPECT_GE(paths, 1) << what;
            EXPECT_NEAR(total, 1.0, 1e-12) << what;
          }
          continue;
        }
        // Grids and flat: one path (route), weight 1 through route_weighted.
        std::vector<LinkId> path;
        t.route(a, b, [&](LinkId link) { path.push_back(link); });
        std::vector<LinkId> weighted;
        t.route_weighted(a, b, [&](LinkId link, double weight) {
          EXPECT_EQ(weight, 1.0) << what;
          weighted.push_back(link);
        });
        EXPECT_EQ(weighted, path) << what;
        if (a == b) {
          EXPECT_TRUE(path.empty()) << what;
          continue;
        }
        ASSERT_FALSE(path.empty()) << what;
        EXPECT_EQ(t.link(path.front()).from, a) << what;
        EXPECT_EQ(t.link(path.back()).to, b) << what;
        for (std::size_t i = 1; i < path.size(); ++i)
          EXPECT_EQ(t.link(path[i - 1]).to, t.link(path[i]).from) << what;
        for (const LinkId link : path) EXPECT_TRUE(t.is_link(link)) << what;
      }
  }
}

TEST(GraphRoutingProperty, AllToAllLoadsEqualPerPairRouting) {
  std::mt19937 rng(2026);
  for (const Machine& m : machines()) {
    const Topology& t = m.topology;
    LinkLoadScratch scratch;  // reused across node sets, as the flow model does
    for (int trial = 0; trial < 12; ++trial) {
      const std::vector<NodeId> nodes = random_subset(t, rng);
      LoadMap expected;
      for (const NodeId a : nodes)
        for (const NodeId b : nodes) add_flow(t, a, b, 1.0, expected);
      std::vector<std::pair<LinkId, double>> got;
      for (const LoadedLink& l : all_to_all_link_loads(t, nodes, scratch))
        got.emplace_back(l.link, l.load);
      expect_same_loads(expected, got, m.name + " all-to-all of " + std::to_string(nodes.size()));
      // Explicit messages through the same routing.
      std::vector<std::pair<NodeId, NodeId>> messages;
      for (const NodeId a : nodes)
        for (const NodeId b : nodes)
          if (a != b) messages.emplace_back(a, b);
      got.clear();
      for (const LoadedLink& l : routed_link_loads(t, messages)) got.emplace_back(l.link, l.load);
      expect_same_loads(expected, got, m.name + " routed messages");
    }
  }
}

TEST(GraphRoutingProperty, TaskGraphBytesEqualPerEdgeRouting) {
  std::mt19937 rng(11);
  for (const Machine& m : machines()) {
    const Topology& t = m.topology;
    LinkLoadScratch scratch;
    for (int trial = 0; trial < 8; ++trial) {
      // A random task graph of 2..12 tasks, each edge listed from both ends, random placement
      // (tasks may share a node).
      const int tasks = std::uniform_int_distribution<int>(2, 12)(rng);
      std::vector<std::vector<std::pair<int, double>>> adjacency(static_cast<std::size_t>(tasks));
      for (int u = 0; u < tasks; ++u)
        for (int v = u + 1; v < tasks; ++v)
          if (rng() % 3 == 0) {
            const double bytes = 1 + static_cast<double>(rng() % 1000);
            adjacency[static_cast<std::size_t>(u)].emplace_back(v, bytes);
            adjacency[static_cast<std::size_t>(v)].emplace_back(u, bytes);
          }
      std::vector<std::int64_t> offsets{0};
      std::vector<std::int32_t> targets;
      std::vector<double> bytes;
      for (const auto& edges : adjacency) {
        for (const auto& [v, b] : edges) {
          targets.push_back(v);
          bytes.push_back(b);
        }
        offsets.push_back(static_cast<std::int64_t>(targets.size()));
      }
      std::vector<NodeId> placement(static_cast<std::size_t>(tasks));
      for (NodeId& node : placement)
        node = std::uniform_int_distribution<NodeId>(0, t.node_count() - 1)(rng);
      const CommGraphView view{offsets, targets, bytes, 0};
      LoadMap expected;
      for (int u = 0; u < tasks; ++u)
        for (const auto& [v, b] : adjacency[static_cast<std::size_t>(u)])
          add_flow(t, placement[static_cast<std::size_t>(u)],
                   placement[static_cast<std::size_t>(v)], b / 2, expected);
      expect_same_loads(expected, route_task_graph(t, view, placement, scratch),
                        m.name + " task graph");
    }
  }
}
