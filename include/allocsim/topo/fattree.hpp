#pragma once
// Fat trees as graph machines (issue 26, item 3): the k-ary three-level fat tree of Al-Fares,
// Loukissas and Vahdat (SIGCOMM 2008), spec `fattree:k=K`, and the extended generalized fat tree
// XGFT(h; M1..Mh; W1..Wh) of Öhring, Ibel, Das and Kumar (IPPS 1995), spec
// `fattree:down=M1x..xMh,up=W1x..xWh`, of which the k-ary tree is XGFT(3; k/2, k/2, k; 1, k/2,
// k/2). Parameters: topology_registry.cpp.
//
// XGFT, as Öhring et al. define it: level 0 holds the ΠMi hosts; a level-i vertex has Mi
// children (level i − 1) and W(i+1) parents (level i + 1). A level-i vertex is labelled
// (a_h, .., a_(i+1), b_i, .., b_1), a_j ∈ [0, Mj), b_j ∈ [0, Wj); its parents are the level-(i+1)
// vertices (a_h, .., a_(i+2), c, b_i, .., b_1), c ∈ [0, W(i+1)): the digit a_(i+1) replaced by
// the parent choice c. Hosts attach to exactly one leaf switch here (W1 = 1: a graph machine has
// one injection link per node).
//
// Numbering. Host d = a_1 + M1·(a_2 + M2·(a_3 + ..)). A level-i switch's index within its level
// reads its label as a mixed-radix number with b_1 least significant (radices W1..Wi, then
// M(i+1)..Mh); vertex id = host count + switches of the levels below + index. Links: per host d
// its injection link 2d and its ejection link 2d + 1; then per level i = 1 .. h − 1, per level-i
// switch x (index order), per parent choice c: the up link x -> parent c and the down link parent
// c -> x, ids up_link(i, x, c) and up_link(i, x, c) + 1. Every link has capacity 1.
//
// Example, fattree:k=4 = XGFT(3; 2, 2, 4; 1, 2, 2): hosts 2·2·4 = 16 (k³/4); level 1 (edge):
// W1·M2·M3 = 1·2·4 = 8 switches; level 2 (aggregation): W1·W2·M3 = 1·2·4 = 8; level 3 (core):
// W1·W2·W3 = 1·2·2 = 4; switches 8 + 8 + 4 = 20 (5k²/4).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/util/spec.hpp"

namespace allocsim {

/// An XGFT fat tree with D-mod-k or ECMP routing (see the file comment).
class FatTree final : public GraphMachine {
 public:
  /// Most switch levels a fat tree may have (paths live in fixed-size arrays).
  static constexpr int kMaxLevels = 8;
  enum class Routing { dmodk, ecmp };

  /// XGFT(h; down; up), h = down.size() = up.size(); `k` > 0 marks the k-ary form (spec and
  /// switch names). Throws InputError naming the field when the shape is not a fat tree.
  FatTree(std::vector<int> down, std::vector<int> up, Routing routing, int k, bool allow_large);

  std::string spec() const override;
  std::string kind_name() const override { return "fattree"; }
  std::string group_word() const override { return "pod"; }
  int distance(NodeId a, NodeId b) const override;
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView loads) const override;
  std::string routing_description() const override;
  /// ECMP splits over the up-down paths between the two leaves; D-mod-k picks by the host.
  bool routes_by_router_pair() const override { return routing_ == Routing::ecmp; }
  /// D-mod-k: per destination, the sources' counts climb its routing tree level by level,
  /// merging where their routes meet (see fattree.cpp); ECMP: false.
  bool all_to_all_router_loads(std::span<const NodeId> nodes, LinkLoadSums& touch) const override;

