// MC1x1 and MC from box counts against the implementation they replaced (mc_reference.hpp):
// the same indices and sums on random free sets of 1–4 dimensional meshes, tori and mixed
// machines, in machine order and shuffled, for every tie rule and candidate set, and along
// allocation sequences on machine-sized grids.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "allocsim/geom/mc.hpp"
#include "geom_test_util.hpp"
#include "mc_reference.hpp"

namespace allocsim::geom {
namespace {

struct Instance {
  PointSet points;
  std::vector<int> sides;
  std::string label;
};

/// A random free set of a random machine: sides, ring axes, density, order and (rarely) repeated
/// points vary with the draw.
Instance random_instance(Rng& rng, int trial) {
  const int dims = trial % 10 == 9 ? 4 : trial % 10 == 8 ? 1 : 2 + trial % 2;
  const int max_side = dims == 1 ? 40 : dims == 2 ? 14 : dims == 3 ? 7 : 4;
  Instance instance;
  std::vector<int> rings;
  const int wrap = static_cast<int>(rng.uniform_int(0, 2));  // 0 mesh, 1 torus, 2 mixed
  for (int axis = 0; axis < dims; ++axis) {
    const int side = static_cast<int>(rng.uniform_int(2, max_side));
    instance.sides.push_back(side);
    const bool ring = wrap == 1 || (wrap == 2 && rng.uniform_int(0, 1) == 1);
    rings.push_back(ring ? side : 0);
  }
  std::vector<std::vector<int>> all;
  std::vector<int> p(dims, 0);
  while (true) {
    all.push_back(p);
    int axis = 0;
    while (axis < dims && ++p[axis] == instance.sides[axis]) p[axis++] = 0;
    if (axis == dims) break;
  }
  const int total = static_cast<int>(all.size());
  const int n = static_cast<int>(rng.uniform_int(1, total));
  for (int i = 0; i < n; ++i)
    std::swap(all[i], all[rng.uniform_int(i, static_cast<std::int64_t>(total) - 1)]);
  all.resize(n);
  const bool machine_order = rng.uniform_int(0, 2) > 0;
  if (machine_order)  // x fastest, as a machine's free list
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
      return std::lexicographical_compare(a.rbegin(), a.rend(), b.rbegin(), b.rend());
    });
  if (trial % 25 == 7 && n > 1) all.push_back(all[rng.uniform_int(0, n - 1)]);  // a repeat
  instance.points = PointSet::from_rows(all, rings);
  instance.label = "trial " + std::to_string(trial) + " dims " + std::to_string(dims) + " n " +
                   std::to_string(instance.points.size()) + " wrap " + std::to_string(wrap) +
                   (machine_order ? " sorted" : " shuffled");
  return instance;
}

void expect_same(const Selection& fast, const Selection& old, const std::string& what) {
  EXPECT_EQ(fast.indices, old.indices) << what;
  EXPECT_EQ(fast.sum, old.sum) << what;
}

TEST(MCCounted, SameAnswersAsTheScanOnRandomMachines) {
  Rng rng(2026);
  for (int trial = 0; trial < 1200; ++trial) {
    const Instance instance = random_instance(rng, trial);
    const PointSet& points = instance.points;
    const int n = points.size();
    const int k = static_cast<int>(rng.uniform_int(1, std::min(n + 1, 70)));
    const std::string what = instance.label + " k " + std::to_string(k);
    for (const ShellTies ties : {ShellTies::first, ShellTies::sum}) {
      const std::string tie = ties == ShellTies::first ? " first" : " sum";
      expect_same(mc1x1(points, k, ties), reference::mc1x1(points, k, ties), what + tie);
      std::vector<std::vector<int>> positions(points.dims());
      for (int axis = 0; axis < points.dims(); ++axis)
        for (int c = 0; c < instance.sides[axis]; ++c)
          if (trial % 3 != 2 || rng.uniform_int(0, 2) > 0) positions[axis].push_back(c);
      expect_same(mc1x1_over_grid(points, k, positions, ties),
                  reference::mc1x1_over_grid(points, k, positions, ties), what + tie + " grid");
    }
    std::vector<int> shape(static_cast<std::size_t>(rng.uniform_int(1, points.dims())));
    for (auto& side : shape) side = static_cast<int>(rng.uniform_int(1, 5));
    expect_same(mc_shaped(points, k, shape), reference::mc_shaped(points, k, shape),
                what + " shaped");
  }
}

