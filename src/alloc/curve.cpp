// One-dimensional allocation along a processor ordering (Leung et al., CLUSTER 2002:
// Sandia's Compute Process Allocator on Cplant). See alloc/curve.hpp.
#include "allocsim/alloc/curve.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "allocsim/topo/ordering.hpp"
#include "allocsim/topo/switches.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

// ---------------------------------------------------------------------------------------------
// FreeIntervals

namespace {
using Interval = FreeIntervals::Interval;

/// Replaces intervals [first, last) of `v` (indices) with `count` intervals from `with`.
void replace_range(std::vector<Interval>& v, std::ptrdiff_t first, std::ptrdiff_t last,
                   const Interval* with, int count) {
  const std::ptrdiff_t old_count = last - first;
  const std::ptrdiff_t common = std::min<std::ptrdiff_t>(old_count, count);
  std::copy(with, with + common, v.begin() + first);
  if (old_count > count)
    v.erase(v.begin() + first + count, v.begin() + last);
  else if (count > old_count)
    v.insert(v.begin() + last, with + old_count, with + count);
}
}  // namespace

FreeIntervals::FreeIntervals(int total, bool all_free) : total_(total) {
  if (all_free && total > 0) {
    intervals_.push_back({0, total});
    free_ = total;
  }
}

bool FreeIntervals::is_free(int rank) const {
  const auto it = std::partition_point(intervals_.begin(), intervals_.end(),
                                       [&](const Interval& v) { return v.end <= rank; });
  return it != intervals_.end() && it->start <= rank;
}

void FreeIntervals::add(int begin, int end) {
  begin = std::max(begin, 0);
  end = std::min(end, total_);
  if (begin >= end) return;
  // Intervals overlapping or touching [begin, end) merge with it.
  const auto first = std::partition_point(intervals_.begin(), intervals_.end(),
                                          [&](const Interval& v) { return v.end < begin; });
  auto last = first;
  int already_free = 0;
  for (; last != intervals_.end() && last->start <= end; ++last)
    already_free += std::max(0, std::min(last->end, end) - std::max(last->start, begin));
  Interval merged{begin, end};
  if (first != last) {
    merged.start = std::min(begin, first->start);
    merged.end = std::max(end, (last - 1)->end);
  }
  free_ += (end - begin) - already_free;
  replace_range(intervals_, first - intervals_.begin(), last - intervals_.begin(), &merged, 1);
}

void FreeIntervals::remove(int begin, int end) {
  begin = std::max(begin, 0);
  end = std::min(end, total_);
  if (begin >= end) return;
  const auto first = std::partition_point(intervals_.begin(), intervals_.end(),
                                          [&](const Interval& v) { return v.end <= begin; });
  auto last = first;
  int removed = 0;
  for (; last != intervals_.end() && last->start < end; ++last)
    removed += std::min(last->end, end) - std::max(last->start, begin);
  if (first == last) return;
  Interval pieces[2];
  int count = 0;
  if (first->start < begin) pieces[count++] = {first->start, begin};
  if ((last - 1)->end > end) pieces[count++] = {end, (last - 1)->end};
  free_ -= removed;
  replace_range(intervals_, first - intervals_.begin(), last - intervals_.begin(), pieces, count);
}

// ---------------------------------------------------------------------------------------------
// The choice (Leung et al. 2002, one-dimensional strategies)

