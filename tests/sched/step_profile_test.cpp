// StepProfile (sched/step_profile.hpp) and FailureMemo (sched/failure_memo.hpp) against plain
// arrays on random operations: the profile's value at every integer time after add, advance,
// compact and move (also against add twice, breakpoint by breakpoint, and its pins against a
// reservation given back and taken, overlapping windows or not), its negative count, and
// every search answer (with and without an own window); the memo's answer against the largest start
// over every failure recorded; the staircase of the failures from a start on (filled, then added
// to as failures are recorded) against every failure recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "allocsim/sched/failure_memo.hpp"
#include "allocsim/sched/step_profile.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {
namespace {

constexpr int kHorizon = 200;  // the plain array: one free count per unit of time

/// The profile's count at time t (a breakpoint at or before t holds it).
int value_at(const StepProfile& profile, double t) {
  std::size_t i = profile.lower(t);
  if (i == profile.size() || profile.time(i) > t) --i;
  return profile.free(i);
}

/// Trying every breakpoint candidate from `from` on, before `limit`, against the array.
std::size_t brute_earliest(const StepProfile& profile, const std::vector<int>& slots, int need,
                           int duration, double limit, std::size_t from, const OwnWindow& own) {
  auto slot = [&](int u) {
    const int nodes = own.from <= u && u < own.to ? own.nodes : 0;
    return slots[static_cast<std::size_t>(std::min(u, kHorizon - 1))] + nodes;
  };
  for (std::size_t c = from; c < profile.size() && profile.time(c) < limit; ++c) {
    const int t = static_cast<int>(profile.time(c));
    bool fits = slot(t) >= need;
    for (int u = t + 1; fits && u < t + duration; ++u) fits = slot(u) >= need;
    if (fits) return c;
  }
  return StepProfile::kNone;
}

TEST(StepProfile, MatchesAPlainArrayOnRandomOperations) {
  Rng rng(28);
  for (int round = 0; round < 300; ++round) {
    const int machine = static_cast<int>(rng.uniform_int(1, 40));
    int now = 0;
    StepProfile profile;
    profile.reset(now, machine);
    std::vector<int> slots(kHorizon, machine);
    for (int step = 0; step < 60; ++step) {
      const std::int64_t kind = rng.uniform_int(0, 9);
      if (kind < 6) {  // add over [from, to) (to up to the horizon: "infinity")
        const int from = static_cast<int>(rng.uniform_int(now - 3, 150));
        const int to = static_cast<int>(rng.uniform_int(from, 151));
        const int delta = static_cast<int>(rng.uniform_int(-machine, machine));
        const bool forever = to == 151;
        profile.add(from, forever ? std::numeric_limits<double>::infinity() : to, delta);
        for (int u = std::max(from, now); u < (forever ? kHorizon : to); ++u)
          slots[static_cast<std::size_t>(u)] += delta;
      } else if (kind < 7) {
        now = static_cast<int>(rng.uniform_int(now, now + 6));
        profile.advance(now);
      } else if (kind < 8) {  // compaction keeping a few breakpoints
        std::vector<double> keep;
        for (std::size_t i = 0; i < profile.size(); ++i)
          if (rng.uniform_int(0, 3) == 0) keep.push_back(profile.time(i));
        profile.compact(keep);
        for (double t : keep) EXPECT_LT(profile.lower(t), profile.size());
        for (double t : keep) EXPECT_EQ(profile.time(profile.lower(t)), t);
      } else if (kind < 9 || profile.size() < 3) {
        profile.ensure(static_cast<double>(rng.uniform_int(now + 1, 160)));
      } else {  // move a window between breakpoints earlier: as add twice, breakpoints too
        const auto last = static_cast<std::int64_t>(profile.size()) - 1;
        const auto a = static_cast<std::size_t>(rng.uniform_int(2, last));
        const auto c =
            static_cast<std::size_t>(rng.uniform_int(1, static_cast<std::int64_t>(a) - 1));
        const auto b =
            static_cast<std::size_t>(rng.uniform_int(static_cast<std::int64_t>(a), last));
        const double from = std::min(profile.time(a), 169.0), to = profile.time(c);
        if (from != profile.time(a)) continue;  // (past the times the array follows)
        // Ending at a breakpoint, or at a new one by time 170 (the array's horizon is 200).
        const double duration =
            b > a ? profile.time(b) - from
                  : static_cast<double>(rng.uniform_int(
                        1, std::max<std::int64_t>(1, 170 - static_cast<std::int64_t>(from))));
        if (b == a) profile.ensure(from + duration);
        const int nodes = static_cast<int>(rng.uniform_int(-machine, machine));
        StepProfile twice = profile;
        if (nodes > 0) {  // as a reservation given back, then taken (pins too)
          twice.reserve(from, from + duration, nodes);
          twice.reserve(to, to + duration, -nodes);
        } else {
          twice.add(from, from + duration, nodes);
          twice.add(to, to + duration, -nodes);
        }
        // With the old window's index given half the time (as a search may give it).
        profile.move(from, to, c, duration, nodes, StepProfile::kNone,
                     rng.uniform_int(0, 1) == 0 ? profile.lower(from) : StepProfile::kNone);
        ASSERT_EQ(profile.size(), twice.size());
        for (std::size_t i = 0; i < profile.size(); ++i) {
          ASSERT_EQ(profile.time(i), twice.time(i));
          ASSERT_EQ(profile.free(i), twice.free(i));
        }
        if (nodes > 0) {  // the same pins: compaction keeps the same breakpoints
          StepProfile moved = profile, added = twice;
          moved.compact({});
          added.compact({});
          ASSERT_EQ(moved.size(), added.size()) << "round " << round << " step " << step;
          for (std::size_t i = 0; i < moved.size(); ++i) ASSERT_EQ(moved.time(i), added.time(i));
        }
        for (int u = static_cast<int>(from);
             u < std::min<int>(kHorizon, static_cast<int>(from + duration)); ++u)
          slots[static_cast<std::size_t>(u)] += nodes;
        for (int u = static_cast<int>(to);
             u < std::min<int>(kHorizon, static_cast<int>(to + duration)); ++u)
          slots[static_cast<std::size_t>(u)] -= nodes;
      }
      std::size_t negatives = 0;
      for (std::size_t i = 0; i < profile.size(); ++i) negatives += profile.free(i) < 0 ? 1 : 0;
      ASSERT_EQ(profile.negatives(), negatives);
      ASSERT_EQ(profile.time(0), now);
      for (int u = now; u < kHorizon; ++u)
        ASSERT_EQ(value_at(profile, u), slots[static_cast<std::size_t>(u)]) << "time " << u;
      // Searches: random need, duration, limit, start index, and own window (breakpoints).
      for (int query = 0; query < 5; ++query) {
        const int need = static_cast<int>(rng.uniform_int(-2, machine + 2));
        const int duration = static_cast<int>(rng.uniform_int(0, 40));
        const double limit = rng.uniform_int(0, 4) == 0
                                 ? std::numeric_limits<double>::infinity()
                                 : static_cast<double>(rng.uniform_int(now, 170));
        const std::size_t from =
            static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(profile.size())));
        OwnWindow own;
        if (profile.size() > 1 && rng.uniform_int(0, 1) == 0) {
          const auto last = static_cast<std::int64_t>(profile.size()) - 1;
          const auto a = static_cast<std::size_t>(rng.uniform_int(0, last - 1));
          const auto b =
              static_cast<std::size_t>(rng.uniform_int(static_cast<std::int64_t>(a) + 1, last));
          own = {profile.time(a), profile.time(b), static_cast<int>(rng.uniform_int(1, machine))};
        }
        std::size_t window_end = StepProfile::kNone, own_start = 0;
        const std::size_t found =
            profile.earliest(need, duration, limit, from, own, &window_end, &own_start);
        EXPECT_EQ(found, brute_earliest(profile, slots, need, duration, limit, from, own))
            << "round " << round << " step " << step << " need " << need << " duration "
            << duration;
        if (found != StepProfile::kNone) {  // the first breakpoint at or after the fit's end
          const double end = profile.time(found) + duration;
          std::size_t expected = found + 1;
          while (expected < profile.size() && profile.time(expected) < end) ++expected;
          // Not known (kNone) exactly when the fit's window reaches a breakpoint of the own
          // window, ends by its end, no count is negative and the own nodes cover the need.
          bool reaches_own = false;
          for (std::size_t i = found + 1; i < expected; ++i)
            reaches_own |= own.from <= profile.time(i) && profile.time(i) < own.to;
          if (reaches_own && end <= own.to && profile.negatives() == 0 && own.nodes >= need)
            expected = StepProfile::kNone;
          EXPECT_EQ(window_end, expected) << "round " << round << " step " << step;
          if (expected == StepProfile::kNone) {  // the own window's start, if the scan met it
            const std::size_t own_from = profile.lower(own.from);
            EXPECT_EQ(own_start, own_from > found ? own_from : StepProfile::kNone);
          }
        }
        const double at = now + static_cast<double>(rng.uniform_int(0, 300)) / 2;
        bool fits = true;
        for (int u = static_cast<int>(at); fits && u < at + std::max(duration, 1); ++u)
          fits = slots[static_cast<std::size_t>(std::min(u, kHorizon - 1))] >= need;
        if (duration > 0 || at == static_cast<int>(at)) {
          EXPECT_EQ(profile.fits_at(at, need, duration), fits) << "at " << at;
        }
      }
    }
  }
}

