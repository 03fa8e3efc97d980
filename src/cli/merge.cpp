// `allocsim merge part*.h5 -o all.h5`.
#include <iostream>
#include <memory>

#include "allocsim/sweep/store/merge.hpp"
#include "commands.hpp"

namespace allocsim::cli {

void add_merge_command(CLI::App& app) {
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto output = std::make_shared<std::string>();
  auto* command = app.add_subcommand(
      "merge", "combine result files of one experiment (job-array shards, partial runs)");
  command->add_option("inputs", *inputs, "result files")->required()->check(CLI::ExistingFile);
  command->add_option("-o,--output", *output, "merged result file")->required();
  command->callback([inputs, output] {
    const sweep::MergeSummary s = sweep::merge_results(*inputs, *output);
    std::cout << "merged " << inputs->size() << " files into " << *output << ": " << s.configs
              << " configs (" << s.done << " done, " << s.failed << " failed, " << s.timed_out
              << " timed out, " << s.pending << " pending)";
    if (s.missing > 0) std::cout << "; " << s.missing << " configs of the experiment are missing";
    std::cout << '\n';
  });
}

}  // namespace allocsim::cli
