// Text columns of HDF5 tables as categorical codes with label attributes (see h5.hpp).
#include <algorithm>
#include <stdexcept>

#include "allocsim/sweep/store/h5.hpp"

namespace allocsim::sweep::h5 {

namespace {

Id checked_id(hid_t id, Id::Closer closer, const std::string& what) {
  if (id < 0) throw std::runtime_error("HDF5: cannot " + what);
  return Id(id, closer);
}

}  // namespace

std::string labels_attr_name(const std::string& column, std::size_t page) {
  std::string name = "labels_";
  name += column;
  if (page > 0) {
    name += '@';
    name += std::to_string(page);
  }
  return name;
}

std::vector<std::string> File::read_labels(const std::string& path, const std::string& column,
                                           std::size_t* pages) const {
  std::vector<std::string> labels;
  Id dataset =
      checked_id(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "open " + path);
  std::size_t page = 0;
  for (;; ++page) {
    const std::string name = labels_attr_name(column, page);
    if (H5Aexists(dataset.get(), name.c_str()) <= 0) break;
    const auto values = text_array_attr(path, name);
    labels.insert(labels.end(), values.begin(), values.end());
  }
  if (pages != nullptr) *pages = page;
  return labels;
}

std::vector<File::TextCodes>& File::codes_of(const std::string& path,
                                             const std::vector<ColumnDef>& columns) {
  auto found = codes_.find(path);
  if (found != codes_.end() && found->second.size() == columns.size()) return found->second;
  // A table created by another File object: read its labels once.
  auto& codes = codes_[path];
  codes.assign(columns.size(), TextCodes{});
  if (has_string_members(path)) return codes;  // format 1: strings written as they are
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type != ColumnType::text) continue;
    TextCodes& column = codes[c];
    column.coded = true;
    const auto labels = read_labels(path, columns[c].name, &column.pages);
    column.labels.assign(labels.begin(), labels.end());
    column.stored = column.labels.size();
    for (std::size_t l = 0; l < column.labels.size(); ++l)
      column.code.emplace(column.labels[l], static_cast<std::uint32_t>(l));
  }
  return codes;
}

void File::store_labels(const std::string& path, const std::string& column, TextCodes& codes) {
  // The new labels go to new pages (an empty page 0, from create_table, is replaced): no
  // attribute is ever rewritten with more labels, so each label is written once.
  std::size_t page = codes.stored == 0 ? 0 : codes.pages;
  for (std::size_t from = codes.stored; from < codes.labels.size();
       from += kLabelsPerPage, ++page) {
    const std::size_t to = std::min(codes.labels.size(), from + kLabelsPerPage);
    set_text_array_attr(
        path, labels_attr_name(column, page),
        std::vector<std::string>(codes.labels.begin() + static_cast<std::ptrdiff_t>(from),
                                 codes.labels.begin() + static_cast<std::ptrdiff_t>(to)));
  }
  codes.pages = std::max(codes.pages, page);
  codes.stored = codes.labels.size();
}

bool File::has_string_members(const std::string& path) const {
  Id dataset =
      checked_id(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "open " + path);
  Id type = checked_id(H5Dget_type(dataset.get()), H5Tclose, "get the type of " + path);
  if (H5Tget_class(type.get()) != H5T_COMPOUND) return false;
  const int members = H5Tget_nmembers(type.get());
  for (int m = 0; m < members; ++m)
    if (H5Tget_member_class(type.get(), static_cast<unsigned>(m)) == H5T_STRING) return true;
  return false;
}

}  // namespace allocsim::sweep::h5
