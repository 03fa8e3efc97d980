// Experiment files: TOML parsing with every problem collected.
#include "allocsim/sweep/experiment/experiment.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "allocsim/util/rng.hpp"
#include "allocsim/util/spec.hpp"
#include "fields.hpp"

namespace allocsim::sweep {

ExperimentError::ExperimentError(std::vector<Problem> problems)
    : InputError([&] {
        std::ostringstream out;
        out << problems.size() << (problems.size() == 1 ? " problem" : " problems")
            << " in the experiment:";
        for (const auto& p : problems) out << "\n  " << p.where << ": " << p.message;
        return out.str();
      }()),
      problems_(std::move(problems)) {}

std::string format_number(double value) {
  if (value == 0) return "0";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

namespace {

/// Writes scaled integer `v` / 10^decimals as exact decimal text without trailing zeros.
std::string scaled_text(long long v, int decimals) {
  const bool negative = v < 0;
  unsigned long long magnitude =
      negative ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  std::string digits = std::to_string(magnitude);
  if (decimals > 0) {
    if (static_cast<int>(digits.size()) <= decimals)
      digits.insert(0, static_cast<std::size_t>(decimals + 1 - digits.size()), '0');
    digits.insert(digits.size() - static_cast<std::size_t>(decimals), ".");
    while (digits.back() == '0') digits.pop_back();
    if (digits.back() == '.') digits.pop_back();
  }
  if (negative && digits != "0") digits.insert(0, "-");
  return digits;
}

/// True when x * 10^decimals is an integer up to rounding noise; stores it in `out`.
bool as_scaled(double x, int decimals, long long& out) {
  const double scaled = x * std::pow(10.0, decimals);
  if (std::fabs(scaled) > 9e15) return false;
  const double rounded = std::nearbyint(scaled);
  if (std::fabs(scaled - rounded) > 1e-9 * std::max(1.0, std::fabs(scaled))) return false;
  out = static_cast<long long>(rounded);
  return true;
}

}  // namespace

// Numeric range axis: find the smallest number of decimals that makes from, to and step
// integers, then count and generate in integers, so no floating drift accumulates.
std::vector<std::string> range_values(double from, double to, double step) {
  if (!std::isfinite(from) || !std::isfinite(to) || !std::isfinite(step))
    throw InputError("range bounds and step must be finite numbers");
  if (step == 0) throw InputError("range step must not be zero");
  if ((to - from) * step < 0)
    throw InputError("range step " + format_number(step) + " never goes from " +
                     format_number(from) + " to " + format_number(to));
  constexpr std::int64_t kMaxValues = 1000000;
  std::vector<std::string> values;
  for (int decimals = 0; decimals <= 12; ++decimals) {
    long long f = 0, t = 0, s = 0;
    if (!as_scaled(from, decimals, f) || !as_scaled(to, decimals, t) ||
        !as_scaled(step, decimals, s))
      continue;
    const long long count = (t - f) / s + 1;
    if (count > kMaxValues) throw InputError("range has more than a million values");
    for (long long i = 0; i < count; ++i) values.push_back(scaled_text(f + i * s, decimals));
    return values;
  }
  // Not a decimal step (e.g. 1/3): plain multiplication, with a tolerance on the end.
  const double count = std::floor((to - from) / step * (1 + 1e-12) + 1e-9) + 1;
  if (count > kMaxValues) throw InputError("range has more than a million values");
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i)
    values.push_back(format_number(from + static_cast<double>(i) * step));
  return values;
}

namespace {

/// Reads TOML nodes into Values and Settings, collecting problems instead of stopping.
class TomlReader {
 public:
  explicit TomlReader(std::string source) : source_(std::move(source)) {}

  std::vector<Problem> problems;

  std::string where(const toml::source_region& region) const {
    if (!region.begin) return source_;
    return source_ + ":" + std::to_string(region.begin.line) + ":" +
           std::to_string(region.begin.column);
  }
  void problem(const toml::source_region& region, std::string message) {
    problems.push_back({where(region), std::move(message)});
  }

  /// The keys of a table in file order (toml++ keeps them sorted by name).
  static std::vector<std::pair<const toml::key*, const toml::node*>> ordered(
      const toml::table& table) {
    std::vector<std::pair<const toml::key*, const toml::node*>> keys;
    for (auto&& [key, node] : table) keys.emplace_back(&key, &node);
    std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
      const auto &pa = a.first->source().begin, &pb = b.first->source().begin;
      return std::pair(pa.line, pa.column) < std::pair(pb.line, pb.column);
    });
    return keys;
  }

