// Published values against measurements, and the three ways of printing them; see reproduce.hpp.
#include <algorithm>
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

bool quick_reference(const Comparison& c, bool quick) {
  return quick && c.published.quick == PublishedValue::Quick::reference;
}

std::string tolerance_text(const Comparison& c, bool quick) {
  const PublishedValue& value = c.published;
  if (value.fact) return "holds";
  const bool reference = quick_reference(c, quick);
  const double tolerance = reference ? value.quick_tolerance : value.tolerance;
  if (reference ? value.quick_relative : value.relative)
    return "±" + short_number(tolerance * 100) + " %";
  return "±" + short_number(tolerance);
}

/// The published column: the paper's value, and in a quick run the quick run's own reference
/// beside it when that is what is compared.
std::string published_text(const Comparison& c, bool quick) {
  std::string text = c.published.fact ? "yes" : short_number(c.published.value);
  if (quick_reference(c, quick)) text += " (quick ref " + short_number(c.reference) + ")";
  return text;
}

std::string verdict_text(const Comparison& c) {
  if (!c.applicable) return "n/a (quick)";
  return c.pass ? "PASS" : "FAIL";
}

std::string ours_text(const Comparison& c) {
  if (!c.applicable && !c.measured) return "";
  if (!c.measured) return "not measured";
  if (c.published.fact) return c.ours != 0 ? "holds" : "does not hold";
  return short_number(c.ours);
}

std::string difference_text(const Comparison& c) {
  if (!c.applicable || !c.measured || c.published.fact) return "";
  std::string text(c.difference >= 0 ? "+" : "");  // (not "+" + string: GCC 12 -Wrestrict)
  text += short_number(c.difference);
  if (c.reference != 0) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, " (%+.2f %%)", 100 * c.difference / c.reference);
    text += buffer;
  }
  return text;
}

std::vector<std::vector<std::string>> rows_of(const Reproduction& r) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& c : r.comparisons)
    rows.push_back({c.published.key, published_text(c, r.quick), ours_text(c), difference_text(c),
                    tolerance_text(c, r.quick), verdict_text(c)});
  return rows;
}

const std::vector<std::string> kHeader{"quantity",   "published", "ours",
                                       "difference", "tolerance", "result"};

/// The optional quick-run fields of a [[value]] (README.md): `quick = true`, or
/// `quick_value` with `quick_tolerance` (and `quick_relative`) for numbers.
void read_quick(const toml::table& table, const std::string& where, PublishedValue& value) {
  for (const auto& [key, node] : table) {
    static const std::vector<std::string> known{
        "key",    "what", "fact",  "value",       "tolerance",       "relative",
        "source", "page", "quick", "quick_value", "quick_tolerance", "quick_relative"};
    if (std::find(known.begin(), known.end(), std::string(key.str())) == known.end())
      throw InputError(where + ": unknown field '" + std::string(key.str()) + "' (expected " +
                       "key, what, fact, value, tolerance, relative, source, page, quick, " +
                       "quick_value, quick_tolerance, quick_relative)");
  }
  const auto quick_value = table["quick_value"].value<double>();
  const auto quick_tolerance = table["quick_tolerance"].value<double>();
  const bool same = table["quick"].value_or(false);
  if (table.contains("quick") && !table["quick"].is_boolean())
    throw InputError(where + ": 'quick' must be true or false");
  if (quick_value || quick_tolerance || table.contains("quick_relative")) {
    if (value.fact)
      throw InputError(where + ": a fact takes 'quick = true', not a quick reference value");
    if (same) throw InputError(where + ": give 'quick = true' or 'quick_value', not both");
    if (!quick_value || !quick_tolerance || *quick_tolerance < 0 || !std::isfinite(*quick_value))
      throw InputError(where + ": a quick reference needs 'quick_value' and a " +
                       "'quick_tolerance' >= 0");
    value.quick = PublishedValue::Quick::reference;
    value.quick_value = *quick_value;
    value.quick_tolerance = *quick_tolerance;
    value.quick_relative = table["quick_relative"].value_or(false);
  } else if (same) {
    value.quick = PublishedValue::Quick::same;
  }
}

/// "N of M PASS", and in a quick run "N of K checkable PASS (L n/a in a quick run)".
std::string summary_text(const Reproduction& r) {
  int passed = 0, checked = 0;
  for (const auto& c : r.comparisons) {
    passed += c.applicable && c.pass ? 1 : 0;
    checked += c.applicable ? 1 : 0;
  }
  const int total = static_cast<int>(r.comparisons.size());
  if (!r.quick) return std::to_string(passed) + " of " + std::to_string(total) + " PASS";
  return std::to_string(passed) + " of " + std::to_string(checked) + " checkable PASS (" +
         std::to_string(total - checked) + " n/a in a quick run)";
}

const char* quick_name(PublishedValue::Quick quick) {
  switch (quick) {
    case PublishedValue::Quick::same:
      return "same";
    case PublishedValue::Quick::reference:
      return "reference";
    default:
      return "none";
  }
}

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
    read_quick(*table, where, value);
    published.values.push_back(std::move(value));
  }
  return published;
}

bool Reproduction::all_pass() const {
  int checked = 0;
  for (const auto& c : comparisons) {
    if (!c.applicable) continue;
    if (!c.pass) return false;
    ++checked;
  }
  return checked > 0;
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
    c.applicable = !quick || value.quick != PublishedValue::Quick::not_checked;
    const bool reference = quick && value.quick == PublishedValue::Quick::reference;
    c.reference = reference ? value.quick_value : value.value;
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
        c.difference = c.ours - c.reference;
        const double tolerance = reference ? value.quick_tolerance : value.tolerance;
        const bool relative = reference ? value.quick_relative : value.relative;
        const double allowed = relative ? tolerance * std::abs(c.reference) : tolerance;
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
      << (r.quick ? " (quick run: reduced inputs; only the rows a reduced run can check are "
                    "compared, with the published trend or the quick run's own reference)"
                  : "")
      << "\n"
      << r.paper << "\n\n"
      << output::aligned_table(kHeader, rows_of(r), {true, false, false, false, false, true});
  out << "\n" << summary_text(r) << "\n";
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
    out << ", \"quick_check\": \"" << quick_name(p.quick) << "\"";
    if (p.quick == PublishedValue::Quick::reference)
      out << ", \"quick_value\": " << json_number(p.quick_value)
          << ", \"quick_tolerance\": " << json_number(p.quick_tolerance)
          << ", \"quick_relative\": " << (p.quick_relative ? "true" : "false");
    out << ", \"applicable\": " << (c.applicable ? "true" : "false");
    out << ", \"measured\": " << (c.measured ? "true" : "false");
    if (c.measured) out << ", \"ours\": " << json_number(c.ours);
    if (c.measured && !p.fact)
      out << ", \"reference\": " << json_number(c.reference)
          << ", \"difference\": " << json_number(c.difference);
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
  out << "\n" << summary_text(r) << ".\n";
  if (!r.measurements.notes.empty()) out << "\n";
  for (const auto& note : r.measurements.notes) out << "- " << note << "\n";
  for (const auto& figure : r.measurements.figures)
    out << "\n![" << r.study << "](" << figure << ")\n";
  return out.str();
}

}  // namespace allocsim::sweep
