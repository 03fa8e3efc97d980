// Locality metrics of one allocation. The sum of pairwise L1 (or wrap-aware) distances
// separates by axis, so it is computed per axis from a histogram of coordinates. On graph
// machines the sum is aggregated per router (graph_pairwise_sum).
#include "allocsim/metrics/locality.hpp"

#include <algorithm>
#include <functional>

namespace allocsim {

namespace {
/// pairwise_axis_sum with `count` as scratch space for the histogram.
std::int64_t axis_sum(std::span<const int> values, int side, bool wrap,
                      std::vector<std::int64_t>& count) {
  count.assign(side, 0);
  for (int v : values) ++count[v];
  if (!wrap || side <= 2) {  // on a ring of 2 the two distances coincide
    std::int64_t total = 0, below_count = 0, below_sum = 0;
    for (int v = 0; v < side; ++v) {
      if (count[v]) total += count[v] * (v * below_count - below_sum);
      below_count += count[v];
      below_sum += count[v] * v;
    }
    return total;
  }
  // Ring: prefix sums over three copies so both windows around v (index v + side) are
  // contiguous: forward (v, v + side/2], backward [v - (side - 1 - side/2), v).
  const int n = 3 * side;
  std::vector<std::int64_t> prefix_count(n + 1, 0), prefix_sum(n + 1, 0);
  for (int i = 0; i < n; ++i) {
    prefix_count[i + 1] = prefix_count[i] + count[i % side];
    prefix_sum[i + 1] = prefix_sum[i] + count[i % side] * i;
  }
  auto range = [&](const std::vector<std::int64_t>& prefix, int lo, int hi) {  // [lo, hi]
    return prefix[hi + 1] - prefix[lo];
  };
  const int forward = side / 2, backward = side - 1 - forward;
  std::int64_t ordered = 0;
  for (int v = 0; v < side; ++v) {
    if (!count[v]) continue;
    const int c = v + side;
    const std::int64_t ahead =
        range(prefix_sum, c + 1, c + forward) -
        static_cast<std::int64_t>(c) * range(prefix_count, c + 1, c + forward);
    const std::int64_t behind =
        backward > 0 ? static_cast<std::int64_t>(c) * range(prefix_count, c - backward, c - 1) -
                           range(prefix_sum, c - backward, c - 1)
                     : 0;
    ordered += count[v] * (ahead + behind);
  }
  return ordered / 2;
}
}  // namespace

std::int64_t pairwise_axis_sum(std::span<const int> values, int side, bool wrap) {
  std::vector<std::int64_t> count;
  return axis_sum(values, side, wrap, count);
}

std::int64_t pairwise_hop_sum(const Topology& topology, std::span<const NodeId> nodes) {
  return LocalityMeter(topology).pairwise_sum(nodes);
}

std::int64_t pairwise_hop_sum_brute(const Topology& topology, std::span<const NodeId> nodes) {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t j = i + 1; j < nodes.size(); ++j)
      total += topology.distance(nodes[i], nodes[j]);
  return total;
}

LocalityMeter::LocalityMeter(const Topology& topology)
    : topology_(&topology), stamp_(topology.node_count(), 0) {
  const int n = topology.node_count();
  if (const GraphMachine* graph = topology.graph()) {  // no boxes on a graph: router counts
    router_nodes_.assign(graph->router_count(), 0);
    router_example_.assign(graph->router_count(), 0);
    group_seen_.assign(graph->group_count(), 0);
    return;
  }
  // Smallest box volume >= k over all boxes fitting in the machine (flat: a line).
  std::vector<char> volume_exists(n + 1, 0);
  const int dims = topology.dims();
  std::vector<int> extent(dims, 1);
  while (true) {
    std::int64_t volume = 1;
    for (int e : extent) volume *= e;
    volume_exists[volume] = 1;
    int axis = 0;
    while (axis < dims && ++extent[axis] > topology.side(axis)) extent[axis++] = 1;
    if (axis == dims) break;
  }
  smallest_box_.assign(n + 1, n);
  std::int64_t next = n;
  for (int k = n; k >= 0; --k) {
    if (volume_exists[k]) next = k;
    smallest_box_[k] = next;
  }
  smallest_cube_.assign(n + 1, n);
  int max_side = 0;
  for (int side : topology.sides()) max_side = std::max(max_side, side);
  int k = 0;
  for (int s = 1; s <= max_side; ++s) {
    std::int64_t volume = 1;
    for (int side : topology.sides()) volume *= std::min(s, side);
    while (k <= n && k <= volume) smallest_cube_[k++] = volume;
  }
}

