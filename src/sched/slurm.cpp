// Slurm 22.05's main and backfill scheduling with basic or multifactor priorities; the model and
// what it leaves out are in sched/slurm.hpp. The backfill pass plans on the conservative
// scheduler's free-node profile (FreeProfile, sched/conservative.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "allocsim/sched/conservative.hpp"
#include "allocsim/sched/slurm.hpp"

namespace allocsim {

namespace {

/// What Slurm plans for a job without a time limit: "part_time_limit = YEAR_MINUTES".
constexpr double kYear = 365 * 86400.0;
/// Jobs tested between two polls of the run's time limit in a backfill pass.
constexpr std::size_t kPollEvery = 64;

double floor_to(double time, double resolution) {
  return std::floor(time / resolution) * resolution;
}

/// Index of the breakpoint at `time`, inserting one when missing; `time` is at least the
/// profile's first breakpoint and at most breakpoint `hint` (searched backwards from there: a
/// reservation's start is rounded down from a breakpoint, usually by less than one step).
std::size_t breakpoint_at(FreeProfile& profile, double time, std::size_t hint) {
  std::size_t at = hint;
  while (profile.time(at) > time) --at;  // profile.time(0) <= time
  if (profile.time(at) == time) return at;
  profile.occupy(at, time, 0);  // adds the breakpoint, changes no value
  return at + 1;
}

class SlurmScheduler final : public Scheduler {
 public:
  explicit SlurmScheduler(SlurmConfig config) : config_(std::move(config)) {}

  double time_limit(const Job& job) const override {
    return config_.enforce_limits ? slurm_time_limit(job) : std::numeric_limits<double>::infinity();
  }

  void schedule(SchedulerContext& context) override {
    if (users_.empty()) index_users(context);
    const double now = context.now();
    update_order(context);
    main_pass(context);
    const double interval = config_.bf_interval;
    const bool is_tick = floor_to(now, interval) == now;
    if (config_.backfill && !context.waiting().empty() && is_tick && !same_outcome(context))
      backfill_pass(context);
    if (accounting()) remember_running(context);
    // Slurm's backfill thread wakes every bf_interval: the next multiple, while jobs wait.
    if (config_.backfill && !context.waiting().empty()) {
      const double next = floor_to(now, interval) + interval;
      if (next > requested_) {
        context.request_pass(next);
        requested_ = next;
      }
    }
  }

 private:
  bool accounting() const { return config_.multifactor && config_.weight_fairshare > 0; }

  /// One share per SWF user id of the run (unknown = one user), indexed in id order.
  void index_users(const SchedulerContext& context) {
    for (const Job& job : context.jobs()) users_.push_back(job.user);
    std::sort(users_.begin(), users_.end());
    users_.erase(std::unique(users_.begin(), users_.end()), users_.end());
    if (users_.empty()) users_.push_back(-1);
    user_of_.reserve(context.jobs().size());
    for (const Job& job : context.jobs())
      user_of_.push_back(static_cast<int>(std::lower_bound(users_.begin(), users_.end(), job.user) -
                                          users_.begin()));
    usage_.assign(users_.size(), 0.0);
    limit_.reserve(context.jobs().size());
    need_.reserve(context.jobs().size());
    for (std::size_t j = 0; j < context.jobs().size(); ++j)
      need_.push_back(context.nodes_needed(static_cast<int>(j)));
    for (const Job& job : context.jobs()) {
      // What Slurm plans for a job without a time limit: "part_time_limit = YEAR_MINUTES".
      const double limit = slurm_time_limit(job);
      limit_.push_back(std::isfinite(limit) ? limit : kYear);
    }
    tested_of_user_.assign(users_.size(), 0);
    queued_.assign(context.jobs().size(), 0);
  }

  /// Decays every user's usage to `time` and adds the usage of the jobs that ran since the last
  /// update (every start and end is a pass, so each ran over the whole interval):
  /// nodes × ∫ 2^(−(time − s)/h) ds over it, or nodes × seconds without decay.
  void advance_usage(double time) {
    const double elapsed = time - usage_time_;
    if (!(elapsed > 0)) return;
    const double half_life = config_.decay_half_life;
    const double factor = half_life > 0 ? std::exp2(-elapsed / half_life) : 1.0;
    const double gain = half_life > 0 ? half_life / std::numbers::ln2 * (1 - factor) : elapsed;
    if (factor != 1.0) {
      for (double& usage : usage_) usage *= factor;
      total_usage_ *= factor;
    }
    for (const auto& [user, nodes] : accruing_) {
      usage_[user] += nodes * gain;
      total_usage_ += nodes * gain;
    }
    usage_time_ = time;
  }

  void remember_running(const SchedulerContext& context) {
    accruing_.clear();
    for (const RunningJob& running : context.running())
      accruing_.emplace_back(user_of_[running.job],
                             static_cast<double>(running.allocation.nodes.size()));
  }

