// Conservative backfilling with compression; the rules are in sched/compressing.hpp.
#include "allocsim/sched/compressing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace allocsim {

// ---- GainLog ----

void GainLog::push(double a, double b) {
  const std::uint64_t number = next_++;
  while (!min_a_.empty() && min_a_.back().second >= a) min_a_.pop_back();
  min_a_.emplace_back(number, a);
  while (!max_b_.empty() && max_b_.back().second <= b) max_b_.pop_back();
  max_b_.emplace_back(number, b);
}

bool GainLog::hull(std::uint64_t since, double& lo, double& hi) const {
  if (since >= next_) return false;
  auto first = [since](const std::vector<std::pair<std::uint64_t, double>>& stack) {
    return std::lower_bound(stack.begin(), stack.end(), since,
                            [](const auto& entry, std::uint64_t n) { return entry.first < n; })
        ->second;
  };
  lo = first(min_a_);  // both stacks end with the last entry, numbered >= since
  hi = first(max_b_);
  return true;
}

double GainLog::reach() const {
  // The first entry of the stack of maxima is the largest.
  return max_b_.empty() ? -std::numeric_limits<double>::infinity() : max_b_.front().second;
}

void GainLog::prune(std::uint64_t since) {
  auto drop = [since](std::vector<std::pair<std::uint64_t, double>>& stack) {
    auto keep =
        std::lower_bound(stack.begin(), stack.end(), since,
                         [](const auto& entry, std::uint64_t n) { return entry.first < n; });
    stack.erase(stack.begin(), keep);
  };
  drop(min_a_);
  drop(max_b_);
}

// ---- CompressingConservative ----

namespace {

/// Jobs looked at between two polls of the time limit.
constexpr std::size_t kPollEvery = 64;

/// Revisits ahead whose reservation the walk asks the cache for.
constexpr std::size_t kPrefetchAhead = 8;

double release_time(double estimated_end, double now) {
  return std::isnan(estimated_end) ? now : std::max(estimated_end, now);
}

double duration_of(const Job& job) {
  return std::isnan(job.estimate) ? 0.0 : std::max(job.estimate, 0.0);
}

}  // namespace

CompressingConservative::CompressingConservative(std::string order) {
  // (Decided once: comparing the name at every arrival was ~0.5 % of SDSC-BLUE's run.)
  if (order == "smallfirst") order_ = Order::smallfirst;
  if (order == "largefirst") order_ = Order::largefirst;
  if (order == "shortfirst") order_ = Order::shortfirst;
  if (order == "longfirst") order_ = Order::longfirst;
}

double CompressingConservative::key_of(const Job& job) const {
  // The keys of ordered_queue(); a NaN estimate sorts as 0.
  const double estimate = std::isnan(job.estimate) ? 0.0 : job.estimate;
  switch (order_) {
    case Order::smallfirst:
      return job.procs;
    case Order::largefirst:
      return -static_cast<double>(job.procs);
    case Order::shortfirst:
      return estimate;
    case Order::longfirst:
      return -estimate;
    case Order::arrival:
      break;
  }
  return 0;
}

bool CompressingConservative::before(int a, int b) const {
  const Reserved& x = reserved_[a];
  const Reserved& y = reserved_[b];
  if (x.start != y.start) return x.start < y.start;
  if (x.key != y.key) return x.key < y.key;
  return a < b;
}

std::vector<std::pair<int, double>> CompressingConservative::reservations() const {
  std::vector<std::pair<int, double>> out;
  out.reserve(order_list_.size());
  for (const Slot& slot : order_list_) out.emplace_back(slot.job, reserved_[slot.job].start);
  return out;
}

void CompressingConservative::reset(SchedulerContext& context) {
  context_ = &context;
  job_count_ = context.jobs().size();
  reserved_.assign(job_count_, Reserved{});
  held_.assign(job_count_, Held{});
  order_list_.clear();
  held_list_.clear();
  asked_ = -std::numeric_limits<double>::infinity();
  profile_.reset(context.now(), context.topology().node_count());
}

