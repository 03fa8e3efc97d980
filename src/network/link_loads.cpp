// Routing traffic onto links, and all-to-all link loads from per-line prefix counts (see
// link_loads.hpp).
#include "allocsim/network/link_loads.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>

namespace allocsim {

void add_route(const Topology& topology, NodeId a, NodeId b, double amount,
               LinkLoadScratch& scratch, LinkLoadView loads) {
  auto& per_link = scratch.per_link;
  const auto slots = static_cast<std::size_t>(topology.link_slot_count());
  if (per_link.size() < slots) per_link.resize(slots, 0.0);
  LinkLoadSums sums{per_link, scratch.touched};
  topology.route_weighted(
      a, b,
      // weight 1 on grids and flat: amount exactly
      [&](LinkId link, double weight) { sums(link, amount * weight); }, loads);
}

namespace {

/// Every positive entry of `per_link` in link order, zeroing them all: O(links).
LinkLoads take_by_scan(std::vector<double>& per_link, std::size_t reserve) {
  LinkLoads loads;
  loads.reserve(reserve);
  for (std::size_t link = 0; link < per_link.size(); ++link)
    if (per_link[link] != 0) {
      if (per_link[link] > 0) loads.emplace_back(static_cast<LinkId>(link), per_link[link]);
      per_link[link] = 0;
    }
  return loads;
}

}  // namespace

LinkLoads take_loads(LinkLoadScratch& scratch) {
  auto& touched = scratch.touched;
  auto& per_link = scratch.per_link;
  LinkLoads loads;
  loads.reserve(touched.size());
  // Lists `link` with its load if positive and zeroes it (a link met twice is listed once).
  const auto take = [&](LinkId link) {
    double& load = per_link[static_cast<std::size_t>(link)];
    if (load > 0) loads.emplace_back(link, load);
    load = 0;
  };
  if (touched.size() * 128 < per_link.size()) {
    // Few links touched: sorting them is cheaper than one bit per link.
    std::sort(touched.begin(), touched.end());
    for (const LinkId link : touched) take(link);
  } else {
    // The touched links in ascending order without sorting them (nor scanning every link): one
    // bit per link, then the set bits word by word, O(touched + links / 64). Every nonzero
    // entry was touched, so this zeroes them all; the same list as sorting them or scanning
    // per_link (ascending links, positive loads).
    auto& bits = scratch.touched_bits;
    bits.assign((per_link.size() + 63) / 64, 0);
    for (const LinkId link : touched)
      bits[static_cast<std::size_t>(link) / 64] |= std::uint64_t{1} << (link % 64);
    for (std::size_t word = 0; word < bits.size(); ++word)
      for (std::uint64_t set = bits[word]; set != 0; set &= set - 1)
        take(static_cast<LinkId>(word * 64 + static_cast<std::size_t>(std::countr_zero(set))));
  }
  touched.clear();
  return loads;
}

namespace {

/// The routing loop of accumulate_task_graph, with or without recording touched links.
template <bool kTrack>
void accumulate_edges(const Topology& topology, const CommGraphView& graph,
                      std::span<const NodeId> placement, double* per, std::vector<LinkId>* touched,
                      TimeLimitPoll* poll, LinkLoadView loads) {
  // Adaptive graph routing against a fixed view: one batch for every edge (the same paths as
  // route_weighted; graph_machine.hpp).
  std::unique_ptr<GraphMachine::PathBatch> batch;
  if (topology.graph() && topology.graph()->adaptive() && !loads.empty())
    batch = topology.graph()->path_batch(loads);
  for (std::int32_t task = 0; task < graph.size(); ++task) {
    const std::int64_t begin = graph.offsets[task], end = graph.offsets[task + 1];
    if (poll) poll->add(end - begin + 1);
    for (std::int64_t i = begin; i < end; ++i) {
      const double half = graph.bytes[i] / 2;
      const auto visit = [&](LinkId link, double weight) {
        if constexpr (kTrack)
          if (per[link] == 0) touched->push_back(link);
        per[link] += half * weight;  // weight 1 on grids and flat: half exactly
      };
      const NodeId a = placement[task], b = placement[graph.targets[i]];
      if (batch) {
        batch->for_each_path(a, b, [&](std::span<const LinkId> path, double weight) {
          for (const LinkId link : path) visit(link, weight);  // as route_weighted
        });
        continue;
      }
      topology.route_weighted(a, b, visit, loads);
    }
  }
}

}  // namespace

void accumulate_task_graph(const Topology& topology, const CommGraphView& graph,
                           std::span<const NodeId> placement, std::span<double> per_link,
                           std::vector<LinkId>* touched, TimeLimitPoll* poll, LinkLoadView loads) {
  if (touched)
    accumulate_edges<true>(topology, graph, placement, per_link.data(), touched, poll, loads);
  else
    accumulate_edges<false>(topology, graph, placement, per_link.data(), nullptr, poll, loads);
}

LinkLoads route_task_graph(const Topology& topology, const CommGraphView& graph,
                           std::span<const NodeId> placement, LinkLoadScratch& scratch,
                           TimeLimitPoll* poll, LinkLoadView loads) {
  auto& per_link = scratch.per_link;
  const auto slots = static_cast<std::size_t>(topology.link_slot_count());
  if (per_link.size() < slots) per_link.resize(slots, 0.0);
  // A graph with many edges for the machine's links (dense) is taken by one pass over all
  // links; a sparse one by its touched links, sorted. The same list either way.
  if (graph.targets.size() * 16 >= per_link.size()) {
    accumulate_task_graph(topology, graph, placement, per_link, nullptr, poll, loads);
    return take_by_scan(per_link, 0);
  }
  accumulate_task_graph(topology, graph, placement, per_link, &scratch.touched, poll, loads);
  return take_loads(scratch);
}

namespace {

using LineScratch = LinkLoadScratch;

/// Messages crossing each + link p -> p+1 of a line of n = senders.size() positions, for
/// senders[x] messages starting at x and receivers[y] ending at y, when a message goes + iff
/// its + distance (y − x, mod n when `wrap`) is in [1, window]. A link on an open line's last
/// position gets 0. O(n).
///
/// Unrolled positions u = x + n cover x in [−n, 2n) (periodic on a wrapped line, 0 outside
/// [0, n) on an open one). Link p is crossed by (x, y) with x in [p − window + 1, p] and y in
/// [p + 1, x + window], so with R the prefix sums of receivers, loads[p] = Σ_x senders(x) ·
/// (R(x + window) − R(p)) = Σ_x senders(x)·R(x + window) − (Σ_x senders(x))·R(p): two sliding
/// window sums over prefix arrays.
void line_plus_loads(std::span<const std::int64_t> senders, std::span<const std::int64_t> receivers,
                     bool wrap, int window, LineScratch& scratch, std::span<std::int64_t> loads) {
  const int n = static_cast<int>(senders.size());
  const auto at = [&](std::span<const std::int64_t> values, int x) -> std::int64_t {
    if (x >= 0 && x < n) return values[x];
    return wrap ? values[((x % n) + n) % n] : 0;
  };
  auto& receivers_before = scratch.receivers_before;  // [u] = Σ receivers over x < u − n
  receivers_before.assign(3 * n + 1, 0);
  for (int u = 0; u < 3 * n; ++u)
    receivers_before[u + 1] = receivers_before[u] + at(receivers, u - n);
  auto& weighted_before = scratch.weighted_before;  // [u] = Σ senders(x)·R(x + window), x < u − n
  auto& senders_before = scratch.senders_before;    // [u] = Σ senders(x), x < u − n
  weighted_before.assign(2 * n + 1, 0);
  senders_before.assign(2 * n + 1, 0);
  for (int u = 0; u < 2 * n; ++u) {
    const int x = u - n;
    const std::int64_t s = at(senders, x);
    senders_before[u + 1] = senders_before[u] + s;
    weighted_before[u + 1] = weighted_before[u] + s * receivers_before[x + window + 1 + n];
  }
  for (int p = 0; p < n; ++p) {
    const int hi = p + 1 + n, lo = p - window + 1 + n;
    if (window <= 0) {
      loads[p] = 0;
      continue;
    }
    loads[p] = (weighted_before[hi] - weighted_before[lo]) -
               (senders_before[hi] - senders_before[lo]) * receivers_before[hi];
  }
}

/// Sorts by link.
void sort_by_link(std::vector<LoadedLink>& loads) {
  std::sort(loads.begin(), loads.end(),
            [](const LoadedLink& a, const LoadedLink& b) { return a.link < b.link; });
}

/// all_to_all_link_loads on a graph machine (see link_loads.hpp): injection and ejection links
/// k − 1 each; the links between depend only on (router_of(a), b) (graph_machine.hpp), so they
/// are routed once per (source router, destination) with multiplicity the set's other nodes on
/// that router, or once per (source router, destination router) when the machine routes by
/// router pair (GraphMachine::routes_by_router_pair), with multiplicity m_r · m_s. Nodes on one
/// router exchange through their injection and ejection links only.
LinkLoads graph_all_to_all(const Topology& topology, std::span<const NodeId> nodes,
                           LinkLoadScratch& scratch, TimeLimitPoll* poll, LinkLoadView loads) {
  const GraphMachine& machine = *topology.graph();
  const auto k = static_cast<double>(nodes.size());
  auto& per_link = scratch.per_link;
  const auto slots = static_cast<std::size_t>(topology.link_slot_count());
  if (per_link.size() < slots) per_link.resize(slots, 0.0);
  LinkLoadSums touch{per_link, scratch.touched};
  for (const NodeId node : nodes) {
    touch(machine.injection_link(node), k - 1);
    touch(machine.ejection_link(node), k - 1);
  }
  // Adaptive routing against a fixed view: one batch for every pair (it may share work between
  // them; the same paths as route_weighted).
  std::unique_ptr<GraphMachine::PathBatch> batch;
  if (machine.adaptive() && !loads.empty()) batch = machine.path_batch(loads);
  // The middle links of source -> b, `amount` on each (weighted by its path's share).
  const auto route_middle = [&](NodeId source, NodeId b, double amount) {
    if (poll) poll->add(1);
    const LinkId injection = machine.injection_link(source), ejection = machine.ejection_link(b);
    const auto visit = [&](LinkId link, double weight) {
      if (link != injection && link != ejection) touch(link, amount * weight);
    };
    if (batch) {
      batch->for_each_path(source, b, [&](std::span<const LinkId> path, double weight) {
        for (const LinkId link : path) visit(link, weight);  // as route_weighted
      });
      return;
    }
    topology.route_weighted(source, b, visit, loads);
  };
  if (poll) poll->add(static_cast<std::int64_t>(nodes.size()));
  if (machine.all_to_all_router_loads(nodes, touch))  // (whole messages: the same sums)
    return take_loads(scratch);
  // m_r (the set's nodes on each router) and one node of the set on each router (−1: none).
  const NodeId first_router = machine.node_count();
  const auto router_index = [&](NodeId node) {
    return static_cast<std::size_t>(machine.router_of(node) - first_router);
  };
  auto& per_router = scratch.per_router;
  per_router.assign(static_cast<std::size_t>(machine.router_count()), 0);
  auto& representative = scratch.prefixes;
  representative.assign(static_cast<std::size_t>(machine.router_count()), -1);
  auto& used_routers = scratch.suffixes;  // routers holding nodes of the set, ascending
  used_routers.clear();
  for (const NodeId node : nodes)
    if (per_router[router_index(node)]++ == 0) representative[router_index(node)] = node;
  for (std::size_t r = 0; r < per_router.size(); ++r)
    if (per_router[r] > 0) used_routers.push_back(static_cast<NodeId>(r));
  // Sources by router in vertex order, destinations by router (or in the order given): the
  // same sums in the same order on every run.
  const bool by_router_pair = machine.routes_by_router_pair();
  for (const NodeId r : used_routers) {
    const NodeId source = representative[static_cast<std::size_t>(r)];
    if (by_router_pair) {
      for (const NodeId s : used_routers)
        if (s != r)
          route_middle(source, representative[static_cast<std::size_t>(s)],
                       static_cast<double>(per_router[static_cast<std::size_t>(r)]) *
                           per_router[static_cast<std::size_t>(s)]);
      continue;
    }
    for (const NodeId b : nodes)
      if (router_index(b) != static_cast<std::size_t>(r))
        route_middle(source, b, per_router[static_cast<std::size_t>(r)]);
  }
  return take_loads(scratch);
}

}  // namespace

std::vector<LoadedLink> all_to_all_link_loads(const Topology& topology,
                                              std::span<const NodeId> nodes, TimeLimitPoll* poll) {
  LinkLoadScratch scratch;
  return all_to_all_link_loads(topology, nodes, scratch, poll);
}

LinkLoads all_to_all_loads(const Topology& topology, std::span<const NodeId> nodes,
                           LinkLoadScratch& scratch, TimeLimitPoll* poll, LinkLoadView link_view) {
  if (topology.graph() && nodes.size() >= 2)
    return graph_all_to_all(topology, nodes, scratch, poll, link_view);
  LinkLoads loads;
  for (const LoadedLink& load : all_to_all_link_loads(topology, nodes, scratch, poll, link_view))
    loads.emplace_back(load.link, load.load);
  return loads;
}

std::vector<LoadedLink> all_to_all_link_loads(const Topology& topology,
                                              std::span<const NodeId> nodes,
                                              LinkLoadScratch& scratch, TimeLimitPoll* poll,
                                              LinkLoadView link_view) {
  std::vector<LoadedLink> result;
  const auto k = static_cast<std::int64_t>(nodes.size());
  if (k < 2) return result;
  if (topology.graph()) {
    for (const auto& [link, load] : graph_all_to_all(topology, nodes, scratch, poll, link_view))
      result.push_back({link, load});
    return result;
  }
  if (!topology.has_coordinates()) {  // flat: one injection and one ejection slot per node
    for (NodeId node : nodes) {
      result.push_back({node * topology.link_slots_per_node(), static_cast<double>(k - 1)});
      result.push_back({node * topology.link_slots_per_node() + 1, static_cast<double>(k - 1)});
    }
    sort_by_link(result);
    return result;
  }
  auto& prefixes = scratch.prefixes;
  auto& suffixes = scratch.suffixes;
  auto& senders = scratch.senders;
  auto& receivers = scratch.receivers;
  auto& plus = scratch.plus;
  auto& minus = scratch.minus;
  int stride = 1;
  for (int axis = 0; axis < topology.dims(); stride *= topology.side(axis), ++axis) {
    const int n = topology.side(axis);
    if (n == 1) continue;
    const int block = stride * n;
    const bool wrap = topology.wraps(axis);
    // Along this axis a message runs on the line with the receiver's prefix (coordinates
    // below axis) and the sender's suffix (coordinates above axis).
    prefixes.clear();
    suffixes.clear();
    for (NodeId node : nodes) {
      prefixes.push_back(node % stride);
      suffixes.push_back(node / block);
    }
    for (auto* keys : {&prefixes, &suffixes}) {
      std::sort(keys->begin(), keys->end());
      keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
    }
    const auto index_of = [](const std::vector<NodeId>& keys, NodeId key) {
      return static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), key) -
                                      keys.begin());
    };
    senders.assign(suffixes.size() * n, 0);    // per sender suffix, per position
    receivers.assign(prefixes.size() * n, 0);  // per receiver prefix, per position
    for (NodeId node : nodes) {
      const int x = topology.coord(node, axis);
      ++senders[index_of(suffixes, node / block) * n + x];
      ++receivers[index_of(prefixes, node % stride) * n + x];
    }
    const int plus_window = wrap ? n / 2 : n - 1, minus_window = wrap ? (n - 1) / 2 : n - 1;
    plus.resize(n);
    minus.resize(n);
    auto& mirrored_senders = scratch.mirrored_senders;
    auto& mirrored_receivers = scratch.mirrored_receivers;
    mirrored_senders.resize(n);
    mirrored_receivers.resize(n);
    scratch.mirrored_loads.resize(n);
    for (std::size_t pi = 0; pi < prefixes.size(); ++pi) {
      const std::span<const std::int64_t> line_receivers(receivers.data() + pi * n, n);
      std::reverse_copy(line_receivers.begin(), line_receivers.end(), mirrored_receivers.begin());
      for (std::size_t qi = 0; qi < suffixes.size(); ++qi) {
        if (poll) poll->add(n);
        const std::span<const std::int64_t> line_senders(senders.data() + qi * n, n);
        line_plus_loads(line_senders, line_receivers, wrap, plus_window, scratch, plus);
        // − links are + links of the mirrored line.
        std::reverse_copy(line_senders.begin(), line_senders.end(), mirrored_senders.begin());
        line_plus_loads(mirrored_senders, mirrored_receivers, wrap, minus_window, scratch,
                        scratch.mirrored_loads);
        for (int x = 0; x < n; ++x) minus[x] = scratch.mirrored_loads[n - 1 - x];
        const NodeId base = prefixes[pi] + suffixes[qi] * block;
        for (int x = 0; x < n; ++x) {
          const NodeId node = base + x * stride;
          if (plus[x] > 0)
            result.push_back({topology.link_id(node, axis, +1), static_cast<double>(plus[x])});
          if (minus[x] > 0)
            result.push_back({topology.link_id(node, axis, -1), static_cast<double>(minus[x])});
        }
      }
    }
  }
  sort_by_link(result);
  return result;
}

