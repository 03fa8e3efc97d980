#pragma once
// One-dimensional allocation along a processor ordering: Sandia's Compute Process Allocator
// (Leung et al., "Processor Allocation on Cplant: Achieving General Processor Locality Using
// One-Dimensional Allocation Strategies", CLUSTER 2002).
//
//   curve:order=hilbert,fit=best|first|sumsq|none,span=linear|ring
//
// Processors are ranked along the ordering (topo/ordering.hpp); free ranks form intervals.
// A job goes into one interval when some interval holds it (First / Best Fit / Sum of Squares),
// else onto the p free processors of minimum span; fit=none is the sorted free list.
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Appends the `curve` row to the allocator table (src/alloc/registry.cpp).
void append_curve_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

/// Free ranks 0..total-1 as sorted, disjoint, non-adjacent half-open intervals [start, end),
/// kept incrementally: marking a range busy or free costs a binary search plus a shift of the
/// interval vector. Plain value type, copied by clone().
class FreeIntervals {
 public:
  struct Interval {
    int start = 0;
    int end = 0;
    int length() const { return end - start; }
    bool operator==(const Interval&) const = default;
  };

  FreeIntervals() = default;
  /// `total` ranks, all free (or all busy).
  explicit FreeIntervals(int total, bool all_free = true);

  /// Marks ranks [begin, end) free; ranks already free stay free.
  void add(int begin, int end);
  /// Marks ranks [begin, end) busy; ranks already busy stay busy.
  void remove(int begin, int end);

  const std::vector<Interval>& intervals() const { return intervals_; }
  int free_count() const { return free_; }
  int total() const { return total_; }
  bool is_free(int rank) const;

 private:
  std::vector<Interval> intervals_;
  int total_ = 0;
  int free_ = 0;
};

/// Placement rule when some free interval holds the job (Leung et al. 2002, one-dimensional
/// strategies).
enum class CurveFit {
  first,  ///< first interval (lowest start rank) that holds the job
  best,   ///< interval leaving the fewest free processors; ties: lowest start rank
  sumsq,  ///< interval minimising Σ_size count(size)² over the free intervals that would remain
  none,   ///< sorted free list: the first p free ranks, never span minimisation (Cplant baseline)
};
/// Which span is minimised, and whether the ordering is a cycle (free intervals then wrap).
enum class SpanKind { linear, ring };

/// The pure choice of the curve allocator: the ranks a job of `procs` processors gets, in curve
/// order (from the chosen start, wrapping past the last rank on a ring), or nullopt when fewer
/// than `procs` ranks are free. Within an interval the job takes its lowest ranks (from the
/// interval's start). When no interval holds the job (and fit != none) it takes the `procs`
/// consecutive free ranks of minimum span (linear, or ring arc), ties to the smallest start rank.
std::optional<std::vector<int>> choose_curve_ranks(const FreeIntervals& free, int procs,
                                                   CurveFit fit, SpanKind span);

/// The curve allocator. commit()/release() accept any node set (not only this allocator's
/// choices), so it can follow another allocator's placements. State: the free intervals plus a
/// shared immutable ordering, so copies are cheap.
class CurveAllocator final : public CloneableAllocator<CurveAllocator> {
 public:
  /// `order` is rank -> node id, a permutation of all nodes.
  CurveAllocator(std::vector<NodeId> order, CurveFit fit, SpanKind span);

  /// Nodes in curve order; `pieces` counts the runs of consecutive ranks used. When the machine's
  /// free count differs from the tracked one (nodes made busy without commit()), the free intervals
  /// are rebuilt from the machine view for this choice.
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  void commit(const Allocation& allocation) override;
  void release(const Allocation& allocation) override;

  const std::vector<NodeId>& order() const { return *node_of_rank_; }
  const std::vector<int>& ranks() const { return *rank_of_node_; }
  /// Span metrics are measured along the curve.
  const std::vector<int>* linear_ranks() const override { return rank_of_node_.get(); }
  const FreeIntervals& free_intervals() const { return free_; }

 private:
  /// Applies `mark(begin, end)` to each run of consecutive ranks of `nodes`.
  template <class Mark>
  void for_each_rank_run(const std::vector<NodeId>& nodes, Mark mark) const;

  std::shared_ptr<const std::vector<NodeId>> node_of_rank_;
  std::shared_ptr<const std::vector<int>> rank_of_node_;
  CurveFit fit_;
  SpanKind span_;
  FreeIntervals free_;
};

}  // namespace allocsim
