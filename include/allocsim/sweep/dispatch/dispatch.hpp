#pragma once
// Master/worker dispatch. The master hands out config indices in the
// order given (longest estimated cost first), dynamically: a worker says hello, gets a few
// tasks, and every result it returns earns it another, so the tail is short. The master never
// blocks in MPI (Open MPI's blocking calls busy-poll): it polls and sleeps with backoff.
// Prefetch keeps a worker's next task already queued so it never waits for the sleeping master.
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
};

/// A message from the master to a worker.
struct WorkerCommand {
  enum class Kind { task, stop };
  Kind kind = Kind::task;
  std::int64_t index = 0;
};

/// The master's side of a transport.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual int workers() const = 0;
  virtual void send(int worker, const WorkerCommand& command) = 0;
  /// The next event if one has arrived; never blocks.
  virtual std::optional<WorkerEvent> poll() = 0;
};

/// A worker's side of a transport.
class WorkerChannel {
 public:
  virtual ~WorkerChannel() = default;
  virtual void send(const WorkerEvent& event) = 0;
  /// The next command, waiting at most `wait` for one.
  virtual std::optional<WorkerCommand> receive(std::chrono::microseconds wait) = 0;
};

/// Runs commands until told to stop: hello, then result after result, then bye.
/// On stop, tasks queued but not started are dropped.
void worker_loop(WorkerChannel& channel, const std::function<ConfigOutcome(std::int64_t)>& run,
                 int worker);

struct DispatchOptions {
  double grace_seconds = 60;                  ///< after a stop request
  std::chrono::microseconds max_sleep{5000};  ///< master's longest idle sleep
  int max_prefetch = 64;                      ///< tasks queued per worker at most
};

struct DispatchCallbacks {
  std::function<void(const ConfigOutcome&)> on_outcome;  ///< every result, as it arrives
  std::function<bool()> stop_requested;                  ///< polled every loop
  std::function<void()> tick;                            ///< progress, periodic flush
};

enum class DispatchEnd {
  complete,     ///< every task ran
  interrupted,  ///< stopped on request; every worker left cleanly
  abandoned     ///< stopped on request; the grace period ran out with work in flight
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