  /// Switch levels h (level 1: the leaves; level h: the top).
  int levels() const { return static_cast<int>(down_.size()); }
  /// Mi: children of a level-i switch (1 ≤ i ≤ h).
  int down(int level) const { return down_[level - 1]; }
  /// Wi: parents of a level-(i − 1) vertex (1 ≤ i ≤ h; W1 = 1).
  int up(int level) const { return up_[level - 1]; }
  /// Switches on `level` (1 .. h).
  int level_size(int level) const { return level_offset_[level] - level_offset_[level - 1]; }
  /// Vertex id of the `index`-th switch of `level`.
  VertexId switch_vertex(int level, int index) const {
    return node_count_ + level_offset_[level - 1] + index;
  }
  /// Level of vertex v: 0 for a host, 1 .. h for a switch.
  int level_of(VertexId v) const;
  /// Index of switch `v` within its level.
  int index_in_level(VertexId v) const { return v - node_count_ - level_offset_[level_of(v) - 1]; }
  /// The leaf switch of host `host` (router_of).
  VertexId leaf_of(NodeId host) const { return router_of(host); }
  /// The pod of `host` (group_of): the hosts under one level-(h − 1) switch, i.e. sharing a_h;
  /// with two levels a leaf switch, with one level the whole machine.
  int pod_of(NodeId host) const { return group_of(host); }
  /// Parents and children of switch `v` (below the top level, resp. above the leaves: hosts
  /// are children of a leaf, given by nodes_of).
  int parent_count(VertexId v) const {
    const int level = level_of(v);
    return level < levels() ? up(level + 1) : 0;
  }
  VertexId parent(VertexId v, int choice) const;
  int child_count(VertexId v) const { return down(level_of(v)); }
  VertexId child(VertexId v, int choice) const;
  /// Link from level-`level` switch `index` up to its parent `choice`; the down link back is
  /// this id + 1.
  LinkId up_link(int level, int index, int choice) const {
    return up_link_base_[level] + 2 * (index * up_[level] + choice);
  }
  /// Lowest level at which a and b have a common ancestor (1: one leaf; 0 when a == b).
  int common_level(NodeId a, NodeId b) const;
  /// D-mod-k: the parent choice at level `level` (1 .. h − 1) of a route to host `d`.
  int dmodk_choice(int level, NodeId d) const {
    return static_cast<int>((d / up_product_[level]) % up_[level]);
  }
  Routing routing() const { return routing_; }

 private:
  using Path = std::array<LinkId, 2 * kMaxLevels>;
  /// Enumerates the up-down paths from level `level` on: x is the source-side switch (index on
  /// `level`), z the destination-side one with the same b digits, which the path leaves and
  /// enters through the same parent choice; at level `top` they meet and the path is visited.
  /// A recursion of depth ≤ kMaxLevels on one stack array: no allocation per route.
  void walk(int level, int top, int x, int z, NodeId b, double weight, Path& path,
            PathVisitor visit) const;
  /// Parent index at level + 1 of level-`level` index x through `choice`.
  int parent_index(int level, int x, int choice) const;
  /// Child index at level − 1 of level-`level` index y whose digit a_level is `a`.
  int child_index(int level, int y, int a) const;

  std::vector<int> down_, up_;  ///< M1..Mh, W1..Wh
  Routing routing_;
  int k_;
  std::vector<int> level_offset_;        ///< [i]: switches on levels 1..i (level_offset_[0] = 0)
  std::vector<LinkId> up_link_base_;     ///< [i]: first up link of level i (1 .. h − 1)
  std::vector<long long> down_product_;  ///< [i]: M1·..·Mi (hosts under a level-i switch)
  std::vector<long long> up_product_;    ///< [i]: W1·..·Wi
};

/// Builds the fat tree of the registry entry's validated parameters (k, down, up, routing);
/// throws InputError when they do not make one: neither or both of k and down/up, k odd,
/// levels of different counts, a non-positive arity, W1 ≠ 1, more than kMaxLevels levels, more
/// than kMaxNodesWithoutOverride hosts without allow_large.
std::shared_ptr<const GraphMachine> make_fattree(const Params& params, bool allow_large);

}  // namespace allocsim
