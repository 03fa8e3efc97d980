// Expansion of an experiment into configs with stable ids:
// cartesian product of the axes, includes, excludes, replicates; id = stable_hash(canonical
// form + replicate), seed = mix_seed(experiment seed, id); every config of one replicate gets
// the same workload seed, so allocators are compared on identical job streams.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <unordered_set>

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

/// The text {replicate} stands for: the replicate number, or itself when `replicate` < 0 (the
/// value as written, shown in /configs so that the replicates of a config group together).
std::string replicate_text(int replicate) {
  return replicate < 0 ? "{" + std::string(kReplicatePlaceholder) + "}" : std::to_string(replicate);
}

/// True when one of `texts` holds {replicate}.
bool uses_replicate_text(const std::vector<std::string>& texts) {
  for (const auto& text : texts) {
    const auto names = placeholders(text);
    if (std::find(names.begin(), names.end(), kReplicatePlaceholder) != names.end()) return true;
  }
  return false;
}

/// True when some value of `settings` uses {replicate}.
bool uses_replicate(const Settings& settings) {
  return std::any_of(settings.begin(), settings.end(), [](const auto& setting) {
    return uses_replicate_text({setting.second.text}) || uses_replicate_text(setting.second.items);
  });
}

Resolved resolve(const Experiment& e, const Settings& settings, int replicate) {
  Resolved r;
  r.config.keep_jobs = e.keep_jobs;
  r.config.keep_timeline = e.keep_timeline;
  r.config.timeout_seconds = e.timeout_seconds;
  // Free variables keep their text as written (the /configs column); a variable's own
  // {replicate} is substituted where a field uses the variable.
  std::map<std::string, std::string> substituted;
  const std::string replicate_value = replicate_text(replicate);
  auto only_replicate = [&](const std::string& name) -> const std::string* {
    return name == kReplicatePlaceholder ? &replicate_value : nullptr;
  };
  for (const auto& [key, value] : settings)
    if (find_field(key) == nullptr && value.kind != Value::Kind::list) {
      r.variables[key] = value.text;
      std::vector<std::string> unused;
      substituted[key] = substitute(value.text, only_replicate, unused);
      r.texts[key] = {value.text};
    }
  auto lookup = [&](const std::string& name) -> const std::string* {
    if (name == kReplicatePlaceholder) return &replicate_value;
    auto it = substituted.find(name);
    return it == substituted.end() ? nullptr : &it->second;
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

std::int64_t planned_configs(const Experiment& e) {
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  auto times = [](std::int64_t a, std::int64_t b) { return b != 0 && a > kMax / b ? kMax : a * b; };
  std::int64_t product = 1;
  for (const auto& axis : e.axes)
    product = times(product, static_cast<std::int64_t>(axis.values.size()));
  const std::int64_t drafts = product > kMax - static_cast<std::int64_t>(e.includes.size())
                                  ? kMax
                                  : product + static_cast<std::int64_t>(e.includes.size());
  return times(drafts, std::max(e.replicates, 1));
}

void check_experiment_size(const Experiment& e, bool allow_large) {
  const std::int64_t planned = planned_configs(e);
  if (allow_large || planned <= kMaxConfigsWithoutOverride) return;
  std::string shape;
  for (const auto& axis : e.axes)
    shape +=
        (shape.empty() ? "" : " x ") + axis.name + " (" + std::to_string(axis.values.size()) + ")";
  if (!e.includes.empty()) shape += " + " + std::to_string(e.includes.size()) + " includes";
  if (e.replicates > 1) shape += ", x " + std::to_string(e.replicates) + " replicates";
  throw ExperimentError(
      {{e.source,
        "the experiment expands to " +
            (planned == std::numeric_limits<std::int64_t>::max() ? std::string("more than 9.2e18")
                                                                 : std::to_string(planned)) +
            " configs (" + shape + "), more than " + std::to_string(kMaxConfigsWithoutOverride) +
            ": shrink an axis, or pass --allow-large to run it anyway (about 2 "
            "KB of memory per config before any runs)"}});
}

void expand_each(const Experiment& e, Expansion& out,
                 const std::function<void(ConfigEntry&&)>& each) {
  out = Expansion{};
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
  // Their units and descriptions, and integer columns: every value a TOML integer.
  out.variable_integer.assign(out.variable_names.size(), true);
  for (std::size_t v = 0; v < out.variable_names.size(); ++v) {
    const std::string& name = out.variable_names[v];
    VariableInfo info{name, "", "", ""};
    for (const auto& given : e.variables)
      if (given.name == name) info = given;
    out.variable_info.push_back(std::move(info));
    auto check = [&](const Settings& settings) {
      for (const auto& [key, value] : settings)
        if (key == name && !(value.kind == Value::Kind::number && value.integer))
          out.variable_integer[v] = false;
    };
    check(e.base);
    for (const auto& axis : e.axes)
      for (const auto& value : axis.values) check(value);
    for (const auto& include : e.includes) check(include);
  }

  ConfigProblems problems;
  std::unordered_set<std::uint64_t> seen;
  std::vector<std::uint64_t> ids;
  std::int64_t next_index = 0;
  // One draft (product member or include) into its replicates.
  auto emit = [&](const Draft& draft, bool product) {
    // A draft using {replicate} is resolved once per replicate; the fields it changes are shown
    // in /configs as written, {replicate} kept (entry.as_written).
    const bool per_replicate = uses_replicate(draft.settings);
    Resolved r = resolve(e, draft.settings, per_replicate ? 0 : -1);
    std::vector<std::pair<std::string, std::string>> as_written;
    Resolved written;
    if (per_replicate) {
      written = resolve(e, draft.settings, -1);
      for (const auto& [key, texts] : written.texts)
        if (find_field(key) != nullptr && uses_replicate_text(texts))
          as_written.emplace_back(key, join_list(texts));
    }
    // [[exclude]] patterns see the values as /configs shows them ({replicate} kept).
    if (product && excluded(e, per_replicate ? written : r)) {
      out.excluded += e.replicates;
      return;
    }
    for (int replicate = 0; replicate < e.replicates; ++replicate) {
      if (per_replicate && replicate > 0) r = resolve(e, draft.settings, replicate);
      ConfigEntry entry;
      entry.as_written = as_written;
      entry.index = next_index;
      entry.replicate = replicate;
      entry.config = r.config;
      entry.label = draft.label;
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
      ids.push_back(entry.id);
      ++next_index;
      each(std::move(entry));
    }
  };

  // Cartesian product, first axis outermost (an odometer whose last digit turns fastest),
  // one draft at a time.
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
      emit(draft, true);
      std::size_t a = e.axes.size();
      while (a > 0 && ++digit[a - 1] == e.axes[a - 1].values.size()) digit[--a] = 0;
      if (a == 0) break;
    }
  }
  for (std::size_t i = 0; i < e.includes.size(); ++i) {
    Draft draft{e.base, "include#" + std::to_string(i + 1)};
    overlay(draft.settings, e.includes[i]);
    emit(draft, false);
  }
  problems.append_to(out.problems);

  seen = {};
  std::sort(ids.begin(), ids.end());
  std::string joined;
  joined.reserve(16 * ids.size());
  for (auto id : ids) joined += id_hex(id);
  out.fingerprint = stable_hash(joined);
}

Expansion expand(const Experiment& e) {
  Expansion out;
  std::vector<ConfigEntry> configs;
  expand_each(e, out, [&](ConfigEntry&& entry) { configs.push_back(std::move(entry)); });
  out.configs = std::move(configs);
  return out;
}

}  // namespace allocsim::sweep