/// A failure recorded by a walk: a job of `need` and `duration` found no place before `start`.
struct Failure {
  int need;
  double duration;
  double start;
};

/// The next random failure of a walk whose starts (`start`, advanced here) are mostly
/// nondecreasing (the walk's order), sometimes earlier (a moved job's new start).
Failure next_failure(Rng& rng, double& start) {
  start += static_cast<double>(rng.uniform_int(0, 2));
  const double at =
      rng.uniform_int(0, 3) == 0 ? start - static_cast<double>(rng.uniform_int(0, 8)) : start;
  return {static_cast<int>(rng.uniform_int(0, 12)), static_cast<double>(rng.uniform_int(0, 12)),
          at};
}

TEST(StepProfile, CompactionKeepsTheReservedWindowsEnds) {
  // Hand-worked: 10 nodes; windows [5, 9) and [7, 12) of 2 nodes reserved, the second moved to
  // [3, 8), the first given back: 10 on [0, 3), 8 on [3, 8), 10 from 8. The breakpoints 5, 7,
  // 9 and 12 are redundant and unpinned: compaction keeps 0, 3 and 8.
  StepProfile profile;
  profile.reset(0, 10);
  profile.reserve(5, 9, -2);
  profile.reserve(7, 12, -2);
  profile.ensure(3);
  profile.move(7, 3, profile.lower(3), 5, 2);
  profile.reserve(5, 9, 2);
  profile.add(1, 2, 0);  // (no nodes: no breakpoint)
  profile.compact({});
  ASSERT_EQ(profile.size(), 3u);
  EXPECT_EQ(profile.time(1), 3);
  EXPECT_EQ(profile.free(1), 8);
  EXPECT_EQ(profile.time(2), 8);
  EXPECT_EQ(profile.free(2), 10);
  // [8, 10) reserved twice, given back once, its last node given back by a plain add: 10 is
  // redundant but still pinned by the reservation left, so it stays.
  profile.reserve(8, 10, -1);
  profile.reserve(8, 10, -1);
  profile.reserve(8, 10, 1);
  profile.add(8, 10, 1);
  profile.compact({});
  ASSERT_EQ(profile.size(), 4u);
  EXPECT_EQ(profile.time(3), 10);
  EXPECT_EQ(profile.free(2), 10);
  EXPECT_EQ(profile.free(3), 10);
  profile.reserve(8, 10, 1);  // (the last reservation given back: 10 goes)
  profile.add(8, 10, -1);
  profile.compact({});
  EXPECT_EQ(profile.size(), 3u);
}

