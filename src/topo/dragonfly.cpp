// The dragonfly builder: parameters, the global-link arrangements, links and spec (routing:
// dragonfly_routing.cpp). Numbering of nodes, routers, ports and links: topo/dragonfly.hpp.
#include "allocsim/topo/dragonfly.hpp"

#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim {

const char* arrangement_name(DragonflyArrangement arrangement) {
  switch (arrangement) {
    case DragonflyArrangement::absolute:
      return "absolute";
    case DragonflyArrangement::relative:
      return "relative";
    case DragonflyArrangement::circulant:
      return "circulant";
  }
  return "?";
}

const char* routing_name(DragonflyRouting routing) {
  switch (routing) {
    case DragonflyRouting::minimal:
      return "minimal";
    case DragonflyRouting::valiant:
      return "valiant";
    case DragonflyRouting::ugal:
      return "ugal";
  }
  return "?";
}

namespace {

/// x mod m in 0 .. m − 1 for any sign of x.
int modulo(int x, int m) {
  const int r = x % m;
  return r < 0 ? r + m : r;
}

/// Fills in g (0: a·h + 1) and refuses shapes that make no dragonfly or too large a one, before
/// anything is allocated.
void check_shape(DragonflyShape& shape, bool allow_large) {
  if (shape.p < 1 || shape.a < 1 || shape.h < 1)
    throw InputError("dragonfly: p, a and h must be at least 1");
  const long long ports = static_cast<long long>(shape.a) * shape.h;
  if (ports >= std::numeric_limits<int>::max())
    throw InputError("dragonfly: a*h = " + std::to_string(ports) + " global ports per group " +
                     "is too many (at most " + std::to_string(std::numeric_limits<int>::max() - 1) +
                     ")");
  if (shape.g == 0) shape.g = static_cast<int>(ports + 1);
  if (shape.g < 2 || shape.g > ports + 1)
    throw InputError("dragonfly: g=" + std::to_string(shape.g) + " groups is out of range: " +
                     "expected 2 .. a*h+1 = " + std::to_string(ports + 1) +
                     " (each group has a*h = " + std::to_string(ports) +
                     " global links and needs at least one to every other group; at least two "
                     "groups make a dragonfly)");
  // In double first: p·a·g of ints can overflow a long long.
  if (static_cast<double>(shape.p) * shape.a * shape.g > std::numeric_limits<int>::max())
    throw InputError(
        "dragonfly: p*a*g = " + number_text(static_cast<double>(shape.p) * shape.a * shape.g) +
        " nodes do not fit the node ids (at most " +
        std::to_string(std::numeric_limits<int>::max()) + ")");
  const long long nodes = static_cast<long long>(shape.p) * shape.a * shape.g;
  if (nodes > kMaxNodesWithoutOverride && !allow_large) {
    char estimate[64];
    std::snprintf(estimate, sizeof estimate, "%.1f",
                  static_cast<double>(nodes) * kBytesPerNode / 1e9);
    throw InputError(std::to_string(nodes) + " nodes (p*a*g) would take about " + estimate +
                     " GB of memory before any job runs; machines of more than " +
                     std::to_string(kMaxNodesWithoutOverride) +
                     " nodes need the parameter allow_large=1 (e.g. "
                     "dragonfly:p=..,a=..,h=..,allow_large=1)");
  }
  // Link ids are ints: injection and ejection, local, global links.
  const long long links = 2 * nodes + static_cast<long long>(shape.g) * shape.a * (shape.a - 1) +
                          static_cast<long long>(shape.g) * ports;
  if (links > std::numeric_limits<int>::max())
    throw InputError("dragonfly: " + std::to_string(links) +
                     " links (2*p*a*g + g*a*(a-1) + g*a*h) do not fit the link ids (at most " +
                     std::to_string(std::numeric_limits<int>::max()) + ")");
}

}  // namespace

