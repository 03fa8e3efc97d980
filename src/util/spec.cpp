#include "allocsim/util/spec.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "allocsim/util/registry.hpp"

namespace allocsim {

namespace {
std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

std::optional<long long> parse_integer(const std::string& value) {
  long long parsed = 0;
  const auto* end = value.data() + value.size();
  auto [ptr, ec] = std::from_chars(value.data(), end, parsed);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return parsed;
}

/// Empty when `value` is valid for `spec`, else what was expected.
std::string value_problem(const ParamSpec& spec, const std::string& value) {
  NumberRule rule = spec.range;
  switch (spec.kind) {
    case ParamKind::integer: {
      rule.integral = true;
      const auto parsed = parse_integer(value);
      if (!parsed || rule.violation(static_cast<double>(*parsed))) return rule.describe();
      return {};
    }
    case ParamKind::real: {
      const auto parsed = parse_double(value);
      if (!parsed || rule.violation(*parsed)) return rule.describe();
      return {};
    }
    case ParamKind::choice: {
      if (std::find(spec.choices.begin(), spec.choices.end(), value) != spec.choices.end())
        return {};
      std::string expected = "one of";
      for (const auto& choice : spec.choices) expected += ' ' + choice;
      return expected;
    }
    case ParamKind::text:
      break;
  }
  return {};
}
}  // namespace

AlgoSpec AlgoSpec::parse(std::string_view text) {
  AlgoSpec spec;
  const auto colon = text.find(':');
  spec.name = trim(text.substr(0, colon));
  if (spec.name.empty()) throw InputError("empty name in spec '" + std::string(text) + "'");
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string token = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto equals = token.find('=');
    if (equals == std::string::npos) {
      if (spec.params.empty())
        throw InputError("in spec '" + std::string(text) + "': expected key=value, got '" + token +
                         "'");
      spec.params.back().second += "," + token;  // continuation of a value such as uniform:1,64
      continue;
    }
    spec.params.emplace_back(trim(token.substr(0, equals)), trim(token.substr(equals + 1)));
  }
  return spec;
}

Params::Params(const std::vector<ParamSpec>& specs,
               const std::vector<std::pair<std::string, std::string>>& given,
               std::string_view context) {
  for (const auto& spec : specs) {
    values_[spec.key] = spec.default_value;
    if (!spec.canonical) non_canonical_.push_back(spec.key);
  }
  std::vector<std::string> keys;
  for (const auto& spec : specs) keys.push_back(spec.key);
  std::vector<std::string> seen;
  for (const auto& pair : given) {
    const std::string& key = pair.first;  // not a structured binding: the lambda captures it
    const std::string& value = pair.second;
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      throw InputError(std::string(context) + ": parameter '" + key + "' is given twice");
    seen.push_back(key);
    auto found = std::find_if(specs.begin(), specs.end(),
                              [&](const ParamSpec& spec) { return spec.key == key; });
    if (found == specs.end()) {
      std::ostringstream message;
      message << context << ": unknown parameter '" << key << "'";
      const std::string suggestion = closest_match(key, keys);
      if (!suggestion.empty()) message << " (did you mean '" << suggestion << "'?)";
      message << "; valid parameters:";
      if (keys.empty()) message << " none";
      for (const auto& k : keys) message << ' ' << k;
      throw InputError(message.str());
    }
    const std::string expected = value_problem(*found, value);
    if (!expected.empty())
      throw InputError(std::string(context) + ": parameter '" + key + "' has value '" + value +
                       "', expected " + expected);
    values_[key] = value;
  }
  for (const auto& spec : specs)
    if (spec.canonical && !spec.default_in_canonical && values_[spec.key] == spec.default_value)
      non_canonical_.push_back(spec.key);
}

long long Params::integer(const std::string& key) const {
  const auto parsed = parse_integer(text(key));
  if (!parsed) throw InputError("parameter '" + key + "' is not an integer");
  return *parsed;
}

double Params::real(const std::string& key) const {
  const auto parsed = parse_double(text(key));
  if (!parsed) throw InputError("parameter '" + key + "' is not a number");
  return *parsed;
}

const std::string& Params::text(const std::string& key) const {
  auto found = values_.find(key);
  if (found == values_.end()) throw InputError("internal: parameter '" + key + "' not declared");
  return found->second;
}

std::string Params::canonical() const {
  std::string result;
  for (const auto& [key, value] : values_) {
    if (std::find(non_canonical_.begin(), non_canonical_.end(), key) != non_canonical_.end())
      continue;
    if (!result.empty()) result += ',';
    result += key + "=" + value;
  }
  return result;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 2) + 1;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

std::string plural(std::string_view noun) {
  const bool consonant_y =
      noun.size() > 1 && noun.back() == 'y' &&
      std::string_view("aeiou").find(noun[noun.size() - 2]) == std::string_view::npos;
  if (consonant_y) return std::string(noun.substr(0, noun.size() - 1)) + "ies";
  return std::string(noun) + "s";
}

std::string describe_registry(const std::string& family, const std::vector<std::string>& names,
                              const std::vector<std::string>& summaries,
                              const std::vector<std::vector<ParamSpec>>& params) {
  std::ostringstream out;
  out << plural(family) << ":\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    out << "  " << names[i];
    for (std::size_t pad = names[i].size(); pad < 18; ++pad) out << ' ';
    out << ' ' << summaries[i] << '\n';
    for (const auto& param : params[i]) {
      out << "      " << param.key << '=';
      if (param.kind == ParamKind::choice) {
        for (std::size_t c = 0; c < param.choices.size(); ++c)
          out << (c ? "|" : "") << param.choices[c];
      } else {
        out << (param.kind == ParamKind::integer ? "INT"
                : param.kind == ParamKind::real  ? "NUM"
                                                 : "TEXT");
      }
      const std::string range = param.range.range_text();
      if (param.kind != ParamKind::choice && param.kind != ParamKind::text && !range.empty())
        out << ' ' << range;
      out << "  (default " << (param.default_value.empty() ? "none" : param.default_value) << ") "
          << param.help << '\n';
    }
  }
  return out.str();
}

}  // namespace allocsim
