// will-run's memo of walks per usable set (sched/slurm_will_run.hpp) against a walk written
// node by node from the rules of sched/slurm_backfill.hpp, without the window jump and without
// any memo: random running jobs (with runs of equal ends, and groups of more than 200 removals),
// random usable sets drawn from a small pool so that most queries repeat one, random needs.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <vector>

#include "allocsim/sched/slurm_will_run.hpp"
#include "allocsim/util/rng.hpp"

using namespace allocsim;

namespace {

struct ReferenceTest {
  double end = 0;  ///< the group's last planned end (0 for the test at now)
  int count = 0;
  std::vector<char> free_usable;
};

/// Every test of the walk on `usable`, node by node.
std::vector<ReferenceTest> reference_walk(const std::vector<char>& free,
                                          const std::vector<std::vector<char>>& nodes,
                                          const std::vector<double>& ends,
                                          const std::vector<char>& usable) {
  const std::size_t size = free.size();
  std::vector<char> free_usable(size);
  int count = 0;
  for (std::size_t n = 0; n < size; ++n) {
    free_usable[n] = free[n] && usable[n];
    count += free_usable[n];
  }
  std::vector<ReferenceTest> tests{{0, count, free_usable}};
  double window = 30, barrier = -1;
  std::size_t next = 0;
  bool more = true;
  while (more) {
    int last = -1, removed = 0;
    bool test = true;
    while (true) {
      if (next == ends.size()) {
        more = false;
        break;
      }
      const std::size_t job = next++;
      bool any = false;
      for (std::size_t n = 0; n < size; ++n) any = any || (nodes[job][n] && usable[n]);
      if (!any) continue;  // no usable node: no barrier, not the last, not counted
      if (barrier < 0) barrier = ends[job] + (30 - std::fmod(ends[job], 30));
      for (std::size_t n = 0; n < size; ++n) {
        if (nodes[job][n] && usable[n] && !free_usable[n]) {
          free_usable[n] = 1;
          ++count;
        }
      }
      last = static_cast<int>(job);
      if (next == ends.size()) {
        more = false;
        break;
      }
      if (ends[next] > barrier + window) break;
      if (removed++ > 200) {
        test = false;
        break;
      }
    }
    if (last < 0) break;
    if (!test) continue;
    window *= 2;
    while (next < ends.size() && ends[next] > barrier + window) window *= 2;  // one at a time
    tests.push_back({ends[static_cast<std::size_t>(last)], count, free_usable});
  }
  return tests;
}

std::vector<char> random_set(Rng& rng, int size, double density) {
  std::vector<char> set(static_cast<std::size_t>(size));
  for (auto& member : set) member = rng.uniform() < density;
  return set;
}

NodeSet to_node_set(const std::vector<char>& members) {
  NodeSet set(static_cast<int>(members.size()));
  for (std::size_t n = 0; n < members.size(); ++n)
    if (members[n]) set.set(static_cast<int>(n));
  return set;
}

}  // namespace

// Also with a memo bounded to a few node sets, released again and again mid-pass.
class WillRunMemoBound : public ::testing::TestWithParam<std::size_t> {};

TEST_P(WillRunMemoBound, MatchesAWalkWrittenNodeByNode) {
  Rng rng(2811);
  WillRunMemo memo(GetParam());
  int answered = 0, never = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // A machine, the running jobs on disjoint nodes, the others free or idle-but-not-usable.
    const bool crowded = trial % 10 == 0;  // more than 200 one-node jobs ending together
    const int size = crowded ? 400 : 1 + static_cast<int>(rng.uniform() * 200);
    std::vector<char> free(static_cast<std::size_t>(size));
    std::vector<std::vector<char>> job_nodes;
    std::vector<double> ends;
    std::vector<int> owner(static_cast<std::size_t>(size), -1);
    const int jobs = crowded ? 260 : static_cast<int>(rng.uniform() * 30);
    for (int job = 0; job < jobs; ++job) {
      job_nodes.emplace_back(static_cast<std::size_t>(size), 0);
      // ends: runs of equal values, gaps from seconds to days
      const double gap = rng.uniform() < 0.3 ? 0 : std::exp(rng.uniform() * 12);
      ends.push_back((ends.empty() ? 1000 + rng.uniform() * 100 : ends.back()) +
                     (crowded ? 0 : gap));
    }
    for (int node = 0; node < size; ++node) {
      if (jobs > 0 && rng.uniform() < (crowded ? 0.7 : 0.6)) {
        const int job = crowded && node < jobs ? node : static_cast<int>(rng.uniform() * jobs);
        job_nodes[static_cast<std::size_t>(job)][static_cast<std::size_t>(node)] = 1;
        owner[static_cast<std::size_t>(node)] = job;
      } else {
        free[static_cast<std::size_t>(node)] = 1;
      }
    }
    std::vector<PlannedJob> planned;
    for (int job = 0; job < jobs; ++job) {
      PlannedJob entry;
      entry.end = ends[static_cast<std::size_t>(job)];
      entry.nodes = to_node_set(job_nodes[static_cast<std::size_t>(job)]);
      entry.job = job;
      entry.barrier = entry.end + (30 - std::fmod(entry.end, 30));
      std::tie(entry.first, entry.last) = entry.nodes.word_range();
      planned.push_back(std::move(entry));
    }
    const NodeSet free_set = to_node_set(free);
    std::vector<std::vector<char>> pool;
    for (int u = 0; u < 4; ++u) pool.push_back(random_set(rng, size, 0.3 + 0.7 * rng.uniform()));
    memo.clear();
    for (int query = 0; query < 40; ++query) {
      const auto& usable =
          pool[static_cast<std::size_t>(rng.uniform() * static_cast<double>(pool.size()))];
      const int need = static_cast<int>(rng.uniform() * (size + 2));
      const auto tests = reference_walk(free, job_nodes, ends, usable);
      std::size_t expect = tests.size();
      for (std::size_t t = 0; t < tests.size() && expect == tests.size(); ++t)
        if (tests[t].count >= need) expect = t;
      WillRunMemo::Answer answer;
      const NodeSet usable_set = to_node_set(usable);
      const bool found =
          memo.first_reaching(free_set, planned, usable_set, usable_set.hash(), need, answer);
      ASSERT_EQ(found, expect < tests.size()) << "trial " << trial << " query " << query;
      if (!found) {
        ++never;
        continue;
      }
      ++answered;
      ASSERT_EQ(answer.test, expect) << "trial " << trial << " query " << query;
      if (expect > 0) {
        ASSERT_EQ(answer.end, tests[expect].end);
      }
      ASSERT_TRUE(*answer.free_usable == to_node_set(tests[expect].free_usable))
          << "trial " << trial << " query " << query;
    }
  }
  EXPECT_GT(answered, 1000);  // both outcomes are exercised
  EXPECT_GT(never, 100);
}

INSTANTIATE_TEST_SUITE_P(WillRunMemo, WillRunMemoBound,
                         ::testing::Values(WillRunMemo::kDefaultMaxWords, std::size_t{40}));