TEST(StepProfile, LowerGallopIsLowerFromAnyIndexNotPastIt) {
  StepProfile profile;
  profile.reset(0, 10);
  for (int i = 1; i < 60; ++i) profile.add(i * 3, i * 3 + 2, -1);  // breakpoints 0, 3, 5, 6, ...
  for (double t = 0; t <= 200; t += 0.5) {
    const std::size_t expected = profile.lower(t);
    for (std::size_t from = 0; from <= expected; ++from)
      EXPECT_EQ(profile.lower_gallop(from, t), expected) << t << " " << from;
  }
}

TEST(FailureMemo, LargestStartOfTheDominatingFailures) {
  Rng rng(2028);
  for (int round = 0; round < 200; ++round) {
    FailureMemo memo;
    std::vector<Failure> all;
    double start = 0;
    for (int step = 0; step < 50; ++step) {
      const Failure failure = next_failure(rng, start);
      // The index kept with a failure: here a function of its start (every failure answering
      // has the largest start, so the same index whichever of them answers).
      const auto index_of = [](double t) { return static_cast<std::size_t>(t * 2) + 1; };
      memo.record(failure.need, failure.duration, failure.start, index_of(failure.start));
      all.push_back(failure);
      for (int query = 0; query < 10; ++query) {
        const int need = static_cast<int>(rng.uniform_int(0, 13));
        const double duration = static_cast<double>(rng.uniform_int(0, 13));
        double expected = -std::numeric_limits<double>::infinity();
        for (const Failure& f : all)
          if (f.need <= need && f.duration <= duration) expected = std::max(expected, f.start);
        std::size_t index = 0;
        EXPECT_EQ(memo.covered_until(need, duration, &index), expected);
        if (std::isfinite(expected)) {
          EXPECT_EQ(index, index_of(expected));
        }
      }
    }
    memo.clear();
    EXPECT_EQ(memo.covered_until(100, 100), -std::numeric_limits<double>::infinity());
  }
}

