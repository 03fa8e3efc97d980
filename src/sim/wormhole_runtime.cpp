// The `wormhole` runtime model: jobs' messages through the message-level wormhole network
// (network/wormhole.hpp), after the GABL paper's simulator (Bani-Mohammad et al. §4.2,
// ProcSimity lineage). See network_runtime.hpp for the model and how its end times are found.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <unordered_map>

#include "allocsim/network/link_loads.hpp"
#include "allocsim/network/wormhole.hpp"
#include "allocsim/sim/job_mapping.hpp"
#include "allocsim/sim/network_runtime.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {

namespace {

/// The generator of a job's message counts (the one the model has always used).
Rng count_rng(std::uint64_t workload_seed, std::int64_t job_id) {
  return Rng(mix_seed(mix_seed(workload_seed, stable_hash("wormhole messages")),
                      static_cast<std::uint64_t>(job_id)));
}

/// A task's message count. num_mes is at most 1e6 (kWormholeNumMesRule), so even the
/// exponential's far tail (about 745 x the mean) fits an int; the clamp only makes that explicit.
int draw_count(const WormholeRuntimeParams& params, Rng& rng) {
  const double count = params.fixed_count   ? params.num_mes
                       : params.num_mes > 0 ? rng.exponential(params.num_mes)
                                            : 0.0;
  return static_cast<int>(std::llround(std::clamp(count, 0.0, 1e9)));
}

class WormholeRuntime final : public RuntimeModel {
 public:
  explicit WormholeRuntime(WormholeRuntimeParams params) : params_(params) {}

  /// The work is the trace runtime; the end is set by rerate() (set_end), never by the rate.
  double runtime(const Job& job, const Allocation&, const Topology&) const override {
    return job.runtime;
  }

  void rerate(RateContext& context, const RunningChange& change) override {
    const double now = network_time(context.now());
    if (!live_) {
      WormholeParams network{params_.plen, params_.ts, params_.stall_limit, false};
      live_ = std::make_unique<WormholeNetwork>(context.topology(), network);
      scratch_ = std::make_unique<WormholeNetwork>(context.topology(), network);
      live_->set_time_limit(context.time_limit());
      scratch_->set_time_limit(context.time_limit());
      snapshot_ = std::make_unique<WormholeNetwork>(*live_);
    }
    // The live network ran ahead to the predicted earliest end; a change before it (a start)
    // goes back to the snapshot taken at the previous change.
    if (now < speculated_until_) std::swap(live_, snapshot_);
    live_->run_until(now);
    live_->take_finished_tags();

    if (change.kind == RunningChange::Kind::ended) {
      for (int job : change.jobs) {
        live_->forget_tag(job);
        starts_.erase(job);
        alone_.erase(job);
      }
    } else {
      for (int job : change.jobs) add_messages(context, job, now);
    }
    *snapshot_ = *live_;

    // Speculate: run the network, with no new messages, until the earliest end is known.
    // Ends: last delivery (or start) + compute time, in network time units.
    const auto& jobs = context.jobs();
    double earliest = std::numeric_limits<double>::infinity();
    for (const RunningJob& r : context.running()) {
      const double end = known_end(r.job, jobs[r.job]);
      if (end >= 0) earliest = std::min(earliest, end);
    }
    for (double next = live_->next_event_time(); std::isfinite(next) && next <= earliest;
         next = live_->next_event_time()) {
      live_->run_until(next);
      for (int job : live_->take_finished_tags())
        earliest = std::min(earliest, known_end(job, jobs[job]));
    }
    speculated_until_ = earliest;

    for (const RunningJob& r : context.running()) {
      const double end = known_end(r.job, jobs[r.job]);
      // Unknown ends lie after `earliest`, when the model is asked again.
      // (A placeholder is not a network time: only a known end is checked for exactness.)
      const double target = end >= 0 ? seconds(end, jobs[r.job])
                                     : (earliest + 1 + std::abs(earliest)) * params_.cycle;
      context.set_end(r.job, std::max(context.now(), target));
    }
    const WormholeNetwork::Stats& stats = live_->stats();
    delivered_ = stats.delivered;
    failed_ = stats.failed;
    mean_latency_ = stats.mean_latency;
    mean_blocked_ = stats.mean_blocked;
  }

