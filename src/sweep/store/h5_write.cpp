// Writing table rows: appends, and rewrites of some columns of existing rows (see h5.hpp).
#include <cstring>
#include <limits>
#include <stdexcept>

#include "allocsim/sweep/store/h5.hpp"
#include "h5_types.hpp"

namespace allocsim::sweep::h5 {

using detail::checked;
using detail::compound_type;

namespace {

/// Writes `count` packed rows from `buffer` (of `mem_type`) over rows [first, first + count) of
/// the dataset at `path`, which must already hold them; `action` names the write in errors.
void write_row_range(hid_t dataset, const std::string& path, hid_t mem_type, hsize_t first,
                     hsize_t count, const void* buffer, const std::string& action) {
  Id file_space = checked(H5Dget_space(dataset), H5Sclose, "get the space of " + path);
  const hsize_t start[1] = {first}, counts[1] = {count};
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, counts, nullptr),
        "select rows of " + path);
  Id mem_space = checked(H5Screate_simple(1, counts, nullptr), H5Sclose, "create a dataspace");
  check(H5Dwrite(dataset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, buffer),
        action + " " + path);
}

}  // namespace

Id File::pack(const std::string& path, const Table& rows, const std::vector<TextCodes*>& codes,
              std::vector<unsigned char>& buffer) {
  const auto& columns = rows.columns();
  std::vector<bool> strings(columns.size(), false);
  std::vector<std::vector<std::uint32_t>> row_codes(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type != ColumnType::text) continue;
    TextCodes& column = *codes[c];
    strings[c] = !column.coded;
    if (!column.coded) continue;
    row_codes[c].reserve(rows.rows());
    for (const auto& value : rows.column_data(c).s) {
      auto found = column.code.find(value);
      if (found == column.code.end()) {
        column.labels.push_back(value);
        found =
            column.code
                .emplace(column.labels.back(), static_cast<std::uint32_t>(column.labels.size() - 1))
                .first;
      }
      row_codes[c].push_back(found->second);
    }
    if (column.labels.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::runtime_error("HDF5: column '" + columns[c].name + "' of " + path +
                               " has more than 2^32 distinct values");
    // Labels first: an interrupted write leaves unused labels, never codes without labels.
    store_labels(path, columns[c].name, column);
  }
  // Row-major buffer of 8-byte slots; format 1 strings point into the table's storage.
  buffer.assign(rows.rows() * columns.size() * 8, 0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto& data = rows.column_data(c);
    for (std::size_t r = 0; r < rows.rows(); ++r) {
      unsigned char* slot = buffer.data() + (r * columns.size() + c) * 8;
      switch (columns[c].type) {
        case ColumnType::u64:
          std::memcpy(slot, &data.u[r], 8);
          break;
        case ColumnType::i64:
          std::memcpy(slot, &data.i[r], 8);
          break;
        case ColumnType::f64:
          std::memcpy(slot, &data.f[r], 8);
          break;
        case ColumnType::text: {
          if (strings[c]) {
            const char* p = data.s[r].c_str();
            std::memcpy(slot, &p, sizeof p);
          } else {
            std::memcpy(slot, &row_codes[c][r], sizeof(std::uint32_t));
          }
        }
      }
    }
  }
  return compound_type(columns, false, strings);
}

void File::append_table(const std::string& path, const Table& rows) {
  if (rows.rows() == 0) return;
  Id dataset = checked(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "open " + path);
  auto& codes = codes_of(path, rows.columns());
  std::vector<TextCodes*> column_codes;
  for (auto& c : codes) column_codes.push_back(&c);
  std::vector<unsigned char> buffer;
  Id mem_type = pack(path, rows, column_codes, buffer);
  Id file_space = checked(H5Dget_space(dataset.get()), H5Sclose, "get the space of " + path);
  hsize_t current[1];
  H5Sget_simple_extent_dims(file_space.get(), current, nullptr);
  const hsize_t new_size[1] = {current[0] + rows.rows()};
  check(H5Dset_extent(dataset.get(), new_size), "extend " + path);
  write_row_range(dataset.get(), path, mem_type.get(), current[0], rows.rows(), buffer.data(),
                  "write rows of");
}

void File::write_rows(const std::string& path, const std::vector<ColumnDef>& columns,
                      std::size_t first_row, const Table& part) {
  if (part.rows() == 0) return;
  Id dataset = checked(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "open " + path);
  auto& codes = codes_of(path, columns);
  std::vector<TextCodes*> column_codes;
  for (const auto& c : part.columns()) {
    std::size_t t = 0;
    while (t < columns.size() && columns[t].name != c.name) ++t;
    if (t == columns.size() || columns[t].type != c.type)
      throw std::logic_error("write_rows: " + path + " has no column '" + c.name +
                             "' of that type");
    column_codes.push_back(&codes[t]);
  }
  std::vector<unsigned char> buffer;
  // The memory type names only the part's columns: HDF5 writes those members and keeps the
  // others of each row as they are.
  Id mem_type = pack(path, part, column_codes, buffer);
  Id file_space = checked(H5Dget_space(dataset.get()), H5Sclose, "get the space of " + path);
  hsize_t rows[1];
  H5Sget_simple_extent_dims(file_space.get(), rows, nullptr);
  if (first_row + part.rows() > rows[0])
    throw std::logic_error("write_rows: rows past the end of " + path);
  write_row_range(dataset.get(), path, mem_type.get(), first_row, part.rows(), buffer.data(),
                  "rewrite columns of");
}

}  // namespace allocsim::sweep::h5
