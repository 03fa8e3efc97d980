#pragma once
// Max-min fair sharing of link bandwidth among flows, by progressive filling (Bertsekas &
// Gallager, "Data Networks", §6.5.2): every unfrozen flow's rate rises at the same pace; when a
// link saturates, the flows crossing it freeze at the current level; a flow also freezes when it
// reaches its own cap (its demand). The flow model of the network (flow_model.hpp) uses it with
// one weighted flow per running job (issue "flow and wormhole network models", item 1).
//
// The result is the unique max-min fair rate vector: feasible, and every flow is either at its
// cap or has a bottleneck link — a saturated link on which no flow has a larger rate.
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "allocsim/util/time_limit.hpp"

namespace allocsim {

/// One link a flow crosses: `link` indexes the capacity array; the flow puts `weight` units of
/// load on it per unit of its rate (e.g. the number of its messages crossing the link).
struct FlowUse {
  int link = 0;
  double weight = 1;
};

/// A set of flows in compressed rows: flow f uses uses[offsets[f] .. offsets[f+1]).
class FlowSet {
 public:
  static constexpr double kNoCap = std::numeric_limits<double>::infinity();

  /// Appends a flow crossing `uses` (weights > 0), whose rate may not exceed `cap`.
  void add_flow(std::span<const FlowUse> uses, double cap = kNoCap);
  void clear();
  std::size_t size() const { return caps_.size(); }
  std::span<const FlowUse> uses(std::size_t flow) const {
    return {uses_.data() + offsets_[flow], offsets_[flow + 1] - offsets_[flow]};
  }
  double cap(std::size_t flow) const { return caps_[flow]; }

 private:
  std::vector<std::size_t> offsets_{0};
  std::vector<FlowUse> uses_;
  std::vector<double> caps_;
};

/// Progressive filling with reusable scratch space, in rounds: each round finds the lowest
/// saturation level among the links still in use (or the next cap) and freezes the flows
/// there (in flow order). Cost O(U + F log F + rounds · L) for L links, F flows and U link uses in
/// total, with rounds ≤ F (one per distinct freeze level): cheap for the tens of jobs a machine
/// runs. The links' levels are kept in one contiguous array, so a round's search is a plain
/// scan of doubles (a heap of levels, eager or lazily refreshed, did more work: levels cluster
/// and every freeze touches hundreds of links on graph machines).
class MaxMinSolver {
 public:
  /// The max-min fair rates of `flows` on links with the given capacities (≥ 0). A flow
  /// crossing no link and without a cap gets +infinity. `rates` is resized to flows.size().
  /// `poll`, when given, is asked once per round with the links the round scanned (it throws
  /// TimeoutError once the run's wall-clock limit is spent).
  void solve(std::span<const double> capacities, const FlowSet& flows, std::vector<double>& rates,
             TimeLimitPoll* poll = nullptr);

 private:
  std::vector<double> frozen_load_, active_weight_;
  std::vector<int> slot_of_link_, slot_link_;  ///< the links in use, densely (see solve)
  std::vector<double> slot_level_;             ///< their saturation levels (+inf: unused slot)
  static constexpr std::size_t kBlock = 16;    ///< slots per block of block_level_
  std::vector<double> block_level_;            ///< per block of slots, its lowest level
  std::vector<int> active_count_;
  std::vector<std::size_t> link_offsets_, next_slot_;
  std::vector<int> link_flows_;
  std::vector<char> frozen_;
  std::vector<int> by_cap_, saturated_, freezing_;
};

/// Convenience wrapper around MaxMinSolver.
std::vector<double> max_min_rates(std::span<const double> capacities, const FlowSet& flows);

}  // namespace allocsim
