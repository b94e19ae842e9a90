// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "io/posix_io.hpp"
#include "store/index/index_record.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/index/index_entry.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starling::core::detail {

/// The store's machine index, kept under `<root>/index/`:
///
///   snapshot.bin  every record, sorted by key, in the binary form of index_snapshot.hpp; replaced
///                 atomically, only by compaction and rebuild.
///   journal.tsv   `starling-index-journal<TAB>2`, then records appended as memories change
///                 (upserts and `D` removals). Replaying a journal on a snapshot that already
///                 contains it gives the same result, so a crash between writing a new snapshot and
///                 resetting the journal is harmless.
///
/// The index is a cache of the memory files, never the truth: every entry carries the stamp of the
/// file version it describes, and the store re-reads any file whose stamp differs. Reading needs no
/// lock (snapshots are replaced atomically and a journal line is only used once its '\n' is there);
/// every change happens under the store lock. The in-memory copy is loaded lazily and then kept up
/// to date by reading only the journal's new bytes.
///
/// Records are read in place: the snapshot's bytes are kept, and each record is a set of views into
/// them (a hook lists every memory, and decoding text records into strings of their own was most of
/// the cost of loading). The journal's records override the snapshot's, by key.
///
/// Every hook decodes the whole journal, line by line, at several times the cost per byte of the
/// snapshot; so the journal is compacted once it outgrows this fraction of the snapshot. At 10,000
/// memories a journal of half the snapshot (the first rule) added 1.2 ms to a 7.5 ms session start.
inline constexpr std::uint64_t journal_snapshot_ratio = 32;

class MachineIndex {
public:
    enum class State {
        current, ///< the in-memory copy matches the files
        missing, ///< there is no snapshot yet
        garbled, ///< a line could not be decoded; only a rebuild helps
    };

    explicit MachineIndex(std::filesystem::path directory);

    /// Brings the in-memory copy up to date with the files.
    [[nodiscard]] State refresh();

    /// Identifies what the index files hold now, without loading them: the snapshot's checksum and
    /// size (from its header) and the journal's inode, size and modification time. Any change to the
    /// index — an appended record, a compaction, a rebuild — gives a new version; reading it costs
    /// an open, a 32-byte read and a stat. Nothing when there is no readable snapshot.
    [[nodiscard]] std::optional<std::string> version() const;

    /// The entry or unreadable file of `key`, or nullptr. Valid until the next call of a non-const
    /// member; the texts it points to live as long as storage().
    [[nodiscard]] const IndexRecordView *find(std::string_view key) const;

    /// At least as many records as for_each() visits: enough to size a listing up front.
    [[nodiscard]] std::size_t record_bound() const noexcept {
        return storage_->snapshot_records.size() + journaled_.size();
    }

    /// Whether `record` (one for_each() visited) is one of the snapshot's, which live in storage():
    /// a pointer to it stays valid as long as storage() does. A journal record does not: the next
    /// refresh may replace it.
    [[nodiscard]] bool lives_in_storage(const IndexRecordView &record) const noexcept {
        const auto &records = storage_->snapshot_records;
        return !records.empty() && std::less_equal<>{}(records.data(), &record) &&
               std::less<>{}(&record, records.data() + records.size());
    }

    /// Calls `visit(const IndexRecordView &)` for every entry and unreadable file, in key order.
    template <class Visit>
    void for_each(Visit &&visit) const {
        for_each_with_prefix({}, std::forward<Visit>(visit));
    }

