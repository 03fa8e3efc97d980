// Regression tests of issue 16 for the readers and specs: dirty numbers are counted under the
// right reason (or rejected in strict mode with file:line and the field), bad synthetic and
// transform specs are InputErrors naming the parameter and its range, and truncated or
// corrupted gzip traces are errors naming the file and the byte offset.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/workload/reader.hpp"
#include "allocsim/workload/transform.hpp"
#include "scratch.hpp"

using namespace allocsim;

namespace {
const std::string kBad = std::string(ALLOCSIM_TEST_DATA) + "/bad";

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::int64_t> lines_of(const Workload& w, const std::string& reason) {
  const auto found = w.diagnostics.entries.find(reason);
  return found == w.diagnostics.entries.end() ? std::vector<std::int64_t>{}
                                              : found->second.first_lines;
}

std::string swf_line(int id, const std::string& runtime = "100", const std::string& procs = "4") {
  return std::to_string(id) + " " + std::to_string(id * 10) + " 0 " + runtime + " " + procs +
         " -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n";
}
}  // namespace

TEST(DirtyFields, SwfLinesAreCountedUnderTheRightReason) {
  const Workload w = read_swf(kBad + "/dirty-fields.swf");
  ASSERT_EQ(w.jobs.size(), 2u);
  EXPECT_EQ(w.jobs[0].id, 1);
  EXPECT_EQ(w.jobs[1].id, 14);
  using Lines = std::vector<std::int64_t>;
  EXPECT_EQ(lines_of(w, "non-finite runtime (dropped)"), (Lines{4, 10}));
  EXPECT_EQ(lines_of(w, "non-finite submit (dropped)"), (Lines{5, 11}));
  EXPECT_EQ(lines_of(w, "non-finite estimate (dropped)"), (Lines{6, 14}));
  EXPECT_EQ(lines_of(w, "processors out of range (dropped)"), (Lines{7, 8}));
  EXPECT_EQ(lines_of(w, "non-integral processors (dropped)"), (Lines{9, 13}));
  EXPECT_EQ(lines_of(w, "runtime out of range (dropped)"), (Lines{12}));
  EXPECT_EQ(lines_of(w, "non-integral user id (dropped)"), (Lines{15}));
  EXPECT_EQ(w.diagnostics.total("processors <= 0 (dropped)"), 0);
  std::int64_t dropped = 0;
  for (const auto& [reason, entry] : w.diagnostics.entries) dropped += entry.count;
  EXPECT_EQ(dropped, 12);  // every dirty line is counted exactly once
}

TEST(DirtyFields, FourColumnLinesAreCountedUnderTheRightReason) {
  const Workload w = read_four_column(kBad + "/dirty-fields.txt");
  ASSERT_EQ(w.jobs.size(), 2u);
  EXPECT_DOUBLE_EQ(w.jobs[1].estimate, 200);  // estimate -1 -> 2 x runtime
  using Lines = std::vector<std::int64_t>;
  EXPECT_EQ(lines_of(w, "non-finite processors (dropped)"), (Lines{3}));
  EXPECT_EQ(lines_of(w, "non-finite runtime (dropped)"), (Lines{4}));
  EXPECT_EQ(lines_of(w, "non-finite submit (dropped)"), (Lines{5}));
  EXPECT_EQ(lines_of(w, "non-integral processors (dropped)"), (Lines{6}));
  EXPECT_EQ(lines_of(w, "processors out of range (dropped)"), (Lines{7}));
  EXPECT_EQ(lines_of(w, "non-finite estimate (dropped)"), (Lines{8}));
}

TEST(DirtyFields, StrictModeNamesFileLineFieldAndExpectation) {
  ReadOptions strict;
  strict.strict = true;
  const std::vector<std::pair<std::string, std::string>> cases{
      {swf_line(2, "nan"),
       "runtime (SWF field 4): expected a finite number in [-1e+12, 1e+12], got 'nan'"},
      {swf_line(2, "inf"), "runtime (SWF field 4): expected a finite number"},
      {swf_line(2, "100", "1e300"),
       "processors (SWF field 5, allocated): expected an integer in [-2147483647, 2147483647], got "
       "'1e300'"},
      {swf_line(2, "100", "99999999999999999999"),
       "processors (SWF field 5, allocated): expected an integer in [-2147483647, 2147483647], got "
       "'99999999999999999999'"},
      {swf_line(2, "100", "0.5"), "processors (SWF field 5, allocated): expected an integer"},
      {"2 nan 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1\n", "submit (SWF field 2)"},
      {"2 0 0 100 4 -1 -1 4 nan -1 1 1 1 1 1 1 -1 -1\n", "estimate (SWF field 9, requested time)"},
  };
  ScratchFile file("strict.swf");
  for (const auto& [line, expected] : cases) {
    file.write("; header\n" + swf_line(1) + line);
    const std::string message = message_of([&] { read_swf(file.path(), strict); });
    EXPECT_NE(message.find(file.path() + ":3: " + expected), std::string::npos)
        << line << " -> " << message;
    // Without --strict the same line is a counted skip, never a job.
    EXPECT_EQ(read_swf(file.path()).jobs.size(), 1u) << line;
  }
  // SWF's "unknown" markers stay counted drops even in strict mode.
  file.write(swf_line(1) + swf_line(2, "-1") + "3 0 0 100 -1 -1 -1 -1 -1 -1 1 1 1 1 1 1 -1 -1\n");
  EXPECT_EQ(read_swf(file.path(), strict).jobs.size(), 1u);
}

