// Master/worker dispatch loop and the in-process transport.
#include "allocsim/sweep/dispatch/dispatch.hpp"

#include <algorithm>
#include <cmath>

namespace allocsim::sweep {

using Clock = std::chrono::steady_clock;

void worker_loop(WorkerChannel& channel,
                 const std::function<ConfigOutcome(const WorkerCommand&)>& run, int worker) {
  channel.send({WorkerEvent::Kind::hello, worker, {}, {}, 0});
  std::deque<WorkerCommand> queue;
  std::chrono::microseconds wait{0};
  auto last_poll = Clock::now();
  while (true) {
    // Take every command that has arrived; wait only when there is nothing to do. With tasks
    // queued, look for more at most every kWorkerPollPeriod: a look costs an MPI probe (a
    // sched_yield under --oversubscribe), a large share of a tiny config.
    bool stop = false;
    if (!queue.empty()) {
      const auto now = Clock::now();
      if (now - last_poll < kWorkerPollPeriod) {
        const WorkerCommand command = std::move(queue.front());
        queue.pop_front();
        channel.send({WorkerEvent::Kind::result, worker, run(command), {}, 0});
        continue;
      }
      last_poll = now;
    }
    while (auto command = channel.receive(queue.empty() ? wait : std::chrono::microseconds{0})) {
      if (command->kind == WorkerCommand::Kind::stop) {
        stop = true;
        break;
      }
      queue.push_back(std::move(*command));
      wait = std::chrono::microseconds{0};
    }
    if (stop) break;
    if (queue.empty()) {
      channel.flush();  // nothing to run: the held-back results go now
      wait = std::clamp(wait * 2, std::chrono::microseconds{50}, std::chrono::microseconds{2000});
      continue;
    }
    const WorkerCommand command = std::move(queue.front());
    queue.pop_front();
    channel.send({WorkerEvent::Kind::result, worker, run(command), {}, 0});
  }
  channel.flush();
  channel.send({WorkerEvent::Kind::bye, worker, {}, {}, 0});
}

DispatchEnd dispatch(Transport& transport, std::deque<std::int64_t> order,
                     const DispatchOptions& options, const DispatchCallbacks& callbacks) {
  struct WorkerState {
    bool ready = false, stop_sent = false, gone = false, abandoned = false;
    std::deque<std::int64_t> in_flight;
    Clock::time_point front_since{};  ///< when in_flight.front() started (the worker is FIFO)
  };
  bool any_abandoned = false;
  std::vector<WorkerState> workers(static_cast<std::size_t>(transport.workers()));
  bool stopping = false;
  Clock::time_point deadline{};
  double seconds_sum = 0;
  std::int64_t results = 0;
  std::chrono::microseconds sleep{0};
  // Per result the master touches only the worker that sent it: workers with news since the
  // last refill are listed in `dirty` (all of them after tasks went back into `order`), and the
  // watchdog scans every worker at most every kWatchdogPeriod, so the cost per result does not
  // grow with the number of workers.
  constexpr auto kWatchdogPeriod = std::chrono::milliseconds(20);
  std::vector<int> dirty;
  std::vector<char> is_dirty(workers.size(), 0);
  bool refill_all = false;
  std::size_t gone = 0;
  Clock::time_point last_watchdog{};
  auto mark = [&](int w) {
    if (!is_dirty[static_cast<std::size_t>(w)]) {
      is_dirty[static_cast<std::size_t>(w)] = 1;
      dirty.push_back(w);
    }
  };
  auto deliver = [&](ConfigOutcome& outcome, std::string& encoded, std::uint64_t checksum) {
    if (callbacks.on_encoded_outcome)
      callbacks.on_encoded_outcome(outcome, encoded, checksum);
    else
      callbacks.on_outcome(outcome);
  };

  auto send_stop = [&](int w) {
    auto& state = workers[static_cast<std::size_t>(w)];
    if (state.stop_sent || state.gone) return;
    transport.send(w, {WorkerCommand::Kind::stop, 0, {}});
    state.stop_sent = true;
  };
  // Tasks queued per worker: one while configs take much longer than the master's sleeps (a
  // queued task cannot move to a worker that becomes idle), more when they are short enough for
  // a worker to run dry while the master sleeps and its results wait in a batch; one each near
  // the end, for a short tail. The queued work is thus about `cover` seconds of mean config
  // time: a slow config delays at most that much work queued behind it.
  auto prefetch = [&]() -> std::size_t {
    if (order.size() <= 2 * workers.size() || results == 0) return 1;
    const double mean = seconds_sum / static_cast<double>(results);
    const double cover = 2e-6 * static_cast<double>(options.max_sleep.count()) +
                         2e-6 * static_cast<double>(options.batch_cover.count());
    const double depth = 1 + std::floor(cover / std::max(mean, 1e-7));
    // Never more than a share of what is left, so every worker still gets work.
    const double share = static_cast<double>(order.size()) / (2.0 * double(workers.size()));
    return static_cast<std::size_t>(
        std::clamp(std::min(depth, share), 1.0, double(options.max_prefetch)));
  };

  while (true) {
    bool progressed = false;
    while (auto event = transport.poll()) {
      progressed = true;
      auto& state = workers.at(static_cast<std::size_t>(event->worker));
      if (state.abandoned) continue;  // its late result was already recorded as timed out
      switch (event->kind) {
        case WorkerEvent::Kind::hello:
          state.ready = true;
          mark(event->worker);
          break;
        case WorkerEvent::Kind::result: {
          auto& q = state.in_flight;
          auto it = std::find(q.begin(), q.end(), event->outcome.index);
          if (it != q.end()) q.erase(it);
          state.front_since = Clock::now();
          seconds_sum += event->outcome.wall_seconds;
          ++results;
          mark(event->worker);
          deliver(event->outcome, event->encoded, event->checksum);
          break;
        }
        case WorkerEvent::Kind::bye:
          if (!state.gone) ++gone;
          state.gone = true;
          refill_all = refill_all || !state.in_flight.empty();
          // Tasks it dropped go back to the front (they had the highest cost).
          for (auto it = state.in_flight.rbegin(); it != state.in_flight.rend(); ++it)
            order.push_front(*it);
          state.in_flight.clear();
          break;
      }
    }
    if (!stopping && callbacks.stop_requested && callbacks.stop_requested()) {
      stopping = true;
      deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(options.grace_seconds));
      for (int w = 0; w < transport.workers(); ++w) send_stop(w);
    }
    if (!stopping) {
      const std::size_t depth = prefetch();
      if (refill_all)
        for (int w = 0; w < transport.workers(); ++w) mark(w);
      refill_all = false;
      for (const int w : dirty) {
        auto& state = workers[static_cast<std::size_t>(w)];
        if (!state.ready || state.gone || state.stop_sent) continue;
        while (state.in_flight.size() < depth && !order.empty()) {
          if (state.in_flight.empty()) state.front_since = Clock::now();
          transport.send(w, {WorkerCommand::Kind::task, order.front(),
                             callbacks.payload ? callbacks.payload(order.front()) : std::string()});
          state.in_flight.push_back(order.front());
          order.pop_front();
          progressed = true;
        }
        if (order.empty() && state.in_flight.empty()) send_stop(w);
      }
    }
    for (const int w : dirty) is_dirty[static_cast<std::size_t>(w)] = 0;
    dirty.clear();
    transport.flush();
    if (callbacks.hard_limit && Clock::now() - last_watchdog >= kWatchdogPeriod) {
      const auto now = Clock::now();
      last_watchdog = now;
      for (int w = 0; w < transport.workers(); ++w) {
        auto& state = workers[static_cast<std::size_t>(w)];
        if (state.gone || state.in_flight.empty()) continue;
        const std::int64_t index = state.in_flight.front();
        const double limit = callbacks.hard_limit(index);
        const double running = std::chrono::duration<double>(now - state.front_since).count();
        if (limit <= 0 || running <= limit) continue;
        ConfigOutcome outcome;
        outcome.index = index;
        outcome.status = ConfigStatus::timed_out;
        outcome.wall_seconds = running;
        outcome.rank = transport.workers() == 1 ? 0 : w + 1;
        outcome.error = "watchdog: no result after " + std::to_string(running) +
                        " s, past the hard limit of " + std::to_string(limit) +
                        " s (the config ignored its time limit); its worker was abandoned";
        state.in_flight.pop_front();
        for (auto it = state.in_flight.rbegin(); it != state.in_flight.rend(); ++it)
          order.push_front(*it);
        state.in_flight.clear();
        ++gone;
        state.gone = state.abandoned = any_abandoned = true;
        refill_all = true;
        std::string none;
        deliver(outcome, none, 0);
      }
    }
    if (callbacks.tick) callbacks.tick();
    const bool all_gone = gone == workers.size();
    if (all_gone && any_abandoned) return DispatchEnd::stuck;
    if (all_gone) return order.empty() ? DispatchEnd::complete : DispatchEnd::interrupted;
    if (stopping && Clock::now() > deadline) return DispatchEnd::abandoned;
    if (progressed) {
      sleep = std::chrono::microseconds{0};
    } else {
      sleep = std::min(std::max(sleep * 2, std::chrono::microseconds{100}),
                       transport.sending() ? options.busy_sleep : options.max_sleep);
      std::this_thread::sleep_for(sleep);
    }
  }
}

