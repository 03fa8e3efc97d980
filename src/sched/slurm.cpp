// Slurm 22.05's main and backfill scheduling with basic or multifactor priorities; the model and
// what it leaves out are in sched/slurm.hpp. The backfill pass plans on specific nodes, on
// sched/backfill's node_space map (sched/slurm_backfill.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "allocsim/sched/slurm.hpp"
#include "allocsim/sched/slurm_backfill.hpp"
#include "allocsim/sched/slurm_priority.hpp"
#include "allocsim/sched/slurm_will_run.hpp"

namespace allocsim {

namespace {

/// What Slurm plans for a job without a time limit: "part_time_limit = YEAR_MINUTES".
constexpr double kYear = 365 * 86400.0;
/// Jobs tested between two polls of the run's time limit in a backfill pass.
constexpr std::size_t kPollEvery = 64;
/// Seed of the scratch generator handed to the allocator when it is asked about a future
/// free set (any fixed value: every question of a pass draws alike).
constexpr std::uint64_t kPlanningSeed = 0x5eed;

double floor_to(double time, double resolution) {
  return std::floor(time / resolution) * resolution;
}

class SlurmScheduler final : public Scheduler {
 public:
  explicit SlurmScheduler(SlurmConfig config) : config_(std::move(config)) {}

  double time_limit(const Job& job) const override {
    return config_.enforce_limits ? slurm_time_limit(job) : std::numeric_limits<double>::infinity();
  }

