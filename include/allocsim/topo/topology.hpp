#pragma once
// Machine interconnects, one value type for all: meshes and tori of any dimension (with
// per-dimension wrap, so a semitorus is a torus with some wraps missing), the flat complete
// graph, and graph machines (dragonfly, fat tree, Slurm topology files, grids with several nodes
// per router: topo/graph_machine.hpp), which this class wraps as its `graph` kind. The spellings
// (`mesh:16x16`, `dragonfly:p=2,a=4,h=2`, ...) are a registry table (topology_registry.hpp).
//
// Callers ask capabilities rather than test the kind: has_coordinates() (grids: coordinates,
// boxes, dimension-ordered routes, used by the grid-only algorithms, which refuse machines
// without them: require_grid), fully_connected() (flat), graph() (routers, groups, multipath
// routing). Every kind answers distance(), node_count(), the links and route_weighted(), the
// one routing function: grids keep their arithmetic fast paths behind it.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/topo/graph_machine.hpp"

namespace allocsim {

// NodeId and LinkId: topo/graph_machine.hpp. On grids and flat, a LinkId is a directed link
// slot: every node owns 2·dims() outgoing slots, one per (dimension, direction):
// `LinkId = node * 2·dims() + 2·dim + (direction > 0)`. Ids are stable: they depend only on the
// topology's sides, not on which slots are real links (Topology::is_link). On a graph machine
// LinkIds are its links' indexes (every slot a real link).

/// A machine. On grids node ids number the first dimension fastest:
/// id = x + W*y + W*H*z + ... (as Scotch and most allocation simulators do).
class Topology {
 public:
  enum class Kind { mesh, torus, flat, graph };

  /// One directed link: from `from` to `to` along dimension `dim`, `direction` +1 or -1.
  /// On a flat machine one endpoint is the crossbar (kCrossbar).
  struct Link {
    NodeId from = 0;
    NodeId to = 0;
    int dim = 0;
    int direction = 0;
  };
  /// Stands for the crossbar switch of a flat machine in Link::from / Link::to.
  static constexpr NodeId kCrossbar = -1;

  /// Parses a machine spec through the topology table: `mesh:16x16`, `mesh:8x8x5`,
  /// `torus:4x4x4`, `torus:4x4:wrap=10`, `semitorus:4x4x2:wrap=110`, `flat:256`.
  /// Throws InputError naming the spec and showing the accepted forms. Accepts every spec()
  /// output: `parse(t.spec()) == t`.
  static Topology parse(std::string_view spec);
  /// A box with explicit per-dimension wrap flags (kind is torus if any wrap is set).
  /// Throws InputError when a side is not positive or the link slots overflow an int.
  Topology(std::vector<int> sides, std::vector<bool> wrap);
  /// The complete graph on `nodes` nodes.
  static Topology flat(int nodes);
  /// A graph machine (dragonfly, fat tree, ...); its spec() is the topology's.
  static Topology graph(std::shared_ptr<const GraphMachine> machine);

  /// Same kind, sides and wrap flags (graphs: the same spec).
  bool operator==(const Topology& other) const;

  Kind kind() const { return kind_; }
  /// Capability: nodes are the points of a box with per-axis coordinates, links join nodes one
  /// step apart on one axis (wrap-aware), and distance() is the sum of axis_distance() over the
  /// axes (mesh, torus, semitorus). False on flat, where coordinates are just the node index,
  /// and on graphs, where dims() is 1 and the coordinate accessors must not be used.
  bool has_coordinates() const { return kind_ == Kind::mesh || kind_ == Kind::torus; }
  /// Capability: routers, groups, capacities and multipath routing (graph kind), else null.
  const GraphMachine* graph() const { return graph_.get(); }
  /// Throws InputError "WHO works on grids (mesh, torus, semitorus) only; machine 'SPEC' is a
  /// KIND" unless has_coordinates(); `who` names the allocator, metric or model, e.g.
  /// "allocator 'mc'". Every grid-only consumer calls it before using coordinates.
  void require_grid(const std::string& who) const;
  /// Name of the kind for messages: "mesh", "torus", "flat" or the graph's ("dragonfly", ...).
  std::string kind_name() const;
  /// Capability: every pair of distinct nodes is one hop apart (flat).
  bool fully_connected() const { return kind_ == Kind::flat; }
  int dims() const { return static_cast<int>(sides_.size()); }
  const std::vector<int>& sides() const { return sides_; }
  int side(int axis) const { return sides_[axis]; }
  bool wraps(int axis) const { return wrap_[axis]; }
  int node_count() const { return nodes_; }
  /// Canonical spec text, e.g. `torus:4x4x4`; a semitorus is `torus:4x4:wrap=10`.
  std::string spec() const;

