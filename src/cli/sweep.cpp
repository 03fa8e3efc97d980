// `allocsim sweep`: run an experiment file master/worker over MPI. MPI is started
// inside the command (only `sweep` needs it); the stop signals are blocked since the process
// started (src/cli/main.cpp), so every thread Open MPI starts inherits the mask.
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include "allocsim/sweep/dispatch/sweep.hpp"
#include "allocsim/util/error.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {
/// True on MPI ranks other than 0 (a dry run under mpirun prints once).
bool secondary_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::string(value) != "0";
  return false;
}

/// Under mpirun, every rank dies with its launcher (mpirun or its daemon): a killed mpirun
/// must not leave a master holding the output lock or workers stuck in a config.
void die_with_launcher() {
  bool launched = false;
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    launched = launched || std::getenv(name) != nullptr;
  if (!launched) return;
  const pid_t launcher = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != launcher) std::_Exit(sweep::kExitInterrupted);  // it died before prctl
}

/// --ready-file: once every rank has started (and so blocks the stop signals), rank 0 creates
/// PATH holding its pid; the batch scripts forward a stop signal only once it exists. Returns
/// false on every rank when it cannot be created (the error is printed by rank 0).
bool announce_ready(const std::string& path, const boost::mpi::communicator& world) {
  if (path.empty()) return true;
  world.barrier();  // every rank is past MPI_Init
  bool created = true;
  if (world.rank() == 0) {
    const std::string text = std::to_string(getpid()) + "\n";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    created = fd >= 0;
    int error = errno;
    if (created && ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
      created = false;
      error = errno;
    }
    if (fd >= 0 && ::close(fd) != 0 && created) {
      created = false;
      error = errno;
    }
    if (!created)
      std::cerr << "allocsim sweep: error: cannot create --ready-file '" << path
                << "': " << std::strerror(error) << std::endl;
  }
  boost::mpi::broadcast(world, created, 0);
  return created;
}
}  // namespace

void add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<sweep::SweepOptions>();
  auto dry_run = std::make_shared<bool>(false);
  auto* command = app.add_subcommand(
      "sweep", "run an experiment file: mpirun -np N allocsim sweep exp.toml -o results.h5");
  command
      ->add_option("experiment", options->experiment_path,
                   "experiment file (TOML, see experiments/README.md)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->output,
                      "HDF5 result file (default: <experiment name>.h5)");
  command->add_flag("--allow-large", options->allow_large,
                    "run an experiment of more than a million configs");
  command->add_flag("--synthetic-results", options->synthetic_results,
                    "test mode: workers return made-up results at once (no simulation), to "
                    "measure the master at many ranks");
  command->add_flag("--dry-run", *dry_run, "check every config and estimate the work; run nothing");
  command->add_flag("--resume", options->store.resume,
                    "continue an interrupted sweep: skip configs already done (by id)");
  command
      ->add_option("--lock-wait", options->store.lock_wait_seconds,
                   "with --resume: seconds to wait for an earlier sweep still holding the "
                   "output's lock (<file>.lock) to exit; without --resume a held lock is "
                   "refused at once")
      ->check(non_negative_number())
      ->capture_default_str();
  command->add_flag("--retry-failed", options->store.retry_failed,
                    "with --resume: also rerun failed and timed-out configs");
  command->add_flag("--overwrite", options->store.overwrite,
                    "start again even if the result file exists");
  command->add_option("--shard", options->shard,
                      "K/N: run one deterministic Nth of the configs (job arrays; combine the "
                      "parts with allocsim merge)");
  command
      ->add_option("--grace", options->grace_seconds,
                   "seconds given to configs in flight after SIGTERM/SIGINT/SIGUSR1")
      ->check(non_negative_number())
      ->capture_default_str();
  command->add_option(
      "--ready-file", options->ready_file,
      "create this file (holding rank 0's pid) once every MPI rank has started: from then on "
      "SIGUSR1 may be sent to srun or mpirun (every rank blocks the stop signals from its first "
      "instruction, but a launcher still starting, or a task not yet started, dies of one); "
      "jobs/*.sbatch forward a stop signal only once it exists");
  command
      ->add_option("--progress", options->progress,
                   "auto (line on a terminal, else log), line, log or none")
      ->check(CLI::IsMember({"auto", "line", "log", "none"}))
      ->capture_default_str();
  command->callback([options, dry_run] {
    options->trace_dir = trace_dir_from_env();
    options->command_line = process_command_line();
    if (*dry_run) {
      sweep::release_stop_signals_at_start();  // no MPI, no polling: Ctrl-C ends it at once
      if (secondary_rank()) return;
      const int code = sweep::dry_run_sweep(*options, std::cout, std::cerr);
      if (code != 0) throw CLI::RuntimeError(code);
      return;
    }
    int code = sweep::kExitOk;
    {
      die_with_launcher();
      sweep::StopSignals signals;  // blocked since the start (main.cpp); polled by the master
      boost::mpi::environment environment(boost::mpi::threading::funneled, true);
      boost::mpi::communicator world;
      try {
        code = announce_ready(options->ready_file, world)
                   ? sweep::run_sweep(*options, world, signals)
                   : sweep::kExitBadInput;
      } catch (const std::exception& error) {
        // A full disk: the journal kept what was written, so the sweep continues once there
        // is space again.
        const bool output = dynamic_cast<const OutputError*>(&error) != nullptr;
        std::cerr << "allocsim sweep: error on rank " << world.rank() << ": " << error.what()
                  << (output ? "; once it can be written, " +
                                   sweep::resume_advice(*options, world.size())
                             : "")
                  << std::endl;
        if (world.size() > 1) world.abort(sweep::kExitError);
        code = sweep::kExitError;
      }
    }
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace allocsim::cli
