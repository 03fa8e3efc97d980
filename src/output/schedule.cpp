// Batsim jobs.csv and SWF writers of a simulated schedule.
#include "allocsim/output/schedule.hpp"

#include <cmath>

#include "allocsim/output/csv.hpp"
#include "allocsim/output/json.hpp"

namespace allocsim::output {

void write_batsim_jobs(std::ostream& out, const std::vector<JobRecord>& jobs,
                       const std::string& workload_name) {
  out << "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
         "requested_time,success,final_state,starting_time,execution_time,finish_time,"
         "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata\n";
  for (const auto& job : jobs) {
    const double turnaround = job.end - job.submit;
    const double stretch = job.runtime > 0 ? turnaround / job.runtime : 1;
    out << job.job_id << ',' << csv_field(workload_name) << ",allocsim," << json_number(job.submit)
        << ',' << json_number(job.procs) << ',' << json_number(job.estimate)
        << ",1,COMPLETED_SUCCESSFULLY," << json_number(job.start) << ',' << json_number(job.runtime)
        << ',' << json_number(job.end) << ',' << json_number(job.wait) << ','
        << json_number(turnaround) << ',' << json_number(stretch) << ','
        << csv_field(job.allocated_nodes) << ",-1,\n";
  }
}

void write_swf(std::ostream& out, const std::vector<JobRecord>& jobs, const SwfHeader& header,
               SwfTimes times) {
  out << "; Version: 2.2\n"
      << "; Computer: " << header.machine << " (simulated)\n"
      << "; Installation: allocsim " << header.version << "\n"
      << "; Information: the schedule simulated by allocsim; wait and run times are simulated\n"
      << "; MaxJobs: " << jobs.size() << "\n"
      << "; MaxRecords: " << jobs.size() << "\n"
      << "; MaxNodes: " << header.nodes << "\n"
      << "; MaxProcs: " << header.nodes << "\n";
  for (const auto& note : header.notes) out << "; Note: " << note << "\n";
  const bool whole = times == SwfTimes::whole_seconds;
  out << (whole ? "; Note: times in whole seconds: submit, start and end rounded to the nearest "
                  "second, wait = start - submit and run = end - start of the rounded values, "
                  "requested time rounded up\n"
                : "; Note: times exact (fractions of a second as simulated)\n");
  for (const auto& job : jobs) {
    double submit = job.submit, wait = job.wait, run = job.runtime, estimate = job.estimate;
    if (whole) {
      // SWF: "Submit Time -- in seconds", "Wait Time -- in seconds", "Run Time -- ... in
      // seconds": whole numbers in the archive's files.
      submit = std::round(job.submit);
      const double start = std::round(job.start), end = std::round(job.end);
      wait = start - submit;
      run = end - start;
      estimate = std::ceil(job.estimate);
    }
    out << job.job_id << ' ' << json_number(submit) << ' ' << json_number(wait) << ' '
        << json_number(run) << ' ' << json_number(job.nodes) << " -1 -1 " << json_number(job.procs)
        << ' ' << json_number(estimate) << " -1 1 -1 -1 -1 -1 -1 -1 -1\n";
  }
}

}  // namespace allocsim::output
