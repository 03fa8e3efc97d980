// HDF5 result files (design sketch "HDF5 result file").
#include "allocsim/sweep/store/results.hpp"

#include <charconv>
#include <cmath>
#include <map>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sweep/store/verify.hpp"

namespace allocsim::sweep {

using h5::ColumnDef;
using h5::ColumnType;
using h5::Table;

namespace {

/// The /configs column type of a config field.
ColumnType field_column_type(FieldType type) {
  switch (type) {
    case FieldType::real:
      return ColumnType::f64;
    case FieldType::boolean:
      return ColumnType::i64;
    case FieldType::unsigned_integer:
      return ColumnType::u64;
    case FieldType::text:
    case FieldType::text_list:
      break;
  }
  return ColumnType::text;
}

/// A config field's unit in /configs: its own, else "1" for a dimensionless number or flag.
std::string field_unit(const ConfigField& field) {
  if (*field.unit != '\0') return field.unit;
  const bool dimensionless = field.type() == FieldType::real || field.type() == FieldType::boolean;
  return dimensionless ? "1" : "";
}

/// A config field's /configs cell.
struct CellOf {
  Table::Cell operator()(const std::string& value) const { return value; }
  Table::Cell operator()(const std::vector<std::string>& value) const { return join_list(value); }
  Table::Cell operator()(double value) const { return value; }
  Table::Cell operator()(bool value) const { return static_cast<std::int64_t>(value); }
  Table::Cell operator()(std::uint64_t value) const { return value; }
};

/// Fixed /configs columns before the free variables (bookkeeping, then one per config
/// field), and after them.
const std::vector<ColumnDef>& leading_config_columns() {
  static const std::vector<ColumnDef> columns = [] {
    std::vector<ColumnDef> list = {
        {"config_id", ColumnType::u64, "", "hash of the canonical config (hex: /jobs/<id>)"},
        {"index", ColumnType::i64, "", "position of the config in the experiment's expansion"},
        {"replicate", ColumnType::i64, "", "replicate number (0-based) of otherwise equal configs"},
        {"status", ColumnType::text, "", "pending, done, failed or timed_out"},
        {"error", ColumnType::text, "", "why the config failed or timed out"},
        {"wall_seconds", ColumnType::f64, "s", "wall-clock time of the run"},
        {"rank", ColumnType::i64, "", "MPI rank that ran the config"},
    };
    for (const auto& field : config_fields())
      list.push_back({field.name, field_column_type(field.type()), field_unit(field), field.help});
    return list;
  }();
  return columns;
}
const std::vector<ColumnDef>& trailing_config_columns() {
  static const std::vector<ColumnDef> columns = {
      {"label", ColumnType::text, "", "the config's free variables as name=value"},
      {"canonical", ColumnType::text, "", "canonical config text (its hash is config_id)"},
      {"diagnostics", ColumnType::text, "", "trace diagnostics: dropped lines and jobs by reason"}};
  return columns;
}

bool parses_as_number(const std::string& text, double& value) {
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && result.ec == std::errc() && result.ptr == text.data() + text.size();
}

std::string variable_column(const std::string& name) {
  for (const auto& c : leading_config_columns())
    if (c.name == name) return "var_" + name;
  for (const auto& c : trailing_config_columns())
    if (c.name == name) return "var_" + name;
  return name;
}

/// The /configs column type of each free variable: i64 when every value is a TOML integer
/// (an integer stays an integer), f64 when every value reads as a number, else text.
std::vector<ColumnType> variable_types(const Expansion& expansion) {
  const std::size_t count = expansion.variable_names.size();
  std::vector<bool> numeric(count, true), integer(count, true);
  for (std::size_t v = 0; v < count; ++v)
    integer[v] = v < expansion.variable_integer.size() && expansion.variable_integer[v];
  for (const auto& entry : expansion.configs)
    for (std::size_t v = 0; v < entry.variables.size() && v < count; ++v) {
      const std::string& text = entry.variables[v].second;
      double value = 0;
      if (text.empty()) integer[v] = false;  // a config without it: NaN in a real column
      if (!text.empty() && !parses_as_number(text, value)) numeric[v] = false;
    }
  std::vector<ColumnType> types;
  for (std::size_t v = 0; v < count; ++v)
    types.push_back(!numeric[v]  ? ColumnType::text
                    : integer[v] ? ColumnType::i64
                                 : ColumnType::f64);
  return types;
}

template <class T>
T get_attr(const h5::File& file, const char* name, T fallback) {
  const auto value = file.attr(name);
  if (!value) return fallback;
  if (auto* v = std::get_if<T>(&*value)) return *v;
  if constexpr (std::is_arithmetic_v<T>) {
    if (auto* d = std::get_if<double>(&*value)) return static_cast<T>(*d);
    if (auto* i = std::get_if<std::int64_t>(&*value)) return static_cast<T>(*i);
    if (auto* u = std::get_if<std::uint64_t>(&*value)) return static_cast<T>(*u);
  }
  return fallback;
}

}  // namespace

std::string diagnostics_text(const Diagnostics& diagnostics) {
  std::string out;
  auto add = [&](const std::string& piece) {
    if (!out.empty()) out += "; ";
    out += piece;
  };
  for (const auto& [reason, entry] : diagnostics.entries)
    add(reason + ": " + std::to_string(entry.count));
  for (const auto& note : diagnostics.notes) add(note);
  return out;
}

void write_info(h5::File& file, const FileInfo& info) {
  file.set_attr("format", info.format);
  file.set_attr("version", info.version);
  file.set_attr("experiment", info.experiment);
  file.set_attr("experiment_file", info.experiment_file);
  file.set_attr("experiment_text", info.experiment_text);
  file.set_attr("seed", info.seed);
  file.set_attr("fingerprint", info.fingerprint);
  file.set_attr("total_configs", info.total_configs);
  file.set_attr("shard", info.shard);
  file.set_attr("file_configs", info.file_configs);
  file.set_attr("host", info.host);
  file.set_attr("ranks", info.ranks);
  file.set_attr("start_time", info.start_time);
  file.set_attr("end_time", info.end_time);
  file.set_attr("status", info.status);
  file.set_attr("dispatch_seconds", info.dispatch_seconds);
  file.set_attr("master_cpu_seconds", info.master_cpu_seconds);
  file.set_attr("master_cpu_share", info.master_cpu_share);
  file.set_attr("master_cpu_scope", info.master_cpu_scope);
  file.set_attr("done", info.done);
  file.set_attr("failed", info.failed);
  file.set_attr("timed_out", info.timed_out);
  file.set_attr("pending", info.pending);
  file.set_attr("command_line", info.command_line);
  file.set_attr("trace_dir", info.trace_dir);
  std::vector<std::string> names, paths, digests;
  for (const auto& trace : info.traces) {
    names.push_back(trace.name);
    paths.push_back(trace.path);
    digests.push_back(trace.sha256);
  }
  file.set_text_array_attr("/", "trace_names", names);
  file.set_text_array_attr("/", "trace_paths", paths);
  file.set_text_array_attr("/", "trace_sha256", digests);
  file.set_attr("hdf5_version", info.hdf5_version);
  file.set_attr("mpi_version", info.mpi_version);
  file.set_attr("boost_version", info.boost_version);
}

FileInfo read_info(const h5::File& file) {
  FileInfo info;
  info.format = get_attr<std::string>(file, "format", "");
  if (info.format.rfind("allocsim-sweep/", 0) != 0)
    throw InputError("'" + file.path() + "' is not an allocsim sweep result file");
  if (info.format != "allocsim-sweep/1" && info.format != kResultFormat)
    throw InputError("'" + file.path() + "' has result format '" + info.format +
                     "', which this allocsim (reading allocsim-sweep/1 and " + kResultFormat +
                     ") does not know: read it with the allocsim version that wrote it (" +
                     get_attr<std::string>(file, "version", "unknown") + ")");
  info.version = get_attr<std::string>(file, "version", "");
  info.experiment = get_attr<std::string>(file, "experiment", "");
  info.experiment_file = get_attr<std::string>(file, "experiment_file", "");
  info.experiment_text = get_attr<std::string>(file, "experiment_text", "");
  info.seed = get_attr<std::uint64_t>(file, "seed", 0);
  info.fingerprint = get_attr<std::uint64_t>(file, "fingerprint", 0);
  info.total_configs = get_attr<std::int64_t>(file, "total_configs", 0);
  info.shard = get_attr<std::string>(file, "shard", "");
  info.file_configs = get_attr<std::int64_t>(file, "file_configs", 0);
  info.host = get_attr<std::string>(file, "host", "");
  info.ranks = get_attr<std::int64_t>(file, "ranks", 0);
  info.start_time = get_attr<std::string>(file, "start_time", "");
  info.end_time = get_attr<std::string>(file, "end_time", "");
  info.status = get_attr<std::string>(file, "status", "");
  info.dispatch_seconds = get_attr<double>(file, "dispatch_seconds", 0);
  info.master_cpu_seconds = get_attr<double>(file, "master_cpu_seconds", 0);
  info.master_cpu_share = get_attr<double>(file, "master_cpu_share", 0);
  info.master_cpu_scope = get_attr<std::string>(file, "master_cpu_scope", "");
  info.done = get_attr<std::int64_t>(file, "done", 0);
  info.failed = get_attr<std::int64_t>(file, "failed", 0);
  info.timed_out = get_attr<std::int64_t>(file, "timed_out", 0);
  info.pending = get_attr<std::int64_t>(file, "pending", 0);
  info.command_line = get_attr<std::string>(file, "command_line", "");
  info.trace_dir = get_attr<std::string>(file, "trace_dir", "");
  const auto names = file.text_array_attr("/", "trace_names");
  const auto paths = file.text_array_attr("/", "trace_paths");
  const auto digests = file.text_array_attr("/", "trace_sha256");
  for (std::size_t t = 0; t < names.size(); ++t)
    info.traces.push_back(
        {names[t], t < paths.size() ? paths[t] : "", t < digests.size() ? digests[t] : ""});
  info.hdf5_version = get_attr<std::string>(file, "hdf5_version", "");
  info.mpi_version = get_attr<std::string>(file, "mpi_version", "");
  info.boost_version = get_attr<std::string>(file, "boost_version", "");
  return info;
}

std::vector<ColumnDef> config_columns(const Expansion& expansion) {
  std::vector<ColumnDef> columns = leading_config_columns();
  const auto types = variable_types(expansion);
  for (std::size_t v = 0; v < expansion.variable_names.size(); ++v) {
    const VariableInfo* info =
        v < expansion.variable_info.size() ? &expansion.variable_info[v] : nullptr;
    const std::string& name = expansion.variable_names[v];
    columns.push_back({variable_column(name), types[v], info ? info->unit : "",
                       info && !info->description.empty()
                           ? info->description
                           : "value of the experiment's free variable '" + name + "'"});
  }
  for (const auto& c : trailing_config_columns()) columns.push_back(c);
  return columns;
}

std::vector<ColumnDef> summary_table_columns() {
  std::vector<ColumnDef> columns = {
      {"config_id", ColumnType::u64, "", "the config (/configs row) summarized"}};
  for (const auto& c : summary_columns())
    columns.push_back({c.name, ColumnType::f64, c.unit, c.description});
  return columns;
}

namespace {
std::vector<ColumnDef> decision_columns() {
  return {{"decision", ColumnType::text, "", "decision allocator"},
          {"mean_pairwise_sum", ColumnType::f64, "hops",
           "mean over placed jobs of the sum of pairwise distances of its answer"},
          {"mean_avg_pairwise", ColumnType::f64, "hops",
           "mean over placed jobs of the average pairwise distance of its answer"},
          {"jobs", ColumnType::f64, "jobs", "placements compared"},
          {"refusals", ColumnType::f64, "jobs", "placements it had no answer for"}};
}
}  // namespace

namespace {
/// The /configs columns that hold a config's outcome; the others are the config's own.
constexpr const char* kOutcomeColumns[] = {"status", "error", "wall_seconds", "rank",
                                           "diagnostics"};
}  // namespace

ResultWriter::ResultWriter(const std::string& path, const FileInfo& info,
                           const Expansion& expansion, const std::vector<std::int64_t>& rows)
    : file_(path, h5::File::Mode::create),
      expansion_(&expansion),
      variable_types_(variable_types(expansion)),
      config_columns_(config_columns(expansion)),
      summary_(summary_table_columns()) {
  std::vector<ColumnDef> outcome_columns;
  for (const char* name : kOutcomeColumns)
    for (const auto& c : config_columns_)
      if (c.name == name) outcome_columns.push_back(c);
  outcomes_ = Table(std::move(outcome_columns));
  write_info(file_, info);
  file_.create_table("/configs", config_columns_, kConfigChunkRows, false);
  file_.create_table("/summary", summary_.columns(), kConfigChunkRows, false);
  // Every row now, pending, in large appends: a result then writes only its outcome columns.
  row_ids_.reserve(rows.size());
  Table pending(config_columns_);
  for (const std::int64_t index : rows) {
    const ConfigEntry& entry = expansion.configs.at(static_cast<std::size_t>(index));
    row_ids_.push_back(entry.id);
    pending.add_row(config_row(entry));
    if (pending.rows() >= kPrefillRows) {
      file_.append_table("/configs", pending);
      pending.clear_rows();
    }
  }
  file_.append_table("/configs", pending);
  file_.flush();
}

std::vector<Table::Cell> ResultWriter::config_row(const ConfigEntry& entry) const {
  const RunConfig& c = entry.config;
  std::vector<Table::Cell> row = {
      entry.id,
      entry.index,
      static_cast<std::int64_t>(entry.replicate),
      std::string(status_name(ConfigStatus::pending)),
      std::string(),    // error
      0.0,              // wall_seconds
      std::int64_t{0},  // rank
  };
  for (const auto& field : config_fields()) {
    // A text field set with {replicate} shows the value as written, so the replicates of a
    // config group together (its resolved value is in the canonical column).
    const auto written = std::find_if(entry.as_written.begin(), entry.as_written.end(),
                                      [&](const auto& w) { return w.first == field.name; });
    if (written != entry.as_written.end() && field_column_type(field.type()) == ColumnType::text)
      row.emplace_back(written->second);
    else
      row.push_back(visit_field(c, field, CellOf{}));
  }
  for (std::size_t v = 0; v < variable_types_.size(); ++v) {
    const std::string text = v < entry.variables.size() ? entry.variables[v].second : "";
    if (variable_types_[v] == ColumnType::i64) {
      std::int64_t value = 0;
      std::from_chars(text.data(), text.data() + text.size(), value);
      row.emplace_back(value);
    } else if (variable_types_[v] == ColumnType::f64) {
      double value = std::nan("");
      parses_as_number(text, value);
      row.emplace_back(value);
    } else {
      row.emplace_back(text);
    }
  }
  row.emplace_back(entry.label);
  row.emplace_back(entry.canonical);
  row.emplace_back(std::string());  // diagnostics
  return row;
}

void ResultWriter::add_pending(const ConfigEntry& entry) {
  ConfigOutcome outcome;
  outcome.config_id = entry.id;
  outcome.index = entry.index;
  add(entry, outcome);
}

void ResultWriter::add(const ConfigEntry& entry, const ConfigOutcome& outcome) {
  if (written_rows_ + outcomes_.rows() >= row_ids_.size() ||
      row_ids_[written_rows_ + outcomes_.rows()] != entry.id)
    throw std::logic_error("ResultWriter::add: config " + id_hex(entry.id) +
                           " is not the next row of /configs");
  // The outcome columns, in kOutcomeColumns order, straight into the buffer.
  outcomes_.column_data(0).s.emplace_back(status_name(outcome.status));
  outcomes_.column_data(1).s.push_back(outcome.error);
  outcomes_.column_data(2).f.push_back(outcome.wall_seconds);
  outcomes_.column_data(3).i.push_back(outcome.rank);
  outcomes_.column_data(4).s.push_back(diagnostics_text(outcome.result.diagnostics));
  outcomes_.set_rows(outcomes_.rows() + 1);
  if (outcome.status != ConfigStatus::done) return;

  summary_.column_data(0).u.push_back(entry.id);
  std::size_t column = 1;
  for (const auto& c : summary_columns())
    summary_.column_data(column++).f.push_back(outcome.result.summary.*c.member);
  summary_.set_rows(summary_.rows() + 1);

  if (outcome.result.jobs.empty() && outcome.result.decisions.empty() &&
      outcome.result.timeline.empty())
    return;
  const std::string hex = id_hex(entry.id);
  if (!outcome.result.timeline.empty() && !file_.exists("/timeline/" + hex))
    write_timeline_table(file_, hex, outcome.result.timeline);
  if (!outcome.result.jobs.empty() && !file_.exists("/jobs/" + hex))
    write_job_tables(file_, hex, outcome.result.jobs);
  if (!outcome.result.decisions.empty() && !file_.exists("/decisions/" + hex)) {
    Table decisions(decision_columns());
    for (const auto& d : outcome.result.decisions)
      decisions.add_row({d.decision, d.mean_pairwise_sum, d.mean_avg_pairwise, d.jobs, d.refusals});
    file_.create_table("/decisions/" + hex, decisions.columns(), kDecisionChunkRows, false);
    file_.append_table("/decisions/" + hex, decisions);
  }
}

void ResultWriter::append() {
  file_.write_rows("/configs", config_columns_, written_rows_, outcomes_);
  written_rows_ += outcomes_.rows();
  if (summary_.rows() > 0) file_.append_table("/summary", summary_);
  outcomes_.clear_rows();
  summary_.clear_rows();
}

void ResultWriter::flush() {
  append();
  file_.flush();
}

void ResultWriter::set_info(const FileInfo& info) {
  write_info(file_, info);
}

void ResultWriter::close() {
  flush();
  file_.close();
}

RunConfig read_config(const Table& configs, std::size_t row) {
  RunConfig config;
  for (const auto& field : config_fields()) {
    const int found = configs.find(field.name);
    if (found < 0) continue;  // a file older than the field: keep the default
    const auto c = static_cast<std::size_t>(found);
    visit_field(config, field, [&](auto& value) {
      using Member = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<Member, std::string>)
        value = configs.text(row, c);
      else if constexpr (std::is_same_v<Member, std::vector<std::string>>)
        value = split_list(configs.text(row, c));
      else if constexpr (std::is_same_v<Member, double>)
        value = configs.number(row, c);
      else if constexpr (std::is_same_v<Member, bool>)
        value = configs.i64(row, c) != 0;
      else
        value = configs.u64(row, c);
    });
  }
  return config;
}

