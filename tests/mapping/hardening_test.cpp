// Issue 25 (mapping): task-graph size guards, METIS's balance, totals that overflow, the METIS
// file format's rules. Each test failed on the main branch before the fix (see the comments).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "allocsim/mapping/graph_io.hpp"
#include "allocsim/mapping/job_pattern.hpp"
#include "allocsim/mapping/partition.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "mapping/test_files.hpp"

using namespace allocsim;
using namespace allocsim::mapping;

namespace {

using allocsim::testing::error_of;
using allocsim::testing::TempFile;

#define EXPECT_ERROR(call, text)                                                        \
  do {                                                                                  \
    const std::string message = error_of([&] { call; });                                \
    EXPECT_NE(message.find(text), std::string::npos) << "message: '" << message << "'"; \
  } while (false)

}  // namespace

// main: ring:100000000 grew to 4 GB and died of bad_alloc; the 17-byte file declaring 10^8
// vertices took 800 MB before failing; /dev/zero was read up to 4 GiB; mesh2d:9999999x9999999
// overflowed an int.
TEST(TaskGraphSizeGuards, RefusedWithAnEstimateBeforeMemory) {
  EXPECT_ERROR(make_pattern("ring:100000000"),
               "ring: 100000000 tasks and 100000000 edges would take about 14.4 GB of memory; "
               "task graphs are limited to 10000000 tasks and 30000000 edges");
  EXPECT_ERROR(make_pattern("mesh2d:9999999x9999999"), "mesh2d: 99999980000001 tasks");
  EXPECT_ERROR(make_pattern("mesh3d:1000x1000x1000"), "mesh3d: 1000000000 tasks");
  EXPECT_ERROR(make_pattern("alltoall:20000"), "alltoall: 20000 tasks and 199990000 edges");
  EXPECT_ERROR(make_pattern("random:10000000,degree=100"), "random: 10000000 tasks");
  EXPECT_ERROR(make_pattern("leanmd:cells=9999999x9999999x9999999"), "leanmd: ");
  EXPECT_ERROR(make_pattern("ring:4294967296"), "expected an integer in [1, 2147483647]");
  EXPECT_ERROR(job_pattern_graph("ring", 2000000000), "job pattern 'ring': 2000000000 tasks");
  TempFile header("huge.graph", "% 10^8 vertices in 71 bytes\n100000000 1\n2\n1\n");
  EXPECT_ERROR(read_metis_graph(header.path()),
               "huge.graph:2: header: 100000000 tasks and 1 edges would take about");
  TempFile lines("lines.graph", "1000000 0\n\n\n");
  EXPECT_ERROR(read_metis_graph(lines.path()),
               "lines.graph:1: header declares 1000000 vertices but only 2 lines follow");
  TempFile edges("edges.graph", "2 20000000\n2\n1\n");
  EXPECT_ERROR(read_metis_graph(edges.path()), "edges.graph:1: header declares 20000000 edges");
  TempFile matrix("huge.mtx",
                  "%%MatrixMarket matrix coordinate real general\n"
                  "100000000 100000000 1\n1 2 3\n");
  EXPECT_ERROR(read_matrix_market(matrix.path()), "huge.mtx:2: size line: 100000000 tasks");
  if (std::filesystem::exists("/dev/zero")) {
    EXPECT_ERROR(read_task_graph("/dev/zero"),
                 "'/dev/zero': binary data (a NUL byte at text byte 0); expected a text task "
                 "graph");
  }
}

