// The simulated schedule in Batsim's jobs.csv and in SWF, against files written by hand from
// the formats' documentation, and a whole simulation written in both and read back.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "allocsim/output/schedule.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/workload/reader.hpp"

namespace allocsim::output {
namespace {

std::vector<JobRecord> two_jobs() {
  JobRecord a;
  a.job_id = 1, a.submit = 0, a.start = 5, a.end = 15, a.wait = 5, a.procs = 4, a.runtime = 10;
  a.estimate = 20, a.nodes = 4, a.allocated_nodes = "0-3";
  JobRecord b;
  b.job_id = 2, b.submit = 2, b.start = 5, b.end = 9, b.wait = 3, b.procs = 3, b.runtime = 4;
  b.estimate = 7, b.nodes = 4, b.allocated_nodes = "4-5 8 10";
  return {a, b};
}

/// Batsim's interval-set notation: space-separated "a" or "a-b" (a <= b), read as node ids.
/// Fails the test on anything else.
std::vector<int> parse_interval_set(const std::string& text) {
  std::vector<int> nodes;
  std::istringstream in(text);
  std::string interval;
  while (in >> interval) {
    const auto dash = interval.find('-');
    const int first = std::stoi(interval.substr(0, dash));
    const int last = dash == std::string::npos ? first : std::stoi(interval.substr(dash + 1));
    EXPECT_LE(first, last) << text;
    EXPECT_TRUE(nodes.empty() || first > nodes.back() + 1) << "not sorted or not merged: " << text;
    for (int n = first; n <= last; ++n) nodes.push_back(n);
  }
  return nodes;
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!line.empty() && line.back() == separator) parts.emplace_back();
  return parts;
}

TEST(NodeIntervalSet, SortsAndMergesRuns) {
  EXPECT_EQ(node_interval_set({}), "");
  EXPECT_EQ(node_interval_set({3}), "3");
  EXPECT_EQ(node_interval_set({10, 8, 4, 5, 2, 3}), "2-5 8 10");
  EXPECT_EQ(parse_interval_set("2-5 8 10"), (std::vector<int>{2, 3, 4, 5, 8, 10}));
}

TEST(BatsimJobs, MatchesAHandWrittenFile) {
  std::ostringstream out;
  write_batsim_jobs(out, two_jobs(), "w0");
  EXPECT_EQ(out.str(),
            "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
            "requested_time,success,final_state,starting_time,execution_time,finish_time,"
            "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,"
            "metadata\n"
            "1,w0,allocsim,0,4,20,1,COMPLETED_SUCCESSFULLY,5,10,15,5,15,1.5,0-3,-1,\n"
            "2,w0,allocsim,2,3,7,1,COMPLETED_SUCCESSFULLY,5,4,9,3,7,1.75,4-5 8 10,-1,\n");
}

TEST(Swf, MatchesAHandWrittenFile) {
  std::ostringstream out;
  write_swf(out, two_jobs(), {"mesh:4x4", 16, "0.1.0", {"scheduler easy"}});
  EXPECT_EQ(out.str(),
            "; Version: 2.2\n"
            "; Computer: mesh:4x4 (simulated)\n"
            "; Installation: allocsim 0.1.0\n"
            "; Information: the schedule simulated by allocsim; wait and run times are "
            "simulated\n"
            "; MaxJobs: 2\n"
            "; MaxRecords: 2\n"
            "; MaxNodes: 16\n"
            "; MaxProcs: 16\n"
            "; Note: scheduler easy\n"
            "; Note: times in whole seconds: submit, start and end rounded to the nearest "
            "second, wait = start - submit and run = end - start of the rounded values, "
            "requested time rounded up\n"
            "1 0 5 10 4 -1 -1 4 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
            "2 2 3 4 4 -1 -1 3 7 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
}

// SWF times are whole seconds (issue 29, item 6): the end points are rounded and the durations
// taken from them, so submit + wait + run is the rounded end; the requested time is rounded up.
TEST(Swf, WholeSecondsByDefaultExactOnRequest) {
  JobRecord a;
  a.job_id = 7, a.submit = 10.4, a.start = 12.6, a.end = 20.2, a.wait = 2.2, a.runtime = 7.6;
  a.procs = 2, a.nodes = 2, a.estimate = 30.1;
  std::ostringstream whole, exact;
  write_swf(whole, {a}, {"mesh:2x2", 4, "v", {}});
  write_swf(exact, {a}, {"mesh:2x2", 4, "v", {}}, SwfTimes::exact);
  // submit 10, start 13, end 20: wait 3, run 7 (10 + 3 + 7 = 20); requested 31.
  EXPECT_NE(whole.str().find("\n7 10 3 7 2 -1 -1 2 31 -1 1 "), std::string::npos) << whole.str();
  EXPECT_NE(exact.str().find("\n7 10.4 2.2 7.6 2 -1 -1 2 30.1 -1 1 "), std::string::npos)
      << exact.str();
  EXPECT_NE(exact.str().find("; Note: times exact"), std::string::npos);
}

class SimulatedSchedule : public ::testing::Test {
 protected:
  void SetUp() override {
    config_.machine = "mesh:8x8";
    config_.trace = "synthetic:jobs=120,arrival=exp:20,runtime=exp:300,size=uniform:1,24";
    config_.sched = "easy";
    config_.alloc = "mbs";  // blocks: some jobs get more nodes than processors
    config_.keep_jobs = true;
    result_ = simulate(config_, std::string());
    ASSERT_EQ(result_.jobs.size(), 120u);
  }
  RunConfig config_;
  RunResult result_;
};

TEST_F(SimulatedSchedule, SwfReadBackReproducesTheSchedule) {
  std::ostringstream out;
  write_swf(out, result_.jobs, {config_.machine, 64, "test", {}}, SwfTimes::exact);
  const Workload back = parse_swf(out.str(), "simulated.swf");
  EXPECT_EQ(back.header_max_nodes, 64);
  EXPECT_EQ(back.header_max_procs, 64);
  ASSERT_EQ(back.jobs.size(), result_.jobs.size());
  std::map<std::int64_t, const JobRecord*> by_id;
  for (const auto& record : result_.jobs) by_id[record.job_id] = &record;
  // Wait times are not part of a Workload: read them from the file's third field.
  std::map<std::int64_t, double> waits;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);)
    if (line[0] != ';') {
      std::istringstream fields(line);
      std::int64_t id = 0;
      double submit = 0, wait = 0;
      fields >> id >> submit >> wait;
      waits[id] = wait;
    }
  for (const auto& job : back.jobs) {
    const JobRecord& record = *by_id.at(job.id);
    EXPECT_EQ(job.submit, record.submit);
    EXPECT_EQ(job.runtime, record.runtime);
    EXPECT_EQ(job.estimate, record.estimate);
    EXPECT_EQ(job.procs, static_cast<int>(record.nodes));  // field 5: allocated
    EXPECT_EQ(waits.at(job.id), record.wait);  // exact; start = submit + wait up to rounding
    EXPECT_DOUBLE_EQ(job.submit + waits.at(job.id), record.start);
  }
}

