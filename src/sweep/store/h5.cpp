// RAII wrapper of the HDF5 C API for result files.
#include "allocsim/sweep/store/h5.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "allocsim/util/error.hpp"
#include "h5_types.hpp"

namespace allocsim::sweep::h5 {

Id& Id::operator=(Id&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    closer_ = other.closer_;
    other.id_ = -1;
  }
  return *this;
}

void Id::reset() {
  if (id_ >= 0 && closer_ != nullptr) closer_(id_);
  id_ = -1;
}

namespace {

/// What the HDF5 error stack of the failed call says: its innermost description ("truncated
/// file: eof = ...") and, when a system call failed under it, that call's errno and file (the
/// low-level file driver puts "filename = '...'" and "errno = N" into its description).
struct StackReason {
  std::string innermost, file;
  int error = 0;

  /// ": writing 'FILE': REASON (errno N)", or "" when no system call failed.
  std::string system() const {
    if (error == 0) return "";
    return (file.empty() ? std::string(": ") : ": writing '" + file + "': ") +
           std::strerror(error) + " (errno " + std::to_string(error) + ")";
  }
};

StackReason read_error_stack() {
  StackReason found;
  auto visit = [](unsigned n, const H5E_error2_t* entry, void* data) -> herr_t {
    auto& out = *static_cast<StackReason*>(data);
    if (entry == nullptr || entry->desc == nullptr) return 0;
    const std::string desc = entry->desc;
    if (n == 0) out.innermost = desc;
    const auto at = desc.find("errno = ");
    if (out.error != 0 || at == std::string::npos) return 0;
    out.error = std::atoi(desc.c_str() + at + 8);
    const auto name = desc.find("filename = '");
    if (name != std::string::npos) {
      const auto end = desc.find('\'', name + 12);
      if (end != std::string::npos) out.file = desc.substr(name + 12, end - name - 12);
    }
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, visit, &found);
  return found;
}

/// The error of a failed HDF5 call: OutputError when a system call failed under it (a full
/// disk, a quota: the file could not be written), else std::runtime_error.
[[noreturn]] void fail(const std::string& what) {
  const std::string reason = read_error_stack().system();
  if (!reason.empty()) throw OutputError("HDF5: cannot " + what + reason);
  throw std::runtime_error("HDF5: cannot " + what);
}

}  // namespace

void check(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

namespace detail {

Id checked(hid_t id, Id::Closer closer, const std::string& what) {
  if (id < 0) fail(what);
  return Id(id, closer);
}

Id string_type() {
  Id type = checked(H5Tcopy(H5T_C_S1), H5Tclose, "copy the string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "make a variable-length string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set UTF-8");
  return type;
}

/// Compound type with one 8-byte slot per column; `file` picks the standard little-endian
/// types stored in files, otherwise the native ones used in memory. A text column is a uint32
/// code, or a variable-length string where `strings[c]` (a format 1 table being read).
Id compound_type(const std::vector<ColumnDef>& columns, bool file,
                 const std::vector<bool>& strings) {
  Id type = checked(H5Tcreate(H5T_COMPOUND, 8 * std::max<std::size_t>(columns.size(), 1)), H5Tclose,
                    "create a compound type");
  Id text = string_type();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    hid_t member = -1;
    switch (columns[i].type) {
      case ColumnType::u64:
        member = file ? H5T_STD_U64LE : H5T_NATIVE_UINT64;
        break;
      case ColumnType::i64:
        member = file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
        break;
      case ColumnType::f64:
        member = file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
        break;
      case ColumnType::text:
        if (i < strings.size() && strings[i])
          member = text.get();
        else
          member = file ? H5T_STD_U32LE : H5T_NATIVE_UINT32;
        break;
    }
    check(H5Tinsert(type.get(), columns[i].name.c_str(), 8 * i, member),
          "add column '" + columns[i].name + "'");
  }
  return type;
}

}  // namespace detail

namespace {

using detail::checked;
using detail::compound_type;
using detail::string_type;

void disable_error_printing() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

}  // namespace

// ---- File ----

File::File(const std::string& path, Mode mode) : path_(path) {
  disable_error_printing();
  hid_t id = -1;
  if (mode == Mode::create) {
    Id fcpl = checked(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "create file properties");
    check(H5Pset_link_creation_order(fcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
          "track link order");
    // HDF5 1.8 object headers at least: a table's many label attributes are then kept in
    // dense storage (a heap indexed by name), so finding or adding one stays cheap.
    Id fapl = checked(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create file access properties");
    check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST),
          "set the file format versions");
    // Files are created under an OutputLock, which holds an flock() on the file itself (every
    // name of it); libhdf5's own flock on its second handle would collide with that one.
    check(H5Pset_file_locking(fapl.get(), false, true), "turn off libhdf5's file locking");
    id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get());
  } else {
    id = H5Fopen(path.c_str(), mode == Mode::read ? H5F_ACC_RDONLY : H5F_ACC_RDWR, H5P_DEFAULT);
  }
  if (id < 0) {
    // A system call's failure (a full disk, a permission) first, else HDF5's own reason.
    const StackReason stack = read_error_stack();
    const std::string system = stack.system(), reason = stack.innermost;
    throw std::runtime_error("cannot " + std::string(mode == Mode::create ? "create" : "open") +
                             " HDF5 file '" + path + "'" +
                             (!system.empty()  ? system
                              : reason.empty() ? ""
                                               : " (HDF5: " + reason + ")"));
  }
  file_ = Id(id, H5Fclose);
}