namespace {

/// Index of the interval the fit rule picks among the "runs" (intervals, with the last and the
/// first merged into one wrapping run when `wrap`), or -1 when no run holds `procs`.
int pick_interval(const std::vector<Interval>& intervals, int procs, CurveFit fit, bool wrap) {
  const int m = static_cast<int>(intervals.size());
  const int first_run = wrap ? 1 : 0;
  auto run_length = [&](int i) {
    return wrap && i == m - 1 ? intervals[i].length() + intervals[0].length()
                              : intervals[i].length();
  };
  int chosen = -1;
  if (fit == CurveFit::first) {
    for (int i = first_run; i < m && chosen < 0; ++i)
      if (run_length(i) >= procs) chosen = i;
  } else if (fit == CurveFit::best) {
    int fewest_left = INT_MAX;
    for (int i = first_run; i < m; ++i) {
      const int left = run_length(i) - procs;
      if (left >= 0 && left < fewest_left) {
        fewest_left = left;
        chosen = i;
      }
    }
  } else if (fit == CurveFit::sumsq) {
    // Σ count(size)² after placing in a run of length L changes by
    //   (1 - 2·count(L)) + [L > p] (1 + 2·count(L - p)).
    std::vector<int> lengths;
    lengths.reserve(m);
    for (int i = first_run; i < m; ++i) lengths.push_back(run_length(i));
    std::sort(lengths.begin(), lengths.end());
    auto count = [&](int length) {
      const auto [low, high] = std::equal_range(lengths.begin(), lengths.end(), length);
      return static_cast<std::int64_t>(high - low);
    };
    std::int64_t best_change = INT64_MAX;
    for (int i = first_run; i < m; ++i) {
      const int length = run_length(i);
      if (length < procs) continue;
      std::int64_t change = 1 - 2 * count(length);
      if (length > procs) change += 1 + 2 * count(length - procs);
      if (change < best_change) {
        best_change = change;
        chosen = i;
      }
    }
  }
  return chosen;
}

/// Minimum-span window of `procs` consecutive free ranks. An optimal window (ties: smallest
/// start rank) starts at an interval's start, since sliding a window left inside an interval
/// never lengthens it; a two-pointer sweep over intervals finds it in O(intervals). On a ring
/// the windows continue past the last rank into the first intervals and are measured as arcs.
/// Returns the index of the starting interval.
int min_span_window(const std::vector<Interval>& intervals, int procs, int total, bool ring) {
  const int m = static_cast<int>(intervals.size());
  const int limit = ring ? 2 * m : m;  // unrolled interval positions
  auto start_of = [&](int k) { return intervals[k % m].start + (k >= m ? total : 0); };
  std::int64_t best_span = INT64_MAX;
  int best = -1;
  int j = 0;              // window covers unrolled intervals [i, j)
  std::int64_t held = 0;  // free ranks in [i, j)
  for (int i = 0; i < m; ++i) {
    while (j < limit && held < procs) held += intervals[j++ % m].length();
    if (held < procs) break;  // fewer than procs free ranks from here on (linear only)
    const std::int64_t needed = procs - (held - intervals[(j - 1) % m].length());
    const std::int64_t last_rank = start_of(j - 1) + needed - 1;
    const std::int64_t span = last_rank - intervals[i].start + 1;
    if (span < best_span) {
      best_span = span;
      best = i;
    }
    held -= intervals[i].length();
  }
  return best;
}

}  // namespace

std::optional<std::vector<int>> choose_curve_ranks(const FreeIntervals& free, int procs,
                                                   CurveFit fit, SpanKind span) {
  if (procs <= 0 || procs > free.free_count()) return std::nullopt;
  const auto& intervals = free.intervals();
  const int m = static_cast<int>(intervals.size());
  const int total = free.total();
  std::vector<int> ranks;
  ranks.reserve(procs);
  // Takes ranks interval by interval from interval `first` on (cyclically), starting at `from`.
  auto take_from = [&](int first, int from) {
    for (int k = first; static_cast<int>(ranks.size()) < procs; k = (k + 1) % m) {
      const int begin = k == first ? from : intervals[k].start;
      const int count = std::min(intervals[k].end - begin, procs - static_cast<int>(ranks.size()));
      for (int r = begin; r < begin + count; ++r) ranks.push_back(r);
    }
  };

  if (fit == CurveFit::none) {  // sorted free list: the first p free ranks
    take_from(0, intervals[0].start);
    return ranks;
  }
  const bool ring = span == SpanKind::ring;
  const bool wrap = ring && m >= 2 && intervals.front().start == 0 && intervals.back().end == total;
  const int chosen = pick_interval(intervals, procs, fit, wrap);
  if (chosen >= 0) {
    take_from(chosen, intervals[chosen].start);  // a wrapping run continues into interval 0
    return ranks;
  }
  const int start = min_span_window(intervals, procs, total, ring);
  take_from(start, intervals[start].start);
  return ranks;
}

// ---------------------------------------------------------------------------------------------
// CurveAllocator

CurveAllocator::CurveAllocator(std::vector<NodeId> order, CurveFit fit, SpanKind span)
    : fit_(fit), span_(span), free_(static_cast<int>(order.size())) {
  if (!is_node_permutation(order, static_cast<int>(order.size())))
    throw InputError("curve allocator: the ordering is not a permutation of the nodes");
  rank_of_node_ = std::make_shared<const std::vector<int>>(ranks_of_nodes(order));
  node_of_rank_ = std::make_shared<const std::vector<NodeId>>(std::move(order));
}

