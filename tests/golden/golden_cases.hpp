#pragma once
// The golden cases: one small whole simulation per entry of every registry family (allocators,
// schedulers, orderings, runtime models, transforms), a few parameter variants, and one case per
// topology kind. The case list is derived from the registries, so a new entry gets a case (and
// then needs a golden file) without touching this test.
#include <ostream>
#include <string>
#include <vector>

#include "allocsim/sim/config.hpp"

namespace allocsim::golden {

/// One golden run. `config.machine` is left empty when `machines` lists candidates: the first
/// candidate the allocator supports is used (allocator factories throw InputError otherwise).
struct GoldenCase {
  std::string family;  ///< directory under tests/golden/
  std::string entry;   ///< registry entry (or topology spec) the case covers
  std::string name;    ///< file stem: the entry, or "<entry>.<variant>"
  RunConfig config;
  std::vector<std::string> machines;  ///< candidate machines, in order of preference
};

/// Every golden case. `golden_dir` is the tests/golden folder (input files live there).
std::vector<GoldenCase> golden_cases(const std::string& golden_dir);

/// gtest prints a case as "<family>/<name>".
void PrintTo(const GoldenCase& golden_case, std::ostream* out);

/// The families golden_cases produces, i.e. the allowed directories under tests/golden/
/// (besides `inputs/`).
const std::vector<std::string>& golden_families();

/// The case's machine: config.machine when set, else the first candidate its allocator supports.
/// Throws InputError naming the candidates when none does.
std::string choose_machine(const GoldenCase& golden_case);

}  // namespace allocsim::golden