  /// Priority of `job_index` at `time` (multifactor), truncated to an integer as Slurm's is.
  double priority(const SchedulerContext& context, int job_index, double time) const {
    const Job& job = context.jobs()[job_index];
    double value = 0;
    if (config_.weight_age > 0) {
      const double age = std::max(0.0, time - job.submit);
      value += config_.weight_age *
               (config_.max_age > 0 ? std::min(age, config_.max_age) / config_.max_age : 1.0);
    }
    if (config_.weight_job_size > 0) {
      const double machine = static_cast<double>(context.topology().node_count());
      double size = static_cast<double>(need_[job_index]) / machine;
      if (config_.favor_small) size = 1 - size;
      value += config_.weight_job_size * size;
    }
    if (config_.weight_fairshare > 0) {
      const double share = 1.0 / static_cast<double>(users_.size());
      const double used =
          total_at_tick_ > 0 ? usage_at_tick_[user_of_[job_index]] / total_at_tick_ : 0.0;
      value += config_.weight_fairshare * std::exp2(-used / share);
    }
    return std::max(1.0, std::floor(value));
  }

  /// The waiting jobs in priority order (ties: arrival order, i.e. job index) in queue_.
  void update_order(const SchedulerContext& context) {
    const auto& waiting = context.waiting();
    if (!config_.multifactor) return;  // priority/basic: the waiting list, first come first served
    const double now = context.now();
    const double period = config_.calc_period;
    const double tick = period > 0 ? floor_to(now, period) : now;
    const bool recompute = tick != tick_;
    if (recompute) {
      if (accounting()) {
        if (tick > usage_time_) advance_usage(tick);
        usage_at_tick_ = usage_;
        total_at_tick_ = total_usage_;
      }
      tick_ = tick;
    }
    if (accounting()) advance_usage(now);
    // Drop the jobs no longer waiting (dropped by the simulation); add the new ones at their
    // priority of the tick. queued_: 1 = in ranked_, 2 = waiting now.
    for (int job_index : waiting) queued_[job_index] |= 2;
    std::erase_if(ranked_, [&](const std::pair<double, int>& entry) {
      if (queued_[entry.second] & 2) return false;
      queued_[entry.second] = 0;
      return true;
    });
    if (recompute) {
      for (auto& entry : ranked_) entry.first = -priority(context, entry.second, tick);
      std::sort(ranked_.begin(), ranked_.end());
    }
    for (int job_index : waiting) {
      if (!(queued_[job_index] & 1)) {
        const std::pair<double, int> entry{-priority(context, job_index, tick), job_index};
        ranked_.insert(std::upper_bound(ranked_.begin(), ranked_.end(), entry), entry);
      }
      queued_[job_index] = 1;
    }
    queue_.clear();
    for (const auto& entry : ranked_) queue_.push_back(entry.second);
  }

  /// The waiting jobs in priority order.
  const std::vector<int>& queue(const SchedulerContext& context) const {
    return config_.multifactor ? queue_ : context.waiting();
  }

  /// Slurm's main scheduler: jobs in priority order start while they fit.
  void main_pass(SchedulerContext& context) {
    if (!config_.multifactor) {
      const std::vector<int>& waiting = context.waiting();  // a start removes its job
      while (!waiting.empty()) {
        context.check_time_limit();
        auto allocation = context.try_allocate(waiting.front());
        if (!allocation) break;
        context.start(waiting.front(), std::move(*allocation));
      }
      return;
    }
    for (int job_index : queue_) {
      context.check_time_limit();
      auto allocation = context.try_allocate(job_index);
      if (!allocation) break;
      context.start(job_index, std::move(*allocation));
      started_.push_back(job_index);
    }
    forget_started();
  }

  /// Drops the jobs just started from the priority order.
  void forget_started() {
    if (started_.empty()) return;
    auto started = [&](int job_index) {
      return std::find(started_.begin(), started_.end(), job_index) != started_.end();
    };
    if (config_.multifactor) {
      std::erase_if(queue_, started);
      std::erase_if(ranked_, [&](const auto& entry) { return started(entry.second); });
      for (int job_index : started_) queued_[job_index] = 0;
    }
    started_.clear();
  }