void CompressingConservative::schedule(SchedulerContext& context) {
  if (&context != context_ || context.jobs().size() != job_count_) reset(context);
  now_ = context.now();
  // A quiet pass: no job ended (sync below), none arrived or left the queue, none is due. Then
  // sync would find no gain, the walk would stop at once and no arrival would be reserved:
  // nothing to do but ask for the next pass. (Such as a pass asked for a reservation start that
  // moved earlier since.)
  if (context.running().size() == held_list_.size() &&
      context.waiting().size() == order_list_.size() &&
      (order_list_.empty() || reserved_[order_list_.front().job].start > now_)) {
    ask_next(context);
    return;
  }
  profile_.advance(now_);
  if (profile_.wants_compaction()) {
    // Redundant breakpoints (left by moved reservations) change no answer, but every
    // reservation's start and end stay breakpoints (the searches' own windows need them): the
    // profile pins them (StepProfile::reserve), but for a window that added none (no nodes,
    // or start + duration not after start: kept by time, as all were before; was: every start
    // and end listed and sorted, ~5 % at SDSC-BLUE x0.8).
    keep_.clear();
    for (const Slot& slot : order_list_) {
      if (slot.need != 0 && slot.duration >= 1) continue;  // (start + duration > start)
      const Reserved& r = reserved_[slot.job];
      keep_.push_back(r.start);
      keep_.push_back(r.start + r.duration);
    }
    std::sort(keep_.begin(), keep_.end());
    profile_.compact(keep_);
  }
  walk(context, sync(context));
  reserve_arrivals(context);
  ask_next(context);
}

void CompressingConservative::ask_next(SchedulerContext& context) {
  // The earliest reservation start after now (order_list_ is by start; the few before it are
  // due jobs refused and kept at their start), unless it is the time asked last: that one is
  // ahead, and asking for a time twice adds no pass.
  for (const Slot& slot : order_list_) {
    const double start = reserved_[slot.job].start;
    if (!(start > now_)) continue;
    if (start != asked_) {
      asked_ = start;
      context.request_pass(start);
    }
    return;
  }
}

void CompressingConservative::sync_running(SchedulerContext& context, bool& gained) {
  for (const RunningJob& r : context.running()) {
    Held& held = held_[r.job];
    if (!held.active) {  // not started by this scheduler (not expected): hold it from now
      held = {r.estimated_end, static_cast<int>(r.allocation.nodes.size()), 0, true};
      held_list_.push_back(r.job);
      profile_.add(now_, release_time(r.estimated_end, now_), -held.nodes);
    }
    held.seen = stamp_;
  }
  for (std::size_t i = 0; i < held_list_.size();) {
    Held& held = held_[held_list_[i]];
    if (held.seen == stamp_) {
      ++i;
      continue;
    }
    const double release = release_time(held.release_end, now_);
    if (release > now_) {  // ended before its estimated end: its nodes come back now
      profile_.add(now_, release, held.nodes);
      pass_gains_.push(now_, release);
      gained = true;
    }
    held.active = false;
    held_list_[i] = held_list_.back();
    held_list_.pop_back();
  }
}

bool CompressingConservative::sync(SchedulerContext& context) {
  ++stamp_;
  bool gained = false;
  // Between passes the running list only loses jobs (those that ended): every job in it was
  // started by this scheduler, but at the first pass (and in a context that starts jobs
  // otherwise, not expected). So as many running as held: none ended, nothing to look at.
  if (context.running().size() != held_list_.size()) sync_running(context, gained);
  // Jobs dropped from the queue: the waiting list is the reserved jobs plus new arrivals.
  const std::vector<int>& waiting = context.waiting();
  std::size_t arrivals = 0;
  for (auto it = waiting.rbegin(); it != waiting.rend() && !reserved_[*it].active; ++it) ++arrivals;
  if (waiting.size() - arrivals != order_list_.size()) {
    for (int job : waiting) reserved_[job].seen = stamp_;
    std::size_t kept = 0;
    for (const Slot& slot : order_list_) {
      Reserved& r = reserved_[slot.job];
      if (r.seen == stamp_) {
        order_list_[kept++] = slot;
        continue;
      }
      profile_.reserve(r.start, r.start + r.duration, r.need);
      pass_gains_.push(std::max(r.start, now_), r.start + r.duration);
      r.active = false;
      gained = true;
    }
    order_list_.resize(kept);
  }
  return gained;
}

