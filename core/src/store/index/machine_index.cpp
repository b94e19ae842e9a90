// SPDX-License-Identifier: Apache-2.0
#include "store/index/machine_index.hpp"

#include "store/index/index_snapshot.hpp"
#include "io/posix_io.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>

namespace starling::core::detail {
namespace {

/// Where snapshots were kept, as text, before the binary format; removed by the first rebuild.
constexpr std::string_view text_snapshot_name = "snapshot.tsv";
/// Version 2 added the body excerpt to `M` records; a journal of another version is garbled, and the
/// index is rebuilt from the files.
/// Version 3: the fields of memory_fields.def in its order, then the file's stamp.
constexpr std::string_view journal_header = "starling-index-journal\t3";
constexpr std::uint64_t max_index_bytes = std::uint64_t{4} << 30;
constexpr int max_refresh_attempts = 8;

/// Reads `descriptor` from `offset` to its end; `size` is what fstat said, which a writer may pass.
std::string read_from(int descriptor, std::uint64_t offset, std::uint64_t size, const std::filesystem::path &path) {
    std::string content(size > offset ? static_cast<std::size_t>(size - offset) + 1 : 4096, '\0');
    std::size_t used = 0;
    while (true) {
        if (used == content.size()) {
            content.resize(content.size() * 2);
        }
        const ssize_t got = ::pread(descriptor, content.data() + used, content.size() - used,
                                    static_cast<off_t>(offset + used));
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_system_error(path, "cannot read", errno);
        }
        if (got == 0) {
            content.resize(used);
            return content;
        }
        used += static_cast<std::size_t>(got);
    }
}

} // namespace

MachineIndex::MachineIndex(std::filesystem::path directory)
    : directory_(std::move(directory)), snapshot_path_(directory_ / "snapshot.bin"),
      journal_path_(directory_ / "journal.tsv"), storage_(std::make_shared<Storage>()) {}

MachineIndex::State MachineIndex::refresh() {
    for (int attempt = 0; attempt < max_refresh_attempts; ++attempt) {
        Load result = load_snapshot();
        if (result == Load::done) {
            result = load_journal();
        }
        switch (result) {
        case Load::done: return State::current;
        case Load::missing: forget(); return State::missing;
        case Load::garbled: forget(); return State::garbled;
        case Load::retry: forget(); break;
        }
    }
    // Compactions keep replacing the files under us; a rebuild (under the lock) settles it.
    return State::missing;
}

std::optional<std::string> MachineIndex::version() const {
    Descriptor snapshot(::open(snapshot_path_.c_str(), O_RDONLY | O_CLOEXEC));
    if (!snapshot.valid()) {
        if (errno != ENOENT) {
            throw_system_error(snapshot_path_, "cannot open", errno);
        }
        return std::nullopt;
    }
    std::array<char, snapshot_header_size> header{};
    const ssize_t got = ::pread(snapshot.get(), header.data(), header.size(), 0);
    if (got < 0) {
        throw_system_error(snapshot_path_, "cannot read", errno);
    }
    const std::optional<SnapshotIdentity> identity =
        snapshot_identity(std::string_view{header.data(), static_cast<std::size_t>(got)});
    if (!identity) {
        return std::nullopt;
    }
    std::string version = std::to_string(identity->checksum) + "." + std::to_string(identity->payload_size) + "." +
                          std::to_string(identity->record_count);
    // A journal only grows between compactions, which replace it (a new inode); the modification
    // time tells apart the rare journal cut back after a crashed append and grown to the same size.
    if (const std::optional<FileStamp> journal = stamp_file(journal_path_)) {
        version += "/" + std::to_string(journal->inode) + "." + std::to_string(journal->size) + "." +
                   std::to_string(journal->modified.time_since_epoch().count());
    }
    return version;
}

const IndexRecordView *MachineIndex::find(std::string_view key) const {
    if (const auto journaled = journaled_.find(key); journaled != journaled_.end()) {
        return journaled->second.kind == IndexRecordView::Kind::removal ? nullptr : &journaled->second;
    }
    const auto found = std::lower_bound(
        storage_->snapshot_records.begin(), storage_->snapshot_records.end(), key,
        [](const IndexRecordView &record, std::string_view wanted) { return record.memory.key < wanted; });
    return found != storage_->snapshot_records.end() && found->memory.key == key ? &*found : nullptr;
}

