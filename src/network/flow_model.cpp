// Flow-level network model (see flow_model.hpp).
#include "allocsim/network/flow_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

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
      prune_uncontended_(topology.graph() != nullptr),
      pool_link_(load == FlowLoad::mean ? topology.link_slot_count() : -1),
      compact_of_link_(topology.link_slot_count() + (load == FlowLoad::mean ? 1 : 0), -1) {
  if (const GraphMachine* graph = topology.graph()) {
    class_of_link_.reserve(graph->links().size());
    unit_capacities_ = std::all_of(graph->links().begin(), graph->links().end(),
                                   [](const GraphLink& link) { return link.capacity == 1; });
    for (const GraphLink& link : graph->links()) {
      const auto index = static_cast<std::uint8_t>(link.link_class);
      class_of_link_.push_back(index);
      has_class_[index] = true;
    }
  }
}

void FlowNetwork::normalise(std::vector<std::pair<LinkId, double>>& loads) const {
  if (!topology_->graph() || unit_capacities_) return;  // every capacity 1: w / 1 = w
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

namespace {

/// Loads sorted by link, no link twice (a job's all-to-all loads always are).
bool distinct_sorted(std::span<const std::pair<LinkId, double>> loads) {
  return std::adjacent_find(loads.begin(), loads.end(), [](const auto& a, const auto& b) {
           return a.first >= b.first;
         }) == loads.end();
}

}  // namespace

double FlowNetwork::one_flow_rate(const RunningJob& job,
                                  std::span<const std::pair<LinkId, double>> loads) const {
  // Progressive filling of one flow: frozen loads 0, active weight = its load on each link.
  const double cap =
      job.capped ? bandwidth_ * job.reference_rate : std::numeric_limits<double>::infinity();
  // The lowest level (bandwidth − 0) / (0 + load) over the links is bandwidth / the largest
  // load: correctly rounded division by a positive number falls as the divisor grows, so the
  // smallest quotient is the largest load's, the same bits (one division, not one per link).
  double largest = 0;
  for (const auto& [link, load] : loads) largest = std::max(largest, load);
  const double lowest = largest > 0 ? bandwidth_ / largest : FlowSet::kNoCap;
  return cap <= lowest ? std::max(0.0, cap) : std::max(0.0, lowest);
}

double FlowNetwork::alone_message_rate(const RunningJob& job,
                                       std::span<const std::pair<LinkId, double>> loads) const {
  if (loads.empty()) return 0;
  if (distinct_sorted(loads)) return one_flow_rate(job, loads);
  // Per-link sums first (solve_queued_flows gives the solver a repeated link's entries apart,
  // which it adds up per link).
  std::vector<std::pair<LinkId, double>> summed(loads.begin(), loads.end());
  std::sort(summed.begin(), summed.end());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < summed.size(); ++i) {
    if (kept > 0 && summed[kept - 1].first == summed[i].first)
      summed[kept - 1].second += summed[i].second;
    else
      summed[kept++] = summed[i];
  }
  summed.resize(kept);
  return one_flow_rate(job, summed);
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
  // Its largest terms in its links' use bounds change with its share.
  for (std::size_t i = 0; i < job.loads.size(); ++i)
    if (!own_link(job.loads[i].first)) add_bound(job, i, -1);
  job.comm = comm;
  set_largest_use_factor(job);
  for (std::size_t i = 0; i < job.loads.size(); ++i)
    if (!own_link(job.loads[i].first)) add_bound(job, i, 1);
  if (job.loads.empty()) job.rate = rate_at(job, job.message_rate);  // solve() skips it
}

// (Inlined: out of line, the compiler finds a function of prefetches alone without effect
// and drops its calls.)
[[gnu::always_inline]] inline void FlowNetwork::prefetch_ahead(const RunningJob& job, std::size_t i,
                                                               bool leaving) const {
  // Most of insert_job's and remove_job's time is waiting for memory: a job's links come in
  // link order (their LinkStates in address order), but a link of three users or more keeps
  // them on the heap, at an address known only once its state is read. So two stages: the
  // state kStateAhead links ahead, and the users array (the entries to be read or written)
  // kUsersAhead links ahead, whose state was fetched by the first stage; remove_job also
  // writes into the job of the entry it moves and reads the load of a link's last user: a
  // third stage kEntryAhead links ahead, from the users fetched by the second. (Hints only:
  // no result depends on them.)
  const std::size_t count = job.loads.size();
  if (leaving && i + kEntryAhead < count) {
    const auto& users = links_[job.loads[i + kEntryAhead].first].users;
    if (users.size() >= 2) {
      const LinkUser& last = users.back();
      __builtin_prefetch(job_of(last).entry_slot.data() + last.position, 1);
      if (users.size() == 2) {
        const LinkUser& other = users.front().job == job.slot ? last : users.front();
        __builtin_prefetch(job_of(other).loads.data() + other.position);
      }
    }
  }
  if (i + kStateAhead < count) {
    __builtin_prefetch(&links_[job.loads[i + kStateAhead].first]);  // (one cache line)
  }
  if (i + kUsersAhead >= count) return;
  const std::size_t ahead = i + kUsersAhead;
  const auto& users = links_[job.loads[ahead].first].users;
  if (!leaving) {
    __builtin_prefetch(users.data() + users.size(), 1);  // where push_back writes
  } else if (!users.empty()) {
    // Its own entry (overwritten) and the last one (moved there).
    __builtin_prefetch(
        users.data() + std::min<std::size_t>(job.entry_slot[ahead], users.size() - 1), 1);
    __builtin_prefetch(users.data() + users.size() - 1);
  }
}

