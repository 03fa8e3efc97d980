#pragma once
// The MPI transport of the master/worker dispatch, over Boost.MPI:
// rank 0 is the master, ranks 1..N-1 are workers 0..N-2. Both sides poll with iprobe and
// sleep instead of blocking, because Open MPI's blocking receive spins a core.
//
// Messages are batches: the tasks the master sends a worker in one dispatch iteration travel as
// one message (per task: index, payload length, payload), and a worker's results as one message
// (per result: the journal checksum stable_hash() of the bytes, length, encode_outcome() bytes)
// sent when it has nothing left to run, when its batch is kBatchSeconds old or kBatchResults long,
// or after a long config. Every message is a non-blocking send whose buffer lives until it
// completes, so neither side waits for the other.
#include <chrono>
#include <deque>
#include <list>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/request.hpp>

#include "allocsim/sweep/dispatch/dispatch.hpp"

namespace allocsim::sweep {

/// Largest batch message (bytes; a single larger record travels alone). Below Open MPI's
/// eager limit for shared memory (4 KB), a message is copied at once by its send and taken at
/// once by its receive; a larger one needs both sides to call into MPI until it is through,
/// which couples the master's sleeps to the workers' runs (measured: half the rate).
inline constexpr std::size_t kMessageBytes = 4000;

/// Message tags.
enum MpiTag : int {
  kTagHello = 11,
  kTagTask = 12,
  kTagResult = 13,
  kTagStop = 14,
  kTagBye = 15,
  kTagStart = 16  ///< master -> every worker before dispatching (sweep.cpp)
};

/// A message in flight: its bytes must stay in place until the request completes.
struct PendingSend {
  std::string bytes;
  boost::mpi::request request;
};

/// Master side: workers are the ranks other than 0.
class MpiTransport : public Transport {
 public:
  explicit MpiTransport(const boost::mpi::communicator& world);
  ~MpiTransport() override;
  int workers() const override { return world_.size() - 1; }
  void send(int worker, const WorkerCommand& command) override;
  void flush() override;
  /// Task messages not yet through: a message beyond what the shared-memory queue holds moves
  /// on only while the master calls into MPI (measured: long sleeps then starved the workers).
  bool sending() const override { return !pending_.empty(); }
  std::optional<WorkerEvent> poll() override;

 private:
  void flush_worker(int worker);
  void reap();

  boost::mpi::communicator world_;
  std::vector<std::string> outgoing_;  ///< tasks queued per worker
  std::vector<int> waiting_;           ///< workers with tasks queued (flush() sends those)
  std::list<PendingSend> pending_;
  std::deque<WorkerEvent> received_;  ///< decoded from the last result batch
  std::string buffer_;
};

/// Worker side, talking to rank 0.
class MpiWorkerChannel : public WorkerChannel {
 public:
  /// Results wait in a batch at most this long (unless a config runs longer) ...
  static constexpr double kBatchSeconds = 0.002;
  /// ... and a batch holds at most this many.
  static constexpr std::size_t kBatchResults = 1024;

  explicit MpiWorkerChannel(const boost::mpi::communicator& world) : world_(world) {}
  ~MpiWorkerChannel() override;
  void send(const WorkerEvent& event) override;
  void flush() override;
  std::optional<WorkerCommand> receive(std::chrono::microseconds wait) override;

 private:
  void reap();
  void drain();

  boost::mpi::communicator world_;
  std::list<PendingSend> pending_;
  std::string batch_;
  std::size_t batch_results_ = 0;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_result_ = last_flush_;
  std::deque<WorkerCommand> received_;
};

/// Appends a record (a 64-bit tag, a little-endian length, the bytes) / reads one (throws on a
/// short buffer).
void put_record(std::string& out, std::int64_t index, const std::string& bytes);
bool get_record(const std::string& in, std::size_t& at, std::int64_t& index, std::string& bytes);

}  // namespace allocsim::sweep
