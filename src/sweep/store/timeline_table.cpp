// The /timeline/<id hex> tables of a result file (sweeps with keep_timeline): the machine's
// state over time, one row per event time at which it changes (sim/timeline.hpp).
#include "allocsim/sim/timeline_row.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

using h5::ColumnDef;
using h5::ColumnType;
using h5::Table;

namespace {

/// Rows per chunk of a /timeline table: a few thousand rows of 40 bytes.
constexpr std::size_t kTimelineChunkRowsMax = 4096;

std::vector<ColumnDef> timeline_table_columns() {
  std::vector<ColumnDef> columns;
  for (const auto& c : timeline_columns()) {
    const std::string name = c.name;
    const bool real = name == "time" || name == "utilization";
    columns.push_back({name, real ? ColumnType::f64 : ColumnType::i64, c.unit, c.description});
  }
  return columns;
}

}  // namespace

void write_timeline_table(h5::File& file, const std::string& hex,
                          const std::vector<TimelineRow>& rows) {
  Table table(timeline_table_columns());
  for (const auto& row : rows)
    table.add_row({row.time, row.busy_nodes, row.utilization, row.queued_jobs, row.running_jobs});
  const std::size_t chunk =
      std::min<std::size_t>(std::max<std::size_t>(rows.size(), 1), kTimelineChunkRowsMax);
  file.create_table("/timeline/" + hex, table.columns(), chunk, true);
  file.append_table("/timeline/" + hex, table);
}

std::vector<TimelineRow> read_timeline_table(const h5::File& file, const std::string& hex) {
  const std::string path = "/timeline/" + hex;
  const Table table = file.read_table(path);
  std::vector<int> column;
  for (const auto& c : timeline_columns()) {
    column.push_back(table.find(c.name));
    if (column.back() < 0)
      throw InputError("'" + file.path() + "' is damaged: " + path + " has no column '" + c.name +
                       "'");
  }
  std::vector<TimelineRow> rows(table.rows());
  for (std::size_t r = 0; r < table.rows(); ++r) {
    auto at = [&](std::size_t c) { return table.number(r, static_cast<std::size_t>(column[c])); };
    rows[r] = {at(0), static_cast<std::int64_t>(at(1)), at(2), static_cast<std::int64_t>(at(3)),
               static_cast<std::int64_t>(at(4))};
  }
  return rows;
}

}  // namespace allocsim::sweep
