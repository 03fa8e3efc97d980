// The per-job tables of a result file: /jobs/<id hex> and /job_nodes/<id hex>.
#include <charconv>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

using h5::ColumnDef;
using h5::ColumnType;
using h5::Table;

std::vector<ColumnDef> job_table_columns() {
  std::vector<ColumnDef> columns = {
      {"job_id", ColumnType::i64, "", "0-based job number among the trace's job lines"}};
  for (const auto& c : job_columns())
    columns.push_back({c.name, ColumnType::f64, c.unit, c.description});
  columns.push_back({"node_interval_offset", ColumnType::u64, "",
                     "row of the job's first node interval in /job_nodes/<id>"});
  columns.push_back({"node_interval_count", ColumnType::u64, "intervals",
                     "number of intervals of consecutive node ids the job ran on"});
  return columns;
}

std::vector<ColumnDef> job_node_columns() {
  return {{"first", ColumnType::i64, "", "first node id of an interval of allocated nodes"},
          {"last", ColumnType::i64, "", "last node id of the interval (inclusive)"}};
}

namespace {

/// [first, last] pairs of an interval set "0-3 8 10-11" (node_interval_set's notation).
std::vector<std::pair<std::int64_t, std::int64_t>> parse_node_intervals(const std::string& text) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  std::size_t pos = 0;
  auto number = [&](std::int64_t& value) {
    const auto result = std::from_chars(text.data() + pos, text.data() + text.size(), value);
    if (result.ec != std::errc())
      throw std::logic_error("bad node interval set '" + text + "' at offset " +
                             std::to_string(pos));
    pos = static_cast<std::size_t>(result.ptr - text.data());
  };
  while (pos < text.size()) {
    if (text[pos] == ' ') {
      ++pos;
      continue;
    }
    std::int64_t first = 0, last = 0;
    number(first);
    last = first;
    if (pos < text.size() && text[pos] == '-') {
      ++pos;
      number(last);
    }
    out.emplace_back(first, last);
  }
  return out;
}

/// The interval-set text of rows [offset, offset + count) of /job_nodes/<id> (`object`),
/// checked: within the table, not before `next` (the end of the previous job's intervals),
/// 0 <= first <= last < machine_nodes (when >= 0).
std::string node_interval_text(const Table& nodes, std::uint64_t offset, std::uint64_t count,
                               std::uint64_t& next, std::int64_t machine_nodes,
                               const std::string& object, std::size_t job) {
  const std::string where = object + " row " + std::to_string(job);
  if (offset > nodes.rows() || count > nodes.rows() - offset)
    throw InputError(where + " has node intervals " + std::to_string(offset) + " + " +
                     std::to_string(count) + ", past the end of its " +
                     std::to_string(nodes.rows()) + " rows of /job_nodes");
  if (offset < next)
    throw InputError(where + " has node_interval_offset " + std::to_string(offset) +
                     ", before the end of the previous job's intervals (" + std::to_string(next) +
                     "; offsets must increase)");
  next = offset + count;
  std::string out;
  for (std::uint64_t i = offset; i < offset + count; ++i) {
    if (!out.empty()) out += ' ';
    const std::int64_t first = nodes.i64(i, 0), last = nodes.i64(i, 1);
    if (first < 0 || first > last || (machine_nodes >= 0 && last >= machine_nodes))
      throw InputError(object + ": /job_nodes row " + std::to_string(i) + " is the interval " +
                       std::to_string(first) + "-" + std::to_string(last) +
                       " (expected 0 <= " + "first <= last" +
                       (machine_nodes >= 0
                            ? " < " + std::to_string(machine_nodes) + ", the machine's nodes"
                            : "") +
                       ")");
    out += std::to_string(first);
    if (last != first) out += '-' + std::to_string(last);
  }
  return out;
}

}  // namespace

