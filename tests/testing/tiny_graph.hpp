#pragma once
// A hand-made graph machine for tests of graph consumers, independent of the dragonfly and fat
// tree builders: two leaf switches under two root switches.
//
//        root0 (6)     root1 (7)        links leaf->root are `up`, root->leaf `down`
//          |    x    |            (each leaf has an up link to both roots)
//        leaf0 (4)   leaf1 (5)         capacity of every link 1, up/down links `up_capacity`
//        /  |        |  |
//       n0   n1    n2   n3            injection/ejection links per node
//
// Routing: nodes on one leaf: injection, ejection (2 links). Across leaves: injection, up to
// root0 with weight `root0_share` and to root1 with 1 − root0_share, down, ejection (4 links).
// Link ids: per node i: injection 2i, ejection 2i+1 (0..7); then per leaf l (0, 1), per root r
// (0, 1): up 8 + 4l + 2r, down 9 + 4l + 2r.
#include <array>
#include <memory>
#include <string>

#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/topo/topology.hpp"

namespace allocsim::testing {

/// Not final: tests derive variants with other routing (an adaptive tree).
class TinyTree : public GraphMachine {
 public:
  explicit TinyTree(double root0_share = 0.5, double up_capacity = 1) : root0_share_(root0_share) {
    node_count_ = 4;
    group_count_ = 2;
    router_names_ = {"leaf0", "leaf1", "root0", "root1"};
    router_of_ = {4, 4, 5, 5};
    group_of_ = {0, 0, 1, 1};
    for (NodeId node = 0; node < 4; ++node) {
      links_.push_back({node, router_of_[node], 1, LinkClass::injection});
      links_.push_back({router_of_[node], node, 1, LinkClass::ejection});
    }
    for (VertexId leaf : {4, 5})
      for (VertexId root : {6, 7}) {
        links_.push_back({leaf, root, up_capacity, LinkClass::up});
        links_.push_back({root, leaf, up_capacity, LinkClass::down});
      }
    finish();
  }
  std::string spec() const override { return "tinytree"; }
  std::string kind_name() const override { return "tinytree"; }
  int distance(NodeId a, NodeId b) const override {
    return a == b ? 0 : group_of(a) == group_of(b) ? 2 : 4;
  }
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView) const override {
    if (a == b) return;
    if (group_of(a) == group_of(b)) {
      const std::array<LinkId, 2> path{2 * a, 2 * b + 1};
      visit(path, 1.0);
      return;
    }
    const int la = group_of(a), lb = group_of(b);
    for (int root = 0; root < 2; ++root) {
      const double share = root == 0 ? root0_share_ : 1 - root0_share_;
      if (share <= 0) continue;
      const std::array<LinkId, 4> path{2 * a, 8 + 4 * la + 2 * root, 9 + 4 * lb + 2 * root,
                                       2 * b + 1};
      visit(path, share);
    }
  }
  std::string routing_description() const override { return "up to a root and down"; }
  bool routes_by_router_pair() const override { return true; }

 private:
  double root0_share_;
};

/// The tiny tree as a Topology.
inline Topology tiny_tree(double root0_share = 0.5, double up_capacity = 1) {
  return Topology::graph(std::make_shared<const TinyTree>(root0_share, up_capacity));
}

}  // namespace allocsim::testing