// main: ring:3 on two processors put all three tasks in one METIS group and reported hop-bytes
// 0 and hops per byte 0; ring:100 on 64 left groups of 3 tasks beside groups of 1.
TEST(PartitionBalance, MetisGroupsAreCheckedAndRepaired) {
  for (const auto& [pattern, parts] : std::vector<std::pair<std::string, int>>{
           {"ring:3", 2}, {"ring:100", 64}, {"ring:70", 64}, {"mesh2d:10x10", 64}, {"ring:7", 4}}) {
    const auto graph = make_pattern(pattern);
    const auto partition = partition_metis(graph, parts, 1);
    std::vector<int> size(parts, 0);
    for (const int g : partition.group_of) ++size[g];
    // Unit loads, k-way: the bound is ⌈tasks / parts⌉, the best any partition can do.
    const int best = (graph.size() + parts - 1) / parts;
    EXPECT_EQ(*std::max_element(size.begin(), size.end()), best) << pattern << " " << parts;
    EXPECT_DOUBLE_EQ(partition.max_load, best);
    // Recursive bisection: within its compounded bound, never every task in one group.
    const auto bisection = partition_metis(graph, parts, 1, true);
    EXPECT_LE(bisection.max_load, balance_bound(graph, parts, true) + 1e-9);
    EXPECT_LT(bisection.max_load, graph.size());
  }
  const auto topology = Topology::parse("flat:2");
  const std::vector<NodeId> nodes{0, 1};
  const auto outcome = map_graph(make_pattern("ring:3"), topology, nodes, "topolb", 1);
  EXPECT_GT(outcome.rebalanced_tasks, 0);
  EXPECT_DOUBLE_EQ(outcome.hop_bytes.hop_bytes, 2048);  // two of the three edges cross
  EXPECT_DOUBLE_EQ(outcome.hop_bytes.hops_per_byte(), 1);
}

// The agarwal-mapping study's partitions are balanced as METIS made them: none is repaired,
// so its results do not change.
TEST(PartitionBalance, LeanMDPartitionsNeedNoRepair) {
  for (const int p : {18, 64, 128, 256, 512, 1024})
    for (const std::string proxies : {"cells", "computes"}) {
      const auto graph =
          make_pattern("leanmd:cells=6x6x6,procs=" + std::to_string(p) + ",proxies=" + proxies);
      for (const bool recursive : {false, true}) {
        // The seed of the study's group_graph (and of map_graph with seed 1).
        const auto partition = partition_metis(graph, p, mix_seed(1, 0x6d65746973), recursive);
        EXPECT_EQ(partition.rebalanced_tasks, 0) << p << proxies << recursive;
      }
    }
}

// A task heavier than the mean: the bound allows one task's load above the mean.
TEST(PartitionBalance, BoundAllowsIndivisibleTasks) {
  const auto graph = TaskGraph::from_edges(4, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}}, {10, 1, 1, 1});
  EXPECT_DOUBLE_EQ(balance_bound(graph, 2, false), 6.5 + 5);
  const auto partition = partition_metis(graph, 2, 1);
  EXPECT_LE(partition.max_load, balance_bound(graph, 2, false));
}

// main: bytes=1e308 printed hop-bytes `null`, hops per byte `null` (text: inf and -nan) and
// exited 0; a Matrix Market value of 1e300 was accepted the same way.
TEST(OverflowingTotals, BytesAreBoundedWhereTheyEnter) {
  EXPECT_ERROR(make_pattern("ring:4,bytes=1e308"),
               "pattern 'ring': parameter 'bytes' has value '1e308', expected a finite number "
               "in (0, 1e+18]");
  EXPECT_ERROR(make_pattern("mesh2d:4x4,bytes=1e300"), "parameter 'bytes'");
  TempFile matrix("big.mtx",
                  "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1e300\n2 1 1\n");
  EXPECT_ERROR(read_matrix_market(matrix.path()),
               "big.mtx:3: value 1e300 is beyond +-1e18 (bytes of one edge)");
  TempFile weight("big.graph", "2 1 001\n2 9223372036854775807\n1 9223372036854775807\n");
  EXPECT_ERROR(read_metis_graph(weight.path()),
               "big.graph:2: edge weight 9223372036854775807 must be a positive integer");
  TempFile load("load.graph", "2 1 010\n9223372036854775807 2\n1 1\n");
  EXPECT_ERROR(read_metis_graph(load.path()), "load.graph:2: vertex weight");
  EXPECT_ERROR(TaskGraph::from_edges(2, {{0, 1, 1e300}}), "edge bytes must be in [0, 1e18]");
  EXPECT_ERROR(TaskGraph::from_edges(2, {{0, 1, 1}}, {1, INFINITY}), "loads must be in");
  // At the largest bytes every total is finite and hops per byte is right.
  const auto graph = make_pattern("mesh2d:64x64,bytes=1e18");
  const auto topology = Topology::parse("mesh:64x64");
  std::vector<NodeId> nodes(4096);
  for (NodeId node = 0; node < 4096; ++node) nodes[node] = node;
  const auto outcome = map_graph(graph, topology, nodes, "identity", 1);
  EXPECT_TRUE(std::isfinite(outcome.hop_bytes.hop_bytes));
  EXPECT_DOUBLE_EQ(outcome.hop_bytes.hops_per_byte(), 1);
  EXPECT_TRUE(std::isfinite(outcome.link_load.mean));
}

