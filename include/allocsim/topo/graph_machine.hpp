#pragma once
// Machines as graphs (issue 26): compute nodes and routers/switches are vertices, directed links
// have a capacity (relative bandwidth), and a routing function gives each ordered pair of nodes
// one path or several with weights (multipath). Dragonflies, fat trees, Slurm topology files and
// grids with several nodes per router implement it; Topology wraps one as its `graph` kind, so
// callers see one interface (topology.hpp). The shape follows SimGrid's network zones and SST
// merlin's topologies (see ../shared/DESIGN.md, "Machines as graphs"): the flow model only ever
// sees link lists and capacities, never the kind.
//
// Vertex ids: compute nodes 0 .. node_count() − 1, then routers/switches node_count() ..
// vertex_count() − 1. Link ids: 0 .. links().size() − 1, the order chosen by the builder (each
// kind documents it). Every node has exactly one injection link to its router and one ejection
// link from it, and every path from a to b starts with a's injection link and ends with b's
// ejection link; the links in between depend only on (router_of(a), b). all_to_all_link_loads
// relies on that to route once per (source router, destination) instead of once per pair.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "allocsim/util/function_ref.hpp"

namespace allocsim {

using NodeId = std::int32_t;
using LinkId = std::int32_t;
/// A vertex of a graph machine: a compute node (< node_count()) or a router/switch.
using VertexId = std::int32_t;

/// What a link joins, for reports and per-class statistics (maximum global-link load, ...).
enum class LinkClass : std::uint8_t {
  injection,  ///< compute node -> its router
  ejection,   ///< router -> compute node
  local,      ///< router -> router in the same group (dragonfly), or between grid routers
  global,     ///< router -> router in another group (dragonfly)
  up,         ///< switch -> a switch one level up (fat tree, Slurm tree)
  down,       ///< switch -> a switch one level down
};
/// "injection", "ejection", "local", "global", "up", "down".
const char* link_class_name(LinkClass link_class);

/// One directed link of a graph machine.
struct GraphLink {
  VertexId from = 0;
  VertexId to = 0;
  double capacity = 1;  ///< relative bandwidth (1: the bandwidth comm shares are measured at)
  LinkClass link_class = LinkClass::local;
  bool operator==(const GraphLink&) const = default;
};

/// Receives one path of a route: its links in order from source to destination, and the share
/// of the pair's traffic that takes it (the shares of one pair's paths sum to 1). The span is
/// only valid during the call.
using PathVisitor = FunctionRef<void(std::span<const LinkId> path, double weight)>;

/// Current per-link loads (already divided by capacity) seen by adaptive routing (UGAL), indexed
/// by LinkId; empty when none are known (then adaptive routing routes minimally).
using LinkLoadView = std::span<const double>;

/// Per-link sums of loads, as GraphMachine::all_to_all_router_loads adds them: `per_link`
/// (indexed by LinkId, zero where nothing was added) and the links whose entry left zero, in
/// `touched`. A plain struct rather than a callback: it is called for every loaded link of
/// every job the flow model starts (the indirect call cost ~2 % of a fat-tree flow run).
struct LinkLoadSums {
  std::vector<double>& per_link;
  std::vector<LinkId>& touched;
  void operator()(LinkId link, double load) {
    double& sum = per_link[static_cast<std::size_t>(link)];
    if (sum == 0) touched.push_back(link);
    sum += load;
  }
};

/// An interconnect given as a graph with its routing. Immutable once built; shared by the
/// Topology values that wrap it (copies are cheap).
class GraphMachine {
 public:
  virtual ~GraphMachine() = default;

  /// Canonical spec text: Topology::parse(spec()) builds an equal machine.
  virtual std::string spec() const = 0;
  /// Registry name of the kind: "dragonfly", "fattree", "slurm-topology", ...
  virtual std::string kind_name() const = 0;