// --- Arrangements ---------------------------------------------------------------------------
//
// A group's global ports k = 0 .. a·h − 1 (router ⌊k/h⌋ owns ports i·h .. i·h + h − 1). With
// g = a·h + 1 groups each port leads to a different group; the arrangement is the bijection
// ℓ -> target group of group G's port ℓ (ℓ = 0 .. g − 2):
//
//   absolute (a.k.a. consecutive; Hastings et al., Cluster 2015; Kaplan et al., CCGrid 2017):
//     target(G, ℓ) = ℓ if ℓ < G, else ℓ + 1: the ports of every group lead to the other groups
//     in increasing order. (SST's DragonflyMachine ABSOLUTE builds the same by connecting each
//     router's free ports, group by group, to the lowest-numbered groups not yet joined.)
//   relative (same sources): target(G, ℓ) = (G + ℓ + 1) mod g: port ℓ reaches the group ℓ + 1
//     further on; the link comes back on port g − 2 − ℓ of the target. (SST's RELATIVE: router
//     i's port o of group G goes to group G + 1 + i·h + o, router a − 1 − i.)
//   circulant (circulant-based; same sources): ports alternate directions around the ring of
//     groups, target(G, ℓ) = G + ℓ/2 + 1 for even ℓ and G − (ℓ − 1)/2 − 1 for odd ℓ (mod g):
//     offsets +1, −1, +2, −2, ...; even port ℓ's link comes back on odd port ℓ + 1 and vice
//     versa, and when g is even the last port ℓ = g − 2 (offset g/2) comes back on itself.
//     (SST's CIRCULANT, which needs h even: router i's link o = 1 .. h/2 goes to router i of
//     group G + i·h/2 + o, so router i reaches offsets ±(i·h/2 + 1 .. i·h/2 + h/2): this
//     arrangement for even h.)
//
// Fewer groups (g < a·h + 1): port k has the logical index ℓ = k mod (g − 1) and the round
// r = ⌊k / (g − 1)⌋, so rounds 0, 1, ... repeat the arrangement and every pair of groups gets
// ⌊a·h / (g − 1)⌋ links from the full rounds. Port k of G links to port
// k' = r·(g − 1) + index(T, G) of T = target(G, ℓ), the port of the same round of T that the
// arrangement points back at G; in the last, incomplete round that port may not exist
// (k' ≥ a·h), and then port k stays unused (so do the ports of T left unpaired). Every
// directed global link therefore has its reverse, between the same two routers.

int Dragonfly::logical_target(int group, int index) const {
  const int g = shape_.g;
  switch (shape_.arrangement) {
    case DragonflyArrangement::absolute:
      return index < group ? index : index + 1;
    case DragonflyArrangement::relative:
      return modulo(group + index + 1, g);
    case DragonflyArrangement::circulant:
      return index % 2 == 0 ? modulo(group + index / 2 + 1, g)
                            : modulo(group - (index - 1) / 2 - 1, g);
  }
  return -1;
}

int Dragonfly::logical_index(int from, int to) const {
  const int g = shape_.g;
  switch (shape_.arrangement) {
    case DragonflyArrangement::absolute:
      return to < from ? to : to - 1;
    case DragonflyArrangement::relative:
      return modulo(to - from - 1, g);
    case DragonflyArrangement::circulant: {
      const int ahead = modulo(to - from, g), behind = g - ahead;
      if (ahead == behind) return g - 2;  // g even: the group opposite on the ring
      return ahead < behind ? 2 * (ahead - 1) : 2 * (behind - 1) + 1;
    }
  }
  return -1;
}