TEST(DirtyFields, StrictFourColumnNamesTheColumn) {
  ReadOptions strict;
  strict.strict = true;
  const std::string message =
      message_of([&] { read_four_column(kBad + "/dirty-fields.txt", strict); });
  EXPECT_NE(message.find("dirty-fields.txt:3: processors (column 2): expected an integer in "
                         "[-2147483647, 2147483647], got 'nan'"),
            std::string::npos)
      << message;
}

TEST(DirtyFields, BadEstimateFactorIsAnError) {
  for (double factor : {std::nan(""), double{INFINITY}, -1.0, 0.0}) {
    ReadOptions options;
    options.estimate_factor = factor;
    const std::string message = message_of([&] { read_swf(kBad + "/dirty-fields.swf", options); });
    EXPECT_NE(message.find("estimate factor: expected a finite number in (0, 1e+06]"),
              std::string::npos)
        << message;
  }
}

TEST(DirtyFields, BinaryDataIsAnError) {
  const std::string message = message_of([] { read_swf(kBad + "/binary.swf"); });
  EXPECT_NE(message.find("binary.swf': binary data (a NUL byte at text byte 74)"),
            std::string::npos)
      << message;
}

TEST(BadSpecs, EveryLineOfTheTableIsAClearError) {
  std::ifstream table(kBad + "/bad-specs.txt");
  std::string line;
  int checked = 0;
  while (std::getline(table, line)) {
    if (line.empty() || line.front() == '#') continue;
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    const std::string spec = line.substr(0, tab), expected = line.substr(tab + 1);
    const std::string message = message_of([&] {
      Rng rng(1);
      if (spec.rfind("synthetic", 0) == 0) {
        generate_synthetic(spec, rng);
      } else {
        Workload w;
        w.jobs = {Job{1, 0, 10, 20, 4, 0, 0, 1}, Job{2, 5, 10, 20, 2, 0, 0, 1}};
        TransformContext context{16, &rng};
        apply_transform(w, spec, context);
      }
    });
    EXPECT_NE(message.find(expected), std::string::npos) << spec << " -> " << message;
    if (spec.rfind("synthetic", 0) == 0) {  // the check without generating says the same
      EXPECT_EQ(message_of([&] { validate_synthetic_spec(spec); }), message);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 32);
}

TEST(BadSpecs, LargeSyntheticWorkloadsNeedAnOverrideThatKeepsTheConfigId) {
  Rng rng(1);
  // allow_large is a permission: it is accepted and left out of the canonical spelling.
  const Workload w = generate_synthetic("synthetic:jobs=3,allow_large=1", rng);
  EXPECT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(w.source.find("allow_large"), std::string::npos) << w.source;
  EXPECT_NO_THROW(check_job_count(kMaxJobsWithoutOverride, false, "x"));
  EXPECT_THROW(check_job_count(kMaxJobsWithoutOverride + 1, false, "x"), InputError);
  EXPECT_NO_THROW(check_job_count(kMaxJobsWithoutOverride + 1, true, "x"));
  // replicate applies the same limit to the jobs it would produce.
  Workload big;
  big.jobs.resize(20'000, Job{1, 0, 10, 20, 4, 0, 0, 1});
  TransformContext context{16, &rng};
  EXPECT_THROW(apply_transform(big, "replicate:copies=501", context), InputError);
  EXPECT_EQ(big.jobs.size(), 20'000u);
}

TEST(BadSpecs, ExtremeButValidSizesStayInRange) {
  Rng rng(3);
  const Workload pow2 = generate_synthetic("synthetic:jobs=200,size=pow2:1,1073741824", rng);
  for (const Job& job : pow2.jobs) {
    EXPECT_GE(job.procs, 1);
    EXPECT_EQ(job.procs & (job.procs - 1), 0);
  }
  const Workload sides = generate_synthetic("synthetic:jobs=50,size=sides:46340", rng);
  for (const Job& job : sides.jobs) EXPECT_EQ(job.procs, job.shape_a * job.shape_b);
  const Workload wide = generate_synthetic("synthetic:jobs=50,size=const:2147483647", rng);
  EXPECT_EQ(wide.jobs[0].procs, 2147483647);
  // Scaling or rounding such sizes caps them instead of wrapping around.
  Workload w = wide;
  TransformContext context{16, &rng};
  apply_transform(w, "size_scale:factor=1000", context);
  EXPECT_EQ(w.jobs[0].procs, 2147483647);
  w = generate_synthetic("synthetic:jobs=5,size=const:1500000000", rng);
  apply_transform(w, "size_round", context);
  EXPECT_EQ(w.jobs[0].procs, 2147483647);
}
