#pragma once
// Cheap checks of a result file, made before its tables are read (issue 25): most damage (a
// truncated file, a broken superblock, a table whose shape or size cannot be right) is refused
// at once with what was wrong, rather than by libhdf5 deep inside a read or by the watchdog of
// verify_result_file. Also who holds a file that cannot be opened because a sweep writes it.
#include <string>

#include "allocsim/sweep/store/h5.hpp"

namespace allocsim::sweep {

/// Reads the HDF5 superblock of `path` itself (no libhdf5): throws InputError naming the file
/// and the field when there is no HDF5 signature, the superblock is cut short or has an unknown
/// version or field size, or the file is shorter than the end-of-file address it records
/// (a truncated copy). Throws InputError when the file cannot be read.
void check_hdf5_superblock(const std::string& path);

/// Throws InputError naming the file and `table` unless it is a one-dimensional dataset of a
/// compound type whose declared rows its stored bytes can hold (uncompressed: all of them;
/// compressed: at most kMaxCompression times the stored bytes).
void check_table_shape(const h5::File& file, const std::string& table);

/// Compressed tables hold at most this many bytes per stored byte (deflate's limit is ~1032).
inline constexpr double kMaxCompression = 1100;

/// "pid N on host H (lock 'L')" when another live process holds the output lock of `path`
/// (read from the lock file OutputLock writes, without locking it), else "".
std::string describe_lock_holder(const std::string& path);

}  // namespace allocsim::sweep
