// The scheduler table: FCFS, EASY (aggressive backfilling, Lifka; Mu'alem & Feitelson),
// conservative backfilling, the Cplant simulator's queue (Leung et al.) and Slurm 22.05's
// scheduling (sched/slurm.hpp).
#include <algorithm>
#include <cmath>

#include "allocsim/sched/compressing.hpp"
#include "allocsim/sched/conservative.hpp"
#include "allocsim/sched/planner.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sched/slurm.hpp"

namespace allocsim {

namespace {

/// Jobs looked at between two polls of the time limit in the backfilling loop.
constexpr std::size_t kPollEvery = 64;

/// Starts queue jobs in order while they fit; returns the position of the first that does not.
std::size_t start_in_order(SchedulerContext& context, const std::vector<int>& queue) {
  std::size_t position = 0;
  for (; position < queue.size(); ++position) {
    context.check_time_limit();
    auto allocation = context.try_allocate(queue[position]);
    if (!allocation) break;
    context.start(queue[position], std::move(*allocation));
  }
  return position;
}

class FcfsScheduler final : public Scheduler {
 public:
  explicit FcfsScheduler(std::string order) : order_(std::move(order)) {}
  void schedule(SchedulerContext& context) override {
    start_in_order(context, ordered_queue(context, order_));
  }

 private:
  std::string order_;
};

/// EASY: the first job that cannot start gets a reservation at its earliest start; a later job
/// may start now if it fits and either ends (by its estimate) before the reservation or leaves
/// the reservation intact (spare nodes, or a replay for shape-constrained allocators).
class EasyScheduler final : public Scheduler {
 public:
  explicit EasyScheduler(std::string order) : order_(std::move(order)) {}
  void schedule(SchedulerContext& context) override {
    const std::vector<int> queue = ordered_queue(context, order_);
    const std::size_t head_position = start_in_order(context, queue);
    if (head_position + 1 >= queue.size()) return;
    const Planner planner(context);
    const int head = queue[head_position];
    Reservation reservation = planner.reserve(head);
    const auto& jobs = context.jobs();
    const double now = context.now();
    const Allocator& allocator = context.allocator();
    const bool shaped = allocator.contiguous_only();
    // Allocators with a request key (shape-constrained ones): what happened to each key since
    // the last start. An identical request (same key, machine and allocator unchanged until the
    // next start) gets the same answer (request_key's contract), and the replay verdict of
    // keeps_reservation depends on the allocation only; so a later job with a known key is
    // answered from the memo: a refusal is noted (the simulation counts it as if asked), an
    // allocation that did not keep the reservation is skipped (asking has no side effect then).
    // The schedule and every count stay exactly as without the memo.
    enum class Verdict : char { refused, breaks_reservation };
    std::vector<std::pair<std::uint64_t, Verdict>> memo;
    auto memo_of = [&](std::uint64_t key) -> const Verdict* {
      for (const auto& entry : memo)
        if (entry.first == key) return &entry.second;
      return nullptr;
    };
    for (std::size_t i = head_position + 1; i < queue.size() && context.free_count() > 0; ++i) {
      // A clock read costs more than a memo answer: poll every kPollEvery jobs (long queues).
      if ((i - head_position) % kPollEvery == 0) context.check_time_limit();
      if (!planner.may_keep_reservation(reservation, queue[i])) continue;  // skip the allocator
      const Job& job = jobs[queue[i]];
      // keeps_reservation() answers true without a replay for a job gone before the head starts.
      const bool outlasts = !(now + job.estimate <= reservation.start);
      std::optional<std::uint64_t> key;
      if (shaped) key = allocator.request_key(job);
      if (key) {
        if (const Verdict* verdict = memo_of(*key)) {
          if (*verdict == Verdict::refused) {
            context.note_refusal(queue[i]);
            continue;
          }
          if (outlasts) continue;
        }
      }
      auto allocation = context.try_allocate(queue[i]);
      if (!allocation) {
        if (key) memo.emplace_back(*key, Verdict::refused);
        continue;
      }
      if (!planner.keeps_reservation(head, reservation, queue[i], *allocation)) {
        if (key && !memo_of(*key)) memo.emplace_back(*key, Verdict::breaks_reservation);
        continue;
      }
      if (now + job.estimate > reservation.start)
        reservation.spare_nodes -= static_cast<int>(allocation->nodes.size());
      context.start(queue[i], std::move(*allocation));
      memo.clear();
    }
  }

