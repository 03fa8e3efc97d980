#pragma once
// Each `allocsim` subcommand registers itself on the CLI11 app through one of these functions
// (called explicitly from main.cpp; no static self-registration).
#include <CLI/CLI.hpp>

namespace allocsim::cli {

void add_run_command(CLI::App& app);
void add_list_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_merge_command(CLI::App& app);
void add_optimum_command(CLI::App& app);
void add_map_command(CLI::App& app);
void add_reproduce_command(CLI::App& app);
/// `allocsim completion bash|zsh`; add it last (it lists the commands added before it).
void add_completion_command(CLI::App& app);

/// Accepts a finite number >= 0 (rejects "nan", "inf", "-1"); CLI11 names the option in the
/// error (numeric options are validated at the boundary).
CLI::Validator non_negative_number();

/// This process's command line (recorded by main), each argument shell-quoted when it holds
/// anything but letters, digits and -_./=:,+@%; stored as provenance in result files.
const std::string& process_command_line();
void record_command_line(int argc, char** argv);

/// $ALLOCSIM_TRACE_DIR, or empty when unset.
std::string trace_dir_from_env();

}  // namespace allocsim::cli
