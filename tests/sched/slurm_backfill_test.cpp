// The backfill pass's data structures (sched/slurm_backfill.hpp): NodeSet's word operations
// against one bit at a time, and NodeSpace (the node_space map) against a reference kept node by
// node, on random cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "allocsim/sched/slurm_backfill.hpp"
#include "allocsim/util/rng.hpp"

using namespace allocsim;

// NodeSet's word operations against one bit at a time, on random sets of 1 .. 200 nodes.
TEST(NodeSet, WordOperationsMatchBitByBit) {
  Rng rng(5);
  for (int trial = 0; trial < 500; ++trial) {
    const int size = 1 + static_cast<int>(rng.uniform() * 200);
    const double density[2] = {rng.uniform(), rng.uniform() * 0.1};
    NodeSet a(size), b(size), c(size);
    std::vector<char> busy(static_cast<std::size_t>(size));
    for (int node = 0; node < size; ++node) {
      if (rng.uniform() < density[0]) a.set(node);
      if (rng.uniform() < density[1]) b.set(node);
      if (rng.uniform() < 0.3) c.set(node);
      // busy entries are "nonzero when busy": any bit may be set
      if (rng.uniform() < 0.5)
        busy[static_cast<std::size_t>(node)] =
            static_cast<char>(1 << static_cast<int>(rng.uniform() * 8));
    }
    // count
    int count = 0;
    for (int node = 0; node < size; ++node) count += a.test(node);
    ASSERT_EQ(a.count(), count);
    // word_range: the words holding b's members
    const auto [first, last] = b.word_range();
    for (int node = 0; node < size; ++node) {
      const std::size_t word = static_cast<std::size_t>(node) / 64;
      if (b.test(node)) {
        ASSERT_TRUE(word >= first && word < last);
      }
    }
    if (b.count() == 0) {
      ASSERT_EQ(first, last);
    }
    // add_common: c |= a & b over b's words; returns the members added, -1 if a & b is empty
    NodeSet sum = c;
    const int added = sum.add_common(a, b, first, last);
    int expect_added = 0;
    bool common = false;
    for (int node = 0; node < size; ++node) {
      const bool both = a.test(node) && b.test(node);
      common = common || both;
      expect_added += both && !c.test(node);
      ASSERT_EQ(sum.test(node), c.test(node) || both);
    }
    ASSERT_EQ(added, common ? expect_added : -1);
    // keep_lowest
    const int keep = static_cast<int>(rng.uniform() * (count + 2));
    NodeSet lowest = a;
    lowest.keep_lowest(keep);
    int kept = 0;
    for (int node = 0; node < size; ++node) {
      const bool expected = a.test(node) && kept < keep;
      kept += expected;
      ASSERT_EQ(lowest.test(node), expected) << "size " << size << " keep " << keep;
    }
    // assign_common: a ∩ c and its count; assign_lowest: the `keep` lowest of a, into a set
    // holding other members before (every word is written)
    NodeSet both = b;
    const int common_count = both.assign_common(a, c);
    int expect_common = 0;
    for (int node = 0; node < size; ++node) {
      ASSERT_EQ(both.test(node), a.test(node) && c.test(node));
      expect_common += a.test(node) && c.test(node);
    }
    ASSERT_EQ(common_count, expect_common);
    NodeSet assigned = c;
    assigned.assign_lowest(a, keep);
    for (int node = 0; node < size; ++node)
      ASSERT_EQ(assigned.test(node), lowest.test(node)) << "size " << size << " keep " << keep;
    // count_and_hash: count() and hash(); equal sets hash alike
    std::uint64_t hash = 0;
    ASSERT_EQ(a.count_and_hash(hash), count);
    ASSERT_EQ(hash, a.hash());
    NodeSet same(size);
    for (int node = 0; node < size; ++node)
      if (a.test(node)) same.set(node);
    ASSERT_TRUE(same == a);
    ASSERT_EQ(same.hash(), hash);
    // from_busy
    NodeSet free(size);
    free.from_busy(busy);
    for (int node = 0; node < size; ++node)
      ASSERT_EQ(free.test(node), busy[static_cast<std::size_t>(node)] == 0);
  }
}

