// slurm.conf fragments and `slurm:` spec keys -> SlurmConfig (sched/slurm.hpp). Every key the
// model does not read, and every value it cannot take, is reported with where it was written;
// nothing is ignored silently.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "allocsim/sched/slurm.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::optional<long long> parse_count(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string text_of(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

/// One slurm.conf key the model reads: its canonical spelling and how its value is applied
/// (empty string when accepted, else what was expected).
struct Key {
  const char* name;
  std::string (*apply)(SlurmConfig&, const std::string&);
};

std::string weight(double& out, const std::string& value) {
  const auto parsed = parse_count(value);
  if (!parsed || *parsed < 0 || *parsed > std::numeric_limits<std::uint32_t>::max())
    return "an integer weight in [0, 4294967295]";
  out = static_cast<double>(*parsed);
  return {};
}

std::string duration(double& out, const std::string& value) {
  const auto minutes = slurm_time_minutes(value);
  if (!minutes) return "a Slurm time (minutes, min:sec, h:m:s, d-h, d-h:m or d-h:m:s)";
  out = static_cast<double>(*minutes) * 60;
  return {};
}

const std::vector<Key>& keys() {
  static const std::vector<Key> table{
      {"PriorityType",
       [](SlurmConfig& c, const std::string& v) -> std::string {
         if (v == "priority/basic")
           c.multifactor = false;
         else if (v == "priority/multifactor")
           c.multifactor = true;
         else
           return "priority/basic or priority/multifactor";
         return {};
       }},
      {"SchedulerType",
       [](SlurmConfig& c, const std::string& v) -> std::string {
         if (v == "sched/backfill")
           c.backfill = true;
         else if (v == "sched/builtin")
           c.backfill = false;
         else
           return "sched/backfill or sched/builtin";
         return {};
       }},
      {"PriorityFlags",
       [](SlurmConfig&, const std::string& v) -> std::string {
         // The model's fair share is the classic formula, which Slurm uses with NO_FAIR_TREE.
         if (lower(v) == "no_fair_tree") return {};
         return "NO_FAIR_TREE (the only flag modelled: classic fair share)";
       }},
      {"PriorityWeightAge",
       [](SlurmConfig& c, const std::string& v) { return weight(c.weight_age, v); }},
      {"PriorityWeightJobSize",
       [](SlurmConfig& c, const std::string& v) { return weight(c.weight_job_size, v); }},
      {"PriorityWeightFairshare",
       [](SlurmConfig& c, const std::string& v) { return weight(c.weight_fairshare, v); }},
      {"PriorityMaxAge",
       [](SlurmConfig& c, const std::string& v) { return duration(c.max_age, v); }},
      {"PriorityDecayHalfLife",
       [](SlurmConfig& c, const std::string& v) { return duration(c.decay_half_life, v); }},
      {"PriorityCalcPeriod",
       [](SlurmConfig& c, const std::string& v) { return duration(c.calc_period, v); }},
      {"PriorityFavorSmall",
       [](SlurmConfig& c, const std::string& v) -> std::string {
         const std::string l = lower(v);
         if (l == "yes")
           c.favor_small = true;
         else if (l == "no")
           c.favor_small = false;
         else
           return "YES or NO";
         return {};
       }},
  };
  return table;
}

/// A SchedulerParameters option: name, whether it takes a value, its range, and where it goes.
struct Option {
  const char* name;
  long long min, max;
  double scale;  ///< seconds per unit of the value (bf_window is in minutes)
  double SlurmConfig::*real = nullptr;
  long long SlurmConfig::*count = nullptr;
};

const std::vector<Option>& options() {
  static const std::vector<Option> table{
      {"bf_interval", 1, 10800, 1, &SlurmConfig::bf_interval, nullptr},
      {"bf_window", 1, 43200, 60, &SlurmConfig::bf_window, nullptr},
      {"bf_resolution", 1, 3600, 1, &SlurmConfig::bf_resolution, nullptr},
      {"bf_max_job_test", 1, 1000000, 1, nullptr, &SlurmConfig::bf_max_job_test},
      {"bf_max_job_user", 0, 1000000, 1, nullptr, &SlurmConfig::bf_max_job_user},
  };
  return table;
}

std::string supported_options() {
  std::string list;
  for (const auto& option : options()) list += std::string(option.name) + ", ";
  return list + "bf_continue";
}