  void schedule(SchedulerContext& context) override {
    if (!priority_.indexed()) index_jobs(context);
    const double now = context.now();
    priority_.update_order(context);
    main_pass(context);
    const double interval = config_.bf_interval;
    const bool is_tick = floor_to(now, interval) == now;
    if (config_.backfill && !context.waiting().empty() && is_tick && !same_outcome(context))
      backfill_pass(context);
    priority_.remember_running(context);
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
  /// Per-job needs and limits, the users and their shares (SlurmPriority::index).
  void index_jobs(const SchedulerContext& context) {
    need_.reserve(context.jobs().size());
    for (std::size_t j = 0; j < context.jobs().size(); ++j)
      need_.push_back(context.nodes_needed(static_cast<int>(j)));
    limit_.reserve(context.jobs().size());
    for (const Job& job : context.jobs()) {
      // What Slurm plans for a job without a time limit: "part_time_limit = YEAR_MINUTES".
      const double limit = slurm_time_limit(job);
      limit_.push_back(std::isfinite(limit) ? limit : kYear);
    }
    priority_.index(context, need_);
    tested_of_user_.assign(priority_.user_count(), 0);
    in_plan_.assign(context.jobs().size(), 0);
    position_.assign(context.jobs().size(), 0);
  }

  /// The waiting jobs in priority order.
  const std::vector<int>& queue(const SchedulerContext& context) const {
    return priority_.queue(context);
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
    for (int job_index : priority_.queue(context)) {
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
    priority_.forget(started_);
    started_.clear();
  }

  /// Running jobs are kept between passes (sync_planned()): their ends and nodes never change.
  using Planned = PlannedJob;

  /// A Planned entry for `job_index` running on `allocation` until `end`.
  Planned make_planned(int job_index, double end, const Allocation& allocation, int machine) const {
    constexpr double kWindow = 30;  // "int time_window = 30"
    Planned job{end, NodeSet(machine), job_index, end + (kWindow - std::fmod(end, kWindow)), 0, 0};
    for (NodeId node : allocation.nodes) job.nodes.set(node);
    std::tie(job.first, job.last) = job.nodes.word_range();
    return job;
  }

  /// Brings planned_ up to date with the context's running jobs: drops the ended ones, adds the
  /// started ones, and orders them by planned end, ties in the order of context.running() (as a
  /// stable sort of it: will-run's groups depend on that order, since a job without usable nodes
  /// skips the test of the next job's end).
  void sync_planned(const SchedulerContext& context) {
    const int machine = context.topology().node_count();
    const auto& runs = context.running();
    for (std::size_t r = 0; r < runs.size(); ++r) {
      in_plan_[runs[r].job] |= 2;
      position_[runs[r].job] = static_cast<int>(r);
    }
    std::erase_if(planned_, [&](const Planned& job) {
      if (in_plan_[job.job] & 2) return false;
      in_plan_[job.job] = 0;
      return true;
    });
    for (const RunningJob& running : context.running()) {
      const bool known = in_plan_[running.job] & 1;
      in_plan_[running.job] = 1;
      if (known) continue;
      add_planned(make_planned(running.job, running.start + limit_[running.job], running.allocation,
                               machine));
    }
    // Ties (equal ends) by position: finishes move the last running job into the gap.
    for (std::size_t i = 1; i < planned_.size(); ++i) {
      if (planned_[i].end != planned_[i - 1].end) continue;
      for (std::size_t j = i; j > 0 && planned_[j].end == planned_[j - 1].end &&
                              position_[planned_[j].job] < position_[planned_[j - 1].job];
           --j)
        std::swap(planned_[j], planned_[j - 1]);
    }
  }

  /// Inserts `job` into planned_ after the entries ending no later.
  void add_planned(Planned job) {
    in_plan_[job.job] = 1;
    planned_.insert(std::upper_bound(planned_.begin(), planned_.end(), job.end,
                                     [](double end, const Planned& p) { return end < p.end; }),
                    std::move(job));
  }

  /// The allocator's choice for `job_index` on the nodes of `usable` at `time` (the select
  /// plugin's node choice, asked on the predicted free set). An allocator with shape
  /// constraints answers from its own state: a copy with the running jobs that end by `time`
  /// released (as conservative's planner replays them); an answer using a node outside
  /// `usable` counts as none.
  std::optional<Allocation> choose(SchedulerContext& context, int job_index, const NodeSet& usable,
                                   double time, int usable_count) {
    usable.to_busy(busy_);
    scratch_ = fresh_;  // every question draws alike (a copy: cheaper than seeding anew)
    const MachineView view(context.topology(), busy_, usable_count, scratch_, &context, time);
    std::optional<Allocation> allocation;
    if (context.allocator().contiguous_only() && time > context.now()) {
      auto copy = context.allocator().clone();
      for (const RunningJob& running : context.running())
        if (running.start + limit_[running.job] <= time) copy->release(running.allocation);
      allocation = copy->allocate(context.jobs()[job_index], view);
    } else {
      allocation = context.allocator().allocate(context.jobs()[job_index], view);
    }
    if (allocation) {
      for (NodeId node : allocation->nodes)
        if (busy_[static_cast<std::size_t>(node)]) return std::nullopt;
    }
    return allocation;
  }

  /// The select plugin's will-run test (sched/slurm_backfill.hpp): when and on which nodes of
  /// `usable` the job can start, given the running jobs; false when never.
  /// The nodes are not chosen for a job that can start now from `from` = now on an allocator
  /// without shape constraints (the pass starts it through the context, which chooses them).
  bool will_run(SchedulerContext& context, int job_index, const NodeSet& usable,
                std::uint64_t usable_hash, double from, double& start, NodeSet& nodes) {
    const double now = context.now();
    const int need = need_[job_index];
    const bool choosing = context.allocator().contiguous_only();
    if (config_.shortcuts && !choosing && context.allocator().takes_lowest_free_ids()) {
      // The allocator's answer is the lowest free usable ids: the first test reaching `need`
      // (sched/slurm_will_run.hpp: why the memo keeps the schedule).
      WillRunMemo::Answer answer;
      if (!walks_.first_reaching(free_, planned_, usable, usable_hash, need, answer)) return false;
      start = answer.test == 0 ? now : answer.end > now ? answer.end : now + 1;
      if (answer.test > 0 && !(answer.end > now)) last_.clean = false;
      if (answer.test > 0 || from > now) nodes.assign_lowest(*answer.free_usable, need);
      return true;
    }
    walk_.start(free_, usable);
    auto place = [&](double time) {
      if (walk_.count() < need) return false;
      if (time <= now && from <= now && !choosing) {
        start = time;
        return true;
      }
      if (config_.shortcuts && context.allocator().takes_lowest_free_ids()) {  // its answer
        nodes.assign_lowest(walk_.free_usable(), need);
        start = time;
        return true;
      }
      auto allocation = choose(context, job_index, walk_.free_usable(), time, walk_.count());
      if (!allocation) return false;
      nodes.clear();
      for (NodeId node : allocation->nodes) nodes.set(node);
      start = time;
      return true;
    };
    if (place(now)) return true;
    for (double end = 0; walk_.advance(planned_, usable, end);) {
      // "_guess_job_end" for a job past its end (OverTimeLimit=0, KillWait not modelled).
      if (place(end > now ? end : now + 1)) {
        if (!(end > now)) last_.clean = false;
        return true;
      }
    }
    return false;
  }

  /// The jobs a pass tests, in priority order: at most bf_max_job_test, and bf_max_job_user per
  /// user ("bf_max_job_test: limit of %d reached"; a skipped job is not counted).
  void select_tested(const std::vector<int>& queue, std::vector<int>& tested) {
    tested.clear();
    std::fill(tested_of_user_.begin(), tested_of_user_.end(), 0);
    for (int job_index : queue) {
      if (static_cast<long long>(tested.size()) >= config_.bf_max_job_test) break;
      const int user = priority_.user_of(job_index);
      if (config_.bf_max_job_user > 0 && tested_of_user_[user] >= config_.bf_max_job_user) continue;
      ++tested_of_user_[user];
      tested.push_back(job_index);
    }
  }

  /// One pass of sched/backfill (backfill.c, _attempt_backfill) on the node_space map
  /// (sched/slurm_backfill.hpp). Each job in priority order, from start_res = now: the nodes
  /// no reservation holds over [start_res, start_res + limit]; will_run on them gives its start
  /// and nodes; a start after later_start, or nodes held by a reservation over the job's own
  /// [start, end) ("overlaps with existing reservation"), tries again from later_start (or from
  /// that start, one bf_resolution later when it equals start_res). A job that can start now
  /// starts on nodes no reservation holds; one that cannot reserves its chosen nodes from its
  /// start for its limit, both rounded down to bf_resolution (at least one bf_resolution
  /// long), unless it starts beyond the window. Only starts are observable (reservations live
  /// for one pass), so the pass stops once no job left needs at most the free nodes.
  void backfill_pass(SchedulerContext& context) {
    const double now = context.now();
    last_.clean = true;
    last_.first_beyond_window = std::numeric_limits<double>::infinity();
    last_.first_try_beyond_end = std::numeric_limits<double>::infinity();
    last_.clipped = false;
    last_.tail_read = last_.tail_scanned = false;
    last_.first_past_end = std::numeric_limits<double>::infinity();
    last_.limits.clear();
    // The jobs tested, in priority order: at most bf_max_job_test, and bf_max_job_user per
    // user ("bf_max_job_test: limit of %d reached"; a skipped job is not counted).
    select_tested(queue(context), tested_);
    // least_need_[i]: the fewest nodes a job of tested_[i..] needs; a job starts only on free
    // nodes, so once that exceeds the free count no later test can start one.
    least_need_.assign(tested_.size() + 1, std::numeric_limits<int>::max());
    for (std::size_t i = tested_.size(); i-- > 0;)
      least_need_[i] = std::min(least_need_[i + 1], need_[tested_[i]]);
    int free_count = context.free_count();
    last_.has_map = false;
    if (config_.shortcuts && free_count < least_need_[0]) {
      last_.boundaries.clear();
      last_.ends.clear();
      return remember_pass(context);
    }
    const int machine = context.topology().node_count();
    if (free_.size() != machine) free_ = NodeSet(machine);
    free_.from_busy(context.busy());
    if (config_.shortcuts) {
      sync_planned(context);
    } else {  // the reference: rebuilt from the running list, stable-sorted by planned end
      planned_.clear();
      for (const RunningJob& running : context.running())
        planned_.push_back(make_planned(running.job, running.start + limit_[running.job],
                                        running.allocation, machine));
      std::stable_sort(planned_.begin(), planned_.end(),
                       [](const Planned& a, const Planned& b) { return a.end < b.end; });
    }
    const double resolution = config_.bf_resolution;
    const double window_end = floor_to(now + config_.bf_window, resolution);
    last_.window_end = window_end;
    space_.reset(now, window_end, machine);
    walks_.clear();
    // Scratch sets, each written before it is read (kept allocated from pass to pass).
    for (NodeSet* set : {&usable_, &retry_usable_, &fit_, &chosen_})
      if (set->size() != machine) *set = NodeSet(machine);
    NodeSet& chosen = chosen_;
    // The jobs that may start in this pass: those needing at most the free nodes, and of these,
    // those for which enough free nodes are held by no reservation over [now, now + limit].
    // Reservations only grow and free nodes only go during a pass, so a job that cannot start
    // now at one test cannot at a later one: the pass ends once no job left to test can.
    // candidates_: their positions in tested_, last first; `candidate` walks them; the one
    // last found able to start stays so until a start or a reservation from before its end.
    candidates_.clear();
    for (std::size_t i = tested_.size(); i-- > 0;) {
      if (need_[tested_[i]] > free_count) continue;
      candidates_.push_back(i);
      last_.limits.push_back(limit_[tested_[i]]);  // whether it can start depends on its limit
    }
    std::size_t candidate = 0;
    std::size_t checked = std::numeric_limits<std::size_t>::max();
    double touched = std::numeric_limits<double>::infinity();
    auto can_start_now = [&](int job_index) {
      space_.usable_only(now, now + limit_[job_index], fit_);
      fit_ &= free_;
      return fit_.count() >= need_[job_index];
    };
    auto some_candidate_from = [&](std::size_t i) {
      for (; candidate < candidates_.size() && candidates_[candidate] >= i; ++candidate) {
        const int job_index = tested_[candidates_[candidate]];
        if (checked == candidate && touched > now + limit_[job_index]) return true;
        if (can_start_now(job_index)) {
          checked = candidate;
          touched = std::numeric_limits<double>::infinity();
          return true;
        }
      }
      return false;
    };
    // The jump to the candidate able to start (see below): positions below no_jump_below
    // failed its test for the candidate `jump_candidate` (reset when that or the running jobs
    // change); reach_[k]: the free nodes plus those of planned_[0 .. k] (built when first asked).
    std::size_t no_jump_below = 0, jump_candidate = candidates_.size();
    bool reach_known = false;
    auto earliest_start = [&](int job_index) {  // bound on a job needing more than free_count
      if (!reach_known) {
        reach_.clear();
        long long reach = free_count;
        for (const Planned& job : planned_) reach_.push_back(reach += job.nodes.count());
        reach_known = true;
      }
      const auto it = std::lower_bound(reach_.begin(), reach_.end(), need_[job_index]);
      if (it == reach_.end()) return std::numeric_limits<double>::infinity();
      return planned_[static_cast<std::size_t>(it - reach_.begin())].end;
    };
    for (std::size_t i = 0;
         i < tested_.size() &&
         (!config_.shortcuts || (free_count >= least_need_[i] && some_candidate_from(i)));
         ++i) {
      // Jump to the candidate p that can start (the last one that can, `candidate`) when every
      // job before it from i on cannot start and cannot reserve before now + p's limit. Such a
      // job needs more than the free nodes (no candidate lies in [i, p)), so will-run's test at
      // now fails; a later test passes only once the free nodes and those of the running jobs
      // removed so far (the first ones in planned_'s order) reach its need (it counts only the
      // usable ones among them), and its start is then the planned end of the last job removed
      // (now + 1 when that end has passed, later still): at least earliest_start(). Its
      // reservation, from that start rounded down, begins after now + p's limit: it splits no
      // segment overlapping [now, now + limit] and adds no node to one, so p's usable set at
      // its turn (and the test that keeps it a candidate) is what it is now. p then starts
      // from start_res = now on the allocator's choice among those nodes (or is refused by an
      // allocator with shape constraints) as it would after those jobs' tests, and the pass
      // ends there (no candidate after p can start). Those tests change only the map and what
      // same_outcome() keeps, which it does not read after a pass that started a job or
      // refused one at now.
      if (config_.shortcuts && i >= no_jump_below) {
        if (jump_candidate != candidate) no_jump_below = 0;
        jump_candidate = candidate;
        const std::size_t p = candidates_[candidate];
        const bool candidate_before =
            candidate + 1 < candidates_.size() && candidates_[candidate + 1] >= i;
        if (p > i && !candidate_before) {
          const double horizon = now + limit_[tested_[p]];
          std::size_t j = i;
          while (j < p && floor_to(earliest_start(tested_[j]), resolution) > horizon) ++j;
          if (j == p)
            i = p;
          else
            no_jump_below = j + 1;
        }
      }
      if (i % kPollEvery == 0) context.check_time_limit();
      const int job_index = tested_[i];
      const double limit = limit_[job_index];
      last_.limits.push_back(limit);
      // A job each of whose tries surely finds fewer usable nodes than it needs (without the
      // shortcut, every try reports too few usable nodes, goes on to later_start, and the last
      // finds none): it neither starts nor reserves, and its only record is the last try's,
      // with later_start 0 and start_res before the window's end (a later_start lies before
      // the map's end): tail_scanned when a reservation reached the window's end.
      if (config_.shortcuts && space_.short_throughout(now, limit, need_[job_index])) {
        if (last_.clipped) last_.tail_scanned = true;
        continue;
      }
      double start_res = now;
      // The last try of this job went to later_start after a start beyond it (see `repeat`).
      bool retried_later = false;
      while (true) {
        if (start_res > window_end) {  // "start_res after current backfill window"
          last_.first_try_beyond_end = std::min(last_.first_try_beyond_end, start_res);
          break;
        }
        const bool after_later = retried_later;
        retried_later = false;
        // `enough` false: fewer usable nodes than the job needs, known without the set.
        bool enough = true;
        const double later =
            config_.shortcuts
                ? space_.usable_for(start_res, start_res + limit, need_[job_index], usable_, enough)
                : space_.usable(start_res, start_res + limit, usable_);
        // Once a reservation reaches the window's end, an answer that may depend on the map at
        // or beyond it makes the pass depend on where the window ends (see same_outcome).
        if (last_.clipped) {
          if (start_res >= window_end)
            last_.tail_read = true;
          else if (later == 0 || start_res + limit >= window_end)
            last_.tail_scanned = true;
        }
        double start = 0;
        std::uint64_t usable_hash = 0;
        // `repeat`: the usable set is the last try's, which went on to later_start after
        // will-run's start (start_w > later_start > that try's start_res, so it tested
        // overlaps and found none). Between two tries of one job nothing changes (the map, the
        // free nodes, the running jobs: only a start or this job's reservation do, and both end
        // its tries), so will-run gives the same start_w and nodes (`chosen`, untouched since,
        // assigned then since start_w > now), and the overlap test over [start_w, start_w +
        // limit] rounded the same answer: none. Only the new later_start is asked.
        bool repeat = false;
        bool found = enough && usable_.count_and_hash(usable_hash) >= need_[job_index];
        if (found) {
          repeat = after_later && usable_hash == retry_hash_ && usable_ == retry_usable_;
          if (repeat)
            start = retry_start_;
          else
            found = will_run(context, job_index, usable_, usable_hash, start_res, start, chosen);
        }
        if (!found) {
          if (later != 0) {
            start_res = later;
            continue;
          }
          break;
        }
        start = std::max(start, start_res);
        if (start > now && last_.clipped) {
          if (floor_to(start, resolution) >= window_end)
            last_.tail_read = true;
          else if (floor_to(start + limit, resolution) > window_end)
            last_.tail_scanned = true;
        }
        if (start > now && !repeat &&
            space_.overlaps(chosen, floor_to(start, resolution),
                            floor_to(start + limit, resolution))) {
          start_res = start == start_res ? start + resolution : start;
          continue;
        }
        if (start <= now) {
          // "Try to start the job on any non-reserved nodes".
          held_ = free_;
          held_.subtract(usable_);
          const bool held_free = held_.count() > 0;   // a free node some reservation holds
          if (held_free) usable_.to_busy(excluded_);  // excluded: the nodes not usable
          auto allocation = held_free ? context.try_allocate_excluding(job_index, excluded_)
                                      : context.try_allocate(job_index);
          if (allocation) {
            Planned job = make_planned(job_index, now + limit, *allocation, machine);
            free_.subtract(job.nodes);
            free_count -= static_cast<int>(allocation->nodes.size());
            add_planned(std::move(job));
            context.start(job_index, std::move(*allocation));
            walks_.clear();  // the free nodes and the running jobs changed
            reach_known = false;
            no_jump_below = 0;
            started_.push_back(job_index);
            last_.clean = false;
            touched = now;
            break;
          }
          // Not placed after all: "Drop through and reserve these resources" (the nodes the
          // will-run test chose; it chose none for an allocator without shape constraints,
          // which cannot refuse here: enough usable nodes are free).
          last_.clean = false;
          if (!context.allocator().contiguous_only()) break;
        } else if (later != 0 && start > later) {
          if (config_.shortcuts) {  // start > later > start_res: start is will-run's start_w
            retried_later = true;
            retry_start_ = start;
            if (!repeat) {
              retry_hash_ = usable_hash;
              std::swap(usable_, retry_usable_);  // usable_ is rebuilt by the next try
            }
          }
          start_res = later;  // "Try later when some nodes currently reserved ... are free"
          continue;
        }
        if (start > now + config_.bf_window) {  // "Starts too far in the future to worry about"
          last_.first_beyond_window = std::min(last_.first_beyond_window, start);
          break;
        }
        double from = floor_to(start, resolution);
        if (from <= now) {
          from = now;
          last_.clean = false;  // a reservation from now moves with now (and so its end)
        }
        // "Ensure that the job always occupies at least one bf_resolution slot".
        const double to = std::max(floor_to(start + limit, resolution), from + resolution);
        if (to >= window_end) {  // reaches the window's end
          last_.clipped = true;
          // Its first time at or after the window's end, where a longer window would split the
          // map's last segment.
          last_.first_past_end = std::min(last_.first_past_end, from >= window_end ? from : to);
        }
        space_.reserve(chosen, from, to);
        touched = std::min(touched, from);
        break;
      }
    }
    last_.has_map = true;
    if (last_.clean) {  // what same_outcome() reads (it reads nothing more after an unclean pass)
      last_.boundaries = space_.boundaries();  // ascending
      last_.ends.clear();
      for (const Planned& job : planned_) last_.ends.push_back(job.end);  // ascending
      std::sort(last_.limits.begin(), last_.limits.end());
      last_.limits.erase(std::unique(last_.limits.begin(), last_.limits.end()), last_.limits.end());
    }
    forget_started();
    remember_pass(context);
  }

  /// What same_outcome() compares a later pass with.
  struct LastPass {
    bool valid = false;
    double time = 0;  ///< when it ran
    /// The pass started nothing, and no start or reservation depended on its time (a job
    /// refused at now, a reservation from now, a running job past its planned end).
    bool clean = false;
    double window_end = 0;
    bool clipped = false;    ///< a reservation reached the window's end (cut there or ending there)
    bool tail_read = false;  ///< after that, a question from the window's end
    bool tail_scanned = false;  ///< after that, one reaching it or a later_start scan finding none
    double first_past_end = 0;  ///< the earliest from or to of those reservations >= window_end
    double first_beyond_window = 0;   ///< earliest start of a job beyond the window
    double first_try_beyond_end = 0;  ///< earliest start_res past the window's end
    std::vector<double> boundaries;   ///< the final map's segment boundaries, ascending
    std::vector<double> ends;         ///< the running jobs' planned ends, ascending
    std::vector<double> limits;       ///< the tested jobs' limits, distinct, ascending
    /// space_ and free_ are its final map and free nodes (it did not end before building them).
    bool has_map = false;
    std::vector<int> queue, running;
    std::vector<int> tested;  ///< the jobs it tested (or would have), in order
  };

  void remember_pass(const SchedulerContext& context) {
    last_.valid = true;
    last_.time = context.now();
    if (!last_.clean) return;  // same_outcome() answers false before reading the rest
    last_.tested = tested_;
    last_.queue = queue(context);
    last_.running.clear();
    for (const RunningJob& running : context.running()) last_.running.push_back(running.job);
  }

  /// True when a backfill pass now would start nothing, as the last one, so it can be skipped:
  /// the last pass was clean, the queue (in priority order) and the running jobs are the same,
  /// and nothing it computed depends on the time since then. The pass depends on its time t
  /// only through: the segments overlapping [t, t + limit] (the same when no boundary of its
  /// final map lies in (then, now] or in (then + L, now + L] for a tested limit L: every map
  /// of the pass had a subset of those boundaries), the planned ends passed (none in (then,
  /// now]; will-run's groups of ends do not depend on t), and the window (no start beyond it that
  /// is within it now, no start_res past its end that is not now). When the window's end W moved
  /// to W' and a reservation reached W: up to the first from or to >= W of those reservations,
  /// the new map is the old one with its last segment stretched to W', which only a question
  /// from W can tell apart (tail_read); beyond it, the new map has a boundary in [W, W') that a
  /// question reaching W, or a later_start scan that read the last segments, may see
  /// (tail_scanned). Jobs only added at the queue's end: only_appended_cannot_start().
  bool same_outcome(const SchedulerContext& context) {
    const double now = context.now();
    if (!config_.shortcuts) return false;
    if (!last_.valid || !last_.clean) return false;
    auto any_in = [](const std::vector<double>& times, double after, double until) {
      const auto it = std::upper_bound(times.begin(), times.end(), after);
      return it != times.end() && *it <= until;  // a time in (after, until]
    };
    if (any_in(last_.boundaries, last_.time, now) || any_in(last_.ends, last_.time, now))
      return false;
    for (double limit : last_.limits)
      if (any_in(last_.boundaries, last_.time + limit, now + limit)) return false;
    if (!(last_.first_beyond_window > now + config_.bf_window)) return false;
    const double window_end = floor_to(now + config_.bf_window, config_.bf_resolution);
    if (!(last_.first_try_beyond_end > window_end)) return false;
    if (window_end != last_.window_end &&
        (last_.tail_read || (last_.tail_scanned && window_end > last_.first_past_end)))
      return false;
    if (last_.running.size() != context.running().size()) return false;
    for (std::size_t i = 0; i < last_.running.size(); ++i)
      if (last_.running[i] != context.running()[i].job) return false;
    const std::vector<int>& queue = this->queue(context);
    if (last_.queue.size() > queue.size() ||
        !std::equal(last_.queue.begin(), last_.queue.end(), queue.begin()))
      return false;
    return queue.size() == last_.queue.size() || only_appended_cannot_start(context);
  }

  /// Jobs were only added at the end of the queue since the last pass (same running jobs, the
  /// other conditions of same_outcome met): a pass now tests the jobs the last one tested with
  /// the same outcome, then the added ones that bf_max_job_test and bf_max_job_user let it test,
  /// on a map holding at least the last pass's final map (reservations only grow during a
  /// pass). A job starts only from start_res = now, on enough free nodes held by no reservation
  /// over [now, now + limit]; true (and the last pass now stands for this queue) when no added
  /// job has them on that final map, so none can in the pass. Their limits join the limits whose
  /// map boundaries a later same_outcome watches: none in (then + limit, later + limit] means
  /// none in (then + limit, now + limit] either, so the answer later is the answer now.
  bool only_appended_cannot_start(const SchedulerContext& context) {
    const double now = context.now();
    const std::vector<int>& queue = this->queue(context);
    select_tested(queue, appended_);
    if (appended_.size() < last_.tested.size() ||
        !std::equal(last_.tested.begin(), last_.tested.end(), appended_.begin()))
      return false;  // cannot happen (the last tested jobs are a prefix); rerun to be safe
    const int free_count = context.free_count();
    const std::size_t old_limits = last_.limits.size();
    for (std::size_t i = last_.tested.size(); i < appended_.size(); ++i) {
      const int job_index = appended_[i];
      if (need_[job_index] > free_count) continue;  // never on the free nodes
      const double limit = limit_[job_index];
      if (!last_.has_map) {
        last_.limits.resize(old_limits);
        return false;
      }
      space_.usable_only(now, now + limit, fit_);
      fit_ &= free_;
      if (fit_.count() >= need_[job_index]) {
        last_.limits.resize(old_limits);
        return false;
      }
      last_.limits.push_back(limit);
    }
    std::sort(last_.limits.begin(), last_.limits.end());
    last_.limits.erase(std::unique(last_.limits.begin(), last_.limits.end()), last_.limits.end());
    last_.queue = queue;
    last_.tested = appended_;
    return true;
  }

  SlurmConfig config_;
  LastPass last_;
  double requested_ = -std::numeric_limits<double>::infinity();
  SlurmPriority priority_{config_};  ///< the waiting jobs in priority order
  std::vector<double> limit_;        ///< job index -> time limit as planned (no limit: a year)
  std::vector<int> need_;            ///< job index -> nodes the allocator needs
  std::vector<int> started_;
  // Backfill scratch.
  std::vector<long long> tested_of_user_;
  std::vector<int> tested_, least_need_, appended_;
  std::vector<Planned> planned_;  ///< running jobs by planned end (kept between passes)
  std::vector<char> in_plan_;     ///< job index -> 1: in planned_ (2: running, while syncing)
  std::vector<int> position_;     ///< job index -> its place in context.running() (syncing)
  NodeSpace space_;
  NodeSet free_, usable_, fit_, held_;
  NodeSet chosen_;                ///< will-run's nodes for the job tested
  NodeSet retry_usable_;          ///< the usable set of a try that went on to later_start
  std::uint64_t retry_hash_ = 0;  ///< its hash
  double retry_start_ = 0;        ///< will-run's start on it
  WillRunWalk walk_;   ///< will-run's walk when the allocator chooses (or shortcuts are off)
  WillRunMemo walks_;  ///< will-run's walks of this pass since its last start, per usable set
  std::vector<std::size_t> candidates_;
  std::vector<long long> reach_;  ///< backfill_pass's earliest_start(): free + planned nodes
  std::vector<char> busy_, excluded_;
  const Rng fresh_{kPlanningSeed};  ///< the generator each question about the future starts from
  Rng scratch_{kPlanningSeed};      ///< the allocator's generator when it is asked so
};

}  // namespace

std::unique_ptr<Scheduler> make_slurm_scheduler(const SlurmConfig& config) {
  return std::make_unique<SlurmScheduler>(config);
}

}  // namespace allocsim
