// `allocsim merge`: combine result files of one experiment.
#include "allocsim/sweep/store/merge.hpp"

#include <sys/resource.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/sweep/store/lock.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "allocsim/sweep/store/temporary.hpp"
#include "allocsim/sweep/store/verify.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

namespace {

int status_rank(const std::string& status) {
  if (status == "done") return 3;
  if (status == "failed" || status == "timed_out") return 2;
  return 1;
}

/// Refuses, before anything is written, a merge output that cannot fit: libhdf5 1.10 crashes
/// (SIGSEGV in H5T_close_real) when H5Ocopy meets a full disk, so the copies must not start
/// then. `needed` is the bytes the copied tables occupy in their files, with a margin.
void check_room(const std::string& output, std::uint64_t needed) {
  const std::string folder = std::filesystem::absolute(output).parent_path().string();
  struct statvfs fs {};
  if (statvfs(folder.c_str(), &fs) == 0) {
    const std::uint64_t free = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
    if (free < needed)
      throw OutputError("cannot write '" + output + "': No space left on device (about " +
                        std::to_string(needed >> 20) + " MiB needed, " +
                        std::to_string(free >> 20) + " MiB free in '" + folder + "')");
  }
  struct rlimit limit {};
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      limit.rlim_cur < needed)
    throw OutputError("cannot write '" + output + "': File too large (about " +
                      std::to_string(needed >> 10) + " KiB needed, the file size limit (ulimit " +
                      "-f) is " + std::to_string(limit.rlim_cur >> 10) + " KiB)");
}

bool same_layout(const h5::Table& a, const h5::Table& b) {
  if (a.columns().size() != b.columns().size()) return false;
  for (std::size_t c = 0; c < a.columns().size(); ++c)
    if (a.columns()[c].name != b.columns()[c].name || a.columns()[c].type != b.columns()[c].type)
      return false;
  return true;
}

}  // namespace

