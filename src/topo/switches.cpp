// Several processors per switch on the box topologies; see topo/switches.hpp.
#include "allocsim/topo/switches.hpp"

#include "allocsim/util/error.hpp"

namespace allocsim {

Topology switch_topology(const Topology& machine) {
  if (!machine.has_coordinates() || machine.dims() < 2)
    throw InputError("switches: machine '" + machine.spec() +
                     "' needs a first axis of processors per switch and at least one axis of "
                     "switches (e.g. torus:4x8x4:wrap=010)");
  std::vector<int> sides(machine.sides().begin() + 1, machine.sides().end());
  std::vector<bool> wrap;
  for (int axis = 1; axis < machine.dims(); ++axis) wrap.push_back(machine.wraps(axis));
  return Topology(std::move(sides), std::move(wrap));
}

std::vector<NodeId> switch_major_order(const std::vector<NodeId>& switch_order, int per_switch) {
  std::vector<NodeId> order;
  order.reserve(switch_order.size() * static_cast<std::size_t>(per_switch));
  for (const NodeId s : switch_order)
    for (int slot = 0; slot < per_switch; ++slot) order.push_back(s * per_switch + slot);
  return order;
}

}  // namespace allocsim
