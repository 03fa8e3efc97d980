#pragma once
// Dragonfly machines (Kim, Dally, Scott, Abts, "Technology-Driven, Highly-Scalable Dragonfly
// Topology", ISCA 2008); spec `dragonfly:p=..,a=..,h=..` (parameters: topology_registry.cpp).
//
// Kim et al., abstract: "we introduce the dragonfly topology which uses a group of high-radix
// routers as a virtual router to increase the effective radix of the network". The topology
// (paraphrased; the paper's full text was not at hand to quote): each router has p
// terminal channels, a − 1 local channels to the other routers of its group and h global
// channels to routers of other groups; a group acts as one virtual router of a·h global
// channels, so at most g = a·h + 1 groups can be joined by one global link per pair. Here g may
// be smaller (2 ≤ g ≤ a·h + 1): then pairs of groups are joined by several global links
// (dragonfly.cpp, "Arrangements").
//
// Numbering (what later allocators, e.g. SST's dfly-* family or Level-Spread, may rely on):
//   group G in 0 .. g−1, router index i in 0 .. a−1 within its group, slot s in 0 .. p−1;
//   node id       = s + p·(i + a·G)            (nodes of a router, routers of a group contiguous)
//   router vertex = node_count() + a·G + i
//   global port   k in 0 .. a·h−1 of a group: router ⌊k / h⌋ owns ports i·h .. i·h + h − 1
//                 (as SST's DragonflyMachine numbers them in its relative and circulant
//                 arrangements: router i's o-th global link is the group's link i·h + o).
// Link ids: node n's injection link 2n, its ejection link 2n + 1; then the local links, group by
// group, router i to router j ≠ i at 2·N + (a·G + i)·(a − 1) + (j < i ? j : j − 1); then the
// global links in (group, port) order, ports left unused skipped (global_link()).
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/util/spec.hpp"

namespace allocsim {

/// How a dragonfly's global links join groups (Hastings et al., Cluster 2015; Kaplan et al.,
/// CCGrid 2017; SST's DragonflyMachine): the formulas are in dragonfly.cpp.
enum class DragonflyArrangement { absolute, relative, circulant };
/// "absolute", "relative", "circulant".
const char* arrangement_name(DragonflyArrangement arrangement);

/// Routing on a dragonfly (rules in dragonfly_routing.cpp and routing_description()).
enum class DragonflyRouting { minimal, valiant, ugal };
/// "minimal", "valiant", "ugal".
const char* routing_name(DragonflyRouting routing);

/// The parameters of a dragonfly, as the registry entry gives them.
struct DragonflyShape {
  int p = 1;  ///< compute nodes per router
  int a = 1;  ///< routers per group, joined all-to-all by local links
  int h = 1;  ///< global links per router
  int g = 0;  ///< groups, 2 .. a·h + 1; 0 means a·h + 1 (one global link per pair of groups)
  DragonflyArrangement arrangement = DragonflyArrangement::absolute;
  DragonflyRouting routing = DragonflyRouting::minimal;
  double local_bw = 1;   ///< capacity of a local link
  double global_bw = 1;  ///< capacity of a global link (injection and ejection links: 1)
};

/// A dragonfly as a graph machine (see the file comment for its numbering).
class Dragonfly final : public GraphMachine {
 public:
  /// Builds the machine; throws InputError (naming the field) when g is outside
  /// [2, a·h + 1] or, without `allow_large`, the machine has more than
  /// kMaxNodesWithoutOverride nodes (checked before anything is allocated).
  Dragonfly(const DragonflyShape& shape, bool allow_large);

  std::string spec() const override;
  std::string kind_name() const override { return "dragonfly"; }
  /// Links on the shortest minimal route: 0 to itself, 2 on one router, 3 in one group, 3 .. 5
  /// across groups (the fewest over the global links joining the two groups). Valiant and UGAL
  /// routes, and the even split over several global links, can be longer.
  int distance(NodeId a, NodeId b) const override;
  /// Minimal, Valiant or UGAL paths with their weights (rules: dragonfly_routing.cpp); at most
  /// 5 router-to-router links, built on the stack.
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView loads) const override;
  bool adaptive() const override { return shape_.routing == DragonflyRouting::ugal; }
  /// UGAL: shares the Valiant paths' middle hops between the pairs of two groups (the same
  /// paths and weights, bit for bit, as for_each_path; dragonfly_ugal_batch.cpp).
  std::unique_ptr<PathBatch> path_batch(LinkLoadView loads) const override;
  std::string routing_description() const override;
  /// Every route ends at the destination's router, then its ejection link.
  bool routes_by_router_pair() const override { return true; }
  /// Minimal routing: by group pairs (dragonfly_routing.cpp); Valiant and UGAL: false.
  bool all_to_all_router_loads(std::span<const NodeId> nodes, LinkLoadSums& touch) const override;