 private:
  std::string order_;
};

/// The Cplant simulator's queue: jobs sorted by processors, then requested time; every job that
/// fits starts, in that order, with no reservations.
class CplantScheduler final : public Scheduler {
 public:
  void schedule(SchedulerContext& context) override {
    for (int job_index : ordered_queue(context, "cplant")) {
      if (context.free_count() == 0) break;
      context.check_time_limit();
      if (auto allocation = context.try_allocate(job_index))
        context.start(job_index, std::move(*allocation));
    }
  }
};

ParamSpec order_param() {
  return {"order",
          ParamKind::choice,
          "fifo",
          "queue order",
          {"fifo", "smallfirst", "largefirst", "shortfirst", "longfirst"}};
}

std::vector<RegistryEntry<SchedulerFactory>> scheduler_entries() {
  return {
      {"fcfs",
       "first come first served: start jobs in queue order until one does not fit",
       {order_param()},
       [](const Params& p) -> std::unique_ptr<Scheduler> {
         return std::make_unique<FcfsScheduler>(p.text("order"));
       }},
      {"easy",
       "aggressive (EASY) backfilling: only the head job holds a reservation",
       {order_param()},
       [](const Params& p) -> std::unique_ptr<Scheduler> {
         return std::make_unique<EasyScheduler>(p.text("order"));
       }},
      {"conservative",
       "conservative backfilling: every job gets a reservation at arrival; early completions "
       "compress the schedule (replan=compress), or the whole queue is planned again at every "
       "pass (replan=full, reservations may move later)",
       {order_param(),
        {"replan",
         ParamKind::choice,
         "compress",
         "compress: reservations kept and only moved earlier (Mu'alem & Feitelson); full: "
         "re-plan the queue from scratch at every pass",
         {"compress", "full"}}},
       [](const Params& p) -> std::unique_ptr<Scheduler> {
         if (p.text("replan") == "full") return make_conservative_scheduler(p.text("order"));
         return std::make_unique<CompressingConservative>(p.text("order"));
       }},
      {"cplant",
       "Cplant queue: sorted by processors then requested time; start all that fit",
       {},
       [](const Params&) -> std::unique_ptr<Scheduler> {
         return std::make_unique<CplantScheduler>();
       }},
      {"slurm",
       "Slurm 22.05: priority/basic or multifactor, main FIFO pass, sched/backfill every "
       "bf_interval; time limits enforced (conf=slurm.conf fragment, or its keys)",
       slurm_params(),
       [](const Params& p) -> std::unique_ptr<Scheduler> { return make_slurm_scheduler(p); }},
  };
}

}  // namespace

std::vector<int> ordered_queue(const SchedulerContext& context, const std::string& order) {
  std::vector<int> queue = context.waiting();
  const auto& jobs = context.jobs();
  auto by = [&](auto key) {
    std::stable_sort(queue.begin(), queue.end(),
                     [&](int a, int b) { return key(jobs[a]) < key(jobs[b]); });
  };
  if (order == "smallfirst") by([](const Job& j) { return j.procs; });
  if (order == "largefirst") by([](const Job& j) { return -j.procs; });
  if (order == "shortfirst") by([](const Job& j) { return j.estimate; });
  if (order == "longfirst") by([](const Job& j) { return -j.estimate; });
  if (order == "cplant") by([](const Job& j) { return std::make_pair(j.procs, j.estimate); });
  return queue;
}

const SchedulerRegistry& scheduler_registry() {
  static const SchedulerRegistry registry("scheduler", scheduler_entries());
  return registry;
}

}  // namespace allocsim