void CompressingConservative::walk(SchedulerContext& context, bool gained) {
  std::size_t stop = 0;
  if (gained)
    stop = order_list_.size();
  else
    while (stop < order_list_.size() && !(reserved_[order_list_[stop].job].start > now_)) ++stop;
  if (stop == 0) return;
  // The jobs revisited: order_list_[0, stop), in place (the walk changes only the unsettled
  // flag of the job revisited; the list is reordered after the walk). (Was: a copy.)
  const std::vector<Slot>& walked = order_list_;
  bool reorder = false;
  bool any_gone = false;
  relocated_.clear();
  const std::uint64_t pass_from = pass_gains_.next();
  // The windows left by the jobs this walk moved earlier (or started): their hull, the only
  // move gains a settled job's search looks at (header). (Only where P went up, [max(old,
  // new + d), old + d), was not faster: paired runs at x0.8, 1.007.)
  double move_lo = std::numeric_limits<double>::infinity();
  double move_hi = -std::numeric_limits<double>::infinity();
  auto moved_out = [&](double a, double b) {
    move_lo = std::min(move_lo, a);
    move_hi = std::max(move_hi, b);
  };
  memo_.clear();
  // The job revisited: walked[pos], whose slot follows the reservation's `unsettled`.
  std::size_t pos = 0;
  auto settle = [&](Reserved& r) {
    r.unsettled = false;
    order_list_[pos].unsettled = false;
    r.since_pass = pass_gains_.next();
  };
  auto unsettle = [&](Reserved& r) {
    r.unsettled = true;
    order_list_[pos].unsettled = true;
  };
  // No fit before its start: settled, and recorded while P >= 0 (sched/failure_memo.hpp).
  // The failures from the gains' reach on, as a staircase (below), while that reach holds.
  bool stair_valid = false;
  double stair_from = 0;
  // `index`: a breakpoint index not after the first at or after `start` (0: none known), kept
  // with the failure so that a search starting at `start` gallops from it (below).
  auto remember = [&](const Reserved& r, double start, std::size_t index) {
    memo_.record(r.need, r.duration, start, index);
    if (stair_valid && start >= stair_from) stair_.add(r.need, r.duration);
  };
  // After a search that found nothing: while P >= 0 each candidate's failing step is before
  // the job's start (in its own window P without it is >= its need), else it may be inside:
  // unsettled (full searches) until a search finds all its candidates' steps before its start.
  auto fail = [&](Reserved& r, std::size_t index) {
    if (profile_.negatives() != 0) {
      unsettle(r);
      return;
    }
    remember(r, r.start, index);
    settle(r);
  };
  for (; pos < stop; ++pos) {
    if (pos % kPollEvery == 0) context.check_time_limit();
    const int job = walked[pos].job;
    // The reservations are scattered over the job table: the one a few revisits ahead is
    // fetched early (most revisits are a few comparisons).
    if (pos + kPrefetchAhead < stop)
      __builtin_prefetch(&reserved_[static_cast<std::size_t>(walked[pos + kPrefetchAhead].job)]);
    Reserved& r = reserved_[job];
    if (!(r.start > now_)) {  // due: offered; a refusal re-reserves it after now
      profile_.reserve(r.start, r.start + r.duration, r.need);
      const int used = try_start(context, job);
      if (used < r.need && now_ < r.start + r.duration)  // refused (-1), or fewer nodes
        pass_gains_.push(now_, r.start + r.duration);
      if (used < 0) {
        r.start = retry_time(context, job, std::numeric_limits<double>::infinity(), now_);
        profile_.reserve(r.start, r.start + r.duration, -r.need);
        unsettle(r);
        relocated_.push_back(job);  // (it may have gone later)
      }
      order_list_[pos].gone = any_gone = reorder = true;
      continue;
    }
    if (!gained) break;
    // A failure of this walk that dominates the job covers its candidates before its start
    // (sched/failure_memo.hpp); the settled job's candidates end by the last logged gain.
    const double gains_reach = std::max(pass_gains_.reach(), move_hi);
    if (!r.unsettled && gains_reach <= r.start && std::isfinite(gains_reach)) {
      // Past the reach R of every gain: skipped iff a failure with start >= R dominates the
      // job (covered_until(need, duration) >= R), asked of those failures as a staircase.
      // The jobs after it start no earlier, so settled ones go the same way, in a row.
      if (!stair_valid || stair_from != gains_reach) {
        memo_.fill(gains_reach, stair_);
        stair_valid = true;
        stair_from = gains_reach;
      }
      // The row is read from the dense slots (no reservation loaded) and its settle stamps
      // are not written: a job skipped here had no fit before its start at this point of
      // the walk, so the entries logged since the walk began bound its candidates, and
      // those are all the logs keep once this walk prunes them (GainLog::hull from an older
      // number answers from the first entry kept: a hull at least as wide, same answers).
      std::size_t end = pos, pair = 0;
      while (end < stop && !walked[end].unsettled &&
             stair_.dominates(walked[end].need, walked[end].duration, pair)) {
        if (++end % kPollEvery == 0) context.check_time_limit();
      }
      if (end == stop) break;
      if (end != pos) {  // the first job not skipped (walked[end]): revisited as any other
        pos = end - 1;
        continue;
      }
    }
    const double reach = r.unsettled ? r.start : std::min(r.start, gains_reach);
    std::size_t covered_index = 0;
    const double covered = memo_.covered_until(r.need, r.duration, &covered_index);
    if (covered >= reach) {
      // Not recorded: reach <= the job's start here, so the failure found (start `covered`,
      // need and duration at most the job's) dominates the job's own.
      settle(r);
      continue;
    }
    // Search bounds: candidates in [lo, hi) of each kind of logged gain (header).
    double pass_lo = 0, pass_hi = 0, moves_lo = move_lo, moves_hi = move_hi;
    bool pass_bound = false, move_bound = false;
    if (!r.unsettled) {
      auto bound = [&](double& lo, double& hi) {
        // a - d, widened a little against rounding (t + d > a is what is meant).
        lo = std::max(now_, lo - r.duration - 1e-9 * (std::abs(lo) + r.duration + 1));
        hi = std::min(hi, r.start);
        return lo < hi;
      };
      pass_bound = pass_gains_.hull(r.since_pass, pass_lo, pass_hi) && bound(pass_lo, pass_hi);
      move_bound = move_lo < move_hi && bound(moves_lo, moves_hi);
      if (!pass_bound && !move_bound) {
        fail(r, 0);
        continue;
      }
    }
    const double old_start = r.start;
    // Searched as P without the job: its own window's nodes count as free.
    // (Its start and end are breakpoints: added with it, kept by compaction.)
    const StepProfile::Own own{r.start, r.start + r.duration, r.need};
    // The earliest fit among the candidates of the spans, from `covered` on.
    std::size_t found = StepProfile::kNone, found_end = StepProfile::kNone;
    std::size_t found_own = StepProfile::kNone;  // the index of its start, when the search met it
    std::size_t searched_from = 0;  // the largest first index of a search (<= the job's start's)
    auto search = [&](double lo, double hi) {
      lo = std::max(lo, covered);
      const double limit = found == StepProfile::kNone ? hi : std::min(hi, profile_.time(found));
      if (!(lo < limit)) return;
      // Most searches start at `covered` (79 % at x0.8): from the failure's index, galloping.
      // It is not after the first breakpoint at or after `covered`, and stays so: during a
      // walk breakpoints are only inserted (no advance, no compaction). The same first index.
      const std::size_t first = lo == covered && covered_index != 0
                                    ? profile_.lower_gallop(covered_index, lo)
                                    : profile_.lower(lo);
      searched_from = std::max(searched_from, first);
      std::size_t other_end = StepProfile::kNone, other_own = StepProfile::kNone;
      const std::size_t other =
          profile_.earliest(r.need, r.duration, limit, first, own, &other_end, &other_own);
      if (other != StepProfile::kNone) {
        found = other;
        found_end = other_end;
        found_own = other_end == StepProfile::kNone ? other_own : StepProfile::kNone;
      }
    };
    if (r.unsettled) {
      search(now_, r.start);
    } else {
      if (pass_bound) search(pass_lo, pass_hi);
      if (move_bound) search(moves_lo, moves_hi);
    }
    if (found == StepProfile::kNone) {
      fail(r, searched_from);
      continue;
    }
    const double found_time = profile_.time(found);
    // No fit before found_time either (sched/failure_memo.hpp). Not recorded when the search
    // began at found_time (= covered): the failure that gave `covered` dominates this one, in
    // the memo and in the staircase (14 % of the records at x0.8).
    if (found_time > covered && found_time > now_ && profile_.negatives() == 0)
      remember(r, found_time, found);
    reorder = true;
    if (found_time == now_) {
      profile_.reserve(r.start, r.start + r.duration, r.need);
      const int used = try_start(context, job);
      if (used >= 0) {
        if (used < r.need)  // (a gain from now: logged for every job, as the pass's)
          pass_gains_.push(now_, old_start + r.duration);
        else
          moved_out(old_start, old_start + r.duration);
        order_list_[pos].gone = any_gone = true;
        continue;
      }
      // Refused at now: the earliest later change before its old start, else the old start.
      r.start = retry_time(context, job, old_start, old_start);
      profile_.reserve(r.start, r.start + r.duration, -r.need);
      if (r.start != old_start) {
        moved_out(old_start, old_start + r.duration);
        order_list_[pos].earlier = true;
      }
      unsettle(r);
      continue;
    }
    // Out of its window, into the one found (add twice, as one step).
    if (r.duration > 0 && std::isfinite(r.duration)) {
      profile_.move(r.start, found_time, found, r.duration, r.need, found_end, found_own);
    } else {
      profile_.reserve(r.start, r.start + r.duration, r.need);
      profile_.reserve(found_time, found_time + r.duration, -r.need);
    }
    r.start = found_time;
    moved_out(old_start, old_start + r.duration);
    order_list_[pos].earlier = true;
    settle(r);
  }
  if (gained) {  // every job still reserved saw the entries logged before this walk
    pass_gains_.prune(pass_from);
  }
  if (!reorder) return;
  // The slots flagged tell who left (started, or relocated) and who moved earlier; the others
  // keep their order and are in order with the prefix before them (each job there was before
  // them and only moved earlier), so only the moved ones are placed, and the relocated ones
  // inserted: no other reservation is read. (Was: every slot's reservation read, and placed.)
  if (any_gone) {
    std::size_t kept = 0;
    for (const Slot& slot : order_list_)
      if (!slot.gone) order_list_[kept++] = slot;
    order_list_.resize(kept);
  }
  for (std::size_t i = 1; i < order_list_.size(); ++i) {
    if (!order_list_[i].earlier) continue;
    Slot slot = order_list_[i];
    slot.earlier = false;
    std::size_t j = i;
    while (j > 0 && before(slot.job, order_list_[j - 1].job)) {
      order_list_[j] = order_list_[j - 1];
      --j;
    }
    order_list_[j] = slot;
  }
  if (!order_list_.empty()) order_list_.front().earlier = false;
  for (int job : relocated_) insert_ordered(job);
}