ResultTables read_result_tables(const std::string& path) {
  verify_result_file(path);
  h5::File file(path, h5::File::Mode::read);
  ResultTables tables;
  tables.info = read_info(file);
  tables.configs = file.read_table("/configs");
  tables.summary = file.read_table("/summary");
  check_result_layout(path, tables.configs, tables.summary);
  return tables;
}

std::vector<ConfigOutcome> read_outcomes(const std::string& path) {
  verify_result_file(path);
  h5::File file(path, h5::File::Mode::read);
  read_info(file);
  const Table configs = file.read_table("/configs");
  const Table summary = file.read_table("/summary");
  auto column = [](const Table& t, const std::string& name) {
    const int c = t.find(name);
    if (c < 0) throw InputError("result table lacks column '" + name + "'");
    return static_cast<std::size_t>(c);
  };
  std::map<std::uint64_t, std::size_t> summary_row;
  const std::size_t summary_id = column(summary, "config_id");
  for (std::size_t r = 0; r < summary.rows(); ++r) summary_row[summary.u64(r, summary_id)] = r;

  std::vector<ConfigOutcome> outcomes;
  const std::size_t id_col = column(configs, "config_id"), index_col = column(configs, "index"),
                    status_col = column(configs, "status"), error_col = column(configs, "error"),
                    wall_col = column(configs, "wall_seconds"), rank_col = column(configs, "rank"),
                    diag_col = column(configs, "diagnostics");
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    ConfigOutcome o;
    o.status = parse_status(configs.text(r, status_col));
    if (o.status == ConfigStatus::pending) continue;
    o.config_id = configs.u64(r, id_col);
    o.index = configs.i64(r, index_col);
    o.error = configs.text(r, error_col);
    o.wall_seconds = configs.number(r, wall_col);
    o.rank = static_cast<int>(configs.i64(r, rank_col));
    if (!configs.text(r, diag_col).empty())
      o.result.diagnostics.notes.push_back(configs.text(r, diag_col));
    if (o.status == ConfigStatus::done) {
      auto it = summary_row.find(o.config_id);
      if (it == summary_row.end()) continue;  // inconsistent row: run it again
      for (const auto& c : summary_columns()) {
        const int sc = summary.find(c.name);
        if (sc >= 0) o.result.summary.*c.member = summary.number(it->second, sc);
      }
      const std::string hex = id_hex(o.config_id);
      if (file.exists("/jobs/" + hex)) o.result.jobs = read_job_tables(file, hex);
      if (file.exists("/timeline/" + hex)) o.result.timeline = read_timeline_table(file, hex);
      if (file.exists("/decisions/" + hex)) {
        const Table d = file.read_table("/decisions/" + hex);
        for (std::size_t j = 0; j < d.rows(); ++j)
          o.result.decisions.push_back(
              {d.text(j, 0), d.number(j, 1), d.number(j, 2), d.number(j, 3), d.number(j, 4)});
      }
    }
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

}  // namespace allocsim::sweep
