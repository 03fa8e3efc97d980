#pragma once
// The two pieces of Slurm 22.05's backfill planning that work on specific nodes, used by the
// `slurm` scheduler (sched/slurm.hpp):
//
// - NodeSpace, sched/backfill's "node_space" map (backfill.c): time segments from the pass's
//   now to the window's end, each with the nodes that reservations of higher-priority pending
//   jobs hold over it. "Identify usable nodes for this job": a job tested from start_res with
//   time limit L may use the nodes that no segment overlapping [start_res, start_res + L] holds
//   (backfill.c keeps a segment when "node_space[j].end_time > start_res" and
//   "node_space[j].begin_time <= end_time": both ends included). The first segment boundary
//   after which more nodes become usable is `later_start`, where the job is tried again when the
//   select plugin predicts a start after it ("Try later when some nodes currently reserved for
//   pending jobs are free").
// - will_run, the select plugin's SELECT_MODE_WILL_RUN (select/cons_tres, job_test.c,
//   _will_run_test): "Determine where and when the job at job_ptr can begin execution by
//   updating a scratch cr_record structure to reflect each job terminating at the end of its
//   time limit". First on the nodes free now; then the running jobs that hold a usable node are
//   removed in order of their planned ends, a group at a time ("Remove the running jobs from
//   exp_node_cr and try scheduling the pending job after each one (or a few jobs that end close
//   in time)"): the first group ends at the first end rounded up to the next multiple of 30 s
//   plus 30 s ("align all time windows on a time_window barrier"; delta = end % 30, barrier =
//   end + 30 - delta), every later one at the barrier plus the window, which doubles after each
//   test; more than 200 removals in one group go on without a test. The job's start is the
//   planned end of the last job removed before the test that placed it, its nodes those the
//   allocator (the run's, modelling the select plugin) chooses on the usable nodes free then.
//   Simulated time stands for slurmctld's time(): the barriers are multiples of 30 s of it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace allocsim {

/// A set of node ids, one bit each.
class NodeSet {
 public:
  NodeSet() = default;
  explicit NodeSet(int nodes) : size_(nodes), words_((static_cast<std::size_t>(nodes) + 63) / 64) {}
  int size() const { return size_; }
  bool test(int node) const { return (words_[node >> 6] >> (node & 63)) & 1U; }
  void set(int node) { words_[node >> 6] |= std::uint64_t{1} << (node & 63); }
  void clear();
  /// Every node of the machine.
  void fill();
  NodeSet& operator|=(const NodeSet& other);
  NodeSet& operator&=(const NodeSet& other);
  /// Removes the nodes of `other`.
  void subtract(const NodeSet& other);
  bool intersects(const NodeSet& other) const;
  int count() const;
  /// Adds the members of `other` (of the same size) within the words [first, last), those
  /// outside having none; returns how many were not members yet.
  int add_words(const NodeSet& other, std::size_t first, std::size_t last);
  /// Keeps the `count` lowest members only (all of them when there are fewer).
  void keep_lowest(int count);
  /// Becomes `a` ∩ `b` (all three of one size, `a` and `b` other objects than this one) and
  /// returns its member count, in one pass over the words (will-run's first step on every try).
  int assign_common(const NodeSet& a, const NodeSet& b);
  /// Becomes the `count` lowest members of `from` (of the same size), as a copy of `from`
  /// followed by keep_lowest(count) but without copying the words past the last one kept.
  void assign_lowest(const NodeSet& from, int count);
  /// The words [first, last) that hold the members (first == last when empty): the range that
  /// the ranged operations below need to visit for this set.
  std::pair<std::size_t, std::size_t> word_range() const;
  /// Adds the members of `a` ∩ `b` within the words [first, last) and returns how many of them
  /// were not members yet (-1 when `a` ∩ `b` has no member in the range).
  int add_common(const NodeSet& a, const NodeSet& b, std::size_t first, std::size_t last);
  /// Builds the set from a busy map (the nodes whose entry is 0).
  void from_busy(const std::vector<char>& busy);
  /// The same size and members.
  bool operator==(const NodeSet& other) const = default;
  /// A hash of the members (equal sets hash alike).
  std::uint64_t hash() const;
  /// count(), with hash() into `hash`, in one pass over the words.
  int count_and_hash(std::uint64_t& hash) const;
  /// Node ids in increasing order.
  std::vector<int> members() const;
  /// One entry per node: 0 for the nodes of the set, 1 for the others (a busy map).
  void to_busy(std::vector<char>& busy) const;

