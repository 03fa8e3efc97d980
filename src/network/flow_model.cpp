// Flow-level network model (see flow_model.hpp).
#include "allocsim/network/flow_model.hpp"

#include <algorithm>
#include <limits>
#include <span>

namespace allocsim {

double pacing_load(std::span<const std::pair<LinkId, double>> loads, FlowLoad form,
                   std::int64_t link_count) {
  double result = 0;
  if (form == FlowLoad::max) {
    for (const auto& [link, load] : loads) result = std::max(result, load);
    return result;
  }
  // Agarwal et al. §5.3: "a smaller value of hops-per-byte leads to a smaller number of
  // packets on each link": the job's hop-bytes (Σ_l w_l) over every link of the machine.
  for (const auto& [link, load] : loads) result += load;
  return link_count > 0 ? result / static_cast<double>(link_count) : 0;
}

FlowNetwork::FlowNetwork(const Topology& topology, double comm, double bandwidth, FlowLoad load)
    : topology_(&topology),
      comm_(comm),
      bandwidth_(bandwidth),
      load_(load),
      adaptive_(topology.graph() && topology.graph()->adaptive()),
      pool_link_(load == FlowLoad::mean ? topology.link_slot_count() : -1),
      compact_of_link_(topology.link_slot_count() + (load == FlowLoad::mean ? 1 : 0), -1) {
  if (const GraphMachine* graph = topology.graph()) {
    class_of_link_.reserve(graph->links().size());
    for (const GraphLink& link : graph->links()) {
      const auto index = static_cast<std::uint8_t>(link.link_class);
      class_of_link_.push_back(index);
      has_class_[index] = true;
    }
  }
}

void FlowNetwork::normalise(std::vector<std::pair<LinkId, double>>& loads) const {
  if (!topology_->graph()) return;  // every capacity 1
  for (auto& [link, load] : loads) load /= topology_->link_capacity(link);
}

double FlowNetwork::pacing_load(std::span<const std::pair<LinkId, double>> loads) const {
  if (!topology_->graph()) return allocsim::pacing_load(loads, load_, topology_->link_count());
  std::vector<std::pair<LinkId, double>> normalised(loads.begin(), loads.end());
  normalise(normalised);
  return allocsim::pacing_load(normalised, load_, topology_->link_count());
}

std::vector<std::pair<LinkId, double>> FlowNetwork::all_to_all(std::span<const NodeId> nodes,
                                                               LinkLoadView view) {
  std::vector<std::pair<LinkId, double>> loads;
  for (const LoadedLink& load : all_to_all_link_loads(*topology_, nodes, scratch_, &poll_, view))
    loads.emplace_back(load.link, load.load);
  normalise(loads);
  return loads;
}

double FlowNetwork::reference_rate(int k) {
  if (k < 2) return std::numeric_limits<double>::infinity();
  const auto found = reference_rates_.find(k);
  if (found != reference_rates_.end()) return found->second;
  // Alone on the machine: adaptive routing sees no other load and routes minimally.
  const std::vector<NodeId> nodes = reference_compact_nodes(*topology_, k);
  const double rate =
      1.0 / allocsim::pacing_load(all_to_all(nodes, {}), load_, topology_->link_count());
  reference_rates_.emplace(k, rate);
  return rate;
}

LinkLoadView FlowNetwork::link_load_view(JobKey except) {
  if (!adaptive_) return {};
  link_view_.assign(static_cast<std::size_t>(topology_->link_slot_count()), 0.0);
  for (const auto& [key, job] : jobs_)  // key order: the same sums on every run
    if (key != except)
      for (const auto& [link, load] : job.link_loads) link_view_[link] += load;
  return link_view_;
}

void FlowNetwork::reroute_adaptive() {
  // UGAL's choice at every re-rating: each running all-to-all job, in key order, is routed
  // again against the loads of all the others as they stand (jobs before it already re-routed).
  std::vector<JobKey> keys;
  for (const auto& [key, job] : jobs_)
    if (!job.nodes.empty()) keys.push_back(key);
  for (const JobKey key : keys) {
    RunningJob& old = jobs_.at(key);
    RunningJob job;
    job.nodes = std::move(old.nodes);
    job.reference_rate = old.reference_rate;
    job.capped = old.capped;
    job.comm = old.comm;
    job.alone_message_rate = old.alone_message_rate;
    remove_job(key);
    job.loads = all_to_all(job.nodes, link_load_view(key));
    insert_job(key, std::move(job));
  }
}

std::size_t FlowNetwork::NodeListHash::operator()(const std::vector<NodeId>& nodes) const {
  std::size_t hash = nodes.size();
  for (NodeId node : nodes)
    hash ^= std::hash<NodeId>{}(node) + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
  return hash;
}

void FlowNetwork::add_job(JobKey key, std::span<const NodeId> nodes) {
  add_job(key, nodes, reference_rate(static_cast<int>(nodes.size())));
}

void FlowNetwork::add_job(JobKey key, std::span<const NodeId> nodes, double reference_rate) {
  RunningJob job;
  job.reference_rate = reference_rate;
  if (adaptive_) {  // routes depend on the other jobs' loads: no memo
    job.nodes.assign(nodes.begin(), nodes.end());
    job.loads = all_to_all(nodes, link_load_view(key));
    const std::vector<std::pair<LinkId, double>> alone = all_to_all(nodes, {});
    insert_job(key, std::move(job), &alone);
    return;
  }
  // Allocators hand out the same node lists again and again: their loads are memoized (a pure
  // function of the list; the memo is emptied when it grows past kMaxMemoizedLoads entries).
  std::vector<NodeId> list(nodes.begin(), nodes.end());
  auto found = all_to_all_memo_.find(list);
  if (found == all_to_all_memo_.end()) {
    if (all_to_all_memo_.size() >= kMaxMemoizedLoads) all_to_all_memo_.clear();
    found = all_to_all_memo_.emplace(std::move(list), all_to_all(nodes, {})).first;
  }
  job.loads = found->second;
  insert_job(key, std::move(job));
}

void FlowNetwork::add_job(JobKey key, int nodes, std::vector<LoadedLink> loads) {
  RunningJob job;
  job.loads.reserve(loads.size());
  for (const LoadedLink& load : loads) job.loads.emplace_back(load.link, load.load);
  normalise(job.loads);
  job.reference_rate = reference_rate(nodes);
  insert_job(key, std::move(job));
}

void FlowNetwork::add_job(JobKey key, std::span<const std::pair<LinkId, double>> loads,
                          double reference_rate) {
  RunningJob job;
  job.loads.assign(loads.begin(), loads.end());
  normalise(job.loads);
  job.reference_rate = reference_rate;
  job.capped = false;
  insert_job(key, std::move(job));
}

double FlowNetwork::alone_message_rate(const RunningJob& job,
                                       std::vector<std::pair<LinkId, double>> loads) const {
  if (loads.empty()) return 0;
  std::sort(loads.begin(), loads.end());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (kept > 0 && loads[kept - 1].first == loads[i].first)
      loads[kept - 1].second += loads[i].second;
    else
      loads[kept++] = loads[i];
  }
  loads.resize(kept);
  // solve_queued's one-job path: frozen loads 0, active weight = its load.
  const double cap =
      job.capped ? bandwidth_ * job.reference_rate : std::numeric_limits<double>::infinity();
  double lowest = FlowSet::kNoCap;
  for (const auto& [link, load] : loads)
    lowest = std::min(lowest, (bandwidth_ - 0.0) / (0.0 + load));
  return cap <= lowest ? std::max(0.0, cap) : std::max(0.0, lowest);
}