// main: an edge listed twice at one end was accepted ("2 1\n2 2\n\n" read as one edge 1-2) or
// called "a different weight" (also when listed twice at both ends); a missing reverse edge
// said "listed only at one end" without a line; weight 0 was accepted and the edge dropped.
TEST(MetisFormat, EachEdgeOnceAtEachEndWithEqualWeights) {
  TempFile one_end("dup1.graph", "2 1\n2 2\n1\n");
  EXPECT_ERROR(read_metis_graph(one_end.path()),
               "dup1.graph:2: vertex 1 lists neighbour 2 twice (a METIS file lists each edge "
               "once at each of its two ends)");
  TempFile accepted("dup0.graph", "2 1\n2 2\n\n");  // main: read as one edge 1-2
  EXPECT_ERROR(read_metis_graph(accepted.path()), "dup0.graph:2: vertex 1 lists neighbour 2 twice");
  TempFile both_ends("dup2.graph", "2 2\n2 2\n1 1\n");
  EXPECT_ERROR(read_metis_graph(both_ends.path()),
               "dup2.graph:2: vertex 1 lists neighbour 2 twice");
  TempFile weighted("dup3.graph", "2 1 001\n2 5 2 5\n1 5\n");
  EXPECT_ERROR(read_metis_graph(weighted.path()), "dup3.graph:2: vertex 1 lists neighbour 2 twice");
  TempFile missing("missing.graph", "3 2\n2 3\n1\n\n");
  EXPECT_ERROR(read_metis_graph(missing.path()),
               "missing.graph:2: edge 1-3 is listed at vertex 1 but not at vertex 3");
  TempFile unequal("unequal.graph", "3 2 001\n2 4\n1 4 3 7\n2 6\n");
  EXPECT_ERROR(read_metis_graph(unequal.path()),
               "unequal.graph:4: edge 3-2 has weight 6 here but weight 7 at vertex 2 (line 3); "
               "both ends of an edge must list the same weight");
  TempFile loop("loop.graph", "2 1\n1 2\n1\n");
  EXPECT_ERROR(read_metis_graph(loop.path()), "loop.graph:2: self loop on vertex 1");
  TempFile zero("zero.graph", "2 1 001\n2 0\n1 0\n");
  EXPECT_ERROR(read_metis_graph(zero.path()), "zero.graph:2: edge weight 0 must be a positive");
  TempFile negative("size.graph", "2 1 100\n-1 2\n1 1\n");
  EXPECT_ERROR(read_metis_graph(negative.path()), "size.graph:2: vertex size -1 must be >= 0");
  TempFile extra("extra.graph", "2 1\n2\n1\n2\n");
  EXPECT_ERROR(read_metis_graph(extra.path()), "extra.graph:4: more vertex lines");
  TempFile count("count.graph", "3 1\n2 3\n1 3\n1 2\n");
  EXPECT_ERROR(read_metis_graph(count.path()),
               "count.graph:3: more neighbours than the header's 1");
  // A valid file still reads, with its weights.
  TempFile ok("ok.graph", "3 2 011\n1 2 4\n2 1 4 3 7\n3 2 7\n");
  const auto graph = read_metis_graph(ok.path());
  EXPECT_EQ(graph.edge_count(), 2);
  EXPECT_DOUBLE_EQ(graph.total_bytes(), 11);
  EXPECT_DOUBLE_EQ(graph.load(2), 3);
}
