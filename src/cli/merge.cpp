// Placeholder until the owner of this command lands it.
#include "commands.hpp"
namespace allocsim::cli {
void add_merge_command(CLI::App& app) { app.add_subcommand("merge", "(not yet available)"); }
}  // namespace allocsim::cli