FlowNetwork::JobRate FlowNetwork::rate_at(const RunningJob& job, double message_rate) const {
  const double ratio = job.reference_rate / message_rate;
  const double slowdown = job.loads.empty() ? 1.0
                          : job.capped      ? std::max(1.0 / bandwidth_, ratio)
                                            : ratio;
  return {slowdown, 1.0 / ((1 - job.comm) + job.comm * slowdown)};
}

FlowNetwork::JobRate FlowNetwork::alone_rate(JobKey key) const {
  const RunningJob& job = jobs_.at(key);
  return rate_at(job, job.alone_message_rate);
}

void FlowNetwork::set_comm(JobKey key, double comm) {
  RunningJob& job = jobs_.at(key);
  job.comm = comm;
  if (job.loads.empty()) job.rate = rate_at(job, job.message_rate);  // solve() skips it
}

void FlowNetwork::insert_job(JobKey key, RunningJob job,
                             const std::vector<std::pair<LinkId, double>>* alone_loads) {
  if (jobs_.count(key)) remove_job(key);
  job.key = key;
  if (job.comm < 0) job.comm = comm_;
  if (adaptive_) job.link_loads = job.loads;  // what UGAL sees of it (link_load_view)
  if (load_ == FlowLoad::mean && !job.loads.empty()) {
    // Its load spread evenly over all N links: one load Σ w / N on the pool, which stands for
    // each of them (max-min fair sharing of N equal links, each loaded Σ w / N by every job,
    // is that of the one pool link). Loads are already normalised (w / c).
    const double spread = allocsim::pacing_load(job.loads, load_, topology_->link_count());
    job.loads.assign(1, {pool_link_, spread});
    if (alone_loads && !alone_loads->empty()) {
      const double alone = allocsim::pacing_load(*alone_loads, load_, topology_->link_count());
      job.alone_message_rate = alone_message_rate(job, {{pool_link_, alone}});
    }
  }
  if (job.alone_message_rate < 0)
    job.alone_message_rate =
        alone_message_rate(job, alone_loads && load_ == FlowLoad::max ? *alone_loads : job.loads);
  RunningJob& stored = jobs_.emplace(key, std::move(job)).first->second;
  if (jobs_on_link_.empty()) {
    const auto slots = static_cast<std::size_t>(compact_of_link_.size());
    jobs_on_link_.resize(slots);
    use_of_link_.assign(slots, 0);
    link_dirty_.assign(slots, 0);
    owner_of_link_.assign(slots, nullptr);
    link_searched_.assign(slots, 0);
  }
  if (stored.loads.empty()) {
    // No messages: its rate is what solve_queued() would give it (slowdown 1), and nobody
    // else's changes.
    stored.rate.comm_slowdown = 1.0;
    stored.rate.progress = 1.0 / ((1 - stored.comm) + stored.comm * 1.0);
    return;
  }
  stored.distinct_links = std::adjacent_find(stored.loads.begin(), stored.loads.end(),
                                             [](const auto& a, const auto& b) {
                                               return a.first >= b.first;
                                             }) == stored.loads.end();
  for (std::size_t i = 0; i < stored.loads.size(); ++i) {
    const LinkId link = stored.loads[i].first;
    auto& on_link = jobs_on_link_[link];
    on_link.push_back({&stored, key, stored.loads[i].second});
    if (on_link.size() == 2) {  // private → shared
      on_link.front().job->sharing_stale = true;
      count_shared(*on_link.front().job, +1);
    }
    if (on_link.size() >= 2) count_shared(stored, +1);
    RunningJob*& owner = owner_of_link_[link];
    if (owner && owner->key < key) continue;
    if (owner) {
      const int position = position_of(*owner, link);
      owner->owned.erase(std::lower_bound(owner->owned.begin(), owner->owned.end(), position));
      owner->owned_dirty = true;
    }
    owner = &stored;
    stored.owned.push_back(static_cast<int>(i));
    stored.owned_dirty = true;
  }
  changed_.push_back(key);
  links_changed_ = true;
}