  /// Trace runtime + the job's messages' time alone on the reference compact allocation.
  double alone_runtime(int job_index, const Job& job) const override {
    const auto found = alone_.find(job_index);
    return found == alone_.end() ? job.runtime : found->second;
  }

  /// Not measured: its messages alone on its own allocation would take a third network run
  /// (the size guard counts two); the record's runtime_alone and interference stay 0.
  double own_alone_runtime(int, const Job&, double) const override { return -1; }

  void check_size(const Topology& topology, std::span<const Job> jobs) const override {
    topology.require_grid("runtime model 'wormhole'");  // before the size estimate's grid sums
    check_wormhole_size(params_, topology, jobs);
  }

  void summarize(RunSummary& summary) const override {
    summary.mean_message_latency = mean_latency_ * params_.cycle;
    summary.mean_message_blocking = mean_blocked_ * params_.cycle;
    summary.failed_messages = static_cast<double>(failed_);
  }

 private:
  /// Simulated seconds in network time units; refused past 2^53 units, where a time unit is
  /// no longer exact (every duration of the network is a whole number of units).
  double network_time(double seconds, const char* what = "simulated time") const {
    const double units = seconds / params_.cycle;
    if (!(units <= kExactUnits))
      throw InputError(std::string("runtime model 'wormhole': ") + what + " " +
                       number_text(seconds) + " s is " + number_text(units) +
                       " network time units at cycle=" + number_text(params_.cycle) +
                       ", past 2^53 where a time unit is no longer exact; choose a larger cycle");
    return units;
  }
  /// A network time (an end of `job`) in simulated seconds; refused when not finite.
  double seconds(double units, const Job& job) const {
    const double result = units * params_.cycle;
    if (!std::isfinite(result) || !(units <= kExactUnits))
      throw InputError(
          "runtime model 'wormhole': job " + std::to_string(job.id) + " would end at " +
          number_text(units) + " network time units (cycle=" + number_text(params_.cycle) +
          ", plen=" + std::to_string(params_.plen) + ", ts=" + std::to_string(params_.ts) +
          "), past 2^53 where a time unit is no longer exact; choose a larger cycle "
          "or a shorter trace");
    return result;
  }
  static constexpr double kExactUnits = 9007199254740992.0;  // 2^53

  /// The job's end in network time if its messages are all finished, else −1.
  double known_end(int job, const Job& record) const {
    const double compute = network_time(std::max(0.0, record.runtime), "a job's runtime");
    if (live_->outstanding(job) > 0) return -1;
    const double last = live_->last_finish(job);
    return (last >= 0 ? last : starts_.at(job)) + compute;
  }

