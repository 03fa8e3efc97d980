// The in-memory column table of a result file (h5::Table; see h5.hpp): rows added, read,
// selected and cleared without touching HDF5.
#include "allocsim/sweep/store/h5.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "allocsim/sweep/experiment/experiment.hpp"

namespace allocsim::sweep::h5 {

Table::Table(std::vector<ColumnDef> columns)
    : columns_(std::move(columns)), data_(columns_.size()) {}

int Table::find(const std::string& name) const {
  for (std::size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i].name == name) return static_cast<int>(i);
  return -1;
}

void Table::add_row(std::vector<Cell> cells) {
  if (cells.size() != columns_.size()) throw std::logic_error("row width mismatch");
  for (std::size_t i = 0; i < cells.size(); ++i) {
    switch (columns_[i].type) {
      case ColumnType::u64:
        data_[i].u.push_back(std::get<std::uint64_t>(cells[i]));
        break;
      case ColumnType::i64:
        data_[i].i.push_back(std::get<std::int64_t>(cells[i]));
        break;
      case ColumnType::f64:
        data_[i].f.push_back(std::get<double>(cells[i]));
        break;
      case ColumnType::text:
        data_[i].s.push_back(std::move(std::get<std::string>(cells[i])));
    }
  }
  ++rows_;
}

Table::Cell Table::cell(std::size_t row, std::size_t column) const {
  switch (columns_[column].type) {
    case ColumnType::u64:
      return data_[column].u[row];
    case ColumnType::i64:
      return data_[column].i[row];
    case ColumnType::f64:
      return data_[column].f[row];
    case ColumnType::text:
      return data_[column].s[row];
  }
  return std::string();
}

double Table::number(std::size_t row, std::size_t column) const {
  switch (columns_[column].type) {
    case ColumnType::u64:
      return static_cast<double>(data_[column].u[row]);
    case ColumnType::i64:
      return static_cast<double>(data_[column].i[row]);
    case ColumnType::f64:
      return data_[column].f[row];
    case ColumnType::text:
      break;
  }
  return std::nan("");
}

const std::string& Table::text(std::size_t row, std::size_t column) const {
  return data_[column].s.at(row);
}
std::uint64_t Table::u64(std::size_t row, std::size_t column) const {
  return data_[column].u.at(row);
}
std::int64_t Table::i64(std::size_t row, std::size_t column) const {
  return data_[column].i.at(row);
}

std::string Table::display(std::size_t row, std::size_t column) const {
  switch (columns_[column].type) {
    case ColumnType::u64:
      return std::to_string(data_[column].u[row]);
    case ColumnType::i64:
      return std::to_string(data_[column].i[row]);
    case ColumnType::f64:
      return format_number(data_[column].f[row]);
    case ColumnType::text:
      return data_[column].s[row];
  }
  return {};
}

Table Table::select(const std::vector<std::size_t>& rows) const {
  Table out(columns_);
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const Column& from = data_[c];
    Column& to = out.data_[c];
    for (auto r : rows) {
      switch (columns_[c].type) {
        case ColumnType::u64:
          to.u.push_back(from.u[r]);
          break;
        case ColumnType::i64:
          to.i.push_back(from.i[r]);
          break;
        case ColumnType::f64:
          to.f.push_back(from.f[r]);
          break;
        case ColumnType::text:
          to.s.push_back(from.s[r]);
          break;
      }
    }
  }
  out.rows_ = rows.size();
  return out;
}

void Table::clear_rows() {
  for (auto& column : data_) {  // the capacity stays for the next rows
    column.u.clear();
    column.i.clear();
    column.f.clear();
    column.s.clear();
  }
  rows_ = 0;
}

}  // namespace allocsim::sweep::h5