void File::flush() {
  check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "flush '" + path_ + "'");
}

void close_library() {
  H5close();
}

void skip_shutdown_at_exit() {
  H5dont_atexit();
}

void File::close() {
  if (!file_.valid()) return;
  // The last metadata reach the disk here: a full disk shows up now, and must not pass.
  const hid_t id = file_.release();
  check(H5Fclose(id), "close '" + path_ + "'");
}

void File::set_attr(const std::string& name, const AttrValue& value) {
  const hid_t root = file_.get();
  if (H5Aexists(root, name.c_str()) > 0) check(H5Adelete(root, name.c_str()), "replace " + name);
  Id space = checked(H5Screate(H5S_SCALAR), H5Sclose, "create a scalar space");
  Id text = string_type();
  hid_t file_type = -1, mem_type = -1;
  const void* data = nullptr;
  const char* c_str = nullptr;
  if (auto* s = std::get_if<std::string>(&value)) {
    file_type = mem_type = text.get();
    c_str = s->c_str();
    data = &c_str;
  } else if (auto* d = std::get_if<double>(&value)) {
    file_type = H5T_IEEE_F64LE, mem_type = H5T_NATIVE_DOUBLE, data = d;
  } else if (auto* i = std::get_if<std::int64_t>(&value)) {
    file_type = H5T_STD_I64LE, mem_type = H5T_NATIVE_INT64, data = i;
  } else {
    file_type = H5T_STD_U64LE, mem_type = H5T_NATIVE_UINT64, data = &std::get<std::uint64_t>(value);
  }
  Id attr =
      checked(H5Acreate2(root, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose, "create attribute " + name);
  check(H5Awrite(attr.get(), mem_type, data), "write attribute " + name);
}

std::optional<AttrValue> File::attr(const std::string& name) const {
  const hid_t root = file_.get();
  if (H5Aexists(root, name.c_str()) <= 0) return std::nullopt;
  Id attr = checked(H5Aopen(root, name.c_str(), H5P_DEFAULT), H5Aclose, "open attribute " + name);
  Id type = checked(H5Aget_type(attr.get()), H5Tclose, "read attribute type");
  switch (H5Tget_class(type.get())) {
    case H5T_STRING: {
      if (H5Tis_variable_str(type.get()) > 0) {
        Id text = string_type();
        char* value = nullptr;
        check(H5Aread(attr.get(), text.get(), &value), "read attribute " + name);
        std::string out = value ? value : "";
        H5free_memory(value);
        return out;
      }
      std::string out(H5Tget_size(type.get()), '\0');
      Id fixed = checked(H5Tcopy(type.get()), H5Tclose, "copy type");
      check(H5Aread(attr.get(), fixed.get(), out.data()), "read attribute " + name);
      out.resize(std::strlen(out.c_str()));
      return out;
    }
    case H5T_FLOAT: {
      double v = 0;
      check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v), "read attribute " + name);
      return v;
    }
    case H5T_INTEGER: {
      if (H5Tget_sign(type.get()) == H5T_SGN_NONE) {
        std::uint64_t v = 0;
        check(H5Aread(attr.get(), H5T_NATIVE_UINT64, &v), "read attribute " + name);
        return v;
      }
      std::int64_t v = 0;
      check(H5Aread(attr.get(), H5T_NATIVE_INT64, &v), "read attribute " + name);
      return v;
    }
    default:
      return std::nullopt;
  }
}