void LocalityMeter::split_coordinates(std::span<const NodeId> nodes) {
  const std::size_t k = nodes.size();
  const int dims = topology_->dims();
  coords_.resize(static_cast<std::size_t>(dims) * k);
  const std::vector<int>& sides = topology_->sides();
  for (std::size_t i = 0; i < k; ++i) {
    NodeId rest = nodes[i];
    for (int axis = 0; axis < dims; ++axis) {  // % and / of one value: one division
      coords_[static_cast<std::size_t>(axis) * k + i] = rest % sides[axis];
      rest /= sides[axis];
    }
  }
}

LocalityMeasures LocalityMeter::measure(std::span<const NodeId> nodes) {
  if (topology_->graph()) {
    LocalityMeasures measures;
    measures.grid = false;
    measures.pairwise_sum = graph_pairwise_sum(nodes, &measures);
    return measures;
  }
  split_coordinates(nodes);
  LocalityMeasures measures;
  measures.pairwise_sum = pairwise_sum_of_split(nodes);
  measures.components = components_of_split(nodes);
  measures.box = bounding_box_of_split(nodes);
  return measures;
}

std::int64_t LocalityMeter::pairwise_sum(std::span<const NodeId> nodes) {
  if (topology_->graph()) return graph_pairwise_sum(nodes, nullptr);
  split_coordinates(nodes);
  return pairwise_sum_of_split(nodes);
}

int LocalityMeter::components(std::span<const NodeId> nodes) {
  if (topology_->graph()) topology_->require_grid("metric 'components'");
  split_coordinates(nodes);
  return components_of_split(nodes);
}

BoundingBox LocalityMeter::bounding_box(std::span<const NodeId> nodes) {
  if (topology_->graph()) topology_->require_grid("metric 'bounding box'");
  split_coordinates(nodes);
  return bounding_box_of_split(nodes);
}

std::int64_t LocalityMeter::pairwise_sum_of_split(std::span<const NodeId> nodes) {
  const auto k = static_cast<std::int64_t>(nodes.size());
  if (topology_->fully_connected()) return k * (k - 1) / 2;
  std::int64_t total = 0;
  for (int axis = 0; axis < topology_->dims(); ++axis)
    total += axis_sum(axis_coordinates(axis, nodes.size()), topology_->side(axis),
                      topology_->wraps(axis), axis_counts_);
  return total;
}

int LocalityMeter::components_of_split(std::span<const NodeId> nodes) {
  if (nodes.empty()) return 0;
  if (topology_->fully_connected()) return 1;
  // Generation stamps: 2g = member not yet visited, 2g+1 = visited.
  generation_ += 2;
  if (generation_ < 2) {  // wrapped around: reset
    std::fill(stamp_.begin(), stamp_.end(), 0);
    generation_ = 2;
  }
  const std::uint32_t member = generation_, visited = generation_ + 1;
  if (slot_.empty()) slot_.resize(stamp_.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    stamp_[nodes[i]] = member;
    slot_[nodes[i]] = static_cast<int>(i);
  }
  const std::size_t k = nodes.size();
  const int dims = topology_->dims();
  auto reach = [&](NodeId next) {
    if (stamp_[next] == member) {
      stamp_[next] = visited;
      stack_.push_back(slot_[next]);
    }
  };
  int count = 0;
  for (std::size_t root = 0; root < k; ++root) {
    if (stamp_[nodes[root]] != member) continue;
    ++count;
    stamp_[nodes[root]] = visited;
    stack_.assign(1, static_cast<NodeId>(root));
    while (!stack_.empty()) {
      const auto index = static_cast<std::size_t>(stack_.back());
      stack_.pop_back();
      const NodeId node = nodes[index];
      // The neighbours of Topology::for_each_neighbour, from the split coordinates.
      for (int axis = 0; axis < dims; ++axis) {
        const int c = coords_[static_cast<std::size_t>(axis) * k + index];
        const int n = topology_->side(axis), stride = topology_->stride(axis);
        if (n == 1) continue;
        const bool wraps = topology_->wraps(axis) && n > 2;
        if (c + 1 < n)
          reach(node + stride);
        else if (wraps)
          reach(node - (n - 1) * stride);
        if (c > 0)
          reach(node - stride);
        else if (wraps)
          reach(node + (n - 1) * stride);
      }
    }
  }
  return count;
}