std::vector<LoadedLink> routed_link_loads(const Topology& topology,
                                          std::span<const std::pair<NodeId, NodeId>> messages) {
  LinkLoadScratch scratch;
  for (const auto& [from, to] : messages) add_route(topology, from, to, 1.0, scratch);
  std::vector<LoadedLink> result;
  for (const auto& [link, load] : take_loads(scratch)) result.push_back({link, load});
  return result;
}

std::vector<NodeId> reference_compact_nodes(const Topology& topology, int k) {
  std::vector<NodeId> nodes;
  k = std::clamp(k, 0, topology.node_count());
  if (!topology.has_coordinates()) {  // flat and graphs: the first k nodes in id order
    for (NodeId node = 0; node < k; ++node) nodes.push_back(node);
    return nodes;
  }
  const int dims = topology.dims();
  std::vector<int> extent(dims, 1);
  for (int s = 1;; ++s) {
    std::int64_t volume = 1;
    for (int axis = 0; axis < dims; ++axis) {
      extent[axis] = std::min(s, topology.side(axis));
      volume *= extent[axis];
    }
    if (volume >= k) break;
  }
  std::vector<int> coords(dims, 0);
  while (static_cast<int>(nodes.size()) < k) {
    nodes.push_back(topology.id(coords));
    for (int axis = 0; axis < dims && ++coords[axis] == extent[axis]; ++axis) coords[axis] = 0;
  }
  return nodes;
}

}  // namespace allocsim
