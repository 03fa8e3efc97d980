// The event loop and machine state of one simulation; see sim/simulation.hpp for the event
// order and how running jobs' ends move when a runtime model re-rates them.
#include "allocsim/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "allocsim/metrics/job_metrics.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/decisions.hpp"
#include "allocsim/sim/job_mapping.hpp"
#include "allocsim/sim/job_recorder.hpp"
#include "allocsim/sim/timeline.hpp"
#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/reader.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

Topology machine_topology(const RunConfig& config) {
  check_machine_size(config.machine);
  return Topology::parse(config.machine);
}

Simulation::Simulation(const RunConfig& config, Workload workload)
    : Simulation(config, std::move(workload), machine_topology(config)) {}

Simulation::Simulation(const RunConfig& config, Workload workload, Topology machine)
    : config_(config),
      workload_(std::move(workload)),
      topology_(std::move(machine)),
      rng_(config.seed) {
  allocator_ = make_allocator(config.alloc, topology_);
  {
    auto [entry, params] = scheduler_registry().resolve(config.sched);
    scheduler_ = entry->factory(params);
  }
  {
    auto [entry, params] = runtime_model_registry().resolve(config.runtime_model);
    runtime_model_ = entry->factory(params);
  }

  const int nodes = topology_.node_count();
  const std::string warning = machine_size_warning(workload_, nodes, config.machine);
  if (!warning.empty()) workload_.diagnostics.notes.push_back(warning);
  drop_oversized(workload_, nodes);
  std::erase_if(workload_.jobs, [&](const Job& job) {
    if (allocator_->nodes_needed(job) <= nodes) return false;
    workload_.diagnostics.count("allocator needs more nodes than the machine has (dropped)",
                                job.line);
    return true;
  });
  // Arrivals at equal times are taken in job id order.
  std::stable_sort(workload_.jobs.begin(), workload_.jobs.end(), [](const Job& a, const Job& b) {
    return a.submit < b.submit || (a.submit == b.submit && a.id < b.id);
  });
  busy_.assign(nodes, 0);
  free_count_ = nodes;
  progress_.resize(workload_.jobs.size());
  fragmentation_seen_.assign(workload_.jobs.size(), 0);

  job_recorder_ =
      std::make_unique<JobRecorder>(topology_, allocator_->linear_ranks(), workload_.jobs.size(),
                                    config.bsd_threshold, config.keep_jobs);
  job_recorder_->set_runtime_model(runtime_model_.get());
  add_observer(job_recorder_.get());
  if (!config.pattern.empty()) {
    // After the job recorder: it fills a record's other fields at start.
    job_mapping_ = std::make_unique<JobMappingObserver>(topology_, config.pattern, config.mapper,
                                                        config.seed, *job_recorder_, this);
    add_observer(job_mapping_.get());
  }
  if (!config.decisions.empty()) {
    decision_recorder_ = std::make_unique<DecisionRecorder>(
        config.decisions, topology_, mix_seed(config.seed, stable_hash("decisions")));
    add_observer(decision_recorder_.get());
  }
  if (config.keep_timeline) {
    timeline_recorder_ = std::make_unique<TimelineRecorder>(nodes);
    add_observer(timeline_recorder_.get());
  }
}

Simulation::~Simulation() = default;

std::optional<Allocation> Simulation::try_allocate(int job_index) {
  const Job& job = workload_.jobs[job_index];
  if (free_count_ < allocator_->nodes_needed(job)) return std::nullopt;
  auto allocation = allocator_->allocate(job, view());
  if (!allocation) count_fragmentation(job_index);
  return allocation;
}

void Simulation::note_refusal(int job_index) {
  if (free_count_ >= allocator_->nodes_needed(workload_.jobs[job_index]))
    count_fragmentation(job_index);
}

void Simulation::count_fragmentation(int job_index) {
  if (fragmentation_seen_[job_index]) return;
  fragmentation_seen_[job_index] = 1;  // enough nodes free, but not in the required shape
  ++external_fragmentation_;
}

void Simulation::request_pass(double time) {
  if (time > now_ && std::isfinite(time)) wake_ups_.push(time);
}

