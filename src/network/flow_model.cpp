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
  std::vector<std::pair<LinkId, double>> loads =
      all_to_all_loads(*topology_, nodes, scratch_, &poll_, view);
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

void FlowNetwork::add_bound(RunningJob& job, std::size_t position, int sign) {
  // (Here, beside insert_job and remove_job, which call it for every link they visit.)
  const auto& [link, load] = job.loads[position];
  LinkState& state = links_[link];
  state.bound += sign * quantized_bound(job.largest_use_factor * load);
  if (sign < 0) return;
  if (state.bound <= bound_threshold(link)) {
    tracked_of_link_[link] = 0;  // (a user joins that would not keep it live)
  } else if (!tracked_of_link_[link]) {
    track(link);
  } else {
    make_live(job, static_cast<int>(position));
  }
}

bool FlowNetwork::contended(LinkId link) const {
  if (links_[link].users.size() < 2) return false;
  return !prune_uncontended_ || links_[link].demand > bandwidth_ * (1 - kContentionMargin);
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

}  // namespace allocsim
