// Config outcomes and their binary encoding.
#include "allocsim/sweep/store/outcome.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <sstream>
#include <streambuf>
#include <type_traits>

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

/// Reads a byte range in place (istringstream would copy it first).
class ViewBuffer : public std::streambuf {
 public:
  ViewBuffer(const char* data, std::size_t size) {
    char* begin = const_cast<char*>(data);  // only read: setg wants char*
    setg(begin, begin, begin + size);
  }
};

// no_codecvt: binary archives carry no text, so they need no locale facet (constructing one
// was a fifth of the master's decoding time).
constexpr unsigned kArchiveFlags = boost::archive::no_header | boost::archive::no_codecvt;

template <class Value>
std::string encode(const Value& value) {
  std::ostringstream out(std::ios::binary);
  {
    boost::archive::binary_oarchive archive(out, kArchiveFlags);
    archive << value;
  }
  return out.str();
}

template <class Value>
Value decode(const std::string& bytes) {
  ViewBuffer buffer(bytes.data(), bytes.size());
  Value value;
  boost::archive::binary_iarchive archive(buffer, kArchiveFlags);
  archive >> value;
  return value;
}

void put_u64(std::string& out, std::uint64_t v) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out.append(bytes, 8);
}
void put_text(std::string& out, const std::string& text) {
  put_u64(out, text.size());
  out += text;
}

/// Reads the fields put_* wrote, throwing on a short buffer.
struct Reader {
  const std::string& in;
  std::size_t at = 0;
  std::uint64_t u64() {
    if (in.size() - at < 8) throw InputError("truncated config encoding");
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
      v = (v << 8) | static_cast<unsigned char>(in[at + static_cast<std::size_t>(i)]);
    at += 8;
    return v;
  }
  std::string text() {
    const std::uint64_t size = u64();
    if (in.size() - at < size) throw InputError("truncated config encoding");
    std::string out = in.substr(at, size);
    at += size;
    return out;
  }
};

}  // namespace

// An outcome crosses MPI and the journal once per config, so, like a config, it is encoded
// field after field (little-endian u64s, length-prefixed texts; metrics through the column
// tables): a tenth of the Boost archive's cost on the worker and on the master.
std::string encode_outcome(const ConfigOutcome& outcome) {
  const RunResult& result = outcome.result;
  std::string out;
  out.reserve(64 + outcome.error.size() + 8 * summary_columns().size() +
              result.jobs.size() * (8 * job_columns().size() + 32));
  put_u64(out, outcome.config_id);
  put_u64(out, static_cast<std::uint64_t>(outcome.index));
  put_u64(out, static_cast<std::uint64_t>(outcome.status));
  put_text(out, outcome.error);
  put_u64(out, std::bit_cast<std::uint64_t>(outcome.wall_seconds));
  put_u64(out, static_cast<std::uint64_t>(static_cast<std::int64_t>(outcome.rank)));
  put_u64(out, summary_columns().size());
  for (const auto& column : summary_columns())
    put_u64(out, std::bit_cast<std::uint64_t>(result.summary.*column.member));
  put_u64(out, result.jobs.size());
  for (const JobRecord& record : result.jobs) {
    put_u64(out, static_cast<std::uint64_t>(record.job_id));
    for (const auto& column : job_columns())
      put_u64(out, std::bit_cast<std::uint64_t>(record.*column.member));
    put_text(out, record.allocated_nodes);
  }
  put_u64(out, result.decisions.size());
  for (const DecisionRow& row : result.decisions) {
    put_text(out, row.decision);
    for (const double value :
         {row.mean_pairwise_sum, row.mean_avg_pairwise, row.jobs, row.refusals})
      put_u64(out, std::bit_cast<std::uint64_t>(value));
  }
  put_u64(out, result.diagnostics.entries.size());
  for (const auto& [reason, entry] : result.diagnostics.entries) {
    put_text(out, reason);
    put_u64(out, static_cast<std::uint64_t>(entry.count));
    put_u64(out, entry.first_lines.size());
    for (const std::int64_t line : entry.first_lines)
      put_u64(out, static_cast<std::uint64_t>(line));
  }
  put_u64(out, result.diagnostics.notes.size());
  for (const auto& note : result.diagnostics.notes) put_text(out, note);
  // The timeline last, and only when kept: outcomes journaled before it existed still decode.
  if (!result.timeline.empty()) {
    put_u64(out, result.timeline.size());
    for (const TimelineRow& row : result.timeline) {
      put_u64(out, std::bit_cast<std::uint64_t>(row.time));
      put_u64(out, static_cast<std::uint64_t>(row.busy_nodes));
      put_u64(out, std::bit_cast<std::uint64_t>(row.utilization));
      put_u64(out, static_cast<std::uint64_t>(row.queued_jobs));
      put_u64(out, static_cast<std::uint64_t>(row.running_jobs));
    }
  }
  return out;
}

