#pragma once
// Grids with several compute nodes per router (issue 26, item 5; `torus:8x8:per_router=2`,
// `mesh:4x4:per_router=4`, `torus:4x4:wrap=10,per_router=2`): the routers form the grid (a mesh,
// torus or semitorus Topology), each with per_router nodes attached, as on the Cplant machine of
// Leung et al. (four processors per switch), Blue Gene or TPU-style machines.
//
// Numbering. Node id = slot + per_router × router id (the first-axis convention of
// topo/switches.hpp), the router id numbering the grid as Topology does; router r is vertex
// node_count() + r. Links: per node i its injection link 2i and its ejection link 2i + 1; then
// one link per real link of the router grid, in the grid's LinkId order (LinkClass local,
// capacity 1; a wrapped side of 2 keeps its two parallel links). Routing: injection, the grid's
// dimension-ordered route between the two routers (Topology::route), ejection; one path.
#include <memory>
#include <vector>

#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/topo/topology.hpp"

namespace allocsim {

/// A mesh/torus of routers with per_router nodes on each (see the file comment).
class GridRouters final : public GraphMachine {
 public:
  /// Throws InputError when `routers` is not a grid, per_router < 1, or the machine has more
  /// than kMaxNodesWithoutOverride nodes without allow_large.
  GridRouters(Topology routers, int per_router, bool allow_large);

  std::string spec() const override;
  /// "torus with 2 nodes per router" (messages: "machine '..' is a torus with 2 nodes per
  /// router").
  std::string kind_name() const override;
  int distance(NodeId a, NodeId b) const override;
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView loads) const override;
  std::string routing_description() const override;
  /// The routers' dimension-ordered route, then the ejection link.
  bool routes_by_router_pair() const override { return true; }

  /// The router grid, with coordinates (grid algorithms can work on routers).
  const Topology& routers() const { return routers_; }
  int per_router() const { return per_router_; }
  /// Grid id of the router of `node` (node / per_router) and the node's slot on it.
  NodeId grid_router_of(NodeId node) const { return node / per_router_; }
  int slot_of(NodeId node) const { return node % per_router_; }
  /// Link id of grid link slot `grid_link` (−1 when the slot is not a real link).
  LinkId link_of_grid_link(LinkId grid_link) const { return grid_link_[grid_link]; }

 private:
  Topology routers_;
  int per_router_;
  std::vector<LinkId> grid_link_;  ///< grid LinkId -> this machine's LinkId (−1: no link)
  int longest_path_ = 0;           ///< most links on a route (sizes the path buffer)
};

/// The graph machine of `routers` (a mesh or torus) with `per_router` nodes on each router.
std::shared_ptr<const GraphMachine> make_grid_routers(const Topology& routers, int per_router,
                                                      bool allow_large);

}  // namespace allocsim
