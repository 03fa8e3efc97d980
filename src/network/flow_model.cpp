// Flow-level network model (see flow_model.hpp).
#include "allocsim/network/flow_model.hpp"

#include <algorithm>
#include <limits>

namespace allocsim {

FlowNetwork::FlowNetwork(const Topology& topology, double comm, double bandwidth)
    : topology_(&topology),
      comm_(comm),
      bandwidth_(bandwidth),
      compact_of_link_(topology.link_slot_count(), -1) {}

double FlowNetwork::reference_rate(int k) {
  if (k < 2) return std::numeric_limits<double>::infinity();
  const auto found = reference_rates_.find(k);
  if (found != reference_rates_.end()) return found->second;
  const std::vector<NodeId> nodes = reference_compact_nodes(*topology_, k);
  std::int64_t max_load = 0;
  for (const LoadedLink& load : all_to_all_link_loads(*topology_, nodes))
    max_load = std::max(max_load, load.load);
  const double rate = 1.0 / static_cast<double>(max_load);
  reference_rates_.emplace(k, rate);
  return rate;
}

void FlowNetwork::add_job(JobKey key, std::span<const NodeId> nodes) {
  add_job(key, static_cast<int>(nodes.size()), all_to_all_link_loads(*topology_, nodes));
}

void FlowNetwork::add_job(JobKey key, int nodes, std::vector<LoadedLink> loads) {
  RunningJob job;
  job.loads.reserve(loads.size());
  for (const LoadedLink& load : loads)
    job.loads.emplace_back(load.link, static_cast<double>(load.load));
  job.reference_rate = reference_rate(nodes);
  jobs_[key] = std::move(job);
}

void FlowNetwork::add_job(JobKey key, std::span<const std::pair<LinkId, double>> loads,
                          double reference_rate) {
  RunningJob job;
  job.loads.assign(loads.begin(), loads.end());
  job.reference_rate = reference_rate;
  job.capped = false;
  jobs_[key] = std::move(job);
}

void FlowNetwork::remove_job(JobKey key) {
  jobs_.erase(key);
}

void FlowNetwork::solve() {
  // Number the loaded links compactly, in order of first use (deterministic: jobs in key order).
  loaded_links_.clear();
  flows_.clear();
  for (auto& [key, job] : jobs_) {
    uses_.clear();
    for (const auto& [link, load] : job.loads) {
      int& index = compact_of_link_[link];
      if (index < 0) {
        index = static_cast<int>(loaded_links_.size());
        loaded_links_.push_back(link);
      }
      uses_.push_back({index, load});
    }
    // A job of fewer than two nodes has no messages: cap 0 keeps it out of the way.
    const double cap = uses_.empty() ? 0
                       : job.capped  ? bandwidth_ * job.reference_rate
                                     : std::numeric_limits<double>::infinity();
    flows_.add_flow(uses_, cap);
  }
  capacities_.assign(loaded_links_.size(), bandwidth_);
  solver_.solve(capacities_, flows_, rates_);
  std::size_t flow = 0;
  for (auto& [key, job] : jobs_) {
    job.message_rate = rates_[flow++];
    const double ratio = job.reference_rate / job.message_rate;
    const double slowdown = job.loads.empty() ? 1.0
                            : job.capped      ? std::max(1.0 / bandwidth_, ratio)
                                              : ratio;
    job.rate.comm_slowdown = slowdown;
    job.rate.progress = 1.0 / ((1 - comm_) + comm_ * slowdown);
  }
  // Link use, each job counted during the share of its time it spends communicating.
  link_use_.assign(loaded_links_.size(), 0);
  flow = 0;
  for (const auto& [key, job] : jobs_) {
    const double s = job.rate.comm_slowdown;
    const double communicating = comm_ * s / ((1 - comm_) + comm_ * s);
    for (const FlowUse& use : flows_.uses(flow++))
      link_use_[use.link] += job.message_rate * use.weight * communicating;
  }
  utilization_ = {};
  double total = 0;
  for (double use : link_use_) {
    total += use / bandwidth_;
    utilization_.max = std::max(utilization_.max, use / bandwidth_);
  }
  const auto links = topology_->link_count();
  utilization_.mean = links > 0 ? total / static_cast<double>(links) : 0;
  for (LinkId link : loaded_links_) compact_of_link_[link] = -1;
}

}  // namespace allocsim
