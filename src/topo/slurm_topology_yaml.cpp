// topology.yaml reader (Slurm topology.yaml(5), Slurm 24.11+): a list of topologies, each
// `topology: NAME` ("Must be the first attribute"), `cluster_default: BOOL` and "exactly one of"
// `block`, `flat`, `tree`. The one read is "The first topology defined with cluster_default:
// true", or the only one; several without a default are refused (the file does not say which).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <initializer_list>

#include "allocsim/topo/hostlist.hpp"
#include "allocsim/util/error.hpp"
#include "slurm_topology_decl.hpp"

namespace allocsim::slurm_topology_detail {
namespace {

int line_of(const YAML::Node& node) {
  return std::max(1, node.Mark().line + 1);
}

struct Reader {
  const std::string& path;

  [[noreturn]] void bad(const YAML::Node& at, const std::string& what) const {
    fail(path, line_of(at), what);
  }

  // A map whose keys are all in `allowed`.
  void expect_map(const YAML::Node& node, const std::string& what,
                  std::initializer_list<const char*> allowed) const {
    if (!node.IsMap()) bad(node, what + " is not a mapping; expected keys " + list(allowed));
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }) ==
          allowed.end())
        bad(entry.first, "unknown key '" + key + "' in " + what + "; expected " + list(allowed));
    }
  }

  static std::string list(std::initializer_list<const char*> names) {
    std::string text;
    for (const char* name : names) text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
  }

  std::string scalar(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar() || node.Scalar().empty())
      bad(node, what + " is not a name; expected a text value");
    return node.Scalar();
  }

  // A hostlist given as one expression or as a list of them.
  std::vector<std::string> hostlist(const YAML::Node& node, const std::string& what) const {
    std::vector<YAML::Node> items;
    if (node.IsSequence())
      for (const auto& item : node) items.push_back(static_cast<const YAML::Node&>(item));
    else
      items.push_back(node);
    if (items.empty())
      bad(node, what + " is an empty list; expected a hostlist such as node[01-04]");
    std::vector<std::string> names;
    for (const YAML::Node& item : items) {
      if (!item.IsScalar() || item.Scalar().empty())
        bad(item, what + " is empty or not text; expected a hostlist such as node[01-04]");
      try {
        for (std::string& name : expand_hostlist(item.Scalar())) names.push_back(std::move(name));
      } catch (const InputError& e) {
        bad(item, what + ": " + e.what());
      }
    }
    return names;
  }

  void read_tree(const YAML::Node& tree, Declared& d) const {
    expect_map(tree, "tree", {"switches"});
    const YAML::Node switches = tree["switches"];
    if (!switches || !switches.IsSequence())
      bad(switches ? switches : tree,
          "tree: has no list 'switches'; expected switches: - "
          "switch: NAME with children: or nodes:");
    for (const auto& entry : switches) {
      expect_map(entry, "a switch", {"switch", "children", "nodes"});
      SwitchDecl decl;
      decl.line = line_of(entry);
      if (!entry["switch"]) bad(entry, "a switch without 'switch: NAME'; expected its name");
      decl.name = scalar(entry["switch"], "switch");
      if (decl.name.size() > 64)
        bad(entry["switch"], "the switch name '" + decl.name + "' is longer than 64 characters");
      if (entry["children"])
        decl.has_switches = true, decl.switches = hostlist(entry["children"], "children");
      if (entry["nodes"]) decl.has_nodes = true, decl.nodes = hostlist(entry["nodes"], "nodes");
      d.switches.push_back(std::move(decl));
    }
  }

  void read_block(const YAML::Node& block, Declared& d) const {
    expect_map(block, "block", {"block_sizes", "blocks"});
    if (const YAML::Node sizes = block["block_sizes"]) {
      d.block_sizes_line = line_of(sizes);
      std::vector<YAML::Node> items;
      if (sizes.IsSequence())
        for (const auto& item : sizes) items.push_back(static_cast<const YAML::Node&>(item));
      else
        items.push_back(sizes);
      for (const YAML::Node& item : items) {
        int size = 0;
        try {
          size = item.as<int>();
        } catch (const YAML::Exception&) {
          bad(item, "block_sizes: '" + (item.IsScalar() ? item.Scalar() : std::string("...")) +
                        "' is not a whole number; expected a list such as [4, 16]");
        }
        if (size <= 0) bad(item, "block_sizes: " + std::to_string(size) + " is not positive");
        d.block_sizes.push_back(size);
      }
    }
    const YAML::Node blocks = block["blocks"];
    if (!blocks || !blocks.IsSequence())
      bad(blocks ? blocks : block,
          "block: has no list 'blocks'; expected blocks: - block: NAME with nodes:");
    for (const auto& entry : blocks) {
      expect_map(entry, "a block", {"block", "nodes"});
      SwitchDecl decl;
      decl.line = line_of(entry);
      if (!entry["block"]) bad(entry, "a block without 'block: NAME'; expected its name");
      decl.name = scalar(entry["block"], "block");
      if (entry["nodes"]) decl.has_nodes = true, decl.nodes = hostlist(entry["nodes"], "nodes");
      d.switches.push_back(std::move(decl));
    }
  }
};

}  // namespace

