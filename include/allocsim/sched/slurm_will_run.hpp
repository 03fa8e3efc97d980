#pragma once
// The select plugin's will-run walk (select/cons_tres, job_test.c, _will_run_test; the rules are
// in sched/slurm_backfill.hpp) as a resumable walk, and a memo of walks per usable node set for
// the `slurm` scheduler's backfill pass (sched/slurm.hpp).
//
// Why a memo keeps the schedule: within one pass, between two starts, the free nodes, the
// running jobs (their planned ends, nodes and order) and now are fixed, so the walk on a usable
// set U is a function of U alone: the same groups, the same test times, the same free usable
// nodes at each test. The job only enters through `need` (at least that many free usable nodes
// pass a test, for an allocator whose answer is the lowest free ids), and the counts only grow
// from test to test. So the answer for (U, need) is the first test of U's walk whose count
// reaches need: a memo keeps each U's tests done so far (time, count, the free usable nodes
// there) and walks further, from where it stopped, only when no kept test reaches need. On
// SDSC-BLUE, 74 % of will-run calls repeat a usable set of the same pass (since its last start).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "allocsim/sched/slurm_backfill.hpp"

namespace allocsim {

/// A running job as the backfill pass plans it: its planned end (start + limit) and nodes.
struct PlannedJob {
  double end = 0;
  NodeSet nodes;
  int job = -1;                     ///< job index
  double barrier = 0;               ///< will-run's first barrier when this job opens the groups
  std::size_t first = 0, last = 0;  ///< the words of `nodes` with members: [first, last)
};

/// will-run's walk on one usable set: the nodes free now, then the running jobs removed a group
/// at a time (sched/slurm_backfill.hpp), stopping at each test.
class WillRunWalk {
 public:
  /// Starts on the nodes of `usable` free now (the first test, at now).
  void start(const NodeSet& free, const NodeSet& usable);
  /// Removes the next group of `planned` (by planned end) and stops at its test: true with the
  /// planned end of the group's last job in `end`; false when no test is left.
  bool advance(const std::vector<PlannedJob>& planned, const NodeSet& usable, double& end);
  /// The free usable nodes at the current test, and their count.
  const NodeSet& free_usable() const { return free_usable_; }
  int count() const { return count_; }

 private:
  NodeSet free_usable_;
  int count_ = 0;
  std::size_t next_ = 0;  ///< the next running job to remove
  double window_ = 0;     ///< the group window (30 s times a power of two)
  double barrier_ = -1;   ///< the first barrier (-1 before the first job with usable nodes)
  bool more_ = true;      ///< a test may follow
};

/// The memo of will-run walks of one pass between starts (see the file comment). Its node sets
/// (usable sets, walks, snapshots; kept as spares from pass to pass) are bounded: past
/// `max_words` 64-bit words in all, the next question first releases them all (a cache: no
/// answer changes). On a 100,000-node machine a set is 1,563 words, and a pass may test hundreds
/// of jobs over as many tests each.
class WillRunMemo {
 public:
  /// 8 Mi words: 64 MiB.
  static constexpr std::size_t kDefaultMaxWords = std::size_t{1} << 23;
  explicit WillRunMemo(std::size_t max_words = kDefaultMaxWords) : max_words_(max_words) {}

  /// The first test of a walk that reaches `need`.
  struct Answer {
    std::size_t test = 0;                  ///< 0: the test at now; k: the k-th group's
    double end = 0;                        ///< the planned end of the group's last job (test > 0)
    const NodeSet* free_usable = nullptr;  ///< the free usable nodes at that test
  };
  /// Forgets every walk (the free nodes or the running jobs changed, or a new pass).
  void clear();
  /// The first test of the walk on `usable` with at least `need` free usable nodes (false when
  /// none), walking on `free` and `planned` as far as needed; `hash` is usable.hash(). The
  /// answer's pointer lives until the next call.
  bool first_reaching(const NodeSet& free, const std::vector<PlannedJob>& planned,
                      const NodeSet& usable, std::uint64_t hash, int need, Answer& answer);

 private:
  struct Entry {
    NodeSet usable;
    WillRunWalk walk;
    std::vector<double> ends;        ///< the tests' planned ends (ends[0] unused: the test at now)
    std::vector<int> counts;         ///< the free usable count at each test
    std::vector<NodeSet> snapshots;  ///< the free usable nodes at each test but the last (kept
                                     ///< in the walk); capacity reused from pass to pass
    bool done = false;               ///< the walk has no test left
  };
  /// A slot of the open-addressed table from usable sets to entries.
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t entry = 0;       ///< index into entries_
    std::uint32_t generation = 0;  ///< the slot is used when this is generation_
  };
  /// The entry for `usable` (hashing to `hash`), made when missing.
  Entry& find_or_add(const NodeSet& usable, std::uint64_t hash, const NodeSet& free);
  std::vector<Entry> entries_;  ///< the first live_ are this pass's; the rest, spares
  std::size_t sets_held_ = 0;   ///< node sets allocated in entries_ (for the bound)
  std::size_t max_words_;
  std::size_t live_ = 0;
  std::vector<Slot> table_;       ///< a power of two of slots, at most half used
  std::uint32_t generation_ = 1;  ///< clear() starts a new one (every slot unused at once)
};

}  // namespace allocsim
