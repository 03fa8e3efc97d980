// MC1x1 on a persistent free grid (mc1x1_on_grid, centres free or every position) against the
// point-set solvers and the first implementation (mc_reference.hpp): random machines (1–4 axes,
// meshes, tori, mixed) whose busy map changes by allocations, releases and random flips between
// questions, so every answer comes from a grid brought up to date incrementally.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "allocsim/geom/free_grid.hpp"
#include "allocsim/geom/mc.hpp"
#include "allocsim/util/rng.hpp"
#include "mc_reference.hpp"

namespace allocsim::geom {
namespace {

struct Machine {
  std::vector<int> sides, rings;
  int nodes = 1;
};

Machine random_machine(Rng& rng, int trial) {
  const int dims = trial % 10 == 9 ? 4 : trial % 10 == 8 ? 1 : 2 + trial % 2;
  const int max_side = dims == 1 ? 64 : dims == 2 ? 20 : dims == 3 ? 8 : 4;
  const int wrap = static_cast<int>(rng.uniform_int(0, 2));  // 0 mesh, 1 torus, 2 mixed
  Machine machine;
  for (int axis = 0; axis < dims; ++axis) {
    const int side = static_cast<int>(rng.uniform_int(1, max_side));
    machine.sides.push_back(side);
    const bool ring = wrap == 1 || (wrap == 2 && rng.uniform_int(0, 1) == 1);
    machine.rings.push_back(ring ? side : 0);
    machine.nodes *= side;
  }
  return machine;
}

/// The free nodes' coordinates in node order (the allocator's free list).
PointSet free_points(const Machine& machine, const std::vector<char>& busy, std::vector<int>& ids) {
  PointSet points(static_cast<int>(machine.sides.size()), machine.rings);
  ids.clear();
  std::vector<int> c(machine.sides.size());
  for (int node = 0; node < machine.nodes; ++node) {
    if (busy[node]) continue;
    int rest = node;
    for (std::size_t axis = 0; axis < c.size(); ++axis)
      c[axis] = rest % machine.sides[axis], rest /= machine.sides[axis];
    points.add(c);
    ids.push_back(node);
  }
  return points;
}

/// The point-set answer's indices as node ids.
std::vector<int> as_nodes(const Selection& selection, const std::vector<int>& ids) {
  std::vector<int> nodes;
  for (const int i : selection.indices) nodes.push_back(ids[i]);
  return nodes;
}

TEST(MCGrid, SameAnswersAlongRandomBusyMapChanges) {
  Rng rng(515);
  int questions = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Machine machine = random_machine(rng, trial);
    FreeGrid grid(machine.sides, machine.rings);
    ASSERT_TRUE(grid.usable());
    std::vector<char> busy(machine.nodes, 0);
    if (trial % 3 == 0)  // start partly busy
      for (auto& flag : busy) flag = rng.uniform_int(0, 2) == 0 ? 1 : 0;
    std::vector<std::vector<int>> jobs;
    for (int step = 0; step < 12; ++step) {
      const int change = static_cast<int>(rng.uniform_int(0, 3));
      if (change == 0 && !jobs.empty()) {  // a job ends
        const auto j = rng.uniform_int(0, static_cast<std::int64_t>(jobs.size()) - 1);
        for (const int node : jobs[j]) busy[node] = 0;
        jobs.erase(jobs.begin() + j);
      } else if (change == 1) {  // a few nodes flip
        for (int f = 0; f < 3; ++f) {
          auto& flag = busy[rng.uniform_int(0, machine.nodes - 1)];
          flag = flag ? 0 : 1;
        }
      }
      if (step == 0 || rng.uniform_int(0, 3) > 0)
        grid.sync(busy);
      else
        continue;  // several changes before the next question
      std::vector<int> ids;
      const PointSet points = free_points(machine, busy, ids);
      ASSERT_EQ(grid.free_count(), points.size());
      const int k = static_cast<int>(rng.uniform_int(0, std::min(points.size() + 1, 70)));
      const ShellTies ties = rng.uniform_int(0, 1) == 0 ? ShellTies::first : ShellTies::sum;
      const std::string what = "trial " + std::to_string(trial) + " step " + std::to_string(step) +
                               " k " + std::to_string(k) +
                               (ties == ShellTies::first ? " first" : " sum");
      const Selection on_grid = mc1x1_on_grid(grid, k, ties);
      const Selection fast = mc1x1(points, k, ties);
      ASSERT_EQ(on_grid.indices, as_nodes(fast, ids)) << what;
      ASSERT_EQ(on_grid.sum, fast.sum) << what;
      const Selection old = reference::mc1x1(points, k, ties);
      ASSERT_EQ(on_grid.indices, as_nodes(old, ids)) << what;
      ASSERT_EQ(on_grid.sum, old.sum) << what;
      std::vector<std::vector<int>> positions(machine.sides.size());
      for (std::size_t axis = 0; axis < positions.size(); ++axis)
        for (int c = 0; c < machine.sides[axis]; ++c) positions[axis].push_back(c);
      const Selection all = mc1x1_on_grid(grid, k, ties, nullptr, true);
      const Selection over_grid = mc1x1_over_grid(points, k, positions, ties);
      ASSERT_EQ(all.indices, as_nodes(over_grid, ids)) << what << " all";
      ASSERT_EQ(all.sum, over_grid.sum) << what << " all";
      const Selection old_grid = reference::mc1x1_over_grid(points, k, positions, ties);
      ASSERT_EQ(all.indices, as_nodes(old_grid, ids)) << what << " all";
      ++questions;
      jobs.push_back(on_grid.indices);  // the job takes its nodes
      for (const int node : on_grid.indices) busy[node] = 1;
    }
  }
  EXPECT_GT(questions, 2000);
}

TEST(MCGrid, SyncReportsChangesAndRefusesOtherMachines) {
  FreeGrid grid({5, 3}, {0, 3});
  std::vector<char> busy(15, 1);
  EXPECT_FALSE(grid.sync(busy));
  busy[7] = 0;
  EXPECT_TRUE(grid.sync(busy));
  EXPECT_EQ(grid.free_count(), 1);
  EXPECT_TRUE(grid.is_free(7));
  EXPECT_FALSE(grid.sync(busy));
  EXPECT_THROW(grid.sync(std::vector<char>(14, 0)), std::invalid_argument);
  EXPECT_FALSE(FreeGrid({65, 2}, {}).usable());
}

}  // namespace
}  // namespace allocsim::geom
