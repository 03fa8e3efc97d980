#pragma once
// Validation of numbers read from user input (trace fields, spec parameters, options): every
// number must be finite, within its range and integral where it counts something.
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace allocsim {

/// Largest time (seconds) accepted in a trace or a synthetic distribution: about 31,700 years,
/// far beyond any real log, small enough that sums of times stay exact to a microsecond.
inline constexpr double kMaxTime = 1e12;
/// Largest processor count of one job (it must fit an `int`).
inline constexpr double kMaxProcs = std::numeric_limits<int>::max();

/// What a number must be: finite, in [min, max] (or (min, max] when `above_min`), and a whole
/// number when `integral`. The default rule accepts any finite number.
struct NumberRule {
  double min = -std::numeric_limits<double>::max();
  double max = std::numeric_limits<double>::max();
  bool integral = false;
  bool above_min = false;  ///< min itself is excluded (e.g. "a number > 0")

  /// True when `value` satisfies the rule (the fast check of violation(), for hot loops).
  bool accepts(double value) const {
    return std::isfinite(value) && (!integral || value == std::floor(value)) && value >= min &&
           value <= max && !(above_min && value == min);
  }
  /// Why `value` breaks the rule, as a diagnostic word: "non-finite", "non-integral" or
  /// "out of range"; nullopt when it satisfies the rule.
  std::optional<std::string> violation(double value) const;
  /// The range alone: "in [1, 64]", "> 0", ">= 0", "<= 5", or empty when unbounded.
  std::string range_text() const;
  /// What the rule expects, e.g. "an integer in [1, 2147483647]" or "a finite number > 0".
  std::string describe() const;
};

/// Rules used by several readers.
NumberRule integer_rule(double min, double max);
NumberRule real_rule(double min, double max);
/// A finite number > 0 and <= max.
NumberRule positive_rule(double max);

/// Parses the whole of `text` as a number (a leading '+' is allowed; "nan" and "inf" parse and
/// are then rejected by the rule). Returns nullopt when `text` is not a number at all.
std::optional<double> parse_double(std::string_view text);

/// Throws InputError "FIELD: expected RULE, got TEXT" unless `value` satisfies `rule`.
void require_number(double value, const NumberRule& rule, std::string_view field);
/// Parses `text` and checks it against `rule`; throws InputError naming `field` otherwise.
double parse_number(std::string_view text, const NumberRule& rule, std::string_view field);

/// Shortest text that reads back as `value` ("0.5", "1e+300", "nan").
std::string number_text(double value);

/// Rules of a run's numeric settings (options and experiment keys alike): the Δ of bounded
/// slowdown is finite and > 0 (it divides), the estimate factor finite in (0, 1e6], the timeout
/// finite and >= 0.
NumberRule bsd_threshold_rule();
NumberRule estimate_factor_rule();
NumberRule timeout_rule();

/// Validates the numeric options of one run (command line `--bsd-threshold`, `--estimate-factor`,
/// `--timeout`, or the same experiment keys): Δ of bounded slowdown finite and > 0 (it divides),
/// estimate factor finite in (0, 1e6], timeout finite and >= 0. Throws InputError naming the
/// option as written in `*_name`.
void validate_run_numbers(double bsd_threshold, double estimate_factor, double timeout_seconds,
                          std::string_view bsd_name = "bsd_threshold",
                          std::string_view estimate_name = "estimate_factor",
                          std::string_view timeout_name = "timeout");

}  // namespace allocsim
