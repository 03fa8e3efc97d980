// FreeProfile (conservative backfilling's free-node profile) against brute force on random
// profiles: every search answer (whole and bounded), index_of and the profile after occupy and
// advance.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "allocsim/sched/conservative.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {
namespace {

/// Trying every candidate from `from` on, before `limit`, with the whole window checked.
std::size_t brute_earliest(const FreeProfile& profile, int need, double duration, double limit,
                           std::size_t from) {
  for (std::size_t c = from; c < profile.size() && profile.time(c) < limit; ++c) {
    bool fits = profile.free(c) >= need;
    const double end = profile.time(c) + duration;
    for (std::size_t b = c + 1; fits && b < profile.size() && profile.time(b) < end; ++b)
      fits = profile.free(b) >= need;
    if (fits) return c;
  }
  return FreeProfile::kNone;
}

/// A random profile: releases at small integer (or fractional) times, then a few reservations.
FreeProfile random_profile(Rng& rng, double now, int machine) {
  std::vector<std::pair<double, int>> releases;
  int used = 0;
  const int running = static_cast<int>(rng.uniform_int(0, 12));
  for (int i = 0; i < running && used < machine; ++i) {
    const int nodes = static_cast<int>(rng.uniform_int(1, machine - used));
    used += nodes;
    // Some at now: a release is clamped to now (reset's precondition), as the scheduler does.
    const double at =
        now + static_cast<double>(std::max<std::int64_t>(rng.uniform_int(-3, 30), 0)) / 2;
    releases.emplace_back(at, nodes);
  }
  std::sort(releases.begin(), releases.end());
  FreeProfile profile;
  profile.reset(now, machine - used, releases);
  const int reservations = static_cast<int>(rng.uniform_int(0, 12));
  for (int i = 0; i < reservations; ++i) {
    const int need = static_cast<int>(rng.uniform_int(1, machine));
    const double duration = static_cast<double>(rng.uniform_int(0, 20)) / 2;
    const std::size_t at = profile.earliest(need, duration);
    profile.occupy(at, profile.time(at) + duration, need);
  }
  return profile;
}

TEST(FreeProfile, SearchesMatchTryingEveryCandidate) {
  Rng rng(1507);
  for (int round = 0; round < 3000; ++round) {
    const int machine = static_cast<int>(rng.uniform_int(1, 16));
    const double now = static_cast<double>(rng.uniform_int(0, 10));
    const FreeProfile profile = random_profile(rng, now, machine);
    ASSERT_EQ(profile.time(0), now);
    ASSERT_EQ(profile.free(profile.size() - 1), machine);
    for (int query = 0; query < 10; ++query) {
      const int need = static_cast<int>(rng.uniform_int(0, machine));
      const double duration = static_cast<double>(rng.uniform_int(0, 30)) / 2;
      const double limit = rng.uniform_int(0, 4) == 0
                               ? FreeProfile::kNoLimit
                               : now + static_cast<double>(rng.uniform_int(0, 60)) / 2;
      const std::size_t found = profile.earliest_before(need, duration, limit);
      ASSERT_EQ(found, brute_earliest(profile, need, duration, limit, 0)) << round;
      ASSERT_EQ(profile.earliest(need, duration),
                brute_earliest(profile, need, duration, FreeProfile::kNoLimit, 0));
      const double time = now + static_cast<double>(rng.uniform_int(-2, 40)) / 2;
      std::size_t at = 0;
      while (at < profile.size() && profile.time(at) < time) ++at;
      const std::size_t expected =
          at < profile.size() && profile.time(at) == time ? at : FreeProfile::kNone;
      ASSERT_EQ(profile.index_of(time), expected) << round;
    }
  }
}

/// The free count of the step that holds at `time` (before the first breakpoint: the first).
int value_at(const FreeProfile& profile, double time) {
  std::size_t i = 0;
  while (i + 1 < profile.size() && profile.time(i + 1) <= time) ++i;
  return profile.free(i);
}

TEST(FreeProfile, UpdatesMatchTheStepFunction) {
  Rng rng(2411);
  for (int round = 0; round < 2000; ++round) {
    const int machine = static_cast<int>(rng.uniform_int(1, 16));
    const double now = static_cast<double>(rng.uniform_int(0, 10));
    FreeProfile profile = random_profile(rng, now, machine);
    std::vector<double> probes;
    for (int k = -2; k <= 90; ++k) probes.push_back(now + k / 2.0);
    std::vector<int> before;
    for (double t : probes) before.push_back(value_at(profile, t));
    const std::size_t from =
        static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(profile.size()) - 1));
    const double to = profile.time(from) + static_cast<double>(rng.uniform_int(0, 40)) / 2;
    const int nodes = static_cast<int>(rng.uniform_int(-3, 3));
    const double start = profile.time(from);
    profile.occupy(from, to, nodes);
    for (std::size_t i = 0; i < probes.size(); ++i) {
      const double t = probes[i];
      const int expected = t >= start && t < to ? before[i] - nodes : before[i];
      if (t >= now) {
        ASSERT_EQ(value_at(profile, t), expected) << round << " t=" << t;
      }
    }
    for (std::size_t i = 1; i < profile.size(); ++i)
      ASSERT_LT(profile.time(i - 1), profile.time(i));
    const double later = now + static_cast<double>(rng.uniform_int(0, 30)) / 2;
    std::vector<int> kept;
    for (double t : probes) kept.push_back(value_at(profile, t));
    profile.advance(later);
    ASSERT_EQ(profile.time(0), later);
    for (std::size_t i = 0; i < probes.size(); ++i)
      if (probes[i] >= later) {
        ASSERT_EQ(value_at(profile, probes[i]), kept[i]) << round;
      }
  }
}

}  // namespace
}  // namespace allocsim
