#pragma once
// `allocsim sweep`: validate the experiment, then run it master/worker over MPI
// (rank 0 is the master; with one rank a worker thread runs the configs), storing the
// results crash-safely in one HDF5 file.
#include <iosfwd>
#include <string>

#include <boost/mpi/communicator.hpp>

#include "allocsim/sweep/dispatch/runner.hpp"
#include "allocsim/sweep/dispatch/signals.hpp"
#include "allocsim/sweep/store/store.hpp"

namespace allocsim::sweep {

/// Exit statuses of `allocsim sweep`.
enum SweepExit : int { kExitOk = 0, kExitError = 1, kExitBadInput = 2, kExitInterrupted = 3 };

struct SweepOptions {
  std::string experiment_path;
  std::string output;  ///< result file; default "<experiment name>.h5"
  StoreOptions store;
  std::string shard;              ///< "K/N" or empty
  double grace_seconds = 60;      ///< after SIGTERM/SIGINT: time left to in-flight configs
  std::string trace_dir;          ///< where trace NAMEs are looked up ($ALLOCSIM_TRACE_DIR)
  std::string command_line;       ///< stored in the result file (provenance)
  std::string progress = "auto";  ///< auto | line | log | none
  std::string ready_file;         ///< created by rank 0 once every rank has started (or empty)
  bool allow_large = false;       ///< run more than kMaxConfigsWithoutOverride configs
  /// Test mode: workers return synthetic_outcome() at once instead of simulating, so the
  /// master's own cost can be measured at many ranks on few cores.
  bool synthetic_results = false;
  LoadFn load;  ///< empty = the core's (tests inject fakes)
  SimulateFn simulate;
};

/// `--dry-run`: resolves and checks every config, prints the count and the work estimate, or
/// every problem. Returns kExitOk when the sweep could start, kExitBadInput otherwise.
/// "rerun with --resume: COMMAND": the command line of `options` with --resume (without
/// --overwrite), for the messages of an interrupted or stopped sweep; `ranks` > 1 names the
/// MPI launcher too.
std::string resume_advice(const SweepOptions& options, int ranks);

int dry_run_sweep(const SweepOptions& options, std::ostream& out, std::ostream& err);

/// Runs the sweep; every rank of `world` calls it. Returns the exit status.
int run_sweep(const SweepOptions& options, const boost::mpi::communicator& world,
              StopSignals& signals);

}  // namespace allocsim::sweep
