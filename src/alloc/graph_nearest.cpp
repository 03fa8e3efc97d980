// `nearest` on graph machines: the communication-aware greedy (Bender et al.'s MM, SST's
// NearestAllocator) by router hops around a centre router (definition in alloc/graph_alloc.hpp).
//
// Cost per call: the free counts (O(nodes)); per candidate centre (at most kCentres) one pass
// over the routers with free nodes, adding their free counts into a histogram by distance; the
// winner's nodes from the routers within its distance classes. Router distances come from a table
// of D(c, s) built once per allocator (shared by clones) when the machine has at most
// kMaxTableRouters leaf routers (16 MB); beyond that a candidate's row is computed per call
// (leaf routers × distance() calls).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "allocsim/alloc/graph_layout.hpp"

namespace allocsim {

namespace {

constexpr int kCentres = 8;
constexpr int kMaxTableRouters = 4096;

/// The distance class of leaf router s seen from centre c: 2·D(c, s) + (1 when s is in another
/// group than c), D(c, s) being 0 when c = s, else the router hops of a minimal route between
/// their lowest nodes. Classes order nodes by distance, then own group first.
class RouterDistances {
 public:
  RouterDistances(const GraphMachine& graph, const GraphLayout& layout)
      : graph_(&graph), layout_(&layout), routers_(layout.router_count()) {
    if (routers_ <= kMaxTableRouters) table_.resize(static_cast<std::size_t>(routers_) * routers_);
    std::vector<std::uint8_t> buffer;
    for (int c = 0; c < routers_; ++c) {
      std::uint8_t* row = table_.empty() ? (buffer.resize(routers_), buffer.data())
                                         : table_.data() + std::size_t(c) * routers_;
      fill_row(c, row);
      max_ = std::max(max_, static_cast<int>(*std::max_element(row, row + routers_)));
    }
  }
  /// Row c of the table, or `buffer` filled with it.
  const std::uint8_t* row(int c, std::vector<std::uint8_t>& buffer) const {
    if (!table_.empty()) return table_.data() + std::size_t(c) * routers_;
    buffer.resize(routers_);
    fill_row(c, buffer.data());
    return buffer.data();
  }
  int max() const { return max_; }

 private:
  void fill_row(int c, std::uint8_t* row) const {
    const NodeId x = layout_->nodes(c).front();
    for (int s = 0; s < routers_; ++s) {
      const int d = s == c ? 0 : graph_->distance(x, layout_->nodes(s).front()) - 2;
      const int other_group = layout_->group_of_router(s) != layout_->group_of_router(c);
      row[s] = static_cast<std::uint8_t>(std::clamp(2 * d + other_group, 0, 255));
    }
  }
  const GraphMachine* graph_;
  const GraphLayout* layout_;
  int routers_;
  std::vector<std::uint8_t> table_;
  int max_ = 0;
};

/// histogram[class] = the free nodes of the routers in each distance class of `row`. Four
/// interleaved partial histograms: consecutive routers mostly share a class (same group), and
/// one histogram would chain every addition on the previous one's store.
void add_by_class(const std::uint8_t* row, const std::vector<int>& free,
                  std::vector<std::int64_t>& histogram) {
  const std::size_t classes = histogram.size(), routers = free.size();
  std::vector<std::int64_t> parts(4 * classes, 0);
  std::size_t r = 0;
  for (; r + 4 <= routers; r += 4)
    for (std::size_t lane = 0; lane < 4; ++lane)
      parts[lane * classes + row[r + lane]] += free[r + lane];
  for (; r < routers; ++r) parts[row[r]] += free[r];
  for (std::size_t c = 0; c < classes; ++c)
    histogram[c] = parts[c] + parts[classes + c] + parts[2 * classes + c] + parts[3 * classes + c];
}

class GraphNearest final : public CloneableAllocator<GraphNearest> {
 public:
  GraphNearest(std::shared_ptr<const GraphLayout> layout,
               std::shared_ptr<const RouterDistances> distances, Topology topology)
      : layout_(std::move(layout)),
        distances_(std::move(distances)),
        topology_(std::move(topology)) {}

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    if (machine.free_count() < job.procs) return std::nullopt;
    const GraphLayout& l = *layout_;
    const GraphLayout::FreeCounts counts = l.free_counts(machine);
    // Candidate centres: the emptiest router of each of the kCentres emptiest groups.
    std::vector<int> groups;
    for (int group = 0; group < l.group_count(); ++group)
      if (counts.group[group] > 0) groups.push_back(group);
    const auto emptier = [&](int a, int b) {
      return counts.group[a] != counts.group[b] ? counts.group[a] > counts.group[b] : a < b;
    };
    const std::size_t centres = std::min<std::size_t>(kCentres, groups.size());
    std::partial_sort(groups.begin(), groups.begin() + centres, groups.end(), emptier);
    std::vector<int> occupied;  // routers with free nodes
    for (int router = 0; router < l.router_count(); ++router)
      if (counts.router[router] > 0) occupied.push_back(router);