  /// One pass of sched/backfill (backfill.c, _attempt_backfill), on a free-node profile.
  /// Only its starts are observable (reservations live for one pass), so it stops as soon as
  /// no job left to test needs no more nodes than are free now: each later test could only
  /// place reservations. The same starts, in the same order, as testing every job.
  void backfill_pass(SchedulerContext& context) {
    const double now = context.now();
    last_.clean = !context.allocator().contiguous_only();
    last_.next_breakpoint = std::numeric_limits<double>::infinity();
    last_.first_beyond_window = std::numeric_limits<double>::infinity();
    last_.clipped = false;
    // The jobs tested, in priority order: at most bf_max_job_test, and bf_max_job_user per
    // user ("bf_max_job_test: limit of %d reached"; a skipped job is not counted).
    tested_.clear();
    std::fill(tested_of_user_.begin(), tested_of_user_.end(), 0);
    for (int job_index : queue(context)) {
      if (static_cast<long long>(tested_.size()) >= config_.bf_max_job_test) break;
      const int user = user_of_[job_index];
      if (config_.bf_max_job_user > 0 && tested_of_user_[user] >= config_.bf_max_job_user) continue;
      ++tested_of_user_[user];
      tested_.push_back(job_index);
    }
    // A job fits now only if it needs no more nodes than are free.
    int fewest = std::numeric_limits<int>::max();
    for (int job_index : tested_) fewest = std::min(fewest, need_[job_index]);
    if (config_.shortcuts && context.free_count() < fewest) return remember_pass(context);
    releases_.clear();
    for (const RunningJob& running : context.running()) {
      // A job's end as Slurm plans it: start + time limit (past it, without enforcement: now).
      const double end = running.start + limit_[running.job];
      releases_.emplace_back(std::max(end, now), static_cast<int>(running.allocation.nodes.size()));
    }
    std::sort(releases_.begin(), releases_.end());
    profile_.reset(now, context.free_count(), releases_);
    // least_need_[i]: the fewest nodes needed by a job of tested_[i..] that fits now on the
    // profile of the running jobs alone (fewest free nodes over [now, now + limit), from the
    // prefix minima); reservations only take nodes away, so no other job can start in this
    // pass, and once every such job needs more than is free now the pass is over.
    least_free_.resize(profile_.size());
    for (std::size_t k = 0; k < profile_.size(); ++k)
      least_free_[k] = k == 0 ? profile_.free(0) : std::min(least_free_[k - 1], profile_.free(k));
    least_need_.assign(tested_.size() + 1, std::numeric_limits<int>::max());
    candidates_.clear();  // positions in tested_ of the jobs that fit now, last first
    for (std::size_t i = tested_.size(); i-- > 0;) {
      const int need = need_[tested_[i]];
      if (need > least_free_[0]) {  // more than is free now
        least_need_[i] = least_need_[i + 1];
        continue;
      }
      // Last breakpoint before now + limit (the first is now).
      std::size_t last = 0, high = profile_.size();
      const double until = now + limit_[tested_[i]];
      while (high - last > 1) {
        const std::size_t middle = (last + high) / 2;
        if (profile_.time(middle) < until)
          last = middle;
        else
          high = middle;
      }
      least_need_[i] =
          least_free_[last] >= need ? std::min(least_need_[i + 1], need) : least_need_[i + 1];
      if (least_free_[last] >= need) candidates_.push_back(i);
    }
    // The last candidate still fitting now, checked again when a reservation or start took
    // nodes before its window's end: once none at or after position i fits, the pass is over.
    std::size_t candidate = 0;
    std::size_t checked = std::numeric_limits<std::size_t>::max();
    double touched = std::numeric_limits<double>::infinity();
    auto fits_now = [&](int job_index) {
      const double until = now + limit_[job_index];
      for (std::size_t k = 0; k < profile_.size() && profile_.time(k) < until; ++k)
        if (profile_.free(k) < need_[job_index]) return false;
      return true;
    };
    auto some_candidate_from = [&](std::size_t i) {
      for (; candidate < candidates_.size() && candidates_[candidate] >= i; ++candidate) {
        const int job_index = tested_[candidates_[candidate]];
        if (checked == candidate && !(touched < now + limit_[job_index])) return true;
        if (fits_now(job_index)) {
          checked = candidate;
          touched = std::numeric_limits<double>::infinity();
          return true;
        }
      }
      return false;
    };
    const double resolution = config_.bf_resolution;
    const double window_end = floor_to(now + config_.bf_window, resolution);
    last_.window_end = window_end;
    for (std::size_t i = 0;
         i < tested_.size() &&
         (!config_.shortcuts || (profile_.free(0) >= least_need_[i] && some_candidate_from(i)));
         ++i) {
      if (i % kPollEvery == 0) context.check_time_limit();
      const int job_index = tested_[i];
      const int need = need_[job_index];
      const double limit = limit_[job_index];
      const std::size_t slot = profile_.earliest(need, limit);
      const double start = profile_.time(slot);
      if (slot == 0) {
        if (auto allocation = context.try_allocate(job_index)) {
          const int used = static_cast<int>(allocation->nodes.size());
          context.start(job_index, std::move(*allocation));
          started_.push_back(job_index);
          profile_.occupy(0, now + limit, used);  // now running until start + limit
          touched = now;
          last_.clean = false;
          continue;
        }
        // Enough nodes but not in the allocator's shape, or held by a job past its limit
        // (enforce_limits=0): reserved from now, as conservative. Its end moves with now.
        last_.clean = false;
      }
      // "Starts too far in the future to worry about": no reservation.
      if (start > now + config_.bf_window) {
        last_.first_beyond_window = std::min(last_.first_beyond_window, start);
        continue;
      }
      const double from = std::max(floor_to(start, resolution), now);
      const double end = floor_to(start + limit, resolution);
      if (end > window_end) last_.clipped = true;
      const double to = std::min(end, window_end);
      if (!(to > from)) continue;
      profile_.occupy(breakpoint_at(profile_, from, slot), to, need);
      touched = std::min(touched, from);
    }
    if (profile_.size() > 1) last_.next_breakpoint = profile_.time(1);
    forget_started();
    remember_pass(context);
  }