void Simulation::start(int job_index, Allocation allocation) {
  const Job& job = workload_.jobs[job_index];
  for (auto* observer : observers_) observer->before_commit(job, view(), allocation);
  for (NodeId node : allocation.nodes) {
    if (busy_[node])
      throw std::logic_error("allocator handed out busy node " + std::to_string(node));
    busy_[node] = 1;
  }
  free_count_ -= static_cast<int>(allocation.nodes.size());
  allocator_->commit(allocation);
  waiting_.erase(std::find(waiting_.begin(), waiting_.end(), job_index));

  // Work at rate 1: the job ends at exactly now + runtime unless a model re-rates it.
  Progress& progress = progress_[job_index];
  progress.remaining = runtime_model_->runtime(job, allocation, topology_);
  if (!(progress.remaining >= 0) || !std::isfinite(now_ + progress.remaining))
    throw_bad_time(job_index, "a running time of " + number_text(progress.remaining));
  progress.rate = 1;
  progress.since = now_;
  progress.end = now_ + progress.remaining;
  const double limit = scheduler_->time_limit(job);
  progress.limit_end = limit >= 0 ? now_ + limit : INFINITY;
  progress.running = true;
  push_completion(job_index);

  RunningJob running;
  running.job = job_index;
  running.start = now_;
  running.estimated_end = now_ + job.estimate;
  running.allocation = std::move(allocation);
  running_.push_back(std::move(running));
  const double work = progress.remaining;
  for (auto* observer : observers_)
    observer->on_start(job_index, job, now_, running_.back().allocation);
  job_recorder_->set_start_work(job_index, work);
  const int started[] = {job_index};
  runtime_model_->rerate(*this, RunningChange{RunningChange::Kind::started, started});
}

const JobTraffic* Simulation::traffic(int job_index) const {
  return job_mapping_ ? job_mapping_->traffic(job_index) : nullptr;
}

double Simulation::remaining_work(int job_index) const {
  const Progress& progress = progress_[job_index];
  return std::max(0.0, progress.remaining - (now_ - progress.since) * progress.rate);
}

void Simulation::set_rate(int job_index, double rate) {
  Progress& progress = progress_[job_index];
  if (!progress.running)
    throw std::logic_error("runtime model set a rate for job " +
                           std::to_string(workload_.jobs[job_index].id) + ", which is not running");
  if (rate == progress.rate) return;  // the end event stays exactly where it is
  const double remaining = remaining_work(job_index);
  const double end = now_ + remaining / rate;
  if (!(rate > 0) || !std::isfinite(rate) || !std::isfinite(end))
    throw_bad_time(job_index,
                   "a rate of " + number_text(rate) + " (end at " + number_text(end) + ")");
  progress.remaining = remaining;
  progress.since = now_;
  progress.rate = rate;
  progress.end = end;
  ++progress.version;
  push_completion(job_index);
}

void Simulation::set_scheduler(std::unique_ptr<Scheduler> scheduler) {
  scheduler_ = std::move(scheduler);
}

void Simulation::set_allocator(std::unique_ptr<Allocator> allocator) {
  allocator_ = std::move(allocator);
}

void Simulation::set_runtime_model(std::unique_ptr<RuntimeModel> model) {
  runtime_model_ = std::move(model);
  job_recorder_->set_runtime_model(runtime_model_.get());
}

void Simulation::set_end(int job_index, double end) {
  Progress& progress = progress_[job_index];
  if (!progress.running || !(end >= now_))
    throw std::logic_error("runtime model set end " + std::to_string(end) + " for job " +
                           std::to_string(workload_.jobs[job_index].id) + " at " +
                           std::to_string(now_));
  if (!std::isfinite(end)) throw_bad_time(job_index, "an end at " + number_text(end));
  if (end == progress.end) return;
  progress.remaining = remaining_work(job_index);
  progress.since = now_;
  progress.rate = end > now_ && progress.remaining > 0 ? progress.remaining / (end - now_) : 1;
  progress.end = end;
  ++progress.version;
  push_completion(job_index);
}