Declared read_yaml(const std::string& path, const std::string& text) {
  Declared d;
  d.path = path;
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    fail(path, std::max(1, e.mark.line + 1), "YAML syntax: " + e.msg);
  }
  const Reader reader{path};
  if (!root || root.IsNull())
    fail(path, 1, "the file defines no topologies; expected a list of '- topology: NAME' entries");
  if (!root.IsSequence())
    reader.bad(root, "the file is not a list of topologies; expected '- topology: NAME' entries");
  // Indexes, not Node assignment: yaml-cpp's Node::operator= writes into the referenced node.
  std::vector<YAML::Node> topologies;
  for (const auto& entry : root) topologies.push_back(static_cast<const YAML::Node&>(entry));
  int chosen_index = -1;
  const int count = static_cast<int>(topologies.size());
  for (int t = 0; t < count; ++t) {
    const YAML::Node& topology = topologies[t];
    reader.expect_map(topology, "a topology",
                      {"topology", "cluster_default", "tree", "block", "flat"});
    if (topology.size() == 0 || topology.begin()->first.Scalar() != "topology")
      reader.bad(topology,
                 "a topology that does not start with 'topology: NAME'; expected "
                 "its name first");
    reader.scalar(topology["topology"], "topology");
    const int kinds =
        (topology["tree"] ? 1 : 0) + (topology["block"] ? 1 : 0) + (topology["flat"] ? 1 : 0);
    if (kinds != 1)
      reader.bad(topology, "topology '" + topology["topology"].Scalar() + "' has " +
                               std::to_string(kinds) + " of tree, block, flat; expected one");
    bool is_default = false;
    if (const YAML::Node flag = topology["cluster_default"]) {
      try {
        is_default = flag.as<bool>();
      } catch (const YAML::Exception&) {
        reader.bad(flag, "cluster_default is not true or false");
      }
    }
    if (is_default && chosen_index == -1) chosen_index = t;
  }
  if (chosen_index == -1) {
    if (count != 1)
      reader.bad(root, std::to_string(count) +
                           " topologies and none has cluster_default: "
                           "true; expected one marked cluster_default: true");
    chosen_index = 0;
  }
  const YAML::Node& chosen = topologies[chosen_index];
  const std::string name = chosen["topology"].Scalar();
  if (chosen["flat"])
    reader.bad(chosen, "topology '" + name + "' is flat; expected a tree or block topology");
  if (chosen["tree"]) {
    d.form = SlurmTopology::Form::yaml_tree;
    reader.read_tree(chosen["tree"], d);
  } else {
    d.form = SlurmTopology::Form::yaml_block;
    reader.read_block(chosen["block"], d);
  }
  return d;
}

}  // namespace allocsim::slurm_topology_detail
