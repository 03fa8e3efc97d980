// Indexes and checks shared by every graph machine (see topo/graph_machine.hpp).
#include "allocsim/topo/graph_machine.hpp"

#include <algorithm>
#include <stdexcept>

namespace allocsim {

const char* link_class_name(LinkClass link_class) {
  switch (link_class) {
    case LinkClass::injection:
      return "injection";
    case LinkClass::ejection:
      return "ejection";
    case LinkClass::local:
      return "local";
    case LinkClass::global:
      return "global";
    case LinkClass::up:
      return "up";
    case LinkClass::down:
      return "down";
  }
  return "?";
}

std::string GraphMachine::node_name(NodeId node) const {
  std::string name(1, 'n');  // (not "n" + ..: GCC 12's false -Wrestrict on that form)
  return name.append(std::to_string(node));
}

namespace {

/// GraphMachine::path_batch's default: for_each_path pair by pair.
class PairByPair final : public GraphMachine::PathBatch {
 public:
  PairByPair(const GraphMachine& machine, LinkLoadView loads) : machine_(&machine), loads_(loads) {}
  void for_each_path(NodeId a, NodeId b, PathVisitor visit) override {
    machine_->for_each_path(a, b, visit, loads_);
  }

 private:
  const GraphMachine* machine_;
  LinkLoadView loads_;
};

}  // namespace

std::unique_ptr<GraphMachine::PathBatch> GraphMachine::path_batch(LinkLoadView loads) const {
  return std::make_unique<PairByPair>(*this, loads);
}

std::span<const NodeId> GraphMachine::nodes_of(VertexId router) const {
  const int r = router - node_count_;
  return {router_nodes_.data() + router_node_offsets_[r],
          static_cast<std::size_t>(router_node_offsets_[r + 1] - router_node_offsets_[r])};
}

std::span<const NodeId> GraphMachine::nodes_near(VertexId router) const {
  const int r = router - node_count_;
  return {near_nodes_.data() + near_offsets_[r],
          static_cast<std::size_t>(near_offsets_[r + 1] - near_offsets_[r])};
}

std::span<const LinkId> GraphMachine::out_links(VertexId vertex) const {
  return {out_links_.data() + out_offsets_[vertex],
          static_cast<std::size_t>(out_offsets_[vertex + 1] - out_offsets_[vertex])};
}

void GraphMachine::finish() {
  const int vertices = vertex_count();
  const auto fail = [&](const std::string& why) {
    throw std::logic_error("graph machine " + spec() + ": " + why);
  };
  if (static_cast<int>(router_of_.size()) != node_count_ ||
      static_cast<int>(group_of_.size()) != node_count_)
    fail("router_of/group_of need one entry per node");
  injection_.assign(node_count_, -1);
  ejection_.assign(node_count_, -1);
  out_offsets_.assign(vertices + 1, 0);
  for (LinkId id = 0; id < static_cast<LinkId>(links_.size()); ++id) {
    const GraphLink& link = links_[id];
    if (link.from < 0 || link.from >= vertices || link.to < 0 || link.to >= vertices ||
        link.from == link.to || !(link.capacity > 0))
      fail("bad link " + std::to_string(id));
    if (link.from < node_count_) {
      if (injection_[link.from] != -1 || link.to != router_of_[link.from])
        fail("node " + std::to_string(link.from) + " needs one injection link to its router");
      injection_[link.from] = id;
    }
    if (link.to < node_count_) {
      if (ejection_[link.to] != -1 || link.from != router_of_[link.to])
        fail("node " + std::to_string(link.to) + " needs one ejection link from its router");
      ejection_[link.to] = id;
    }
    ++out_offsets_[link.from + 1];
  }
  for (int v = 0; v < vertices; ++v) out_offsets_[v + 1] += out_offsets_[v];
  out_links_.assign(links_.size(), 0);
  std::vector<int> fill(out_offsets_.begin(), out_offsets_.end() - 1);
  for (LinkId id = 0; id < static_cast<LinkId>(links_.size()); ++id)
    out_links_[fill[links_[id].from]++] = id;

  const int routers = router_count();
  router_node_offsets_.assign(routers + 1, 0);
  for (NodeId node = 0; node < node_count_; ++node) {
    if (injection_[node] < 0 || ejection_[node] < 0)
      fail("node " + std::to_string(node) + " has no injection or ejection link");
    if (group_of_[node] < 0 || group_of_[node] >= group_count_)
      fail("node " + std::to_string(node) + " has no valid group");
    ++router_node_offsets_[router_of_[node] - node_count_ + 1];
  }
  for (int r = 0; r < routers; ++r) router_node_offsets_[r + 1] += router_node_offsets_[r];
  router_nodes_.assign(node_count_, 0);
  std::vector<int> next(router_node_offsets_.begin(), router_node_offsets_.end() - 1);
  for (NodeId node = 0; node < node_count_; ++node)
    router_nodes_[next[router_of_[node] - node_count_]++] = node;

  near_offsets_.assign(1, 0);
  near_nodes_.clear();
  for (int r = 0; r < routers; ++r) {
    const VertexId router = node_count_ + r;
    const auto begin = near_nodes_.size();
    for (NodeId node : nodes_of(router)) near_nodes_.push_back(node);
    for (LinkId id : out_links(router))
      if (links_[id].to >= node_count_)
        for (NodeId node : nodes_of(links_[id].to)) near_nodes_.push_back(node);
    std::sort(near_nodes_.begin() + static_cast<std::ptrdiff_t>(begin), near_nodes_.end());
    near_nodes_.erase(
        std::unique(near_nodes_.begin() + static_cast<std::ptrdiff_t>(begin), near_nodes_.end()),
        near_nodes_.end());
    near_offsets_.push_back(static_cast<int>(near_nodes_.size()));
  }
}

}  // namespace allocsim