void apply_scheduler_parameters(SlurmConfig& config, const std::string& value,
                                const std::string& where, std::vector<std::string>& problems) {
  std::istringstream items(value);
  std::string item;
  while (std::getline(items, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    const auto equals = item.find('=');
    const std::string name = lower(trim(item.substr(0, equals)));
    const std::string argument = equals == std::string::npos ? "" : trim(item.substr(equals + 1));
    if (name == "bf_continue") {
      if (equals != std::string::npos)
        problems.push_back(where + ": SchedulerParameters option bf_continue takes no value");
      config.bf_continue = true;
      continue;
    }
    const auto found = std::find_if(options().begin(), options().end(),
                                    [&](const Option& option) { return name == option.name; });
    if (found == options().end()) {
      problems.push_back(where + ": SchedulerParameters option '" + item +
                         "' is not modelled (supported: " + supported_options() + ")");
      continue;
    }
    const auto parsed = parse_count(argument);
    if (!parsed || *parsed < found->min || *parsed > found->max) {
      problems.push_back(where + ": SchedulerParameters option " + found->name +
                         " expects an integer in [" + std::to_string(found->min) + ", " +
                         std::to_string(found->max) + "], got '" + argument + "'");
      continue;
    }
    if (found->real) config.*(found->real) = static_cast<double>(*parsed) * found->scale;
    if (found->count) config.*(found->count) = *parsed;
  }
}

void apply_pair(SlurmConfig& config, const std::string& key, const std::string& value,
                const std::string& where, std::vector<std::string>& problems) {
  if (lower(key) == "schedulerparameters") {
    // A repeated key replaces the whole value (the options it leaves out are the defaults).
    const SlurmConfig defaults;
    config.bf_interval = defaults.bf_interval;
    config.bf_window = defaults.bf_window;
    config.bf_resolution = defaults.bf_resolution;
    config.bf_max_job_test = defaults.bf_max_job_test;
    config.bf_max_job_user = defaults.bf_max_job_user;
    config.bf_continue = defaults.bf_continue;
    apply_scheduler_parameters(config, value, where, problems);
    return;
  }
  for (const auto& entry : keys()) {
    if (lower(key) != lower(entry.name)) continue;
    const std::string expected = entry.apply(config, value);
    if (!expected.empty())
      problems.push_back(where + ": " + entry.name + " expects " + expected + ", got '" + value +
                         "'");
    return;
  }
  std::string known;
  for (const auto& entry : keys()) known += std::string(entry.name) + ", ";
  problems.push_back(where + ": key '" + key + "' is not modelled by the slurm scheduler (keys: " +
                     known + "SchedulerParameters)");
}

std::string problem_list(const std::vector<std::string>& problems) {
  std::string message;
  for (const auto& problem : problems) message += "\n  " + problem;
  return message;
}

}  // namespace

std::optional<long long> slurm_time_minutes(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) return std::nullopt;
  long long days = 0;
  std::string rest = text;
  const auto dash = text.find('-');
  if (dash != std::string::npos) {
    const auto parsed = parse_count(text.substr(0, dash));
    if (!parsed || *parsed < 0) return std::nullopt;
    days = *parsed;
    rest = text.substr(dash + 1);
  }
  std::vector<long long> parts;
  std::istringstream fields(rest);
  std::string field;
  while (std::getline(fields, field, ':')) {
    const auto parsed = parse_count(field);
    if (!parsed || *parsed < 0) return std::nullopt;
    parts.push_back(*parsed);
  }
  if (parts.empty() || parts.size() > 3 || (!rest.empty() && rest.back() == ':'))
    return std::nullopt;
  long long seconds = 0;
  if (dash != std::string::npos) {
    // d-h, d-h:m, d-h:m:s
    seconds = days * 86400 + parts[0] * 3600;
    if (parts.size() > 1) seconds += parts[1] * 60;
    if (parts.size() > 2) seconds += parts[2];
  } else if (parts.size() == 1) {
    seconds = parts[0] * 60;  // minutes
  } else if (parts.size() == 2) {
    seconds = parts[0] * 60 + parts[1];  // min:sec
  } else {
    seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];  // h:m:s
  }
  return (seconds + 59) / 60;  // seconds round up to a whole minute
}

double slurm_time_limit(const Job& job) {
  if (!(job.estimate > 0) || !std::isfinite(job.estimate))
    return std::numeric_limits<double>::infinity();
  return std::ceil(job.estimate / 60) * 60;
}

std::string SlurmConfig::describe() const {
  std::ostringstream out;
  out << "PriorityType=" << (multifactor ? "priority/multifactor" : "priority/basic") << '\n'
      << "SchedulerType=" << (backfill ? "sched/backfill" : "sched/builtin") << '\n'
      << "PriorityWeightAge=" << text_of(weight_age) << '\n'
      << "PriorityWeightJobSize=" << text_of(weight_job_size) << '\n'
      << "PriorityWeightFairshare=" << text_of(weight_fairshare) << '\n'
      << "PriorityMaxAge=" << text_of(max_age) << "s\n"
      << "PriorityFavorSmall=" << (favor_small ? "YES" : "NO") << '\n'
      << "PriorityDecayHalfLife=" << text_of(decay_half_life) << "s\n"
      << "PriorityCalcPeriod=" << text_of(calc_period) << "s\n"
      << "SchedulerParameters=bf_interval=" << text_of(bf_interval)
      << ",bf_window=" << text_of(bf_window / 60) << ",bf_resolution=" << text_of(bf_resolution)
      << ",bf_max_job_test=" << bf_max_job_test << ",bf_max_job_user=" << bf_max_job_user
      << (bf_continue ? ",bf_continue" : "") << '\n'
      << "enforce_limits=" << (enforce_limits ? 1 : 0) << '\n';
  return out.str();
}

