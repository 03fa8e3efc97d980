#pragma once
// The simulated schedule in the formats other tools read: Batsim's `jobs.csv` (read by evalys
// for Gantt charts and metrics) and the Standard Workload Format of the Parallel Workloads
// Archive (Feitelson et al.; https://www.cs.huji.ac.il/labs/parallel/workload/swf.html).
#include <ostream>
#include <string>
#include <vector>

#include "allocsim/metrics/records.hpp"

namespace allocsim::output {

/// Batsim's jobs.csv, one row per job (records need allocated_nodes, i.e. keep_jobs):
/// job_id, workload_name, profile, submission_time, requested_number_of_resources (procs),
/// requested_time (estimate), success (1), final_state (COMPLETED_SUCCESSFULLY),
/// starting_time, execution_time, finish_time, waiting_time, turnaround_time, stretch
/// (turnaround / execution time), allocated_resources (node ids as an interval set "0-3 8"),
/// consumed_energy (-1: not simulated) and metadata (empty).
void write_batsim_jobs(std::ostream& out, const std::vector<JobRecord>& jobs,
                       const std::string& workload_name);

/// What the SWF header says about the simulation.
struct SwfHeader {
  std::string machine;             ///< machine spec ("Computer")
  int nodes = 0;                   ///< MaxNodes and MaxProcs
  std::string version;             ///< allocsim version ("Installation")
  std::vector<std::string> notes;  ///< one "; Note: ..." line each (scheduler, allocator, ...)
};

/// How write_swf writes times. The SWF definition counts every time "in seconds" and the
/// archive's files hold whole numbers (readers such as evalys parse integers), so whole seconds
/// are the default: submit, start and end are rounded to the nearest second and wait = start -
/// submit, run = end - start are taken from the rounded values (so submit + wait + run is the
/// rounded end exactly, and each is within 1 s of the simulated value); the requested time is
/// rounded up (a limit is never shortened). `exact` writes the simulated doubles (shortest
/// round-trip form), so a reader gets the schedule back bit for bit.
enum class SwfTimes { whole_seconds, exact };

/// The simulated schedule as an SWF file: header comments, then one 18-field line per job in
/// job order: job number, submit, wait (simulated), run time (simulated), allocated processors
/// (nodes made busy), -1, -1, requested processors, requested time (estimate), -1, status 1
/// (completed), then -1 for user, group, executable, queue, partition, preceding job and think
/// time. Times as `times` says (a header note says which).
void write_swf(std::ostream& out, const std::vector<JobRecord>& jobs, const SwfHeader& header,
               SwfTimes times = SwfTimes::whole_seconds);

}  // namespace allocsim::output
