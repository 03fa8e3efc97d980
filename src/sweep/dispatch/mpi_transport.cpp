// Boost.MPI transport for the sweep dispatch: batched tasks and results.
#include "allocsim/sweep/dispatch/mpi_transport.hpp"

#include <cstring>
#include <stdexcept>
#include <thread>

#include <boost/mpi/communicator.hpp>

#include "allocsim/util/rng.hpp"

namespace allocsim::sweep {

namespace {
void put_u64(std::string& out, std::uint64_t v) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out.append(bytes, 8);
}
std::uint64_t get_u64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

/// Receives the whole message that `status` announces as bytes.
std::string receive_bytes(const boost::mpi::communicator& world, const boost::mpi::status& status) {
  std::string bytes(static_cast<std::size_t>(status.count<char>().value_or(0)), '\0');
  world.recv(status.source(), status.tag(), bytes.data(), static_cast<int>(bytes.size()));
  return bytes;
}

/// Drops the completed sends, oldest first, up to the first one still in progress: testing an
/// unfinished request runs Open MPI's progress engine, which polls every peer, so testing
/// them all cost the master O(workers) per test (a third of its time at 64 ranks).
void reap_sends(std::list<PendingSend>& pending) {
  while (!pending.empty() && pending.front().request.test()) pending.pop_front();
}
}  // namespace

void put_record(std::string& out, std::int64_t index, const std::string& bytes) {
  put_u64(out, static_cast<std::uint64_t>(index));
  put_u64(out, bytes.size());
  out += bytes;
}

bool get_record(const std::string& in, std::size_t& at, std::int64_t& index, std::string& bytes) {
  if (at == in.size()) return false;
  if (in.size() - at < 16) throw std::runtime_error("truncated batch message");
  index = static_cast<std::int64_t>(get_u64(in.data() + at));
  const std::uint64_t length = get_u64(in.data() + at + 8);
  at += 16;
  if (in.size() - at < length) throw std::runtime_error("truncated batch message");
  bytes.assign(in.data() + at, length);
  at += length;
  return true;
}

// ---- master ----

MpiTransport::MpiTransport(const boost::mpi::communicator& world)
    : world_(world), outgoing_(static_cast<std::size_t>(std::max(world.size() - 1, 0))) {}

MpiTransport::~MpiTransport() {
  // Every worker receives what it was sent before it says goodbye. Sends to an abandoned
  // worker may never complete: their buffers are left to the process's exit (which follows).
  reap();
  if (!pending_.empty()) new std::list<PendingSend>(std::move(pending_));
}

void MpiTransport::reap() {
  reap_sends(pending_);
}

void MpiTransport::send(int worker, const WorkerCommand& command) {
  if (command.kind == WorkerCommand::Kind::task) {
    std::string& out = outgoing_[static_cast<std::size_t>(worker)];
    if (!out.empty() && out.size() + 16 + command.payload.size() > kMessageBytes)
      flush_worker(worker);
    if (out.empty()) waiting_.push_back(worker);
    put_record(out, command.index, command.payload);
  } else {
    flush_worker(worker);  // its tasks first: one sender's messages arrive in order
    PendingSend& p = pending_.emplace_back();
    p.request = world_.isend(worker + 1, kTagStop, p.bytes.data(), 0);
  }
}

void MpiTransport::flush_worker(int worker) {
  std::string& out = outgoing_[static_cast<std::size_t>(worker)];
  if (out.empty()) return;
  PendingSend& p = pending_.emplace_back();
  p.bytes.swap(out);
  p.request = world_.isend(worker + 1, kTagTask, p.bytes.data(), static_cast<int>(p.bytes.size()));
}

void MpiTransport::flush() {
  for (const int w : waiting_) flush_worker(w);
  waiting_.clear();
  reap();
}

