#pragma once
// Several processors per switch on top of the box topologies (until machines are graphs): a
// machine whose FIRST axis lists the processors attached to one switch, e.g. Leung et al.'s §4
// Cplant machine (four processors per switch on an 8x8 torus of switches, four compute rows) as
// `torus:4x8x4:wrap=010`. Node id = slot + side(0) x switch id, the switch id numbering the
// switch box (the other axes) as Topology does. The axis of slots is not a network: callers
// that honour switches route on switch_topology() (flow model, `switch=first`) and order the
// switches (curve allocator, `switch=first`); the others still see the box.
#include <vector>

#include "allocsim/topo/topology.hpp"

namespace allocsim {

/// The switches of `machine`: its box without the first axis (sides and wraps of the others).
/// Throws InputError unless `machine` has coordinates and at least two axes.
Topology switch_topology(const Topology& machine);
/// The switch of processor `node`: node / machine.side(0).
inline NodeId switch_of(const Topology& machine, NodeId node) {
  return node / machine.side(0);
}
/// A processor ordering from an ordering of the switches: each switch's `per_switch`
/// processors consecutively, in slot order.
std::vector<NodeId> switch_major_order(const std::vector<NodeId>& switch_order, int per_switch);

}  // namespace allocsim
