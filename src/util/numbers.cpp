#include "allocsim/util/numbers.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "allocsim/util/error.hpp"

namespace allocsim {

std::optional<std::string> NumberRule::violation(double value) const {
  if (!std::isfinite(value)) return "non-finite";
  if (integral && value != std::floor(value)) return "non-integral";
  if (value < min || value > max || (above_min && value == min)) return "out of range";
  return std::nullopt;
}

std::string NumberRule::range_text() const {
  const bool has_min = min > -std::numeric_limits<double>::max();
  const bool has_max = max < std::numeric_limits<double>::max();
  if (has_min && has_max)
    return "in " + std::string(above_min ? "(" : "[") + number_text(min) + ", " + number_text(max) +
           "]";
  if (has_min) return (above_min ? "> " : ">= ") + number_text(min);
  if (has_max) return "<= " + number_text(max);
  return {};
}

std::string NumberRule::describe() const {
  const std::string range = range_text();
  return (integral ? "an integer" : "a finite number") + (range.empty() ? "" : " " + range);
}

NumberRule integer_rule(double min, double max) {
  return {min, max, true, false};
}
NumberRule real_rule(double min, double max) {
  return {min, max, false, false};
}
NumberRule positive_rule(double max) {
  return {0, max, false, true};
}

std::optional<double> parse_double(std::string_view text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) return std::nullopt;
  }
  if (text.empty()) return std::nullopt;
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ptr != end) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // Too large or too small for a double: report it as infinite or zero, which the rules
    // then name ("non-finite" / in range), instead of "not a number".
    const std::string copy(text);
    return std::strtod(copy.c_str(), nullptr);
  }
  if (ec != std::errc()) return std::nullopt;
  return value;
}

std::string number_text(double value) {
  char buffer[40];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

void require_number(double value, const NumberRule& rule, std::string_view field) {
  if (rule.violation(value))
    throw InputError(std::string(field) + ": expected " + rule.describe() + ", got " +
                     number_text(value));
}

double parse_number(std::string_view text, const NumberRule& rule, std::string_view field) {
  const auto value = parse_double(text);
  if (!value || rule.violation(*value))
    throw InputError(std::string(field) + ": expected " + rule.describe() + ", got '" +
                     std::string(text) + "'");
  return *value;
}

void validate_run_numbers(double bsd_threshold, double estimate_factor, double timeout_seconds,
                          std::string_view bsd_name, std::string_view estimate_name,
                          std::string_view timeout_name) {
  require_number(bsd_threshold, bsd_threshold_rule(), bsd_name);
  require_number(estimate_factor, estimate_factor_rule(), estimate_name);
  require_number(timeout_seconds, timeout_rule(), timeout_name);
}

NumberRule bsd_threshold_rule() {
  return positive_rule(kMaxTime);
}
NumberRule estimate_factor_rule() {
  return positive_rule(1e6);
}
NumberRule timeout_rule() {
  return real_rule(0, kMaxTime);
}

}  // namespace allocsim
