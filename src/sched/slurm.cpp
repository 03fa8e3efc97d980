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
      if (answer.test > 0) will_run_min_start_ = std::min(will_run_min_start_, start);
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
    running_at_start_.clear();
    for (const RunningJob& running : context.running()) running_at_start_.push_back(running.job);
    free_at_start_ = free_;
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
    const bool record = config_.shortcuts && !context.allocator().contiguous_only() &&
                        context.allocator().takes_lowest_free_ids();
    if (record) {
      if (records_.size() < tested_.size()) records_.resize(tested_.size());
      for (std::size_t i = 0; i < tested_.size(); ++i) records_[i].kind = TestRecord::kNotReusable;
    }
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
    // The leading jobs whose tests in the previous recorded pass provably come out the same now
    // (reusable_prefix()): their outcomes replayed, the loop's stop test made as for a test.
    std::size_t i = 0;
    const std::size_t reused = record ? reusable_prefix(context, window_end) : 0;
    for (; i < reused && free_count >= least_need_[i] && some_candidate_from(i); ++i) {
      const TestRecord& old = previous_.records[i];
      last_.limits.push_back(old.limit);
      if (old.tail_read) last_.tail_read = true;
      if (old.tail_scanned) last_.tail_scanned = true;
      last_.first_try_beyond_end = std::min(last_.first_try_beyond_end, old.try_beyond);
      if (old.kind == TestRecord::kBeyondWindow) {
        last_.first_beyond_window = std::min(last_.first_beyond_window, old.from);
      } else if (old.kind == TestRecord::kReserved) {
        if (old.to >= window_end) {
          last_.clipped = true;
          last_.first_past_end =
              std::min(last_.first_past_end, old.from >= window_end ? old.from : old.to);
        }
        space_.reserve(old.nodes, old.from, old.to);
        touched = std::min(touched, old.from);
      }
      records_[i] = old;
    }
    for (; i < tested_.size() &&
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
      // What the next pass's reusable_prefix() reads of this test (kNone unless set below).
      TestRecord scratch_record;
      TestRecord& rec = record ? records_[i] : scratch_record;
      rec.job = job_index;
      rec.kind = TestRecord::kNone;
      rec.limit = limit;
      rec.try_beyond = rec.question_past_end = std::numeric_limits<double>::infinity();
      rec.tail_read = rec.tail_scanned = false;
      will_run_min_start_ = std::numeric_limits<double>::infinity();
      struct KeepMinStart {  // the job's will-run starts after the test at now, at every exit
        TestRecord& rec;
        const double& min_start;
        ~KeepMinStart() { rec.min_start = min_start; }
      } keep_min_start{rec, will_run_min_start_};
      // A job each of whose tries surely finds fewer usable nodes than it needs (without the
      // shortcut, every try reports too few usable nodes, goes on to later_start, and the last
      // finds none): it neither starts nor reserves, and its only record is the last try's,
      // with later_start 0 and start_res before the window's end (a later_start lies before
      // the map's end): tail_scanned when a reservation reached the window's end.
      if (config_.shortcuts && space_.short_throughout(now, limit, need_[job_index])) {
        if (last_.clipped) last_.tail_scanned = rec.tail_scanned = true;
        continue;
      }
      double start_res = now;
      // The last try of this job went to later_start after a start beyond it (see `repeat`).
      bool retried_later = false;
      while (true) {
        if (start_res > window_end) {  // "start_res after current backfill window"
          last_.first_try_beyond_end = std::min(last_.first_try_beyond_end, start_res);
          rec.try_beyond = std::min(rec.try_beyond, start_res);
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
          if (start_res >= window_end) {
            last_.tail_read = rec.tail_read = true;
            rec.question_past_end = std::min(rec.question_past_end, start_res);
          } else if (later == 0 || start_res + limit >= window_end) {
            last_.tail_scanned = rec.tail_scanned = true;
          }
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
          if (floor_to(start, resolution) >= window_end) {
            last_.tail_read = rec.tail_read = true;
            rec.question_past_end = std::min(rec.question_past_end, floor_to(start, resolution));
          } else if (floor_to(start + limit, resolution) > window_end) {
            last_.tail_scanned = rec.tail_scanned = true;
          }
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
            rec.kind = TestRecord::kNotReusable;
            break;
          }
          // Not placed after all: "Drop through and reserve these resources" (the nodes the
          // will-run test chose; it chose none for an allocator without shape constraints,
          // which cannot refuse here: enough usable nodes are free).
          last_.clean = false;
          rec.kind = TestRecord::kNotReusable;
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
          rec.kind = TestRecord::kBeyondWindow;
          rec.from = start;
          break;
        }
        double from = floor_to(start, resolution);
        if (from <= now) {
          from = now;
          last_.clean = false;  // a reservation from now moves with now (and so its end)
          rec.kind = TestRecord::kNotReusable;
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
        if (rec.kind == TestRecord::kNone) {
          rec.kind = TestRecord::kReserved;
          rec.from = from;
          rec.to = to;
          rec.nodes = chosen;
        }
        touched = std::min(touched, from);
        break;
      }
    }
    if (record) {  // this pass becomes the one the next pass may reuse
      std::swap(previous_.records, records_);
      previous_.count = tested_.size();
      previous_.valid = true;
      previous_.time = now;
      previous_.window_end = window_end;
      previous_.running = running_at_start_;
      std::swap(previous_.free, free_at_start_);
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

  /// What a job's test in a backfill pass did, as reusable_prefix() reads it.
  struct TestRecord {
    /// kNone: no reservation (too few usable nodes, none found, or a try past the window's
    /// end); kReserved: nodes over [from, to); kBeyondWindow: will-run's start `from` lies
    /// beyond the window; kNotReusable: it started, was refused at now, reserved from now, or
    /// was not tested (a jump, or the pass ended before it).
    enum Kind : signed char { kNotReusable, kNone, kReserved, kBeyondWindow };
    int job = -1;
    Kind kind = kNotReusable;
    bool tail_read = false, tail_scanned = false;  ///< it set these flags of LastPass
    double limit = 0, from = 0, to = 0;
    double min_start = 0;          ///< the least will-run start from a test after the one at now
    double try_beyond = 0;         ///< the least start_res past the window's end (a try's end)
    double question_past_end = 0;  ///< the least time >= the window's end it asked the map about
    NodeSet nodes;                 ///< kReserved: the nodes held
  };
  /// The last pass that recorded its tests (the lowest-ids allocator with shortcuts on).
  struct RecordedPass {
    bool valid = false;
    double time = 0, window_end = 0;
    std::vector<int> running;  ///< the running jobs when it began, in the context's order
    NodeSet free;              ///< the free nodes when it began
    std::vector<TestRecord> records;
    std::size_t count = 0;  ///< records of its tested jobs (the vector may be longer)
  };

  /// How many leading jobs of this pass (tested_, on the map as reset, the free nodes and the
  /// running jobs as synced) test exactly as in the previous recorded pass, so that their
  /// recorded outcomes can be replayed. See the proof in the body.
  std::size_t reusable_prefix(const SchedulerContext& context, double window_end) {
    // Proof. Job i's test (its tries from start_res = now, then later_start values or
    // overlap retries) reads: the map of the reservations of jobs 0 .. i-1 (segments, held
    // nodes), the free nodes, the running jobs' planned ends and nodes in planned_'s order
    // (will-run), now, and the window (window_end, now + bf_window); the allocator is
    // takes_lowest_free_ids() (the memo's walks: a function of free_, planned_ and the usable
    // set). By induction on i, assume jobs 0 .. i-1 gave the recorded outcomes, so the map
    // holds the same reservations; the conditions below make job i's test come out the same.
    //  - The same running jobs in the same order (and the same free nodes): the same planned_
    //    (sync_planned orders by planned end, ties by that order), so every will-run walk on a
    //    given usable set is the same; will-run's start is the same when every answer after
    //    the test at now ended after now (min_start > now; the test at now gives start_res,
    //    below, or a start at now, which was not reusable).
    //  - The map: its first segment now begins at now instead of then, and no reservation
    //    began by now (from > now, for this job and, by the check at each earlier job, for all
    //    before it), so the first segment holds nothing in both. No boundary in (then, now]:
    //    the segments ending after start_res = now are those ending after then; none in
    //    (then + L, now + L]: those beginning by now + L are those beginning by then + L. So
    //    the first try has the same usable set, the same later_start (rules read only
    //    segment ends > start_res, begins <= start_res + L and held sets) and short_throughout
    //    the same answer; later tries start from segment ends (> now) or will-run starts (>
    //    now), the same in both maps, and overlap tests ask the same intervals. Every start is
    //    then the same and > now, so no try starts the job, and a reservation gets the same
    //    from (> now: not moved to now) and to.
    //  - The window: a start beyond then + bf_window is beyond now + bf_window when the start
    //    recorded is (kBeyondWindow checked; a reservation's start was within then +
    //    bf_window, so within now + bf_window). When the window's end W moved to W' > W: the
    //    tries with start_res <= W are within W'; the one past W stopped there and stops now
    //    when it lies past W' (try_beyond > W'). Before a reservation reached W the map's last
    //    segment holds nothing, so stretching it changes no answer. After one reached W, and
    //    W' at most the first from or to >= W of those reservations (past_end), the new map
    //    is the old one with its last segment stretched to W': answers differ only for a
    //    question at a time in [W, W') (question_past_end >= W' rules that out); with W' past
    //    past_end the new map has a boundary in [W, W'), and, as in same_outcome, only
    //    questions marked tail_read or tail_scanned may see it.
    // The replayed records are kept as this pass's: the same outcomes, and flags at least as
    // strict as a test now would set (a flag now needs a reservation reaching W' >= W, so one
    // reaching W, and a question at or past W' >= W; question_past_end, kept from W, is at
    // most the one from W'), so a later pass's checks on them only refuse more. The replay
    // makes the loop's stop test at each place as the loop does; it does not jump (testing
    // the jobs a jump skips gives what the jump gives, by the jump's proof); the will-run memo
    // starts empty at the first job tested (its walks equal fresh ones). The (then, now]
    // check is implied by from > now at the earlier jobs (kept as a guard).
    if (!previous_.valid) return 0;
    const double now = context.now(), then = previous_.time, old_end = previous_.window_end;
    const auto& runs = context.running();
    if (runs.size() != previous_.running.size()) return 0;
    for (std::size_t r = 0; r < runs.size(); ++r)
      if (runs[r].job != previous_.running[r]) return 0;
    if (!(free_ == previous_.free)) return 0;  // follows from the running jobs; checked anyway
    bounds_.clear();  // the reservations' from and to so far (a superset of the boundaries)
    auto any_in = [&](double after, double until) {
      for (double time : bounds_)
        if (time > after && time <= until) return true;
      return false;
    };
    double past_end = std::numeric_limits<double>::infinity();
    const std::size_t count = std::min(previous_.count, tested_.size());
    std::size_t i = 0;
    for (; i < count; ++i) {
      const TestRecord& old = previous_.records[i];
      if (old.job != tested_[i] || old.kind == TestRecord::kNotReusable) break;
      if (!(old.min_start > now)) break;
      if (any_in(then, now) || any_in(then + old.limit, now + old.limit)) break;
      if (old.kind == TestRecord::kReserved && !(old.from > now)) break;
      if (old.kind == TestRecord::kBeyondWindow && !(old.from > now + config_.bf_window)) break;
      if (window_end != old_end) {
        if (window_end > past_end && (old.tail_read || old.tail_scanned)) break;
        if (old.question_past_end < window_end) break;
        if (!(old.try_beyond > window_end)) break;
      }
      if (old.kind == TestRecord::kReserved) {
        if (old.to >= old_end)
          past_end = std::min(past_end, old.from >= old_end ? old.from : old.to);
        bounds_.push_back(old.from);
        if (old.to < old_end) bounds_.push_back(old.to);  // else cut at W (past_end above)
      }
    }
    return i;
  }

  SlurmConfig config_;
  LastPass last_;
  RecordedPass previous_;
  std::vector<TestRecord> records_;  ///< this pass's (swapped into previous_ at its end)
  std::vector<int> running_at_start_;
  NodeSet free_at_start_;
  std::vector<double> bounds_;
  double will_run_min_start_ = 0;  ///< the least will-run start after a test at now (per job)
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
