// Flow-level network model: which running jobs to re-solve after a change (the jobs connected
// through contended links) and progressive filling on them (see flow_model.hpp, the class
// comment of FlowNetwork).
#include "allocsim/network/flow_model.hpp"

#include <algorithm>
#include <limits>
#include <span>

namespace allocsim {

void FlowNetwork::refresh_private(RunningJob& job) const {
  if (!job.private_stale) return;
  job.private_stale = false;
  job.heaviest_private = -1;
  double heaviest_load = 0;
  for (std::size_t i = 0; i < job.loads.size(); ++i) {
    const auto& [link, load] = job.loads[i];
    if ((own_link(link) || links_[link].users.size() == 1) && load > heaviest_load) {
      job.heaviest_private = static_cast<int>(i);
      heaviest_load = load;
    }
  }
}

bool FlowNetwork::queue_connected(RunningJob& first, std::size_t& budget) {
  if (first.queued) return true;
  first.queued = true;
  std::size_t next = queued_.size();
  queued_.push_back(&first);
  if (!first.shared.empty()) ++queued_sharing_;
  // Each link's users are looked at once (links stamped with this search's number).
  if (++link_search_ == 0) {
    std::fill(searched_of_link_.begin(), searched_of_link_.end(), 0);
    link_search_ = 1;
  }
  // Only shared links lead to other jobs: a private link's one user is the job itself. Once
  // every job with a shared link is queued, nothing more can be reached: stop there.
  for (; next < queued_.size() && queued_sharing_ < sharing_jobs_; ++next) {
    RunningJob& job = *queued_[next];
    for (const auto& shared : job.shared_loads) {
      const LinkId link = shared.first;
      if (searched_of_link_[link] == link_search_) continue;
      searched_of_link_[link] = link_search_;
      const auto& users = links_[link].users;
      if (users.size() > budget) return false;
      budget -= users.size();
      for (const LinkUser& user : users)
        if (RunningJob* other = &job_of(user); !other->queued) {
          other->queued = true;
          queued_.push_back(other);
          ++queued_sharing_;  // (reached through a shared link)
        }
    }
  }
  return true;
}

bool FlowNetwork::solve() {
  if (!links_changed_) return false;  // only jobs without messages came or went
  if (adaptive_) reroute_adaptive();
  links_changed_ = false;
  queued_.clear();
  queued_sharing_ = 0;
  // The search may look at a few link users per running job; past that, re-solving every job
  // costs less than finding how many are connected (on graph machines nearly all are), and
  // gives the same rates (see the class comment).
  std::size_t budget = kSearchBudgetPerJob * jobs_.size();
  bool searched = true;
  for (JobKey key : changed_) {
    const auto found = jobs_.find(key);
    if (found == jobs_.end()) continue;
    found->second.seeded = false;
    searched = searched && queue_connected(found->second, budget);
  }
  changed_.clear();
  if (!searched) {
    for (RunningJob* job : queued_) job->queued = false;
    queued_.clear();
    for (auto& [key, job] : jobs_) {
      job.seeded = false;
      if (!job.loads.empty()) queued_.push_back(&job);
    }
  }
  // Key order, as a solve over all jobs would see them (see the class comment).
  std::sort(queued_.begin(), queued_.end(),
            [](const RunningJob* a, const RunningJob* b) { return a->key < b->key; });
  solve_queued();
  for (RunningJob* job : queued_) job->queued = false;
  update_utilization();
  return true;
}

double FlowNetwork::sharing_weight(const RunningJob& job) const {
  // (a share of 0 sends nothing: its loads are empty; kept at 1 should one come)
  return weighted_sharing_ && job.comm > 0 ? job.comm : 1.0;
}

void FlowNetwork::solve_queued_flows() {
  // Number the links the solver needs compactly, in order of first use. A link that only one
  // job loads (a private link) saturates, while that job is unfrozen, at bandwidth / load: of a
  // job's private links only one of largest load can set its level (the others reach theirs no
  // earlier, and freeze nobody else), so the solver gets that one and the shared links. The
  // rates are the same bit for bit (the solver freezes in flow order, see max_min.hpp).
  flows_.clear();
  for (RunningJob* job : queued_) {
    refresh_private(*job);
    uses_.clear();
    const auto use = [&](LinkId link, double load) {
      int& index = compact_of_link_[link];
      if (index < 0) {
        index = static_cast<int>(loaded_links_.size());
        loaded_links_.push_back(link);
      }
      uses_.push_back({index, load});
    };
    // The contended links, then the heaviest private one. Their order changes no operation of
    // the solver on a link, but where a link repeats in a job's loads (the order in which its
    // weights add up): then in load order.
    if (job->distinct_links) {
      for (const auto& [link, load] : job->shared_loads) use(link, load);
    } else {
      positions_.assign(job->shared.begin(), job->shared.end());
      std::sort(positions_.begin(), positions_.end());
      for (const int position : positions_)
        use(job->loads[position].first, job->loads[position].second);
    }
    if (job->heaviest_private >= 0)
      use(job->loads[job->heaviest_private].first, job->loads[job->heaviest_private].second);
    // A job of fewer than two nodes has no messages: cap 0 keeps it out of the way.
    const double cap = uses_.empty() ? 0
                       : job->capped ? bandwidth_ * job->reference_rate
                                     : std::numeric_limits<double>::infinity();
    // Weighted sharing: the solver's flow is r / φ, φ the job's share (its loads × φ, its cap
    // / φ), so equal levels give rates in proportion to φ.
    const double share = sharing_weight(*job);
    if (share != 1) {
      for (FlowUse& flow_use : uses_) flow_use.weight *= share;
    }
    flows_.add_flow(uses_, share != 1 ? cap / share : cap);
  }
  capacities_.assign(loaded_links_.size(), bandwidth_);
  solver_.solve(capacities_, flows_, rates_, &poll_);
  if (weighted_sharing_)
    for (std::size_t flow = 0; flow < queued_.size(); ++flow)
      rates_[flow] *= sharing_weight(*queued_[flow]);
  for (LinkId link : loaded_links_) compact_of_link_[link] = -1;
}

void FlowNetwork::solve_queued() {
  loaded_links_.clear();
  if (queued_.empty()) return;  // a job that shared no link ended
  if (queued_.size() == 1 && queued_[0]->distinct_links && !weighted_sharing_) {
    // One job alone on its links: progressive filling freezes its one flow at its cap or at
    // the lowest bandwidth / load over its links, whichever comes first (the same result: see
    // one_flow_rate).
    rates_.assign(1, one_flow_rate(*queued_[0], queued_[0]->loads));
  } else {
    solve_queued_flows();
  }
  std::size_t flow = 0;
  for (RunningJob* job : queued_) {
    const double rate = rates_[flow++];
    const JobRate at = rate_at(*job, rate);
    // The share of its time it spends communicating.
    const double s = at.comm_slowdown;
    const double communicating = job->comm * s / ((1 - job->comm) + job->comm * s);
    job->message_rate = rate;
    job->rate = at;
    job->communicating = communicating;
    set_use(*job, use_factor_at(*job, rate));
  }
  raise_peak();
}

}  // namespace allocsim