  /// The job's messages, released at its start: each task sends round(Exp(num_mes)) packets
  /// (drawn from the workload seed and the job id), the j-th to its (j mod degree)-th
  /// neighbour in the pattern, or without a pattern to a uniformly drawn other task
  /// (wormhole_all_to_all_messages). Messages between tasks on one node do not enter the
  /// network. The same messages, task i on node i of the reference compact allocation
  /// (network/link_loads.hpp), run alone in a scratch network give the job's alone-compact
  /// runtime (comm_slowdown's denominator).
  void add_messages(const RateContext& context, int job_index, double now) {
    starts_[job_index] = now;
    const Job& job = context.jobs()[job_index];
    const JobTraffic* traffic = context.traffic(job_index);
    std::span<const NodeId> placement;
    if (traffic) {
      placement = traffic->placement;
    } else {
      const auto found = std::find_if(context.running().begin(), context.running().end(),
                                      [&](const RunningJob& r) { return r.job == job_index; });
      placement = task_nodes(job, found->allocation);
    }
    const auto tasks = static_cast<int>(placement.size());
    if (tasks < 2) {
      alone_[job_index] = job.runtime;
      return;
    }
    const std::vector<TaskMessage> messages =
        traffic ? pattern_messages(*traffic, context.workload_seed(), job.id, tasks)
                : wormhole_all_to_all_messages(params_, context.workload_seed(), job.id, tasks);
    const std::vector<NodeId> compact = reference_compact_nodes(context.topology(), tasks);
    const double scratch_start = scratch_->now();
    for (const TaskMessage& m : messages) {
      if (placement[m.from] != placement[m.to])
        live_->add_message(placement[m.from], placement[m.to], now, job_index);
      scratch_->add_message(compact[m.from], compact[m.to], scratch_start, 0);
    }
    scratch_->run();
    const double alone_comm = std::max(0.0, scratch_->last_finish(0) - scratch_start);
    scratch_->forget_tag(0);
    scratch_->take_finished_tags();
    alone_[job_index] = std::max(0.0, job.runtime) + alone_comm * params_.cycle;
  }

  /// With a pattern: task i's j-th message to its (j mod degree)-th neighbour; the counts as
  /// in wormhole_all_to_all_messages.
  std::vector<TaskMessage> pattern_messages(const JobTraffic& traffic, std::uint64_t seed,
                                            std::int64_t job_id, int tasks) const {
    Rng counts = count_rng(seed, job_id);
    std::vector<TaskMessage> messages;
    for (int task = 0; task < tasks; ++task) {
      const int count = draw_count(params_, counts);
      const auto neighbours = traffic.graph->neighbours(task);
      if (neighbours.empty()) continue;
      for (int j = 0; j < count; ++j)
        messages.push_back({task, static_cast<int>(neighbours[j % neighbours.size()])});
    }
    return messages;
  }

  WormholeRuntimeParams params_;
  /// The network as of the last change plus a speculative run to the earliest end (live), and
  /// as of the last change (snapshot); both built on the first call, for the run's machine.
  std::unique_ptr<WormholeNetwork> live_, snapshot_;
  std::unique_ptr<WormholeNetwork> scratch_;  ///< a job alone on its reference allocation
  std::unordered_map<int, double> alone_;     ///< running jobs' alone-compact runtimes
  double speculated_until_ = -1;
  std::unordered_map<int, double> starts_;  ///< running jobs' starts, network time
  std::int64_t delivered_ = 0, failed_ = 0;
  double mean_latency_ = 0, mean_blocked_ = 0;
};

}  // namespace

// GABL §4.2: "In all-to-all communication pattern, each processor allocated to a job sends a
// packet to all other processors allocated to the same job. The number of messages that are
// actually sent is exponentially distributed with a mean num-mes." The pattern fixes who may
// receive (every other processor of the job), the count how many packets a processor actually
// sends (mean 5, against 71 other processors for the mean job of 72): each packet goes to one
// of the others drawn uniformly, so no processor of the job is favoured, as none is in the
// pattern. Whole rounds (k − 1 packets each) cannot be meant: a mean of 5 messages is less
// than one round for every job of more than 6 processors.
std::vector<TaskMessage> wormhole_all_to_all_messages(const WormholeRuntimeParams& params,
                                                      std::uint64_t workload_seed,
                                                      std::int64_t job_id, int tasks) {
  std::vector<TaskMessage> messages;
  if (tasks < 2) return messages;
  Rng counts = count_rng(workload_seed, job_id);
  Rng destinations(mix_seed(mix_seed(workload_seed, stable_hash("wormhole destinations")),
                            static_cast<std::uint64_t>(job_id)));
  for (int task = 0; task < tasks; ++task) {
    const int count = draw_count(params, counts);
    for (int j = 0; j < count; ++j) {
      int to = 0;
      if (params.destinations == AllToAllDestinations::ring) {
        to = (task + 1 + j % (tasks - 1)) % tasks;
      } else {
        to = static_cast<int>(destinations.uniform_int(0, tasks - 2));
        if (to >= task) ++to;  // the others: 0..k−1 without `task`
      }
      messages.push_back({task, to});
    }
  }
  return messages;
}