MergeSummary merge_results(const std::vector<std::string>& inputs, const std::string& output) {
  if (inputs.empty()) throw InputError("merge needs at least one input file");
  const OutputLock lock(output, 0);
  std::vector<std::unique_ptr<h5::File>> files;
  std::vector<FileInfo> infos;
  std::vector<h5::Table> configs, summaries;
  for (const auto& path : inputs) {
    if (std::filesystem::exists(output) && std::filesystem::equivalent(path, output))
      throw InputError("the merge output '" + output + "' is also an input");
    verify_result_file(path);
    try {
      files.push_back(std::make_unique<h5::File>(path, h5::File::Mode::read));
    } catch (const std::runtime_error& error) {
      throw InputError(error.what());
    }
    infos.push_back(read_info(*files.back()));
    const FileInfo& info = infos.back();
    if (info.status == "running")
      throw InputError("'" + path +
                       "' is the live file of a sweep that did not finish cleanly: "
                       "run `allocsim sweep ... --resume` on it first");
    const FileInfo& first = infos.front();
    if (info.experiment != first.experiment || info.seed != first.seed ||
        info.fingerprint != first.fingerprint)
      throw InputError("refusing to merge files of different experiments: '" + path +
                       "' is experiment '" + info.experiment + "' (seed " +
                       std::to_string(info.seed) + ", fingerprint " + id_hex(info.fingerprint) +
                       "), '" + inputs.front() + "' is '" + first.experiment + "' (seed " +
                       std::to_string(first.seed) + ", fingerprint " + id_hex(first.fingerprint) +
                       ")");
    configs.push_back(files.back()->read_table("/configs"));
    summaries.push_back(files.back()->read_table("/summary"));
    if (!same_layout(configs.back(), configs.front()) ||
        !same_layout(summaries.back(), summaries.front()))
      throw InputError("'" + path + "' has other columns than '" + inputs.front() +
                       "' (written by another allocsim version?)");
  }

  // Best row per config id: done, then failed / timed out, then pending; first file wins ties.
  struct Choice {
    std::size_t file = 0, row = 0;
    std::int64_t index = 0;
    int rank = 0;
  };
  std::map<std::uint64_t, Choice> best;
  const int id_col = configs.front().find("config_id"), index_col = configs.front().find("index"),
            status_col = configs.front().find("status");
  for (std::size_t f = 0; f < files.size(); ++f)
    for (std::size_t r = 0; r < configs[f].rows(); ++r) {
      const Choice choice{f, r, configs[f].i64(r, index_col),
                          status_rank(configs[f].text(r, status_col))};
      auto [it, inserted] = best.try_emplace(configs[f].u64(r, id_col), choice);
      if (!inserted && choice.rank > it->second.rank) it->second = choice;
    }
  std::vector<std::pair<std::uint64_t, Choice>> order(best.begin(), best.end());
  std::sort(order.begin(), order.end(),
            [](const auto& a, const auto& b) { return a.second.index < b.second.index; });

  std::vector<std::map<std::uint64_t, std::size_t>> summary_row(files.size());
  for (std::size_t f = 0; f < files.size(); ++f) {
    const int id = summaries[f].find("config_id");
    for (std::size_t r = 0; r < summaries[f].rows(); ++r)
      summary_row[f][summaries[f].u64(r, id)] = r;
  }

  std::uint64_t needed = std::uint64_t{1} << 20;
  for (const auto& [id, choice] : order) {
    const std::string hex = id_hex(id);
    for (const std::string group : {"/jobs/", "/job_nodes/", "/decisions/", "/timeline/"})
      needed += files[choice.file]->storage_bytes(group + hex);
  }
  for (std::size_t f = 0; f < files.size(); ++f)
    needed += (configs[f].rows() * configs[f].columns().size() +
               summaries[f].rows() * summaries[f].columns().size()) *
              8;
  check_room(output, needed + needed / 4);

  MergeSummary result;
  TemporaryFile temporary(output + ".tmp");
  {
    h5::File out(temporary.path(), h5::File::Mode::create);
    FileInfo info = infos.front();
    info.format = kResultFormat;  // format 1 inputs are rewritten
    info.shard.clear();
    info.ranks = 0;
    info.dispatch_seconds = info.master_cpu_seconds = 0;
    for (const auto& i : infos) {
      info.ranks = std::max(info.ranks, i.ranks);
      info.start_time = std::min(info.start_time, i.start_time);
      info.end_time = std::max(info.end_time, i.end_time);
      info.dispatch_seconds += i.dispatch_seconds;
      info.master_cpu_seconds += i.master_cpu_seconds;
    }
    info.master_cpu_share =
        info.dispatch_seconds > 0 ? info.master_cpu_seconds / info.dispatch_seconds : 0;
    h5::Table merged_configs(configs.front().columns()),
        merged_summary(summaries.front().columns());
    for (const auto& [id, choice] : order) {
      const h5::Table& from = configs[choice.file];
      std::vector<h5::Table::Cell> cells;
      for (std::size_t c = 0; c < from.columns().size(); ++c)
        cells.push_back(from.cell(choice.row, c));
      merged_configs.add_row(std::move(cells));
      const std::string& status = from.text(choice.row, static_cast<std::size_t>(status_col));
      if (status == "done")
        ++result.done;
      else if (status == "failed")
        ++result.failed;
      else if (status == "timed_out")
        ++result.timed_out;
      else
        ++result.pending;
      auto s = summary_row[choice.file].find(id);
      if (status == "done" && s != summary_row[choice.file].end()) {
        const h5::Table& sum = summaries[choice.file];
        std::vector<h5::Table::Cell> row;
        for (std::size_t c = 0; c < sum.columns().size(); ++c)
          row.push_back(sum.cell(s->second, c));
        merged_summary.add_row(std::move(row));
      }
      copy_config_tables(*files[choice.file], out, id);
    }
    result.configs = static_cast<std::int64_t>(merged_configs.rows());
    result.missing = std::max<std::int64_t>(info.total_configs - result.configs, 0);
    info.file_configs = result.configs;
    info.done = result.done;
    info.failed = result.failed;
    info.timed_out = result.timed_out;
    info.pending = result.pending + result.missing;
    info.status = info.pending == 0 ? "complete" : "partial";
    write_info(out, info);
    out.create_table("/configs", merged_configs.columns(), kConfigChunkRows, false);
    out.create_table("/summary", merged_summary.columns(), kConfigChunkRows, false);
    out.append_table("/configs", merged_configs);
    out.append_table("/summary", merged_summary);
    out.close();  // checked: a full disk must not leave a truncated merge behind
  }
  temporary.commit(output);
  return result;
}

}  // namespace allocsim::sweep
