// Slurm topology files as graph machines (see topo/slurm_topology.hpp): the checks shared by the
// topology.conf and topology.yaml readers, the tree, and its up-down routing.
#include "allocsim/topo/slurm_topology.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "slurm_topology_decl.hpp"

namespace allocsim {
namespace slurm_topology_detail {

void fail(const std::string& path, int line, const std::string& what) {
  throw InputError(path + ":" + std::to_string(line) + ": " + what);
}

namespace {

// Switch indexes of the cycle that `start` reaches going up (each switch has one parent).
std::vector<int> cycle_from(int start, const std::vector<int>& parent) {
  int s = start;
  for (std::size_t i = 0; i < parent.size(); ++i) s = parent[s];  // now inside the cycle
  std::vector<int> cycle{s};
  for (int t = parent[s]; t != s; t = parent[t]) cycle.push_back(t);
  return cycle;
}

void check_block_sizes(const Declared& d, const std::vector<SlurmSwitch>& blocks,
                       std::vector<int>& sizes) {
  const std::string expected =
      "; expected block sizes such as 4,16: the base block size first, each next one a power "
      "of two times the one before";
  // Not given: as Slurm's topology/block (block_record.c, 24.11), the first block's node count
  // is the base block size and the levels are 1, 2, 4 and 8 base blocks.
  if (sizes.empty())
    for (int blocks_per_level : {1, 2, 4, 8})
      sizes.push_back(blocks_per_level * static_cast<int>(blocks.front().nodes.size()));
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] <= 0)
      fail(d.path, d.block_sizes_line,
           "block size " + std::to_string(sizes[i]) + " is not positive" + expected);
    if (i > 0) {
      const int ratio = sizes[i] / sizes[i - 1];
      if (sizes[i] % sizes[i - 1] != 0 || ratio < 2 || (ratio & (ratio - 1)) != 0)
        fail(d.path, d.block_sizes_line,
             "block size " + std::to_string(sizes[i]) +
                 " is not a power of two (at least 2) "
                 "times " +
                 std::to_string(sizes[i - 1]) + expected);
    }
  }
  // Slurm keeps the levels up to the first one of at least as many base blocks as the file has
  // blocks (block_record.c); the larger ones could never be filled.
  for (std::size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] / sizes.front() >= static_cast<int>(blocks.size())) {
      sizes.resize(i + 1);
      break;
    }
  // topology.yaml(5): "Each block must have at least the planning base block size count of
  // nodes."
  for (const SlurmSwitch& b : blocks)
    if (static_cast<int>(b.nodes.size()) < sizes.front())
      fail(d.path, b.line,
           "block '" + b.name + "' has " + std::to_string(b.nodes.size()) +
               " nodes, fewer than the base block size " + std::to_string(sizes.front()) +
               "; expected at least that many nodes in every block");
}

// What a file of `form` writes to define switches, for "expected ..." in messages.
const char* example_entries(SlurmTopology::Form form) {
  switch (form) {
    case SlurmTopology::Form::conf_tree:
      return "lines such as SwitchName=s0 Nodes=tux[0-3]";
    case SlurmTopology::Form::conf_block:
      return "lines such as BlockName=b0 Nodes=tux[0-3]";
    case SlurmTopology::Form::yaml_tree:
      return "entries such as '- switch: s0' with 'nodes: tux[0-3]'";
    case SlurmTopology::Form::yaml_block:
      return "entries such as '- block: b0' with 'nodes: tux[0-3]'";
  }
  return "";
}

const char* leaf_or_inner(SlurmTopology::Form form) {
  switch (form) {
    case SlurmTopology::Form::conf_tree:
      return "Nodes= (a leaf) or Switches= (an inner switch)";
    case SlurmTopology::Form::yaml_tree:
      return "nodes: (a leaf) or children: (an inner switch)";
    case SlurmTopology::Form::conf_block:
      return "Nodes=";
    case SlurmTopology::Form::yaml_block:
      return "nodes:";
  }
  return "";
}

}  // namespace

