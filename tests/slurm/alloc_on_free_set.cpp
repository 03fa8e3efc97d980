// Asks one allocator for the nodes of a job on a given set of busy nodes: the node-selection
// half of the real-Slurm comparison (slurm_compare.py, issue 28 section 3), which puts the same
// question to allocsim's `slurm-tree` that Slurm's topology/tree answered at each job start.
//
//   alloc_on_free_set MACHINE ALLOCATOR < QUERIES
//
// Each query line is `JOB K [BUSY...]`: a job id, its node count and the names of the nodes busy
// at its start (a Slurm topology file's names on `slurm-topology:FILE`, else n<id>). Each answer
// line is `JOB NODE...`, the chosen names in increasing id order, or `JOB -` when the allocator
// finds no place. A bad line is an error naming its line number and field.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/workload/job.hpp"

namespace {

std::string name_of(const allocsim::Topology& topology, allocsim::NodeId node) {
  return topology.graph() != nullptr ? topology.graph()->node_name(node)
                                     : std::string(1, 'n').append(std::to_string(node));
}

int run(const std::string& machine, const std::string& spec) {
  const allocsim::Topology topology = allocsim::Topology::parse(machine);
  const auto allocator = allocsim::make_allocator(spec, topology);
  std::map<std::string, allocsim::NodeId> ids;
  for (allocsim::NodeId node = 0; node < topology.node_count(); ++node) {
    ids[name_of(topology, node)] = node;
  }
  allocsim::Rng rng(1);
  std::string line;
  for (int number = 1; std::getline(std::cin, line); ++number) {
    std::istringstream fields(line);
    std::string job;
    int procs = 0;
    if (!(fields >> job >> procs) || procs <= 0) {
      std::cerr << "line " << number << ": expected `JOB K [BUSY...]` with K > 0\n";
      return 1;
    }
    std::vector<char> busy(static_cast<std::size_t>(topology.node_count()), 0);
    int free_count = topology.node_count();
    for (std::string name; fields >> name;) {
      const auto it = ids.find(name);
      if (it == ids.end()) {
        std::cerr << "line " << number << ": busy node '" << name << "' is not in " << machine
                  << "\n";
        return 1;
      }
      if (busy[static_cast<std::size_t>(it->second)] == 0) {
        busy[static_cast<std::size_t>(it->second)] = 1;
        --free_count;
      }
    }
    allocsim::Job request;
    request.id = number;
    request.procs = procs;
    const allocsim::MachineView view(topology, busy, free_count, rng, nullptr, NAN);
    const auto answer = allocator->allocate(request, view);
    std::cout << job;
    if (!answer) {
      std::cout << " -";
    } else {
      std::vector<allocsim::NodeId> nodes = answer->nodes;
      std::sort(nodes.begin(), nodes.end());
      for (const allocsim::NodeId node : nodes) std::cout << ' ' << name_of(topology, node);
    }
    std::cout << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: alloc_on_free_set MACHINE ALLOCATOR < QUERIES\n";
    return 2;
  }
  try {
    return run(argv[1], argv[2]);
  } catch (const std::exception& error) {
    std::cerr << "alloc_on_free_set: " << error.what() << "\n";
    return 1;
  }
}
