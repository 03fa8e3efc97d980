// A pass of sched/backfill (backfill.c, _attempt_backfill) and the select plugin's will-run test
// (class and file map in slurm_scheduler.hpp).
#include <algorithm>
#include <limits>

#include "slurm_scheduler.hpp"

namespace allocsim {

namespace {

/// Jobs tested between two polls of the run's time limit in a backfill pass.
constexpr std::size_t kPollEvery = 64;

}  // namespace

bool SlurmScheduler::will_run(SchedulerContext& context, int job_index, const NodeSet& usable,
                              std::uint64_t usable_hash, double from, double& start,
                              NodeSet& nodes) {
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

void SlurmScheduler::backfill_pass(SchedulerContext& context) {
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
    const TryOutcome outcome = try_job(context, job_index, rec, window_end);
    if (outcome.kind == TryOutcome::kStarted) {
      free_count -= outcome.taken;
      reach_known = false;
      no_jump_below = 0;
      touched = now;
    } else if (outcome.kind == TryOutcome::kReserved) {
      touched = std::min(touched, outcome.from);
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

SlurmScheduler::TryOutcome SlurmScheduler::try_job(SchedulerContext& context, int job_index,
                                                   TestRecord& rec, double window_end) {
  const double now = context.now();
  const double limit = limit_[job_index];
  const double resolution = config_.bf_resolution;
  const int machine = context.topology().node_count();
  NodeSet& chosen = chosen_;
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
    const double later = config_.shortcuts ? space_.usable_for(start_res, start_res + limit,
                                                               need_[job_index], usable_, enough)
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
        space_.overlaps(chosen, floor_to(start, resolution), floor_to(start + limit, resolution))) {
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
        const int taken = static_cast<int>(allocation->nodes.size());
        Planned job = make_planned(job_index, now + limit, *allocation, machine);
        free_.subtract(job.nodes);
        add_planned(std::move(job));
        context.start(job_index, std::move(*allocation));
        walks_.clear();  // the free nodes and the running jobs changed
        started_.push_back(job_index);
        last_.clean = false;
        rec.kind = TestRecord::kNotReusable;
        return {TryOutcome::kStarted, now, taken};
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
    return {TryOutcome::kReserved, from, 0};
  }
  return {TryOutcome::kNothing, 0, 0};
}

}  // namespace allocsim
