// The curve allocator (alloc/curve.hpp): span measures, the free-interval structure, every fit
// rule and span minimisation on hand-made cases and against brute force, and the allocator's
// commit/release of arbitrary node sets.
#include "allocsim/alloc/curve.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <map>

#include "allocsim/metrics/span.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

using Ranks = std::vector<int>;

/// Free ranks given as intervals [start, end) on `total` ranks.
FreeIntervals make_free(int total, std::vector<std::pair<int, int>> runs) {
  FreeIntervals free(total, false);
  for (auto [begin, end] : runs) free.add(begin, end);
  return free;
}

Ranks choose(const FreeIntervals& free, int procs, CurveFit fit, SpanKind span = SpanKind::linear) {
  auto ranks = choose_curve_ranks(free, procs, fit, span);
  return ranks ? *ranks : Ranks{};
}

Ranks range(int begin, int end) {
  Ranks result;
  for (int r = begin; r < end; ++r) result.push_back(r);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Span measures

TEST(CurveSpan, LinearAndRingSpanDiffer) {
  const Ranks ranks = {9, 1, 2};
  EXPECT_DOUBLE_EQ(linear_span(ranks), 9);    // 1..9
  EXPECT_DOUBLE_EQ(ring_span(ranks, 10), 4);  // 9, 0, 1, 2 around the ring
  EXPECT_DOUBLE_EQ(ring_span(Ranks{1, 2, 9}, 10), 4);
  EXPECT_DOUBLE_EQ(ring_span(Ranks{0, 5}, 10), 6);  // two equal gaps of 4
  EXPECT_DOUBLE_EQ(linear_span(Ranks{4}), 1);
  EXPECT_DOUBLE_EQ(ring_span(Ranks{4}, 10), 1);
  EXPECT_DOUBLE_EQ(linear_span(Ranks{}), 0);
  EXPECT_DOUBLE_EQ(ring_span(Ranks{}, 10), 0);
  EXPECT_DOUBLE_EQ(ring_span(range(0, 10), 10), 10);
  EXPECT_DOUBLE_EQ(ring_span(Ranks{2, 3, 4}, 10), 3);
}

// ---------------------------------------------------------------------------------------------
// FreeIntervals

TEST(FreeIntervals, AddAndRemoveMergeAndSplit) {
  FreeIntervals free(20);
  free.remove(5, 8);
  EXPECT_EQ(free.intervals(), (std::vector<FreeIntervals::Interval>{{0, 5}, {8, 20}}));
  free.remove(3, 10);  // overlaps busy ranks
  free.remove(15, 16);
  EXPECT_EQ(free.intervals(), (std::vector<FreeIntervals::Interval>{{0, 3}, {10, 15}, {16, 20}}));
  EXPECT_EQ(free.free_count(), 12);
  free.add(15, 16);  // touching on both sides: merges three
  EXPECT_EQ(free.intervals(), (std::vector<FreeIntervals::Interval>{{0, 3}, {10, 20}}));
  free.add(2, 5);  // partly free already
  EXPECT_EQ(free.intervals(), (std::vector<FreeIntervals::Interval>{{0, 5}, {10, 20}}));
  EXPECT_EQ(free.free_count(), 15);
  EXPECT_TRUE(free.is_free(4));
  EXPECT_FALSE(free.is_free(5));
  free.remove(0, 20);
  EXPECT_TRUE(free.intervals().empty());
  EXPECT_EQ(free.free_count(), 0);
}

TEST(FreeIntervals, RandomOperationsMatchABitmap) {
  Rng rng(7);
  const int total = 50;
  FreeIntervals free(total);
  std::vector<char> bitmap(total, 1);
  for (int step = 0; step < 5000; ++step) {
    const int begin = static_cast<int>(rng.uniform_int(0, total - 1));
    const int end = static_cast<int>(rng.uniform_int(begin + 1, std::min(total, begin + 8)));
    const bool add = rng.uniform() < 0.5;
    if (add)
      free.add(begin, end);
    else
      free.remove(begin, end);
    for (int r = begin; r < end; ++r) bitmap[r] = add;
    std::vector<FreeIntervals::Interval> expected;
    for (int r = 0; r < total;) {
      if (!bitmap[r]) {
        ++r;
        continue;
      }
      const int start = r;
      while (r < total && bitmap[r]) ++r;
      expected.push_back({start, r});
    }
    ASSERT_EQ(free.intervals(), expected) << "step " << step;
    ASSERT_EQ(free.free_count(), std::count(bitmap.begin(), bitmap.end(), 1));
  }
}

// ---------------------------------------------------------------------------------------------
// Fit rules on hand-made cases (Leung et al. 2002, one-dimensional strategies)

// Free intervals of lengths 7, 5, 6, 2, 2, 4, 1 (in rank order) on 34 ranks; a job of 3.
FreeIntervals seven_intervals() {
  return make_free(34, {{0, 7}, {8, 13}, {14, 20}, {21, 23}, {24, 26}, {27, 31}, {32, 33}});
}

TEST(CurveFit, FirstFitTakesTheFirstIntervalThatHoldsTheJob) {
  EXPECT_EQ(choose(seven_intervals(), 3, CurveFit::first), (Ranks{0, 1, 2}));
  EXPECT_EQ(choose(seven_intervals(), 6, CurveFit::first), range(0, 6));
  EXPECT_EQ(choose(make_free(10, {{0, 2}, {3, 9}}), 3, CurveFit::first), (Ranks{3, 4, 5}));
}

TEST(CurveFit, BestFitLeavesTheFewestFreeProcessors) {
  EXPECT_EQ(choose(seven_intervals(), 3, CurveFit::best), (Ranks{27, 28, 29}));  // length 4
  EXPECT_EQ(choose(seven_intervals(), 5, CurveFit::best), range(8, 13));         // exact
  EXPECT_EQ(choose(seven_intervals(), 6, CurveFit::best), range(14, 20));
  // Tie (two intervals of length 4): the lower start rank.
  EXPECT_EQ(choose(make_free(20, {{0, 6}, {7, 11}, {12, 16}}), 4, CurveFit::best), range(7, 11));
}

TEST(CurveFit, SumOfSquaresMinimisesRepeatedIntervalSizes) {
  // Sizes {7,5,6,2,2,4,1}, job 3; Σ count² of the sizes left: from 7 -> {4,5,6,2,2,4,1}: 11;
  // from 5 -> {7,2,6,2,2,4,1}: 13; from 6 -> {7,5,3,2,2,4,1}: 9; from 4 -> {7,5,6,2,2,1,1}: 11.
  EXPECT_EQ(choose(seven_intervals(), 3, CurveFit::sumsq), (Ranks{14, 15, 16}));
  // Lengths {3, 3, 5}, job 3: from either 3 -> Σ 2, from 5 -> {3,3,2}: 5; tie to the lower start.
  EXPECT_EQ(choose(make_free(20, {{0, 3}, {4, 7}, {8, 13}}), 3, CurveFit::sumsq), (Ranks{0, 1, 2}));
  // Lengths {5, 4, 2}, job 2: from 5 -> {3,4,2}: 3; from 4 -> {5,2,2}: 5; from 2 -> {5,4}: 2.
  EXPECT_EQ(choose(make_free(20, {{0, 5}, {6, 10}, {12, 14}}), 2, CurveFit::sumsq),
            (Ranks{12, 13}));
}

TEST(CurveFit, NoneIsTheSortedFreeList) {
  EXPECT_EQ(choose(seven_intervals(), 3, CurveFit::none), (Ranks{0, 1, 2}));
  EXPECT_EQ(choose(seven_intervals(), 9, CurveFit::none), (Ranks{0, 1, 2, 3, 4, 5, 6, 8, 9}));
  // Even when an interval further on would hold the job.
  EXPECT_EQ(choose(make_free(20, {{0, 2}, {5, 15}}), 4, CurveFit::none), (Ranks{0, 1, 5, 6}));
}

TEST(CurveFit, RefusesWhenTooFewProcessorsAreFree) {
  EXPECT_FALSE(choose_curve_ranks(seven_intervals(), 28, CurveFit::best, SpanKind::linear));
  EXPECT_TRUE(choose_curve_ranks(seven_intervals(), 27, CurveFit::best, SpanKind::linear));
  EXPECT_FALSE(choose_curve_ranks(FreeIntervals(5, false), 1, CurveFit::none, SpanKind::ring));
}

// ---------------------------------------------------------------------------------------------
// Span minimisation

TEST(CurveSpanMinimisation, TakesTheWindowOfMinimumSpan) {
  // Free: {0}, {5,6}, {8,9,10}, {15..19}; no interval holds 6.
  const FreeIntervals free = make_free(20, {{0, 1}, {5, 7}, {8, 11}, {15, 20}});
  // Windows: from 0 -> 0..10 (span 11), from 5 -> 5..15 (11), from 8 -> 8..17 (10).
  for (CurveFit fit : {CurveFit::first, CurveFit::best, CurveFit::sumsq})
    EXPECT_EQ(choose(free, 6, fit), (Ranks{8, 9, 10, 15, 16, 17}));
  EXPECT_EQ(choose(free, 6, CurveFit::none), (Ranks{0, 5, 6, 8, 9, 10}));  // span 11
}

TEST(CurveSpanMinimisation, TiesGoToTheSmallestStartingRank) {
  // Windows of 3: from 0 -> {0,1,4} span 5, from 4 -> {4,5,8} span 5, from 8: too few.
  const FreeIntervals free = make_free(12, {{0, 2}, {4, 6}, {8, 10}});
  EXPECT_EQ(choose(free, 3, CurveFit::best), (Ranks{0, 1, 4}));
  // Shifting the middle interval makes the second window shorter.
  EXPECT_EQ(choose(make_free(12, {{0, 2}, {5, 7}, {8, 10}}), 3, CurveFit::best), (Ranks{5, 6, 8}));
}

TEST(CurveSpanMinimisation, RingAndLinearChooseDifferently) {
  // Free: 0..2, 8..9, 16..19 on 20 ranks.
  const FreeIntervals free = make_free(20, {{0, 3}, {8, 10}, {16, 20}});
  // Job of 5: linearly no interval holds it; the window from 0 spans 0..9.
  EXPECT_EQ(choose(free, 5, CurveFit::best, SpanKind::linear), (Ranks{0, 1, 2, 8, 9}));
  // On the ring 16..19 and 0..2 form one interval of 7, which holds it.
  EXPECT_EQ(choose(free, 5, CurveFit::best, SpanKind::ring), (Ranks{16, 17, 18, 19, 0}));
  // Job of 8: linear window from 0 (span 19); ring window from 16 (arc 16..8, span 13).
  EXPECT_EQ(choose(free, 8, CurveFit::best, SpanKind::linear), (Ranks{0, 1, 2, 8, 9, 16, 17, 18}));
  const Ranks ring = choose(free, 8, CurveFit::best, SpanKind::ring);
  EXPECT_EQ(ring, (Ranks{16, 17, 18, 19, 0, 1, 2, 8}));
  EXPECT_DOUBLE_EQ(ring_span(ring, 20), 13);
  EXPECT_DOUBLE_EQ(linear_span(ring), 20);
}

TEST(CurveSpanMinimisation, RingWindowsWrapAndTieToTheSmallestStart) {
  // Free {0}, {5,6}, {9,10} on 12 ranks, job 3: the ring window 9,10,0 (arc 4) beats 5,6,9
  // (span 5), which is the linear choice.
  const FreeIntervals free = make_free(12, {{0, 1}, {5, 7}, {9, 11}});
  EXPECT_EQ(choose(free, 3, CurveFit::best, SpanKind::ring), (Ranks{9, 10, 0}));
  EXPECT_EQ(choose(free, 3, CurveFit::best, SpanKind::linear), (Ranks{5, 6, 9}));
  // Free {0,1}, {4,5}, {8,9}: arcs from 0, 4 and 8 all span 5; the smallest start wins.
  EXPECT_EQ(choose(make_free(12, {{0, 2}, {4, 6}, {8, 10}}), 3, CurveFit::best, SpanKind::ring),
            (Ranks{0, 1, 4}));
}

/// Brute force over every p-subset of the free ranks: the minimum span (linear or ring).
double brute_min_span(const std::vector<int>& free_ranks, int p, int total, bool ring) {
  const int f = static_cast<int>(free_ranks.size());
  double best = 1e9;
  for (unsigned mask = 0; mask < (1u << f); ++mask) {
    if (__builtin_popcount(mask) != p) continue;
    Ranks subset;
    for (int i = 0; i < f; ++i)
      if (mask >> i & 1u) subset.push_back(free_ranks[i]);
    best = std::min(best, ring ? ring_span(subset, total) : linear_span(subset));
  }
  return best;
}

/// Free runs (start, length) of a bitmap, the last and first merged on a ring when both touch
/// the ends (independent of FreeIntervals).
std::vector<std::pair<int, int>> runs_of(const std::vector<char>& free_bits, bool ring) {
  const int total = static_cast<int>(free_bits.size());
  std::vector<std::pair<int, int>> runs;
  for (int r = 0; r < total;) {
    if (!free_bits[r]) {
      ++r;
      continue;
    }
    const int start = r;
    while (r < total && free_bits[r]) ++r;
    runs.emplace_back(start, r - start);
  }
  if (ring && runs.size() >= 2 && free_bits[0] && free_bits[total - 1]) {
    runs.back().second += runs.front().second;
    runs.erase(runs.begin());
  }
  return runs;
}

/// Σ count(size)² over the free runs of a bitmap.
long long sum_of_squares(const std::vector<char>& free_bits, bool ring) {
  std::map<int, long long> count;
  for (auto [start, length] : runs_of(free_bits, ring)) ++count[length];
  long long sum = 0;
  for (auto [size, c] : count) sum += c * c;
  return sum;
}

TEST(CurveSpanMinimisation, MatchesBruteForceOnRandomSmallCases) {
  Rng rng(2024);
  for (int trial = 0; trial < 400; ++trial) {
    const int total = static_cast<int>(rng.uniform_int(3, 14));
    std::vector<char> bits(total);
    std::vector<int> free_ranks;
    FreeIntervals free(total, false);
    for (int r = 0; r < total; ++r) {
      bits[r] = rng.uniform() < 0.6;
      if (bits[r]) {
        free.add(r, r + 1);
        free_ranks.push_back(r);
      }
    }
    for (bool ring : {false, true}) {
      const SpanKind kind = ring ? SpanKind::ring : SpanKind::linear;
      for (int p = 1; p <= static_cast<int>(free_ranks.size()); ++p) {
        // Longest free run (merged across the end on a ring).
        int longest = 0;
        for (const auto& v : free.intervals()) longest = std::max(longest, v.length());
        if (ring && free.intervals().size() >= 2 && bits[0] && bits[total - 1])
          longest = std::max(longest,
                             free.intervals().front().length() + free.intervals().back().length());
        const Ranks chosen = choose(free, p, CurveFit::first, kind);
        ASSERT_EQ(static_cast<int>(chosen.size()), p);
        for (int r : chosen) ASSERT_TRUE(bits[r]);
        const double span = ring ? ring_span(chosen, total) : linear_span(chosen);
        if (longest >= p) {
          EXPECT_EQ(span, p);  // inside one interval
        } else {
          EXPECT_EQ(span, brute_min_span(free_ranks, p, total, ring))
              << "trial " << trial << " p " << p << " ring " << ring;
          if (!ring) {  // tie rule: no window of equal span starts earlier
            const int start = chosen.front();
            EXPECT_EQ(start, *std::min_element(chosen.begin(), chosen.end()));
            for (std::size_t s = 0; s + p <= free_ranks.size() && free_ranks[s] < start; ++s)
              EXPECT_GT(free_ranks[s + p - 1] - free_ranks[s] + 1, span);
          }
        }
        // Sum of squares: the chosen interval gives the smallest Σ count², found by recounting
        // the intervals left after every candidate placement.
        if (longest >= p) {
          const Ranks sumsq = choose(free, p, CurveFit::sumsq, kind);
          long long best = LLONG_MAX;
          for (auto [start, length] : runs_of(bits, ring)) {
            if (length < p) continue;
            std::vector<char> after = bits;
            for (int i = 0; i < p; ++i) after[(start + i) % total] = 0;
            best = std::min(best, sum_of_squares(after, ring));
          }
          std::vector<char> after = bits;
          for (int r : sumsq) after[r] = 0;
          EXPECT_EQ(sum_of_squares(after, ring), best) << "trial " << trial << " p " << p;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The allocator

struct Machine {
  explicit Machine(const std::string& spec)
      : topology(Topology::parse(spec)), busy(topology.node_count(), 0) {}
  MachineView view() {
    const int free = static_cast<int>(std::count(busy.begin(), busy.end(), 0));
    return MachineView(topology, busy, free, rng);
  }
  void mark(const Allocation& allocation, bool is_busy) {
    for (NodeId node : allocation.nodes) busy[node] = is_busy;
  }
  Topology topology;
  std::vector<char> busy;
  Rng rng{1};
};

Job job_of(int procs) {
  Job job;
  job.procs = procs;
  return job;
}

/// Ranks of `nodes` in the allocator's linear order.
std::vector<int> ranks_in(const Allocator& allocator, const std::vector<NodeId>& nodes) {
  std::vector<int> ranks;
  for (NodeId node : nodes) ranks.push_back(allocator.linear_ranks()->at(node));
  return ranks;
}

std::vector<NodeId> sorted(std::vector<NodeId> nodes) {
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

TEST(CurveAllocator, HilbertBestFitOnFourByFour) {
  Machine machine("mesh:4x4");
  auto allocator = make_allocator("curve:order=hilbert,fit=best", machine.topology);
  auto first = allocator->allocate(job_of(4), machine.view());
  ASSERT_TRUE(first);
  EXPECT_EQ(first->nodes, (std::vector<NodeId>{0, 1, 5, 4}));  // a 2x2 quadrant, curve order
  EXPECT_DOUBLE_EQ(linear_span(ranks_in(*allocator, first->nodes)), 4);
  EXPECT_DOUBLE_EQ(ring_span(ranks_in(*allocator, first->nodes), 16), 4);
  EXPECT_EQ(first->pieces, 1);
  allocator->commit(*first);
  machine.mark(*first, true);
  auto second = allocator->allocate(job_of(4), machine.view());
  ASSERT_TRUE(second);
  EXPECT_EQ(sorted(second->nodes), (std::vector<NodeId>{8, 9, 12, 13}));
  EXPECT_FALSE(allocator->allocate(job_of(13), machine.view()));
  EXPECT_FALSE(allocator->contiguous_only());
}

TEST(CurveAllocator, FollowsAnotherAllocatorsPlacementsAndClonesIndependently) {
  Machine machine("mesh:8");
  CurveAllocator allocator(row_order(machine.topology), CurveFit::best, SpanKind::linear);
  Allocation foreign;
  foreign.nodes = {5, 2, 3};  // not this allocator's choice, any order
  allocator.commit(foreign);
  machine.mark(foreign, true);
  EXPECT_EQ(allocator.free_intervals().intervals(),
            (std::vector<FreeIntervals::Interval>{{0, 2}, {4, 5}, {6, 8}}));
  auto copy = allocator.clone();
  auto pair = allocator.allocate(job_of(2), machine.view());
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->nodes, (std::vector<NodeId>{0, 1}));  // best fit: first interval of 2
  copy->commit(*pair);
  EXPECT_EQ(allocator.free_intervals().free_count(), 5);  // the original did not change
  auto three = allocator.allocate(job_of(3), machine.view());
  ASSERT_TRUE(three);
  EXPECT_EQ(three->nodes, (std::vector<NodeId>{4, 6, 7}));  // span 4 beats 0,1,4 (span 5)
  EXPECT_DOUBLE_EQ(linear_span(ranks_in(allocator, three->nodes)), 4);
  EXPECT_EQ(three->pieces, 2);
  allocator.release(foreign);
  machine.mark(foreign, false);
  EXPECT_EQ(allocator.free_intervals().intervals(), (std::vector<FreeIntervals::Interval>{{0, 8}}));
}

TEST(CurveAllocator, RebuildsFromTheMachineWhenNodesWereMadeBusyBehindItsBack) {
  Machine machine("mesh:4x2");
  CurveAllocator allocator(row_order(machine.topology), CurveFit::first, SpanKind::linear);
  machine.busy[0] = machine.busy[1] = 1;  // never committed to the allocator
  auto allocation = allocator.allocate(job_of(3), machine.view());
  ASSERT_TRUE(allocation);
  EXPECT_EQ(allocation->nodes, (std::vector<NodeId>{2, 3, 4}));
}

TEST(CurveAllocator, RegistryRowAndParameters) {
  const Topology machine = Topology::parse("mesh:8x8x5");
  EXPECT_EQ(allocator_registry().canonical("curve"), "curve:fit=best,order=hilbert,span=linear");
  for (const char* spec : {"curve", "curve:order=snake,fit=first", "curve:order=row,fit=none",
                           "curve:order=ghilbert,fit=sumsq,span=ring"})
    EXPECT_NE(make_allocator(spec, machine), nullptr) << spec;
  EXPECT_THROW(make_allocator("curve:order=peano", machine), InputError);
  EXPECT_THROW(make_allocator("curve:fit=worst", machine), InputError);
  EXPECT_THROW(make_allocator("curve:ordering=row", machine), InputError);
  EXPECT_THROW(CurveAllocator({0, 0, 1}, CurveFit::best, SpanKind::linear), InputError);
}

TEST(CurveAllocator, OrderFromAFile) {
  const std::string path = ::testing::TempDir() + "/allocsim_curve_order.txt";
  {
    std::ofstream out(path);
    out << "3\n1\n0\n2\n";
  }
  Machine machine("mesh:4");
  auto allocator = make_allocator("curve:order=file:path=" + path + ",fit=first", machine.topology);
  auto allocation = allocator->allocate(job_of(2), machine.view());
  ASSERT_TRUE(allocation);
  EXPECT_EQ(allocation->nodes, (std::vector<NodeId>{3, 1}));
}

TEST(CurveAllocator, ChurnKeepsStateInStepWithTheMachine) {
  Machine machine("torus:4x4x4");
  auto allocator = make_allocator("curve:order=hilbert,fit=sumsq,span=ring", machine.topology);
  std::vector<Allocation> running;
  Rng rng(3);
  for (int step = 0; step < 2000; ++step) {
    if (!running.empty() && rng.uniform() < 0.5) {
      const auto index = static_cast<std::size_t>(
          rng.uniform_int(0, static_cast<std::int64_t>(running.size()) - 1));
      allocator->release(running[index]);
      machine.mark(running[index], false);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(index));
      continue;
    }
    const int procs = static_cast<int>(rng.uniform_int(1, 12));
    auto allocation = allocator->allocate(job_of(procs), machine.view());
    if (!allocation) {
      ASSERT_LT(machine.view().free_count(), procs);
      continue;
    }
    ASSERT_EQ(static_cast<int>(allocation->nodes.size()), procs);
    for (NodeId node : allocation->nodes) ASSERT_FALSE(machine.busy[node]);
    allocator->commit(*allocation);
    machine.mark(*allocation, true);
    running.push_back(*allocation);
  }
}

}  // namespace
}  // namespace allocsim
