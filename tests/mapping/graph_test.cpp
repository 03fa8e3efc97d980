// Task graphs: generator sizes, readers (and their file:line errors), coalescing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "allocsim/mapping/graph_io.hpp"
#include "allocsim/mapping/partition.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/util/error.hpp"
#include "mapping/test_files.hpp"

using namespace allocsim;
using namespace allocsim::mapping;

namespace {

using allocsim::testing::error_of;
using allocsim::testing::TempFile;

}  // namespace

TEST(Patterns, StencilSizes) {
  const auto mesh = make_pattern("mesh2d:8x8");
  EXPECT_EQ(mesh.size(), 64);
  EXPECT_EQ(mesh.edge_count(), 2 * 8 * 7);
  EXPECT_DOUBLE_EQ(mesh.total_bytes(), 112 * 1024.0);
  EXPECT_EQ(make_pattern("mesh2d:8x8,wrap=1").edge_count(), 128);
  EXPECT_EQ(make_pattern("mesh2d:5x3,bytes=2").edge_count(), 4 * 3 + 5 * 2);
  EXPECT_DOUBLE_EQ(make_pattern("mesh2d:5x3,bytes=2").total_bytes(), 44);
  EXPECT_EQ(make_pattern("mesh3d:4x4x4").edge_count(), 3 * 16 * 3);
  EXPECT_EQ(make_pattern("mesh3d:4x4x4,wrap=1").edge_count(), 3 * 64);
  EXPECT_EQ(make_pattern("ring:16").edge_count(), 16);
  EXPECT_EQ(make_pattern("alltoall:10").edge_count(), 45);
  const auto random = make_pattern("random:100,degree=6,seed=3");
  EXPECT_EQ(random.size(), 100);
  EXPECT_EQ(random.edge_count(), 300);
  EXPECT_EQ(make_pattern("random:100,degree=6,seed=3").targets(), random.targets());
  EXPECT_NE(make_pattern("random:100,degree=6,seed=4").targets(), random.targets());
  // Task ids number the first dimension fastest: task 1 is (1,0), task 8 is (0,1).
  const auto first = mesh.neighbours(0);
  EXPECT_EQ(std::vector<TaskId>(first.begin(), first.end()), (std::vector<TaskId>{1, 8}));
}

TEST(Patterns, LeanMDCounts) {
  const auto graph = make_pattern("leanmd:cells=6x6x6,procs=512");
  EXPECT_EQ(graph.size(), 216 + 3024 + 512);
  int cells = 0, pair_computes = 0, self_computes = 0, proxies = 0;
  for (TaskId t = 0; t < graph.size(); ++t) {
    cells += graph.load(t) == 2;
    pair_computes += graph.load(t) == 10;
    self_computes += graph.load(t) == 5;
    proxies += graph.load(t) == 1;
  }
  EXPECT_EQ(cells, 216);
  EXPECT_EQ(pair_computes, 216 * 13);
  EXPECT_EQ(self_computes, 216);
  EXPECT_EQ(proxies, 512);
  // Every cell has one proxy edge; every pair compute two, self computes one: all bytes.
  EXPECT_DOUBLE_EQ(graph.total_bytes(), 1024.0 * (216 + 216 * 13 * 2 + 216));
  // Object counts do not depend on the processor count, proxies aside.
  EXPECT_EQ(make_pattern("leanmd:cells=6x6x6,procs=18").size(), 3240 + 18);
  // A 2x2x2 box repeats neighbour pairs; each unordered pair is kept once: 8 self + 28 pairs.
  EXPECT_EQ(make_pattern("leanmd:cells=2x2x2,procs=4").size(), 8 + 8 + 28 + 4);
}

TEST(Patterns, LeanMDProxiesOnComputes) {
  // One processor: one proxy serves every compute and receives each cell once.
  const auto one = make_pattern("leanmd:cells=6x6x6,procs=1,proxies=computes");
  ASSERT_EQ(one.size(), 3240 + 1);
  EXPECT_EQ(one.edge_count(), 3024 + 216);
  EXPECT_DOUBLE_EQ(one.total_bytes(), 1024.0 * (216 + 216 * 13 * 2 + 216));
  // 18 processors: compute i talks only to proxy i mod 18; cells talk only to proxies.
  const auto graph = make_pattern("leanmd:cells=6x6x6,procs=18,proxies=computes");
  ASSERT_EQ(graph.size(), 3240 + 18);
  for (TaskId compute = 216; compute < 3240; ++compute) {
    const auto neighbours = graph.neighbours(compute);
    ASSERT_EQ(neighbours.size(), 1u);
    EXPECT_EQ(neighbours[0], 3240 + (compute - 216) % 18);
  }
  for (TaskId cell = 0; cell < 216; ++cell) {
    const auto neighbours = graph.neighbours(cell);
    EXPECT_GE(neighbours.size(), 1u);
    EXPECT_LE(neighbours.size(), 18u);
    for (const TaskId proxy : neighbours) EXPECT_GE(proxy, 3240);
  }
}