  /// Node-id step between neighbours along `axis` (the product of the lower axes' sides).
  int stride(int axis) const { return strides_[axis]; }
  /// Coordinate of `node` along `axis` (meaningful when has_coordinates()).
  int coord(NodeId node, int axis) const { return (node / strides_[axis]) % sides_[axis]; }
  void coords(NodeId node, std::span<int> out) const;
  std::vector<int> coords(NodeId node) const;
  NodeId id(std::span<const int> coords) const;

  /// Hop distance along one axis between coordinates a and b (wrap-aware).
  int axis_distance(int axis, int a, int b) const {
    const int d = a > b ? a - b : b - a;
    return wrap_[axis] && sides_[axis] - d < d ? sides_[axis] - d : d;
  }
  /// Hop distance: L1 on a mesh, wrap-aware per dimension on a torus, 1 on flat (0 to itself).
  /// On a grid this is the number of links route() visits.
  int distance(NodeId a, NodeId b) const;
  /// Direct neighbours of `node` (every other node on flat; on a graph the other nodes of its
  /// router and the nodes of the routers one link away).
  std::vector<NodeId> neighbours(NodeId node) const;
  /// Calls f(neighbour) for every neighbour without allocating, each neighbour once (on a
  /// wrapped side of 2 the wrap link leads to the same neighbour and is not repeated). On flat
  /// that is every other node: O(node_count()).
  template <class F>
  void for_each_neighbour(NodeId node, F&& f) const {
    if (kind_ == Kind::flat) {
      for (NodeId other = 0; other < nodes_; ++other)
        if (other != node) f(other);
      return;
    }
    if (kind_ == Kind::graph) {
      for (NodeId other : graph_->nodes_near(graph_->router_of(node)))
        if (other != node) f(other);
      return;
    }
    for (int axis = 0; axis < dims(); ++axis) {
      const int c = coord(node, axis), n = sides_[axis], stride = strides_[axis];
      if (n == 1) continue;
      if (c + 1 < n)
        f(node + stride);
      else if (wrap_[axis] && n > 2)
        f(node - (n - 1) * stride);
      if (c > 0)
        f(node - stride);
      else if (wrap_[axis] && n > 2)
        f(node + (n - 1) * stride);  // n == 2: links coincide
    }
  }

  // --- Links and dimension-ordered routing -------------------------------------------------
  //
  // Grids: slot (node, dim, +1) leads to the next node along `dim`, (node, dim, -1) to the
  // previous one. A slot is a real link unless the side is 1, or the machine does not wrap on
  // `dim` and the node sits on that border. On a wrapped side of 2 both slots of a node are
  // real and lead to the same neighbour (two parallel links); routes use only the + one.
  //
  // Flat: a crossbar. Each node has one link into the crossbar, slot (node, 0, +1)
  // ("injection"), and one out of it, slot (node, 0, -1) ("ejection"). A route from a to b != a
  // visits a's injection link, then b's ejection link: two links for distance 1, so link loads
  // model port contention at both ends.