void Simulation::throw_bad_time(int job_index, const std::string& what) const {
  throw InputError("runtime model '" + config_.runtime_model + "' gave job " +
                   std::to_string(workload_.jobs[job_index].id) + " " + what + " at time " +
                   number_text(now_) +
                   ", not a finite time: its parameters are outside the range where its times "
                   "are defined (allocsim list runtime-models)");
}

void Simulation::push_completion(int job_index) {
  const Progress& progress = progress_[job_index];
  completions_.emplace(std::min(progress.end, progress.limit_end), workload_.jobs[job_index].id,
                       job_index, progress.version);
}

bool Simulation::has_completion() {
  while (!completions_.empty()) {
    const Completion& top = completions_.top();
    if (std::get<3>(top) == progress_[std::get<2>(top)].version) return true;
    completions_.pop();
  }
  return false;
}

void Simulation::finish(int job_index) {
  auto found = std::find_if(running_.begin(), running_.end(),
                            [&](const RunningJob& r) { return r.job == job_index; });
  Allocation& allocation = found->allocation;
  const Job& job = workload_.jobs[job_index];
  const bool killed = progress_[job_index].limit_end == now_ && progress_[job_index].end > now_;
  if (killed)
    workload_.diagnostics.count("job still running at its time limit, ended there (killed)",
                                job.line);
  for (auto* observer : observers_) observer->on_finish(job_index, job, now_, allocation);
  if (killed) job_recorder_->record(job_index).killed = true;
  for (NodeId node : allocation.nodes) busy_[node] = 0;
  free_count_ += static_cast<int>(allocation.nodes.size());
  allocator_->release(allocation);
  for (auto* observer : observers_) observer->after_release(allocation);
  *found = std::move(running_.back());
  running_.pop_back();
  ++progress_[job_index].version;  // no event of a finished job is valid any more
  progress_[job_index].running = false;
}

void Simulation::complete_jobs_ending_now() {
  for (;;) {
    while (has_completion() && std::get<0>(completions_.top()) == now_) {
      const int job_index = std::get<2>(completions_.top());
      completions_.pop();
      finish(job_index);
      ended_.push_back(job_index);
      check_time_limit();
    }
    if (ended_.empty()) return;
    runtime_model_->rerate(*this, RunningChange{RunningChange::Kind::ended, ended_});
    ended_.clear();
  }
}

void Simulation::check_time_limit() const {
  if (config_.timeout_seconds <= 0) return;
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started_;
  if (elapsed.count() > config_.timeout_seconds)
    throw TimeoutError("simulation exceeded its timeout of " +
                       std::to_string(config_.timeout_seconds) + " s at simulated time " +
                       std::to_string(now_));
}