Dragonfly::Dragonfly(const DragonflyShape& shape, bool allow_large) : shape_(shape) {
  const int a = shape.a, p = shape.p, h = shape.h;
  check_shape(shape_, allow_large);
  const int g = shape_.g, ports = a * h, span = g - 1;

  node_count_ = p * a * g;
  group_count_ = g;
  router_names_.reserve(static_cast<std::size_t>(a) * g);
  for (int group = 0; group < g; ++group)
    for (int index = 0; index < a; ++index) {
      std::string name = "g";
      name.append(std::to_string(group)).append(1, 'r').append(std::to_string(index));
      router_names_.push_back(std::move(name));
    }
  router_of_.resize(node_count_);
  group_of_.resize(node_count_);
  links_.reserve(2 * static_cast<std::size_t>(node_count_) +
                 static_cast<std::size_t>(g) * a * (a - 1 + h));
  for (NodeId node = 0; node < node_count_; ++node) {
    router_of_[node] = node_count_ + node / p;
    group_of_[node] = node / (p * a);
    links_.push_back({node, router_of_[node], 1, LinkClass::injection});
    links_.push_back({router_of_[node], node, 1, LinkClass::ejection});
  }
  // Local links: every ordered pair of routers of a group, in the order local_link() computes.
  for (int group = 0; group < g; ++group)
    for (int from = 0; from < a; ++from)
      for (int to = 0; to < a; ++to)
        if (to != from)
          links_.push_back({router_vertex(group, from), router_vertex(group, to), shape.local_bw,
                            LinkClass::local});
  // Global links in (group, port) order (see "Arrangements" above).
  global_link_.assign(static_cast<std::size_t>(g) * ports, -1);
  for (int group = 0; group < g; ++group)
    for (int port = 0; port < ports; ++port) {
      const int round = port / span;
      const int target = logical_target(group, port % span);
      const int back = round * span + logical_index(target, group);
      if (back >= ports) continue;  // the incomplete last round has no port to pair with
      global_link_[static_cast<std::size_t>(group) * ports + port] =
          static_cast<LinkId>(links_.size());
      links_.push_back({router_vertex(group, port / h), router_vertex(target, back / h),
                        shape.global_bw, LinkClass::global});
    }
  // Per ordered pair of groups its global links: the ports of `from` whose logical index leads
  // to `to` (every g − 1-th port from it), in port order, used ports only.
  between_begin_.reserve(static_cast<std::size_t>(g) * g + 1);
  between_begin_.push_back(0);
  for (int from = 0; from < g; ++from)
    for (int to = 0; to < g; ++to) {
      if (to != from)
        for (int port = logical_index(from, to); port < ports; port += span)
          if (const LinkId link = global_link(from, port); link >= 0) {
            between_.push_back(link);
            const GraphLink& joined = links_[static_cast<std::size_t>(link)];
            between_ends_.emplace_back(router_index(joined.from), router_index(joined.to));
          }
      between_begin_.push_back(static_cast<int>(between_.size()));
    }
  finish();
}

std::string Dragonfly::spec() const {
  const DragonflyShape& s = shape_;
  std::string text = "dragonfly:p=" + std::to_string(s.p) + ",a=" + std::to_string(s.a) +
                     ",h=" + std::to_string(s.h);
  if (s.g != s.a * s.h + 1) text += ",g=" + std::to_string(s.g);
  if (s.arrangement != DragonflyArrangement::absolute)
    text += std::string(",arrangement=") + arrangement_name(s.arrangement);
  if (s.routing != DragonflyRouting::minimal)
    text += std::string(",routing=") + routing_name(s.routing);
  if (s.local_bw != 1) text += ",local_bw=" + number_text(s.local_bw);
  if (s.global_bw != 1) text += ",global_bw=" + number_text(s.global_bw);
  // Only a machine built with the permission can be this large: parse(spec()) needs it too.
  if (node_count_ > kMaxNodesWithoutOverride) text += ",allow_large=1";
  return text;
}

std::shared_ptr<const GraphMachine> make_dragonfly(const Params& params, bool allow_large) {
  DragonflyShape shape;
  shape.p = static_cast<int>(params.integer("p"));
  shape.a = static_cast<int>(params.integer("a"));
  shape.h = static_cast<int>(params.integer("h"));
  shape.g = static_cast<int>(params.integer("g"));
  const std::string& arrangement = params.text("arrangement");
  shape.arrangement = arrangement == "relative"    ? DragonflyArrangement::relative
                      : arrangement == "circulant" ? DragonflyArrangement::circulant
                                                   : DragonflyArrangement::absolute;
  const std::string& routing = params.text("routing");
  shape.routing = routing == "valiant" ? DragonflyRouting::valiant
                  : routing == "ugal"  ? DragonflyRouting::ugal
                                       : DragonflyRouting::minimal;
  shape.local_bw = params.real("local_bw");
  shape.global_bw = params.real("global_bw");
  return std::make_shared<const Dragonfly>(shape, allow_large);
}

}  // namespace allocsim
