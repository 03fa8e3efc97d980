// Guard rails around a run (issue 17, item 6): a machine smaller than the trace header gets a
// warning with the numbers and the transform that fits; dropped jobs name their trace lines;
// an ordering typed as an allocator suggests the curve allocator; a refused allocator lists the
// allocators that work on the machine.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/reader.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {
namespace {

/// An SWF trace of a 128-processor machine: jobs of 4, 100, 8 and 128 processors on lines 4-7.
Workload small_trace() {
  const std::string text =
      "; Version: 2.2\n"
      "; MaxNodes: 128\n"
      "; MaxProcs: 128\n"
      "1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
      "2 10 -1 100 100 -1 -1 100 200 -1 1 1 1 1 1 -1 -1 -1\n"
      "3 20 -1 100 8 -1 -1 8 200 -1 1 1 1 1 1 -1 -1 -1\n"
      "4 30 -1 100 128 -1 -1 128 200 -1 1 1 1 1 1 -1 -1 -1\n";
  return parse_swf(text, "small.swf");
}

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(GuardRails, MachineSmallerThanTheTraceHeaderIsWarnedWithTheNumbers) {
  const Workload trace = small_trace();
  EXPECT_EQ(machine_size_warning(trace, 64, "torus:4x4x4"),
            "warning: machine torus:4x4x4 has 64 nodes, fewer than the trace header's MaxProcs "
            "128, MaxNodes 128: 2 jobs larger than 64 processors are dropped; to fit the trace to "
            "the machine, scale sizes with --transform size_scale:factor=0.5 (or choose a machine "
            "of at least 128 nodes)");
  EXPECT_EQ(machine_size_warning(trace, 128, "mesh:16x8"), "");
  // 100 nodes: 100/128 = 0.78125, rounded down to four digits.
  EXPECT_NE(machine_size_warning(trace, 100, "flat:100").find("size_scale:factor=0.7812 "),
            std::string::npos);
}

TEST(GuardRails, TheSuggestedTransformKeepsEveryJob) {
  RunConfig config;
  config.machine = "torus:4x4x4";
  config.transforms = {"size_scale:factor=0.5"};
  const RunResult result = simulate(config, small_trace());
  EXPECT_EQ(result.summary.jobs, 4);
  EXPECT_TRUE(result.diagnostics.notes.empty() ||
              result.diagnostics.notes.front().rfind("warning: ", 0) != 0);
}

TEST(GuardRails, JobsTooLargeForTheMachineNameTheirLines) {
  RunConfig config;
  config.machine = "torus:4x4x4";
  const RunResult result = simulate(config, small_trace());
  EXPECT_EQ(result.summary.jobs, 2);
  const auto& entry = result.diagnostics.entries.at("processors > machine size 64 (dropped)");
  EXPECT_EQ(entry.count, 2);
  EXPECT_EQ(entry.first_lines, (std::vector<std::int64_t>{5, 7}));
  ASSERT_FALSE(result.diagnostics.notes.empty());
  EXPECT_EQ(result.diagnostics.notes.front().rfind("warning: machine torus:4x4x4 has 64", 0), 0u);
}

TEST(GuardRails, JobsAnAllocatorCannotHoldNameTheirLines) {
  RunConfig config;
  config.machine = "torus:6x2";  // 12 nodes
  config.alloc = "subtorus";     // sizes rounded up to powers of two: 10 -> 16
  const Workload trace = parse_swf(
      "1 0 -1 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
      "2 10 -1 100 10 -1 -1 10 200 -1 1 1 1 1 1 -1 -1 -1\n",
      "rounded.swf");
  const RunResult result = simulate(config, trace);
  EXPECT_EQ(result.summary.jobs, 1);
  const auto& entry =
      result.diagnostics.entries.at("allocator needs more nodes than the machine has (dropped)");
  EXPECT_EQ(entry.first_lines, (std::vector<std::int64_t>{2}));
}

TEST(GuardRails, AnOrderingTypedAsAnAllocatorSuggestsTheCurveAllocator) {
  const Topology machine = Topology::parse("mesh:8x8");
  EXPECT_NE(message_of([&] {
              make_allocator("hilbert", machine);
            }).find("unknown allocator 'hilbert' (did you mean 'curve:order=hilbert'?)"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              make_allocator("snake", machine);
            }).find("(did you mean 'curve:order=snake'?)"),
            std::string::npos);
  // A misspelt allocator still gets the closest name.
  EXPECT_NE(message_of([&] {
              make_allocator("sortedfreelis", machine);
            }).find("(did you mean 'sortedfreelist'?)"),
            std::string::npos);
}

TEST(GuardRails, ARefusedAllocatorListsThoseThatWorkOnTheMachine) {
  const std::string message =
      message_of([] { make_allocator("submesh:fit=best", Topology::parse("mesh:4x4x4")); });
  EXPECT_NE(message.find("needs a 2D mesh"), std::string::npos) << message;
  const auto list_start = message.find("Allocators that work on mesh:4x4x4:");
  ASSERT_NE(list_start, std::string::npos) << message;
  std::istringstream list(message.substr(list_start + 35));
  std::set<std::string> names;
  for (std::string name; list >> name;)
    names.insert(name.back() == '.' ? name.substr(0, name.size() - 1) : name);
  EXPECT_TRUE(names.count("submesh3d")) << message;
  EXPECT_TRUE(names.count("curve")) << message;
  EXPECT_TRUE(names.count("random")) << message;
  EXPECT_FALSE(names.count("submesh")) << message;
  EXPECT_FALSE(names.count("mbs")) << message;
  EXPECT_FALSE(names.count("buddy2d")) << message;
}

}  // namespace
}  // namespace allocsim