    std::vector<std::uint8_t> buffer;
    std::vector<std::int64_t> histogram(distances_->max() + 1);
    int best_centre = -1;
    std::int64_t best_cost = std::numeric_limits<std::int64_t>::max();
    for (std::size_t at = 0; at < centres; ++at) {
      int centre = -1;
      for (int router : l.routers(groups[at]))
        if (centre < 0 || counts.router[router] > counts.router[centre]) centre = router;
      const std::uint8_t* row = distances_->row(centre, buffer);
      add_by_class(row, counts.router, histogram);
      // The p nearest free nodes: whole distance classes from 0 up, the last one in part.
      std::int64_t cost = 0, need = job.procs;
      for (std::size_t d = 0; need > 0; ++d) {
        const std::int64_t take = std::min(need, histogram[d]);
        cost += take * static_cast<std::int64_t>(d / 2);  // class 2·D or 2·D + 1
        need -= take;
      }
      if (cost < best_cost) best_cost = cost, best_centre = centre;
    }

    // The winner's nodes: every free node closer than the last distance class t, and the
    // lowest ids of class t, listed by (distance, id).
    const std::uint8_t* row = distances_->row(best_centre, buffer);
    add_by_class(row, counts.router, histogram);
    std::size_t last = 0;
    std::int64_t before = 0;
    while (before + histogram[last] < job.procs) before += histogram[last++];
    const std::int64_t quota = job.procs - before;
    std::vector<std::vector<NodeId>> classes(last + 1);
    for (int router : occupied)
      if (row[router] <= last) l.append_free(router, l.node_count(), machine, classes[row[router]]);
    // Class `last` in part: its lowest ids (already ascending when routers list ids in order).
    std::vector<NodeId>& partial = classes[last];
    if (!l.routers_in_id_order()) std::sort(partial.begin(), partial.end());
    partial.resize(static_cast<std::size_t>(quota));
    Allocation allocation;
    allocation.nodes.reserve(job.procs);
    for (const auto& nodes : classes)
      allocation.nodes.insert(allocation.nodes.end(), nodes.begin(), nodes.end());
    return allocation;
  }

 private:
  std::shared_ptr<const GraphLayout> layout_;
  std::shared_ptr<const RouterDistances> distances_;
  Topology topology_;  // keeps the graph machine the distances point to alive
};

}  // namespace

std::unique_ptr<Allocator> make_graph_nearest_allocator(const Topology& topology) {
  auto layout = std::make_shared<const GraphLayout>(topology, "allocator 'nearest'");
  auto distances = std::make_shared<const RouterDistances>(*topology.graph(), *layout);
  return std::make_unique<GraphNearest>(std::move(layout), std::move(distances), topology);
}

}  // namespace allocsim