void FlowNetwork::insert_job(JobKey key, RunningJob job,
                             const std::vector<std::pair<LinkId, double>>* alone_loads) {
  if (jobs_.count(key)) remove_job(key);
  job.key = key;
  if (job.comm < 0) job.comm = comm_;
  if (!reference_cap_) job.capped = false;    // flow:cap=none: only its links bound its rate
  if (adaptive_) job.link_loads = job.loads;  // what UGAL sees of it (link_load_view)
  if (load_ == FlowLoad::mean && !job.loads.empty()) {
    // Its load spread evenly over all N links: one load Σ w / N on the pool, which stands for
    // each of them (max-min fair sharing of N equal links, each loaded Σ w / N by every job,
    // is that of the one pool link). Loads are already normalised (w / c).
    const double spread = allocsim::pacing_load(job.loads, load_, topology_->link_count());
    job.loads.assign(1, {pool_link_, spread});
    if (alone_loads && !alone_loads->empty()) {
      const double alone = allocsim::pacing_load(*alone_loads, load_, topology_->link_count());
      const std::pair<LinkId, double> pool[] = {{pool_link_, alone}};
      job.alone_message_rate = alone_message_rate(job, pool);
    }
  }
  bool alone_on_own_loads = false;
  if (job.alone_message_rate < 0) {
    alone_on_own_loads = !(alone_loads && load_ == FlowLoad::max);
    job.alone_message_rate = alone_message_rate(job, alone_on_own_loads ? job.loads : *alone_loads);
  }
  // (the same as its alone rate when that comes from its own loads)
  job.upper_rate = alone_on_own_loads ? job.alone_message_rate : alone_message_rate(job, job.loads);
  RunningJob& stored = jobs_.emplace(key, std::move(job)).first->second;
  if (free_job_slots_.empty()) {
    stored.slot = static_cast<std::int32_t>(job_slots_.size());
    job_slots_.push_back(&stored);
  } else {
    stored.slot = free_job_slots_.back();
    free_job_slots_.pop_back();
    job_slots_[static_cast<std::size_t>(stored.slot)] = &stored;
  }
  if (links_.empty()) {
    links_.reserve(compact_of_link_.size());  // (never grows: the users' allocator stays)
    for (std::size_t i = 0; i < compact_of_link_.size(); ++i) links_.emplace_back(&users_pool_);
    use_of_link_.assign(compact_of_link_.size(), 0);
    searched_of_link_.assign(compact_of_link_.size(), 0);
    tracked_of_link_.assign(compact_of_link_.size(), 0);
  }
  if (exclusive_nodes_ && owner_of_link_.empty()) owner_of_link_.assign(links_.size(), -1);
  if (stored.loads.empty()) {
    // No messages: its rate is what solve_queued() would give it (slowdown 1), and nobody
    // else's changes.
    stored.rate.comm_slowdown = 1.0;
    stored.rate.progress = 1.0 / ((1 - stored.comm) + stored.comm * 1.0);
    return;
  }
  stored.distinct_links = distinct_sorted(stored.loads);
  stored.shared_slot.assign(stored.loads.size(), -1);
  stored.live_slot.assign(stored.loads.size(), -1);
  stored.entry_slot.resize(stored.loads.size());
  set_largest_use_factor(stored);
  for (std::size_t i = 0; i < stored.loads.size(); ++i) {
    prefetch_ahead(stored, i, false);
    stored.load_sum += stored.loads[i].second;
    const LinkId link = stored.loads[i].first;
    if (own_link(link)) {  // never shared: a private link whose use is its own term
      JobKey& owner = owner_of_link_[link];
      if (owner >= 0 && owner != key)
        throw std::logic_error("FlowNetwork: job " + std::to_string(key) +
                               " uses the node of link " + std::to_string(link) + ", which job " +
                               std::to_string(owner) + " runs on (exclusive nodes)");
      owner = key;
      double& largest = class_of_link_[link] == kInjectionClass ? stored.largest_injection
                                                                : stored.largest_ejection;
      largest = std::max(largest, stored.loads[i].second);
      became_private(stored, static_cast<int>(i));
      continue;
    }
    auto& on_link = links_[link].users;
    const bool was_contended = contended(link);
    stored.entry_slot[i] = static_cast<int>(on_link.size());
    on_link.push_back({stored.slot, static_cast<int>(i)});
    if (on_link.size() == 1) {
      became_private(stored, static_cast<int>(i));
    } else if (on_link.size() == 2) {  // private → shared
      RunningJob& other = job_of(on_link.front());
      if (other.heaviest_private == on_link.front().position) other.private_stale = true;
    }
    links_[link].demand += stored.upper_rate * stored.loads[i].second;
    const bool now_contended = contended(link);
    if (!was_contended && now_contended) {
      for (const LinkUser& user : on_link) add_shared(user);  // (this job's entry too)
    } else if (now_contended) {
      add_shared(on_link.back());
    }
    add_bound(stored, i, 1);
  }
  changed_.push_back(key);
  links_changed_ = true;
}

