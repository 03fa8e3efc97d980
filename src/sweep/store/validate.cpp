// Validation of a result file's contents on read (see validate.hpp).
#include "allocsim/sweep/store/validate.hpp"

#include <charconv>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/util/error.hpp"
#include "h5_types.hpp"

namespace allocsim::sweep {

namespace {

std::string damaged(const std::string& path, const std::string& object) {
  return "'" + path + "' is damaged: " + object;
}

/// Names of the attributes of `object` in `file`.
std::vector<std::string> attribute_names(const h5::File& file, const std::string& object) {
  std::vector<std::string> names;
  h5::Id id = h5::detail::checked(H5Oopen(file.id(), object.c_str(), H5P_DEFAULT), H5Oclose,
                                  "open " + object + " of '" + file.path() + "'");
  H5O_info_t info;
  h5::check(H5Oget_info(id.get(), &info), "read the attributes of " + object);
  for (hsize_t a = 0; a < info.num_attrs; ++a) {
    const ssize_t size =
        H5Aget_name_by_idx(id.get(), ".", H5_INDEX_NAME, H5_ITER_INC, a, nullptr, 0, H5P_DEFAULT);
    if (size < 0) throw InputError(damaged(file.path(), object + " has an unreadable attribute"));
    std::string name(static_cast<std::size_t>(size), '\0');
    H5Aget_name_by_idx(id.get(), ".", H5_INDEX_NAME, H5_ITER_INC, a, name.data(),
                       static_cast<std::size_t>(size) + 1, H5P_DEFAULT);
    names.push_back(name);
  }
  return names;
}

bool is_status(const std::string& name) {
  return name == "pending" || name == "done" || name == "failed" || name == "timed_out";
}

}  // namespace

void check_labels(const h5::File& file, const std::string& table) {
  if (file.has_string_members(table)) return;  // format 1: strings inside the table
  h5::Id dataset = h5::detail::checked(H5Dopen2(file.id(), table.c_str(), H5P_DEFAULT), H5Dclose,
                                       "open " + table + " of '" + file.path() + "'");
  h5::Id type = h5::detail::checked(H5Dget_type(dataset.get()), H5Tclose, "type of " + table);
  std::map<std::string, bool> coded;  // column -> holds uint32 codes
  const int members = H5Tget_nmembers(type.get());
  for (int m = 0; m < members; ++m) {
    char* raw = H5Tget_member_name(type.get(), static_cast<unsigned>(m));
    const std::string name = raw != nullptr ? raw : "";
    H5free_memory(raw);
    h5::Id member = h5::detail::checked(H5Tget_member_type(type.get(), static_cast<unsigned>(m)),
                                        H5Tclose, "member type of " + table);
    coded[name] = H5Tget_class(member.get()) == H5T_INTEGER && H5Tget_size(member.get()) == 4 &&
                  H5Tget_sign(member.get()) == H5T_SGN_NONE;
  }
  std::map<std::string, std::set<std::size_t>> pages;
  for (const auto& attr : attribute_names(file, table)) {
    if (attr.rfind("labels_", 0) != 0) continue;
    std::string column = attr.substr(7);
    std::size_t page = 0;
    if (const auto at = column.rfind('@'); at != std::string::npos) {
      const std::string number = column.substr(at + 1);
      const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), page);
      if (ec != std::errc() || end != number.data() + number.size() || page == 0 ||
          number[0] == '0')
        throw InputError(damaged(file.path(), table + " has a label attribute '" + attr +
                                                  "' whose page is not a number from 1"));
      column.resize(at);
    }
    auto found = coded.find(column);
    if (found == coded.end() || !found->second)
      throw InputError(damaged(file.path(), table + " has the label attribute '" + attr +
                                                "' but no text column '" + column +
                                                "' (a uint32 column of codes)"));
    pages[column].insert(page);
  }
  for (const auto& [column, is_coded] : coded) {
    if (!is_coded) continue;
    const auto& have = pages[column];
    if (have.empty())
      throw InputError(damaged(file.path(), table + " column '" + column +
                                                "' holds text codes but its labels attribute '" +
                                                h5::labels_attr_name(column, 0) + "' is missing"));
    if (*have.rbegin() + 1 != have.size()) {
      std::size_t gap = 0;
      while (have.count(gap) != 0) ++gap;
      throw InputError(damaged(file.path(), table + " column '" + column + "' has label page '" +
                                                h5::labels_attr_name(column, *have.rbegin()) +
                                                "' but no '" + h5::labels_attr_name(column, gap) +
                                                "' (label pages must follow each other)"));
    }
    std::vector<std::string> labels;
    for (std::size_t page = 0; page < have.size(); ++page) {
      const auto values = file.text_array_attr(table, h5::labels_attr_name(column, page));
      labels.insert(labels.end(), values.begin(), values.end());
    }
    std::unordered_set<std::string> seen;
    for (std::size_t l = 0; l < labels.size(); ++l) {
      if (!seen.insert(labels[l]).second)
        throw InputError(damaged(file.path(), table + " attribute labels_" + column +
                                                  " has the label '" + labels[l] +
                                                  "' twice (label " + std::to_string(l) + ")"));
      if (table == "/configs" && column == "status" && !is_status(labels[l]))
        throw InputError(
            damaged(file.path(), "/configs attribute labels_status has the label '" + labels[l] +
                                     "' (expected pending, done, failed or timed_out)"));
    }
  }
}

