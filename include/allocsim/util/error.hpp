#pragma once
// Error types shared by every layer. Messages are complete sentences meant for the user.
#include <stdexcept>
#include <string>

namespace allocsim {

/// Bad user input: a malformed spec, unknown name, bad parameter, malformed file line.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An output file (or standard output) that could not be written: a full disk, a quota, a
/// missing folder. The message names the file and the system error; the command exits 1.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Raised cooperatively by a simulation whose wall-clock budget ran out.
class TimeoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace allocsim
