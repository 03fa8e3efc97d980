// `allocsim sweep`: validation, master/worker run, crash-safe storage.
#include "allocsim/sweep/dispatch/sweep.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include <mpi.h>

#include <boost/serialization/string.hpp>

#include "allocsim/sweep/dispatch/dispatch.hpp"
#include "allocsim/sweep/dispatch/mpi_transport.hpp"
#include "allocsim/sweep/dispatch/progress.hpp"
#include "allocsim/sweep/experiment/validate.hpp"
#include "allocsim/sweep/store/provenance.hpp"

#ifndef ALLOCSIM_VERSION
#define ALLOCSIM_VERSION "unknown"
#endif

namespace allocsim::sweep {

namespace {

/// Everything the master knows before dispatching.
struct Prepared {
  Experiment experiment;
  Expansion expansion;
  Validation validation;
  std::vector<std::int64_t> members;  ///< indices of this shard, in index order
  int shard_k = 0, shard_n = 0;
};

/// Reads, expands and validates; throws ExperimentError listing every problem.
Prepared prepare(const SweepOptions& options) {
  Prepared p;
  p.experiment = read_experiment(options.experiment_path);
  check_experiment_size(p.experiment, options.allow_large);
  p.expansion = expand(p.experiment);
  p.validation = validate(p.experiment, p.expansion, options.trace_dir);
  std::vector<Problem> problems = p.validation.problems;
  if (!options.shard.empty()) {
    try {
      std::tie(p.shard_k, p.shard_n) = parse_shard(options.shard);
    } catch (const InputError& error) {
      problems.push_back({"--shard", error.what()});
    }
  }
  if (!problems.empty()) throw ExperimentError(std::move(problems));
  for (const auto& entry : p.expansion.configs)
    if (p.shard_n == 0 || in_shard(entry.id, p.shard_k, p.shard_n))
      p.members.push_back(entry.index);
  return p;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string host_name() {
  char buffer[256] = {};
  gethostname(buffer, sizeof buffer - 1);
  return buffer;
}

/// The MPI library's version line, e.g. "Open MPI v4.1.4, package: ..." (its first line).
std::string mpi_library_version() {
  char buffer[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  if (MPI_Get_library_version(buffer, &length) != MPI_SUCCESS) return "unknown";
  std::string text(buffer, static_cast<std::size_t>(length));
  const auto end = text.find_first_of(",\n");
  return text.substr(0, end);
}

/// True when the parent process (mpirun or its daemon) has a terminal as stdout or stderr:
/// mpirun gives every rank a pseudo-terminal as stdout, even when its own output is a file.
bool parent_writes_to_terminal() {
  for (const char* fd : {"1", "2"}) {
    std::error_code ec;
    const auto target =
        std::filesystem::read_symlink("/proc/" + std::to_string(getppid()) + "/fd/" + fd, ec);
    const std::string name = target.string();
    if (!ec && (name.rfind("/dev/pts/", 0) == 0 || name.rfind("/dev/tty", 0) == 0)) return true;
  }
  return false;
}

/// CPU seconds of this process (MPI: includes Open MPI's threads) or of the calling thread.
double cpu_seconds(bool thread_only) {
  if (thread_only) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + 1e-6 * static_cast<double>(tv.tv_usec);
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void print_problems(const ExperimentError& error, std::ostream& err) {
  err << error.problems().size() << (error.problems().size() == 1 ? " problem" : " problems")
      << "; the sweep does not start:\n";
  for (const auto& p : error.problems()) err << "  " << p.where << ": " << p.message << "\n";
}

/// "rerun with --resume: COMMAND" — this process's command line with --resume (and without
/// --overwrite, which would start again), or the bare advice when the command line is unknown.
std::string resume_command(const SweepOptions& options, int ranks) {
  if (options.command_line.empty()) return "rerun the same command with --resume";
  // Split the shell-quoted command line (cli's record_command_line) into its words.
  std::vector<std::string> words(1);
  bool quoted = false;
  for (std::size_t i = 0; i < options.command_line.size(); ++i) {
    const char c = options.command_line[i];
    if (!quoted && c == ' ') {
      words.emplace_back();
      continue;
    }
    words.back() += c;
    if (c == '\'') {
      quoted = !quoted;
    } else if (!quoted && c == '\\' && i + 1 < options.command_line.size()) {
      words.back() += options.command_line[++i];
    }
  }
  std::string command;
  bool has_resume = false;
  for (const std::string& word : words) {
    if (word.empty() || word == "--overwrite") continue;  // --overwrite would start again
    has_resume = has_resume || word == "--resume";
    command += (command.empty() ? "" : " ") + word;
  }
  if (!has_resume) command += " --resume";
  return "rerun with --resume: " + command +
         (ranks > 1
              ? " (under the same MPI launcher, e.g. mpirun -np " + std::to_string(ranks) + ")"
              : "");
}

std::string output_path(const SweepOptions& options, const Experiment& experiment) {
  return options.output.empty() ? experiment.name + ".h5" : options.output;
}

ConfigRunner make_runner(const SweepOptions& options, const std::vector<ConfigEntry>& configs,
                         const std::string& base_dir, const std::string& trace_dir) {
  return ConfigRunner(configs, base_dir, trace_dir, options.load ? options.load : core_load(),
                      options.simulate ? options.simulate : core_simulate());
}

/// What workers need from the master before the first task: whether to run at all, and where
/// relative trace paths and trace NAMEs are found.
struct StartMessage {
  bool ok = false;
  std::string base_dir, trace_dir;
  template <class Archive>
  void serialize(Archive& archive, const unsigned /*version*/) {
    archive& ok& base_dir& trace_dir;
  }
};

/// A task's payload: the config id and its RunConfig (encode_config); workers need nothing else.
std::string task_payload(const ConfigEntry& entry) {
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i)
    bytes[static_cast<std::size_t>(i)] = static_cast<char>(entry.id >> (8 * i));
  return bytes + encode_config(entry.config);
}

/// The config id at the head of a task payload.
std::uint64_t payload_id(const std::string& payload) {
  std::uint64_t id = 0;
  for (int i = std::min<int>(8, static_cast<int>(payload.size())) - 1; i >= 0; --i)
    id = (id << 8) | static_cast<unsigned char>(payload[static_cast<std::size_t>(i)]);
  return id;
}

/// Worker ranks: run the configs the master sends (each task carries its config; a worker
/// never reads or expands the experiment, and keeps only its trace cache).
int run_worker(const SweepOptions& options, const boost::mpi::communicator& world) {
  // Wait for the master's start message polling and sleeping: a blocking MPI call spins a core
  // that the master needs while it expands and checks the experiment.
  std::chrono::microseconds sleep{100};
  while (!world.iprobe(0, kTagStart)) {
    std::this_thread::sleep_for(sleep);
    sleep = std::min(sleep * 2, std::chrono::microseconds{10000});
  }
  StartMessage start;
  world.recv(0, kTagStart, start);
  if (!start.ok) return kExitOk;
  const std::string& base_dir = start.base_dir;
  const std::string& trace_dir = start.trace_dir;
  const std::vector<ConfigEntry> none;
  ConfigRunner runner = make_runner(options, none, base_dir, trace_dir);
  MpiWorkerChannel channel(world);
  const int rank = world.rank();
  worker_loop(
      channel,
      [&](const WorkerCommand& command) {
        const std::uint64_t id = payload_id(command.payload);
        if (options.synthetic_results) return synthetic_outcome(id, command.index, rank);
        ConfigEntry entry;
        entry.index = command.index;
        entry.id = id;
        try {
          entry.config = decode_config(command.payload.substr(8));
        } catch (const std::exception& error) {
          ConfigOutcome failed;
          failed.config_id = id;
          failed.index = command.index;
          failed.status = ConfigStatus::failed;
          failed.rank = rank;
          failed.error = std::string("worker could not decode its task: ") + error.what();
          return failed;
        }
        return runner.run(entry, rank);
      },
      rank - 1);
  return kExitOk;
}

}  // namespace

std::string resume_advice(const SweepOptions& options, int ranks) {
  return resume_command(options, ranks);
}

int dry_run_sweep(const SweepOptions& options, std::ostream& out, std::ostream& err) {
  // Streams the configs through the validator: memory holds the ids and the per-config
  // estimates (about 60 bytes a config), never the configs.
  Experiment experiment;
  Expansion header;
  std::optional<ConfigValidator> validator;
  std::vector<Problem> problems;
  int shard_k = 0, shard_n = 0;
  std::int64_t in_this_shard = 0;
  if (!options.shard.empty()) {
    try {
      std::tie(shard_k, shard_n) = parse_shard(options.shard);
    } catch (const InputError& error) {
      problems.push_back({"--shard", error.what()});
    }
  }
  try {
    experiment = read_experiment(options.experiment_path);
    check_experiment_size(experiment, options.allow_large);
    validator.emplace(experiment, options.trace_dir);
    expand_each(experiment, header, [&](ConfigEntry&& entry) {
      validator->check(entry);
      if (shard_n > 0) in_this_shard += in_shard(entry.id, shard_k, shard_n);
    });
  } catch (const ExperimentError& error) {
    print_problems(error, err);
    return kExitBadInput;
  } catch (const std::exception& error) {
    err << "error: " << error.what() << "\n";
    return kExitBadInput;
  }
  const Validation validation = validator->finish(header.problems);
  out << "experiment '" << experiment.name << "' (" << options.experiment_path << "), seed "
      << experiment.seed << ", " << experiment.replicates << " replicate"
      << (experiment.replicates == 1 ? "" : "s") << "\n"
      << validation.summary(header);
  if (shard_n > 0) out << "shard " << options.shard << ": " << in_this_shard << " configs\n";
  problems.insert(problems.begin(), validation.problems.begin(), validation.problems.end());
  if (!problems.empty()) {
    print_problems(ExperimentError(problems), err);
    return kExitBadInput;
  }
  out << "no problems found: the sweep can start\n";
  return kExitOk;
}

int run_sweep(const SweepOptions& options, const boost::mpi::communicator& world,
              StopSignals& signals) {
  if (world.rank() != 0) return run_worker(options, world);

  // ---- Master: everything that can fail happens before the workers are told to start. ----
  std::ostream& log = std::cerr;
  const double prepare_cpu_start = cpu_seconds(world.size() == 1);
  Prepared p;
  std::unique_ptr<ResultStore> store;
  FileInfo info;
  int status = kExitOk;
  std::string failure;  // what ended the start, printed unless a stop signal did
  try {
    p = prepare(options);
    info.version = ALLOCSIM_VERSION;
    info.experiment = p.experiment.name;
    info.experiment_file = options.experiment_path;
    info.experiment_text = p.experiment.text;
    info.seed = p.experiment.seed;
    info.fingerprint = p.expansion.fingerprint;
    info.total_configs = static_cast<std::int64_t>(p.expansion.configs.size());
    info.shard =
        options.shard.empty() ? "" : std::to_string(p.shard_k) + "/" + std::to_string(p.shard_n);
    info.file_configs = static_cast<std::int64_t>(p.members.size());
    info.host = host_name();
    info.ranks = world.size();
    info.start_time = utc_now();
    info.command_line = options.command_line;
    info.trace_dir = options.trace_dir;
    info.traces = trace_provenance(p.expansion.configs, p.experiment.base_dir, options.trace_dir);
    info.hdf5_version = hdf5_version();
    info.boost_version = boost_version();
    info.mpi_version = mpi_library_version();
    store = std::make_unique<ResultStore>(output_path(options, p.experiment), info, p.expansion,
                                          p.members, options.store, log);
  } catch (const ExperimentError& error) {
    print_problems(error, log);
    status = kExitBadInput;
  } catch (const InputError& error) {
    failure = error.what();
    status = kExitBadInput;
  } catch (const OutputError& error) {  // a full disk: what the journal holds is kept
    log << "error: " << error.what() << "; once it can be written, "
        << resume_command(options, world.size()) << "\n";
    status = kExitError;
  } catch (const std::exception& error) {
    failure = error.what();
    status = kExitError;
  }
  if (const int signal = failure.empty() ? 0 : signals.pending()) {
    // A stop signal ended the start (checking the file to resume from gives up when one is
    // pending): nothing was run or changed, so the sweep is interrupted, not failed.
    log << "received signal " << signal << " (" << strsignal(signal)
        << ") while starting: nothing was run; interrupted; rerun with --resume" << std::endl;
    status = kExitInterrupted;
  } else if (!failure.empty()) {
    log << "error: " << failure << "\n";
  }
  const StartMessage start{status == kExitOk, p.experiment.base_dir, options.trace_dir};
  for (int rank = 1; rank < world.size(); ++rank) world.send(rank, kTagStart, start);
  if (!start.ok) return status;

  // Longest estimated cost first; ties in index order.
  std::vector<std::int64_t> todo = store->todo();
  std::stable_sort(todo.begin(), todo.end(), [&](std::int64_t a, std::int64_t b) {
    return p.validation.costs[static_cast<std::size_t>(a)] >
           p.validation.costs[static_cast<std::size_t>(b)];
  });
  const bool one_rank = world.size() == 1;
  // The updating line goes to a terminal: stderr, or stdout when it is mpirun's
  // pseudo-terminal and mpirun itself writes to a terminal (not to a batch log).
  const bool stderr_tty = isatty(fileno(stderr)) != 0;
  const bool stdout_tty = isatty(fileno(stdout)) != 0 && parent_writes_to_terminal();
  const bool terminal =
      options.progress == "line" || (options.progress == "auto" && (stderr_tty || stdout_tty));
  std::FILE* progress_out = terminal && !stderr_tty && stdout_tty ? stdout : stderr;
  log << "sweep '" << p.experiment.name << "': " << store->members() << " configs"
      << (info.shard.empty()
              ? ""
              : " (shard " + info.shard + " of " + std::to_string(info.total_configs) + ")")
      << ", " << todo.size() << " to run on " << (one_rank ? 1 : world.size() - 1)
      << (one_rank || world.size() == 2 ? " worker" : " workers") << "; master pid " << getpid()
      << "; results in " << output_path(options, p.experiment) << std::endl;

  Progress progress(store->members(), store->finished(), terminal,
                    options.progress == "none" ? nullptr : progress_out);
  ConfigRunner local_runner =
      make_runner(options, p.expansion.configs, p.experiment.base_dir, options.trace_dir);
  std::unique_ptr<Transport> transport;
  LocalTransport* local = nullptr;
  if (one_rank) {
    auto owned = std::make_unique<LocalTransport>([&](std::int64_t index) {
      if (options.synthetic_results)
        return synthetic_outcome(p.expansion.configs.at(static_cast<std::size_t>(index)).id, index,
                                 0);
      return local_runner.run(index, 0);
    });
    local = owned.get();
    transport = std::move(owned);
  } else {
    transport = std::make_unique<MpiTransport>(world);
  }

  int stop_signal = 0;
  DispatchCallbacks callbacks;
  std::int64_t results = 0;
  callbacks.on_encoded_outcome = [&](ConfigOutcome& outcome, std::string& encoded,
                                     std::uint64_t checksum) {
    ++results;
    // The master's expansion names the config (a watchdog outcome does not).
    const std::uint64_t id = p.expansion.configs.at(static_cast<std::size_t>(outcome.index)).id;
    if (outcome.config_id == id) {
      store->record(outcome, std::move(encoded), checksum);
    } else {
      ConfigOutcome named = encoded.empty() ? std::move(outcome) : decode_outcome(encoded);
      named.config_id = id;
      store->record(named);
    }
    progress.update(store->finished(), store->failed());
  };
  callbacks.payload = [&](std::int64_t index) {
    return one_rank ? std::string()
                    : task_payload(p.expansion.configs.at(static_cast<std::size_t>(index)));
  };
  callbacks.stop_requested = [&] {
    stop_signal = signals.poll();
    if (stop_signal == 0) return false;
    if (terminal) log << "\n";
    log << "received signal " << stop_signal << " (" << strsignal(stop_signal)
        << "): no new configs; waiting up to " << options.grace_seconds << " s for those in flight"
        << std::endl;
    return true;
  };
  callbacks.tick = [&] {
    store->tick();
    progress.update(store->finished(), store->failed());
  };
  // Last resort for a config that ignores its time limit: after its limit and as much again
  // (at least 30 s more), the master records it as timed out and gives up its worker.
  callbacks.hard_limit = [&](std::int64_t index) {
    const double limit =
        p.expansion.configs.at(static_cast<std::size_t>(index)).config.timeout_seconds;
    return limit > 0 ? limit + std::max(limit, 30.0) : 0.0;
  };
  DispatchOptions dispatch_options;
  dispatch_options.grace_seconds = options.grace_seconds;

  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds(one_rank);
  const double prepare_cpu = cpu_start - prepare_cpu_start;
  const DispatchEnd end = dispatch(*transport, std::deque<std::int64_t>(todo.begin(), todo.end()),
                                   dispatch_options, callbacks);
  const double cpu = cpu_seconds(one_rank) - cpu_start;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  progress.finish(store->finished(), store->failed());
  const double finish_cpu_start = cpu_seconds(one_rank);

  info.end_time = utc_now();
  info.dispatch_seconds = wall;
  info.master_cpu_seconds = cpu;
  info.master_cpu_share = wall > 0 ? cpu / wall : 0;
  info.master_cpu_scope = one_rank ? "thread" : "process";
  const FileInfo written = store->finish(info);  // status: complete when nothing is pending
  const double finish_cpu = cpu_seconds(one_rank) - finish_cpu_start;
  const double rate =
      wall > 0 ? static_cast<double>(store->finished() - store->resumed()) / wall : 0.0;
  char line[320];
  std::snprintf(line, sizeof line,
                "%lld done, %lld failed, %lld timed out, %lld pending; %.1f s, %.*f cfg/s, "
                "master CPU %.1f%%",
                static_cast<long long>(written.done), static_cast<long long>(written.failed),
                static_cast<long long>(written.timed_out), static_cast<long long>(written.pending),
                wall,
                rate >= 100 ? 0
                : rate >= 1 ? 1
                            : 3,
                rate, 100 * info.master_cpu_share);
  log << line << "; results in " << output_path(options, p.experiment) << "\n";
  // The master's own cost per result: what bounds the results/s one master can take in.
  std::snprintf(line, sizeof line,
                "master: %.2f us CPU per result while dispatching (%lld results in %.3f s CPU), "
                "%.3f s CPU before (expand, check, create the file), %.3f s CPU to finish the "
                "file",
                results > 0 ? 1e6 * cpu / static_cast<double>(results) : 0.0,
                static_cast<long long>(results), cpu, prepare_cpu, finish_cpu);
  log << line << "\n";
  if (written.failed + written.timed_out > 0)
    log << "errors of the failed configs: allocsim report " << output_path(options, p.experiment)
        << "\n";
  if (end == DispatchEnd::stuck) {
    // A worker still runs a config the watchdog gave up: end every rank now.
    log << "the watchdog abandoned a worker stuck in a config; ending the sweep's processes"
        << (written.pending == 0
                ? ""
                : "; for the pending configs, " + resume_command(options, world.size()))
        << std::endl;
    const int code = written.pending == 0 ? kExitOk : kExitInterrupted;
    std::fflush(nullptr);
    if (local != nullptr) {
      local->abandon();
      std::_Exit(code);
    }
    store.reset();  // releases the output lock before the abort
    world.abort(code);
  }
  if (written.pending == 0 && end != DispatchEnd::abandoned) return kExitOk;
  log << "interrupted; " << resume_command(options, world.size()) << std::endl;
  if (end == DispatchEnd::abandoned) {
    // Work still running past the grace period: the file is closed, end everything now.
    std::fflush(nullptr);
    if (local != nullptr) {
      local->abandon();
      std::_Exit(kExitInterrupted);
    }
    world.abort(kExitInterrupted);
  }
  return kExitInterrupted;
}

}  // namespace allocsim::sweep