  /// What same_outcome() compares a later pass with.
  struct LastPass {
    bool valid = false;
    /// The pass started nothing, no job was refused at now (a reservation from now), and the
    /// allocator is count-only (no refusal that might depend on the time).
    bool clean = false;
    double next_breakpoint = 0;  ///< its final profile's second breakpoint
    double window_end = 0;
    bool clipped = false;            ///< a reservation was cut at the window's end
    double first_beyond_window = 0;  ///< earliest start of a job beyond the window
    std::vector<int> queue, running;
  };

  void remember_pass(const SchedulerContext& context) {
    last_.valid = true;
    last_.queue = queue(context);
    last_.running.clear();
    for (const RunningJob& running : context.running()) last_.running.push_back(running.job);
  }

  /// True when a backfill pass now would start nothing, as the last one, so it can be skipped:
  /// the last pass was clean, the queue (in priority order) and the running jobs are the same,
  /// its final profile had no breakpoint in (its time, now], no job it left beyond the window
  /// is within it now, and no reservation it cut at the window's end would be cut elsewhere
  /// now. Proof sketch: by induction over the tested jobs, the partial profiles of the two
  /// passes agree on [now, inf) (same releases; same reservations: each start s was a
  /// breakpoint, so s > now, and the window tests and cuts come out the same) and the old one
  /// is constant over [its time, now]; a window [now, now + d) then contains a failing point
  /// whenever [then, then + d) did.
  bool same_outcome(const SchedulerContext& context) const {
    const double now = context.now();
    if (!config_.shortcuts) return false;
    if (!last_.valid || !last_.clean || !(last_.next_breakpoint > now)) return false;
    if (!(last_.first_beyond_window > now + config_.bf_window)) return false;
    if (last_.clipped &&
        floor_to(now + config_.bf_window, config_.bf_resolution) != last_.window_end)
      return false;
    const std::vector<int>& queue = this->queue(context);
    if (last_.running.size() != context.running().size() || last_.queue.size() != queue.size() ||
        last_.queue != queue)
      return false;
    for (std::size_t i = 0; i < last_.running.size(); ++i)
      if (last_.running[i] != context.running()[i].job) return false;
    return true;
  }

  SlurmConfig config_;
  LastPass last_;
  double requested_ = -std::numeric_limits<double>::infinity();
  // Users and usage (fair share).
  std::vector<int> users_;     ///< SWF user ids, sorted
  std::vector<int> user_of_;   ///< job index -> index into users_
  std::vector<double> usage_;  ///< decayed usage per user at usage_time_ (node seconds)
  double total_usage_ = 0, usage_time_ = 0;
  std::vector<double> usage_at_tick_;
  double total_at_tick_ = 0;
  std::vector<std::pair<int, double>> accruing_;  ///< (user, nodes) running since the last pass
  // Priority order.
  double tick_ = -std::numeric_limits<double>::infinity();
  std::vector<std::pair<double, int>> ranked_;  ///< multifactor: (-priority, job index), sorted
  std::vector<char> queued_;                    ///< 1: in ranked_; 2: seen waiting in this pass
  std::vector<int> queue_;     ///< multifactor: waiting job indices in priority order
  std::vector<double> limit_;  ///< job index -> time limit as planned (no limit: a year)
  std::vector<int> need_;      ///< job index -> nodes the allocator needs
  std::vector<int> started_;
  // Backfill scratch.
  std::vector<long long> tested_of_user_;
  std::vector<int> tested_, least_need_, least_free_;
  std::vector<std::size_t> candidates_;
  std::vector<std::pair<double, int>> releases_;
  FreeProfile profile_;
};

}  // namespace

std::unique_ptr<Scheduler> make_slurm_scheduler(const SlurmConfig& config) {
  return std::make_unique<SlurmScheduler>(config);
}

}  // namespace allocsim