std::shared_ptr<const SlurmTopology> build(Declared d) {
  const bool blocks =
      d.form == SlurmTopology::Form::conf_block || d.form == SlurmTopology::Form::yaml_block;
  const std::string what = blocks ? "block" : "switch";
  if (d.switches.empty())
    fail(d.path, 1,
         std::string("the file defines no ") + (blocks ? "blocks" : "switches") + "; expected " +
             example_entries(d.form));
  const int n = static_cast<int>(d.switches.size());
  std::map<std::string, int> index;
  for (int s = 0; s < n; ++s) {
    const SwitchDecl& decl = d.switches[s];
    const auto [it, fresh] = index.emplace(decl.name, s);
    if (!fresh)
      fail(d.path, decl.line,
           what + " '" + decl.name + "' is defined twice (first on line " +
               std::to_string(d.switches[it->second].line) + "); expected each name once");
    if (!decl.has_nodes && !decl.has_switches)
      fail(d.path, decl.line,
           what + " '" + decl.name +
               (blocks ? "' has no nodes" : "' has neither nodes nor switches") + "; expected " +
               leaf_or_inner(d.form));
    if (decl.has_nodes && decl.has_switches)
      fail(d.path, decl.line,
           "switch '" + decl.name + "' has both nodes and switches; expected " +
               leaf_or_inner(d.form) + ", not both");
  }
  // Parents: each switch under at most one switch.
  std::vector<int> parent(n, -1);
  for (int s = 0; s < n; ++s)
    for (const std::string& child : d.switches[s].switches) {
      const auto it = index.find(child);
      if (it == index.end())
        fail(d.path, d.switches[s].line,
             "switch '" + d.switches[s].name + "' lists switch '" + child +
                 "', which is not defined; expected the name of a switch the file defines");
      const int c = it->second;
      if (parent[c] != -1)
        fail(d.path, d.switches[s].line,
             parent[c] == s
                 ? "switch '" + d.switches[s].name + "' lists switch '" + child +
                       "' twice; expected each child once"
                 : "switch '" + child + "' is under both '" + d.switches[parent[c]].name +
                       "' (line " + std::to_string(d.switches[parent[c]].line) + ") and '" +
                       d.switches[s].name + "'; expected a tree: one parent per switch");
      parent[c] = s;
    }
  // Cycles: a switch that climbs n times without reaching a top is on or below a cycle.
  for (int s = 0; s < n; ++s) {
    int t = s, steps = 0;
    while (t != -1 && steps <= n) t = parent[t], ++steps;
    if (t == -1) continue;
    const std::vector<int> cycle = cycle_from(s, parent);
    const int first = *std::min_element(cycle.begin(), cycle.end());
    std::string names;
    // Written top-down from the first defined switch of the cycle: a lists b lists ... a.
    std::vector<int> order{first};
    for (int u = parent[first]; u != first; u = parent[u]) order.push_back(u);
    std::reverse(order.begin() + 1, order.end());
    for (int u : order) names += "'" + d.switches[u].name + "' -> ";
    names += "'" + d.switches[first].name + "'";
    fail(d.path, d.switches[first].line,
         "the switches form a cycle (" + names + ", each listing the next in Switches=); " +
             "expected a tree");
  }
  // Nodes: ids in file order, each under one leaf.
  std::vector<SlurmSwitch> switches(n);
  std::vector<std::string> node_names;
  std::map<std::string, std::pair<NodeId, int>> node_index;  // name -> (id, leaf)
  for (int s = 0; s < n; ++s) {
    const SwitchDecl& decl = d.switches[s];
    SlurmSwitch& sw = switches[s];
    sw.name = decl.name;
    sw.parent = parent[s];
    sw.link_speed = decl.link_speed;
    sw.line = decl.line;
    for (const std::string& child : decl.switches) sw.children.push_back(index.at(child));
    for (const std::string& node : decl.nodes) {
      const NodeId id = static_cast<NodeId>(node_names.size());
      const auto [it, fresh] = node_index.emplace(node, std::make_pair(id, s));
      if (!fresh) {
        const SwitchDecl& other = d.switches[it->second.second];
        fail(d.path, decl.line,
             it->second.second == s
                 ? "node '" + node + "' is listed twice under " + what + " '" + decl.name +
                       "'; expected each node once"
                 : "node '" + node + "' is under both " + what + " '" + other.name + "' (line " +
                       std::to_string(other.line) + ") and '" + decl.name +
                       "'; expected each node under one " + (blocks ? "block" : "leaf switch"));
      }
      node_names.push_back(node);
      sw.nodes.push_back(id);
    }
  }
  if (node_names.empty())
    fail(d.path, d.switches.front().line,
         "the file names no compute nodes; expected Nodes= on the leaf switches");
  if (blocks) check_block_sizes(d, switches, d.block_sizes);
  // Slurm's levels: leaves 0, a switch 1 + its highest child (children before parents is not
  // guaranteed by the file order, so repeat until stable; at most n rounds in a tree).
  for (bool changed = true; changed;) {
    changed = false;
    for (SlurmSwitch& sw : switches)
      for (int c : sw.children)
        if (switches[c].level + 1 > sw.level) sw.level = switches[c].level + 1, changed = true;
  }
  std::vector<int> roots;
  for (int s = 0; s < n; ++s)
    if (parent[s] == -1) roots.push_back(s);
  if (roots.size() > 1) {
    SlurmSwitch top;
    top.name = "(top)";
    while (index.count(top.name) != 0) top.name += "'";
    top.implicit = true;
    for (int r : roots) {
      switches[r].parent = n;
      top.children.push_back(r);
      top.level = std::max(top.level, switches[r].level + 1);
    }
    switches.push_back(std::move(top));
  }
  // Depth: refuse trees of more than max_levels switch levels (routes use fixed arrays).
  for (int s = 0; s < n; ++s) {
    int levels = 1;
    for (int t = switches[s].parent; t != -1; t = switches[t].parent) ++levels;
    if (levels > SlurmTopology::max_levels)
      fail(d.path, switches[s].line,
           "switch '" + switches[s].name + "' is " + std::to_string(levels) +
               " switch levels deep" + (roots.size() > 1 ? " (counting the implicit top)" : "") +
               "; expected at most " + std::to_string(SlurmTopology::max_levels));
  }
  return std::make_shared<const SlurmTopology>(d.path, d.form, std::move(switches),
                                               std::move(node_names), std::move(d.block_sizes));
}

}  // namespace slurm_topology_detail