void apply_slurm_conf_line(SlurmConfig& config, const std::string& line, const std::string& where,
                           std::vector<std::string>& problems) {
  std::string text = line.substr(0, line.find('#'));
  std::istringstream tokens(text);
  std::string token;
  // slurm.conf: whitespace-separated Key=Value pairs.
  while (tokens >> token) {
    const auto equals = token.find('=');
    if (equals == std::string::npos || equals == 0) {
      problems.push_back(where + ": expected Key=Value, got '" + token + "'");
      continue;
    }
    apply_pair(config, token.substr(0, equals), token.substr(equals + 1), where, problems);
  }
}

SlurmConfig read_slurm_conf(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("slurm scheduler: cannot read conf file '" + path + "'");
  SlurmConfig config;
  std::vector<std::string> problems;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number)
    apply_slurm_conf_line(config, line, path + ":" + std::to_string(number), problems);
  if (!problems.empty())
    throw InputError("slurm scheduler: " + std::to_string(problems.size()) +
                     " unsupported setting(s) in '" + path + "':" + problem_list(problems));
  return config;
}

std::vector<ParamSpec> slurm_params() {
  // Every key is text with an empty default ("as in the conf file, else Slurm's default"),
  // left out of the canonical form unless given.
  auto key = [](const std::string& name, const std::string& help) {
    ParamSpec spec;
    spec.key = name;
    spec.kind = ParamKind::text;
    spec.help = help;
    spec.default_in_canonical = false;
    return spec;
  };
  return {
      key("conf", "slurm.conf fragment read first (spec keys override it)"),
      key("PriorityType", "priority/basic (default: FIFO) or priority/multifactor"),
      key("SchedulerType", "sched/backfill (default) or sched/builtin (main pass only)"),
      key("PriorityFlags", "NO_FAIR_TREE only (the model's fair share is the classic one)"),
      key("PriorityWeightAge", "weight of the age factor (default 0)"),
      key("PriorityWeightJobSize", "weight of the job size factor (default 0)"),
      key("PriorityWeightFairshare", "weight of the fair-share factor (default 0)"),
      key("PriorityMaxAge", "age at which the age factor reaches 1 (Slurm time, default 7-0)"),
      key("PriorityFavorSmall", "YES: small jobs get the larger size factor (default NO)"),
      key("PriorityDecayHalfLife", "half-life of past usage (Slurm time, default 7-0; 0 = none)"),
      key("PriorityCalcPeriod", "priority recomputation period (minutes, default 5; 0 = always)"),
      key("bf_interval", "seconds between backfill passes (default 30)"),
      key("bf_window", "minutes ahead that backfill plans (default 1440)"),
      key("bf_resolution", "seconds to which reservations are rounded (default 60)"),
      key("bf_max_job_test", "jobs tested per backfill pass (default 500)"),
      key("bf_max_job_user", "jobs per user tested per backfill pass (default 0 = no limit)"),
      key("bf_continue", "1 sets bf_continue (no effect: passes are instantaneous)"),
      key("enforce_limits", "1 (default): a job running at its time limit ends there"),
  };
}

namespace {
SlurmConfig config_from_params(const Params& params) {
  SlurmConfig config;
  if (!params.text("conf").empty()) config = read_slurm_conf(params.text("conf"));
  std::vector<std::string> problems;
  const std::string where = "scheduler 'slurm' spec";
  for (const ParamSpec& spec : slurm_params()) {
    const std::string& value = params.text(spec.key);
    if (value.empty() || spec.key == "conf") continue;
    if (spec.key == "enforce_limits") {
      if (value == "0" || value == "1")
        config.enforce_limits = value == "1";
      else
        problems.push_back(where + ": enforce_limits expects 0 or 1, got '" + value + "'");
    } else if (spec.key == "bf_continue") {
      if (value == "0" || value == "1")
        config.bf_continue = value == "1";
      else
        problems.push_back(where + ": bf_continue expects 0 or 1, got '" + value + "'");
    } else if (spec.key.rfind("bf_", 0) == 0) {
      apply_scheduler_parameters(config, spec.key + "=" + value, where, problems);
    } else {
      apply_pair(config, spec.key, value, where, problems);
    }
  }
  if (!problems.empty())
    throw InputError("slurm scheduler: " + std::to_string(problems.size()) +
                     " unsupported setting(s):" + problem_list(problems));
  return config;
}
}  // namespace

std::unique_ptr<Scheduler> make_slurm_scheduler(const Params& params) {
  return make_slurm_scheduler(config_from_params(params));
}

}  // namespace allocsim