TEST(FailureMemo, StaircaseFromAStartAgainstEveryFailure) {
  // As the walk uses it: filled from the memo at `from`, then given every failure recorded with
  // a start >= from; asked whether a failure with start >= from dominates a (need, duration).
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    FailureMemo memo;
    Staircase stair;
    std::vector<Failure> all;
    double start = 0, from = 0;
    bool filled = false;
    for (int step = 0; step < 60; ++step) {
      const Failure failure = next_failure(rng, start);
      memo.record(failure.need, failure.duration, failure.start);
      all.push_back(failure);
      if (filled && failure.start >= from) stair.add(failure.need, failure.duration);
      if (!filled || rng.uniform_int(0, 9) == 0) {  // (re)filled at a new start
        from = start - static_cast<double>(rng.uniform_int(0, 10));
        memo.fill(from, stair);
        filled = true;
      }
      EXPECT_LE(stair.size(), all.size());
      std::size_t hint = static_cast<std::size_t>(rng.uniform_int(0, 5));  // may be past the end
      for (int query = 0; query < 10; ++query) {
        const int need = static_cast<int>(rng.uniform_int(0, 13));
        const double duration = static_cast<double>(rng.uniform_int(0, 13));
        bool expected = false;
        for (const Failure& f : all)
          expected = expected || (f.start >= from && f.need <= need && f.duration <= duration);
        EXPECT_EQ(stair.dominates(need, duration), expected);
        EXPECT_EQ(stair.dominates(need, duration, hint), expected);  // hint kept across queries
        EXPECT_EQ(memo.covered_until(need, duration) >= from, expected);
      }
    }
  }
}

}  // namespace
}  // namespace allocsim
