// Published values against measurements, and the three ways of printing them; see reproduce.hpp.
#include <cmath>
#include <cstdio>
#include <sstream>

#include <toml++/toml.h>

#include "allocsim/output/json.hpp"
#include "allocsim/output/table.hpp"
#include "allocsim/sweep/reproduce/reproduce.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

namespace {

std::string required_text(const toml::table& table, const std::string& key,
                          const std::string& where) {
  const auto value = table[key].value<std::string>();
  if (!value) throw InputError(where + ": missing text field '" + key + "'");
  return *value;
}

/// Up to 6 significant digits, no trailing zeros ("5256", "1.75", "0.01").
std::string short_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string tolerance_text(const PublishedValue& value) {
  if (value.fact) return "holds";
  if (value.relative) return "±" + short_number(value.tolerance * 100) + " %";
  return "±" + short_number(value.tolerance);
}

std::string ours_text(const Comparison& c) {
  if (!c.measured) return "not measured";
  if (c.published.fact) return c.ours != 0 ? "holds" : "does not hold";
  return short_number(c.ours);
}

std::string difference_text(const Comparison& c) {
  if (!c.measured || c.published.fact) return "";
  std::string text(c.difference >= 0 ? "+" : "");  // (not "+" + string: GCC 12 -Wrestrict)
  text += short_number(c.difference);
  if (c.published.value != 0) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, " (%+.2f %%)", 100 * c.difference / c.published.value);
    text += buffer;
  }
  return text;
}

std::vector<std::vector<std::string>> rows_of(const Reproduction& r) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : r.comparisons)
    rows.push_back({c.published.key, c.published.fact ? "yes" : short_number(c.published.value),
                    ours_text(c), difference_text(c), tolerance_text(c.published),
                    c.pass ? "PASS" : "FAIL"});
  return rows;
}

const std::vector<std::string> kHeader{"quantity",   "published", "ours",
                                       "difference", "tolerance", "result"};

}  // namespace

Published read_published(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    throw InputError(path + ": " + std::string(error.description()));
  }
  Published published;
  published.study = required_text(root, "study", path);
  published.paper = required_text(root, "paper", path);
  const toml::array* values = root["value"].as_array();
  if (!values) throw InputError(path + ": no [[value]] entries");
  for (const auto& node : *values) {
    const toml::table* table = node.as_table();
    if (!table) throw InputError(path + ": every [[value]] must be a table");
    PublishedValue value;
    value.key = required_text(*table, "key", path);
    const std::string where = path + " [" + value.key + "]";
    value.what = required_text(*table, "what", where);
    value.source = required_text(*table, "source", where);
    value.page = required_text(*table, "page", where);
    value.fact = (*table)["fact"].value_or(false);
    if (!value.fact) {
      const auto number = (*table)["value"].value<double>();
      const auto tolerance = (*table)["tolerance"].value<double>();
      if (!number || !tolerance || *tolerance < 0)
        throw InputError(where + ": a number needs 'value' and a 'tolerance' >= 0");
      value.value = *number;
      value.tolerance = *tolerance;
      value.relative = (*table)["relative"].value_or(false);
    }
    published.values.push_back(std::move(value));
  }
  return published;
}

bool Reproduction::all_pass() const {
  for (const auto& c : comparisons)
    if (!c.pass) return false;
  return !comparisons.empty();
}

Reproduction compare(const Published& published, const Measurements& measured, bool quick) {
  Reproduction result;
  result.study = published.study;
  result.paper = published.paper;
  result.quick = quick;
  result.measurements = measured;
  for (const auto& value : published.values) {
    Comparison c;
    c.published = value;
    if (value.fact) {
      const auto found = measured.facts.find(value.key);
      c.measured = found != measured.facts.end();
      c.ours = c.measured && found->second ? 1 : 0;
      c.pass = c.measured && found->second;
    } else {
      const auto found = measured.numbers.find(value.key);
      c.measured = found != measured.numbers.end() && std::isfinite(found->second);
      if (c.measured) {
        c.ours = found->second;
        c.difference = c.ours - value.value;
        const double allowed =
            value.relative ? value.tolerance * std::abs(value.value) : value.tolerance;
        c.pass = std::abs(c.difference) <= allowed;
      }
    }
    result.comparisons.push_back(c);
  }
  return result;
}

