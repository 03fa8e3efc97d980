// Flow-level network model: link use and its peaks (see flow_model.hpp, Utilization::max).
#include "allocsim/network/flow_model.hpp"

#include <algorithm>
#include <cmath>

namespace allocsim {

namespace {

constexpr double kUseScale = 0x1p52;  ///< units of FlowNetwork::use_of_link_ per unit of use

/// A link-use term in units of 2^-52, rounded down (terms are ≥ 0; the clamp, far above any
/// real use, keeps a sum of many of them in range).
std::int64_t quantized_use(double use) {
  return static_cast<std::int64_t>(std::min(use * kUseScale, kUseScale * 0x1p8));
}

}  // namespace

double FlowNetwork::use_factor_at(const RunningJob& job, double rate) const {
  // The share of its time it spends communicating at that rate.
  const double s = rate_at(job, rate).comm_slowdown;
  const double communicating = job.comm * s / ((1 - job.comm) + job.comm * s);
  return rate * communicating / bandwidth_;
}

void FlowNetwork::set_largest_use_factor(RunningJob& job) const {
  // A job's use factor r · c(s) / bandwidth = comm · r_ref / ((1 − comm) + comm · s) /
  // bandwidth grows with its rate r (s = r_ref / r falls; where capped, s stays at 1 /
  // bandwidth and r grows): it is largest at its upper rate.
  const double largest = use_factor_at(job, job.upper_rate) * (1 + 1e-6);
  job.largest_use_factor = std::isfinite(largest) ? largest : 0x1p20;
}

void FlowNetwork::make_live(RunningJob& job, int position) {
  if (job.live_slot[static_cast<std::size_t>(position)] >= 0) return;
  job.live_slot[static_cast<std::size_t>(position)] = static_cast<int>(job.live.size());
  job.live.push_back(position);
}

void FlowNetwork::track(LinkId link) {
  std::int64_t use = 0;
  for (const LinkUser& user : links_[link].users) {
    RunningJob& job = job_of(user);
    use += quantized_use(job.use_factor * load_of(user));
    make_live(job, user.position);
  }
  use_of_link_[link] = use;
  tracked_of_link_[link] = 1;
}

void FlowNetwork::set_use(RunningJob& job, double use_factor) {
  // A term r · w · (share communicating) / bandwidth, rounded to a multiple of 2^-52: integer
  // sums do not depend on the order of the terms, so a link's use is what summing its users
  // afresh gives (the utilization test compares with fresh networks bit for bit).
  // Only links that can still raise a peak are summed (see Utilization::max): a live link that
  // no longer can, or is no longer summed, leaves the job's live list here.
  if (use_factor == job.use_factor) return;
  if (use_factor > job.use_factor && exclusive_nodes_) {
    // Its own links' use is its term there, largest on the most loaded (see
    // set_exclusive_nodes).
    const auto raise = [&](std::uint8_t link_class, double load) {
      const std::int64_t use = quantized_use(use_factor * load);
      peak_class_use_[link_class] = std::max(peak_class_use_[link_class], use);
      peak_use_ = std::max(peak_use_, use);
    };
    raise(kInjectionClass, job.largest_injection);
    raise(kEjectionClass, job.largest_ejection);
  }
  for (std::size_t i = 0; i < job.live.size();) {
    const auto position = static_cast<std::size_t>(job.live[i]);
    const auto& [link, load] = job.loads[position];
    if (!tracked_of_link_[link] || links_[link].bound <= bound_threshold(link)) {
      tracked_of_link_[link] = 0;
      job.live_slot[position] = -1;
      job.live[i] = job.live.back();
      job.live.pop_back();
      if (i < job.live.size())
        job.live_slot[static_cast<std::size_t>(job.live[i])] = static_cast<int>(i);
      continue;
    }
    const std::int64_t change =
        quantized_use(use_factor * load) - quantized_use(job.use_factor * load);
    use_of_link_[link] += change;
    if (change > 0) raised_links_.push_back(link);
    ++i;
  }
  job.use_factor = use_factor;
}

void FlowNetwork::raise_peak() {
  // After every re-solved job's terms changed: a link's use in between may exceed any real one.
  for (const LinkId link : raised_links_) {
    if (!tracked_of_link_[link]) continue;  // (its sum is stale: it cannot raise a peak)
    peak_use_ = std::max(peak_use_, use_of_link_[link]);
    // Per class on graph machines (the pool link of FlowLoad::mean has none: see
    // update_utilization).
    if (static_cast<std::size_t>(link) < class_of_link_.size()) {
      std::int64_t& peak = peak_class_use_[class_of_link_[static_cast<std::size_t>(link)]];
      peak = std::max(peak, use_of_link_[link]);
    }
  }
  raised_links_.clear();
  utilization_.max = static_cast<double>(peak_use_) / kUseScale;
  for (std::size_t c = 0; c < kLinkClassCount; ++c)
    utilization_.max_by_class[c] = static_cast<double>(peak_class_use_[c]) / kUseScale;
}

void FlowNetwork::update_utilization() {
  // The peaks are kept by raise_peak. The mean: Σ over links of Σ over their users is Σ over jobs
  // of their rate times the sum of their loads, summed in key order.
  double total = 0;
  for (const auto& [key, job] : jobs_)
    total += job.message_rate * job.communicating * job.load_sum / bandwidth_;
  const auto links = topology_->link_count();
  if (load_ == FlowLoad::mean) {  // the pool's use is that of every link, of every class
    utilization_.mean = total;
    for (std::size_t c = 0; c < kLinkClassCount; ++c)
      if (has_class_[c]) utilization_.max_by_class[c] = utilization_.max;
  } else {
    utilization_.mean = links > 0 ? total / static_cast<double>(links) : 0;
  }
}

}  // namespace allocsim