std::optional<WorkerEvent> MpiTransport::poll() {
  if (received_.empty()) {
    auto status = world_.iprobe(boost::mpi::any_source, boost::mpi::any_tag);
    if (!status) {
      reap();  // keeps sending() current
      return std::nullopt;
    }
    WorkerEvent event;
    event.worker = status->source() - 1;
    int dummy = 0;
    switch (status->tag()) {
      case kTagHello:
        world_.recv(status->source(), kTagHello, dummy);
        event.kind = WorkerEvent::Kind::hello;
        received_.push_back(std::move(event));
        break;
      case kTagResult: {
        buffer_ = receive_bytes(world_, *status);
        std::size_t at = 0;
        std::string bytes;
        std::int64_t checksum = 0;
        while (get_record(buffer_, at, checksum, bytes)) {
          WorkerEvent& result = received_.emplace_back();
          result.kind = WorkerEvent::Kind::result;
          result.worker = event.worker;
          result.outcome = decode_outcome_head(bytes);  // the store decodes the rest
          result.encoded = std::move(bytes);
          result.checksum = static_cast<std::uint64_t>(checksum);
        }
        break;
      }
      case kTagBye:
        world_.recv(status->source(), kTagBye, dummy);
        event.kind = WorkerEvent::Kind::bye;
        received_.push_back(std::move(event));
        break;
      default:
        throw std::runtime_error("unexpected MPI message tag " + std::to_string(status->tag()) +
                                 " from rank " + std::to_string(status->source()));
    }
    if (received_.empty()) return std::nullopt;
  }
  WorkerEvent event = std::move(received_.front());
  received_.pop_front();
  return event;
}

// ---- worker ----

MpiWorkerChannel::~MpiWorkerChannel() {
  drain();
}

void MpiWorkerChannel::reap() {
  reap_sends(pending_);
}

void MpiWorkerChannel::drain() {
  // The master keeps polling until every worker said goodbye, so these complete.
  while (!pending_.empty()) {
    reap();
    if (!pending_.empty()) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

void MpiWorkerChannel::flush() {
  if (batch_.empty()) return;
  PendingSend& p = pending_.emplace_back();
  p.bytes.swap(batch_);
  p.request = world_.isend(0, kTagResult, p.bytes.data(), static_cast<int>(p.bytes.size()));
  batch_results_ = 0;
  last_flush_ = std::chrono::steady_clock::now();
  reap();
}

void MpiWorkerChannel::send(const WorkerEvent& event) {
  switch (event.kind) {
    case WorkerEvent::Kind::hello:
      world_.send(0, kTagHello, 0);
      break;
    case WorkerEvent::Kind::result: {
      // Boost.Serialization's binary archive (Boost.MPI's packed archive calls MPI_Pack per
      // field), batched; the master journals these bytes as they are.
      // The journal's checksum of the bytes is computed here, off the master's path.
      const std::string bytes = encode_outcome(event.outcome);
      if (!batch_.empty() && batch_.size() + 16 + bytes.size() > kMessageBytes) flush();
      put_record(batch_, static_cast<std::int64_t>(stable_hash(bytes)), bytes);
      ++batch_results_;
      const auto now = std::chrono::steady_clock::now();
      const double since_flush = std::chrono::duration<double>(now - last_flush_).count();
      const double run = std::chrono::duration<double>(now - last_result_).count();
      last_result_ = now;
      // A long config ran: its result is worth sending at once (batching pays for short ones).
      if (since_flush >= kBatchSeconds || run >= kBatchSeconds || batch_results_ >= kBatchResults)
        flush();
      break;
    }
    case WorkerEvent::Kind::bye:
      flush();
      drain();
      world_.send(0, kTagBye, 0);
      break;
  }
}

std::optional<WorkerCommand> MpiWorkerChannel::receive(std::chrono::microseconds wait) {
  reap();
  const auto deadline = std::chrono::steady_clock::now() + wait;
  std::chrono::microseconds sleep{20};
  while (received_.empty()) {
    if (auto status = world_.iprobe(0, boost::mpi::any_tag)) {
      if (status->tag() == kTagTask) {
        const std::string bytes = receive_bytes(world_, *status);
        std::size_t at = 0;
        WorkerCommand command;
        while (get_record(bytes, at, command.index, command.payload)) received_.push_back(command);
      } else {
        char none = 0;
        world_.recv(0, status->tag(), &none, 0);
        received_.push_back({WorkerCommand::Kind::stop, 0, {}});
      }
      break;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return std::nullopt;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(sleep, deadline - now));
    sleep = std::min(sleep * 2, std::chrono::microseconds{1000});
  }
  if (received_.empty()) return std::nullopt;
  WorkerCommand command = std::move(received_.front());
  received_.pop_front();
  return command;
}

}  // namespace allocsim::sweep