MachineIndex::Load MachineIndex::load_snapshot() {
    const std::optional<FileStamp> stamp = stamp_file(snapshot_path_);
    if (!stamp) {
        return Load::missing;
    }
    if (loaded_ && snapshot_stamp_ == stamp) {
        return Load::done;
    }
    forget();
    std::optional<StampedBytes> file = map_stamped_file(snapshot_path_, max_index_bytes);
    if (!file) {
        return Load::retry;
    }
    storage_->snapshot = std::move(file->bytes);
    const Load result = adopt_snapshot(storage_->snapshot.view());
    if (result == Load::done) {
        snapshot_stamp_ = file->stamp;
        loaded_ = true;
    }
    return result;
}

MachineIndex::Load MachineIndex::adopt_snapshot(std::string_view bytes) {
    std::optional<std::vector<IndexRecordView>> records = decode_index_snapshot(bytes);
    if (!records) {
        return Load::garbled;
    }
    storage_->snapshot_records = std::move(*records);
    return Load::done;
}

MachineIndex::Load MachineIndex::load_journal() {
    Descriptor journal(::open(journal_path_.c_str(), O_RDONLY | O_CLOEXEC));
    if (!journal.valid()) {
        if (errno != ENOENT) {
            throw_system_error(journal_path_, "cannot open", errno);
        }
        // No journal: fine for a fresh snapshot; if we had read one, it was replaced by a compaction.
        return journal_inode_ ? Load::retry : Load::done;
    }
    struct stat status {};
    if (::fstat(journal.get(), &status) != 0) {
        throw_system_error(journal_path_, "cannot stat", errno);
    }
    const auto inode = static_cast<std::uint64_t>(status.st_ino);
    const auto size = static_cast<std::uint64_t>(status.st_size);
    if ((journal_inode_ && *journal_inode_ != inode) || size < journal_offset_) {
        return Load::retry;
    }
    journal_inode_ = inode;
    if (size == journal_offset_) {
        return Load::done;
    }
    std::string_view rest =
        storage_->journal_chunks.emplace_back(read_from(journal.get(), journal_offset_, size, journal_path_));
    while (true) {
        const auto newline = rest.find('\n');
        if (newline == std::string_view::npos) {
            // An unterminated last line is still being written (or its writer died); skip it for now.
            return Load::done;
        }
        const std::string_view line = rest.substr(0, newline);
        rest.remove_prefix(newline + 1);
        const bool is_first_line = journal_offset_ == 0;
        journal_offset_ += newline + 1;
        if (is_first_line) {
            if (line != journal_header) {
                return Load::garbled;
            }
            continue;
        }
        std::optional<IndexRecordView> record = decode_index_record_view(line, storage_->unescaped);
        if (!record) {
            return Load::garbled;
        }
        journaled_.insert_or_assign(record->memory.key, *record);
    }
}

void MachineIndex::append(const std::vector<IndexRecord> &records) {
    if (records.empty()) {
        return;
    }
    ensure_directories(directory_);
    Descriptor journal(::open(journal_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, private_file_mode));
    if (!journal.valid()) {
        throw_system_error(journal_path_, "cannot open", errno);
    }
    struct stat status {};
    if (::fstat(journal.get(), &status) != 0) {
        throw_system_error(journal_path_, "cannot stat", errno);
    }
    auto size = static_cast<std::uint64_t>(status.st_size);
    if (size > 0) {
        // Only a writer that died mid-append leaves a last line without '\n'; we hold the lock, so
        // nobody is appending now. Cut the fragment off, or the next record would be glued to it.
        char last = '\n';
        if (::pread(journal.get(), &last, 1, static_cast<off_t>(size - 1)) != 1) {
            throw_system_error(journal_path_, "cannot read", errno);
        }
        if (last != '\n') {
            const std::string content = read_from(journal.get(), 0, size, journal_path_);
            const auto newline = content.rfind('\n');
            size = newline == std::string::npos ? 0 : newline + 1;
            if (::ftruncate(journal.get(), static_cast<off_t>(size)) != 0) {
                throw_system_error(journal_path_, "cannot cut off a torn line", errno);
            }
        }
    }
    std::string lines;
    if (size == 0) {
        lines += journal_header;
        lines += '\n';
    }
    for (const IndexRecord &record : records) {
        lines += encode_index_record(record);
    }
    if (::lseek(journal.get(), static_cast<off_t>(size), SEEK_SET) < 0) {
        throw_system_error(journal_path_, "cannot seek", errno);
    }
    // No fsync: the index is a cache that validates itself against the files, and this runs on
    // every memory access.
    if (const int error = write_all(journal.get(), lines); error != 0) {
        throw_system_error(journal_path_, "cannot append", error);
    }
    if (const int error = journal.close(); error != 0) {
        throw_system_error(journal_path_, "cannot close", error);
    }
}

