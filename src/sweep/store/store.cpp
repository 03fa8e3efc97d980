// Crash-safe result storage: journal + live HDF5 file + final rewrite.
#include "allocsim/sweep/store/store.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <unordered_map>

#include "allocsim/sweep/store/temporary.hpp"
#include "allocsim/sweep/store/verify.hpp"
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
    : path_(std::move(path)),
      lock_(path_, options.resume || options.retry_failed ? options.lock_wait_seconds : 0),
      expansion_(&expansion),
      members_(std::move(members)),
      position_of_(expansion.configs.size(), -1),
      recorded_(members_.size()) {
  std::sort(members_.begin(), members_.end());
  std::unordered_map<std::uint64_t, std::size_t> member_of_id;  // id -> member position
  member_of_id.reserve(members_.size());
  for (std::size_t m = 0; m < members_.size(); ++m) {
    position_of_.at(static_cast<std::size_t>(members_[m])) = static_cast<std::int32_t>(m);
    member_of_id[expansion.configs[static_cast<std::size_t>(members_[m])].id] = m;
  }
  const std::string journal = journal_path(path_);
  std::error_code ec;
  // The lock creates the file (empty) to lock it: whether it was there before is the lock's.
  const bool have_file = lock_.file_existed(), have_journal = fs::exists(journal, ec);
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
    if (contents.corrupt)
      log << "resume: journal '" << journal << "' is corrupted at byte offset "
          << contents.valid_bytes << (contents.damage.empty() ? "" : ": " + contents.damage)
          << ": the " << contents.frames.size() << " records before it are used, the "
          << contents.frames_after_damage
          << " intact records after it are dropped (their configs run again)\n";
    else if (contents.valid_bytes < contents.file_bytes)
      log << "resume: ignoring a torn last record of '" << journal << "' ("
          << contents.file_bytes - contents.valid_bytes << " bytes)\n";
  } else if (from_file) {
    // libhdf5's readers take a shared lock of their own: the file lock waits meanwhile (the
    // name lock stays), and is taken again below, checking that the file did not change.
    lock_.suspend_file_lock();
    FileInfo old;
    try {
      verify_result_file(path_);
      h5::File file(path_, h5::File::Mode::read);
      old = read_info(file);
    } catch (const std::runtime_error& error) {
      throw InputError("cannot resume from '" + path_ + "' (" + error.what() +
                       ") and there is no journal: " + options.restart_advice);
    }
    check_same_sweep("'" + path_ + "'", old.experiment, old.seed, old.shard, info);
  }

  // The new journal is written beside the old one and renamed over it once complete, so the
  // previous state stays available until the new one is.
  TemporaryFile fresh(journal + ".tmp");
  journal_ = std::make_unique<JournalWriter>(JournalWriter::create(
      fresh.path(), JournalHeader{info.experiment, info.seed, info.fingerprint, info.shard}));
  std::int64_t dropped = 0, retried = 0;
  auto consider = [&](ConfigOutcome outcome) {
    auto it = member_of_id.find(outcome.config_id);
    if (it == member_of_id.end()) {
      ++dropped;
      return;
    }
    if (options.retry_failed && outcome.status != ConfigStatus::done) {
      ++retried;
      return;
    }
    outcome.index = members_[it->second];
    if (recorded_[it->second].offset == kNone) ++resumed_;
    note(it->second, journal_->append(outcome), outcome.status);
    if (journal_->pending_bytes() >= (std::size_t{8} << 20)) journal_->write_pending();
  };
  if (from_journal) {
    const JournalReader old_journal(journal);
    for (const auto& [id, frame] : latest_frames(contents))
      consider(old_journal.read(frame.offset));
  } else if (from_file) {
    for (auto& outcome : read_outcomes(path_)) consider(std::move(outcome));
    lock_.resume_file_lock();
  }
  journal_->sync();
  fresh.commit(journal);
  journal_->set_path(journal);
  if (resume && (have_file || have_journal))
    log << "resume: " << resumed_ << " configs already finished, "
        << static_cast<std::int64_t>(members_.size()) - resumed_ << " to run"
        << (retried ? ", " + std::to_string(retried) + " failed ones to retry" : "")
        << (dropped ? "; " + std::to_string(dropped) +
                          " results of configs no longer in the "
                          "experiment are dropped"
                    : "")
        << "\n";

  // Live file: the carried-over outcomes of the leading members (read back from the journal).
  live_ = std::make_unique<ResultWriter>(path_, info, expansion, members_);
  append_ready();
  live_->flush();
  last_flush_ = seconds_now();
  for (std::size_t m = 0; m < members_.size(); ++m)
    if (recorded_[m].offset == kNone) todo_.push_back(members_[m]);
}

