// `allocsim reproduce STUDY [--quick] [-o DIR]` and `reproduce --list`: a study's published
// values side by side with ours (sweep/reproduce). Sweeps run through the sweep engine, under
// mpirun when started so, on one process otherwise; only rank 0 prints and writes the reports.
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <memory>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include "allocsim/output/file.hpp"
#include "allocsim/sweep/dispatch/sweep.hpp"
#include "allocsim/sweep/reproduce/reproduce.hpp"
#include "allocsim/util/error.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {

struct ReproduceArgs {
  std::string study, output = "reproductions", experiments = ALLOCSIM_EXPERIMENTS_DIR,
                     tools = ALLOCSIM_TOOLS_DIR;
  bool list = false, quick = false, resume = false;
};

void print_list() {
  for (const auto& study : sweep::studies())
    std::cout << std::left << std::setw(18) << study.name << ' ' << study.summary << '\n';
}

void write_file(const std::string& path, const std::string& text) {
  output::write_text_file(path, text, "study result");
}

/// Under mpirun every rank dies with its launcher (as in `sweep`).
void die_with_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (std::getenv(name)) {
      const pid_t launcher = getppid();
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != launcher) std::_Exit(sweep::kExitInterrupted);
      return;
    }
}

/// Runs the study; rank 0 prints the table and writes <study>.json and <study>.md. Returns
/// whether every comparison passed (true on other ranks).
bool run_study(const ReproduceArgs& args, const sweep::Study& study,
               const boost::mpi::communicator& world, sweep::StopSignals& signals) {
  sweep::StudyContext context;
  context.experiments_dir = args.experiments;
  context.tools_dir = args.tools;
  context.output_dir = args.output;
  context.quick = args.quick;
  context.run_sweep = [&](const std::string& experiment, const std::string& output) {
    sweep::SweepOptions options;
    options.experiment_path = experiment;
    options.output = output;
    // A study's sweep starts again unless --resume continues it from its journal (an
    // interrupted or killed run of the same study into the same folder).
    options.store.overwrite = !args.resume;
    options.store.resume = args.resume;
    options.store.restart_advice = "rerun without --resume to start again";
    options.command_line = process_command_line();  // the exact rerun advice on interruption
    options.trace_dir = trace_dir_from_env();
    options.progress = "none";
    int code = sweep::kExitError;
    try {
      code = sweep::run_sweep(options, world, signals);
    } catch (const OutputError& error) {  // a full disk: the journal allows --resume
      throw OutputError(std::string(error.what()) + "; once it can be written, " +
                        sweep::resume_advice(options, world.size()));
    }
    // Interrupted (a stop signal): the sweep printed the exact --resume advice; end with the
    // sweep's own status 3, not as bad input.
    if (code == sweep::kExitInterrupted) throw CLI::RuntimeError(sweep::kExitInterrupted);
    world.barrier();  // the result file is complete before any rank reads it
    return code == sweep::kExitOk;
  };
  const sweep::Reproduction result = sweep::reproduce(study, context);
  if (world.rank() != 0) return true;
  const std::string base = args.output + "/" + study.name;
  write_file(base + ".json", sweep::format_json(result));
  write_file(base + ".md", sweep::format_markdown(result));
  std::cout << sweep::format_text(result) << "written: " << base << ".json, " << base << ".md"
            << std::endl;
  return result.all_pass();
}

}  // namespace

void add_reproduce_command(CLI::App& app) {
  auto args = std::make_shared<ReproduceArgs>();
  auto* command = app.add_subcommand(
      "reproduce", "run a published study and compare every published value with ours");
  command->add_option("study", args->study, "study name (see --list)");
  command->add_flag("--list", args->list, "list the studies");
  command->add_flag(
      "--quick", args->quick,
      "reduced run (under a minute): checks only the rows a reduced run can check (the same trend, "
      "or the quick run's own reference value); the rest print n/a (quick)");
  command->add_flag("--resume", args->resume,
                    "continue the study's sweep from the result file and journal an interrupted "
                    "run left in the output folder (the finished configs are kept)");
  command
      ->add_option("-o,--output", args->output,
                   "folder for the result file, <study>.json, <study>.md and figures")
      ->capture_default_str();
  command
      ->add_option("--experiments", args->experiments,
                   "the experiments/ folder (published values and experiment files)")
      ->capture_default_str();
  command->add_option("--tools", args->tools, "the tools/ folder (plot scripts)")
      ->capture_default_str();
  command->callback([args] {
    if (args->list) {
      print_list();
      return;
    }
    if (args->study.empty()) throw InputError("name a study or give --list");
    const sweep::Study& study = sweep::find_study(args->study);
    die_with_launcher();
    bool all_pass = true;
    std::exception_ptr failure;  // rethrown once MPI is finalized (an exception in flight
                                 // through the environment's destructor aborts every rank)
    {
      sweep::StopSignals signals;  // blocked since the start (main.cpp): MPI's threads inherit it
      boost::mpi::environment environment(boost::mpi::threading::funneled, true);
      boost::mpi::communicator world;
      try {
        all_pass = run_study(*args, study, world, signals);
      } catch (...) {
        failure = std::current_exception();
      }
    }
    if (failure) std::rethrow_exception(failure);
    if (!all_pass) throw CLI::RuntimeError(1);
  });
}

}  // namespace allocsim::cli
