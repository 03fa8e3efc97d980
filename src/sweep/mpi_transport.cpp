// Boost.MPI transport for the sweep dispatch (issue 3, item 3).
#include "allocsim/sweep/mpi_transport.hpp"

#include <thread>

#include <boost/mpi/packed_iarchive.hpp>
#include <boost/mpi/packed_oarchive.hpp>
#include <boost/serialization/string.hpp>

#include "serialization.hpp"

namespace allocsim::sweep {

void MpiTransport::send(int worker, const WorkerCommand& command) {
  if (command.kind == WorkerCommand::Kind::task) {
    world_.send(worker + 1, kTagTask, static_cast<long long>(command.index));
  } else {
    world_.send(worker + 1, kTagStop, 0);
  }
}

std::optional<WorkerEvent> MpiTransport::poll() {
  auto status = world_.iprobe(boost::mpi::any_source, boost::mpi::any_tag);
  if (!status) return std::nullopt;
  WorkerEvent event;
  event.worker = status->source() - 1;
  int dummy = 0;
  switch (status->tag()) {
    case kTagHello:
      world_.recv(status->source(), kTagHello, dummy);
      event.kind = WorkerEvent::Kind::hello;
      break;
    case kTagResult:
      world_.recv(status->source(), kTagResult, event.outcome);
      event.kind = WorkerEvent::Kind::result;
      break;
    case kTagBye:
      world_.recv(status->source(), kTagBye, dummy);
      event.kind = WorkerEvent::Kind::bye;
      break;
    default:
      throw std::runtime_error("unexpected MPI message tag " + std::to_string(status->tag()) +
                               " from rank " + std::to_string(status->source()));
  }
  return event;
}

void MpiWorkerChannel::send(const WorkerEvent& event) {
  switch (event.kind) {
    case WorkerEvent::Kind::hello: world_.send(0, kTagHello, 0); break;
    case WorkerEvent::Kind::result: world_.send(0, kTagResult, event.outcome); break;
    case WorkerEvent::Kind::bye: world_.send(0, kTagBye, 0); break;
  }
}

std::optional<WorkerCommand> MpiWorkerChannel::receive(std::chrono::microseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  std::chrono::microseconds sleep{20};
  while (true) {
    if (auto status = world_.iprobe(0, boost::mpi::any_tag)) {
      WorkerCommand command;
      if (status->tag() == kTagTask) {
        long long index = 0;
        world_.recv(0, kTagTask, index);
        command.kind = WorkerCommand::Kind::task;
        command.index = index;
      } else {
        int dummy = 0;
        world_.recv(0, status->tag(), dummy);
        command.kind = WorkerCommand::Kind::stop;
      }
      return command;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(sleep, deadline - now));
    sleep = std::min(sleep * 2, std::chrono::microseconds{1000});
  }
}

}  // namespace allocsim::sweep