SlurmTopology::SlurmTopology(std::string path, Form form, std::vector<SlurmSwitch> switches,
                             std::vector<std::string> node_names, std::vector<int> block_sizes)
    : path_(std::move(path)),
      form_(form),
      switches_(std::move(switches)),
      node_names_(std::move(node_names)),
      block_sizes_(std::move(block_sizes)) {
  const int n = static_cast<int>(switches_.size());
  node_count_ = static_cast<int>(node_names_.size());
  for (int s = 0; s < n; ++s)
    if (switches_[s].parent == -1) top_ = s;
  parent_.resize(n);
  for (int s = 0; s < n; ++s) parent_[s] = switches_[s].parent;
  depth_.assign(n, 0);
  for (int s = 0; s < n; ++s)
    for (int t = switches_[s].parent; t != -1; t = switches_[t].parent) ++depth_[s];
  // Groups: the leaf's parent as the file writes it, or the leaf when it has none there.
  std::vector<int> group_switch(node_count_), group_number(n, -1);
  router_of_.assign(node_count_, 0);
  for (int s = 0; s < n; ++s)
    for (NodeId node : switches_[s].nodes) {
      router_of_[node] = node_count_ + s;
      const int p = switches_[s].parent;
      group_switch[node] = p != -1 && !switches_[p].implicit ? p : s;
      group_number[group_switch[node]] = 0;
    }
  group_count_ = 0;
  for (int s = 0; s < n; ++s)
    if (group_number[s] == 0) group_number[s] = group_count_++;
  group_of_.resize(node_count_);
  for (NodeId node = 0; node < node_count_; ++node)
    group_of_[node] = group_number[group_switch[node]];
  for (const SlurmSwitch& sw : switches_) router_names_.push_back(sw.name);
  for (NodeId node = 0; node < node_count_; ++node) {
    links_.push_back({node, router_of_[node], 1, LinkClass::injection});
    links_.push_back({router_of_[node], node, 1, LinkClass::ejection});
  }
  up_.assign(n, -1);
  for (int s = 0; s < n; ++s) {
    const int p = switches_[s].parent;
    if (p == -1) continue;
    up_[s] = static_cast<LinkId>(links_.size());
    links_.push_back({node_count_ + s, node_count_ + p, 1, LinkClass::up});
    links_.push_back({node_count_ + p, node_count_ + s, 1, LinkClass::down});
  }
  finish();
}