int FlowNetwork::position_of(const RunningJob& job, LinkId link) {
  const auto& loads = job.loads;
  const auto is_link = [&](const std::pair<LinkId, double>& load) { return load.first == link; };
  auto found = std::lower_bound(
      loads.begin(), loads.end(), link,
      [](const std::pair<LinkId, double>& load, LinkId value) { return load.first < value; });
  if (found == loads.end() || !is_link(*found))  // loads not sorted by link
    found = std::find_if(loads.begin(), loads.end(), is_link);
  return static_cast<int>(found - loads.begin());
}

void FlowNetwork::remove_job(JobKey key) {
  const auto found = jobs_.find(key);
  if (found == jobs_.end()) return;
  RunningJob* job = &found->second;
  if (!job->loads.empty()) links_changed_ = true;
  // Its link sharers' rates may rise: re-solve them (and whatever they are connected to).
  for (const auto& [link, load] : job->loads) {
    auto& on_link = jobs_on_link_[link];
    on_link.erase(std::find_if(on_link.begin(), on_link.end(),
                               [&](const LinkUser& user) { return user.job == job; }));
    if (on_link.size() == 1) {  // shared → private
      on_link.front().job->sharing_stale = true;
      count_shared(*on_link.front().job, -1);
    }
    // One sharer per link suffices: all of them share the link, so are connected.
    mark_dirty(link);  // its use loses this job's share
    if (!on_link.empty() && !on_link.front().job->seeded) {
      on_link.front().job->seeded = true;
      changed_.push_back(on_link.front().job->key);
    }
  }
  // Its links pass to their next users of least key.
  for (const int position : job->owned) {
    const LinkId link = job->loads[position].first;
    const auto& on_link = jobs_on_link_[link];
    RunningJob* next = nullptr;
    for (const LinkUser& other : on_link)
      if (!next || other.job->key < next->key) next = other.job;
    owner_of_link_[link] = next;
    if (next) {
      const int at = position_of(*next, link);
      next->owned.insert(std::lower_bound(next->owned.begin(), next->owned.end(), at), at);
      next->owned_dirty = true;
    }
  }
  if (job->shared_count > 0) --sharing_jobs_;
  jobs_.erase(found);
}

