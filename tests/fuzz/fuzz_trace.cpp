// Fuzz target: the trace readers (issue 16). The first byte picks the format and strictness
// ('0' SWF, '1' SWF strict, '2' 4-column, '3' 4-column strict; only its two low bits count);
// the rest is the file's bytes, plain or gzip. Any input must give a workload whose jobs are
// all usable, or an InputError; anything else (crash, other exception, sanitizer report) is a
// finding.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/reader.hpp"

namespace {

/// Aborts unless every job has finite, in-range fields and jobs are sorted by submit time.
void check_workload(const allocsim::Workload& workload) {
  double previous = -INFINITY;
  for (const allocsim::Job& job : workload.jobs) {
    const bool valid = std::isfinite(job.submit) && std::isfinite(job.runtime) &&
                       std::isfinite(job.estimate) && job.runtime >= 0 && job.estimate >= 0 &&
                       job.procs >= 1 && job.submit >= previous;
    if (!valid) std::abort();
    previous = job.submit;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  allocsim::ReadOptions options;
  options.strict = (data[0] & 1) != 0;
  const bool four_column = (data[0] & 2) != 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const std::string text = allocsim::decode_trace_bytes(bytes, "fuzz-input");
    check_workload(four_column ? allocsim::parse_four_column(text, "fuzz-input", options)
                               : allocsim::parse_swf(text, "fuzz-input", options));
  } catch (const allocsim::InputError&) {
  }
  return 0;
}