std::string format_text(const Reproduction& r) {
  std::ostringstream out;
  out << r.study
      << (r.quick ? " (quick run: reduced inputs, published values are for the full run)" : "")
      << "\n"
      << r.paper << "\n\n"
      << output::aligned_table(kHeader, rows_of(r), {true, false, false, false, false, true});
  int passed = 0;
  for (const auto& c : r.comparisons) passed += c.pass ? 1 : 0;
  out << "\n" << passed << " of " << r.comparisons.size() << " PASS\n";
  for (const auto& note : r.measurements.notes) out << "note: " << note << "\n";
  for (const auto& figure : r.measurements.figures) out << "figure: " << figure << "\n";
  return out.str();
}

std::string format_json(const Reproduction& r) {
  using output::json_number;
  using output::json_string;
  std::ostringstream out;
  out << "{\n  \"study\": " << json_string(r.study) << ",\n  \"paper\": " << json_string(r.paper)
      << ",\n  \"quick\": " << (r.quick ? "true" : "false")
      << ",\n  \"all_pass\": " << (r.all_pass() ? "true" : "false") << ",\n  \"comparisons\": [";
  for (std::size_t i = 0; i < r.comparisons.size(); ++i) {
    const Comparison& c = r.comparisons[i];
    const PublishedValue& p = c.published;
    out << (i ? "," : "") << "\n    {\"key\": " << json_string(p.key)
        << ", \"what\": " << json_string(p.what) << ", \"kind\": \"" << (p.fact ? "fact" : "number")
        << "\"";
    if (!p.fact)
      out << ", \"published\": " << json_number(p.value)
          << ", \"tolerance\": " << json_number(p.tolerance)
          << ", \"relative\": " << (p.relative ? "true" : "false");
    out << ", \"measured\": " << (c.measured ? "true" : "false");
    if (c.measured) out << ", \"ours\": " << json_number(c.ours);
    if (c.measured && !p.fact) out << ", \"difference\": " << json_number(c.difference);
    out << ", \"pass\": " << (c.pass ? "true" : "false")
        << ", \"source\": " << json_string(p.source) << ", \"page\": " << json_string(p.page)
        << "}";
  }
  out << "\n  ],\n  \"notes\": [";
  for (std::size_t i = 0; i < r.measurements.notes.size(); ++i)
    out << (i ? ", " : "") << json_string(r.measurements.notes[i]);
  out << "],\n  \"figures\": [";
  for (std::size_t i = 0; i < r.measurements.figures.size(); ++i)
    out << (i ? ", " : "") << json_string(r.measurements.figures[i]);
  out << "]\n}\n";
  return out.str();
}

std::string format_markdown(const Reproduction& r) {
  std::ostringstream out;
  out << "## " << r.study << (r.quick ? " (quick run)" : "") << "\n\n" << r.paper << "\n\n";
  out << "| quantity | what | source | published | ours | difference | tolerance | result |\n"
      << "|---|---|---|---:|---:|---:|---:|---|\n";
  const auto rows = rows_of(r);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const PublishedValue& p = r.comparisons[i].published;
    out << "| " << rows[i][0] << " | " << p.what << " | " << p.source << ", " << p.page << " | "
        << rows[i][1] << " | " << rows[i][2] << " | " << rows[i][3] << " | " << rows[i][4] << " | "
        << rows[i][5] << " |\n";
  }
  int passed = 0;
  for (const auto& c : r.comparisons) passed += c.pass ? 1 : 0;
  out << "\n" << passed << " of " << r.comparisons.size() << " PASS.\n";
  if (!r.measurements.notes.empty()) out << "\n";
  for (const auto& note : r.measurements.notes) out << "- " << note << "\n";
  for (const auto& figure : r.measurements.figures)
    out << "\n![" << r.study << "](" << figure << ")\n";
  return out.str();
}

}  // namespace allocsim::sweep
