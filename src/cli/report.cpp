// Placeholder until the owner of this command lands it.
#include "commands.hpp"
namespace allocsim::cli {
void add_report_command(CLI::App& app) { app.add_subcommand("report", "(not yet available)"); }
}  // namespace allocsim::cli