void write_job_tables(h5::File& file, const std::string& hex, const std::vector<JobRecord>& jobs) {
  Table table(job_table_columns()), nodes(job_node_columns());
  for (const auto& record : jobs) {
    std::vector<Table::Cell> cells = {record.job_id};
    for (const auto& column : job_columns()) cells.emplace_back(record.*column.member);
    const auto intervals = parse_node_intervals(record.allocated_nodes);
    cells.emplace_back(static_cast<std::uint64_t>(nodes.rows()));
    cells.emplace_back(static_cast<std::uint64_t>(intervals.size()));
    for (const auto& [first, last] : intervals) nodes.add_row({first, last});
    table.add_row(std::move(cells));
  }
  auto chunk = [](std::size_t rows) {
    return std::min<std::size_t>(std::max<std::size_t>(rows, 1), kJobChunkRowsMax);
  };
  file.create_table("/jobs/" + hex, table.columns(), chunk(table.rows()), true);
  file.append_table("/jobs/" + hex, table);
  file.create_table("/job_nodes/" + hex, nodes.columns(), chunk(nodes.rows()), true);
  file.append_table("/job_nodes/" + hex, nodes);
}

std::vector<JobRecord> read_job_tables(const h5::File& file, const std::string& hex,
                                       std::int64_t machine_nodes) {
  std::vector<JobRecord> records;
  const Table jobs = file.read_table("/jobs/" + hex);
  const int job_id = jobs.find("job_id"), text = jobs.find("allocated_nodes"),
            offset = jobs.find("node_interval_offset"), count = jobs.find("node_interval_count");
  for (const int c : {offset, count})
    if (c >= 0 && jobs.columns()[static_cast<std::size_t>(c)].type != ColumnType::u64)
      throw InputError("'" + file.path() + "' is damaged: /jobs/" + hex + " column '" +
                       jobs.columns()[static_cast<std::size_t>(c)].name +
                       "' is not an unsigned 64-bit integer");
  if (job_id >= 0 && jobs.columns()[static_cast<std::size_t>(job_id)].type != ColumnType::i64)
    throw InputError("'" + file.path() + "' is damaged: /jobs/" + hex +
                     " column 'job_id' is not a signed 64-bit integer");
  if (text >= 0 && jobs.columns()[static_cast<std::size_t>(text)].type != ColumnType::text)
    throw InputError("'" + file.path() + "' is damaged: /jobs/" + hex +
                     " column 'allocated_nodes' is not text");
  Table nodes;
  if (offset >= 0 && count >= 0) {
    nodes = file.read_table("/job_nodes/" + hex);
    if (nodes.find("first") != 0 || nodes.find("last") != 1 ||
        nodes.columns()[0].type != ColumnType::i64 || nodes.columns()[1].type != ColumnType::i64)
      throw InputError("'" + file.path() + "' is damaged: /job_nodes/" + hex +
                       " has no valid columns first, last");
  }
  std::uint64_t next = 0;
  for (std::size_t j = 0; j < jobs.rows(); ++j) {
    JobRecord record;
    if (job_id >= 0) record.job_id = jobs.i64(j, job_id);
    if (text >= 0)  // format 1
      record.allocated_nodes = jobs.text(j, text);
    else if (offset >= 0 && count >= 0)
      record.allocated_nodes =
          node_interval_text(nodes, jobs.u64(j, offset), jobs.u64(j, count), next, machine_nodes,
                             "'" + file.path() + "' is damaged: /jobs/" + hex, j);
    for (const auto& c : job_columns()) {
      const int jc = jobs.find(c.name);
      if (jc >= 0) record.*c.member = jobs.number(j, jc);
    }
    records.push_back(std::move(record));
  }
  return records;
}

void copy_config_tables(const h5::File& from, h5::File& to, std::uint64_t config_id) {
  const std::string hex = id_hex(config_id);
  if (from.exists("/jobs/" + hex)) {
    if (from.has_string_members("/jobs/" + hex)) {
      write_job_tables(to, hex, read_job_tables(from, hex));
    } else {
      to.copy_from(from, "/jobs/" + hex, "/jobs/" + hex);
      if (from.exists("/job_nodes/" + hex))
        to.copy_from(from, "/job_nodes/" + hex, "/job_nodes/" + hex);
    }
  }
  if (from.exists("/timeline/" + hex))  // numbers only: copied as it is
    to.copy_from(from, "/timeline/" + hex, "/timeline/" + hex);
  const std::string decisions = "/decisions/" + hex;
  if (!from.exists(decisions)) return;
  if (from.has_string_members(decisions)) {
    const Table table = from.read_table(decisions);
    to.create_table(decisions, table.columns(), kDecisionChunkRows, false);
    to.append_table(decisions, table);
  } else {
    to.copy_from(from, decisions, decisions);
  }
}

}  // namespace allocsim::sweep