CompressingConservative::Slot CompressingConservative::slot_of(int job) const {
  const Reserved& r = reserved_[job];
  return Slot{r.duration, job, r.need, r.unsettled};
}

void CompressingConservative::insert_ordered(int job) {
  auto at = std::upper_bound(order_list_.begin(), order_list_.end(), job,
                             [&](int a, const Slot& b) { return before(a, b.job); });
  order_list_.insert(at, slot_of(job));
}

double CompressingConservative::retry_time(const SchedulerContext& context, int job, double limit,
                                           double otherwise) const {
  const Reserved& r = reserved_[job];
  const std::size_t later = profile_.earliest_change_after_now(r.need, r.duration, limit);
  double best =
      later == StepProfile::kNone ? std::numeric_limits<double>::infinity() : profile_.time(later);
  // A time-dependent allocator may accept the job at its wake-up on an unchanged machine.
  const std::optional<double> wake = context.allocator().wake_up(context.jobs()[job]);
  if (wake && *wake > now_ && *wake < limit && *wake < best &&
      profile_.fits_at(*wake, r.need, r.duration))
    best = *wake;
  return std::isinf(best) ? otherwise : best;
}

int CompressingConservative::try_start(SchedulerContext& context, int job) {
  auto allocation = context.try_allocate(job);
  if (!allocation) return -1;
  reserved_[job].active = false;
  const int used = static_cast<int>(allocation->nodes.size());
  const double estimated_end = now_ + context.jobs()[job].estimate;
  context.start(job, std::move(*allocation));
  held_[job] = {estimated_end, used, stamp_, true};
  held_list_.push_back(job);
  profile_.add(now_, release_time(estimated_end, now_), -used);
  return used;
}

