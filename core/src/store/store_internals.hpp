// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/index/access_journal.hpp"
#include "store/archive_manifest.hpp"
#include "store/index/index_record.hpp"
#include "store/index/machine_index.hpp"
#include "store/merge_intent.hpp"

#include <starling/core/io/file_lock.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/provenance.hpp>

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starling::core {

/// The state and shared helpers behind MemoryStore; its public functions are spread over
/// memory_store*.cpp by topic. Functions marked [locked] require the caller to hold the store lock.
struct MemoryStore::Internals {
    Internals(std::filesystem::path store_root, const Clock &store_clock, StoreOptions store_options);

    std::filesystem::path root;
    const Clock *clock;
    StoreOptions options;
    detail::MachineIndex index;
    detail::ArchiveManifest manifest;
    detail::AccessJournal accesses;
    detail::MergeIntents merges;
    std::vector<SkippedFolder> skipped_folders; ///< by the last listing of memory files

    /// Takes the store lock, creating the root directory if needed.
    [[nodiscard]] FileLock lock() const;

    /// root / relative
    [[nodiscard]] std::filesystem::path absolute(std::string_view relative) const;

    /// The parts of `key`; throws StoreError if it is not a memory key.
    [[nodiscard]] MemoryLocation location_of(std::string_view key) const;

    /// [locked] The first of `<stem>.md`, `<stem>_2.md`, ... that is free in `directory`.
    [[nodiscard]] std::string free_file_name(const std::filesystem::path &directory,
                                             std::string_view stem) const;

    /// [locked] An id for a new memory that no memory in the index has: derive_memory_id's first
    /// choice for it, or the next attempt while that is taken.
    [[nodiscard]] std::string free_memory_id(const Memory &memory);

    /// The index entry for a memory just written (stat'ed, not re-read).
    [[nodiscard]] IndexEntry entry_for(const std::string &key, const MemoryLocation &location,
                                       const Memory &memory) const;
    /// The same, with the stamp its writer took from the file's descriptor.
    [[nodiscard]] IndexEntry entry_for(const std::string &key, const MemoryLocation &location, const Memory &memory,
                                       const FileStamp &stamp) const;

    /// [locked] What the index should say about a file on disk: reads and parses it.
    [[nodiscard]] detail::IndexRecord describe_file(const std::string &key,
                                                    const MemoryLocation &location) const;

    /// [locked] Reads the memory at `key`, lets `mutate` change it, writes it back if it changed and
    /// records it in the index. Throws StoreError if there is no such memory.
    Memory update_locked(std::string_view key, const std::function<void(Memory &)> &mutate);

    /// [locked] Appends records to the index journal, compacting it when it has grown enough. When
    /// they change no text a relevance index reads (only uses, review, pinning), records that the new
    /// version has the texts of the one before (MemoryStore::earlier_version_with_same_texts).
    void record(const std::vector<detail::IndexRecord> &records);
    /// [locked] record() without the note of unchanged texts.
    void append_records(const std::vector<detail::IndexRecord> &records);
    /// [locked] The index's version before `records` are appended, when none of them changes what a
    /// relevance index reads of its memory; nothing otherwise.
    [[nodiscard]] std::optional<std::string> version_if_same_texts(const std::vector<detail::IndexRecord> &records);
    /// [locked] After records that changed no text: the current version has those of `version_before`.
    void note_same_texts(const std::string &version_before);

    /// Records `event`, dated now, in the history of the memory with id `memory_id` (provenance.hpp),
    /// failing open: a history that cannot be written never fails what it describes.
    void note_provenance(std::string_view memory_id, ProvenanceEvent event) const noexcept;
    /// As note_provenance, for the memory whose file holds `file_content`; nothing for a file that
    /// does not parse, which has no id to record it under.
    void note_provenance_of_file(std::string_view file_content, ProvenanceEvent event) const noexcept;

    /// [locked] MemoryStore::archive.
    ArchiveEntry archive_locked(std::string_view key, std::string_view reason);

    /// [locked] The last step of an archive: removes the original the manifest entry was made for.
    void remove_archived_original(const ArchiveEntry &entry);

    /// What is at the original key of an archive entry not restored, when it holds the entry's
    /// copy byte for byte: the original of an archive that died before removing it, or a restored
    /// memory whose restore died before recording itself (written after the copy).
    enum class LeftOriginal { none, archive_unfinished, restore_unrecorded };
    [[nodiscard]] LeftOriginal left_original(const ArchiveEntry &entry) const;

    /// [locked] Finishes the archive of `key` that a process died in after recording it
    /// (LeftOriginal::archive_unfinished): removes the file at `key` and returns the entry.
    /// Nothing when there is no such entry.
    std::optional<ArchiveEntry> finish_archive_locked(std::string_view key);

    /// [locked] Finishes every merge whose process died (see MergeIntents): folds the absorbed memory
    /// in unless the kept one lists it in `merged_from`, archives it unless that is done, and removes
    /// the intent. Returns a line for each, for people.
    std::vector<std::string> finish_merges_locked();

    /// [locked] Rebuilds the index from the files and removes stale temporary files.
    IndexRebuildReport rebuild();

    /// Memories read (MemoryStore::read), each with the stamp of the file it was parsed from: a
    /// process that keeps the store open (the resident hook process, `starling mcp`, `starling ui`)
    /// reads a memory a prompt injects again only when its file changed, which a stat tells. A
    /// memory is replaced by renaming a new file over it, so a new inode; a link put in its place
    /// has a stamp of its own. Bounded: emptied when full.
    struct ReadMemories {
        static constexpr std::size_t capacity = 2048;
        std::mutex mutex;
        std::unordered_map<std::string, std::pair<FileStamp, Memory>> by_key;
    };
    mutable ReadMemories read_memories;

    /// The index entries that match `filter`, sorted by key, as the index has them now.
    [[nodiscard]] std::vector<IndexEntry> indexed_entries(const ListFilter &filter) const;
    [[nodiscard]] IndexedMemories indexed_memories(const ListFilter &filter) const;

    /// Brings the index up to date with the files that `filter` selects (see MemoryStore::list).
    /// Takes the lock for any change unless `lock_held`.
    void refresh(const ListFilter &filter, bool lock_held);
};

} // namespace starling::core
