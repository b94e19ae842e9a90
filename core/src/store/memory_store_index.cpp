// SPDX-License-Identifier: Apache-2.0
#include "store/memory_files.hpp"
#include "store/store_internals.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/index/index_markdown.hpp>
#include <starling/core/io/store_error.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <system_error>
#include <unordered_set>

namespace starling::core {
namespace {

/// Deletes write_file_atomically's leftovers under `directory`: temporary files, and the staging
/// folders of write_files_atomically with what they hold. Only called under the store lock, when no
/// writer of this store can be between its temporary write and its rename.
std::size_t remove_temp_files(const std::filesystem::path &directory) {
    std::size_t removed = 0;
    std::error_code error;
    std::filesystem::recursive_directory_iterator walk(directory, error);
    if (error) {
        return 0;
    }
    for (auto end = std::filesystem::recursive_directory_iterator(); walk != end; walk.increment(error)) {
        if (error) {
            throw StoreError(directory.string() +
                             ": cannot scan for stale temporary files: " + error.message());
        }
        const std::string name = walk->path().filename().string();
        if (!is_atomic_write_temp_name(name)) {
            continue;
        }
        const bool folder = walk->is_directory(error);
        if (!folder && !walk->is_regular_file(error)) {
            continue;
        }
        if (folder) {
            walk.disable_recursion_pending();
        }
        std::error_code remove_error;
        fault_point(FaultStep::unlink);
        if (std::filesystem::remove_all(walk->path(), remove_error) > 0) {
            ++removed;
        } else if (remove_error) {
            throw StoreError(walk->path().string() + ": cannot remove stale temporary " +
                             (folder ? "folder: " : "file: ") + remove_error.message());
        }
    }
    return removed;
}

/// What the key of every memory the filter's scope and tier cover starts with: the range of the
/// index a listing needs to pass over ("" without a scope: all of it).
std::string covered_key_prefix(const ListFilter &filter) {
    if (!filter.scope) {
        return {};
    }
    return filter.tier ? memory_key(*filter.scope, *filter.tier, {}) : filter.scope->directory() + '/';
}

/// Whether the filter's scope and tier cover `memory` (its type aside), one of covered_key_prefix(filter)'s
/// range of the index. The keys there name the filter's scope, and its tier when it has one, so only
/// a tier without a scope is left to compare.
bool covered_in_range(const ListFilter &filter, const IndexedMemory &memory) {
    return filter.scope || !filter.tier || *filter.tier == memory.tier;
}

/// Whether the filter lists `record`, one of covered_key_prefix(filter)'s range of the index.
bool entry_matches(const ListFilter &filter, const detail::IndexRecordView &record) {
    return record.kind == detail::IndexRecordView::Kind::entry && covered_in_range(filter, record.memory) &&
           (!filter.type || *filter.type == record.memory.type);
}

/// Where a write that changed no text says which earlier version of the store has the same texts as
/// the current one: the current version on the first line, the earlier one on the second. It speaks
/// only for the version on its first line, so any other write makes it silent.
std::filesystem::path same_texts_path(const std::filesystem::path &root) { return root / "index" / "same-texts"; }

/// The earlier version with the same texts as `version`, as recorded; nothing if none is.
std::optional<std::string> recorded_same_texts(const std::filesystem::path &root, const std::string &version) {
    const auto content = read_file_if_exists(same_texts_path(root), 4096);
    if (!content) {
        return std::nullopt;
    }
    const auto line_end = content->find('\n');
    if (line_end == std::string::npos || content->compare(0, line_end, version) != 0) {
        return std::nullopt;
    }
    std::string earlier = content->substr(line_end + 1);
    if (!earlier.empty() && earlier.back() == '\n') {
        earlier.pop_back();
    }
    if (earlier.empty() || earlier.find('\n') != std::string::npos) {
        return std::nullopt;
    }
    return earlier;
}

/// The machine index's version; nothing when it cannot be read (a listing rebuilds it).
std::optional<std::string> version_if_readable(const detail::MachineIndex &index) noexcept {
    try {
        return index.version();
    } catch (...) {
        return std::nullopt;
    }
}

/// A memory's extra fields without those that count its uses, which a relevance index never reads.
std::string fields_but_uses(std::string_view fields) {
    if (fields.empty()) {
        return "{}";
    }
    auto json = nlohmann::json::parse(fields, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return std::string{fields};
    }
    for (const char *use : {"injection_count", "last_injected", "applied_batch"}) {
        json.erase(use);
    }
    return json.dump();
}

/// Whether `after` says all that `before` says of what a relevance index is built from — its id,
/// type, summary, tags, body, links and supersession — so that only its uses, review or pinning
/// changed.
bool same_texts(const IndexedMemory &before, const IndexEntry &after) {
    JoinedLists joined;
    const IndexedMemory now = view_of(after, joined);
    return before.id == now.id && before.type == now.type && before.summary == now.summary &&
           before.tags == now.tags && before.body_excerpt == now.body_excerpt &&
           before.superseded_by == now.superseded_by && before.created == now.created &&
           (before.fields == now.fields || fields_but_uses(before.fields) == fields_but_uses(now.fields));
}

} // namespace

std::optional<std::string> MemoryStore::Internals::version_if_same_texts(
    const std::vector<detail::IndexRecord> &records) {
    try {
        if (records.empty() || index.refresh() != detail::MachineIndex::State::current) {
            return std::nullopt;
        }
        for (const detail::IndexRecord &record : records) {
            const auto *entry = std::get_if<IndexEntry>(&record);
            const detail::IndexRecordView *known = entry == nullptr ? nullptr : index.find(entry->key);
            if (known == nullptr || known->kind != detail::IndexRecordView::Kind::entry ||
                !same_texts(known->memory, *entry)) {
                return std::nullopt;
            }
        }
    } catch (const StoreError &) {
        return std::nullopt;
    }
    return version_if_readable(index);
}

void MemoryStore::Internals::note_same_texts(const std::string &version_before) {
    const std::optional<std::string> version_after = version_if_readable(index);
    if (!version_after || *version_after == version_before) {
        return;
    }
    try {
        const std::string earliest = recorded_same_texts(root, version_before).value_or(version_before);
        write_file_atomically(same_texts_path(root), *version_after + "\n" + earliest + "\n",
                              Durability::survives_crash);
    } catch (const StoreError &) {
        // Lost, a hook scores a listing until the relevance index is rebuilt: slower, never wrong.
    }
}

void MemoryStore::Internals::record(const std::vector<detail::IndexRecord> &records) {
    // Under the store lock: nothing else writes between the two versions compared.
    const auto unchanged_texts = version_if_same_texts(records);
    append_records(records);
    if (unchanged_texts) {
        note_same_texts(*unchanged_texts);
    }
}

void MemoryStore::Internals::append_records(const std::vector<detail::IndexRecord> &records) {
    // A batch as large as a compaction's share of the index (a fresh home's pull: the whole index)
    // goes straight into a new snapshot: journaling it would only make a compaction due at once.
    constexpr std::size_t fold_at_least = 256;
    if (records.size() >= fold_at_least && index.refresh() == detail::MachineIndex::State::current &&
        records.size() * detail::journal_snapshot_ratio >= index.record_bound()) {
        index.fold(records);
        return;
    }
    index.append(records);
    if (!index.compaction_due(options.index_journal_compaction_bytes)) {
        return;
    }
    if (index.refresh() == detail::MachineIndex::State::current) {
        index.compact();
    } else {
        static_cast<void>(rebuild());
    }
}

IndexRebuildReport MemoryStore::Internals::rebuild() {
    IndexRebuildReport report;
    for (const char *directory : {"memory", "index", "archive"}) {
        report.removed_temp_files += remove_temp_files(root / directory);
    }
    std::vector<IndexEntry> entries;
    skipped_folders.clear();
    for (const detail::FoundMemoryFile &file : detail::find_memory_files(root, {}, skipped_folders)) {
        detail::IndexRecord record = describe_file(file.key, location_of(file.key));
        if (auto *entry = std::get_if<IndexEntry>(&record)) {
            entries.push_back(std::move(*entry));
        } else if (auto *unreadable = std::get_if<UnreadableMemory>(&record)) {
            report.unreadable.push_back(std::move(*unreadable));
        }
    }
    report.memories = entries.size();
    std::sort(
        report.unreadable.begin(), report.unreadable.end(),
        [](const UnreadableMemory &left, const UnreadableMemory &right) { return left.key < right.key; });
    index.replace(std::move(entries), report.unreadable);
    return report;
}

void MemoryStore::Internals::refresh(const ListFilter &filter, bool lock_held) {
    std::optional<FileLock> guard;
    const auto hold_lock = [&] {
        if (!lock_held && !guard) {
            guard.emplace(lock());
        }
    };

    detail::MachineIndex::State state = index.refresh();
    if (state != detail::MachineIndex::State::current) {
        std::error_code error;
        const bool nothing_to_index = state == detail::MachineIndex::State::missing &&
                                      !std::filesystem::exists(root / "memory", error) && !error;
        if (nothing_to_index) {
            return;
        }
        hold_lock();
        // Several processes may have found the index damaged at once; the first one to get the lock
        // rebuilds it and the others just read the result.
        state = index.refresh();
        if (state != detail::MachineIndex::State::current) {
            static_cast<void>(rebuild());
            return;
        }
    }

    // Files are matched against the index by stamp alone; only the ones that differ are read.
    skipped_folders.clear();
    const std::vector<detail::FoundMemoryFile> files = detail::find_memory_files(root, filter, skipped_folders);
    std::vector<const detail::FoundMemoryFile *> changed;
    std::size_t known_files = 0;
    for (const detail::FoundMemoryFile &file : files) {
        const detail::IndexRecordView *record = index.find(file.key);
        known_files += record != nullptr ? 1 : 0;
        if (record == nullptr || !(record->memory.file == file.stamp)) {
            changed.push_back(&file);
        }
    }
    // Every known file that was found is a covered index record, so equal counts mean that no
    // covered record lost its file; only otherwise is it worth finding out which ones did.
    const std::string covered_prefix = covered_key_prefix(filter);
    std::size_t covered_records = 0;
    index.for_each_with_prefix(covered_prefix, [&](const detail::IndexRecordView &record) {
        covered_records += covered_in_range(filter, record.memory) ? 1 : 0;
    });
    std::vector<std::string> vanished;
    if (covered_records != known_files) {
        std::unordered_set<std::string_view> found_keys;
        found_keys.reserve(files.size());
        for (const detail::FoundMemoryFile &file : files) {
            found_keys.insert(file.key);
        }
        index.for_each_with_prefix(covered_prefix, [&](const detail::IndexRecordView &record) {
            if (!found_keys.contains(record.memory.key) && covered_in_range(filter, record.memory)) {
                vanished.emplace_back(record.memory.key);
            }
        });
    }
    if (changed.empty() && vanished.empty()) {
        return;
    }
    try {
        hold_lock();
    } catch (const StoreNotWritable &) {
        return; // a store this process may only read: listed as the last writer indexed it
    }
    std::vector<detail::IndexRecord> records;
    records.reserve(changed.size() + vanished.size());
    for (const detail::FoundMemoryFile *file : changed) {
        records.push_back(describe_file(file->key, location_of(file->key)));
    }
    for (const std::string &key : vanished) {
        records.push_back(describe_file(key, location_of(key)));
    }
    record(records);
    if (index.refresh() != detail::MachineIndex::State::current) {
        static_cast<void>(rebuild());
    }
}

std::vector<IndexEntry> MemoryStore::list(const ListFilter &filter) {
    internals_->refresh(filter, false);
    return internals_->indexed_entries(filter);
}

IndexedMemories MemoryStore::list_in_place(const ListFilter &filter) {
    internals_->refresh(filter, false);
    return internals_->indexed_memories(filter);
}

std::optional<std::string> MemoryStore::index_version() const { return internals_->index.version(); }

std::optional<std::string> MemoryStore::earlier_version_with_same_texts(const std::string &version) const {
    return recorded_same_texts(internals_->root, version);
}

IndexedMemories MemoryStore::list_indexed(const ListFilter &filter) {
    if (internals_->index.refresh() != detail::MachineIndex::State::current) {
        internals_->refresh(filter, false);
    }
    return internals_->indexed_memories(filter);
}

IndexedMemories MemoryStore::Internals::indexed_memories(const ListFilter &filter) const {
    std::vector<const IndexedMemory *> memories;
    // Sized for the whole index, so that a listing never reallocates (each growth of a large vector
    // touches fresh pages), and a second scope appended to it usually fits; untouched capacity costs
    // address space, not memory.
    memories.reserve(index.record_bound());
    // The journal's records are copied (the next refresh may replace them); they are few, since
    // every compaction folds them into the snapshot.
    auto journaled = std::make_shared<std::deque<IndexedMemory>>();
    index.for_each_with_prefix(covered_key_prefix(filter), [&](const detail::IndexRecordView &record) {
        if (!entry_matches(filter, record)) {
            return;
        }
        memories.push_back(index.lives_in_storage(record) ? &record.memory : &journaled->emplace_back(record.memory));
    });
    return IndexedMemories{{index.storage(), std::move(journaled)}, std::move(memories)};
}

std::vector<IndexEntry> MemoryStore::Internals::indexed_entries(const ListFilter &filter) const {
    std::vector<IndexEntry> entries;
    index.for_each_with_prefix(covered_key_prefix(filter), [&](const detail::IndexRecordView &record) {
        if (entry_matches(filter, record)) {
            entries.push_back(to_index_entry(record.memory));
        }
    });
    return entries;
}

std::vector<SkippedFolder> MemoryStore::skipped_folders() const { return internals_->skipped_folders; }

std::vector<UnreadableMemory> MemoryStore::unreadable() {
    internals_->refresh({}, false);
    std::vector<UnreadableMemory> files;
    internals_->index.for_each([&](const detail::IndexRecordView &record) {
        if (record.kind == detail::IndexRecordView::Kind::unreadable) {
            files.push_back(std::get<UnreadableMemory>(detail::to_index_record(record)));
        }
    });
    return files;
}

IndexRebuildReport MemoryStore::rebuild_index() {
    const FileLock guard = internals_->lock();
    return internals_->rebuild();
}

void MemoryStore::write_index_markdown(const Scope &scope) {
    const FileLock guard = internals_->lock();
    ListFilter filter;
    filter.scope = scope;
    filter.tier = Tier::long_term;
    internals_->refresh(filter, true);

    std::vector<std::pair<std::string_view, std::string_view>> memories; // file name, summary
    internals_->index.for_each_with_prefix(covered_key_prefix(filter), [&](const detail::IndexRecordView &record) {
        if (entry_matches(filter, record)) {
            const std::string_view key = record.memory.key;
            memories.emplace_back(key.substr(key.rfind('/') + 1), record.memory.summary);
        }
    });
    std::sort(memories.begin(), memories.end());
    std::string markdown = "# Memory Index\n\n";
    for (const auto &[file_name, summary] : memories) {
        markdown += index_markdown_line(summary, file_name);
        markdown += '\n';
    }
    const std::filesystem::path directory = internals_->absolute(scope.directory());
    // Every consolidation asks for it; a durable rewrite of an unchanged file is an fsync for nothing.
    if (read_file_if_exists(directory / "INDEX.md") == markdown) {
        return;
    }
    ensure_directories_beneath(internals_->root, directory);
    write_file_atomically(directory / "INDEX.md", markdown);
}

} // namespace starling::core