void CompressingConservative::reserve_arrivals(SchedulerContext& context) {
  const std::vector<int>& waiting = context.waiting();
  scratch_.clear();
  for (auto it = waiting.rbegin(); it != waiting.rend() && !reserved_[*it].active; ++it)
    scratch_.push_back(*it);
  if (scratch_.empty()) return;
  const auto& jobs = context.jobs();
  for (int job : scratch_) reserved_[job].key = key_of(jobs[job]);
  std::sort(scratch_.begin(), scratch_.end(), [&](int a, int b) {
    const double ka = reserved_[a].key, kb = reserved_[b].key;
    return ka != kb ? ka < kb : a < b;
  });
  for (std::size_t i = 0; i < scratch_.size(); ++i) {
    if (i % kPollEvery == 0) context.check_time_limit();
    const int job = scratch_[i];
    Reserved& r = reserved_[job];
    r.need = context.nodes_needed(job);
    r.duration = duration_of(jobs[job]);
    r.active = true;
    const std::size_t found =
        profile_.earliest(r.need, r.duration, std::numeric_limits<double>::infinity());
    // Not kNone: the last breakpoint frees the whole machine (larger jobs are dropped before).
    r.start = profile_.time(found == StepProfile::kNone ? profile_.size() - 1 : found);
    r.unsettled = false;
    r.since_pass = pass_gains_.next();
    if (r.start > now_) {
      profile_.reserve(r.start, r.start + r.duration, -r.need);
      insert_ordered(job);
      continue;
    }
    // Reserved at now: offered at once, its reservation never put in P (others never saw it:
    // nothing to log).
    if (try_start(context, job) >= 0) continue;
    r.unsettled = true;
    // Refused at now: the earliest later change of P that admits it (else now again).
    r.start = retry_time(context, job, std::numeric_limits<double>::infinity(), now_);
    profile_.reserve(r.start, r.start + r.duration, -r.need);
    insert_ordered(job);
  }
}

}  // namespace allocsim