// NodeSpace (which visits only the words a segment's held nodes lie in) against a reference
// map kept node by node, written from backfill.c's rules as sched/slurm_backfill.hpp states
// them: random reservations on 1 .. 200 nodes, then usable() (nodes and later_start) and
// overlaps() for random intervals.
namespace {
struct ReferenceSpace {
  struct Segment {
    double begin, end;
    std::vector<char> held;
  };
  std::vector<Segment> segments;
  void split_at(double time) {
    for (std::size_t j = 0; j < segments.size(); ++j) {
      if (segments[j].begin >= time) return;
      if (segments[j].end > time) {
        Segment tail{time, segments[j].end, segments[j].held};
        segments[j].end = time;
        segments.insert(segments.begin() + static_cast<std::ptrdiff_t>(j) + 1, tail);
        return;
      }
    }
  }
  void reserve(const std::vector<char>& nodes, double from, double to) {
    if (!(to > from)) return;
    split_at(from);
    split_at(to);
    for (auto& segment : segments)
      if (segment.begin >= from && segment.end <= to)
        for (std::size_t n = 0; n < nodes.size(); ++n) segment.held[n] |= nodes[n];
  }
  double usable(double from, double to, std::vector<char>& usable) const {
    usable.assign(segments[0].held.size(), 1);
    double later = 0;
    for (std::size_t j = 0; j < segments.size(); ++j) {
      const Segment& segment = segments[j];
      if (later == 0 && segment.end > from && j + 1 < segments.size()) {
        // a node free in the next segment that is not usable so far (held here, or before)
        for (std::size_t n = 0; n < usable.size(); ++n)
          if (!segments[j + 1].held[n] && (!usable[n] || segment.held[n])) {
            later = segment.end;
            break;
          }
      }
      if (segment.end <= from) continue;
      if (segment.begin > to) {
        if (later == 0 && j + 2 < segments.size()) later = segments[j + 1].end;
        break;
      }
      for (std::size_t n = 0; n < usable.size(); ++n)
        if (segment.held[n]) usable[n] = 0;
    }
    return later;
  }
  bool overlaps(const std::vector<char>& nodes, double from, double to) const {
    for (const Segment& segment : segments)
      if (segment.end > from && segment.begin < to)
        for (std::size_t n = 0; n < nodes.size(); ++n)
          if (nodes[n] && segment.held[n]) return true;
    return false;
  }
};
}  // namespace

// later_start after a reservation that begins where the segment asked about ends: node 0 is
// held over [0, 600) and then over [600, 1200), so it is released at 1200, not at 600 (what the
// map knew of the first segment before the second reservation must go).
TEST(NodeSpace, LaterStartSeesAReservationAddedAfterTheSegment) {
  NodeSpace space;
  space.reset(0, 3600, 4);
  NodeSet node0(4);
  node0.set(0);
  NodeSet usable(4);
  space.reserve(node0, 0, 600);
  EXPECT_EQ(space.usable(0, 100, usable), 600);
  space.reserve(node0, 600, 1200);
  EXPECT_EQ(space.usable(0, 100, usable), 1200);
  EXPECT_FALSE(usable.test(0));
  EXPECT_EQ(usable.count(), 3);
}

TEST(NodeSpace, MatchesAReferenceKeptNodeByNode) {
  Rng rng(28);
  int crowded = 0;  // questions usable_for answered without the set
  for (int trial = 0; trial < 400; ++trial) {
    const int size = 1 + static_cast<int>(rng.uniform() * 200);
    const double now = 60 * std::floor(rng.uniform() * 10), end = now + 3600;
    NodeSpace space;
    space.reset(now, end, size);
    ReferenceSpace reference{{{now, end, std::vector<char>(static_cast<std::size_t>(size), 0)}}};
    auto random_set = [&](double density, NodeSet& set, std::vector<char>& flags) {
      set = NodeSet(size);
      flags.assign(static_cast<std::size_t>(size), 0);
      // a run of nodes (as lowest-id choices make) or scattered ones
      const bool run = rng.uniform() < 0.5;
      const int from = static_cast<int>(rng.uniform() * size);
      for (int node = 0; node < size; ++node) {
        const bool in = run ? node >= from && node < from + 1 + static_cast<int>(density * 40)
                            : rng.uniform() < density;
        if (in) {
          set.set(node);
          flags[static_cast<std::size_t>(node)] = 1;
        }
      }
    };
    const int reservations = static_cast<int>(rng.uniform() * 12);
    NodeSet set;
    std::vector<char> flags;
    for (int r = 0; r < reservations; ++r) {
      random_set(rng.uniform() * 0.3, set, flags);
      const double from = now + 60 * std::floor(rng.uniform() * 70);
      const double to = std::min(end, from + 60 * (1 + std::floor(rng.uniform() * 30)));
      space.reserve(set, from, to);
      reference.reserve(flags, from, to);
    }
    for (int query = 0; query < 20; ++query) {
      const double from = now + 30 * std::floor(rng.uniform() * 130);
      const double to = from + 30 * std::floor(rng.uniform() * 60);
      NodeSet usable(size);
      std::vector<char> expected;
      const double expected_later = reference.usable(from, to, expected);
      ASSERT_EQ(space.usable(from, to, usable), expected_later)
          << "trial " << trial << " query " << query;
      // usable_for: the same later_start; `enough` false only when fewer than need are usable
      // (its test: one segment holding more than size - need), the same set otherwise.
      const int need = 1 + static_cast<int>(rng.uniform() * size);
      NodeSet for_need(size);
      bool enough = true;
      ASSERT_EQ(space.usable_for(from, to, need, for_need, enough), expected_later)
          << "trial " << trial << " query " << query;
      const int usable_count = static_cast<int>(std::count(expected.begin(), expected.end(), 1));
      if (!enough) {
        ASSERT_LT(usable_count, need) << "trial " << trial << " query " << query;
        ++crowded;
      } else {
        ASSERT_EQ(for_need, usable) << "trial " << trial << " query " << query;
      }
      NodeSet only(size);
      space.usable_only(from, to, only);
      for (int node = 0; node < size; ++node) {
        ASSERT_EQ(usable.test(node), expected[static_cast<std::size_t>(node)] != 0)
            << "trial " << trial << " query " << query << " node " << node;
        ASSERT_EQ(only.test(node), usable.test(node));
      }
      random_set(rng.uniform() * 0.2, set, flags);
      ASSERT_EQ(space.overlaps(set, from, to), reference.overlaps(flags, from, to))
          << "trial " << trial << " query " << query;
      if (rng.uniform() < 0.3) {  // the map changes between questions (what it kept must go)
        random_set(rng.uniform() * 0.3, set, flags);
        const double at = now + 60 * std::floor(rng.uniform() * 70);
        const double until = std::min(end, at + 60 * (1 + std::floor(rng.uniform() * 30)));
        space.reserve(set, at, until);
        reference.reserve(flags, at, until);
      }
    }
  }
  EXPECT_GT(crowded, 100);  // the shortcut was exercised
}

