// Situation/decision recorder: what each decision allocator would have chosen at each placement.
#include <gtest/gtest.h>

#include "allocsim/geom/mc.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/metrics/locality.hpp"
#include "allocsim/sim/decisions.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

/// A hand-driven machine: places and releases jobs through the recorder like the Simulation.
struct Driver {
  Topology topology = Topology::parse("mesh:4x4");
  std::vector<char> busy = std::vector<char>(16, 0);
  int free_count = 16;
  Rng rng{3};
  DecisionRecorder recorder;

  explicit Driver(const std::vector<std::string>& specs, std::uint64_t seed = 9)
      : recorder(specs, topology, seed) {}

  void place(int procs, const std::vector<NodeId>& nodes) {
    Job job;
    job.procs = procs;
    Allocation chosen;
    chosen.nodes = nodes;
    recorder.before_commit(job, MachineView(topology, busy, free_count, rng), chosen);
    for (const NodeId node : nodes) busy[node] = 1;
    free_count -= static_cast<int>(nodes.size());
  }
  void release(const std::vector<NodeId>& nodes) {
    Allocation allocation;
    allocation.nodes = nodes;
    for (const NodeId node : nodes) busy[node] = 0;
    free_count += static_cast<int>(nodes.size());
    recorder.after_release(allocation);
  }
  /// Sum of pairwise distances of a geom solver's answer on the current free processors.
  std::int64_t solver_sum(geom::Selection (*solver)(const geom::PointSet&, int, const TimeLimit*),
                          int k) const {
    geom::PointSet points(2);
    std::vector<NodeId> free;
    for (NodeId node = 0; node < 16; ++node)
      if (!busy[node]) {
        points.add(topology.coords(node));
        free.push_back(node);
      }
    std::vector<NodeId> nodes;
    for (const int i : solver(points, k, nullptr).indices) nodes.push_back(free[i]);
    return pairwise_hop_sum(topology, nodes);
  }
};

TEST(DecisionRecorder, RecordsEachDecisionAllocatorsAnswer) {
  Driver driver({"mm", "mc1x1", "submesh"});
  std::vector<double> mm_sums, mc_sums;
  // 1: empty machine, a 2x2 square is placed.
  mm_sums.push_back(static_cast<double>(driver.solver_sum(geom::manhattan_median, 4)));
  mc_sums.push_back(static_cast<double>(driver.solver_sum(geom::mc1x1, 4)));
  driver.place(4, {0, 1, 4, 5});
  // 2: a scattered placement by the situation allocator.
  mm_sums.push_back(static_cast<double>(driver.solver_sum(geom::manhattan_median, 4)));
  mc_sums.push_back(static_cast<double>(driver.solver_sum(geom::mc1x1, 4)));
  driver.place(4, {2, 7, 10, 13});
  // 3: no free 2x2 square is left: submesh refuses, the others answer.
  mm_sums.push_back(static_cast<double>(driver.solver_sum(geom::manhattan_median, 4)));
  mc_sums.push_back(static_cast<double>(driver.solver_sum(geom::mc1x1, 4)));
  driver.place(4, {3, 6, 8, 9});
  // 4: the first job ends (forwarded to release()), so its square is free again.
  driver.release({0, 1, 4, 5});
  mm_sums.push_back(static_cast<double>(driver.solver_sum(geom::manhattan_median, 2)));
  mc_sums.push_back(static_cast<double>(driver.solver_sum(geom::mc1x1, 2)));
  driver.place(2, {11, 15});

  const auto rows = driver.recorder.rows();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].decision, "mm");
  EXPECT_EQ(rows[0].jobs, 4);
  EXPECT_EQ(rows[0].refusals, 0);
  EXPECT_DOUBLE_EQ(rows[0].mean_pairwise_sum,
                   (mm_sums[0] + mm_sums[1] + mm_sums[2] + mm_sums[3]) / 4);
  EXPECT_DOUBLE_EQ(rows[1].mean_pairwise_sum,
                   (mc_sums[0] + mc_sums[1] + mc_sums[2] + mc_sums[3]) / 4);
  // On the empty machine MC1x1 finds a 2x2 square (8); MM's best centre yields a T (9).
  EXPECT_DOUBLE_EQ(mc_sums[0], 8);
  EXPECT_DOUBLE_EQ(mm_sums[0], 9);
  // Averages per pair: sums over 6 pairs for 4 processors, over 1 pair for 2.
  EXPECT_DOUBLE_EQ(rows[0].mean_avg_pairwise,
                   (mm_sums[0] / 6 + mm_sums[1] / 6 + mm_sums[2] / 6 + mm_sums[3]) / 4);
  EXPECT_EQ(rows[2].decision, "submesh");
  EXPECT_EQ(rows[2].refusals, 1);
  EXPECT_EQ(rows[2].jobs, 3);
  // submesh answered 2x2 squares (8) twice and a 1x2 or 2x1 pair (1) once.
  EXPECT_DOUBLE_EQ(rows[2].mean_pairwise_sum, (8.0 + 8.0 + 1.0) / 3);
}

TEST(DecisionRecorder, SeededAndDeterministic) {
  auto run = [](std::uint64_t seed) {
    Driver driver({"random", "mm-inc"}, seed);
    driver.place(3, {0, 1, 2});
    driver.place(5, {5, 6, 9, 10, 11});
    driver.place(4, {12, 13, 14, 15});
    return driver.recorder.rows();
  };
  const auto a = run(1), b = run(1);
  EXPECT_EQ(a[0].mean_pairwise_sum, b[0].mean_pairwise_sum);
  EXPECT_EQ(a[1].mean_pairwise_sum, b[1].mean_pairwise_sum);
  EXPECT_EQ(a[0].jobs, 3);
}

TEST(DecisionRecorder, RejectsUnknownDecisionAllocators) {
  const Topology topology = Topology::parse("mesh:4x4");
  EXPECT_THROW(DecisionRecorder({"mm", "nonsense"}, topology, 1), InputError);
}

}  // namespace
}  // namespace allocsim
