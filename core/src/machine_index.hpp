// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "index_record.hpp"

#include <starling/core/file_io.hpp>
#include <starling/core/index_entry.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace starling::core::detail {

/// The store's machine index, kept under `<root>/index/`:
///
///   snapshot.tsv  `starling-index<TAB>1`, then one record per memory (see encode_index_record);
///                 replaced atomically, only by compaction and rebuild.
///   journal.tsv   `starling-index-journal<TAB>1`, then records appended as memories change
///                 (upserts and `D` removals). Replaying a journal on a snapshot that already
///                 contains it gives the same result, so a crash between writing a new snapshot and
///                 resetting the journal is harmless.
///
/// The index is a cache of the memory files, never the truth: every entry carries the stamp of the
/// file version it describes, and the store re-reads any file whose stamp differs. Reading needs no
/// lock (snapshots are replaced atomically and a journal line is only used once its '\n' is there);
/// every change happens under the store lock. The in-memory copy is loaded lazily and then kept up
/// to date by reading only the journal's new bytes.
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

    [[nodiscard]] const std::unordered_map<std::string, IndexEntry> &entries() const noexcept {
        return entries_;
    }
    [[nodiscard]] const std::unordered_map<std::string, UnreadableMemory> &unreadable() const noexcept {
        return unreadable_;
    }

    /// [store lock held] Appends records to the journal. A journal line left half-written by a crashed
    /// writer is cut off first. The in-memory copy picks the records up on the next refresh.
    void append(const std::vector<IndexRecord> &records);

    /// [store lock held] Whether the journal has grown past max(threshold, half the snapshot).
    [[nodiscard]] bool compaction_due(std::uint64_t threshold_bytes) const;

    /// [store lock held, refresh() returned current] Folds the journal into a new snapshot.
    void compact();

    /// [store lock held] Replaces the whole index (rebuild).
    void replace(std::vector<IndexEntry> entries, std::vector<UnreadableMemory> unreadable);

private:
    enum class Load { done, retry, missing, garbled };

    Load load_snapshot();
    Load load_journal();
    void apply(IndexRecord record);
    void write_snapshot_and_reset_journal();
    void forget() noexcept;

    std::filesystem::path directory_;
    std::filesystem::path snapshot_path_;
    std::filesystem::path journal_path_;

    bool loaded_ = false;
    std::optional<FileStamp> snapshot_stamp_;
    std::optional<std::uint64_t> journal_inode_;
    std::uint64_t journal_offset_ = 0;
    std::unordered_map<std::string, IndexEntry> entries_;
    std::unordered_map<std::string, UnreadableMemory> unreadable_;
};

} // namespace starling::core::detail
