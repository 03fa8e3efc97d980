// Fuzz target: the TOML experiment loader (issue 16). Any text must parse or raise InputError
// (ExperimentError listing the problems); crashes, other exceptions and sanitizer reports are
// findings.
#include <cstdint>
#include <string>

#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    allocsim::sweep::parse_experiment(text, "fuzz.toml", "fuzz-dir");
  } catch (const allocsim::InputError&) {
  }
  return 0;
}