RunResult Simulation::run() {
  // The model's size guard, before any memory is taken (e.g. wormhole's messages).
  runtime_model_->check_size(topology_, workload_.jobs);
  started_ = std::chrono::steady_clock::now();
  const auto& jobs = workload_.jobs;
  std::size_t next_arrival = 0;
  std::vector<std::int64_t> unplaceable_lines;
  while (next_arrival < jobs.size() || has_completion() || !wake_ups_.empty()) {
    const double arrival_time = next_arrival < jobs.size() ? jobs[next_arrival].submit : INFINITY;
    const double completion_time = has_completion() ? std::get<0>(completions_.top()) : INFINITY;
    const double wake_up_time = wake_ups_.empty() ? INFINITY : wake_ups_.top();
    now_ = std::min({arrival_time, completion_time, wake_up_time});
    while (!wake_ups_.empty() && !(wake_ups_.top() > now_)) wake_ups_.pop();
    complete_jobs_ending_now();
    while (next_arrival < jobs.size() && jobs[next_arrival].submit == now_) {
      // A time-dependent allocator (Slurm's --switches wait) may accept the job later on an
      // unchanged machine: a scheduling pass then.
      if (const std::optional<double> wake = allocator_->wake_up(jobs[next_arrival]);
          wake && *wake > now_)
        wake_ups_.push(*wake);
      waiting_.push_back(static_cast<int>(next_arrival));
      for (auto* observer : observers_)
        observer->on_submit(static_cast<int>(next_arrival), jobs[next_arrival], now_);
      ++next_arrival;
    }
    scheduler_->schedule(*this);
    // On an idle machine, a waiting job that the allocator cannot place can never run (unless
    // the allocator's answer changes with the time: its wake-up is still ahead).
    if (running_.empty() && !waiting_.empty()) {
      std::vector<int> stuck;
      for (int job_index : waiting_) {
        check_time_limit();
        if (allocator_->allocate(jobs[job_index], view())) continue;
        const std::optional<double> wake = allocator_->wake_up(jobs[job_index]);
        if (!(wake && *wake > now_)) stuck.push_back(job_index);
      }
      for (int job_index : stuck) {
        waiting_.erase(std::find(waiting_.begin(), waiting_.end(), job_index));
        unplaceable_lines.push_back(jobs[job_index].line);
        for (auto* observer : observers_) observer->on_drop(job_index, now_);
      }
      scheduler_->schedule(*this);
      if (running_.empty() && !waiting_.empty() && next_arrival >= jobs.size() && wake_ups_.empty())
        throw std::logic_error("scheduler left placeable jobs waiting on an idle machine");
    }
    check_time_limit();  // a clock read per event: cheap next to a scheduling pass
  }
  for (const std::int64_t line : unplaceable_lines)
    workload_.diagnostics.count("allocator cannot place the job even on an empty machine (dropped)",
                                line);
  return summarize();
}

RunResult Simulation::summarize() {
  RunResult result;
  std::vector<JobRecord> records = job_recorder_->take_records();
  const int nodes = topology_.node_count();
  result.summary = summarize_records(records, nodes,
                                     records.empty() ? 0.0 : offered_load(workload_.jobs, nodes));
  result.summary.external_fragmentation = static_cast<double>(external_fragmentation_);
  result.summary.allocator_fallbacks = static_cast<double>(allocator_->fallbacks());
  runtime_model_->summarize(result.summary);
  if (decision_recorder_) result.decisions = decision_recorder_->rows();
  if (config_.keep_jobs) result.jobs = std::move(records);
  if (timeline_recorder_) result.timeline = timeline_recorder_->take_rows();
  result.diagnostics = workload_.diagnostics;
  if (job_mapping_) result.mapping_seconds = job_mapping_->seconds();
  return result;
}

// ---- Whole-run helpers ----

Workload synthetic_workload(const RunConfig& config, const SyntheticSpec& spec) {
  Rng rng(mix_seed(config.workload_seed, stable_hash("synthetic")));
  return spec.generate(rng);
}

Workload load_workload(const RunConfig& config, const std::string& trace_dir) {
  if (is_synthetic_trace(config.trace))
    return synthetic_workload(config, SyntheticSpec(config.trace));
  ReadOptions options;
  options.strict = config.strict;
  options.estimate_factor = config.estimate_factor;
  return read_trace(resolve_trace_path(config.trace, trace_dir), options);
}

namespace {
Workload transformed(const RunConfig& config, const Workload& base, int nodes) {
  Workload workload = base;
  if (config.transforms.empty()) return workload;  // nothing draws from the generator
  Rng rng(mix_seed(config.workload_seed, stable_hash("transforms")));
  TransformContext context{nodes, &rng};
  for (const auto& spec : config.transforms) apply_transform(workload, spec, context);
  return workload;
}
}  // namespace

Workload transform_workload(const RunConfig& config, const Workload& base) {
  return transformed(config, base, machine_topology(config).node_count());
}

RunResult simulate(const RunConfig& config, const Workload& base) {
  return simulate(config, base, machine_topology(config));
}

RunResult simulate(const RunConfig& config, const Workload& base, const Topology& machine) {
  Simulation simulation(config, transformed(config, base, machine.node_count()), machine);
  return simulation.run();
}

RunResult simulate(const RunConfig& config, const std::string& trace_dir) {
  return simulate(config, load_workload(config, trace_dir));
}

}  // namespace allocsim