TEST(Patterns, Errors) {
  EXPECT_NE(error_of([] { make_pattern("mesh2d:8"); }).find("2 factors"), std::string::npos);
  EXPECT_NE(error_of([] { make_pattern("mesh2d:8x8,bites=3"); }).find("did you mean 'bytes'"),
            std::string::npos);
  EXPECT_NE(error_of([] { make_pattern("mesh4d:8"); }).find("unknown pattern"), std::string::npos);
  EXPECT_NE(error_of([] { make_pattern("random:10,degree=10"); }).find("degree"),
            std::string::npos);
  EXPECT_EQ(normalize_pattern_spec("ring:8,bytes=3"), "ring:size=8,bytes=3");
  EXPECT_EQ(normalize_pattern_spec("leanmd:cells=2x2x2"), "leanmd:cells=2x2x2");
}

TEST(GraphIo, MetisFile) {
  // Weighted triangle plus an isolated vertex: 1-2 (5), 1-3 (7), 2-3 (1).
  TempFile file("ok.graph", "% comment\n4 3 011\n3 2 5 3 7\n1 1 5 3 1\n2 1 7 2 1\n4\n");
  const auto graph = read_metis_graph(file.path());
  EXPECT_EQ(graph.size(), 4);
  EXPECT_EQ(graph.edge_count(), 3);
  EXPECT_DOUBLE_EQ(graph.total_bytes(), 13);
  EXPECT_DOUBLE_EQ(graph.load(0), 3);
  EXPECT_DOUBLE_EQ(graph.communication(0), 12);
  EXPECT_EQ(graph.degree(3), 0);
  // Unweighted form.
  TempFile plain("plain.graph", "3 2\n2\n1 3\n2\n");
  EXPECT_EQ(read_metis_graph(plain.path()).edge_count(), 2);
}

TEST(GraphIo, MetisErrorsNameFileAndLine) {
  TempFile range("range.graph", "3 2\n2\n1 4\n2\n");
  EXPECT_NE(error_of([&] { read_metis_graph(range.path()); }).find("range.graph:3: neighbour 4"),
            std::string::npos);
  TempFile word("word.graph", "3 2\n2\n1 x\n2\n");
  EXPECT_NE(error_of([&] { read_metis_graph(word.path()); }).find("word.graph:3:"),
            std::string::npos);
  TempFile weight("weight.graph", "2 1 001\n2 4\n1 5\n");
  EXPECT_NE(error_of([&] { read_metis_graph(weight.path()); }).find("weight.graph:3: edge 2-1"),
            std::string::npos);
  TempFile count("count.graph", "3 3\n2\n1 3\n2\n");
  EXPECT_NE(error_of([&] { read_metis_graph(count.path()); }).find("count.graph:1: header says 3"),
            std::string::npos);
  TempFile header("header.graph", "3\n");
  EXPECT_NE(error_of([&] { read_metis_graph(header.path()); }).find("header.graph:1:"),
            std::string::npos);
  TempFile one_end("oneend.graph", "3 1\n2\n\n\n");
  EXPECT_NE(error_of([&] {
              read_metis_graph(one_end.path());
            }).find("oneend.graph:2: edge 1-2 is listed at vertex 1 but not at vertex 2"),
            std::string::npos);
}

TEST(GraphIo, MatrixMarket) {
  TempFile sym("sym.mtx",
               "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 4\n1 1 9\n2 1 -2.5\n"
               "3 2 1\n3 1 4\n");
  const auto graph = read_task_graph(sym.path());
  EXPECT_EQ(graph.size(), 3);
  EXPECT_EQ(graph.edge_count(), 3);
  EXPECT_DOUBLE_EQ(graph.total_bytes(), 7.5);
  TempFile general("gen.mtx",
                   "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n");
  EXPECT_DOUBLE_EQ(read_matrix_market(general.path()).total_bytes(), 2);
  TempFile bad("bad.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 3 1\n");
  EXPECT_NE(error_of([&] { read_matrix_market(bad.path()); }).find("bad.mtx:3: entry outside"),
            std::string::npos);
  TempFile banner("banner.mtx", "%%MatrixMarket matrix array real general\n2 2\n");
  EXPECT_NE(error_of([&] { read_matrix_market(banner.path()); }).find("banner.mtx:1:"),
            std::string::npos);
  TempFile short_file("short.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n");
  EXPECT_NE(error_of([&] { read_matrix_market(short_file.path()); }).find("short.mtx:2:"),
            std::string::npos);
}

TEST(GraphIo, MetisRoundTrip) {
  const auto graph = make_pattern("random:50,degree=4,seed=2,bytes=3");
  TempFile file("round.graph", "");
  write_metis_graph(graph, file.path());
  const auto back = read_metis_graph(file.path());
  EXPECT_EQ(back.targets(), graph.targets());
  EXPECT_EQ(back.all_edge_bytes(), graph.all_edge_bytes());
}

TEST(Coalesce, KeepsAllBytes) {
  const auto graph = make_pattern("mesh2d:4x4");
  Partition halves;
  halves.parts = 2;
  for (TaskId t = 0; t < 16; ++t) halves.group_of.push_back(t < 8 ? 0 : 1);
  const auto groups = coalesce(graph, halves);
  EXPECT_EQ(groups.size(), 2);
  EXPECT_EQ(groups.edge_count(), 1);
  EXPECT_DOUBLE_EQ(groups.total_bytes(), graph.total_bytes());
  EXPECT_DOUBLE_EQ(groups.communication(0), 4 * 1024.0);  // four edges cross the cut
  EXPECT_DOUBLE_EQ(groups.load(1), 8);
}
