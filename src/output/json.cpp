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

/// Text of a JSON value; invalid UTF-8 in names from trace files is replaced, not thrown on.
std::string text_of(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

std::string json_string(const std::string& text) {
  return text_of(nlohmann::ordered_json(text));
}

std::string json_number(double value) {
  return text_of(number_value(value));
}

std::string summary_json(const RunSummary& summary) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& column : summary_columns())
    out[column.name] = number_value(summary.*column.member);
  return text_of(out);
}

std::string diagnostics_json(const Diagnostics& diagnostics) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [reason, entry] : diagnostics.entries)
    out[reason] = {{"count", entry.count}, {"first_lines", entry.first_lines}};
  out["notes"] = diagnostics.notes;
  return text_of(out);
}

std::string decisions_json(const std::vector<DecisionRow>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& row : rows)
    out.push_back({{"decision", row.decision},
                   {"mean_pairwise_sum", number_value(row.mean_pairwise_sum)},
                   {"mean_avg_pairwise", number_value(row.mean_avg_pairwise)},
                   {"jobs", number_value(row.jobs)},
                   {"refusals", number_value(row.refusals)}});
  return text_of(out);
}

std::string config_json(const RunConfig& config) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& field : config_fields()) out[field.name] = visit_field(config, field, JsonOf{});
  return text_of(out);
}

}  // namespace allocsim::output