// NodeSpace::short_throughout against the tries a job makes on the reference map: whenever it
// says every try is short, the job's tries from `from` (then from each later_start) all find
// fewer usable nodes than the need, the last with later_start 0 before the map's end. Fails
// when the short segment is not required to begin by t + length, or when only the try from
// `from` is checked.
TEST(NodeSpace, ShortThroughoutOnlyWhenEveryTryIsShort) {
  Rng rng(2806);
  int said_short = 0, reference_short = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int size = 1 + static_cast<int>(rng.uniform() * 150);
    const double now = 60 * std::floor(rng.uniform() * 10), end = now + 3600;
    NodeSpace space;
    space.reset(now, end, size);
    ReferenceSpace reference{{{now, end, std::vector<char>(static_cast<std::size_t>(size), 0)}}};
    const int reservations = static_cast<int>(rng.uniform() * 10);
    for (int r = 0; r < reservations; ++r) {
      NodeSet set(size);
      std::vector<char> flags(static_cast<std::size_t>(size), 0);
      const double density = 0.2 + 0.6 * rng.uniform();
      for (int node = 0; node < size; ++node)
        if (rng.uniform() < density) {
          set.set(node);
          flags[static_cast<std::size_t>(node)] = 1;
        }
      const double from = now + 60 * std::floor(rng.uniform() * 60);
      // most reach the map's end (as reservations cut at the window's end do)
      const double to = rng.uniform() < 0.5
                            ? end
                            : std::min(end, from + 60 * (1 + std::floor(rng.uniform() * 30)));
      space.reserve(set, from, to);
      reference.reserve(flags, from, to);
    }
    for (int job = 0; job < 20; ++job) {
      const double from = now + (rng.uniform() < 0.5 ? 0 : 60 * std::floor(rng.uniform() * 60));
      const double length = 60 * std::floor(rng.uniform() * 70);
      const int need = 1 + static_cast<int>(rng.uniform() * size);
      // the job's tries on the reference map, as backfill_pass makes them
      bool all_short = true;
      std::vector<char> usable;
      for (double t = from;;) {
        ASSERT_LE(t, end);
        const double later = reference.usable(t, t + length, usable);
        if (std::count(usable.begin(), usable.end(), 1) >= need) {
          all_short = false;
          break;
        }
        if (later == 0) break;
        ASSERT_GT(later, t);
        ASSERT_LT(later, end);
        t = later;
      }
      reference_short += all_short;
      if (space.short_throughout(from, length, need)) {
        ASSERT_TRUE(all_short) << "trial " << trial << " job " << job;
        ++said_short;
      }
    }
  }
  EXPECT_GT(said_short, 300);              // exercised
  EXPECT_GT(reference_short, said_short);  // a sufficient condition, not more
}

// AscendingTimes against a scan of every time added, on random times with many repeats (so that
// a question's bounds often equal an added time: both ends of (after, until] are checked).
TEST(AscendingTimes, MatchesAScanOfEveryTime) {
  Rng rng(7);
  int hits = 0;
  for (int trial = 0; trial < 200; ++trial) {
    AscendingTimes times;
    std::vector<double> added;
    for (int step = 0; step < 60; ++step) {
      const double time = 60 * std::floor(rng.uniform() * 40);
      times.add(time);
      added.push_back(time);
      for (int question = 0; question < 5; ++question) {
        const double after = 60 * std::floor(rng.uniform() * 42) - 60;
        const double until = after + 60 * std::floor(rng.uniform() * 5);
        const bool expected = std::any_of(added.begin(), added.end(),
                                          [&](double t) { return t > after && t <= until; });
        ASSERT_EQ(times.any_in(after, until), expected)
            << "trial " << trial << " (" << after << ", " << until << "]";
        hits += expected;
      }
    }
    times.clear();
    ASSERT_FALSE(times.any_in(-1e9, 1e9));
  }
  EXPECT_GT(hits, 1000);  // exercised both ways
}
