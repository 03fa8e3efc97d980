#pragma once
// Internal: HDF5 type helpers shared by the files of the HDF5 wrapper (h5.hpp).
#include <string>
#include <vector>

#include "allocsim/sweep/store/h5.hpp"

namespace allocsim::sweep::h5::detail {

/// Wraps `id`, throwing std::runtime_error("HDF5: cannot <what>") when it is invalid.
Id checked(hid_t id, Id::Closer closer, const std::string& what);
/// A variable-length UTF-8 string type.
Id string_type();
/// Compound type with one 8-byte slot per column; `file` picks the standard little-endian
/// types stored in files, otherwise the native ones used in memory. A text column is a uint32
/// code, or a variable-length string where `strings[c]` (a format 1 table).
Id compound_type(const std::vector<ColumnDef>& columns, bool file,
                 const std::vector<bool>& strings = {});

}  // namespace allocsim::sweep::h5::detail
