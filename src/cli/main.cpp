// allocsim: simulate processor allocators and schedulers on mesh/torus machines.
#include <iostream>

#include "allocsim/output/file.hpp"
#include "allocsim/sweep/dispatch/signals.hpp"
#include "allocsim/sweep/store/h5.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/heap.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {
std::string& command_line_storage() {
  static std::string text;
  return text;
}
}  // namespace

const std::string& process_command_line() {
  return command_line_storage();
}

void record_command_line(int argc, char** argv) {
  std::string& text = command_line_storage();
  text.clear();
  for (int i = 0; i < argc; ++i) {
    const std::string argument = argv[i];
    const bool plain =
        !argument.empty() && argument.find_first_not_of(
                                 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 "0123456789-_./=:,+@%") == std::string::npos;
    if (i > 0) text += ' ';
    if (plain) {
      text += argument;
      continue;
    }
    text += '\'';  // single quotes; an embedded ' becomes '\''
    for (char c : argument) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += '\'';
  }
}

namespace {
/// True for the commands that poll the stop signals (`sweep` and `reproduce`, which run MPI
/// ranks): they keep them blocked from the start. Subcommands come first (no global option
/// takes a value).
bool polls_stop_signals(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string command = argv[1];
  return command == "sweep" || command == "reproduce";
}

/// Runs from .preinit_array: after the dynamic loader, before every library initialiser and
/// main, so that a stop signal sent while a rank is starting (srun or mpirun forwarding Slurm's
/// time-limit warning) stays pending for the sweep instead of killing the rank.
void block_stop_signals_before_main(int, char**, char**) {
  allocsim::sweep::block_stop_signals_at_start();
}

// The loader's table of functions to run first (in the executable only: shared libraries have
// none).
[[gnu::section(".preinit_array"),
  gnu::used]] void (*preinit_block_stop_signals)(int, char**,
                                                 char**) = block_stop_signals_before_main;
}  // namespace

}  // namespace allocsim::cli

int main(int argc, char** argv) {
  // Other commands get the mask they were started with (a signal pending since start-up is
  // delivered now and has its usual effect).
  if (!allocsim::cli::polls_stop_signals(argc, argv))
    allocsim::sweep::release_stop_signals_at_start();
  allocsim::sweep::h5::skip_shutdown_at_exit();  // see h5.hpp (a full disk)
  allocsim::cli::record_command_line(argc, argv);
  allocsim::keep_freed_memory_for_reuse();  // workers run many configs in one process
  CLI::App app{"allocsim: which processor allocator and scheduler should this machine use?"};
  app.set_version_flag("--version", std::string("allocsim ") + ALLOCSIM_VERSION);
  app.require_subcommand(1);
  allocsim::cli::add_run_command(app);
  allocsim::cli::add_list_command(app);
  allocsim::cli::add_sweep_command(app);
  allocsim::cli::add_report_command(app);
  allocsim::cli::add_merge_command(app);
  allocsim::cli::add_optimum_command(app);
  allocsim::cli::add_map_command(app);
  allocsim::cli::add_reproduce_command(app);
  allocsim::cli::add_completion_command(app);
  int code = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    code = app.exit(e);
  } catch (const allocsim::InputError& e) {
    std::cerr << "allocsim: error: " << e.what() << '\n';
    code = 2;
  } catch (const allocsim::OutputError& e) {
    std::cerr << "allocsim: error: " << e.what() << '\n';
    code = 1;
  } catch (const allocsim::TimeoutError& e) {
    std::cerr << "allocsim: timed out: " << e.what() << '\n';
    code = 4;
  } catch (const std::exception& e) {
    std::cerr << "allocsim: internal error: " << e.what() << '\n';
    code = 3;
  }
  // What went to standard output must have arrived (a full disk, /dev/full): never exit 0
  // with a truncated result.
  try {
    allocsim::output::finish_standard_output();
  } catch (const allocsim::OutputError& e) {
    std::cerr << "allocsim: error: " << e.what() << '\n';
    if (code == 0) code = 1;
  }
  return code;
}
