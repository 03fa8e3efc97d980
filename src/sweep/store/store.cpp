// Crash-safe result storage: journal + live HDF5 file + final rewrite.
#include "allocsim/sweep/store/store.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

namespace fs = std::filesystem;

namespace {
double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void check_same_sweep(const std::string& what, const std::string& experiment, std::uint64_t seed,
                      const std::string& shard, const FileInfo& info) {
  auto describe = [](const std::string& e, std::uint64_t s, const std::string& sh) {
    return "experiment '" + e + "', seed " + std::to_string(s) +
           (sh.empty() ? "" : ", shard " + sh);
  };
  if (experiment != info.experiment || seed != info.seed || shard != info.shard)
    throw InputError("cannot resume: " + what + " belongs to " + describe(experiment, seed, shard) +
                     ", not " + describe(info.experiment, info.seed, info.shard));
}
}  // namespace

ResultStore::ResultStore(std::string path, FileInfo info, const Expansion& expansion,
                         std::vector<std::int64_t> members, const StoreOptions& options,
                         std::ostream& log)
    : path_(std::move(path)), expansion_(&expansion), members_(std::move(members)) {
  for (auto index : members_)
    index_of_[expansion.configs.at(static_cast<std::size_t>(index)).id] = index;
  const std::string journal = journal_path(path_);
  std::error_code ec;
  const bool have_file = fs::exists(path_, ec), have_journal = fs::exists(journal, ec);
  const bool resume = options.resume || options.retry_failed;
  if (!resume && (have_file || have_journal)) {
    if (!options.overwrite)
      throw InputError("'" + (have_file ? path_ : journal) +
                       "' exists: use --resume to continue that sweep or --overwrite to start "
                       "again");
    fs::remove(journal, ec);
  }

  // Check what an earlier run left before touching anything.
  JournalContents contents;
  const bool from_journal = resume && have_journal,
             from_file = resume && !have_journal && have_file;
  if (from_journal) {
    contents = scan_journal(journal);
    if (contents.has_header)
      check_same_sweep("'" + journal + "'", contents.header.experiment, contents.header.seed,
                       contents.header.shard, info);
    if (contents.valid_bytes < contents.file_bytes)
      log << "resume: ignoring a torn last record of '" << journal << "' ("
          << contents.file_bytes - contents.valid_bytes << " bytes)\n";
  } else if (from_file) {
    FileInfo old;
    try {
      h5::File file(path_, h5::File::Mode::read);
      old = read_info(file);
    } catch (const std::runtime_error& error) {
      throw InputError("cannot resume from '" + path_ + "' (" + error.what() +
                       ") and there is no journal: use --overwrite to start again");
    }
    check_same_sweep("'" + path_ + "'", old.experiment, old.seed, old.shard, info);
  }

  // The new journal is written beside the old one and renamed over it once complete, so the
  // previous state stays available until the new one is.
  const std::string fresh = journal + ".tmp";
  journal_ = std::make_unique<JournalWriter>(JournalWriter::create(
      fresh, JournalHeader{info.experiment, info.seed, info.fingerprint, info.shard}));
  std::int64_t dropped = 0, retried = 0;
  auto consider = [&](ConfigOutcome outcome) {
    auto it = index_of_.find(outcome.config_id);
    if (it == index_of_.end()) {
      ++dropped;
      return;
    }
    if (options.retry_failed && outcome.status != ConfigStatus::done) {
      ++retried;
      return;
    }
    outcome.index = it->second;
    carry_over(outcome);
  };
  if (from_journal) {
    for (const auto& [id, frame] : latest_frames(contents))
      consider(read_journal_outcome(journal, frame.offset));
  } else if (from_file) {
    for (auto& outcome : read_outcomes(path_)) consider(std::move(outcome));
  }
  journal_->sync();
  fs::rename(fresh, journal);
  if (resume && (have_file || have_journal))
    log << "resume: " << resumed_ << " configs already finished, "
        << static_cast<std::int64_t>(members_.size()) - resumed_ << " to run"
        << (retried ? ", " + std::to_string(retried) + " failed ones to retry" : "")
        << (dropped ? "; " + std::to_string(dropped) +
                          " results of configs no longer in the "
                          "experiment are dropped"
                    : "")
        << "\n";

  // Live file: the carried-over outcomes first (read back from the new journal).
  live_ = std::make_unique<ResultWriter>(path_, info, expansion);
  for (const auto& [id, recorded] : recorded_) {
    const auto index = index_of_.at(id);
    live_->add(expansion.configs[static_cast<std::size_t>(index)],
               read_journal_outcome(journal, recorded.offset));
    if (live_->buffered() >= 512) live_->flush();
  }
  live_->flush();
  last_flush_ = seconds_now();
  for (auto index : members_)
    if (!recorded_.count(expansion.configs[static_cast<std::size_t>(index)].id))
      todo_.push_back(index);
}

ResultStore::~ResultStore() = default;

void ResultStore::carry_over(const ConfigOutcome& outcome) {
  const std::uint64_t offset = journal_->append(outcome);
  recorded_[outcome.config_id] = {offset, outcome.status};
  if (outcome.status != ConfigStatus::done) ++failed_;
  ++resumed_;
}

void ResultStore::record(const ConfigOutcome& outcome) {
  auto it = index_of_.find(outcome.config_id);
  if (it == index_of_.end()) return;  // not ours (cannot happen with a consistent expansion)
  const std::uint64_t offset = journal_->append(outcome);
  auto [slot, inserted] = recorded_.try_emplace(outcome.config_id);
  if (!inserted && slot->second.status != ConfigStatus::done) --failed_;
  slot->second = {offset, outcome.status};
  if (outcome.status != ConfigStatus::done) ++failed_;
  live_->add(expansion_->configs[static_cast<std::size_t>(it->second)], outcome);
  tick();
}

void ResultStore::tick() {
  const double now = seconds_now();
  if (now - last_flush_ < 2.0 && live_->buffered() < 4096) return;
  live_->flush();
  journal_->sync();
  last_flush_ = now;
}

FileInfo ResultStore::finish(FileInfo info) {
  live_->close();
  live_.reset();
  journal_->sync();
  const std::string journal = journal_path(path_);
  info.done = info.failed = info.timed_out = info.pending = 0;
  for (auto index : members_) {
    auto it = recorded_.find(expansion_->configs[static_cast<std::size_t>(index)].id);
    if (it == recorded_.end())
      ++info.pending;
    else if (it->second.status == ConfigStatus::done)
      ++info.done;
    else if (it->second.status == ConfigStatus::timed_out)
      ++info.timed_out;
    else
      ++info.failed;
  }
  if (info.status.empty() || info.status == "running")
    info.status = info.pending == 0 ? "complete" : "interrupted";
  // Rewrite in expansion order into a temporary file, then rename it over the live one.
  const std::string temporary = path_ + ".tmp";
  {
    ResultWriter writer(temporary, info, *expansion_);
    for (auto index : members_) {
      const ConfigEntry& entry = expansion_->configs[static_cast<std::size_t>(index)];
      auto it = recorded_.find(entry.id);
      if (it == recorded_.end())
        writer.add_pending(entry);
      else
        writer.add(entry, read_journal_outcome(journal, it->second.offset));
      if (writer.buffered() >= 512) writer.flush();
    }
    writer.close();
  }
  fs::rename(temporary, path_);
  journal_->close();
  if (info.pending == 0) {
    std::error_code ec;
    fs::remove(journal, ec);
  }
  return info;
}

}  // namespace allocsim::sweep
