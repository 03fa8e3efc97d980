// Placeholder until the owner of this command lands it.
#include "commands.hpp"
namespace allocsim::cli {
void add_sweep_command(CLI::App& app) { app.add_subcommand("sweep", "(not yet available)"); }
}  // namespace allocsim::cli