 private:
  void trim();  // clears the bits past size_ in the last word
  int size_ = 0;
  std::vector<std::uint64_t> words_;
  friend class NodeSpace;
};

/// True when a time of `ascending` (sorted ascending) lies in (after, until]: a bisection.
inline bool any_time_in(const std::vector<double>& ascending, double after, double until) {
  const auto it = std::upper_bound(ascending.begin(), ascending.end(), after);
  return it != ascending.end() && *it <= until;
}

/// Times kept ascending, asked whether one lies in an interval (the reservations' bounds that
/// SlurmScheduler::reusable_prefix checks at every job: a bisection, not a scan of them all).
class AscendingTimes {
 public:
  void clear() { times_.clear(); }
  /// Adds `time` after the times not above it.
  void add(double time) {
    times_.insert(std::upper_bound(times_.begin(), times_.end(), time), time);
  }
  /// True when a time lies in (after, until].
  bool any_in(double after, double until) const { return any_time_in(times_, after, until); }

 private:
  std::vector<double> times_;
};

/// sched/backfill's node_space map of one pass (see the file comment).
class NodeSpace {
 public:
  /// One segment [now, window_end) holding nothing (nodes beyond window_end are never held).
  void reset(double now, double window_end, int nodes);
  /// The nodes no segment overlapping [from, to] holds into `usable`; returns later_start (0
  /// when none): the end of the first segment overlapping `from` after which a node not usable
  /// in it becomes free, else, when the scan stops at a segment beginning after `to`, the end of
  /// the segment after it (backfill.c's two rules).
  double usable(double from, double to, NodeSet& usable) const;
  /// usable() for a job needing `need` nodes, without building the set when it surely holds
  /// fewer: when a segment overlapping [from, to] holds more than size - need nodes (kept
  /// count per segment), `enough` becomes false and only later_start is computed (the same
  /// value as usable()'s; `usable` is left unspecified); otherwise usable(), `enough` true.
  double usable_for(double from, double to, int need, NodeSet& usable, bool& enough) const;
  /// True when every try of a job needing `need` nodes for `length` (from `from`, then from
  /// later_start values) surely sees fewer usable nodes than `need`: from `from` and from each
  /// segment end in (from, the map's end), a segment overlapping [t, t + length] holds more
  /// than size - need nodes (proof at the definition).
  bool short_throughout(double from, double length, int need) const;
  /// The nodes no segment overlapping [from, to] holds, without later_start.
  void usable_only(double from, double to, NodeSet& usable) const;
  /// True when a node of `nodes` is held by a segment overlapping [from, to) (backfill.c's
  /// _test_resv_overlap).
  bool overlaps(const NodeSet& nodes, double from, double to) const;
  /// Holds `nodes` over [from, to), cut at the window's end (backfill.c's _add_reservation);
  /// from >= the map's start.
  void reserve(const NodeSet& nodes, double from, double to);
  /// Segment boundaries after the first segment's start, ascending (for the scheduler's
  /// test whether a later pass would come out the same).
  std::vector<double> boundaries() const;

 private:
  struct Segment {
    double begin = 0, end = 0;
    NodeSet held;
    std::size_t first = 0, last = 0;  ///< the words of `held` that may have members
    int held_count = 0;               ///< held.count()
    /// Whether a node held here is not held in the next segment (1, 0; -1: not known yet).
    /// usable()'s later_start scan asks it of the first segment it visits (where nothing is
    /// cut yet); kept until this segment or the next changes (split_at(), reserve()).
    mutable signed char releases = -1;
  };
  /// usable_for() (usable(): need 0, so always enough).
  double scan(double from, double to, int need, NodeSet& usable, bool& enough) const;
  /// Segment j's `releases`, computed when not known.
  bool releases(std::size_t j) const;
  /// Splits the segment containing `time` strictly inside it; returns the index of the segment
  /// starting at `time` (segments_.size() when time >= the last end).
  std::size_t split_at(double time);
  /// The index of the first segment ending after `time` (segments_.size() when none).
  std::size_t first_ending_after(double time) const;
  std::vector<Segment> segments_;  ///< the first live_ are the map; the rest, spares
  std::size_t live_ = 0;
};

}  // namespace allocsim
