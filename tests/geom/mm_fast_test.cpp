// The fast MM / Gen-Alg / MM+Inc (rings, local pair sums, the memo of free neighbourhoods)
// against the previous implementation kept as geom::reference: same chosen set, sum and
// number of centres examined on thousands of random free sets of meshes and tori.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "allocsim/geom/local_search.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/util/rng.hpp"
#include "geom/mm_reference.hpp"

namespace allocsim::geom {
namespace {

/// A machine of the given sides (torus axes wrap) and which of its positions are free.
struct Machine {
  std::vector<int> sides, rings;
  std::vector<char> free;

  int volume() const { return static_cast<int>(free.size()); }
  std::vector<int> coords(int node) const {
    std::vector<int> c(sides.size());
    for (std::size_t axis = 0; axis < sides.size(); ++axis) {
      c[axis] = node % sides[axis];
      node /= sides[axis];
    }
    return c;
  }
  /// The free positions by node id (axis 0 fastest), or shuffled.
  PointSet points(Rng* shuffle = nullptr) const {
    std::vector<std::vector<int>> rows;
    for (int node = 0; node < volume(); ++node)
      if (free[node]) rows.push_back(coords(node));
    if (shuffle)
      for (std::size_t i = 0; i + 1 < rows.size(); ++i)
        std::swap(rows[i], rows[shuffle->uniform_int(static_cast<std::int64_t>(i),
                                                     static_cast<std::int64_t>(rows.size()) - 1)]);
    return PointSet::from_rows(rows, rings);
  }
  /// Makes busy the nodes of the box of lengths `len` from `lo` (wrapping around each axis);
  /// returns how many were free.
  int take_box(const std::vector<int>& lo, const std::vector<int>& len) {
    int taken = 0;
    for (int node = 0; node < volume(); ++node) {
      const auto c = coords(node);
      bool in = true;
      for (std::size_t axis = 0; axis < sides.size() && in; ++axis) {
        const int off = ((c[axis] - lo[axis]) % sides[axis] + sides[axis]) % sides[axis];
        in = off < len[axis];
      }
      if (in && free[node]) free[node] = 0, ++taken;
    }
    return taken;
  }
  /// Makes busy the free nodes that `chosen` picked from points() (indices in node-id order)
  /// and returns their ids.
  std::vector<int> take(const Selection& chosen) {
    std::vector<int> ids;
    for (int node = 0; node < volume(); ++node)
      if (free[node]) ids.push_back(node);
    std::vector<int> job;
    for (const int i : chosen.indices) job.push_back(ids[i]), free[ids[i]] = 0;
    return job;
  }
};

/// A random machine: 1–3 axes, mesh or torus, with a few random busy boxes (a lightly used
/// machine, so that many centres see only free positions) or uniformly random busy nodes.
Machine random_machine(Rng& rng) {
  Machine m;
  const int dims = static_cast<int>(rng.uniform_int(1, 3));
  const bool torus = rng.uniform_int(0, 1) == 1;
  int volume = 1;
  for (int axis = 0; axis < dims; ++axis) {
    const int side = static_cast<int>(rng.uniform_int(1, dims == 1 ? 40 : dims == 2 ? 20 : 9));
    m.sides.push_back(side);
    m.rings.push_back(torus ? side : 0);
    volume *= side;
  }
  m.free.assign(volume, 1);
  if (rng.uniform_int(0, 2) == 0) {
    const double busy = 0.9 * rng.uniform();
    for (auto& f : m.free) f = rng.uniform() < busy ? 0 : 1;
  } else {
    const int boxes = static_cast<int>(rng.uniform_int(0, 4));
    for (int b = 0; b < boxes; ++b) {
      std::vector<int> lo(dims), len(dims);
      for (int axis = 0; axis < dims; ++axis) {
        lo[axis] = static_cast<int>(rng.uniform_int(0, m.sides[axis] - 1));
        len[axis] = static_cast<int>(rng.uniform_int(1, std::max(1, m.sides[axis] / 2)));
      }
      m.take_box(lo, len);
    }
  }
  return m;
}

void expect_same(const Selection& fast, const Selection& reference, const std::string& what) {
  EXPECT_EQ(fast.indices, reference.indices) << what;
  EXPECT_EQ(fast.sum, reference.sum) << what;
  EXPECT_EQ(fast.nodes, reference.nodes) << what;
}

std::vector<std::vector<int>> all_positions(const Machine& m) {
  std::vector<std::vector<int>> values(m.sides.size());
  for (std::size_t axis = 0; axis < m.sides.size(); ++axis)
    for (int c = 0; c < m.sides[axis]; ++c) values[axis].push_back(c);
  return values;
}

/// Every MM variant against the reference on one point set.
void expect_all_same(const Machine& m, const PointSet& points, int k, const std::string& what) {
  for (const auto order : {CentreOrder::sorted, CentreOrder::premas}) {
    expect_same(manhattan_median(points, k, order), reference::manhattan_median(points, k, order),
                what + " mm");
    expect_same(nearest_best_over_grid(points, k, all_positions(m), order),
                reference::nearest_best_over_grid(points, k, all_positions(m), order),
                what + " mm centers=all");
  }
  expect_same(gen_alg(points, k), reference::gen_alg(points, k), what + " genalg");
  expect_same(mm_inc(points, k), improve_by_swaps(points, reference::manhattan_median(points, k)),
              what + " mm-inc");
}

TEST(FastNearest, SameAnswersAsTheReferenceOnRandomMachines) {
  Rng rng(20261124);
  int instances = 0;
  while (instances < 1500) {
    const Machine m = random_machine(rng);
    Rng shuffle(static_cast<std::uint64_t>(instances) + 7);
    const PointSet points = m.points(rng.uniform_int(0, 4) == 0 ? &shuffle : nullptr);
    if (points.size() < 2) continue;
    const int k = static_cast<int>(rng.uniform_int(1, points.size()));
    const std::string what = "instance " + std::to_string(instances) + " k=" + std::to_string(k) +
                             " n=" + std::to_string(points.size());
    expect_all_same(m, points, k, what);
    expect_same(
        improve_by_swaps(points, manhattan_median(points, k, CentreOrder::premas)),
        improve_by_swaps(points, reference::manhattan_median(points, k, CentreOrder::premas)),
        what + " mm-inc ties=premas");
    expect_same(improve_by_swaps(points, gen_alg(points, k)),
                improve_by_swaps(points, reference::gen_alg(points, k)),
                what + " mm-inc centers=free");
    ++instances;
    if (::testing::Test::HasFailure()) break;
  }
}

/// A shared memo across a sequence of allocations and releases on one machine, as an
/// allocator keeps it: every answer equals the reference's.
TEST(FastNearest, MemoKeptBetweenCallsGivesTheSameAnswers) {
  Rng rng(77);
  int calls = 0;
  std::size_t entries = 0;
  for (int machine = 0; machine < 40; ++machine) {
    Machine m = random_machine(rng);
    std::fill(m.free.begin(), m.free.end(), 1);
    NearestMemo memo_sorted, memo_premas, memo_free;
    std::vector<std::vector<int>> running;  // node ids of each running job
    for (int step = 0; step < 40; ++step) {
      if (!running.empty() && rng.uniform_int(0, 2) == 0) {
        const auto j = rng.uniform_int(0, static_cast<std::int64_t>(running.size()) - 1);
        for (const int node : running[j]) m.free[node] = 1;
        running.erase(running.begin() + j);
        continue;
      }
      const PointSet points = m.points();
      if (points.size() < 1) continue;
      const int k = static_cast<int>(rng.uniform_int(1, std::min(points.size(), 40)));
      const std::string what = "machine " + std::to_string(machine) + " step " +
                               std::to_string(step) + " k=" + std::to_string(k);
      const Selection sorted =
          manhattan_median(points, k, CentreOrder::sorted, nullptr, &memo_sorted);
      expect_same(sorted, reference::manhattan_median(points, k, CentreOrder::sorted), what);
      expect_same(manhattan_median(points, k, CentreOrder::premas, nullptr, &memo_premas),
                  reference::manhattan_median(points, k, CentreOrder::premas), what + " premas");
      expect_same(gen_alg(points, k, nullptr, &memo_free), reference::gen_alg(points, k),
                  what + " genalg");
      ++calls;
      entries += memo_sorted.entries.size();
      if (::testing::Test::HasFailure()) return;
      running.push_back(m.take(sorted));  // allocate the MM answer
    }
  }
  EXPECT_GT(calls, 500);
  EXPECT_GT(entries, 0U);  // the memo was used
}

/// One memo (and so one workspace: grids, ball offsets, buffers, kept sums) shared by every
/// variant and carried from machine to machine of other shapes, dimensions and wraps, with
/// shuffled indices at times, and to a copy: every answer equals the reference's.
TEST(FastNearest, OneMemoAcrossMachinesAndVariants) {
  Rng rng(4242);
  NearestMemo memo;
  int calls = 0;
  while (calls < 600) {
    const Machine m = random_machine(rng);
    Rng shuffle(static_cast<std::uint64_t>(calls) + 3);
    const PointSet points = m.points(calls % 4 == 3 ? &shuffle : nullptr);
    if (points.size() < 2) continue;
    const int k = static_cast<int>(rng.uniform_int(1, points.size()));
    const std::string what = "call " + std::to_string(calls) + " k=" + std::to_string(k);
    for (const auto order : {CentreOrder::sorted, CentreOrder::premas}) {
      expect_same(manhattan_median(points, k, order, nullptr, &memo),
                  reference::manhattan_median(points, k, order), what + " mm");
      expect_same(nearest_best_over_grid(points, k, all_positions(m), order, nullptr, &memo),
                  reference::nearest_best_over_grid(points, k, all_positions(m), order),
                  what + " mm centers=all");
    }
    expect_same(gen_alg(points, k, nullptr, &memo), reference::gen_alg(points, k),
                what + " genalg");
    if (calls % 50 == 0) {
      NearestMemo copy = memo;  // starts without the workspace, answers the same
      EXPECT_EQ(copy.workspace.state, nullptr);
      expect_same(manhattan_median(points, k, CentreOrder::sorted, nullptr, &copy),
                  reference::manhattan_median(points, k), what + " copied memo");
    }
    ++calls;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_NE(memo.workspace.state, nullptr);
}

/// The sums kept between calls (src/geom/prefix_cache.hpp) on machines large enough for them,
/// as an allocator uses them: jobs of 1–64 nodes placed by MM and released in random order,
/// each variant with its own memo fed only the free lists; every answer (set, sum, centres
/// examined) equals the reference's, and the cache was used.
TEST(FastNearest, SumsKeptBetweenCallsFollowTheChangingFreeSet) {
  Rng rng(9001);
  NearestMemo sorted_memo, premas_memo, all_memo, free_memo;
  int calls = 0;
  for (int machine = 0; machine < 8; ++machine) {
    Machine m;
    const int dims = machine % 2 == 0 ? 2 : 3;
    for (int axis = 0; axis < dims; ++axis) {
      const int side = dims == 2 ? 20 + 2 * machine : 10 + machine / 2;
      m.sides.push_back(side);
      m.rings.push_back(machine % 4 >= 2 || (machine == 5 && axis == 1) ? side : 0);
    }
    int volume = 1;
    for (const int side : m.sides) volume *= side;
    m.free.assign(volume, 1);
    std::vector<std::vector<int>> running;
    for (int step = 0; step < 36; ++step) {
      int busy = 0;
      for (const char f : m.free) busy += f ? 0 : 1;
      while (!running.empty() && (busy > 0.4 * volume || rng.uniform_int(0, 3) == 0)) {
        const auto j = rng.uniform_int(0, static_cast<std::int64_t>(running.size()) - 1);
        for (const int node : running[j]) m.free[node] = 1;
        busy -= static_cast<int>(running[j].size());
        running.erase(running.begin() + j);
      }
      const PointSet points = m.points();
      const int k = std::min(points.size(), static_cast<int>(rng.uniform_int(1, 64)));
      const std::string what = "machine " + std::to_string(machine) + " step " +
                               std::to_string(step) + " k=" + std::to_string(k);
      const Selection sorted =
          manhattan_median(points, k, CentreOrder::sorted, nullptr, &sorted_memo);
      expect_same(sorted, reference::manhattan_median(points, k, CentreOrder::sorted), what);
      if (step % 3 == 0) {
        expect_same(manhattan_median(points, k, CentreOrder::premas, nullptr, &premas_memo),
                    reference::manhattan_median(points, k, CentreOrder::premas), what + " premas");
        expect_same(
            nearest_best_over_grid(points, k, all_positions(m), CentreOrder::sorted, nullptr,
                                   &all_memo),
            reference::nearest_best_over_grid(points, k, all_positions(m), CentreOrder::sorted),
            what + " centers=all");
        expect_same(gen_alg(points, k, nullptr, &free_memo), reference::gen_alg(points, k),
                    what + " genalg");
      }
      ++calls;
      if (::testing::Test::HasFailure()) return;
      running.push_back(m.take(sorted));
    }
  }
  EXPECT_GT(calls, 250);
  EXPECT_GT(sorted_memo.workspace.reused, 10000);
  EXPECT_GT(all_memo.workspace.reused, 1000);
  EXPECT_GT(free_memo.workspace.reused, 1000);
}

/// Busy boxes (jobs) over a machine until about `busy` of it is taken.
void fill_with_boxes(Machine& m, Rng& rng, double busy) {
  const int dims = static_cast<int>(m.sides.size());
  int taken = 0;
  for (int attempt = 0; attempt < 1000 && taken < busy * m.volume(); ++attempt) {
    std::vector<int> lo(dims), len(dims);
    for (int axis = 0; axis < dims; ++axis) {
      lo[axis] = static_cast<int>(rng.uniform_int(0, m.sides[axis] - 1));
      len[axis] = static_cast<int>(rng.uniform_int(1, 4));
    }
    taken += m.take_box(lo, len);
  }
}

/// Tori large enough for the ball walk (every ring at least 2·halo + 1 long) and for the early
/// stop on tori, partly taken by job-like boxes, k up to 64: the walk's seam crossings,
/// lexicographic and shuffled indices, and centres that tie.
TEST(FastNearest, BallWalkAndTorusStopOnPartlyTakenTori) {
  Rng rng(515);
  for (int instance = 0; instance < 36; ++instance) {
    Machine m;
    const int dims = instance % 3 == 0 ? 2 : 3;
    for (int axis = 0; axis < dims; ++axis) {
      const int side = static_cast<int>(rng.uniform_int(dims == 2 ? 16 : 13, dims == 2 ? 28 : 16));
      m.sides.push_back(side);
      m.rings.push_back(instance % 4 == 3 && axis == 0 ? 0 : side);  // some mixed machines
    }
    int volume = 1;
    for (const int side : m.sides) volume *= side;
    m.free.assign(volume, 1);
    fill_with_boxes(m, rng, instance % 6 == 0 ? 0.0 : 0.05 * static_cast<double>(instance % 7));
    Rng shuffle(static_cast<std::uint64_t>(instance) + 99);
    const PointSet points = m.points(instance % 5 == 4 ? &shuffle : nullptr);
    const int k = static_cast<int>(
        rng.uniform_int(instance % 2 == 0 ? 2 : 14, std::min(points.size() - 1, 64)));
    expect_all_same(m, points, k,
                    "torus instance " + std::to_string(instance) + " k=" + std::to_string(k));
    if (::testing::Test::HasFailure()) return;
  }
}

/// Large k against n (the per-point scan with byte keys): meshes and tori, shifted mesh
/// coordinates, spans over 255 (the fallback), sets that repeat between centres.
TEST(FastNearest, ByteKeyScanOnLargeK) {
  Rng rng(2718);
  int instances = 0;
  while (instances < 300) {
    Machine m = random_machine(rng);
    PointSet points = m.points();
    if (points.size() < 4) continue;
    const int k = static_cast<int>(rng.uniform_int(std::max(2, points.size() / 8), points.size()));
    const std::string what = "instance " + std::to_string(instances) + " k=" + std::to_string(k);
    if (instances % 3 == 0 && !points.any_wrap()) {
      // The same machine at negative coordinates (keys are taken from the least coordinate).
      std::vector<std::vector<int>> rows;
      for (int i = 0; i < points.size(); ++i) {
        std::vector<int> row(points.dims());
        for (int axis = 0; axis < points.dims(); ++axis) row[axis] = points.coord(i, axis) - 1000;
        rows.push_back(row);
      }
      points = PointSet::from_rows(rows, m.rings);
      for (const auto order : {CentreOrder::sorted, CentreOrder::premas})
        expect_same(manhattan_median(points, k, order),
                    reference::manhattan_median(points, k, order), what + " shifted mm");
      expect_same(gen_alg(points, k), reference::gen_alg(points, k), what + " shifted genalg");
    } else {
      expect_all_same(m, points, k, what);
    }
    ++instances;
    if (::testing::Test::HasFailure()) return;
  }
  // A line of 300 positions: distances up to 299 do not fit a byte.
  Machine line;
  line.sides = {300};
  line.rings = {0};
  line.free.assign(300, 1);
  for (int node = 0; node < 300; node += 7) line.free[node] = 0;
  const PointSet points = line.points();
  for (const int k : {40, 150, points.size()})
    expect_all_same(line, points, k, "line of 300 k=" + std::to_string(k));
}

}  // namespace
}  // namespace allocsim::geom
