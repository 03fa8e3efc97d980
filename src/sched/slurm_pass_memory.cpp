// What a backfill pass keeps for the next one: whether the next pass's outcome is provably this
// one's (same_outcome) and which of its leading tests the next pass may replay
// (reusable_prefix). Class and file map in slurm_scheduler.hpp.
#include <algorithm>
#include <limits>

#include "slurm_scheduler.hpp"

namespace allocsim {

void SlurmScheduler::remember_pass(const SchedulerContext& context) {
  last_.valid = true;
  last_.time = context.now();
  if (!last_.clean) return;  // same_outcome() answers false before reading the rest
  last_.tested = tested_;
  last_.queue = queue(context);
  last_.running.clear();
  for (const RunningJob& running : context.running()) last_.running.push_back(running.job);
}

bool SlurmScheduler::same_outcome(const SchedulerContext& context) {
  const double now = context.now();
  if (!config_.shortcuts) return false;
  if (!last_.valid || !last_.clean) return false;
  if (any_time_in(last_.boundaries, last_.time, now) || any_time_in(last_.ends, last_.time, now))
    return false;
  for (double limit : last_.limits)
    if (any_time_in(last_.boundaries, last_.time + limit, now + limit)) return false;
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

bool SlurmScheduler::only_appended_cannot_start(const SchedulerContext& context) {
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

std::size_t SlurmScheduler::reusable_prefix(const SchedulerContext& context, double window_end) {
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
  // check is implied by from > now at the earlier jobs, and min_start > now by the other
  // conditions when bf_interval and bf_resolution are whole seconds, as the conf reader
  // requires (both kept as guards; the second's proof in tests/sched/slurm_replay_test.cpp,
  // WillRunStartAtAPassedEndOnlyReachesALaterTry).
  if (!previous_.valid) return 0;
  const double now = context.now(), then = previous_.time, old_end = previous_.window_end;
  const auto& runs = context.running();
  if (runs.size() != previous_.running.size()) return 0;
  for (std::size_t r = 0; r < runs.size(); ++r)
    if (runs[r].job != previous_.running[r]) return 0;
  if (!(free_ == previous_.free)) return 0;  // follows from the running jobs; checked anyway
  // The reservations' from and to so far (a superset of the boundaries), kept ascending so that
  // each question is a bisection (a scan of all of them made the check quadratic in the prefix).
  bounds_.clear();
  double past_end = std::numeric_limits<double>::infinity();
  const std::size_t count = std::min(previous_.count, tested_.size());
  std::size_t i = 0;
  for (; i < count; ++i) {
    const TestRecord& old = previous_.records[i];
    if (old.job != tested_[i] || old.kind == TestRecord::kNotReusable) break;
    if (!(old.min_start > now)) break;
    if (bounds_.any_in(then, now) || bounds_.any_in(then + old.limit, now + old.limit)) break;
    if (old.kind == TestRecord::kReserved && !(old.from > now)) break;
    if (old.kind == TestRecord::kBeyondWindow && !(old.from > now + config_.bf_window)) break;
    if (window_end != old_end) {
      if (window_end > past_end && (old.tail_read || old.tail_scanned)) break;
      if (old.question_past_end < window_end) break;
      if (!(old.try_beyond > window_end)) break;
    }
    if (old.kind == TestRecord::kReserved) {
      if (old.to >= old_end) past_end = std::min(past_end, old.from >= old_end ? old.from : old.to);
      bounds_.add(old.from);
      if (old.to < old_end) bounds_.add(old.to);  // else cut at W (past_end above)
    }
  }
  return i;
}

}  // namespace allocsim
