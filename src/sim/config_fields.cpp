// The table of RunConfig fields and the generic operations on it (see config_fields.hpp).
#include "allocsim/sim/config_fields.hpp"

#include <charconv>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/mapping/job_pattern.hpp"
#include "allocsim/mapping/mapper.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

namespace {

std::string shortest(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

/// The problem `resolve` reports for a spec of a registry, or "".
template <class Registry>
std::string registry_problem(const Registry& registry, const std::string& spec) {
  try {
    registry.resolve(spec);
    return {};
  } catch (const std::exception& error) {
    return error.what();
  }
}

std::string check_machine(const std::string& spec) {
  try {
    check_machine_size(spec);
    Topology::parse(spec);
    return {};
  } catch (const std::exception& error) {
    return "machine '" + spec + "': " + error.what();
  }
}
std::string check_sched(const std::string& spec) {
  return registry_problem(scheduler_registry(), spec);
}
std::string check_alloc(const std::string& spec) {
  return registry_problem(allocator_registry(), spec);
}
std::string check_transform(const std::string& spec) {
  return registry_problem(transform_registry(), spec);
}
std::string check_runtime_model(const std::string& spec) {
  return registry_problem(runtime_model_registry(), spec);
}
/// Empty when `text` is a number that satisfies `rule`, else "NAME: expected ..., got ...".
std::string number_problem(const char* name, const std::string& text, const NumberRule& rule) {
  try {
    parse_number(text, rule, name);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}
std::string check_bsd_threshold(const std::string& v) {
  return number_problem("bsd_threshold", v, bsd_threshold_rule());
}
std::string check_estimate_factor(const std::string& v) {
  return number_problem("estimate_factor", v, estimate_factor_rule());
}
std::string check_timeout(const std::string& v) {
  return number_problem("timeout", v, timeout_rule());
}
std::string check_decision(const std::string& spec) {
  const std::string problem = check_alloc(spec);
  return problem.empty() ? problem : "decisions: " + problem;
}

std::string check_pattern(const std::string& spec) {
  if (spec.empty()) return {};
  try {
    mapping::canonical_job_pattern(spec);
    return {};
  } catch (const std::exception& error) {
    return "pattern: " + std::string(error.what());
  }
}
std::string check_mapper(const std::string& spec) {
  try {
    mapping::MapperChain chain(spec);
    return {};
  } catch (const std::exception& error) {
    return "mapper: " + std::string(error.what());
  }
}
std::string canonical_pattern(const std::string& spec) {
  return spec.empty() ? spec : mapping::canonical_job_pattern(spec);
}
std::string canonical_mapper(const std::string& spec) {
  return mapping::MapperChain(spec).canonical();
}

std::string canonical_machine(const std::string& spec) {
  return Topology::parse(spec).spec();
}
std::string canonical_trace(const std::string& trace) {
  if (trace.rfind("synthetic:", 0) != 0) return trace;
  const AlgoSpec spec = AlgoSpec::parse(trace);
  return "synthetic:" + Params(synthetic_params(), spec.params, "synthetic workload").canonical();
}
/// A synthetic workload spec is checked when the config is built (a bad one fails at expansion
/// or validation, not in a worker); trace files are checked when they are read.
std::string check_trace(const std::string& trace) {
  if (trace.rfind("synthetic:", 0) != 0) return {};
  try {
    validate_synthetic_spec(trace);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}
std::string canonical_sched(const std::string& spec) {
  return scheduler_registry().canonical(spec);
}
std::string canonical_alloc(const std::string& spec) {
  return allocator_registry().canonical(spec);
}
std::string canonical_transform(const std::string& spec) {
  return transform_registry().canonical(spec);
}
std::string canonical_runtime_model(const std::string& spec) {
  return runtime_model_registry().canonical(spec);
}

using R = RunConfig;
constexpr auto identity = FieldRole::identity;
constexpr auto setting = FieldRole::setting;
constexpr auto derived = FieldRole::derived;

}  // namespace

const std::vector<ConfigField>& config_fields() {
  // clang-format off
  static const std::vector<ConfigField> table = {
      {"machine", &R::machine, "machine: mesh:WxH[x..], torus:WxH[x..] or flat:N",
       "", identity, true, check_machine, canonical_machine, "torus:4x4"},
      {"trace", &R::trace, "trace file, trace NAME (in $ALLOCSIM_TRACE_DIR) or synthetic:...",
       "", identity, true, check_trace, canonical_trace, "synthetic:jobs=20"},
      {"sched", &R::sched, "scheduler spec (allocsim list schedulers)",
       "", identity, true, check_sched, canonical_sched, "easy"},
      {"alloc", &R::alloc, "allocator spec (allocsim list allocators)",
       "", identity, true, check_alloc, canonical_alloc, "mc1x1"},
      {"transforms", &R::transforms, "workload transforms, applied in order",
       "", identity, true, check_transform, canonical_transform,
       "truncate:max_jobs=10; runtime_scale"},
      {"runtime_model", &R::runtime_model, "runtime model spec (allocsim list runtime-models)",
       "", identity, true, check_runtime_model, canonical_runtime_model, "dispersal:alpha=0.2"},
      {"bsd_threshold", &R::bsd_threshold, "threshold of bounded slowdown (s)",
       "s", identity, true, check_bsd_threshold, nullptr, "60"},
      {"estimate_factor", &R::estimate_factor,
       "estimate = factor x runtime for jobs without a requested time",
       "", identity, true, check_estimate_factor, nullptr, "1.5"},
      {"strict", &R::strict, "malformed trace lines are errors, not counted skips",
       "", identity, true, nullptr, nullptr, "true"},
      {"keep_jobs", &R::keep_jobs, "keep per-job records (/jobs/<id> tables)",
       "", setting, false, nullptr, nullptr, "true"},
      {"keep_timeline", &R::keep_timeline,
       "keep the machine's state over time (/timeline/<id> tables: busy nodes, queued and "
       "running jobs)", "", setting, false, nullptr, nullptr, "true"},
      {"timeout", &R::timeout_seconds, "wall-clock limit in seconds (0 = none)",
       "s", setting, false, check_timeout, nullptr, "2.5"},
      {"decisions", &R::decisions,
       "situation/decision experiment: allocators asked at every placement of alloc",
       "", identity, false, check_decision, canonical_alloc, "mc1x1; genalg"},
      {"pattern", &R::pattern,
       "each job's communication pattern, sized to the job (mesh2d:auto, ring, ...; empty = none)",
       "", identity, false, check_pattern, canonical_pattern, "mesh2d:auto"},
      {"mapper", &R::mapper, "mapper placing a job's tasks on its nodes (allocsim list mappers)",
       "", identity, false, check_mapper, canonical_mapper, "topolb:order=2+refine"},
      {"seed", &R::seed, "generator seed of allocator and scheduler draws",
       "", derived, false, nullptr, nullptr, "12345678901234567890"},
      {"workload_seed", &R::workload_seed, "seed of synthetic workloads and random transforms",
       "", derived, false, nullptr, nullptr, "42"},
  };
  // clang-format on
  return table;
}

const ConfigField* find_config_field(std::string_view name) {
  for (const auto& field : config_fields())
    if (name == field.name) return &field;
  return nullptr;
}

std::string field_type_text(FieldType type) {
  switch (type) {
    case FieldType::text:
      return "a string";
    case FieldType::text_list:
      return "a list of strings";
    case FieldType::real:
      return "a number";
    case FieldType::boolean:
      return "true or false";
    case FieldType::unsigned_integer:
      return "a whole number";
  }
  return "?";
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += "; ";
    out += item;
  }
  return out;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  for (std::size_t begin = 0;;) {
    const std::size_t end = text.find("; ", begin);
    items.emplace_back(text.substr(begin, end - begin));
    if (end == std::string_view::npos) break;
    begin = end + 2;
  }
  return items;
}

namespace {

struct TextOf {
  std::string operator()(const std::string& value) const { return value; }
  std::string operator()(const std::vector<std::string>& value) const { return join_list(value); }
  std::string operator()(double value) const { return shortest(value); }
  std::string operator()(bool value) const { return value ? "true" : "false"; }
  std::string operator()(std::uint64_t value) const { return std::to_string(value); }
};

template <class Number>
std::string parse_number(const std::string& text, Number& out) {
  Number value{};
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size())
    return "'" + text + "' is not " +
           field_type_text(std::is_same_v<Number, double> ? FieldType::real
                                                          : FieldType::unsigned_integer);
  out = value;
  return {};
}

/// Sets one member from text items (see set_field).
struct SetFrom {
  const std::vector<std::string>& items;
  std::string operator()(std::vector<std::string>& value) const {
    value = items;
    return {};
  }
  template <class Scalar>
  std::string operator()(Scalar& value) const {
    if (items.size() != 1) return "expects a single value";
    const std::string& text = items.front();
    if constexpr (std::is_same_v<Scalar, std::string>) {
      value = text;
    } else if constexpr (std::is_same_v<Scalar, bool>) {
      if (text != "true" && text != "false") return "'" + text + "' is not true or false";
      value = text == "true";
    } else {
      return parse_number(text, value);
    }
    return {};
  }
};

/// The canonical() text of one identity field's value.
struct CanonicalOf {
  const ConfigField& field;
  std::string spelled(const std::string& item) const {
    return field.canonical ? field.canonical(item) : item;
  }
  std::string operator()(const std::string& value) const { return spelled(value); }
  std::string operator()(const std::vector<std::string>& value) const {
    std::string text = "[";
    for (std::size_t i = 0; i < value.size(); ++i) text += (i ? " | " : "") + spelled(value[i]);
    return text + "]";
  }
  std::string operator()(double value) const { return shortest(value); }
  std::string operator()(bool value) const { return value ? "1" : "0"; }
  std::string operator()(std::uint64_t value) const { return std::to_string(value); }
};

bool at_default(const RunConfig& config, const ConfigField& field) {
  static const RunConfig defaults;
  return std::visit([&](auto member) { return config.*member == defaults.*member; }, field.member);
}

}  // namespace

std::string field_text(const RunConfig& config, const ConfigField& field) {
  return visit_field(config, field, TextOf{});
}

std::string set_field(RunConfig& config, const ConfigField& field,
                      const std::vector<std::string>& items) {
  return visit_field(config, field, SetFrom{items});
}

std::vector<std::string> field_items(const RunConfig& config, const ConfigField& field) {
  if (const auto* list = std::get_if<std::vector<std::string> RunConfig::*>(&field.member))
    return config.**list;
  return {field_text(config, field)};
}

std::vector<std::string> check_fields(const RunConfig& config) {
  std::vector<std::string> problems;
  for (const auto& field : config_fields()) {
    if (field.check == nullptr) continue;
    for (const auto& item : field_items(config, field))
      if (std::string problem = field.check(item); !problem.empty())
        problems.push_back(std::move(problem));
  }
  return problems;
}

std::string RunConfig::canonical() const {
  std::string text;
  for (const auto& field : config_fields()) {
    if (field.role != FieldRole::identity) continue;
    if (!field.always_in_canonical && at_default(*this, field)) continue;
    if (!text.empty()) text += ';';
    text += field.name;
    text += '=';
    text += visit_field(*this, field, CanonicalOf{field});
  }
  return text;
}

}  // namespace allocsim