int SlurmTopology::distance(NodeId a, NodeId b) const {
  if (a == b) return 0;
  int u = leaf_of(a), v = leaf_of(b), hops = 0;
  while (depth_[u] > depth_[v]) u = parent_[u], ++hops;
  while (depth_[v] > depth_[u]) v = parent_[v], ++hops;
  while (u != v) u = parent_[u], v = parent_[v], hops += 2;
  return hops + 2;
}

// Up from a's leaf to the lowest common switch, then down to b's leaf: climb the deeper side
// until both are at one depth, then both sides together. No allocation: at most max_levels − 1
// links each way.
void SlurmTopology::for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView) const {
  if (a == b) return;
  std::array<LinkId, 2 * max_levels + 2> path{};
  std::array<LinkId, max_levels> down{};
  int length = 0, downs = 0;
  path[length++] = injection_link(a);
  int u = leaf_of(a), v = leaf_of(b);
  while (depth_[u] > depth_[v]) path[length++] = up_[u], u = parent_[u];
  while (depth_[v] > depth_[u]) down[downs++] = up_[v] + 1, v = parent_[v];
  while (u != v) {
    path[length++] = up_[u], u = parent_[u];
    down[downs++] = up_[v] + 1, v = parent_[v];
  }
  while (downs > 0) path[length++] = down[--downs];
  path[length++] = ejection_link(b);
  visit(std::span<const LinkId>(path.data(), static_cast<std::size_t>(length)), 1.0);
}

std::string SlurmTopology::routing_description() const {
  std::string text =
      "one path: up from the source's leaf switch to the lowest switch above both leaves, then "
      "down";
  if (implicit_top() != -1)
    text += block_form() ? "; the blocks are joined by an implicit top switch"
                         : "; the file's top-level switches are joined by an implicit top switch "
                           "(Slurm itself would not let a job span them)";
  return text;
}

NodeId SlurmTopology::node_id(const std::string& name) const {
  const auto it = std::find(node_names_.begin(), node_names_.end(), name);
  return it == node_names_.end() ? -1 : static_cast<NodeId>(it - node_names_.begin());
}

std::shared_ptr<const GraphMachine> make_slurm_topology(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(path + ": is a folder; expected a topology.conf or topology.yaml file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path + ": cannot be read (" + std::strerror(errno) +
                     "); expected a readable topology.conf or topology.yaml file");
  std::ostringstream text;
  text << in.rdbuf();
  const std::filesystem::path p(path);
  const std::string extension = p.extension().string();
  if (extension == ".yaml" || extension == ".yml")
    return slurm_topology_detail::build(slurm_topology_detail::read_yaml(path, text.str()));
  return slurm_topology_detail::build(slurm_topology_detail::read_conf(path, text.str()));
}

}  // namespace allocsim
