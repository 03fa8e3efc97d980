#pragma once
// What one config of a sweep ended as: done / failed / timed_out with the
// error text, wall time, rank, and the RunResult. Serialized with Boost.Serialization for MPI
// messages and for the journal beside the HDF5 file (one encoding for both).
#include <cstdint>
#include <string>

#include "allocsim/sim/config.hpp"

namespace allocsim::sweep {

/// Status of a config in /configs (stored as its name, a string column).
enum class ConfigStatus { pending, done, failed, timed_out };

const char* status_name(ConfigStatus status);
/// Parses a status name; throws InputError.
ConfigStatus parse_status(const std::string& name);

/// The outcome of running one config.
struct ConfigOutcome {
  std::uint64_t config_id = 0;
  std::int64_t index = -1;  ///< position in the expansion
  ConfigStatus status = ConfigStatus::pending;
  std::string error;  ///< exception text for failed / timed_out
  double wall_seconds = 0;
  int rank = 0;      ///< MPI rank that ran it (0 = the master itself)
  RunResult result;  ///< summary (and jobs / decisions) when done
};

/// Binary encoding of an outcome (MPI result messages, journal frames of type 3), and back;
/// decode_outcome throws InputError on bytes it cannot read.
std::string encode_outcome(const ConfigOutcome& outcome);
ConfigOutcome decode_outcome(const std::string& bytes);
/// The head of an encoded outcome: config_id, index, status, error, wall_seconds and rank
/// (the result left empty), read without decoding the rest.
ConfigOutcome decode_outcome_head(const std::string& bytes);
/// The Boost binary archive encoding of journals written by earlier versions (frames of type
/// 2), still read by --resume.
std::string encode_outcome_boost(const ConfigOutcome& outcome);
ConfigOutcome decode_outcome_boost(const std::string& bytes);
/// The hand-made encoding of a RunConfig (every field of config_fields()), and back.
std::string encode_config(const RunConfig& config);
RunConfig decode_config(const std::string& bytes);

}  // namespace allocsim::sweep