// Two nodes of one router are 2 links apart (injection, ejection), and the distance between
// nodes of two different routers depends only on the routers (graph_machine.hpp: the links
// between a's injection and b's ejection link depend only on router_of(a) and b, so a minimal
// route's length only on the two routers). So with c_r of the nodes on router r the sum is
// Σ_r 2·C(c_r, 2) + Σ_{r<s} c_r·c_s·distance(r, s): R(R−1)/2 distance() calls for R routers.
std::int64_t LocalityMeter::graph_pairwise_sum(std::span<const NodeId> nodes,
                                               LocalityMeasures* out) {
  const GraphMachine& graph = *topology_->graph();
  const int n = graph.node_count();
  spanned_.clear();
  for (const NodeId node : nodes) {
    const int router = graph.router_of(node) - n;
    if (router_nodes_[router]++ == 0) {
      spanned_.push_back(router);
      router_example_[router] = node;
    }
  }
  std::int64_t same_router_pairs = 0, sum = 0, router_hop_sum = 0;
  for (std::size_t i = 0; i < spanned_.size(); ++i) {
    const std::int64_t here = router_nodes_[spanned_[i]];
    same_router_pairs += here * (here - 1) / 2;
    for (std::size_t j = i + 1; j < spanned_.size(); ++j) {
      const std::int64_t pairs = here * router_nodes_[spanned_[j]];
      const int router_hops =
          graph.router_hops(router_example_[spanned_[i]], router_example_[spanned_[j]]);
      sum += pairs * (router_hops + 2);
      router_hop_sum += pairs * router_hops;
    }
  }
  sum += 2 * same_router_pairs;
  int groups = 0;
  for (const int router : spanned_) {
    router_nodes_[router] = 0;
    const int group = graph.group_of(router_example_[router]);
    if (!group_seen_[group]) {
      group_seen_[group] = 1;
      ++groups;
    }
  }
  for (const int router : spanned_) group_seen_[graph.group_of(router_example_[router])] = 0;
  if (out) {
    out->router_hop_sum = router_hop_sum;
    out->routers = static_cast<int>(spanned_.size());
    out->groups = groups;
  }
  return sum;
}

BoundingBox LocalityMeter::bounding_box_of_split(std::span<const NodeId> nodes) {
  BoundingBox box;
  box.volume = 1;
  if (!topology_->has_coordinates()) {
    box.extents = {static_cast<int>(nodes.size())};
    box.volume = box.sides_sum = static_cast<std::int64_t>(nodes.size());
    return box;
  }
  box.extents.reserve(topology_->dims());
  for (int axis = 0; axis < topology_->dims(); ++axis) {
    const int side = topology_->side(axis);
    const std::span<const int> values = axis_coordinates(axis, nodes.size());
    int extent = 0;
    if (!topology_->wraps(axis)) {
      if (!values.empty()) {
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        extent = *hi - *lo + 1;
      }
    } else {  // side minus the largest circular gap of absent coordinates
      present_.assign(side, 0);
      for (int c : values) present_[c] = 1;
      int largest_gap = 0, run = 0;
      for (int c = 0; c < 2 * side; ++c) {
        run = present_[c % side] ? 0 : run + 1;
        largest_gap = std::max(largest_gap, std::min(run, side));
      }
      extent = side - largest_gap;
    }
    box.extents.push_back(extent);
    box.volume *= extent;
    box.sides_sum += extent;
  }
  return box;
}

}  // namespace allocsim
