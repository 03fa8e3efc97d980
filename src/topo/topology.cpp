// Coordinates, distances, neighbours and links of a Topology (spellings: topology_registry.cpp).
#include "allocsim/topo/topology.hpp"

#include <limits>
#include <stdexcept>

#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

Topology::Topology(std::vector<int> sides, std::vector<bool> wrap)
    : sides_(std::move(sides)), wrap_(std::move(wrap)) {
  if (sides_.empty() || sides_.size() != wrap_.size())
    throw InputError("topology needs one wrap flag per side");
  kind_ = Kind::mesh;
  for (bool w : wrap_)
    if (w) kind_ = Kind::torus;
  finish();
}

Topology Topology::flat(int nodes) {
  if (nodes <= 0) throw_bad_machine("flat:" + std::to_string(nodes), "node count must be positive");
  Topology topology;
  topology.kind_ = Kind::flat;
  topology.sides_ = {nodes};
  topology.wrap_ = {false};
  topology.finish();
  return topology;
}

Topology Topology::graph(std::shared_ptr<const GraphMachine> machine) {
  Topology topology;
  topology.kind_ = Kind::graph;
  topology.sides_ = {machine->node_count()};
  topology.wrap_ = {false};
  topology.strides_ = {1};
  topology.nodes_ = machine->node_count();
  topology.graph_ = std::move(machine);
  return topology;
}

bool Topology::operator==(const Topology& other) const {
  if (kind_ != other.kind_) return false;
  if (kind_ == Kind::graph) return graph_ == other.graph_ || graph_->spec() == other.graph_->spec();
  return sides_ == other.sides_ && wrap_ == other.wrap_;
}

std::string Topology::kind_name() const {
  switch (kind_) {
    case Kind::mesh:
      return "mesh";
    case Kind::torus:
      return "torus";
    case Kind::flat:
      return "flat";
    case Kind::graph:
      return graph_->kind_name();
  }
  return "?";
}

void Topology::require_grid(const std::string& who) const {
  if (has_coordinates()) return;
  throw InputError(who + " works on grids (mesh, torus, semitorus) only; machine '" + spec() +
                   "' is a " + kind_name());
}

void Topology::throw_single_path_route() const {
  throw std::logic_error("Topology::route on graph machine " + spec() +
                         ": graphs route with route_weighted");
}

void Topology::finish() {
  // Every LinkId (node * 2·dims + slot) must fit an int, hence so must the node count.
  std::int64_t nodes = 1;
  const auto limit = static_cast<std::int64_t>(std::numeric_limits<int>::max());
  for (int side : sides_) {
    if (side <= 0) throw_bad_machine(spec(), "side " + std::to_string(side) + " must be positive");
    nodes *= side;
    if (nodes * 2 * static_cast<std::int64_t>(sides_.size()) > limit)
      throw_bad_machine(spec(), "too many nodes (node count x 2 x dimensions must fit an int)");
  }
  strides_.assign(sides_.size(), 1);
  nodes_ = 1;
  for (std::size_t axis = 0; axis < sides_.size(); ++axis) {
    strides_[axis] = nodes_;
    nodes_ *= sides_[axis];
  }
}

void Topology::coords(NodeId node, std::span<int> out) const {
  for (int axis = 0; axis < dims(); ++axis) {
    out[axis] = node % sides_[axis];
    node /= sides_[axis];
  }
}

std::vector<int> Topology::coords(NodeId node) const {
  std::vector<int> out(sides_.size());
  coords(node, out);
  return out;
}

NodeId Topology::id(std::span<const int> coords) const {
  NodeId node = 0;
  for (int axis = dims() - 1; axis >= 0; --axis) node = node * sides_[axis] + coords[axis];
  return node;
}

int Topology::distance(NodeId a, NodeId b) const {
  if (fully_connected()) return a == b ? 0 : 1;
  if (graph_) return graph_->distance(a, b);
  int total = 0;
  for (int axis = 0; axis < dims(); ++axis) {
    total += axis_distance(axis, a % sides_[axis], b % sides_[axis]);
    a /= sides_[axis];
    b /= sides_[axis];
  }
  return total;
}

std::vector<NodeId> Topology::neighbours(NodeId node) const {
  std::vector<NodeId> result;
  for_each_neighbour(node, [&](NodeId other) { result.push_back(other); });
  return result;
}

bool Topology::is_link(LinkId link) const {
  if (graph_) return link >= 0 && link < link_slot_count();
  const int slots = link_slots_per_node();
  const NodeId node = link / slots;
  const int slot = link % slots, axis = slot / 2;
  if (kind_ == Kind::flat) return nodes_ > 1;
  const int n = sides_[axis];
  if (n == 1) return false;
  if (wrap_[axis]) return true;
  const int c = coord(node, axis);
  return slot % 2 ? c + 1 < n : c > 0;
}

std::int64_t Topology::link_count() const {
  if (graph_) return static_cast<std::int64_t>(graph_->links().size());
  if (kind_ == Kind::flat) return nodes_ > 1 ? 2 * static_cast<std::int64_t>(nodes_) : 0;
  std::int64_t count = 0;
  for (int axis = 0; axis < dims(); ++axis) {
    const std::int64_t n = sides_[axis], lines = nodes_ / n;
    if (n > 1) count += 2 * lines * (wrap_[axis] ? n : n - 1);
  }
  return count;
}

Topology::Link Topology::link(LinkId id) const {
  if (graph_) return Link{graph_->links()[id].from, graph_->links()[id].to, -1, 0};
  const int slots = link_slots_per_node();
  const NodeId node = id / slots;
  const int slot = id % slots, axis = slot / 2, direction = slot % 2 ? 1 : -1;
  if (kind_ == Kind::flat)
    return direction > 0 ? Link{node, kCrossbar, 0, 1} : Link{kCrossbar, node, 0, -1};
  const int c = coord(node, axis), n = sides_[axis], stride = strides_[axis];
  NodeId to = node;
  if (direction > 0)
    to = c + 1 < n ? node + stride : node - (n - 1) * stride;
  else
    to = c > 0 ? node - stride : node + (n - 1) * stride;
  return Link{node, to, axis, direction};
}

}  // namespace allocsim