void File::set_text_array_attr(const std::string& object_path, const std::string& name,
                               const std::vector<std::string>& values) {
  Id object = checked(H5Oopen(file_.get(), object_path.c_str(), H5P_DEFAULT), H5Oclose,
                      "open " + object_path);
  if (H5Aexists(object.get(), name.c_str()) > 0)
    check(H5Adelete(object.get(), name.c_str()), "replace " + name);
  const hsize_t dims[1] = {values.size()};
  Id space = checked(H5Screate_simple(1, dims, nullptr), H5Sclose, "create a dataspace");
  Id text = string_type();
  std::vector<const char*> pointers;
  for (const auto& v : values) pointers.push_back(v.c_str());
  Id attr = checked(
      H5Acreate2(object.get(), name.c_str(), text.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
      H5Aclose, "create attribute " + name + " of " + object_path);
  if (!values.empty())  // an empty array is a zero-length attribute, nothing to write
    check(H5Awrite(attr.get(), text.get(), pointers.data()), "write attribute " + name);
}

std::vector<std::string> File::text_array_attr(const std::string& object_path,
                                               const std::string& name) const {
  std::vector<std::string> values;
  Id object(H5Oopen(file_.get(), object_path.c_str(), H5P_DEFAULT), H5Oclose);
  if (!object.valid() || H5Aexists(object.get(), name.c_str()) <= 0) return values;
  Id attr =
      checked(H5Aopen(object.get(), name.c_str(), H5P_DEFAULT), H5Aclose, "open attribute " + name);
  Id type = checked(H5Aget_type(attr.get()), H5Tclose, "read attribute type");
  Id space = checked(H5Aget_space(attr.get()), H5Sclose, "read attribute space");
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) <= 0 ||
      H5Sget_simple_extent_ndims(space.get()) != 1)
    return values;
  hsize_t dims[1] = {0};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  std::vector<char*> pointers(dims[0], nullptr);
  Id text = string_type();
  if (dims[0] > 0) {
    check(H5Aread(attr.get(), text.get(), pointers.data()), "read attribute " + name);
    for (char* p : pointers) values.emplace_back(p ? p : "");
    H5Dvlen_reclaim(text.get(), space.get(), H5P_DEFAULT, pointers.data());
  }
  return values;
}

bool File::exists(const std::string& object_path) const {
  // Check every prefix: H5Lexists fails on a missing intermediate group.
  std::size_t pos = 1;
  while (true) {
    const auto slash = object_path.find('/', pos);
    const std::string prefix = object_path.substr(0, slash);
    if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
    pos = slash + 1;
  }
}

std::vector<std::string> File::list(const std::string& group_path) const {
  std::vector<std::string> names;
  if (!exists(group_path)) return names;
  Id group = checked(H5Gopen2(file_.get(), group_path.c_str(), H5P_DEFAULT), H5Gclose,
                     "open group " + group_path);
  H5G_info_t info;
  check(H5Gget_info(group.get(), &info), "list " + group_path);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t size = H5Lget_name_by_idx(group.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i,
                                            nullptr, 0, H5P_DEFAULT);
    std::string name(static_cast<std::size_t>(size), '\0');
    H5Lget_name_by_idx(group.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(),
                       static_cast<std::size_t>(size) + 1, H5P_DEFAULT);
    names.push_back(name);
  }
  return names;
}

std::uint64_t File::storage_bytes(const std::string& path) const {
  if (!exists(path)) return 0;
  const hid_t dataset = H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT);
  if (dataset < 0) return 0;
  const hsize_t bytes = H5Dget_storage_size(dataset);
  H5Dclose(dataset);
  return bytes;
}

void File::copy_from(const File& source, const std::string& source_path, const std::string& path) {
  Id lcpl = checked(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "create link properties");
  check(H5Pset_create_intermediate_group(lcpl.get(), 1), "set intermediate groups");
  check(
      H5Ocopy(source.id(), source_path.c_str(), file_.get(), path.c_str(), H5P_DEFAULT, lcpl.get()),
      "copy " + source_path + " from " + source.path());
}

void File::create_table(const std::string& path, const std::vector<ColumnDef>& columns,
                        std::size_t chunk_rows, bool compress) {
  Id type = compound_type(columns, true);
  const hsize_t dims[1] = {0}, max_dims[1] = {H5S_UNLIMITED};
  Id space = checked(H5Screate_simple(1, dims, max_dims), H5Sclose, "create a dataspace");
  Id dcpl = checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create dataset properties");
  const hsize_t chunk[1] = {std::max<hsize_t>(chunk_rows, 1)};
  check(H5Pset_chunk(dcpl.get(), 1, chunk), "set chunking");
  if (compress) {
    check(H5Pset_shuffle(dcpl.get()), "set shuffle");
    check(H5Pset_deflate(dcpl.get(), 4), "set deflate");
  }
  Id lcpl = checked(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "create link properties");
  check(H5Pset_create_intermediate_group(lcpl.get(), 1), "set intermediate groups");
  Id dataset = checked(H5Dcreate2(file_.get(), path.c_str(), type.get(), space.get(), lcpl.get(),
                                  dcpl.get(), H5P_DEFAULT),
                       H5Dclose, "create table " + path);
  dataset.reset();
  std::vector<std::string> units, descriptions;
  for (const auto& c : columns) {
    units.push_back(c.unit);
    descriptions.push_back(c.description);
  }
  set_text_array_attr(path, "unit", units);
  set_text_array_attr(path, "description", descriptions);
  auto& codes = codes_[path];
  codes.assign(columns.size(), TextCodes{});
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c].type == ColumnType::text) {
      codes[c].coded = true;
      codes[c].pages = 1;
      set_text_array_attr(path, labels_attr_name(columns[c].name, 0), {});
    }
}

