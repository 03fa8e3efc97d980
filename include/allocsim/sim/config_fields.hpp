#pragma once
// The table of RunConfig fields: each field's name, member (hence type and default: the
// member's initializer in config.hpp), one-line help, role and validation, declared once.
// Everything that handles configs field by field walks this table, as the writers of results
// walk metrics/records.hpp: experiment files (TOML keys), validation and its messages,
// RunConfig::canonical(), the /configs HDF5 columns, JSON/CSV output, MPI serialization and
// `report`'s grouping columns. Adding a RunConfig member plus one line here is all it takes.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "allocsim/sim/config.hpp"

namespace allocsim {

/// The value type of a config field (the order matches FieldMember's alternatives).
enum class FieldType { text, text_list, real, boolean, unsigned_integer };

/// The RunConfig member holding a field; the alternative it holds is the field's type.
using FieldMember =
    std::variant<std::string RunConfig::*, std::vector<std::string> RunConfig::*,
                 double RunConfig::*, bool RunConfig::*, std::uint64_t RunConfig::*>;

/// What a field means for a config's identity.
enum class FieldRole {
  identity,  ///< part of canonical() (hence of the config id); `report` groups by it
  setting,   ///< settable in experiment files but does not change results (keep_jobs, timeout)
  derived,   ///< set by the sweep from the experiment seed, never written in experiment files
};

/// One row of the field table.
struct ConfigField {
  const char* name;  ///< experiment-file key, /configs column, JSON key
  FieldMember member;
  const char* help;  ///< one line, shown by `allocsim list fields`
  const char* unit;  ///< unit of a number ("s"), "" when none
  FieldRole role;
  /// Identity fields written in every canonical() text even at their default. Fields added
  /// later are written only when they differ from the default, so adding a field keeps the id
  /// of every existing config.
  bool always_in_canonical;
  /// Checks one value (each item of a list; a number or boolean as its field_text); returns
  /// the problem as a full message, or an empty string when the value is valid. nullptr: any
  /// value of the type is valid.
  std::string (*check)(const std::string& item);
  /// Canonical spelling of one value (each item of a list); throws InputError like `check`
  /// reports. nullptr: the value as written.
  std::string (*canonical)(const std::string& item);
  /// A valid value different from the default, as text (field_text form); the round-trip
  /// test sets every field to it.
  const char* example;

  FieldType type() const { return static_cast<FieldType>(member.index()); }
};

/// Every RunConfig field, in /configs column order.
const std::vector<ConfigField>& config_fields();
/// The field called `name`, or nullptr.
const ConfigField* find_config_field(std::string_view name);

/// Calls `visit(value)` with a reference to the field's member of `config` (std::string&,
/// std::vector<std::string>&, double&, bool& or std::uint64_t&).
template <class Config, class Visitor>
decltype(auto) visit_field(Config& config, const ConfigField& field, Visitor&& visit) {
  return std::visit([&](auto member) -> decltype(auto) { return visit(config.*member); },
                    field.member);
}

/// "a string", "a list of strings", "a number", "true or false", "a whole number".
std::string field_type_text(FieldType type);
/// "a; b; c": the one-line text of a list field (/configs cells, CSV, labels).
std::string join_list(const std::vector<std::string>& items);
/// Inverse of join_list ("" is the empty list).
std::vector<std::string> split_list(std::string_view text);

/// The field's value as text: strings as they are, lists joined by "; ", numbers in shortest
/// round-trip form, booleans as true/false.
std::string field_text(const RunConfig& config, const ConfigField& field);
/// Sets a field from text items: one item for a scalar field, any number for a list. Returns
/// why the text does not parse ("'x' is not a number"), or an empty string.
std::string set_field(RunConfig& config, const ConfigField& field,
                      const std::vector<std::string>& items);
/// The values a field's check sees: the items of a list, else the one field_text.
std::vector<std::string> field_items(const RunConfig& config, const ConfigField& field);
/// Every problem of the config's field values (the messages of the fields' checks).
std::vector<std::string> check_fields(const RunConfig& config);

}  // namespace allocsim