void FlowNetwork::remove_job(JobKey key) {
  const auto found = jobs_.find(key);
  if (found == jobs_.end()) return;
  RunningJob* job = &found->second;
  set_use(*job, 0);
  if (!job->loads.empty()) links_changed_ = true;
  // Its sharers on contended links may rise: re-solve them (and whatever they are connected
  // to). An uncontended link never bounded their rates.
  const auto seed = [&](RunningJob& other) {
    if (other.seeded) return;
    other.seeded = true;
    changed_.push_back(other.key);
  };
  for (std::size_t i = 0; i < job->loads.size(); ++i) {
    prefetch_ahead(*job, i, true);
    const auto& [link, load] = job->loads[i];
    if (own_link(link)) {
      owner_of_link_[link] = -1;
      continue;
    }
    add_bound(*job, i, -1);
    auto& on_link = links_[link].users;
    const bool was_contended = contended(link);
    // Its entry leaves; the last takes its place (the users' order is of no consequence).
    const int slot = job->entry_slot[i];
    on_link[slot] = on_link.back();
    job_of(on_link[slot]).entry_slot[on_link[slot].position] = slot;
    on_link.pop_back();
    if (on_link.size() == 1)  // shared → private
      became_private(job_of(on_link.front()), on_link.front().position);
    // Sums of what remains, not differences, once one user or none is left: exact.
    links_[link].demand = on_link.empty() ? 0.0
                          : on_link.size() == 1
                              ? job_of(on_link.front()).upper_rate * load_of(on_link.front())
                              : links_[link].demand - job->upper_rate * load;
    const bool now_contended = contended(link);
    if (was_contended && !now_contended) {
      // The link no longer joins them: each may now be in a part of its own.
      for (const LinkUser& user : on_link) {
        drop_shared(user);
        seed(job_of(user));
      }
    } else if (was_contended) {
      seed(job_of(on_link.front()));  // one suffices: the link still joins them all
    }
  }
  if (!job->shared.empty()) --sharing_jobs_;
  job_slots_[static_cast<std::size_t>(job->slot)] = nullptr;
  free_job_slots_.push_back(job->slot);
  jobs_.erase(found);
}

void FlowNetwork::add_shared(const LinkUser& user) {
  RunningJob& job = job_of(user);
  if (job.shared.empty()) ++sharing_jobs_;
  job.shared_slot[user.position] = static_cast<int>(job.shared.size());
  job.shared.push_back(user.position);
  job.shared_loads.push_back(job.loads[user.position]);
}

void FlowNetwork::drop_shared(const LinkUser& user) {
  RunningJob& job = job_of(user);
  const int slot = job.shared_slot[user.position];
  const int last = job.shared.back();
  job.shared[slot] = last;
  job.shared_loads[slot] = job.shared_loads.back();
  job.shared_slot[last] = slot;
  job.shared.pop_back();
  job.shared_loads.pop_back();
  job.shared_slot[user.position] = -1;
  if (job.shared.empty()) --sharing_jobs_;
}

void FlowNetwork::became_private(RunningJob& job, int position) {
  if (job.private_stale) return;  // to be found again anyway
  const int best = job.heaviest_private;
  const double load = job.loads[position].second;
  if (best < 0 || load > job.loads[best].second ||
      (load == job.loads[best].second && position < best))
    job.heaviest_private = position;
}

bool FlowNetwork::contended(LinkId link) const {
  if (links_[link].users.size() < 2) return false;
  return !prune_uncontended_ || links_[link].demand > bandwidth_ * (1 - kContentionMargin);
}

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
