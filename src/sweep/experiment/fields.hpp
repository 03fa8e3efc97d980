#pragma once
// Internal to the sweep layer: the RunConfig fields an experiment may set, free
// variables and their {name} placeholders, and glob matching for [[exclude]].
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sweep/experiment/experiment.hpp"

namespace allocsim::sweep {

/// The config field an experiment file may set under `name` (config_fields() minus the
/// derived seeds), or nullptr: then `name` is a free variable.
const ConfigField* find_field(std::string_view name);
/// Sets a field from a resolved value (placeholders substituted); returns why it does not
/// parse, or an empty string.
std::string apply_field(RunConfig& config, const ConfigField& field, const Value& value);

/// Names written as {name} in `text` (name = letters, digits, underscores).
std::vector<std::string> placeholders(std::string_view text);
/// Replaces every {name} by lookup(name); a name lookup does not know is left in `missing`.
std::string substitute(std::string_view text,
                       const std::function<const std::string*(const std::string&)>& lookup,
                       std::vector<std::string>& missing);
/// Reports free variables never used as {name} and placeholders naming no variable.
void check_variables(const Experiment& experiment, std::vector<Problem>& problems);
/// Shell-style glob with `*` and `?`.
bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace allocsim::sweep

namespace allocsim::sweep {

/// Per-config problems grouped by message, so one misspelled name used by 40 configs is one
/// line: "config #3 [alloc=mc1xl sched=easy] (and 39 more configs): unknown allocator ...".
class ConfigProblems {
 public:
  void add(const std::string& config_where, const std::string& message);
  bool empty() const { return entries_.empty(); }
  void append_to(std::vector<Problem>& out) const;

 private:
  struct Entry {
    std::string message, first_where;
    std::int64_t count = 0;
  };
  std::vector<Entry> entries_;
};

/// "config #12 [alloc=flat sched=easy]".
std::string config_where(const ConfigEntry& entry);

}  // namespace allocsim::sweep