std::optional<Allocation> CurveAllocator::allocate(const Job& job,
                                                   const MachineView& machine) const {
  const int procs = job.procs;
  if (procs <= 0 || procs > machine.free_count()) return std::nullopt;
  const auto& order = *node_of_rank_;
  const int total = static_cast<int>(order.size());
  const FreeIntervals* free = &free_;
  FreeIntervals rebuilt;
  if (free_.free_count() != machine.free_count() || total != machine.node_count()) {
    // Out of step with the machine (nodes made busy without commit): use the view this time.
    rebuilt = FreeIntervals(total, false);
    for (int rank = 0; rank < total;) {
      if (!machine.is_free(order[rank])) {
        ++rank;
        continue;
      }
      const int begin = rank;
      while (rank < total && machine.is_free(order[rank])) ++rank;
      rebuilt.add(begin, rank);
    }
    free = &rebuilt;
  }
  const auto ranks = choose_curve_ranks(*free, procs, fit_, span_);
  if (!ranks) return std::nullopt;
  Allocation allocation;
  allocation.nodes.reserve(procs);
  allocation.pieces = 1;
  for (std::size_t i = 0; i < ranks->size(); ++i) {
    allocation.nodes.push_back(order[(*ranks)[i]]);
    if (i > 0 && (*ranks)[i] != ((*ranks)[i - 1] + 1) % total) ++allocation.pieces;
  }
  return allocation;
}

template <class Mark>
void CurveAllocator::for_each_rank_run(const std::vector<NodeId>& nodes, Mark mark) const {
  const auto& rank_of = *rank_of_node_;
  std::vector<int> ranks;
  ranks.reserve(nodes.size());
  for (NodeId node : nodes) {
    if (node < 0 || node >= static_cast<NodeId>(rank_of.size()))
      throw InputError("curve allocator: node " + std::to_string(node) + " is not on the machine");
    ranks.push_back(rank_of[node]);
  }
  std::sort(ranks.begin(), ranks.end());
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i + 1;
    while (j < ranks.size() && ranks[j] <= ranks[j - 1] + 1) ++j;
    mark(ranks[i], ranks[j - 1] + 1);
    i = j;
  }
}

void CurveAllocator::commit(const Allocation& allocation) {
  for_each_rank_run(allocation.nodes, [this](int begin, int end) { free_.remove(begin, end); });
}

void CurveAllocator::release(const Allocation& allocation) {
  for_each_rank_run(allocation.nodes, [this](int begin, int end) { free_.add(begin, end); });
}

// ---------------------------------------------------------------------------------------------
// Registry row

void append_curve_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back(
      {"curve",
       "1D allocation along a processor ordering (Cplant CPA): fit rules, span minimisation",
       {{"order",
         ParamKind::text,
         "hilbert",
         "processor ordering (allocsim list orderings): row, snake, hilbert, ghilbert, "
         "file:path=FILE",
         {}},
        {"fit",
         ParamKind::choice,
         "best",
         "interval rule: first, best, sumsq (sum of squares), none (sorted free list)",
         {"first", "best", "sumsq", "none"}},
        {"span",
         ParamKind::choice,
         "linear",
         "span minimised when no interval fits: linear, or ring (ordering as a cycle)",
         {"linear", "ring"}},
        // Added after the first release: left out of canonical specs at its default.
        {"switch",
         ParamKind::choice,
         "none",
         "first: the machine's first axis lists the processors of one switch; the ordering "
         "runs over the switches (the other axes), each switch's processors consecutively",
         {"none", "first"},
         {},
         true,
         false}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         const std::string& fit_name = params.text("fit");
         const CurveFit fit = fit_name == "first"   ? CurveFit::first
                              : fit_name == "sumsq" ? CurveFit::sumsq
                              : fit_name == "none"  ? CurveFit::none
                                                    : CurveFit::best;
         const SpanKind span = params.text("span") == "ring" ? SpanKind::ring : SpanKind::linear;
         if (topology.graph() && params.text("switch") == "first")
           topology.require_grid("allocator 'curve' with switch=first");
         const auto ordering = [&](const Topology& machine) {
           try {
             return make_ordering(params.text("order"), machine);
           } catch (const InputError& refusal) {  // an ordering that refuses graph machines
             if (!machine.graph()) throw;
             throw InputError("allocator 'curve': " + std::string(refusal.what()) +
                              " (order=row and order=file work on any machine)");
           }
         };
         if (params.text("switch") == "first")  // Leung et al. §2.2 order the switch mesh
           return std::make_unique<CurveAllocator>(
               switch_major_order(ordering(switch_topology(topology)), topology.side(0)), fit,
               span);
         return std::make_unique<CurveAllocator>(ordering(topology), fit, span);
       }});
}

}  // namespace allocsim
