// The config fields an experiment may set, free variables and placeholders .
#include "fields.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "allocsim/util/spec.hpp"

namespace allocsim::sweep {

const ConfigField* find_field(std::string_view name) {
  const ConfigField* field = find_config_field(name);
  return field && field->role != FieldRole::derived ? field : nullptr;
}

std::string apply_field(RunConfig& config, const ConfigField& field, const Value& value) {
  // A scalar given for a list field is a list of one.
  return set_field(
      config, field,
      value.kind == Value::Kind::list ? value.items : std::vector<std::string>{value.text});
}

namespace {
bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// Calls f(name, begin, end) for every {name} in text.
template <class F>
void scan_placeholders(std::string_view text, F&& f) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{') continue;
    std::size_t j = i + 1;
    while (j < text.size() && name_char(text[j])) ++j;
    if (j > i + 1 && j < text.size() && text[j] == '}') {
      f(std::string(text.substr(i + 1, j - i - 1)), i, j + 1);
      i = j;
    }
  }
}
}  // namespace

std::vector<std::string> placeholders(std::string_view text) {
  std::vector<std::string> names;
  scan_placeholders(
      text, [&](std::string name, std::size_t, std::size_t) { names.push_back(std::move(name)); });
  return names;
}

std::string substitute(std::string_view text,
                       const std::function<const std::string*(const std::string&)>& lookup,
                       std::vector<std::string>& missing) {
  std::string out;
  std::size_t copied = 0;
  scan_placeholders(text, [&](const std::string& name, std::size_t begin, std::size_t end) {
    out.append(text.substr(copied, begin - copied));
    if (const std::string* value = lookup(name)) {
      out += *value;
    } else {
      missing.push_back(name);
      out.append(text.substr(begin, end - begin));
    }
    copied = end;
  });
  out.append(text.substr(copied));
  return out;
}

void check_variables(const Experiment& e, std::vector<Problem>& problems) {
  // Where each free variable is defined, and every placeholder use.
  std::vector<std::pair<std::string, std::string>> defined;  // name, where
  std::set<std::string> used;
  std::vector<std::pair<std::string, std::string>> uses;  // name, where
  auto visit = [&](const Settings& settings) {
    for (const auto& [key, value] : settings) {
      if (find_field(key) == nullptr &&
          std::none_of(defined.begin(), defined.end(), [&](auto& d) { return d.first == key; }))
        defined.emplace_back(key, value.where);
      auto texts =
          value.kind == Value::Kind::list ? value.items : std::vector<std::string>{value.text};
      for (const auto& t : texts)
        for (auto& name : placeholders(t)) {
          used.insert(name);
          uses.emplace_back(name, value.where);
        }
    }
  };
  visit(e.base);
  for (const auto& axis : e.axes)
    for (const auto& value : axis.values) visit(value);
  for (const auto& include : e.includes) visit(include);
  for (const auto& pattern : e.excludes)
    for (const auto& [key, globs] : pattern.globs) used.insert(key);

  std::vector<std::string> field_names;
  for (const auto& field : config_fields())
    if (find_field(field.name)) field_names.push_back(field.name);
  for (const auto& [name, where] : defined) {
    if (name == kReplicatePlaceholder) {
      problems.push_back({where, "'" + name +
                                     "' is reserved: {replicate} stands for the replicate "
                                     "number, so no variable may take the name"});
      continue;
    }
    if (used.count(name)) continue;
    const std::string near = closest_match(name, field_names);
    problems.push_back({where, "'" + name + "' is not a config field and no value uses {" + name +
                                   "}" + (near.empty() ? "" : " (did you mean '" + near + "'?)")});
  }
  for (const auto& info : e.variables) {
    const bool known =
        find_field(info.name) == nullptr &&
        std::any_of(defined.begin(), defined.end(), [&](auto& d) { return d.first == info.name; });
    if (!known)
      problems.push_back({info.where, "[variables." + info.name + "]: '" + info.name +
                                          "' is not a variable of the experiment (a key of "
                                          "[base], [sweep] or [[include]] that is no config "
                                          "field)"});
  }
  std::set<std::string> reported;
  for (const auto& [name, where] : uses) {
    const bool known =
        name == kReplicatePlaceholder ||
        std::any_of(defined.begin(), defined.end(), [&](auto& d) { return d.first == name; });
    if (!known && reported.insert(name).second)
      problems.push_back({where, "{" + name + "} names no variable of the experiment"});
  }
  for (const auto& pattern : e.excludes)
    for (const auto& [key, globs] : pattern.globs) {
      const bool known =
          find_field(key) != nullptr ||
          std::any_of(defined.begin(), defined.end(), [&](auto& d) { return d.first == key; });
      if (!known) {
        std::vector<std::string> names = field_names;
        for (auto& d : defined) names.push_back(d.first);
        const std::string near = closest_match(key, names);
        problems.push_back(
            {pattern.where, "[[exclude]] key '" + key +
                                "' is neither a config field nor a variable" +
                                (near.empty() ? "" : " (did you mean '" + near + "'?)")});
      }
    }
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative matcher with single-star backtracking.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace allocsim::sweep

namespace allocsim::sweep {

void ConfigProblems::add(const std::string& config_where, const std::string& message) {
  for (auto& entry : entries_)
    if (entry.message == message) {
      ++entry.count;
      return;
    }
  entries_.push_back({message, config_where, 1});
}

void ConfigProblems::append_to(std::vector<Problem>& out) const {
  for (const auto& entry : entries_) {
    std::string where = entry.first_where;
    if (entry.count > 1)
      where += " (and " + std::to_string(entry.count - 1) + " more config" +
               (entry.count > 2 ? "s" : "") + ")";
    out.push_back({where, entry.message});
  }
}

std::string config_where(const ConfigEntry& entry) {
  return "config #" + std::to_string(entry.index) +
         (entry.label.empty() ? "" : " [" + entry.label + "]");
}

}  // namespace allocsim::sweep