  /// Outgoing slots per node: 2·dims() (grids and flat only).
  int link_slots_per_node() const { return 2 * dims(); }
  /// Number of link slots (real or not); LinkIds are 0 .. link_slot_count() - 1.
  int link_slot_count() const {
    return graph_ ? static_cast<int>(graph_->links().size()) : nodes_ * link_slots_per_node();
  }
  /// Relative bandwidth of a real link: 1 on grids and flat, the graph's own capacities else.
  double link_capacity(LinkId link) const { return graph_ ? graph_->links()[link].capacity : 1; }
  /// The slot of `node`'s link along `dim` in `direction` (+1 or -1).
  LinkId link_id(NodeId node, int dim, int direction) const {
    return node * link_slots_per_node() + 2 * dim + (direction > 0 ? 1 : 0);
  }
  /// Whether slot `link` is a real link (mesh borders and sides of 1 have none).
  bool is_link(LinkId link) const;
  /// Number of real links.
  std::int64_t link_count() const;
  /// Endpoints, dimension and direction of slot `link`; `to` is only meaningful if is_link().
  /// On a graph: its endpoint vertices (routers ≥ node_count()), dim −1 and direction 0.
  Link link(LinkId link) const;

  /// The routing function of every kind: calls visit(LinkId, weight) for every link of every
  /// path from a to b, weight the share of the pair's traffic on that path (1 on grids and flat,
  /// whose routes are route() below; a link on several paths is visited once per path). The sum
  /// of the weights is the mean route length: distance(a, b) on grids. `loads` informs adaptive
  /// graph routing (UGAL) only. This is how every consumer puts bytes on links (link_loads.hpp).
  template <class Visitor>
  void route_weighted(NodeId a, NodeId b, Visitor&& visit, LinkLoadView loads = {}) const {
    if (graph_) {
      graph_->for_each_path(
          a, b,
          [&](std::span<const LinkId> path, double weight) {
            for (const LinkId link : path) visit(link, weight);
          },
          loads);
      return;
    }
    route(a, b, [&](LinkId link) { visit(link, 1.0); });
  }

  /// Dimension-ordered routing from a to b: calls visit(LinkId) once per link, in path order.
  /// Grids: dimension 0 first, then 1, ...; along a wrapped dimension the shorter way round,
  /// and at distance exactly side/2 (a tie) the + direction; along an open dimension the only
  /// way. Visits exactly distance(a, b) links, each starting where the previous one ended.
  /// Flat: see above (two links). Nothing is visited when a == b. Grids and flat only (single
  /// path): on a graph machine use route_weighted.
  template <class Visitor>
  void route(NodeId a, NodeId b, Visitor&& visit) const {
    if (a == b) return;
    if (graph_) throw_single_path_route();
    const int slots = link_slots_per_node();
    if (kind_ == Kind::flat) {
      visit(static_cast<LinkId>(a * slots + 1));
      visit(static_cast<LinkId>(b * slots));
      return;
    }
    NodeId at = a;
    for (int axis = 0; axis < dims(); ++axis) {
      const int n = sides_[axis], stride = strides_[axis];
      int c = coord(at, axis);
      const int target = coord(b, axis);
      if (c == target) continue;
      bool plus = target > c;
      int steps = plus ? target - c : c - target;
      if (wrap_[axis]) {
        const int ahead = plus ? steps : n - steps;  // hops going + (around the wrap if needed)
        plus = ahead <= n - ahead;                   // tie (ahead == n/2): + direction
        steps = plus ? ahead : n - ahead;
      }
      const LinkId base = static_cast<LinkId>(2 * axis + (plus ? 1 : 0));
      for (; steps > 0; --steps) {
        visit(static_cast<LinkId>(at * slots + base));
        if (plus) {
          if (c + 1 < n)
            at += stride, ++c;
          else
            at -= (n - 1) * stride, c = 0;
        } else {
          if (c > 0)
            at -= stride, --c;
          else
            at += (n - 1) * stride, c = n - 1;
        }
      }
    }
  }

 private:
  Topology() = default;
  void finish();
  [[noreturn]] void throw_single_path_route() const;

  Kind kind_ = Kind::mesh;
  std::vector<int> sides_;
  std::vector<bool> wrap_;
  std::vector<int> strides_;
  int nodes_ = 0;
  std::shared_ptr<const GraphMachine> graph_;
};

}  // namespace allocsim