  /// A scalar or list-of-strings value; reports and returns nullopt otherwise.
  std::optional<Value> value(const toml::node& node, const std::string& key) {
    Value v;
    v.where = where(node.source());
    if (auto s = node.value_exact<std::string>()) {
      v.kind = Value::Kind::text;
      v.text = *s;
    } else if (auto i = node.value_exact<std::int64_t>()) {
      v.kind = Value::Kind::number;
      v.text = std::to_string(*i);
      v.integer = true;
    } else if (auto d = node.value_exact<double>()) {
      v.kind = Value::Kind::number;
      v.text = format_number(*d);
    } else if (auto b = node.value_exact<bool>()) {
      v.kind = Value::Kind::boolean;
      v.text = *b ? "true" : "false";
    } else if (const auto* array = node.as_array()) {
      v.kind = Value::Kind::list;
      for (const auto& item : *array) {
        if (auto item_text = item.value_exact<std::string>()) {
          v.items.push_back(*item_text);
        } else {
          problem(item.source(), "'" + key + "' lists must hold strings only");
          return std::nullopt;
        }
      }
    } else {
      problem(node.source(), "'" + key + "' must be a string, number, boolean or list of strings");
      return std::nullopt;
    }
    check_field_kind(key, v);
    return v;
  }

  /// Reports a value whose type does not fit the config field it sets.
  void check_field_kind(const std::string& key, const Value& v) {
    const ConfigField* field = find_field(key);
    if (field == nullptr) {
      if (v.kind == Value::Kind::list)
        problems.push_back({v.where, "variable '" + key + "' must be a single value, not a list"});
      return;
    }
    const bool text_with_placeholder =
        v.kind == Value::Kind::text && v.text.find('{') != std::string::npos;
    bool ok = true;
    switch (field->type()) {
      case FieldType::text:
        ok = v.kind == Value::Kind::text;
        break;
      case FieldType::text_list:
        ok = v.kind == Value::Kind::list || v.kind == Value::Kind::text;
        break;
      case FieldType::real:
      case FieldType::unsigned_integer:
        ok = v.kind == Value::Kind::number || text_with_placeholder;
        break;
      case FieldType::boolean:
        ok = v.kind == Value::Kind::boolean || text_with_placeholder;
        break;
    }
    if (!ok)
      problems.push_back({v.where, "'" + key + "' must be " + field_type_text(field->type())});
  }

  /// A table of key = value pairs (base, include, group entry).
  Settings settings(const toml::table& table) {
    Settings result;
    for (const auto& [key, node] : ordered(table))
      if (auto v = value(*node, std::string(key->str())))
        result.emplace_back(std::string(key->str()), std::move(*v));
    return result;
  }

 private:
  std::string source_;
};

std::string settings_label(const Settings& settings) {
  std::string label;
  for (const auto& [key, value] : settings) {
    if (!label.empty()) label += '/';
    label += value.kind == Value::Kind::list ? "[" + join_list(value.items) + "]" : value.text;
  }
  return label;
}