Table File::read_table(const std::string& path) const {
  Id dataset = checked(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "open " + path);
  Id file_type = checked(H5Dget_type(dataset.get()), H5Tclose, "get the type of " + path);
  if (H5Tget_class(file_type.get()) != H5T_COMPOUND)
    throw std::runtime_error("HDF5: " + path + " is not a table");
  std::vector<ColumnDef> columns;
  std::vector<bool> strings;
  Id probe = checked(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "open " + path);
  const int members = H5Tget_nmembers(file_type.get());
  for (int m = 0; m < members; ++m) {
    char* raw_name = H5Tget_member_name(file_type.get(), static_cast<unsigned>(m));
    std::string name = raw_name;
    H5free_memory(raw_name);
    Id member = checked(H5Tget_member_type(file_type.get(), static_cast<unsigned>(m)), H5Tclose,
                        "get a member type");
    ColumnType type;
    bool is_string = false;
    switch (H5Tget_class(member.get())) {
      case H5T_INTEGER:
        if (H5Aexists(probe.get(), labels_attr_name(name, 0).c_str()) > 0)
          type = ColumnType::text;  // codes into the labels
        else
          type = H5Tget_sign(member.get()) == H5T_SGN_NONE ? ColumnType::u64 : ColumnType::i64;
        break;
      case H5T_FLOAT:
        type = ColumnType::f64;
        break;
      case H5T_STRING:
        type = ColumnType::text;
        is_string = true;
        break;
      default:
        throw std::runtime_error("HDF5: unsupported column '" + name + "' in " + path);
    }
    columns.push_back({name, type});
    strings.push_back(is_string);
  }
  std::vector<std::vector<std::string>> labels(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c].type == ColumnType::text && !strings[c])
      labels[c] = read_labels(path, columns[c].name);
  const auto units = text_array_attr(path, "unit");
  const auto descriptions = text_array_attr(path, "description");
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (units.size() == columns.size()) columns[c].unit = units[c];
    if (descriptions.size() == columns.size()) columns[c].description = descriptions[c];
  }
  Table table(columns);
  Id space = checked(H5Dget_space(dataset.get()), H5Sclose, "get the space of " + path);
  hsize_t dims[1] = {0};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  const std::size_t rows = dims[0];
  if (rows == 0) return table;
  Id mem_type = compound_type(columns, false, strings);
  std::vector<unsigned char> buffer(rows * columns.size() * 8);
  check(H5Dread(dataset.get(), mem_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
        "read " + path);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    auto& data = table.column_data(c);
    for (std::size_t r = 0; r < rows; ++r) {
      const unsigned char* slot = buffer.data() + (r * columns.size() + c) * 8;
      switch (columns[c].type) {
        case ColumnType::u64:
          data.u.push_back(0), std::memcpy(&data.u.back(), slot, 8);
          break;
        case ColumnType::i64:
          data.i.push_back(0), std::memcpy(&data.i.back(), slot, 8);
          break;
        case ColumnType::f64:
          data.f.push_back(0), std::memcpy(&data.f.back(), slot, 8);
          break;
        case ColumnType::text: {
          if (strings[c]) {
            const char* p = nullptr;
            std::memcpy(&p, slot, sizeof p);
            data.s.emplace_back(p ? p : "");
            break;
          }
          std::uint32_t code = 0;
          std::memcpy(&code, slot, sizeof code);
          if (code >= labels[c].size()) {
            H5Dvlen_reclaim(mem_type.get(), space.get(), H5P_DEFAULT, buffer.data());
            throw std::runtime_error("HDF5: row " + std::to_string(r) + " of " + path +
                                     " has code " + std::to_string(code) + " in column '" +
                                     columns[c].name + "', which has " +
                                     std::to_string(labels[c].size()) + " labels (attribute " +
                                     labels_attr_name(columns[c].name, 0) + " and its pages)");
          }
          data.s.push_back(labels[c][code]);
        }
      }
    }
  }
  table.set_rows(rows);
  H5Dvlen_reclaim(mem_type.get(), space.get(), H5P_DEFAULT, buffer.data());
  return table;
}

}  // namespace allocsim::sweep::h5