bool MachineIndex::compaction_due(std::uint64_t threshold_bytes) const {
    const std::optional<FileStamp> journal = stamp_file(journal_path_);
    if (!journal) {
        return false;
    }
    const std::optional<FileStamp> snapshot = stamp_file(snapshot_path_);
    const std::uint64_t snapshot_share = snapshot ? snapshot->size / journal_snapshot_ratio : 0;
    return journal->size > std::max(threshold_bytes, snapshot_share);
}

void MachineIndex::compact() {
    std::vector<IndexRecordView> records;
    records.reserve(storage_->snapshot_records.size() + journaled_.size());
    for_each([&](const IndexRecordView &record) { records.push_back(record); });
    // The records in memory stay as they are: they already say what the new files say.
    write_snapshot_and_reset_journal(encode_index_snapshot(records));
}

void MachineIndex::replace(const std::vector<IndexEntry> &entries, const std::vector<UnreadableMemory> &unreadable) {
    std::vector<JoinedLists> joined_lists;
    joined_lists.reserve(entries.size()); // no reallocation: the views point into these strings
    std::vector<IndexRecordView> records;
    records.reserve(entries.size() + unreadable.size());
    for (const IndexEntry &entry : entries) {
        records.push_back({IndexRecordView::Kind::entry, view_of(entry, joined_lists.emplace_back()), {}});
    }
    for (const UnreadableMemory &file : unreadable) {
        IndexRecordView record{IndexRecordView::Kind::unreadable, {}, file.message};
        record.memory.key = file.key;
        record.memory.file = file.file;
        records.push_back(record);
    }
    publish(std::move(records));
    std::error_code ignored;
    std::filesystem::remove(directory_ / text_snapshot_name, ignored);
}

void MachineIndex::fold(const std::vector<IndexRecord> &changes) {
    std::vector<JoinedLists> joined_lists;
    joined_lists.reserve(changes.size()); // no reallocation: the views point into these strings
    std::unordered_map<std::string_view, IndexRecordView> changed;
    changed.reserve(changes.size());
    for (const IndexRecord &change : changes) {
        const IndexRecordView record = view_of_record(change, joined_lists.emplace_back());
        changed.insert_or_assign(record.memory.key, record); // the last record of a key wins, as in the journal
    }
    std::vector<IndexRecordView> records;
    records.reserve(record_bound() + changed.size());
    for_each([&](const IndexRecordView &record) {
        if (!changed.contains(record.memory.key)) {
            records.push_back(record);
        }
    });
    for (const auto &[key, record] : changed) {
        if (record.kind != IndexRecordView::Kind::removal) {
            records.push_back(record);
        }
    }
    publish(std::move(records));
}

void MachineIndex::publish(std::vector<IndexRecordView> records) {
    std::sort(records.begin(), records.end(), [](const IndexRecordView &left, const IndexRecordView &right) {
        return left.memory.key < right.memory.key;
    });
    // Encoded before forget(): the records may point into the storage it lets go.
    std::string bytes = encode_index_snapshot(records);
    forget();
    write_snapshot_and_reset_journal(bytes);
    storage_->snapshot = FileBytes{std::move(bytes)};
    if (!loaded_ || adopt_snapshot(storage_->snapshot.view()) != Load::done) {
        forget(); // the next refresh() reads the files
    }
}

void MachineIndex::write_snapshot_and_reset_journal(const std::string &bytes) {
    ensure_directories(directory_);
    write_file_atomically(snapshot_path_, bytes);
    const std::string journal = std::string(journal_header) + "\n";
    write_file_atomically(journal_path_, journal);

    snapshot_stamp_ = stamp_file(snapshot_path_);
    const std::optional<FileStamp> journal_stamp = stamp_file(journal_path_);
    if (!snapshot_stamp_ || !journal_stamp) {
        forget();
        return;
    }
    journal_inode_ = journal_stamp->inode;
    journal_offset_ = journal.size();
    loaded_ = true;
}

void MachineIndex::forget() {
    loaded_ = false;
    snapshot_stamp_.reset();
    journal_inode_.reset();
    journal_offset_ = 0;
    journaled_.clear();
    storage_ = std::make_shared<Storage>();
}

} // namespace starling::core::detail
