#pragma once
// Internal to the sweep layer: the table of RunConfig fields an experiment may set, free
// variables and their {name} placeholders, and glob matching for [[exclude]].
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/sweep/experiment.hpp"

namespace allocsim::sweep {

enum class FieldKind { text, list, real, boolean };

/// A config field settable from [base], [sweep], [[include]].
struct FieldSpec {
  const char* name;
  FieldKind kind;
  /// Sets the field from a resolved value (placeholders substituted); returns an error text
  /// when the value does not parse.
  std::string (*apply)(RunConfig& config, const Value& value);
};

const std::vector<FieldSpec>& field_table();
const FieldSpec* find_field(std::string_view name);
std::string field_kind_text(FieldKind kind);
/// "a; b; c" (the text form of list fields in /configs and labels).
std::string join_list(const std::vector<std::string>& items);

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