  int node_count() const { return node_count_; }
  int router_count() const { return static_cast<int>(router_names_.size()); }
  int vertex_count() const { return node_count_ + router_count(); }
  const std::vector<GraphLink>& links() const { return links_; }
  /// The router/switch node `node` attaches to (a vertex id ≥ node_count()).
  VertexId router_of(NodeId node) const { return router_of_[node]; }
  /// The group of `node` (dragonfly group, fat-tree pod, the parent of its leaf switch in a
  /// Slurm tree), 0 .. group_count() − 1; every node is in group 0 when the kind has none.
  int group_of(NodeId node) const { return group_of_[node]; }
  int group_count() const { return group_count_; }
  /// What a group is called in column descriptions: "group", "pod", "switch group", ...
  virtual std::string group_word() const { return "group"; }
  /// Name of a compute node in per-job output: `n<id>` unless the machine names its nodes
  /// (Slurm topology files).
  virtual std::string node_name(NodeId node) const;
  /// True when node_name gives the machine's own names (Slurm topology files), not `n<id>`:
  /// per-job output then lists the names too.
  virtual bool names_its_nodes() const { return false; }
  /// Name of a router vertex (≥ node_count()).
  const std::string& router_name(VertexId router) const {
    return router_names_[router - node_count_];
  }
  /// The compute nodes attached to `router`, in id order.
  std::span<const NodeId> nodes_of(VertexId router) const;
  /// The injection link of `node` (node -> its router) and its ejection link.
  LinkId injection_link(NodeId node) const { return injection_[node]; }
  LinkId ejection_link(NodeId node) const { return ejection_[node]; }
  /// The nodes of `router` and of the routers one router-to-router link away from it, sorted
  /// (Topology::for_each_neighbour on graphs).
  std::span<const NodeId> nodes_near(VertexId router) const;
  /// Links leaving vertex `vertex`, in link id order.
  std::span<const LinkId> out_links(VertexId vertex) const;

  /// Links on a minimal route from a to b (0 when a == b): injection + router hops + ejection.
  virtual int distance(NodeId a, NodeId b) const = 0;
  /// Router-to-router links on a minimal route (0 for two nodes on one router).
  int router_hops(NodeId a, NodeId b) const { return a == b ? 0 : distance(a, b) - 2; }

  /// The routing function: calls visit(path, weight) for every path from node a to node b
  /// (nothing when a == b), each path a list of links starting at a and ending at b. `loads`
  /// informs adaptive routing only (adaptive() true); oblivious kinds ignore it. Must not
  /// allocate per call in the kinds used by the flow model (a virtual call per route is fine).
  virtual void for_each_path(NodeId a, NodeId b, PathVisitor visit,
                             LinkLoadView loads = {}) const = 0;
  /// True when routes depend on the loads passed to for_each_path (UGAL).
  virtual bool adaptive() const { return false; }
  /// Routes many pairs against one fixed view of loads (one job's all-to-all): a kind may share
  /// work between the pairs (UGAL on a dragonfly: dragonfly_ugal_batch.cpp). The view's contents
  /// must not change while the batch is used.
  class PathBatch {
   public:
    virtual ~PathBatch() = default;
    /// Exactly the paths, weights and order of for_each_path(a, b, visit, loads).
    virtual void for_each_path(NodeId a, NodeId b, PathVisitor visit) = 0;
  };
  /// A batch for `loads` (kept by reference); the default calls for_each_path pair by pair.
  virtual std::unique_ptr<PathBatch> path_batch(LinkLoadView loads) const;
  /// True when the links between a's injection and b's ejection depend only on (router_of(a),
  /// router_of(b)) (dragonfly, ECMP fat tree, Slurm trees; not D-mod-k, which routes by the
  /// destination node): all-to-all loads are then routed once per pair of routers.
  virtual bool routes_by_router_pair() const { return false; }
  /// Where a kind can add up an all-to-all exchange's loads faster than route by route: calls
  /// touch(link, messages) so that each router-to-router link gets, in all, the messages that
  /// cross it when every node of `nodes` sends one to every other (a node listed twice sends
  /// and receives twice; a link may come several times; each sum is of whole messages, exact
  /// in any order), and returns true;
  /// false (the default), touching nothing, where the kind has no such way.
  virtual bool all_to_all_router_loads(std::span<const NodeId> nodes, LinkLoadSums& touch) const {
    (void)nodes;
    (void)touch;
    return false;
  }
  /// How routing works on this machine, one sentence, for `allocsim list` and reports.
  virtual std::string routing_description() const = 0;

 protected:
  /// Builders fill node_count_, group_count_, router_names_ (one per router, in vertex order),
  /// router_of_, group_of_ and links_, then call finish(), which checks them (throws
  /// std::logic_error on a builder bug: a node without exactly one injection and one ejection
  /// link, a link to an unknown vertex) and builds the indexes below.
  void finish();
  int node_count_ = 0;
  int group_count_ = 1;
  std::vector<std::string> router_names_;
  std::vector<VertexId> router_of_;
  std::vector<int> group_of_;
  std::vector<GraphLink> links_;

 private:
  std::vector<LinkId> injection_, ejection_;
  std::vector<int> out_offsets_;  ///< CSR over vertices: out_links_[offsets[v] ..]
  std::vector<LinkId> out_links_;
  std::vector<int> router_node_offsets_;  ///< CSR over routers: router_nodes_[...]
  std::vector<NodeId> router_nodes_;
  std::vector<int> near_offsets_;  ///< CSR over routers: near_nodes_[...]
  std::vector<NodeId> near_nodes_;
};

}  // namespace allocsim
