#pragma once
// Provenance of a result file (issue 17): which trace files a sweep read, identified by their
// SHA-256, and the versions of the libraries that produced the results.
#include <string>
#include <vector>

#include "allocsim/sweep/experiment/experiment.hpp"

namespace allocsim::sweep {

/// One trace a sweep reads: as written in the experiment, the file it resolved to, and the
/// SHA-256 of that file's bytes (lowercase hex). Synthetic traces have no file (empty path and
/// digest).
struct TraceProvenance {
  std::string name;
  std::string path;
  std::string sha256;
};

/// The distinct traces of `configs`, in order of first use, resolved as the sweep resolves
/// them (beside the experiment file, else by NAME in `trace_dir`). A trace that does not
/// resolve keeps an empty path (validation reports it).
std::vector<TraceProvenance> trace_provenance(const std::vector<ConfigEntry>& configs,
                                              const std::string& base_dir,
                                              const std::string& trace_dir);

/// SHA-256 of a file's bytes as 64 lowercase hex digits (OpenSSL's EVP digest); InputError
/// when the file cannot be read.
std::string sha256_file(const std::string& path);
/// SHA-256 of bytes in memory, as sha256_file.
std::string sha256_hex(const std::string& bytes);

/// "1.10.8": the HDF5 library linked in.
std::string hdf5_version();
/// "1.74": Boost's headers compiled in.
std::string boost_version();

}  // namespace allocsim::sweep