ResultStore::~ResultStore() = default;

std::int64_t ResultStore::position(std::int64_t index) const {
  if (index < 0 || static_cast<std::size_t>(index) >= position_of_.size()) return -1;
  return position_of_[static_cast<std::size_t>(index)];
}

void ResultStore::note(std::size_t position, std::uint64_t offset, ConfigStatus status) {
  Recorded& slot = recorded_[position];
  if (slot.offset == kNone)
    ++finished_;
  else if (slot.status != ConfigStatus::done)
    --failed_;
  slot = {offset, status};
  if (status != ConfigStatus::done) ++failed_;
}

void ResultStore::record(const ConfigOutcome& outcome, std::string encoded,
                         std::uint64_t checksum) {
  const std::int64_t found = position(outcome.index);
  if (found < 0) return;  // not ours (cannot happen with a consistent expansion)
  const auto m = static_cast<std::size_t>(found);
  if (expansion_->configs[static_cast<std::size_t>(outcome.index)].id != outcome.config_id) return;
  const bool given = !encoded.empty();
  if (!given) encoded = encode_outcome(outcome);
  note(m, journal_->append_encoded(encoded, given ? checksum : 0), outcome.status);
  if (m >= written_) {
    // Kept for its turn in the file while memory allows (else read back from the journal).
    auto previous = held_.find(m);
    if (previous != held_.end()) {
      held_bytes_ -= previous->second.size();
      held_.erase(previous);
    }
    if (held_bytes_ < kHeldBytes) {
      held_bytes_ += encoded.size();
      held_.emplace(m, std::move(encoded));
    }
  }
}

void ResultStore::append_row(std::size_t m) {
  const ConfigEntry& entry = expansion_->configs[static_cast<std::size_t>(members_[m])];
  const Recorded& slot = recorded_[m];
  if (slot.offset == kNone) {
    live_->add_pending(entry);
  } else if (auto it = held_.find(m); it != held_.end()) {
    live_->add(entry, decode_outcome(it->second));
    held_bytes_ -= it->second.size();
    held_.erase(it);
  } else {
    live_->add(entry, journal_->read(slot.offset));
  }
  if (live_->buffered() >= kAppendRows) live_->append();
}

void ResultStore::append_ready() {
  while (written_ < members_.size() && recorded_[written_].offset != kNone) append_row(written_++);
}

void ResultStore::tick() {
  journal_->write_pending();
  append_ready();
  const double now = seconds_now();
  if (now - last_flush_ < 2.0) return;
  live_->flush();
  journal_->sync();
  last_flush_ = now;
}

FileInfo ResultStore::finish(FileInfo info) {
  journal_->sync();
  append_ready();
  info.done = info.failed = info.timed_out = info.pending = 0;
  for (const Recorded& slot : recorded_) {
    if (slot.offset == kNone)
      ++info.pending;
    else if (slot.status == ConfigStatus::done)
      ++info.done;
    else if (slot.status == ConfigStatus::timed_out)
      ++info.timed_out;
    else
      ++info.failed;
  }
  if (info.status.empty() || info.status == "running")
    info.status = info.pending == 0 ? "complete" : "interrupted";
  // The rest in index order: finished members after a gap, and a pending row per gap.
  while (written_ < members_.size()) append_row(written_++);
  held_.clear();
  held_bytes_ = 0;
  live_->set_info(info);
  live_->close();
  live_.reset();
  journal_->close();
  if (info.pending == 0) {
    std::error_code ec;
    fs::remove(journal_path(path_), ec);
  }
  return info;
}

}  // namespace allocsim::sweep