void FlowNetwork::count_shared(RunningJob& job, int change) {
  const bool was_sharing = job.shared_count > 0;
  job.shared_count += change;
  sharing_jobs_ += static_cast<int>(job.shared_count > 0) - static_cast<int>(was_sharing);
}

void FlowNetwork::refresh_sharing(RunningJob& job) const {
  if (!job.sharing_stale) return;
  job.sharing_stale = false;
  job.shared.clear();
  job.heaviest_private = -1;
  double heaviest_load = 0;
  for (std::size_t i = 0; i < job.loads.size(); ++i) {
    const auto& [link, load] = job.loads[i];
    if (jobs_on_link_[link].size() > 1) {
      job.shared.push_back(static_cast<int>(i));
    } else if (load > heaviest_load) {
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
  if (first.shared_count > 0) ++queued_sharing_;
  // Each link's users are looked at once (links stamped with this search's number).
  if (++link_search_ == 0) {
    std::fill(link_searched_.begin(), link_searched_.end(), 0);
    link_search_ = 1;
  }
  // Only shared links lead to other jobs: a private link's one user is the job itself. Once
  // every job with a shared link is queued, nothing more can be reached: stop there.
  for (; next < queued_.size() && queued_sharing_ < sharing_jobs_; ++next) {
    RunningJob& job = *queued_[next];
    refresh_sharing(job);
    for (const int position : job.shared) {
      const LinkId link = job.loads[position].first;
      if (link_searched_[link] == link_search_) continue;
      link_searched_[link] = link_search_;
      const auto& users = jobs_on_link_[link];
      if (users.size() > budget) return false;
      budget -= users.size();
      for (const LinkUser& user : users)
        if (RunningJob* other = user.job; !other->queued) {
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

void FlowNetwork::solve_queued_flows() {
  // Number the links the solver needs compactly, in order of first use. A link that only one
  // job loads (a private link) saturates, while that job is unfrozen, at bandwidth / load: of a
  // job's private links only one of largest load can set its level (the others reach theirs no
  // earlier, and freeze nobody else), so the solver gets that one and the shared links. The
  // rates are the same bit for bit (the solver freezes in flow order, see max_min.hpp).
  flows_.clear();
  for (RunningJob* job : queued_) {
    refresh_sharing(*job);  // (queue_connected may have stopped before looking at it)
    uses_.clear();
    const auto use = [&](LinkId link, double load) {
      int& index = compact_of_link_[link];
      if (index < 0) {
        index = static_cast<int>(loaded_links_.size());
        loaded_links_.push_back(link);
      }
      uses_.push_back({index, load});
    };
    // The shared links in load order, then the heaviest private one.
    for (const int position : job->shared)
      use(job->loads[position].first, job->loads[position].second);
    if (job->heaviest_private >= 0)
      use(job->loads[job->heaviest_private].first, job->loads[job->heaviest_private].second);
    // A job of fewer than two nodes has no messages: cap 0 keeps it out of the way.
    const double cap = uses_.empty() ? 0
                       : job->capped ? bandwidth_ * job->reference_rate
                                     : std::numeric_limits<double>::infinity();
    flows_.add_flow(uses_, cap);
  }
  capacities_.assign(loaded_links_.size(), bandwidth_);
  solver_.solve(capacities_, flows_, rates_, &poll_);
  for (LinkId link : loaded_links_) compact_of_link_[link] = -1;
}

void FlowNetwork::solve_queued() {
  loaded_links_.clear();
  if (queued_.empty()) return;  // a job that shared no link ended
  if (queued_.size() == 1 && queued_[0]->distinct_links) {
    // One job alone on its links: progressive filling freezes its one flow at its cap or at
    // the lowest bandwidth / load over its links, whichever comes first; computed here with
    // the same operations (frozen loads 0, active weight = its load).
    RunningJob& job = *queued_[0];
    const double cap =
        job.capped ? bandwidth_ * job.reference_rate : std::numeric_limits<double>::infinity();
    double lowest = FlowSet::kNoCap;
    for (const auto& [link, load] : job.loads)
      lowest = std::min(lowest, (bandwidth_ - 0.0) / (0.0 + load));
    rates_.assign(1, cap <= lowest ? std::max(0.0, cap) : std::max(0.0, lowest));
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
    // Its links' use changes only if its rate or share does (or it is new): then they are
    // summed again.
    if (!job->solved || !(rate == job->message_rate) || !(communicating == job->communicating))
      for (const auto& [link, load] : job->loads) mark_dirty(link);
    job->solved = true;
    job->message_rate = rate;
    job->rate = at;
    job->communicating = communicating;
  }
}

void FlowNetwork::mark_dirty(LinkId link) {
  if (!topology_->graph() || link_dirty_[link]) return;  // grids: always the one pass
  link_dirty_[link] = 1;
  dirty_links_.push_back(link);
}

void FlowNetwork::sum_dirty_links() {
  // Link use, each job counted during the share of its time it spends communicating: the sum
  // over the link's users in key order (a job's entries on it in load order), as a pass over
  // all jobs in key order would add them. Only links a changed rate, a new job or an ended
  // one touched are summed again; the others' users and terms are as they were. When those
  // links have more users in all than the re-solved jobs have loads (a fat tree's core links
  // carry nearly every job), every link of the re-solved jobs is summed again instead, in one
  // pass over them in key order (they are their links' only users: the same sums). On grids,
  // where jobs in separate boxes are separate components, the one pass is always taken (the
  // bookkeeping cost NASA on mesh:16x8 5-10 %).
  std::size_t dirty_users = 0, queued_loads = 0;
  for (const LinkId link : dirty_links_) dirty_users += jobs_on_link_[link].size();
  for (const RunningJob* job : queued_) queued_loads += job->loads.size();
  if (!topology_->graph() || 2 * dirty_users > queued_loads) {
    for (const LinkId link : dirty_links_) {
      link_dirty_[link] = 0;
      use_of_link_[link] = 0;  // (those no job uses any more keep 0)
    }
    dirty_links_.clear();
    for (RunningJob* job : queued_) {
      job->owned_dirty = true;
      for (const auto& [link, load] : job->loads) use_of_link_[link] = 0;
    }
    for (const RunningJob* job : queued_)
      for (const auto& [link, load] : job->loads)
        use_of_link_[link] += job->message_rate * load * job->communicating;
    return;
  }
  for (const LinkId link : dirty_links_) {
    link_dirty_[link] = 0;
    std::span<const LinkUser> users = jobs_on_link_[link];
    const auto by_key = [](const LinkUser& a, const LinkUser& b) { return a.key < b.key; };
    if (!std::is_sorted(users.begin(), users.end(), by_key)) {
      users_.assign(users.begin(), users.end());
      std::stable_sort(users_.begin(), users_.end(), by_key);  // (a job's entries stay in order)
      users = users_;
    }
    double use = 0;
    for (const LinkUser& user : users)
      use += user.job->message_rate * user.load * user.job->communicating;
    use_of_link_[link] = use;
    if (RunningJob* owner = owner_of_link_[link]) owner->owned_dirty = true;
  }
  dirty_links_.clear();
}

void FlowNetwork::update_utilization() {
  // Each link counted once, by its owner (its user of least key): the re-solved jobs' sums
  // over their owned links are recomputed (no other job's owned links or their use changed:
  // every user of a re-solved job's link was re-solved, and links change owner only between
  // users), then summed over all jobs in key order.
  sum_dirty_links();
  for (RunningJob* job : queued_) {
    if (!job->owned_dirty) continue;  // its owned links, their users and uses as they were
    job->owned_dirty = false;
    job->owned_use = 0;
    job->owned_peak = 0;
    job->owned_class_peak = {};
    for (const int position : job->owned) {
      const LinkId link = job->loads[position].first;
      const double use = use_of_link_[link] / bandwidth_;
      job->owned_use += use;
      job->owned_peak = std::max(job->owned_peak, use);
      // Per class on graph machines (the pool link of FlowLoad::mean has none: below).
      if (static_cast<std::size_t>(link) < class_of_link_.size()) {
        double& peak = job->owned_class_peak[class_of_link_[link]];
        peak = std::max(peak, use);
      }
    }
  }
  utilization_ = {};
  double total = 0;
  for (const auto& [key, job] : jobs_) {
    total += job.owned_use;
    utilization_.max = std::max(utilization_.max, job.owned_peak);
    for (std::size_t c = 0; c < kLinkClassCount; ++c)
      utilization_.max_by_class[c] =
          std::max(utilization_.max_by_class[c], job.owned_class_peak[c]);
  }
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