namespace {
/// Reads the head fields (see decode_outcome_head) into `outcome`, checking each.
void read_head(Reader& in, ConfigOutcome& outcome) {
  outcome.config_id = in.u64();
  outcome.index = static_cast<std::int64_t>(in.u64());
  const std::uint64_t status = in.u64();
  if (status > static_cast<std::uint64_t>(ConfigStatus::timed_out))
    throw InputError("bad outcome encoding: field status is " + std::to_string(status) +
                     " (expected 0 to 3)");
  outcome.status = static_cast<ConfigStatus>(status);
  outcome.error = in.text();
  outcome.wall_seconds = std::bit_cast<double>(in.u64());
  if (!std::isfinite(outcome.wall_seconds))
    throw InputError("bad outcome encoding: field wall_seconds is " +
                     std::to_string(outcome.wall_seconds) + " (expected a finite number)");
  const auto rank = static_cast<std::int64_t>(in.u64());
  if (rank < std::numeric_limits<int>::min() || rank > std::numeric_limits<int>::max())
    throw InputError("bad outcome encoding: field rank is " + std::to_string(rank) +
                     " (expected an int)");
  outcome.rank = static_cast<int>(rank);
}

/// True when `text` is an interval set "0-3 8 10-11" (node_interval_set's notation): numbers
/// of at most 18 digits, first <= last, separated by single spaces.
bool is_interval_set(const std::string& text) {
  std::size_t at = 0;
  auto number = [&](std::int64_t& value) {
    const std::size_t start = at;
    value = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - start < 18)
      value = value * 10 + (text[at++] - '0');
    return at > start && (at == text.size() || text[at] < '0' || text[at] > '9');
  };
  while (at < text.size()) {
    std::int64_t first = 0, last = 0;
    if (!number(first)) return false;
    last = first;
    if (at < text.size() && text[at] == '-') {
      ++at;
      if (!number(last) || last < first) return false;
    }
    if (at < text.size() && (text[at] != ' ' || ++at == text.size())) return false;
  }
  return true;
}
}  // namespace

ConfigOutcome decode_outcome_head(const std::string& bytes) {
  Reader in{bytes};
  ConfigOutcome outcome;
  read_head(in, outcome);
  return outcome;
}