    /// Calls `visit(const IndexRecordView &)` for every entry and unreadable file whose key starts
    /// with `prefix`, in key order. A scope's memories, and a tier's of a scope, are one range of
    /// keys ("memory/projects/<id>/"), and the snapshot's records are sorted by key: a hook that
    /// lists one project passes over only its records, not every other project's.
    template <class Visit>
    void for_each_with_prefix(std::string_view prefix, Visit &&visit) const {
        std::vector<const IndexRecordView *> changed;
        for (const auto &[key, record] : journaled_) {
            if (key.starts_with(prefix)) {
                changed.push_back(&record);
            }
        }
        std::sort(changed.begin(), changed.end(), [](const IndexRecordView *left, const IndexRecordView *right) {
            return left->memory.key < right->memory.key;
        });
        const auto &records = storage_->snapshot_records;
        const auto key_before = [](const IndexRecordView &record, std::string_view key) {
            return record.memory.key < key;
        };
        auto next = std::lower_bound(records.begin(), records.end(), prefix, key_before);
        const auto end = std::partition_point(
            next, records.end(), [&](const IndexRecordView &record) { return record.memory.key.starts_with(prefix); });
        const auto visit_snapshot = [&](auto from, auto to) {
            for (; from != to; ++from) {
                visit(*from);
            }
        };
        // The snapshot's records are visited from one journal record to the next without comparing
        // their keys: the journal holds a few hundred records at most, the snapshot thousands.
        for (const IndexRecordView *journaled : changed) {
            const auto at = std::lower_bound(next, end, journaled->memory.key, key_before);
            visit_snapshot(next, at);
            if (journaled->kind != IndexRecordView::Kind::removal) {
                visit(*journaled);
            }
            next = at != end && at->memory.key == journaled->memory.key ? std::next(at) : at;
        }
        visit_snapshot(next, end);
    }

    /// Keeps the texts of every record handed out so far alive, whatever the index does next.
    [[nodiscard]] std::shared_ptr<const void> storage() const noexcept { return storage_; }

    /// [store lock held] Appends records to the journal. A journal line left half-written by a crashed
    /// writer is cut off first. The in-memory copy picks the records up on the next refresh.
    void append(const std::vector<IndexRecord> &records);

    /// [store lock held] Whether the journal has grown past max(threshold, the snapshot's size /
    /// journal_snapshot_ratio).
    [[nodiscard]] bool compaction_due(std::uint64_t threshold_bytes) const;

    /// [store lock held, refresh() returned current] Folds the journal into a new snapshot.
    void compact();

    /// [store lock held] Replaces the whole index (rebuild).
    void replace(const std::vector<IndexEntry> &entries, const std::vector<UnreadableMemory> &unreadable);

    /// [store lock held, refresh() returned current] Writes a new snapshot of the index with `records`
    /// applied (and the journal folded in), instead of appending them: for a batch that would make
    /// a compaction due at once, whose records would otherwise be encoded as journal lines, decoded
    /// again and compacted.
    void fold(const std::vector<IndexRecord> &records);

private:
    enum class Load { done, retry, missing, garbled };

    /// The text every view points into, and the snapshot's records. Shared with the listings handed
    /// out, so that replacing the index never pulls text or records from under them; once decoded,
    /// the records never change (a new snapshot gets a new Storage).
    struct Storage {
        /// The snapshot's bytes: its file mapped, or as this process encoded them when it wrote the
        /// snapshot.
        FileBytes snapshot;
        std::deque<std::string> journal_chunks;
        UnescapedFields unescaped;
        /// Entries and unreadable files of the snapshot, sorted by key.
        std::vector<IndexRecordView> snapshot_records;
    };

    Load load_snapshot();
    Load load_journal();
    /// Decodes a snapshot, whose bytes the storage holds, into the storage's records (after forget()).
    Load adopt_snapshot(std::string_view bytes);
    /// Sorts `records` by key, writes them as the snapshot with an empty journal and loads it.
    void publish(std::vector<IndexRecordView> records);
    /// Writes `bytes` as the snapshot and an empty journal, and records their stamps.
    void write_snapshot_and_reset_journal(const std::string &bytes);
    void forget();

    std::filesystem::path directory_;
    std::filesystem::path snapshot_path_;
    std::filesystem::path journal_path_;

    bool loaded_ = false;
    std::optional<FileStamp> snapshot_stamp_;
    std::optional<std::uint64_t> journal_inode_;
    std::uint64_t journal_offset_ = 0;
    std::shared_ptr<Storage> storage_;
    /// The journal's last record of each key, removals included; they override the snapshot.
    std::unordered_map<std::string_view, IndexRecordView> journaled_;
};

} // namespace starling::core::detail
