// Expansion of an experiment into configs with stable ids:
// cartesian product of the axes, includes, excludes, replicates; id = stable_hash(canonical
// form + replicate), seed = mix_seed(experiment seed, id); every config of one replicate gets
// the same workload seed, so allocators are compared on identical job streams.
#include <algorithm>
#include <map>
#include <set>

#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/util/rng.hpp"
#include "fields.hpp"

namespace allocsim::sweep {

namespace {

/// `base` with every key of `overlay` replacing or extending it.
void overlay(Settings& merged, const Settings& values) {
  for (const auto& [key, value] : values) {
    auto it = std::find_if(merged.begin(), merged.end(), [&](auto& kv) { return kv.first == key; });
    if (it != merged.end())
      it->second = value;
    else
      merged.emplace_back(key, value);
  }
}

/// One config before replication: its settings and label.
struct Draft {
  Settings settings;
  std::string label;
};

/// The settings with placeholders substituted: config fields applied to `config`, free
/// variables in `variables`, and the texts of every key (for exclude patterns).
struct Resolved {
  RunConfig config;
  std::map<std::string, std::string> variables;
  std::map<std::string, std::vector<std::string>> texts;
  std::vector<std::string> problems;
};

Resolved resolve(const Experiment& e, const Settings& settings) {
  Resolved r;
  r.config.keep_jobs = e.keep_jobs;
  r.config.timeout_seconds = e.timeout_seconds;
  for (const auto& [key, value] : settings)
    if (find_field(key) == nullptr && value.kind != Value::Kind::list) {
      r.variables[key] = value.text;
      r.texts[key] = {value.text};
    }
  auto lookup = [&](const std::string& name) -> const std::string* {
    auto it = r.variables.find(name);
    return it == r.variables.end() ? nullptr : &it->second;
  };
  for (const auto& [key, value] : settings) {
    const ConfigField* field = find_field(key);
    if (field == nullptr) continue;
    Value resolved = value;
    std::vector<std::string> missing;
    resolved.text = substitute(value.text, lookup, missing);
    for (auto& item : resolved.items) item = substitute(item, lookup, missing);
    for (const auto& name : missing)
      r.problems.push_back("'" + key + "' uses {" + name + "}, which this config does not set");
    if (!missing.empty()) continue;
    if (std::string error = apply_field(r.config, *field, resolved); !error.empty())
      r.problems.push_back("'" + key + "': " + error);
    if (field->type() == FieldType::text_list) {
      r.texts[key] = resolved.kind == Value::Kind::list ? resolved.items
                                                        : std::vector<std::string>{resolved.text};
      if (r.texts[key].empty()) r.texts[key] = {""};
    } else {
      r.texts[key] = {resolved.text};
    }
  }
  return r;
}

bool excluded(const Experiment& e, const Resolved& r) {
  for (const auto& pattern : e.excludes) {
    bool all = !pattern.globs.empty();
    for (const auto& [key, globs] : pattern.globs) {
      auto it = r.texts.find(key);
      bool any = false;
      if (it != r.texts.end())
        for (const auto& text : it->second)
          for (const auto& glob : globs) any = any || glob_match(glob, text);
      all = all && any;
    }
    if (all) return true;
  }
  return false;
}

}  // namespace

std::uint64_t workload_seed(std::uint64_t experiment_seed, int replicate) {
  return mix_seed(mix_seed(experiment_seed, stable_hash("workload")),
                  static_cast<std::uint64_t>(replicate));
}

Expansion expand(const Experiment& e) {
  Expansion out;
  // Free variables in first-definition order (the extra columns of /configs).
  auto note_variables = [&](const Settings& settings) {
    for (const auto& [key, value] : settings)
      if (find_field(key) == nullptr && value.kind != Value::Kind::list &&
          std::find(out.variable_names.begin(), out.variable_names.end(), key) ==
              out.variable_names.end())
        out.variable_names.push_back(key);
  };
  note_variables(e.base);
  for (const auto& axis : e.axes)
    for (const auto& value : axis.values) note_variables(value);
  for (const auto& include : e.includes) note_variables(include);

  // Cartesian product, first axis outermost (an odometer whose last digit turns fastest).
  std::vector<Draft> drafts;
  const bool any_empty =
      std::any_of(e.axes.begin(), e.axes.end(), [](const Axis& a) { return a.values.empty(); });
  if (!any_empty) {
    std::vector<std::size_t> digit(e.axes.size(), 0);
    while (true) {
      Draft draft{e.base, {}};
      for (std::size_t a = 0; a < e.axes.size(); ++a) {
        overlay(draft.settings, e.axes[a].values[digit[a]]);
        if (e.axes[a].values.size() > 1) {
          if (!draft.label.empty()) draft.label += ' ';
          draft.label += e.axes[a].name + "=" + e.axes[a].labels[digit[a]];
        }
      }
      drafts.push_back(std::move(draft));
      std::size_t a = e.axes.size();
      while (a > 0 && ++digit[a - 1] == e.axes[a - 1].values.size()) digit[--a] = 0;
      if (a == 0) break;
    }
  }
  const std::size_t product_size = drafts.size();
  for (std::size_t i = 0; i < e.includes.size(); ++i) {
    Draft draft{e.base, "include#" + std::to_string(i + 1)};
    overlay(draft.settings, e.includes[i]);
    drafts.push_back(std::move(draft));
  }

  ConfigProblems problems;
  std::set<std::uint64_t> seen;
  for (std::size_t d = 0; d < drafts.size(); ++d) {
    Resolved r = resolve(e, drafts[d].settings);
    if (d < product_size && excluded(e, r)) {
      out.excluded += e.replicates;
      continue;
    }
    for (int replicate = 0; replicate < e.replicates; ++replicate) {
      ConfigEntry entry;
      entry.index = static_cast<std::int64_t>(out.configs.size());
      entry.replicate = replicate;
      entry.config = r.config;
      entry.label = drafts[d].label;
      if (e.replicates > 1)
        entry.label += (entry.label.empty() ? "rep=" : " rep=") + std::to_string(replicate);
      for (const auto& name : out.variable_names) {
        auto it = r.variables.find(name);
        entry.variables.emplace_back(name, it == r.variables.end() ? "" : it->second);
      }
      for (const auto& message : r.problems) problems.add(config_where(entry), message);
      if (r.problems.empty()) {
        RunConfig identity = entry.config;
        identity.seed = 0;
        identity.timeout_seconds = 0;
        try {
          entry.canonical = identity.canonical();
          entry.id = stable_hash(entry.canonical + "\nreplicate=" + std::to_string(replicate));
          entry.config.seed = mix_seed(e.seed, entry.id);
          entry.config.workload_seed = workload_seed(e.seed, replicate);
        } catch (const std::exception& error) {
          entry.problem = error.what();
        }
      }
      if (entry.id != 0 && !seen.insert(entry.id).second) {
        ++out.duplicates;
        continue;
      }
      out.configs.push_back(std::move(entry));
    }
  }
  problems.append_to(out.problems);

  std::vector<std::uint64_t> ids;
  for (const auto& c : out.configs) ids.push_back(c.id);
  std::sort(ids.begin(), ids.end());
  std::string joined;
  for (auto id : ids) joined += id_hex(id);
  out.fingerprint = stable_hash(joined);
  return out;
}

}  // namespace allocsim::sweep
