// Config outcomes and their binary encoding.
#include "allocsim/sweep/store/outcome.hpp"

#include <sstream>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>

#include "allocsim/util/error.hpp"
#include "serialization.hpp"

namespace allocsim::sweep {

const char* status_name(ConfigStatus status) {
  switch (status) {
    case ConfigStatus::pending:
      return "pending";
    case ConfigStatus::done:
      return "done";
    case ConfigStatus::failed:
      return "failed";
    case ConfigStatus::timed_out:
      return "timed_out";
  }
  return "?";
}

ConfigStatus parse_status(const std::string& name) {
  for (auto s :
       {ConfigStatus::pending, ConfigStatus::done, ConfigStatus::failed, ConfigStatus::timed_out})
    if (name == status_name(s)) return s;
  throw InputError("unknown config status '" + name + "'");
}

namespace {
template <class Value>
std::string encode(const Value& value) {
  std::ostringstream out(std::ios::binary);
  {
    boost::archive::binary_oarchive archive(out, boost::archive::no_header);
    archive << value;
  }
  return out.str();
}

template <class Value>
Value decode(const std::string& bytes) {
  std::istringstream in(bytes, std::ios::binary);
  Value value;
  boost::archive::binary_iarchive archive(in, boost::archive::no_header);
  archive >> value;
  return value;
}
}  // namespace

std::string encode_outcome(const ConfigOutcome& outcome) {
  return encode(outcome);
}
ConfigOutcome decode_outcome(const std::string& bytes) {
  return decode<ConfigOutcome>(bytes);
}
std::string encode_config(const RunConfig& config) {
  return encode(config);
}
RunConfig decode_config(const std::string& bytes) {
  return decode<RunConfig>(bytes);
}

}  // namespace allocsim::sweep
