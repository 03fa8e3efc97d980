#pragma once
// `allocsim merge part*.h5 -o all.h5`: combines the result files of one
// experiment (job-array shards, or partial runs), refusing files of different experiments.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace allocsim::sweep {

struct MergeSummary {
  std::int64_t configs = 0;  ///< rows in the merged /configs
  std::int64_t done = 0, failed = 0, timed_out = 0, pending = 0;
  std::int64_t missing = 0;  ///< configs of the experiment in none of the inputs
};

/// Merges `inputs` into `output` (overwritten). A config present in several inputs keeps its
/// best row (done, then failed/timed out, then pending; first input wins ties). Throws
/// InputError when the inputs belong to different experiments (name, seed or fingerprint) or
/// one of them is a live file of an unfinished run.
MergeSummary merge_results(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace allocsim::sweep
