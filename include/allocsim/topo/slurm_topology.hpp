#pragma once
// A cluster described by Slurm's topology.conf or topology.yaml; spec `slurm-topology:FILE`.
//
// topology.conf(5): lines `SwitchName=NAME [Switches=HOSTLIST] [Nodes=HOSTLIST] [LinkSpeed=N]`
// (topology/tree) or `BlockName=NAME Nodes=HOSTLIST` and `BlockSizes=N,...` (topology/block);
// "Parameter names are case insensitive. Any text following a "#" in the configuration file is
// treated as a comment through the end of that line." topology.yaml(5) (Slurm 24.11+): a list of
// topologies, each `topology: NAME`, `cluster_default: BOOL` and one of `tree: {switches: [...]}`
// (`switch`, `children`, `nodes`) or `block: {block_sizes: [...], blocks: [...]}` (`block`,
// `nodes`); the one read is the first with cluster_default true, or the only one.
//
// The machine: compute nodes get ids in the order they first appear in the file, and keep their
// Slurm names (node_name). Switches are the routers, vertex node_count() + switch index, in file
// order. Blocks are leaf switches. Where the file has several top-level switches (a block file
// of more than one block, or a tree file whose switches are not all connected) an implicit top
// switch joins them, last in switch order. Slurm's own rule for that case is stricter: "Jobs can
// only span nodes connected by the same switch fabric, even if there are available idle nodes in
// other areas of the cluster" (topology.conf(5)); an allocator that follows Slurm's tree plugin
// should not span implicit_top() in a tree file; the network model routes through it so that every
// pair has a route.
//
// The file's name picks the reader: .yaml or .yml is topology.yaml, anything else topology.conf.
// A topology.yaml with several topologies and none marked cluster_default is refused, and so is
// a chosen `flat: true` topology (no switches); only the chosen topology is read in full.
//
// Links: per node i, injection 2i (node -> its leaf) and ejection 2i + 1; then per switch s with
// a parent, in switch order, `up` (s -> parent) and `down` (parent -> s). Every capacity is 1:
// LinkSpeed is read and kept (SlurmSwitch::link_speed) but not used, as in Slurm: "The units used
// are arbitrary and this information is currently not used."
//
// Routing (one path): up from the source's leaf to the lowest switch above both leaves, then
// down to the destination's leaf. Groups: the leaf's parent switch as written in the file, or
// the leaf itself when the file gives it no parent (so each block is its own group).
#include <memory>
#include <string>
#include <vector>

#include "allocsim/topo/graph_machine.hpp"

namespace allocsim {

/// One switch (or block) of a Slurm topology file.
struct SlurmSwitch {
  std::string name;
  /// Slurm's switch level: 0 for a leaf (a switch with nodes), else 1 + the highest level of
  /// its children.
  int level = 0;
  int parent = -1;            ///< switch index of the parent; -1 for the top
  std::vector<int> children;  ///< switch indexes, in the order written
  std::vector<NodeId> nodes;  ///< compute nodes of a leaf, in the order written
  double link_speed = 0;      ///< LinkSpeed= (0 when not given; not used for capacities)
  int line = 0;               ///< where the file defines it (0 for the implicit top)
  bool implicit = false;      ///< the implicit top switch joining several top-level switches
};

/// A Slurm topology file as a graph machine (tree of switches, see the file comment).
class SlurmTopology final : public GraphMachine {
 public:
  /// Which of Slurm's forms the file used.
  enum class Form { conf_tree, conf_block, yaml_tree, yaml_block };

  /// Builds from parsed switches (already checked: names unique, children known, a tree).
  /// Used by the readers in slurm_topology_*.cpp; make_slurm_topology is the entry point.
  SlurmTopology(std::string path, Form form, std::vector<SlurmSwitch> switches,
                std::vector<std::string> node_names, std::vector<int> block_sizes);

  std::string spec() const override { return "slurm-topology:" + path_; }
  std::string kind_name() const override { return "slurm-topology"; }
  std::string group_word() const override { return "switch group"; }
  std::string node_name(NodeId node) const override { return node_names_[node]; }
  bool names_its_nodes() const override { return true; }
  int distance(NodeId a, NodeId b) const override;
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView loads = {}) const override;
  std::string routing_description() const override;
  /// Up to the lowest common switch of the two leaves, then down.
  bool routes_by_router_pair() const override { return true; }

  Form form() const { return form_; }
  bool block_form() const { return form_ == Form::conf_block || form_ == Form::yaml_block; }
  /// Every switch, implicit top included; index s is router vertex node_count() + s.
  const std::vector<SlurmSwitch>& switches() const { return switches_; }
  VertexId switch_vertex(int s) const { return node_count_ + s; }
  /// The top switch (index): the only top-level switch of the file, or the implicit top.
  int top_switch() const { return top_; }
  /// The implicit top switch's index, or -1 when the file has one top-level switch.
  int implicit_top() const { return switches_[top_].implicit ? top_ : -1; }
  /// The leaf switch (index) of `node`.
  int leaf_of(NodeId node) const { return router_of(node) - node_count_; }
  /// Block form: Slurm's block_sizes / BlockSizes in nodes, the base block size first. As Slurm's
  /// topology/block (block_record.c): when the file gives none, the first block's node count
  /// times 1, 2, 4 and 8; levels after the first one of at least as many base blocks as the file
  /// has blocks are dropped. Empty for a tree.
  const std::vector<int>& block_sizes() const { return block_sizes_; }
  /// Block form: the block of `node`, 0 .. block count − 1 in file order; -1 for a tree.
  int block_of(NodeId node) const { return block_form() ? leaf_of(node) : -1; }
  /// The node named `name`, or -1.
  NodeId node_id(const std::string& name) const;

  /// At most this many switch levels (implicit top included): routes use fixed-size arrays.
  static constexpr int max_levels = 16;

 private:
  std::string path_;
  Form form_;
  std::vector<SlurmSwitch> switches_;
  std::vector<std::string> node_names_;
  std::vector<int> block_sizes_;
  std::vector<int> depth_;   ///< per switch: links from the top switch
  std::vector<int> parent_;  ///< per switch: switches_[s].parent, packed for routing
  std::vector<LinkId> up_;   ///< per switch: its up link (-1 for the top); down is up + 1
  int top_ = 0;
};

/// Reads `path` (topology.yaml when its name ends in .yaml or .yml, else topology.conf); throws
/// InputError "PATH:LINE: what was wrong; expected ...".
std::shared_ptr<const GraphMachine> make_slurm_topology(const std::string& path);

}  // namespace allocsim