void check_result_contents(const std::string& path, const FileInfo& info, const h5::Table& configs,
                           const h5::Table& summary) {
  const auto id_col = static_cast<std::size_t>(configs.find("config_id"));
  const auto status_col = static_cast<std::size_t>(configs.find("status"));
  const auto summary_id = static_cast<std::size_t>(summary.find("config_id"));
  std::unordered_map<std::uint64_t, std::size_t> row_of;
  std::int64_t counts[4] = {0, 0, 0, 0};  // pending, done, failed, timed_out
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    const std::uint64_t id = configs.u64(r, id_col);
    if (const auto [it, fresh] = row_of.emplace(id, r); !fresh)
      throw InputError(damaged(path, "/configs has config_id " + id_hex(id) + " in rows " +
                                         std::to_string(it->second) + " and " + std::to_string(r) +
                                         " (config ids must be unique)"));
    const std::string& status = configs.text(r, status_col);
    if (!is_status(status))
      throw InputError(damaged(path, "/configs row " + std::to_string(r) + " has status '" +
                                         status +
                                         "' (expected pending, done, failed or timed_out)"));
    ++counts[static_cast<int>(parse_status(status))];
  }
  const bool live = info.status == "running";
  std::unordered_set<std::uint64_t> summarized;
  for (std::size_t r = 0; r < summary.rows(); ++r) {
    const std::uint64_t id = summary.u64(r, summary_id);
    if (!summarized.insert(id).second)
      throw InputError(damaged(path, "/summary has config_id " + id_hex(id) + " twice (row " +
                                         std::to_string(r) + "; config ids must be unique)"));
    const auto it = row_of.find(id);
    if (it == row_of.end() || configs.text(it->second, status_col) != "done")
      throw InputError(damaged(
          path, "/summary row " + std::to_string(r) + " is config " + id_hex(id) + ", which " +
                    (it == row_of.end()
                         ? "/configs does not have"
                         : "/configs has as '" + configs.text(it->second, status_col) + "'") +
                    " (expected a done config)"));
  }
  if (live) return;  // a running sweep's counts and summary follow its rows
  for (std::size_t r = 0; r < configs.rows(); ++r)
    if (configs.text(r, status_col) == "done" && summarized.count(configs.u64(r, id_col)) == 0)
      throw InputError(damaged(path, "/configs row " + std::to_string(r) + " (config " +
                                         id_hex(configs.u64(r, id_col)) +
                                         ") is done but /summary has no row for it"));
  const std::pair<const char*, std::int64_t> attrs[] = {
      {"done", info.done}, {"failed", info.failed}, {"timed_out", info.timed_out}};
  for (int s = 0; s < 3; ++s)
    if (attrs[s].second != counts[s + 1])
      throw InputError(damaged(path, "the root attribute '" + std::string(attrs[s].first) +
                                         "' is " + std::to_string(attrs[s].second) +
                                         " but /configs has " + std::to_string(counts[s + 1]) +
                                         " " + attrs[s].first + " rows"));
  if (info.pending < counts[0])
    throw InputError(damaged(path, "the root attribute 'pending' is " +
                                       std::to_string(info.pending) + " but /configs has " +
                                       std::to_string(counts[0]) + " pending rows"));
}

std::int64_t machine_nodes(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos) return -1;
  const auto end = std::min(spec.find(':', colon + 1), spec.size());
  std::int64_t nodes = 1;
  std::size_t at = colon + 1;
  while (true) {
    std::int64_t side = 0;
    const auto [ptr, ec] = std::from_chars(spec.data() + at, spec.data() + end, side);
    if (ec != std::errc() || side <= 0 || nodes > (std::int64_t{1} << 62) / side) return -1;
    nodes *= side;
    at = static_cast<std::size_t>(ptr - spec.data());
    if (at == end) return nodes;
    if (spec[at] != 'x') return -1;
    ++at;
  }
}

void check_job_tables(const h5::File& file, const h5::Table& configs) {
  const auto id_col = static_cast<std::size_t>(configs.find("config_id"));
  const int machine_col = configs.find("machine");
  std::unordered_map<std::string, std::size_t> row_of;
  for (std::size_t r = 0; r < configs.rows(); ++r) row_of[id_hex(configs.u64(r, id_col))] = r;
  for (const auto& name : file.list("/jobs")) {
    const auto row = row_of.find(name);
    if (row == row_of.end())
      throw InputError(damaged(file.path(), "/jobs/" + name +
                                                " belongs to no config of /configs (expected the "
                                                "16 hex digits of a config_id)"));
    std::int64_t nodes = -1;
    if (machine_col >= 0 &&
        configs.columns()[static_cast<std::size_t>(machine_col)].type == h5::ColumnType::text)
      nodes = machine_nodes(configs.text(row->second, static_cast<std::size_t>(machine_col)));
    read_job_tables(file, name, nodes);
  }
}

}  // namespace allocsim::sweep
