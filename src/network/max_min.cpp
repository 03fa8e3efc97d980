// Progressive filling for max-min fair rates (see max_min.hpp).
#include "allocsim/network/max_min.hpp"

#include <algorithm>
#include <functional>

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
                         std::vector<double>& rates) {
  const std::size_t links = capacities.size(), flow_count = flows.size();
  rates.assign(flow_count, 0);
  frozen_load_.assign(links, 0);
  active_weight_.assign(links, 0);
  active_count_.assign(links, 0);
  frozen_.assign(flow_count, 0);
  heap_.clear();

  // Transpose: which flows cross each link.
  link_offsets_.assign(links + 1, 0);
  for (std::size_t f = 0; f < flow_count; ++f)
    for (const FlowUse& use : flows.uses(f)) {
      ++link_offsets_[use.link + 1];
      active_weight_[use.link] += use.weight;
      ++active_count_[use.link];
    }
  for (std::size_t l = 0; l < links; ++l) link_offsets_[l + 1] += link_offsets_[l];
  link_flows_.resize(link_offsets_[links]);
  {
    std::vector<std::size_t> next(link_offsets_.begin(), link_offsets_.end() - 1);
    for (std::size_t f = 0; f < flow_count; ++f)
      for (const FlowUse& use : flows.uses(f)) link_flows_[next[use.link]++] = static_cast<int>(f);
  }

  const auto push = [&](double level, int id) {
    heap_.push_back({level, id});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  };
  for (std::size_t l = 0; l < links; ++l)
    if (active_count_[l] > 0) push(capacities[l] / active_weight_[l], static_cast<int>(l));
  for (std::size_t f = 0; f < flow_count; ++f) {
    if (flows.cap(f) != FlowSet::kNoCap)
      push(flows.cap(f), static_cast<int>(links + f));
    else if (flows.uses(f).empty()) {
      rates[f] = FlowSet::kNoCap;
      frozen_[f] = 1;
    }
  }

  double level = 0;
  const auto freeze = [&](int f) {
    frozen_[f] = 1;
    rates[f] = level;
    for (const FlowUse& use : flows.uses(f)) {
      const int l = use.link;
      frozen_load_[l] += level * use.weight;
      if (--active_count_[l] == 0)
        active_weight_[l] = 0;
      else
        active_weight_[l] -= use.weight;
    }
  };

  // Lazy heap: a link's key is its saturation level when pushed. Levels only rise as flows
  // freeze, so a popped key below the link's current level is re-pushed, not acted on.
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const Event event = heap_.back();
    heap_.pop_back();
    if (event.id >= static_cast<int>(links)) {  // a flow reaches its cap
      const int f = event.id - static_cast<int>(links);
      if (frozen_[f]) continue;
      level = std::max(level, event.level);
      freeze(f);
      continue;
    }
    const int l = event.id;
    if (active_count_[l] == 0) continue;
    const double saturation = (capacities[l] - frozen_load_[l]) / active_weight_[l];
    if (saturation > event.level) {
      push(saturation, l);
      continue;
    }
    level = std::max(level, event.level);
    for (std::size_t i = link_offsets_[l]; i < link_offsets_[l + 1]; ++i)
      if (!frozen_[link_flows_[i]]) freeze(link_flows_[i]);
  }
}

std::vector<double> max_min_rates(std::span<const double> capacities, const FlowSet& flows) {
  MaxMinSolver solver;
  std::vector<double> rates;
  solver.solve(capacities, flows, rates);
  return rates;
}

}  // namespace allocsim
