// `allocsim run`: one simulation, summary as text or JSON, optional per-job and timeline CSV.
#include <sys/resource.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "allocsim/output/csv.hpp"
#include "allocsim/output/file.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/output/schedule.hpp"
#include "allocsim/output/table.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"
#include "commands.hpp"
#include "run_progress.hpp"

namespace allocsim::cli {

std::string trace_dir_from_env() {
  const char* dir = std::getenv("ALLOCSIM_TRACE_DIR");
  return dir ? dir : "";
}

CLI::Validator non_negative_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
            !std::isfinite(value) || value < 0)
          return "must be a finite number >= 0, not '" + text + "'";
        return {};
      },
      "NUMBER>=0");
}

namespace {

using namespace output;

struct RunOptions {
  RunConfig config;
  std::string jobs_out;
  std::string swf_out;
  std::string timeline_out;
  bool swf_exact = false;
  std::string format = "text";
};

/// Peak resident memory of this process in MB (Linux reports ru_maxrss in KiB).
double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void print_text(const RunConfig& config, const RunResult& result, double seconds) {
  std::cout << "config: " << config.canonical() << "\n\nsummary:\n";
  for (const auto& column : summary_columns()) {  // fixed precision and the unit, no 6.3e+07
    const std::string unit = std::string(column.unit) == "1" ? "" : column.unit;
    std::cout << "  " << std::left << std::setw(30) << column.name << ' ' << std::right
              << std::setw(14) << table_number(result.summary.*column.member) << ' ' << unit
              << '\n';
  }
  if (!result.decisions.empty()) {
    std::cout << "\ndecisions (situation " << config.alloc
              << "): mean sum of pairwise distances per placement\n";
    for (const auto& row : result.decisions)
      std::cout << "  " << std::left << std::setw(40) << row.decision << ' '
                << table_number(row.mean_pairwise_sum) << "  (" << table_number(row.refusals)
                << " refusals)\n";
  }
  std::cout << "\ndiagnostics:\n" << result.diagnostics.report();
  std::cout << "\nresources: " << seconds << " s wall (reading included), peak memory "
            << peak_memory_mb() << " MB";
  if (!config.pattern.empty()) std::cout << ", mapping " << result.mapping_seconds << " s";
  std::cout << '\n';
}

/// simulate(), with the job count on stderr while it runs when stderr is a terminal.
RunResult simulate_with_progress(const RunConfig& config) {
  if (!RunProgress::wanted()) return simulate(config, trace_dir_from_env());
  Simulation simulation(config,
                        transform_workload(config, load_workload(config, trace_dir_from_env())));
  RunProgress progress(simulation.jobs().size());
  simulation.add_observer(&progress);
  RunResult result = simulation.run();
  progress.finish();
  return result;
}

void run(const RunOptions& options) {
  RunConfig config = options.config;
  config.keep_jobs =
      !options.jobs_out.empty() || !options.swf_out.empty() || options.format == "batsim";
  validate_run_numbers(config.bsd_threshold, config.estimate_factor, config.timeout_seconds,
                       "--bsd-threshold", "--estimate-factor", "--timeout");
  const auto started = std::chrono::steady_clock::now();
  config.keep_timeline = !options.timeline_out.empty();
  const RunResult result = simulate_with_progress(config);
  for (const std::string& note : result.diagnostics.notes)  // e.g. machine smaller than trace
    if (note.starts_with("warning: ")) std::cerr << "allocsim: " << note << '\n';
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!options.jobs_out.empty()) {
    output::OutputFile file(options.jobs_out, "--jobs-out file");
    const Topology machine = Topology::parse(config.machine);  // named nodes get names too
    write_jobs_csv(file.stream(), result.jobs, &machine);
    file.finish();
  }
  if (!options.timeline_out.empty()) {
    output::OutputFile file(options.timeline_out, "--timeline-out file");
    write_timeline_csv(file.stream(), result.timeline);
    file.finish();
  }
  if (!options.swf_out.empty()) {
    output::OutputFile file(options.swf_out, "--swf-out file");
    SwfHeader header{config.machine,
                     Topology::parse(config.machine).node_count(),
                     ALLOCSIM_VERSION,
                     {"trace " + config.trace, "scheduler " + config.sched,
                      "allocator " + config.alloc, "config " + config.canonical()}};
    write_swf(file.stream(), result.jobs, header,
              options.swf_exact ? SwfTimes::exact : SwfTimes::whole_seconds);
    file.finish();
  }
  if (options.format == "batsim") {  // jobs.csv alone on stdout, for evalys
    write_batsim_jobs(std::cout, result.jobs, "w0");
  } else if (options.format == "json") {
    using Json = nlohmann::ordered_json;  // the output pieces come from output/json.hpp as text
    Json out = {{"config", config.canonical()},
                {"summary", Json::parse(summary_json(result.summary))},
                {"diagnostics", Json::parse(diagnostics_json(result.diagnostics))}};
    if (!result.decisions.empty()) out["decisions"] = Json::parse(decisions_json(result.decisions));
    out["resources"] = {{"wall_seconds", Json::parse(json_number(seconds))},
                        {"peak_memory_mb", Json::parse(json_number(peak_memory_mb()))},
                        {"mapping_seconds", Json::parse(json_number(result.mapping_seconds))}};
    std::cout << json_text(out) << '\n';
  } else {
    print_text(config, result, seconds);
  }
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  auto* command = app.add_subcommand("run", "run one simulation");
  RunConfig& c = options->config;
  command
      ->add_option(
          "--machine", c.machine,
          "machine spec: mesh:WxH[x..], torus:.., semitorus:.., flat:N, dragonfly:p=..,a=..,h=.., "
          "fattree:k=.., slurm-topology:FILE (allocsim list topologies)")
      ->capture_default_str();
  command
      ->add_option("--trace", c.trace,
                   "trace file, trace NAME (in $ALLOCSIM_TRACE_DIR) or synthetic:...")
      ->required();
  command->add_option("--sched", c.sched, "scheduler spec (allocsim list schedulers)")
      ->capture_default_str();
  command->add_option("--alloc", c.alloc, "allocator spec (allocsim list allocators)")
      ->capture_default_str();
  command->add_option("--transform", c.transforms, "workload transform, repeatable, in order");
  command->add_option("--runtime-model", c.runtime_model, "runtime model spec")
      ->capture_default_str();
  command->add_option("--seed", c.seed, "generator seed (allocator and scheduler draws)")
      ->capture_default_str();
  command
      ->add_option("--workload-seed", c.workload_seed,
                   "seed of synthetic workloads and random transforms")
      ->capture_default_str();
  command->add_option("--bsd-threshold", c.bsd_threshold, "Δ of bounded slowdown (s)")
      ->check(non_negative_number())
      ->capture_default_str();
  command
      ->add_option("--estimate-factor", c.estimate_factor,
                   "estimate = factor x runtime for jobs without a requested time")
      ->check(non_negative_number())
      ->capture_default_str();
  command->add_option("--timeout", c.timeout_seconds, "wall-clock limit in seconds (0 = none)")
      ->check(non_negative_number());
  command->add_option("--decisions", c.decisions,
                      "situation/decision experiment: allocators asked at every placement of "
                      "--alloc (repeatable)");
  command->add_option("--pattern", c.pattern,
                      "each job's communication pattern, sized to the job: mesh2d:auto, "
                      "mesh3d:auto, ring, alltoall, random:degree=D (default none)");
  command->add_option("--mapper", c.mapper, "mapper chain placing a job's tasks on its nodes")
      ->capture_default_str();
  command->add_flag("--strict", c.strict, "malformed trace lines are errors, not counted skips");
  command->add_option("--jobs-out", options->jobs_out,
                      "write one CSV row per job (with its allocated_nodes, and their names "
                      "when the machine names its nodes: allocated_node_names)");
  command->add_option("--timeline-out", options->timeline_out,
                      "write the machine's state over time as CSV: time, busy_nodes, "
                      "utilization (busy / machine nodes), queued_jobs, running_jobs; one row per "
                      "event time at which one of them changes, giving the state after every "
                      "event at that time (tools/plot_timeline.py draws it)");
  command->add_option("--swf-out", options->swf_out,
                      "write the simulated schedule as a Standard Workload Format file (whole "
                      "seconds: submit, start and end rounded, requested time rounded up)");
  command->add_flag("--swf-exact", options->swf_exact,
                    "--swf-out writes the simulated times exactly (fractions of a second), "
                    "not whole seconds");
  command
      ->add_option("--format", options->format,
                   "text | json | batsim (Batsim's jobs.csv on stdout, for evalys)")
      ->check(CLI::IsMember({"text", "json", "batsim"}))
      ->capture_default_str();
  command->callback([options] { run(*options); });
}

}  // namespace allocsim::cli