std::unique_ptr<RuntimeModel> make_wormhole_runtime(WormholeRuntimeParams params) {
  const std::string model = "runtime model 'wormhole': parameter ";
  require_number(params.plen, kWormholePlenRule, model + "'plen'");
  require_number(params.ts, kWormholeTsRule, model + "'ts'");
  require_number(params.num_mes, kWormholeNumMesRule, model + "'num_mes'");
  require_number(params.cycle, kWormholeCycleRule, model + "'cycle'");
  require_number(params.stall_limit, kWormholeStallRule, model + "'stall'");
  // In double: ts + 1 cannot overflow.
  if (!(params.stall_limit > static_cast<double>(params.ts) + 1))
    throw InputError(
        model + "'stall' is " + number_text(params.stall_limit) +
        ", expected more than ts + 1 = " + number_text(static_cast<double>(params.ts) + 1));
  return std::make_unique<WormholeRuntime>(params);
}

WormholeCost wormhole_cost(const WormholeRuntimeParams& params, const Topology& topology,
                           std::span<const Job> jobs) {
  double hops = 1;  // flat (and graphs, refused by the model): one hop in, one out
  if (topology.has_coordinates()) {
    hops = 0;
    for (int axis = 0; axis < topology.dims(); ++axis)
      hops += topology.side(axis) / (topology.wraps(axis) ? 4.0 : 3.0);
    hops = std::max(hops, 1.0);
  }
  const double per_task = params.fixed_count ? std::round(params.num_mes) : params.num_mes;
  const double nodes = topology.node_count();
  double tasks = 0;
  for (const Job& job : jobs) tasks += std::min(std::max(0.0, double(job.procs)), nodes);
  WormholeCost cost;
  cost.messages_in_flight = std::min(tasks, nodes) * per_task;
  cost.bytes = cost.messages_in_flight * (kWormholeBytesPerMessage + kWormholeBytesPerHop * hops);
  // Live network and alone-compact scratch: a request and a shift per hop, plen − 1 more
  // shifts to drain, one release.
  cost.events = 2 * tasks * per_task * (2 * hops + params.plen);
  return cost;
}

void check_wormhole_size(const WormholeRuntimeParams& params, const Topology& topology,
                         std::span<const Job> jobs) {
  if (params.allow_large) return;
  const WormholeCost cost = wormhole_cost(params, topology, jobs);
  if (cost.bytes <= kMaxWormholeBytes && cost.events <= kMaxWormholeEvents) return;
  const double hours = cost.events / kWormholeEventsPerSecond / 3600;
  char text[256];
  std::snprintf(text, sizeof text,
                "about %.3g messages in flight would take about %.3g MB of memory, and the run "
                "about %.3g network events (about %.3g %s at ~%.0g events/s)",
                cost.messages_in_flight, cost.bytes / 1e6, cost.events,
                hours < 1 ? hours * 60 : hours, hours < 1 ? "minutes" : "hours",
                kWormholeEventsPerSecond);
  throw InputError("runtime model 'wormhole' with plen=" + std::to_string(params.plen) +
                   ", num_mes=" + number_text(params.num_mes) + " on " +
                   std::to_string(topology.node_count()) + " nodes and " +
                   std::to_string(jobs.size()) + " jobs: " + text +
                   "; runs over 4 GB or 1e9 events need the parameter allow_large=1 (e.g. "
                   "wormhole:plen=" +
                   std::to_string(params.plen) + ",allow_large=1; bound them with --timeout)");
}

}  // namespace allocsim
