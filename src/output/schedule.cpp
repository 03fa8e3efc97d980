// Batsim jobs.csv and SWF writers of a simulated schedule.
#include "allocsim/output/schedule.hpp"

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

void write_swf(std::ostream& out, const std::vector<JobRecord>& jobs, const SwfHeader& header) {
  out << "; Version: 2.2\n"
      << "; Computer: " << header.machine << " (simulated)\n"
      << "; Installation: allocsim " << header.version << "\n"
      << "; Information: the schedule simulated by allocsim; wait and run times are simulated\n"
      << "; MaxJobs: " << jobs.size() << "\n"
      << "; MaxRecords: " << jobs.size() << "\n"
      << "; MaxNodes: " << header.nodes << "\n"
      << "; MaxProcs: " << header.nodes << "\n";
  for (const auto& note : header.notes) out << "; Note: " << note << "\n";
  for (const auto& job : jobs) {
    out << job.job_id << ' ' << json_number(job.submit) << ' ' << json_number(job.wait) << ' '
        << json_number(job.runtime) << ' ' << json_number(job.nodes) << " -1 -1 "
        << json_number(job.procs) << ' ' << json_number(job.estimate)
        << " -1 1 -1 -1 -1 -1 -1 -1 -1\n";
  }
}

}  // namespace allocsim::output
