// Boost.MPI transport for the sweep dispatch.
#include "allocsim/sweep/dispatch/mpi_transport.hpp"

#include <thread>

#include <boost/mpi/communicator.hpp>

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
    case kTagResult: {
      // One contiguous message of the outcome's binary encoding (see MpiWorkerChannel::send).
      std::string bytes(static_cast<std::size_t>(status->count<char>().value_or(0)), '\0');
      world_.recv(status->source(), kTagResult, bytes.data(), static_cast<int>(bytes.size()));
      event.outcome = decode_outcome(bytes);
      event.kind = WorkerEvent::Kind::result;
      break;
    }
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

MpiWorkerChannel::~MpiWorkerChannel() {
  drain();
}

void MpiWorkerChannel::reap() {
  while (!pending_.empty() && pending_.front().request.test()) pending_.pop_front();
}

void MpiWorkerChannel::drain() {
  // The master keeps polling until every worker said goodbye, so these complete.
  while (!pending_.empty()) {
    reap();
    if (!pending_.empty()) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

void MpiWorkerChannel::send(const WorkerEvent& event) {
  switch (event.kind) {
    case WorkerEvent::Kind::hello:
      world_.send(0, kTagHello, 0);
      break;
    case WorkerEvent::Kind::result: {
      // Boost.Serialization's binary archive as one byte message (Boost.MPI's packed archive
      // calls MPI_Pack per field), sent without waiting for the master to take it.
      Pending& p = pending_.emplace_back();
      p.bytes = encode_outcome(event.outcome);
      p.request = world_.isend(0, kTagResult, p.bytes.data(), static_cast<int>(p.bytes.size()));
      reap();
      break;
    }
    case WorkerEvent::Kind::bye:
      drain();
      world_.send(0, kTagBye, 0);
      break;
  }
}

std::optional<WorkerCommand> MpiWorkerChannel::receive(std::chrono::microseconds wait) {
  reap();
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
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(sleep, deadline - now));
    sleep = std::min(sleep * 2, std::chrono::microseconds{1000});
  }
}

}  // namespace allocsim::sweep
