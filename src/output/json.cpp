// JSON text of results and configs, built with nlohmann-json (Debian nlohmann-json3-dev).
#include "allocsim/output/json.hpp"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "allocsim/sim/config_fields.hpp"

namespace allocsim::output {

namespace {

/// A number as a JSON value: NaN and infinities become null (JSON has no such numbers).
nlohmann::ordered_json number_value(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

/// One config field's value as JSON.
struct JsonOf {
  nlohmann::ordered_json operator()(const std::string& value) const { return value; }
  nlohmann::ordered_json operator()(const std::vector<std::string>& value) const { return value; }
  nlohmann::ordered_json operator()(double value) const { return number_value(value); }
  nlohmann::ordered_json operator()(bool value) const { return value; }
  nlohmann::ordered_json operator()(std::uint64_t value) const { return value; }
};

}  // namespace

std::string json_text(const nlohmann::ordered_json& value) {
  std::string out;
  if (value.is_object()) {
    out = "{";
    for (auto item = value.begin(); item != value.end(); ++item)
      out += (item == value.begin() ? "" : ", ") + json_string(item.key()) + ": " +
             json_text(item.value());
    return out + "}";
  }
  if (value.is_array()) {
    out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + json_text(value[i]);
    return out + "]";
  }
  if (value.is_number_float()) return json_number(value.get<double>());
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string json_string(const std::string& text) {
  return nlohmann::ordered_json(text).dump(-1, ' ', false,
                                           nlohmann::ordered_json::error_handler_t::replace);
}

std::string json_number(double value) {  // shortest round-trip text, "5" rather than "5.0"
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

std::string summary_json(const RunSummary& summary) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& column : summary_columns())
    out[column.name] = number_value(summary.*column.member);
  return json_text(out);
}

std::string diagnostics_json(const Diagnostics& diagnostics) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [reason, entry] : diagnostics.entries)
    out[reason] = {{"count", entry.count}, {"first_lines", entry.first_lines}};
  out["notes"] = diagnostics.notes;
  return json_text(out);
}

std::string decisions_json(const std::vector<DecisionRow>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& row : rows)
    out.push_back({{"decision", row.decision},
                   {"mean_pairwise_sum", number_value(row.mean_pairwise_sum)},
                   {"mean_avg_pairwise", number_value(row.mean_avg_pairwise)},
                   {"jobs", number_value(row.jobs)},
                   {"refusals", number_value(row.refusals)}});
  return json_text(out);
}

std::string config_json(const RunConfig& config) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& field : config_fields()) out[field.name] = visit_field(config, field, JsonOf{});
  return json_text(out);
}

}  // namespace allocsim::output
