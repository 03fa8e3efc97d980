// Grids with several nodes per router: construction and routing (numbering in
// topo/grid_routers.hpp).
#include "allocsim/topo/grid_routers.hpp"

#include <array>
#include <limits>

#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {
/// Routes of up to this many links are built on the stack; longer ones (grids whose diameter
/// exceeds it, far beyond the flow model's sizes) in a vector per call.
constexpr int kStackPath = 1024;
}  // namespace

GridRouters::GridRouters(Topology routers, int per_router, bool allow_large)
    : routers_(std::move(routers)), per_router_(per_router) {
  if (!routers_.has_coordinates())
    throw InputError("per_router: the routers must form a mesh, torus or semitorus, not '" +
                     routers_.spec() + "'");
  if (per_router_ < 1)
    throw InputError("per_router=" + std::to_string(per_router_) + " must be at least 1");
  const long long nodes = static_cast<long long>(routers_.node_count()) * per_router_;
  if (nodes > kMaxNodesWithoutOverride && !allow_large)
    throw InputError(std::to_string(nodes) + " nodes (" + std::to_string(per_router_) +
                     " per router); machines of more than " +
                     std::to_string(kMaxNodesWithoutOverride) +
                     " nodes need the parameter allow_large=1");
  const long long links = 2 * nodes + routers_.link_count();
  if (nodes + routers_.node_count() > std::numeric_limits<int>::max() ||
      links > std::numeric_limits<int>::max())
    throw InputError("per_router=" + std::to_string(per_router_) + " on " + routers_.spec() +
                     ": too many vertices or links (their count must fit an int)");

  node_count_ = static_cast<int>(nodes);
  router_names_.reserve(static_cast<std::size_t>(routers_.node_count()));
  for (NodeId r = 0; r < routers_.node_count(); ++r) {
    std::string name(1, 'r');  // (not "r" + ..: GCC 12's false -Wrestrict on that form)
    router_names_.push_back(name.append(std::to_string(r)));
  }
  router_of_.resize(node_count_);
  group_of_.assign(node_count_, 0);
  links_.reserve(static_cast<std::size_t>(links));
  for (NodeId node = 0; node < node_count_; ++node) {
    router_of_[node] = node_count_ + grid_router_of(node);
    links_.push_back({node, router_of_[node], 1, LinkClass::injection});
    links_.push_back({router_of_[node], node, 1, LinkClass::ejection});
  }
  grid_link_.assign(static_cast<std::size_t>(routers_.link_slot_count()), -1);
  for (LinkId slot = 0; slot < routers_.link_slot_count(); ++slot) {
    if (!routers_.is_link(slot)) continue;
    const Topology::Link link = routers_.link(slot);
    grid_link_[slot] = static_cast<LinkId>(links_.size());
    links_.push_back({node_count_ + link.from, node_count_ + link.to, 1, LinkClass::local});
  }
  // The grid's diameter: per axis side − 1, or ⌊side / 2⌋ when it wraps.
  longest_path_ = 2;
  for (int axis = 0; axis < routers_.dims(); ++axis)
    longest_path_ += routers_.wraps(axis) ? routers_.side(axis) / 2 : routers_.side(axis) - 1;
  finish();
}

std::string GridRouters::spec() const {
  // The grid's own spec with per_router added to its parameters (and allow_large when the nodes,
  // not the routers, pass the limit).
  std::string text = routers_.spec();
  text += text.find(':', text.find(':') + 1) == std::string::npos ? ":" : ",";
  text += "per_router=" + std::to_string(per_router_);
  if (node_count_ > kMaxNodesWithoutOverride && routers_.node_count() <= kMaxNodesWithoutOverride)
    text += ",allow_large=1";
  return text;
}

std::string GridRouters::kind_name() const {
  return routers_.kind_name() + " with " + std::to_string(per_router_) + " nodes per router";
}

std::string GridRouters::routing_description() const {
  return "injection, the router grid's dimension-ordered route (dimension 0 first, the shorter "
         "way round on wrapped dimensions), ejection";
}

int GridRouters::distance(NodeId a, NodeId b) const {
  if (a == b) return 0;
  return 2 + routers_.distance(grid_router_of(a), grid_router_of(b));
}

void GridRouters::for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView) const {
  if (a == b) return;
  const auto build = [&](std::span<LinkId> path) {
    int length = 0;
    path[length++] = injection_link(a);
    routers_.route(grid_router_of(a), grid_router_of(b),
                   [&](LinkId grid_link) { path[length++] = grid_link_[grid_link]; });
    path[length++] = ejection_link(b);
    visit(path.first(static_cast<std::size_t>(length)), 1.0);
  };
  if (longest_path_ <= kStackPath) {
    std::array<LinkId, kStackPath> path;
    build(path);
  } else {
    std::vector<LinkId> path(static_cast<std::size_t>(longest_path_));
    build(path);
  }
}

std::shared_ptr<const GraphMachine> make_grid_routers(const Topology& routers, int per_router,
                                                      bool allow_large) {
  return std::make_shared<const GridRouters>(routers, per_router, allow_large);
}

}  // namespace allocsim
