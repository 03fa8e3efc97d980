// Cheap checks of a result file before its tables are read (see file_checks.hpp).
#include "allocsim/sweep/store/file_checks.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <limits>

#include "allocsim/sweep/store/lock.hpp"
#include "allocsim/util/error.hpp"
#include "h5_types.hpp"

namespace allocsim::sweep {

namespace {

constexpr unsigned char kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

std::uint64_t little_endian(const unsigned char* p, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = bytes; i > 0; --i) v = (v << 8) | p[i - 1];
  return v;
}

bool valid_size(unsigned size) {
  return size == 2 || size == 4 || size == 8;
}

[[noreturn]] void damaged(const std::string& path, const std::string& what) {
  throw InputError("'" + path + "' is damaged or not an HDF5 file: " + what);
}

}  // namespace

void check_hdf5_superblock(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  struct stat st {};
  if (!in || ::stat(path.c_str(), &st) != 0)
    throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  const auto size = static_cast<std::uint64_t>(st.st_size);
  // The superblock is at 0, or after a user block at 512, 1024, 2048, ...
  std::uint64_t at = 0;
  unsigned char block[96] = {};
  while (true) {
    if (at + sizeof kSignature > size)
      damaged(path,
              "no HDF5 signature (\\211HDF\\r\\n\\032\\n) at offset 0 or after a user block" +
                  std::string(size < 8 ? " (the file has only " + std::to_string(size) + " bytes)"
                                       : ""));
    in.clear();
    in.seekg(static_cast<std::streamoff>(at));
    in.read(reinterpret_cast<char*>(block), sizeof block);
    if (std::memcmp(block, kSignature, sizeof kSignature) == 0) break;
    at = at == 0 ? 512 : at * 2;
  }
  const auto got = static_cast<std::uint64_t>(in.gcount());
  const unsigned version = block[8];
  std::uint64_t eof = 0, base = 0;
  unsigned offsets = 0;
  std::size_t need = 0;
  if (version == 0 || version == 1) {
    offsets = block[13];
    const unsigned lengths = block[14];
    if (!valid_size(offsets) || !valid_size(lengths))
      damaged(path, "its superblock (version " + std::to_string(version) + ") gives addresses of " +
                        std::to_string(offsets) + " and lengths of " + std::to_string(lengths) +
                        " bytes (expected 2, 4 or 8)");
    const std::size_t fields = version == 0 ? 24 : 28;  // then base, free space, EOF addresses
    need = fields + 3 * offsets;
    if (got >= need) {
      base = little_endian(block + fields, offsets);
      eof = little_endian(block + fields + 2 * offsets, offsets);
    }
  } else if (version == 2 || version == 3) {
    offsets = block[9];
    const unsigned lengths = block[10];
    if (!valid_size(offsets) || !valid_size(lengths))
      damaged(path, "its superblock (version " + std::to_string(version) + ") gives addresses of " +
                        std::to_string(offsets) + " and lengths of " + std::to_string(lengths) +
                        " bytes (expected 2, 4 or 8)");
    need = 12 + 4 * offsets + 4;  // base, extension, EOF, root addresses; checksum
    if (got >= need) {
      base = little_endian(block + 12, offsets);
      eof = little_endian(block + 12 + 2 * offsets, offsets);
    }
  } else {
    damaged(path, "its superblock has version " + std::to_string(version) + " at offset " +
                      std::to_string(at + 8) + " (expected 0 to 3)");
  }
  if (got < need)
    damaged(path, "the file ends inside its superblock (" + std::to_string(size) + " bytes)");
  const std::uint64_t undefined = offsets == 8 ? std::numeric_limits<std::uint64_t>::max()
                                               : (std::uint64_t{1} << (8 * offsets)) - 1;
  if (base == undefined || eof == undefined)
    damaged(path, "its superblock has an undefined base or end-of-file address");
  const std::uint64_t base_at = base == 0 ? at : base;
  if (eof > size || base_at > size - std::min(size, eof))
    damaged(path, "it is truncated: its superblock records " + std::to_string(base_at + eof) +
                      " bytes, the file has " + std::to_string(size));
}

void check_table_shape(const h5::File& file, const std::string& table) {
  using h5::detail::checked;
  const std::string where = "'" + file.path() + "' is damaged: " + table;
  if (!file.exists(table)) throw InputError(where + " is missing");
  {
    h5::Id object(H5Oopen(file.id(), table.c_str(), H5P_DEFAULT), H5Oclose);
    if (!object.valid() || H5Iget_type(object.get()) != H5I_DATASET)
      throw InputError(where + " is not a dataset");
  }
  h5::Id dataset = checked(H5Dopen2(file.id(), table.c_str(), H5P_DEFAULT), H5Dclose,
                           "open " + table + " of '" + file.path() + "'");
  h5::Id type = checked(H5Dget_type(dataset.get()), H5Tclose, "read the type of " + table);
  if (H5Tget_class(type.get()) != H5T_COMPOUND || H5Tget_nmembers(type.get()) < 1)
    throw InputError(where + " is not a table (expected a dataset of a compound type)");
  h5::Id space = checked(H5Dget_space(dataset.get()), H5Sclose, "read the shape of " + table);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != 1)
    throw InputError(where + " has " + std::to_string(rank) +
                     " dimensions (expected a table: one dimension)");
  hsize_t rows = 0;
  H5Sget_simple_extent_dims(space.get(), &rows, nullptr);
  if (rows == 0) return;
  const double declared = static_cast<double>(rows) * static_cast<double>(H5Tget_size(type.get()));
  const auto stored = static_cast<double>(H5Dget_storage_size(dataset.get()));
  h5::Id plist = checked(H5Dget_create_plist(dataset.get()), H5Pclose,
                         "read the storage properties of " + table);
  const bool filtered = H5Pget_nfilters(plist.get()) > 0;
  const double limit = filtered ? stored * kMaxCompression + 65536 : stored;
  if (declared > limit)
    throw InputError(where + " declares " + std::to_string(rows) + " rows (" +
                     std::to_string(static_cast<std::uint64_t>(declared)) + " bytes) but stores " +
                     std::to_string(static_cast<std::uint64_t>(stored)) + " bytes" +
                     (filtered ? " compressed" : ""));
}

std::string describe_lock_holder(const std::string& path) {
  // Any name of the file (a symlink, a hard link) finds its holder: see output_lock_holder.
  const auto holder = output_lock_holder(path);
  if (!holder || holder->pid == static_cast<long>(::getpid())) return "";
  return holder->describe();
}

}  // namespace allocsim::sweep
