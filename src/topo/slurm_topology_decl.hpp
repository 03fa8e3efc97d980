#pragma once
// What the topology.conf and topology.yaml readers hand to the shared checks and builder
// (slurm_topology.cpp): switches as written, names not yet resolved.
#include <string>
#include <vector>

#include "allocsim/topo/slurm_topology.hpp"

namespace allocsim::slurm_topology_detail {

/// One SwitchName= line / BlockName= line / `- switch:` or `- block:` entry.
struct SwitchDecl {
  std::string name;
  int line = 0;
  bool has_switches = false;
  bool has_nodes = false;
  std::vector<std::string> switches;  ///< child switch names, expanded
  std::vector<std::string> nodes;     ///< node names, expanded
  double link_speed = 0;
};

/// A whole file as read.
struct Declared {
  std::string path;
  SlurmTopology::Form form = SlurmTopology::Form::conf_tree;
  std::vector<SwitchDecl> switches;
  std::vector<int> block_sizes;
  int block_sizes_line = 0;
  int last_line = 0;  ///< lines in the file (for errors about the whole file)
};

/// "PATH:LINE: " + what.
[[noreturn]] void fail(const std::string& path, int line, const std::string& what);

/// Checks the declared switches (see make_slurm_topology's errors) and builds the machine.
std::shared_ptr<const SlurmTopology> build(Declared declared);

Declared read_conf(const std::string& path, const std::string& text);
Declared read_yaml(const std::string& path, const std::string& text);

}  // namespace allocsim::slurm_topology_detail