TEST_F(SimulatedSchedule, BatsimAllocatedResourcesAreAValidSchedule) {
  std::ostringstream out;
  write_batsim_jobs(out, result_.jobs, "w0");
  std::istringstream lines(out.str());
  std::string line;
  std::getline(lines, line);
  const auto header = split(line, ',');
  ASSERT_EQ(header.size(), 17u);
  struct Run {
    double start, finish;
    std::vector<int> nodes;
  };
  std::vector<Run> runs;
  while (std::getline(lines, line)) {
    const auto cells = split(line, ',');
    ASSERT_EQ(cells.size(), 17u) << line;
    const double start = std::stod(cells[8]), execution = std::stod(cells[9]),
                 finish = std::stod(cells[10]);
    EXPECT_DOUBLE_EQ(start + execution, finish);
    const std::vector<int> nodes = parse_interval_set(cells[14]);
    EXPECT_GE(static_cast<int>(nodes.size()), std::stoi(cells[4])) << line;
    for (int n : nodes) {
      EXPECT_GE(n, 0);
      EXPECT_LT(n, 64);
    }
    runs.push_back({start, finish, nodes});
  }
  ASSERT_EQ(runs.size(), 120u);
  // No node runs two jobs at once.
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (std::size_t j = i + 1; j < runs.size(); ++j) {
      if (runs[i].finish <= runs[j].start || runs[j].finish <= runs[i].start) continue;
      const std::set<int> a(runs[i].nodes.begin(), runs[i].nodes.end());
      for (int n : runs[j].nodes) EXPECT_EQ(a.count(n), 0u) << "jobs " << i << ", " << j;
    }
}

}  // namespace
}  // namespace allocsim::output
