#pragma once
// A small RAII layer over the HDF5 1.10 C API: files, attributes and
// appendable tables stored as 1-D compound datasets (one member per column: uint64, int64,
// float64, or uint32 codes of a text column), which h5py reads as numpy structured arrays and
// pandas.DataFrame takes as is.
//
// Text columns are categorical: the member holds a 0-based code into the column's labels,
// which are variable-length UTF-8 string-array attributes of the dataset (h5py returns
// attributes as `str`, but strings inside datasets as `bytes`, so no dataset holds text).
// The labels of column C are the attribute `labels_C` followed by `labels_C@1`, `labels_C@2`,
// ... in order: each append puts the values new to the column in new pages of at most
// kLabelsPerPage labels. So no attribute nears HDF5's 64 KiB object-header message limit, no
// attribute is rewritten (each label is written once: a column with a value per row, like
// the canonical configs, costs what the strings themselves cost) and an append costs
// O(its rows). Files whose text members are variable-length strings (result format 1) are
// still read.
#include <hdf5.h>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace allocsim::sweep::h5 {

/// Owns one HDF5 identifier and closes it with the matching H5?close function.
class Id {
 public:
  using Closer = herr_t (*)(hid_t);
  Id() = default;
  Id(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Id(Id&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Id& operator=(Id&& other) noexcept;
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  ~Id() { reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset();
  /// Gives up ownership: returns the identifier, which the caller now closes.
  hid_t release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

enum class ColumnType { u64, i64, f64, text };

/// Most labels in one label attribute (a page): 2048 global-heap references of 16 bytes stay
/// well below the 64 KiB limit of an attribute in an object header.
inline constexpr std::size_t kLabelsPerPage = 2048;

/// Name of page `page` of the label attributes of text column `column`.
std::string labels_attr_name(const std::string& column, std::size_t page);

/// A table column: name, type, and what it holds. create_table stores the units and
/// descriptions of a table's columns as the dataset's `unit` and `description` attributes
/// (string arrays, one entry per column in member order); read_table reads them back.
struct ColumnDef {
  std::string name;
  ColumnType type;
  std::string unit = {};         ///< "s", "nodes", "1" (dimensionless); "" for text and ids
  std::string description = {};  ///< one line
};

/// A column-oriented table in memory (the unit read from and appended to a dataset).
class Table {
 public:
  using Cell = std::variant<std::uint64_t, std::int64_t, double, std::string>;

  Table() = default;
  explicit Table(std::vector<ColumnDef> columns);

  const std::vector<ColumnDef>& columns() const { return columns_; }
  std::size_t rows() const { return rows_; }
  /// Index of the column named `name`, or -1.
  int find(const std::string& name) const;
  /// Appends a row; cells must match the column types in order.
  void add_row(std::vector<Cell> cells);
  Cell cell(std::size_t row, std::size_t column) const;
  /// Numeric cell as double (uint64/int64/float64 columns).
  double number(std::size_t row, std::size_t column) const;
  const std::string& text(std::size_t row, std::size_t column) const;
  std::uint64_t u64(std::size_t row, std::size_t column) const;
  std::int64_t i64(std::size_t row, std::size_t column) const;
  /// Cell as display text (numbers in shortest form).
  std::string display(std::size_t row, std::size_t column) const;
  /// A table with the same columns and the given rows in that order.
  Table select(const std::vector<std::size_t>& rows) const;
  /// Drops the rows (keeping the columns' capacity for the next ones).
  void clear_rows();

  /// Raw column storage (for the HDF5 writer/reader).
  struct Column {
    std::vector<std::uint64_t> u;
    std::vector<std::int64_t> i;
    std::vector<double> f;
    std::vector<std::string> s;
  };
  const Column& column_data(std::size_t column) const { return data_[column]; }
  Column& column_data(std::size_t column) { return data_[column]; }
  void set_rows(std::size_t rows) { rows_ = rows; }

 private:
  std::vector<ColumnDef> columns_;
  std::vector<Column> data_;
  std::size_t rows_ = 0;
};

using AttrValue = std::variant<std::string, double, std::int64_t, std::uint64_t>;

/// An open HDF5 file.
class File {
 public:
  enum class Mode { create, read, write };
  File(const std::string& path, Mode mode);

  const std::string& path() const { return path_; }
  hid_t id() const { return file_.get(); }
  /// Both throw std::runtime_error naming the file and the system error (a full disk) when
  /// HDF5 cannot write.
  void flush();
  void close();

  void set_attr(const std::string& name, const AttrValue& value);
  std::optional<AttrValue> attr(const std::string& name) const;
  /// A 1-D array of UTF-8 strings as an attribute of the object at `object_path` ("/" for the
  /// root), replacing any attribute of that name; h5py reads it as an array of `str`.
  void set_text_array_attr(const std::string& object_path, const std::string& name,
                           const std::vector<std::string>& values);
  /// A string-array attribute of an object (empty when absent or of another type).
  std::vector<std::string> text_array_attr(const std::string& object_path,
                                           const std::string& name) const;

  bool exists(const std::string& object_path) const;
  /// Bytes the dataset at `path` occupies in the file (its data), or 0 when there is none.
  std::uint64_t storage_bytes(const std::string& path) const;
  /// Names of the members of a group (sorted by name).
  std::vector<std::string> list(const std::string& group_path) const;
  /// Copies an object (dataset or group) from another open file.
  void copy_from(const File& source, const std::string& source_path, const std::string& path);

  /// Creates an appendable table dataset at `path` (chunked; deflate when `compress`), with
  /// its columns' `unit` and `description` attributes.
  void create_table(const std::string& path, const std::vector<ColumnDef>& columns,
                    std::size_t chunk_rows, bool compress);
  /// Appends rows to a table dataset created by create_table (same columns in order); new
  /// values of text columns get the next codes and are added to the label attributes.
  void append_table(const std::string& path, const Table& rows);
  /// Rewrites some columns of existing rows: `part` holds columns of the table (by name; the
  /// table's columns are `columns`, in order) for its rows first_row, first_row + 1, ...; the
  /// other columns of those rows keep their values. Text values are coded as by append_table.
  void write_rows(const std::string& path, const std::vector<ColumnDef>& columns,
                  std::size_t first_row, const Table& part);
  /// Reads a whole table dataset (numeric members widened to 64 bits, text columns decoded),
  /// with the columns' units and descriptions when the dataset has them.
  Table read_table(const std::string& path) const;
  /// True when a table stores text as variable-length string members (result format 1).
  bool has_string_members(const std::string& path) const;

 private:
  /// Codes of one text column of a table being appended to (empty for other columns).
  struct TextCodes {
    bool coded = false;
    std::deque<std::string> labels;  ///< by code; a deque keeps them in place for `code`
    std::unordered_map<std::string_view, std::uint32_t> code;
    std::size_t stored = 0;  ///< labels already in the attributes
    std::size_t pages = 0;   ///< label attributes written (page 0 may be empty)
  };
  std::vector<TextCodes>& codes_of(const std::string& path, const std::vector<ColumnDef>& columns);
  /// Codes the text cells of `rows` (codes[c] for column c; new labels are stored) and packs
  /// the rows into `buffer`; returns the buffer's memory type.
  Id pack(const std::string& path, const Table& rows, const std::vector<TextCodes*>& codes,
          std::vector<unsigned char>& buffer);
  std::vector<std::string> read_labels(const std::string& path, const std::string& column,
                                       std::size_t* pages = nullptr) const;
  void store_labels(const std::string& path, const std::string& column, TextCodes& codes);

  std::string path_;
  Id file_;
  std::map<std::string, std::vector<TextCodes>> codes_;  ///< by table path
};

/// Throws std::runtime_error naming `what` when `status` < 0.
void check(herr_t status, const std::string& what);

/// Closes every HDF5 object still open and shuts the library down (H5close), as a normal exit
/// would. A damaged file can leave an object that libhdf5 only fails to close then (a crash
/// inside its shutdown), so a process that vets files calls this before it reports success.
void close_library();

/// Keeps libhdf5 from shutting down at exit (call first thing in main, before any HDF5 call).
/// After a failed H5Fclose (a full disk) libhdf5 1.10 keeps a dangling file identifier and its
/// shutdown crashes on it (SIGSEGV in H5F__close_cb): the error already reported must be the
/// last word. Files are closed by their owners (File), so nothing is left for the shutdown.
void skip_shutdown_at_exit();

}  // namespace allocsim::sweep::h5