// ---- LocalTransport ----

class LocalTransport::Channel : public WorkerChannel {
 public:
  explicit Channel(LocalTransport& owner) : owner_(owner) {}
  void send(const WorkerEvent& event) override {
    std::lock_guard lock(owner_.mutex_);
    owner_.to_master_.push_back(event);
  }
  std::optional<WorkerCommand> receive(std::chrono::microseconds wait) override {
    std::unique_lock lock(owner_.mutex_);
    if (owner_.to_worker_.empty() && wait.count() > 0)
      owner_.to_worker_ready_.wait_for(lock, wait, [&] { return !owner_.to_worker_.empty(); });
    if (owner_.to_worker_.empty()) return std::nullopt;
    WorkerCommand command = owner_.to_worker_.front();
    owner_.to_worker_.pop_front();
    return command;
  }

 private:
  LocalTransport& owner_;
};

LocalTransport::LocalTransport(std::function<ConfigOutcome(std::int64_t)> run) {
  thread_ = std::thread([this, run = std::move(run)] {
    Channel channel(*this);
    worker_loop(
        channel, [&](const WorkerCommand& command) { return run(command.index); }, 0);
  });
}

LocalTransport::~LocalTransport() {
  if (!thread_.joinable()) return;
  if (abandoned_) {
    thread_.detach();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    to_worker_.push_back({WorkerCommand::Kind::stop, 0, {}});
  }
  to_worker_ready_.notify_all();
  thread_.join();
}

void LocalTransport::send(int /*worker*/, const WorkerCommand& command) {
  {
    std::lock_guard lock(mutex_);
    to_worker_.push_back(command);
  }
  to_worker_ready_.notify_all();
}

std::optional<WorkerEvent> LocalTransport::poll() {
  std::lock_guard lock(mutex_);
  if (to_master_.empty()) return std::nullopt;
  WorkerEvent event = std::move(to_master_.front());
  to_master_.pop_front();
  return event;
}

}  // namespace allocsim::sweep