ConfigOutcome decode_outcome(const std::string& bytes) {
  Reader in{bytes};
  auto real = [&] { return std::bit_cast<double>(in.u64()); };
  // A count of items of at least `size` bytes each, checked against the bytes left.
  auto count = [&](std::size_t size) {
    const std::uint64_t n = in.u64();
    if (n > (bytes.size() - in.at) / size) throw InputError("bad outcome encoding: bad count");
    return static_cast<std::size_t>(n);
  };
  ConfigOutcome outcome;
  read_head(in, outcome);
  if (in.u64() != summary_columns().size())
    throw InputError("bad outcome encoding: written with another set of summary metrics");
  RunResult& result = outcome.result;
  for (const auto& column : summary_columns()) result.summary.*column.member = real();
  result.jobs.resize(count(16 + 8 * job_columns().size()));
  for (JobRecord& record : result.jobs) {
    record.job_id = static_cast<std::int64_t>(in.u64());
    for (const auto& column : job_columns()) record.*column.member = real();
    record.allocated_nodes = in.text();
    if (!is_interval_set(record.allocated_nodes))
      throw InputError("bad outcome encoding: field allocated_nodes of job " +
                       std::to_string(record.job_id) + " is '" +
                       record.allocated_nodes.substr(0, 40) +
                       "' (expected node intervals like '0-3 8')");
  }
  result.decisions.resize(count(40));
  for (DecisionRow& row : result.decisions) {
    row.decision = in.text();
    row.mean_pairwise_sum = real();
    row.mean_avg_pairwise = real();
    row.jobs = real();
    row.refusals = real();
  }
  for (std::size_t e = count(24); e > 0; --e) {
    std::string reason = in.text();
    Diagnostics::Entry entry;
    entry.count = static_cast<std::int64_t>(in.u64());
    entry.first_lines.resize(count(8));
    for (auto& line : entry.first_lines) line = static_cast<std::int64_t>(in.u64());
    result.diagnostics.entries[std::move(reason)] = std::move(entry);
  }
  result.diagnostics.notes.resize(count(8));
  for (auto& note : result.diagnostics.notes) note = in.text();
  if (in.at != bytes.size()) {  // a timeline (absent from outcomes without one)
    result.timeline.resize(count(40));
    for (TimelineRow& row : result.timeline) {
      row.time = real();
      row.busy_nodes = static_cast<std::int64_t>(in.u64());
      row.utilization = real();
      row.queued_jobs = static_cast<std::int64_t>(in.u64());
      row.running_jobs = static_cast<std::int64_t>(in.u64());
    }
  }
  if (in.at != bytes.size()) throw InputError("bad outcome encoding: trailing bytes");
  return outcome;
}

std::string encode_outcome_boost(const ConfigOutcome& outcome) {
  return encode(outcome);
}
ConfigOutcome decode_outcome_boost(const std::string& bytes) {
  return decode<ConfigOutcome>(bytes);
}

// A config travels with every task, so its encoding is hand-made (field after field of
// config_fields(), little-endian): a tenth of the cost of a Boost archive.
std::string encode_config(const RunConfig& config) {
  std::string out;
  out.reserve(512);
  for (const auto& field : config_fields())
    visit_field(config, field, [&](const auto& value) {
      using Member = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<Member, std::string>) {
        put_text(out, value);
      } else if constexpr (std::is_same_v<Member, std::vector<std::string>>) {
        put_u64(out, value.size());
        for (const auto& item : value) put_text(out, item);
      } else if constexpr (std::is_same_v<Member, double>) {
        put_u64(out, std::bit_cast<std::uint64_t>(value));
      } else {
        put_u64(out, static_cast<std::uint64_t>(value));
      }
    });
  return out;
}

RunConfig decode_config(const std::string& bytes) {
  RunConfig config;
  Reader in{bytes};
  for (const auto& field : config_fields())
    visit_field(config, field, [&](auto& value) {
      using Member = std::decay_t<decltype(value)>;
      if constexpr (std::is_same_v<Member, std::string>) {
        value = in.text();
      } else if constexpr (std::is_same_v<Member, std::vector<std::string>>) {
        const std::uint64_t count = in.u64();
        if (count > bytes.size()) throw InputError("bad config encoding");
        value.clear();
        for (std::uint64_t i = 0; i < count; ++i) value.push_back(in.text());
      } else if constexpr (std::is_same_v<Member, double>) {
        value = std::bit_cast<double>(in.u64());
      } else {
        value = static_cast<Member>(in.u64());
      }
    });
  if (in.at != bytes.size()) throw InputError("bad config encoding: trailing bytes");
  return config;
}

}  // namespace allocsim::sweep
