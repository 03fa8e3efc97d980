// Every allocator registry entry on a graph machine (issue 26 item 6): it either allocates valid,
// distinct nodes of the tiny tree (tests/testing/tiny_graph.hpp: 4 nodes, two leaves) or refuses
// the machine with an InputError that names the allocator and says it works on grids.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/util/error.hpp"
#include "testing/tiny_graph.hpp"

namespace allocsim {
namespace {

TEST(AllocatorsOnGraphs, EveryEntryAllocatesOrRefusesByName) {
  const Topology tree = allocsim::testing::tiny_tree();
  int allocating = 0, refusing = 0;
  for (const auto& entry : allocator_registry().entries()) {
    SCOPED_TRACE("allocator " + entry.name);
    std::unique_ptr<Allocator> allocator;
    try {
      allocator = make_allocator(entry.name, tree);
    } catch (const InputError& refusal) {
      const std::string message = refusal.what();
      EXPECT_NE(message.find("'" + entry.name + "'"), std::string::npos) << message;
      EXPECT_NE(message.find("grids"), std::string::npos) << message;
      EXPECT_NE(message.find("tinytree"), std::string::npos) << message;  // the machine's kind
      ++refusing;
      continue;
    }
    // Two jobs of 2 and 1 nodes on the empty 4-node machine, committed one after the other.
    std::vector<char> busy(4, 0);
    Rng rng(7);
    int free_count = 4;
    for (int procs : {2, 1}) {
      Job job;
      job.id = procs;
      job.procs = procs;
      job.runtime = job.estimate = 10;
      const MachineView view(tree, busy, free_count, rng);
      const std::optional<Allocation> allocation = allocator->allocate(job, view);
      ASSERT_TRUE(allocation.has_value());
      const std::set<NodeId> distinct(allocation->nodes.begin(), allocation->nodes.end());
      EXPECT_EQ(distinct.size(), allocation->nodes.size());
      EXPECT_GE(static_cast<int>(allocation->nodes.size()), procs);
      for (NodeId node : allocation->nodes) {
        ASSERT_GE(node, 0);
        ASSERT_LT(node, 4);
        EXPECT_FALSE(busy[node]);
        busy[node] = 1;
        --free_count;
      }
      allocator->commit(*allocation);
    }
    ++allocating;
  }
  // random, sortedfreelist and flat use node ids only: they must work on graphs.
  for (const char* name : {"random", "sortedfreelist", "flat"})
    EXPECT_NO_THROW(make_allocator(name, tree)) << name;
  EXPECT_GT(allocating, 0);
  EXPECT_GT(refusing, 0);
}

}  // namespace
}  // namespace allocsim
