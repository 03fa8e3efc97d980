#pragma once
// Algorithm specs of the form `name:key=value,key=value`, validated against a parameter table.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/util/numbers.hpp"

namespace allocsim {

/// One `name:key=value,...` string split into its parts (not yet validated).
/// A comma-separated token without '=' continues the previous value, so that
/// `size=uniform:1,64` keeps `uniform:1,64` as one value.
struct AlgoSpec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;  // in written order

  static AlgoSpec parse(std::string_view text);
};

/// The declared type of a parameter.
enum class ParamKind { integer, real, text, choice };

/// One typed parameter of a registry entry, with its default value written as text.
/// Integer and real values must be finite and satisfy `range` (any finite number by default).
struct ParamSpec {
  std::string key;
  ParamKind kind = ParamKind::text;
  std::string default_value;
  std::string help;
  std::vector<std::string> choices;  // for ParamKind::choice
  NumberRule range{};                // for ParamKind::integer and ParamKind::real
  /// False for a permission such as `allow_large` that does not change results: it is left out
  /// of the canonical form, so config ids do not depend on it.
  bool canonical = true;
  /// False for a parameter added to an existing entry: at its default value it is left out of
  /// the canonical form, so the ids of configs written before it existed do not change.
  bool default_in_canonical = true;
};

/// Validated parameters: every declared key has a value (given or default).
class Params {
 public:
  Params() = default;
  /// Validates `given` against `specs`; throws InputError naming `context` on an unknown key,
  /// a value of the wrong type, a number that is not finite or out of its range, or a choice
  /// not in the list.
  Params(const std::vector<ParamSpec>& specs,
         const std::vector<std::pair<std::string, std::string>>& given, std::string_view context);

  long long integer(const std::string& key) const;
  double real(const std::string& key) const;
  const std::string& text(const std::string& key) const;
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  /// Canonical `key=value,...` form in key order (all keys but permissions, defaults filled in).
  std::string canonical() const;

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> non_canonical_;  ///< keys left out of canonical()
};

/// English plural of a family name: "allocator" -> "allocators", "topology" -> "topologies".
std::string plural(std::string_view noun);

/// Levenshtein distance, used for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);
/// The candidate closest to `word`, or empty when none is reasonably close.
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace allocsim