/// Allocation sequences on machine-sized grids (free list in machine order): jobs of 1–64
/// processors take what the allocator chose; random earlier jobs end.
void run_sequence(const std::vector<int>& sides, bool torus, ShellTies ties, int shape_side,
                  std::uint64_t seed) {
  Rng rng(seed);
  const int dims = static_cast<int>(sides.size());
  std::vector<int> rings(dims, 0);
  if (torus) rings = sides;
  int total = 1;
  for (const int side : sides) total *= side;
  std::vector<int> owner(total, -1);
  std::vector<std::vector<int>> jobs;
  for (int step = 0; step < 120; ++step) {
    PointSet points(dims, rings);
    std::vector<int> free_nodes, p(dims);
    for (int node = 0; node < total; ++node) {
      if (owner[node] >= 0) continue;
      int rest = node;
      for (int axis = 0; axis < dims; ++axis) p[axis] = rest % sides[axis], rest /= sides[axis];
      points.add(p);
      free_nodes.push_back(node);
    }
    const int k = static_cast<int>(rng.uniform_int(1, 64));
    if (k > points.size() || rng.uniform_int(0, 3) == 0) {  // some job ends
      if (!jobs.empty()) {
        const auto j = rng.uniform_int(0, static_cast<std::int64_t>(jobs.size()) - 1);
        for (const int node : jobs[j]) owner[node] = -1;
        jobs.erase(jobs.begin() + j);
      }
      continue;
    }
    const std::string what = "step " + std::to_string(step) + " k " + std::to_string(k);
    Selection fast, old;
    if (shape_side > 0) {
      const std::vector<int> shape{shape_side, (k + shape_side - 1) / shape_side};
      fast = mc_shaped(points, k, shape);
      old = reference::mc_shaped(points, k, shape);
    } else {
      fast = mc1x1(points, k, ties);
      old = reference::mc1x1(points, k, ties);
    }
    expect_same(fast, old, what);
    jobs.emplace_back();
    for (const int index : fast.indices) {
      owner[free_nodes[index]] = static_cast<int>(jobs.size());
      jobs.back().push_back(free_nodes[index]);
    }
  }
}

TEST(MCCounted, SameAnswersAlongAllocationSequences) {
  for (const ShellTies ties : {ShellTies::first, ShellTies::sum}) {
    run_sequence({10, 10, 10}, true, ties, 0, 1);
    run_sequence({9, 7, 6}, false, ties, 0, 2);
    run_sequence({32, 32}, false, ties, 0, 3);
    run_sequence({24, 20}, true, ties, 0, 4);
  }
  run_sequence({20, 20}, false, ShellTies::sum, 3, 5);
  run_sequence({16, 12}, true, ShellTies::sum, 4, 6);
}

TEST(MCCounted, EmptyTorusTakesTheFirstCentre) {
  // On a free 12³ torus every centre has the least cost; the first (index 0) wins with the
  // partial shell by index, and the shells wrap around the seam.
  std::vector<std::vector<int>> rows;
  for (int z = 0; z < 12; ++z)
    for (int y = 0; y < 12; ++y)
      for (int x = 0; x < 12; ++x) rows.push_back({x, y, z});
  const PointSet points = PointSet::from_rows(rows, {12, 12, 12});
  for (const int k : {1, 8, 27, 30, 64}) {
    const Selection fast = mc1x1(points, k);
    EXPECT_EQ(fast.indices, reference::mc1x1(points, k).indices) << k;
    EXPECT_EQ(fast.nodes, 1) << "least cost at the first centre ends the scan, k " << k;
    const Selection sum = mc1x1(points, k, ShellTies::sum);
    EXPECT_EQ(sum.indices, reference::mc1x1(points, k, ShellTies::sum).indices) << k;
    EXPECT_EQ(sum.sum, reference::mc1x1(points, k, ShellTies::sum).sum) << k;
  }
}

}  // namespace
}  // namespace allocsim::geom