  // --- Structure --------------------------------------------------------------------------
  const DragonflyShape& shape() const { return shape_; }  ///< g filled in (never 0)
  int nodes_per_router() const { return shape_.p; }
  int routers_per_group() const { return shape_.a; }
  int global_links_per_router() const { return shape_.h; }
  /// Global ports per group: a·h.
  int ports_per_group() const { return shape_.a * shape_.h; }
  /// The group of router vertex `router`.
  int router_group(VertexId router) const { return (router - node_count_) / shape_.a; }
  /// The index of router vertex `router` within its group (0 .. a − 1).
  int router_index(VertexId router) const { return (router - node_count_) % shape_.a; }
  /// The index within its group of the router `node` attaches to.
  int router_index_of(NodeId node) const { return (node / shape_.p) % shape_.a; }
  /// The vertex of router `index` of group `group`.
  VertexId router_vertex(int group, int index) const {
    return node_count_ + shape_.a * group + index;
  }
  /// Node `slot` of router `index` of group `group`.
  NodeId node_at(int group, int index, int slot) const {
    return slot + shape_.p * (index + shape_.a * group);
  }
  /// The local link from router `from` to router `to` (indexes within `group`, different).
  LinkId local_link(int group, int from, int to) const {
    return 2 * node_count_ + (shape_.a * group + from) * (shape_.a - 1) + (to < from ? to : to - 1);
  }
  /// The global link leaving port `port` (0 .. a·h − 1) of `group`, −1 when the port is unused
  /// (possible only when g < a·h + 1; see dragonfly.cpp). Its reverse joins the same routers.
  LinkId global_link(int group, int port) const {
    return global_link_[static_cast<std::size_t>(group) * ports_per_group() + port];
  }
  /// The group that port `port` of `group` leads to under the arrangement (whether or not the
  /// port is used).
  int port_target(int group, int port) const {
    return logical_target(group, port % (shape_.g - 1));
  }
  /// Calls f(LinkId) for every global link from group `from` to group `to` ≠ from, in port
  /// order (at least one: every pair of groups is joined). Does not allocate.
  template <class F>
  void for_each_global_link(int from, int to, F&& f) const {
    const auto pair = static_cast<std::size_t>(from) * shape_.g + to;
    for (int k = between_begin_[pair]; k < between_begin_[pair + 1]; ++k)
      f(between_[static_cast<std::size_t>(k)]);
  }
  /// Calls f(LinkId, owner, lands) for every global link from group `from` to group `to` ≠
  /// from, in port order: owner the index in `from` of the router it leaves, lands the index in
  /// `to` of the router it reaches.
  template <class F>
  void for_each_global_hop(int from, int to, F&& f) const {
    const auto pair = static_cast<std::size_t>(from) * shape_.g + to;
    for (int k = between_begin_[pair]; k < between_begin_[pair + 1]; ++k) {
      const auto at = static_cast<std::size_t>(k);
      f(between_[at], between_ends_[at].first, between_ends_[at].second);
    }
  }
  /// Number of global links from group `from` to group `to` ≠ from (as many back).
  int global_link_count(int from, int to) const {
    const auto pair = static_cast<std::size_t>(from) * shape_.g + to;
    return between_begin_[pair + 1] - between_begin_[pair];
  }

  /// Logical index ℓ in 0 .. g − 2 of a port (its number modulo g − 1) and the group it leads
  /// to, by the arrangement's formula (dragonfly.cpp); logical_index is its inverse: the ℓ of
  /// group `from` leading to group `to` ≠ from.
  int logical_target(int group, int index) const;
  int logical_index(int from, int to) const;

 private:
  DragonflyShape shape_;
  /// Per (group, port): the global link leaving it, or −1 (see global_link()).
  std::vector<LinkId> global_link_;
  /// The global links from group f to group t in port order: between_[between_begin_[f·g + t]
  /// .. between_begin_[f·g + t + 1]) (none for f = t); built once, read by every route.
  std::vector<int> between_begin_;
  std::vector<LinkId> between_;
  std::vector<std::pair<int, int>> between_ends_;  ///< per entry of between_: owner, lands
};

/// Builds the dragonfly of the registry entry's validated parameters; throws InputError when
/// they do not make one (g outside [2, a·h + 1], more than kMaxNodesWithoutOverride nodes
/// without `allow_large`).
std::shared_ptr<const GraphMachine> make_dragonfly(const Params& params, bool allow_large);

}  // namespace allocsim
