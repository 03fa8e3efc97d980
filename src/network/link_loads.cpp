// All-to-all link loads from per-line prefix counts (see link_loads.hpp).
#include "allocsim/network/link_loads.hpp"

#include <algorithm>

namespace allocsim {

namespace {

/// Scratch space for one line of n positions.
struct LineScratch {
  std::vector<std::int64_t> receivers_before, weighted_before, senders_before;
  std::vector<std::int64_t> mirrored_senders, mirrored_receivers, mirrored_loads;
};

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

}  // namespace

std::vector<LoadedLink> all_to_all_link_loads(const Topology& topology,
                                              std::span<const NodeId> nodes, TimeLimitPoll* poll) {
  std::vector<LoadedLink> result;
  const auto k = static_cast<std::int64_t>(nodes.size());
  if (k < 2) return result;
  if (!topology.has_coordinates()) {
    for (NodeId node : nodes) {
      result.push_back({topology.link_id(node, 0, -1), k - 1});
      result.push_back({topology.link_id(node, 0, +1), k - 1});
    }
    std::sort(result.begin(), result.end(),
              [](const LoadedLink& a, const LoadedLink& b) { return a.link < b.link; });
    return result;
  }
  // Scratch space reused across calls (one per thread): no allocation per job start.
  thread_local LineScratch scratch;
  thread_local std::vector<NodeId> prefixes, suffixes;
  thread_local std::vector<std::int64_t> senders, receivers, plus, minus;
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
          if (plus[x] > 0) result.push_back({topology.link_id(node, axis, +1), plus[x]});
          if (minus[x] > 0) result.push_back({topology.link_id(node, axis, -1), minus[x]});
        }
      }
    }
  }
  std::sort(result.begin(), result.end(),
            [](const LoadedLink& a, const LoadedLink& b) { return a.link < b.link; });
  return result;
}

std::vector<LoadedLink> routed_link_loads(const Topology& topology,
                                          std::span<const std::pair<NodeId, NodeId>> messages) {
  std::vector<LinkId> crossed;
  for (const auto& [from, to] : messages)
    topology.route(from, to, [&](LinkId link) { crossed.push_back(link); });
  std::sort(crossed.begin(), crossed.end());
  std::vector<LoadedLink> result;
  for (LinkId link : crossed) {
    if (!result.empty() && result.back().link == link)
      ++result.back().load;
    else
      result.push_back({link, 1});
  }
  return result;
}

std::vector<NodeId> reference_compact_nodes(const Topology& topology, int k) {
  std::vector<NodeId> nodes;
  k = std::clamp(k, 0, topology.node_count());
  if (!topology.has_coordinates()) {
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
