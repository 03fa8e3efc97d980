// Progressive filling for max-min fair rates (see max_min.hpp).
#include "allocsim/network/max_min.hpp"

#include <algorithm>
#include <cstdint>

namespace allocsim {

void FlowSet::add_flow(std::span<const FlowUse> uses, double cap) {
  uses_.insert(uses_.end(), uses.begin(), uses.end());
  offsets_.push_back(uses_.size());
  caps_.push_back(cap);
}

void FlowSet::clear() {
  offsets_.assign(1, 0);
  uses_.clear();
  caps_.clear();
}

void MaxMinSolver::solve(std::span<const double> capacities, const FlowSet& flows,
                         std::vector<double>& rates, TimeLimitPoll* poll) {
  const std::size_t links = capacities.size(), flow_count = flows.size();
  rates.assign(flow_count, 0);
  frozen_load_.assign(links, 0);
  active_weight_.assign(links, 0);
  active_count_.assign(links, 0);
  frozen_.assign(flow_count, 0);

  // Transpose: which flows cross each link.
  link_offsets_.assign(links + 1, 0);
  for (std::size_t f = 0; f < flow_count; ++f)
    for (const FlowUse& use : flows.uses(f)) {
      ++link_offsets_[use.link + 1];
      active_weight_[use.link] += use.weight;
    }
  for (std::size_t l = 0; l < links; ++l) {
    active_count_[l] = static_cast<int>(link_offsets_[l + 1]);
    link_offsets_[l + 1] += link_offsets_[l];
  }
  link_flows_.resize(link_offsets_[links]);
  next_slot_.assign(link_offsets_.begin(), link_offsets_.end() - 1);
  for (std::size_t f = 0; f < flow_count; ++f)
    for (const FlowUse& use : flows.uses(f))
      link_flows_[next_slot_[use.link]++] = static_cast<int>(f);

  // Flows by cap, for the cap events; flows with neither links nor cap get +infinity.
  by_cap_.clear();
  std::size_t unfrozen = 0;
  for (std::size_t f = 0; f < flow_count; ++f) {
    if (flows.cap(f) != FlowSet::kNoCap)
      by_cap_.push_back(static_cast<int>(f));
    else if (flows.uses(f).empty()) {
      rates[f] = FlowSet::kNoCap;
      frozen_[f] = 1;
      continue;
    }
    ++unfrozen;
  }
  // Stable insertion sort by cap: few capped flows, and no buffer to allocate per solve.
  for (std::size_t i = 1; i < by_cap_.size(); ++i) {
    const int flow = by_cap_[i];
    std::size_t j = i;
    for (; j > 0 && flows.cap(flow) < flows.cap(by_cap_[j - 1]); --j) by_cap_[j] = by_cap_[j - 1];
    by_cap_[j] = flow;
  }
  // The links in use, densely: their ids and saturation levels side by side (a link's slot
  // in slot_of_link_), so that a round's search for the lowest level is a plain scan of
  // contiguous doubles. A link leaving use gets level +infinity until the arrays are compacted
  // (when half their slots are such).
  slot_link_.resize(links);
  slot_level_.resize(links);
  slot_of_link_.resize(links);
  std::size_t used = 0;
  for (std::size_t l = 0; l < links; ++l)
    if (active_count_[l] > 0) {
      slot_of_link_[l] = static_cast<int>(used);
      slot_link_[used] = static_cast<int>(l);
      slot_level_[used++] = (capacities[l] - frozen_load_[l]) / active_weight_[l];
    }
  slot_link_.resize(used);
  slot_level_.resize(used);
  std::size_t unused_slots = 0;

  double level = 0;
  const auto freeze = [&](int f) {
    frozen_[f] = 1;
    rates[f] = level;
    --unfrozen;
    for (const FlowUse& use : flows.uses(f)) {
      const int l = use.link;
      frozen_load_[l] += level * use.weight;
      if (--active_count_[l] == 0) {
        active_weight_[l] = 0;
        slot_level_[slot_of_link_[l]] = FlowSet::kNoCap;
        ++unused_slots;
      } else {
        active_weight_[l] -= use.weight;
        slot_level_[slot_of_link_[l]] = (capacities[l] - frozen_load_[l]) / active_weight_[l];
      }
    }
  };

  // Rounds: the next level is the lowest saturation level (c − frozen load) / active weight
  // (kept per link, recomputed when a flow on it freezes) over the links still in use, or the next
  // cap; freeze the flows it concerns, repeat.
  std::size_t next_cap = 0;
  while (unfrozen > 0) {
    if (2 * unused_slots > slot_link_.size()) {
      std::size_t kept = 0;
      for (std::size_t i = 0; i < slot_link_.size(); ++i) {
        const int l = slot_link_[i];
        if (active_count_[l] == 0) continue;
        slot_of_link_[l] = static_cast<int>(kept);
        slot_link_[kept] = l;
        slot_level_[kept++] = slot_level_[i];
      }
      slot_link_.resize(kept);
      slot_level_.resize(kept);
      unused_slots = 0;
    }
    if (poll) poll->add(static_cast<std::int64_t>(slot_link_.size()) + 1);
    // The lowest level, per block of kBlock slots in four independent running minima, then over
    // the blocks (a minimum is exact, so the order of the comparisons does not matter; unused
    // slots hold +infinity). The blocks' minima let the search for the saturated slots below
    // look only inside the blocks that hold one.
    const std::size_t count = slot_level_.size();
    const double* levels = slot_level_.data();
    const std::size_t blocks = (count + kBlock - 1) / kBlock;
    block_level_.resize(blocks);
    double lowest = FlowSet::kNoCap;
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::size_t end = std::min(count, (b + 1) * kBlock);
      double m0 = FlowSet::kNoCap, m1 = m0, m2 = m0, m3 = m0;
      std::size_t i = b * kBlock;
      for (; i + 4 <= end; i += 4) {
        m0 = levels[i] < m0 ? levels[i] : m0;
        m1 = levels[i + 1] < m1 ? levels[i + 1] : m1;
        m2 = levels[i + 2] < m2 ? levels[i + 2] : m2;
        m3 = levels[i + 3] < m3 ? levels[i + 3] : m3;
      }
      for (; i < end; ++i) m0 = levels[i] < m0 ? levels[i] : m0;
      m0 = m1 < m0 ? m1 : m0;
      m2 = m3 < m2 ? m3 : m2;
      block_level_[b] = m2 < m0 ? m2 : m0;
      lowest = block_level_[b] < lowest ? block_level_[b] : lowest;
    }
    while (next_cap < by_cap_.size() && frozen_[by_cap_[next_cap]]) ++next_cap;
    if (next_cap < by_cap_.size() && flows.cap(by_cap_[next_cap]) <= lowest) {
      level = std::max(level, flows.cap(by_cap_[next_cap]));
      freeze(by_cap_[next_cap]);
      continue;
    }
    // Saturated links: those in use at the lowest level (as of before this round's freezes).
    // (Should every level be +infinity, unused slots come too: their flows are all frozen.)
    saturated_.clear();
    for (std::size_t b = 0; b < blocks; ++b)
      if (block_level_[b] == lowest)
        for (std::size_t i = b * kBlock; i < std::min(count, (b + 1) * kBlock); ++i)
          if (levels[i] == lowest) saturated_.push_back(slot_link_[i]);
    level = std::max(level, lowest);
    // The flows crossing a saturated link freeze in flow order, whatever the order of the
    // links: the frozen loads then do not depend on which of several equally saturated links
    // (or on how many links of one flow alone) the round found.
    freezing_.clear();
    for (int l : saturated_)
      for (std::size_t j = link_offsets_[l]; j < link_offsets_[l + 1]; ++j)
        if (!frozen_[link_flows_[j]]) {
          frozen_[link_flows_[j]] = 1;
          freezing_.push_back(link_flows_[j]);
        }
    std::sort(freezing_.begin(), freezing_.end());
    for (int f : freezing_) freeze(f);
  }
}

std::vector<double> max_min_rates(std::span<const double> capacities, const FlowSet& flows) {
  MaxMinSolver solver;
  std::vector<double> rates;
  solver.solve(capacities, flows, rates);
  return rates;
}

}  // namespace allocsim