void read_experiment_table(const toml::table& table, TomlReader& reader, Experiment& e) {
  for (const auto& [key, node] : TomlReader::ordered(table)) {
    const std::string k = std::string(key->str());
    if (k == "name") {
      if (auto s = node->value_exact<std::string>())
        e.name = *s;
      else
        reader.problem(node->source(), "experiment name must be a string");
    } else if (k == "description") {
      if (!node->is_string()) reader.problem(node->source(), "description must be a string");
    } else if (k == "seed") {
      auto i = node->value_exact<std::int64_t>();
      if (i && *i >= 0)
        e.seed = static_cast<std::uint64_t>(*i);
      else
        reader.problem(node->source(), "seed must be a non-negative integer");
    } else if (k == "replicates") {
      auto i = node->value_exact<std::int64_t>();
      if (i && *i >= 1 && *i <= 100000)
        e.replicates = static_cast<int>(*i);
      else
        reader.problem(node->source(), "replicates must be an integer from 1 to 100000");
    } else if (k == "timeout") {
      auto d = node->value<double>();
      if (d && *d >= 0 && node->is_number())
        e.timeout_seconds = *d;
      else
        reader.problem(node->source(), "timeout must be a number of seconds >= 0");
    } else if (k == "keep_jobs") {
      if (auto b = node->value_exact<bool>())
        e.keep_jobs = *b;
      else
        reader.problem(node->source(), "keep_jobs must be true or false");
    } else if (k == "keep_timeline") {
      if (auto b = node->value_exact<bool>())
        e.keep_timeline = *b;
      else
        reader.problem(node->source(), "keep_timeline must be true or false");
    } else {
      const std::string near = closest_match(k, {"name", "description", "seed", "replicates",
                                                 "timeout", "keep_jobs", "keep_timeline"});
      reader.problem(key->source(), "unknown key '" + k + "' in [experiment]" +
                                        (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  }
}

void read_sweep_table(const toml::table& table, TomlReader& reader, Experiment& e) {
  for (const auto& [key, node] : TomlReader::ordered(table)) {
    Axis axis;
    axis.name = std::string(key->str());
    if (const auto* array = node->as_array();
        array && !array->empty() && array->is_array_of_tables()) {
      for (const auto& item : *array) {  // group: keys varying together
        Settings s = reader.settings(*item.as_table());
        if (s.empty()) reader.problem(item.source(), "group entry of '" + axis.name + "' is empty");
        axis.labels.push_back(settings_label(s));
        axis.values.push_back(std::move(s));
      }
    } else if (array) {
      if (array->empty()) reader.problem(node->source(), "axis '" + axis.name + "' has no values");
      for (const auto& item : *array) {
        if (auto v = reader.value(item, axis.name)) {
          if (v->kind == Value::Kind::list && find_field(axis.name) == nullptr) continue;
          axis.labels.push_back(v->kind == Value::Kind::list ? "[" + join_list(v->items) + "]"
                                                             : v->text);
          axis.values.push_back(Settings{{axis.name, std::move(*v)}});
        }
      }
    } else if (const auto* range = node->as_table()) {
      std::optional<double> from, to, step;
      bool integers = true;  // from, to and step all TOML integers: an integer range
      for (const auto& [rkey, rnode] : TomlReader::ordered(*range)) {
        const auto number = rnode->value<double>();
        integers = integers && rnode->is_integer();
        if (!rnode->is_number() || !number) {
          reader.problem(rnode->source(),
                         "range '" + std::string(rkey->str()) + "' must be a number");
        } else if (std::string(rkey->str()) == "from") {
          from = number;
        } else if (std::string(rkey->str()) == "to") {
          to = number;
        } else if (std::string(rkey->str()) == "step") {
          step = number;
        } else {
          reader.problem(rkey->source(), "unknown range key '" + std::string(rkey->str()) +
                                             "' (a range is {from = a, to = b, step = s})");
        }
      }
      if (!from || !to || !step) {
        reader.problem(node->source(), "range '" + axis.name +
                                           "' needs from, to and step: {from = a, to = b, "
                                           "step = s}");
      } else {
        try {
          for (auto& text : range_values(*from, *to, *step)) {
            Value v{Value::Kind::number, text, {}, reader.where(node->source()), integers};
            axis.labels.push_back(text);
            axis.values.push_back(Settings{{axis.name, std::move(v)}});
          }
          if (const ConfigField* field = find_field(axis.name);
              field && field->type() != FieldType::real)
            reader.problem(node->source(), "'" + axis.name + "' must be " +
                                               field_type_text(field->type()) + ", not a range");
        } catch (const InputError& error) {
          reader.problem(node->source(), "range '" + axis.name + "': " + error.what());
        }
      }
    } else {
      reader.problem(node->source(), "axis '" + axis.name +
                                         "' must be a list, a range {from, to, step} or a list "
                                         "of tables");
    }
    e.axes.push_back(std::move(axis));
  }
}

void read_exclude(const toml::table& table, TomlReader& reader, Experiment& e) {
  ExcludePattern pattern;
  pattern.where = reader.where(table.source());
  for (const auto& [key, node] : TomlReader::ordered(table)) {
    std::vector<std::string> globs;
    auto add = [&](const toml::node& item) {
      if (auto s = item.value_exact<std::string>())
        globs.push_back(*s);
      else if (auto i = item.value_exact<std::int64_t>())
        globs.push_back(std::to_string(*i));
      else if (auto d = item.value_exact<double>())
        globs.push_back(format_number(*d));
      else if (auto b = item.value_exact<bool>())
        globs.push_back(*b ? "true" : "false");
      else
        reader.problem(item.source(), "exclude patterns must be strings, numbers or booleans");
    };
    if (const auto* array = node->as_array()) {
      for (const auto& item : *array) add(item);
    } else {
      add(*node);
    }
    pattern.globs.emplace_back(std::string(key->str()), std::move(globs));
  }
  if (pattern.globs.empty()) reader.problem(table.source(), "empty [[exclude]] table");
  e.excludes.push_back(std::move(pattern));
}

/// [variables.NAME] tables: unit and description of the experiment's own variables.
void read_variables(const toml::table& table, TomlReader& reader, Experiment& e) {
  for (const auto& [key, node] : TomlReader::ordered(table)) {
    VariableInfo info{std::string(key->str()), "", "", reader.where(key->source())};
    const auto* entries = node->as_table();
    if (entries == nullptr) {
      reader.problem(node->source(), "[variables." + info.name +
                                         "] must be a table: unit = \"...\", description = "
                                         "\"...\"");
      continue;
    }
    for (const auto& [field, value] : TomlReader::ordered(*entries)) {
      const std::string f = std::string(field->str());
      const auto text = value->value_exact<std::string>();
      if ((f == "unit" || f == "description") && !text)
        reader.problem(value->source(), "[variables." + info.name + "] " + f + " must be a string");
      else if (f == "unit")
        info.unit = *text;
      else if (f == "description")
        info.description = *text;
      else
        reader.problem(field->source(), "unknown key '" + f + "' in [variables." + info.name +
                                            "] (expected unit, description)");
    }
    e.variables.push_back(std::move(info));
  }
}

void read_table_array(const toml::node& node, const std::string& name, TomlReader& reader,
                      const std::function<void(const toml::table&)>& each) {
  const auto* array = node.as_array();
  if (array == nullptr || !array->is_array_of_tables()) {
    reader.problem(node.source(), "'" + name + "' must be an array of tables: [[" + name + "]]");
    return;
  }
  for (const auto& item : *array) each(*item.as_table());
}

}  // namespace

Experiment parse_experiment(const std::string& text, const std::string& source,
                            const std::string& base_dir) {
  Experiment e;
  e.text = text;
  e.source = source;
  e.base_dir = base_dir;
  e.name = std::filesystem::path(source).stem().string();
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& error) {
    const auto& at = error.source().begin;
    throw ExperimentError(
        {{source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column),
          std::string(error.description())}});
  }
  TomlReader reader(source);
  for (const auto& [key, node] : TomlReader::ordered(root)) {
    const std::string k = std::string(key->str());
    if (k == "experiment" && node->is_table()) {
      read_experiment_table(*node->as_table(), reader, e);
    } else if (k == "base" && node->is_table()) {
      e.base = reader.settings(*node->as_table());
    } else if (k == "sweep" && node->is_table()) {
      read_sweep_table(*node->as_table(), reader, e);
    } else if (k == "variables" && node->is_table()) {
      read_variables(*node->as_table(), reader, e);
    } else if (k == "include") {
      read_table_array(*node, k, reader,
                       [&](const toml::table& t) { e.includes.push_back(reader.settings(t)); });
    } else if (k == "exclude") {
      read_table_array(*node, k, reader, [&](const toml::table& t) { read_exclude(t, reader, e); });
    } else {
      const std::string near =
          closest_match(k, {"experiment", "base", "sweep", "include", "exclude", "variables"});
      reader.problem(key->source(), "unknown section '" + k +
                                        "' (expected [experiment], [base], [sweep], " +
                                        "[[include]], [[exclude]], [variables.NAME])" +
                                        (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
  }
  // Keys set by two axes would make the product ambiguous.
  std::vector<std::pair<std::string, std::string>> owner;  // key -> axis
  for (const auto& axis : e.axes) {
    std::vector<std::string> keys;
    for (const auto& value : axis.values)
      for (const auto& [key, v] : value)
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    for (const auto& key : keys) {
      auto it = std::find_if(owner.begin(), owner.end(), [&](auto& o) { return o.first == key; });
      if (it != owner.end())
        reader.problems.push_back({source, "'" + key + "' is set by two axes, '" + it->second +
                                               "' and '" + axis.name + "'"});
      else
        owner.emplace_back(key, axis.name);
    }
  }
  check_variables(e, reader.problems);
  if (!reader.problems.empty()) throw ExperimentError(std::move(reader.problems));
  return e;
}

Experiment read_experiment(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read experiment file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  std::error_code ec;
  const auto dir = std::filesystem::absolute(path, ec).parent_path().lexically_normal();
  return parse_experiment(text.str(), path, dir.string());
}

std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  int k = 0, n = 0;
  const char* end = text.data() + text.size();
  if (slash != std::string::npos) {
    auto r1 = std::from_chars(text.data(), text.data() + slash, k);
    auto r2 = std::from_chars(text.data() + slash + 1, end, n);
    if (r1.ec == std::errc() && r1.ptr == text.data() + slash && r2.ec == std::errc() &&
        r2.ptr == end && n >= 1 && k >= 1 && k <= n)
      return {k, n};
  }
  throw InputError("--shard must be K/N with 1 <= K <= N (e.g. 3/8), not '" + text + "'");
}

bool in_shard(std::uint64_t id, int k, int n) {
  return mix_seed(id, static_cast<std::uint64_t>(n)) % static_cast<std::uint64_t>(n) ==
         static_cast<std::uint64_t>(k - 1);
}

std::string id_hex(std::uint64_t id) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(id));
  return buffer;
}

}  // namespace allocsim::sweep
