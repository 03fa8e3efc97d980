#pragma once
// The MPI transport of the master/worker dispatch, over Boost.MPI:
// rank 0 is the master, ranks 1..N-1 are workers 0..N-2. Both sides poll with iprobe and
// sleep instead of blocking, because Open MPI's blocking receive spins a core.
#include <list>
#include <string>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/request.hpp>

#include "allocsim/sweep/dispatch/dispatch.hpp"

namespace allocsim::sweep {

/// Message tags.
enum MpiTag : int { kTagHello = 11, kTagTask = 12, kTagResult = 13, kTagStop = 14, kTagBye = 15 };

/// Master side: workers are the ranks other than 0.
class MpiTransport : public Transport {
 public:
  explicit MpiTransport(const boost::mpi::communicator& world) : world_(world) {}
  int workers() const override { return world_.size() - 1; }
  void send(int worker, const WorkerCommand& command) override;
  std::optional<WorkerEvent> poll() override;

 private:
  boost::mpi::communicator world_;
};

/// Worker side, talking to rank 0. Results go out with non-blocking sends: a blocking send of
/// a few hundred bytes waits until the (sleeping) master receives it, which held workers idle
/// between tiny configs. Pending sends complete before the goodbye.
class MpiWorkerChannel : public WorkerChannel {
 public:
  explicit MpiWorkerChannel(const boost::mpi::communicator& world) : world_(world) {}
  ~MpiWorkerChannel() override;
  void send(const WorkerEvent& event) override;
  std::optional<WorkerCommand> receive(std::chrono::microseconds wait) override;

 private:
  struct Pending {
    std::string bytes;  ///< must stay in place until the request completes (list nodes do)
    boost::mpi::request request;
  };
  void reap();
  void drain();

  boost::mpi::communicator world_;
  std::list<Pending> pending_;
};

}  // namespace allocsim::sweep
