#pragma once
// Master/worker dispatch. The master hands out config indices in the
// order given (longest estimated cost first), dynamically: a worker says hello, gets a few
// tasks, and every result it returns earns it another, so the tail is short. The master never
// blocks in MPI (Open MPI's blocking calls busy-poll): it polls and sleeps with backoff.
// Prefetch keeps a worker's next tasks already queued so it never waits for the sleeping master:
// as many as cover the master's longest sleep plus a worker's result batching at the mean config
// time so far (a slow config thus holds back at most that much queued work), one each near the
// end. Tasks sent in one loop iteration travel as one message per worker (Transport::flush), and
// workers return results in batches (see MpiWorkerChannel).
//
// The transport is abstract: MPI ranks (mpi_transport.hpp) or, with one rank, a worker thread
// inside the master's process (LocalTransport).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "allocsim/sweep/store/outcome.hpp"

namespace allocsim::sweep {

/// A message from a worker to the master.
struct WorkerEvent {
  enum class Kind { hello, result, bye };
  Kind kind = Kind::hello;
  int worker = 0;  ///< 0-based worker number of the transport
  ConfigOutcome outcome;
  /// The outcome's encode_outcome() bytes when the transport had them; then `outcome` holds
  /// only the head fields (decode_outcome_head) and the bytes the whole outcome.
  std::string encoded;
  std::uint64_t checksum = 0;  ///< stable_hash(encoded), computed by the worker
};

/// A message from the master to a worker.
struct WorkerCommand {
  enum class Kind { task, stop };
  Kind kind = Kind::task;
  std::int64_t index = 0;
  std::string payload;  ///< what the worker needs to run the task (DispatchCallbacks::payload)
};

/// The master's side of a transport.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual int workers() const = 0;
  /// Queues a command; it may wait for flush() (tasks travel in batches).
  virtual void send(int worker, const WorkerCommand& command) = 0;
  /// Sends what send() queued.
  virtual void flush() {}
  /// True while sent messages still need the master's calls to get through (then it sleeps
  /// at most DispatchOptions::busy_sleep).
  virtual bool sending() const { return false; }
  /// The next event if one has arrived; never blocks.
  virtual std::optional<WorkerEvent> poll() = 0;
};

/// A worker's side of a transport.
class WorkerChannel {
 public:
  virtual ~WorkerChannel() = default;
  /// Sends an event; results may be held back until flush() (or a batch is full).
  virtual void send(const WorkerEvent& event) = 0;
  /// Sends held-back results (called when the worker has nothing left to run).
  virtual void flush() {}
  /// The next command, waiting at most `wait` for one.
  virtual std::optional<WorkerCommand> receive(std::chrono::microseconds wait) = 0;
};

/// How often a worker with tasks queued looks for new commands (a stop waits at most this
/// long plus the config running; the master keeps far more work than this queued per worker).
inline constexpr std::chrono::microseconds kWorkerPollPeriod{1000};

/// Runs commands until told to stop: hello, then result after result, then bye.
/// On stop, tasks queued but not started are dropped.
void worker_loop(WorkerChannel& channel,
                 const std::function<ConfigOutcome(const WorkerCommand&)>& run, int worker);

struct DispatchOptions {
  double grace_seconds = 60;                  ///< after a stop request
  std::chrono::microseconds max_sleep{5000};  ///< master's longest idle sleep
  std::chrono::microseconds busy_sleep{200};  ///< its longest sleep while sends are in flight
  int max_prefetch = 4096;                    ///< tasks queued per worker at most
  /// Queued work per worker that prefetch aims at, beyond the master's sleep: a worker sends
  /// its results in batches at most this often (MpiWorkerChannel), and must not run dry.
  std::chrono::microseconds batch_cover{4000};
};

struct DispatchCallbacks {
  std::function<void(const ConfigOutcome&)> on_outcome;  ///< every result, as it arrives
  /// Same, with the outcome's encoding when the transport has it (empty otherwise; else the
  /// outcome holds only its head fields, see WorkerEvent); when set, it is called instead of
  /// on_outcome, and may move from the outcome and the bytes.
  std::function<void(ConfigOutcome&, std::string& encoded, std::uint64_t checksum)>
      on_encoded_outcome;
  /// The payload of the task for an index (what a worker needs to run it); unset = none.
  std::function<std::string(std::int64_t)> payload;
  std::function<bool()> stop_requested;  ///< polled every loop
  std::function<void()> tick;            ///< progress, periodic flush
  /// Hard watchdog, the last resort when a config ignores its own time limit:
  /// seconds a config may run before it is recorded as timed out (through on_outcome) and
  /// its worker abandoned; <= 0 or unset = never.
  std::function<double(std::int64_t)> hard_limit;
};

enum class DispatchEnd {
  complete,     ///< every task ran
  interrupted,  ///< stopped on request; every worker left cleanly
  abandoned,    ///< stopped on request; the grace period ran out with work in flight
  stuck         ///< the watchdog abandoned a worker that is still running a config
};

/// The master loop. `order` holds the task indices, first dispatched first.
DispatchEnd dispatch(Transport& transport, std::deque<std::int64_t> order,
                     const DispatchOptions& options, const DispatchCallbacks& callbacks);

/// One worker thread in the master's own process (a sweep with one rank).
class LocalTransport : public Transport {
 public:
  explicit LocalTransport(std::function<ConfigOutcome(std::int64_t)> run);
  /// Joins the worker, or detaches it when `abandon()` was called.
  ~LocalTransport() override;

  int workers() const override { return 1; }
  void send(int worker, const WorkerCommand& command) override;
  std::optional<WorkerEvent> poll() override;
  /// Leaves the worker thread running (the process is about to exit).
  void abandon() { abandoned_ = true; }

 private:
  class Channel;
  std::mutex mutex_;
  std::condition_variable to_worker_ready_;
  std::deque<WorkerCommand> to_worker_;
  std::deque<WorkerEvent> to_master_;
  bool abandoned_ = false;
  std::thread thread_;
};

}  // namespace allocsim::sweep
