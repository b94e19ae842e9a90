// SPDX-License-Identifier: Apache-2.0
#include "io/random_hex.hpp"
#include "store/store_internals.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace starling::core {
namespace {

} // namespace

ArchiveEntry MemoryStore::archive(std::string_view key, std::string_view reason) {
    static_cast<void>(internals_->location_of(key));
    const FileLock guard = internals_->lock();
    return internals_->archive_locked(key, reason);
}

ArchiveEntry MemoryStore::Internals::archive_locked(std::string_view key, std::string_view reason) {
    const std::filesystem::path source = absolute(key);
    const std::optional<std::string> content = read_file_if_exists(source);
    if (!content) {
        throw StoreError(source.string() + ": no such memory");
    }
    ArchiveEntry entry;
    entry.original_key = std::string(key);
    entry.reason = std::string(reason);
    entry.archived_at = clock->now();
    const std::string time_prefix = format_compact_timestamp(entry.archived_at) + "-";
    while (true) {
        entry.id = time_prefix + detail::random_hex(6);
        std::error_code error;
        const bool taken = std::filesystem::exists(root / "archive" / entry.id, error);
        if (error) {
            throw StoreError((root / "archive" / entry.id).string() + ": " + error.message());
        }
        if (!taken) {
            break;
        }
    }
    entry.archived_path = "archive/" + entry.id + "/" + entry.original_key;

    const std::filesystem::path copy = absolute(entry.archived_path);
    ensure_directories_beneath(root, copy.parent_path());
    write_file_atomically(copy, *content);
    // The copy's new folders must outlive a crash too, before the original may go.
    const std::filesystem::path relative_copy(entry.archived_path);
    std::filesystem::path directory = copy.parent_path();
    for (auto depth = std::distance(relative_copy.begin(), relative_copy.end()) - 1; depth > 0; --depth) {
        directory = directory.parent_path();
        fsync_directory(directory);
    }
    manifest.record_archive(entry);
    remove_archived_original(entry);
    ProvenanceEvent event;
    event.kind = ProvenanceKind::archived;
    event.reason = entry.reason;
    event.other = entry.id;
    note_provenance_of_file(*content, std::move(event));
    return entry;
}

void MemoryStore::Internals::remove_archived_original(const ArchiveEntry &entry) {
    const std::filesystem::path source = absolute(entry.original_key);
    fault_point(FaultStep::unlink);
    if (::unlink(source.c_str()) != 0) {
        throw_system_error(source, "archived as " + entry.id + ", but cannot remove the original", errno);
    }
    fsync_directory(source.parent_path());
    record({detail::IndexRemoval{entry.original_key}});
}

MemoryStore::Internals::LeftOriginal MemoryStore::Internals::left_original(const ArchiveEntry &entry) const {
    if (entry.restored_key || !parse_memory_key(entry.original_key)) {
        return LeftOriginal::none;
    }
    const std::optional<StampedContent> original = read_stamped_file(absolute(entry.original_key));
    const std::optional<StampedContent> copy =
        original ? read_stamped_file(absolute(entry.archived_path)) : std::nullopt;
    if (!copy || copy->content != original->content) {
        return LeftOriginal::none;
    }
    // An archive writes its copy after the original's last change; a restore writes the original
    // after the copy. Timestamps too coarse to tell count as an archive: removing the original
    // then loses nothing, since the copy holds it and `restore` brings it back.
    return original->stamp.modified > copy->stamp.modified ? LeftOriginal::restore_unrecorded
                                                           : LeftOriginal::archive_unfinished;
}

std::optional<ArchiveEntry> MemoryStore::Internals::finish_archive_locked(std::string_view key) {
    if (!stamp_file(absolute(key))) {
        return std::nullopt;
    }
    for (const ArchiveEntry &entry : manifest.read()) {
        if (entry.original_key == key && left_original(entry) == LeftOriginal::archive_unfinished) {
            remove_archived_original(entry);
            return entry;
        }
    }
    return std::nullopt;
}

std::vector<ArchiveEntry> MemoryStore::archived() const { return internals_->manifest.read(); }

std::string MemoryStore::restore(std::string_view archive_id) {
    const FileLock guard = internals_->lock();
    const std::vector<ArchiveEntry> entries = internals_->manifest.read();
    const auto found = std::find_if(entries.begin(), entries.end(), [archive_id](const ArchiveEntry &entry) {
        return entry.id == archive_id;
    });
    if (found == entries.end()) {
        throw StoreError((internals_->root / "archive" / "MANIFEST.jsonl").string() +
                         ": no archive with id '" + std::string(archive_id) + "'");
    }
    if (found->restored_key) {
        throw StoreError("archive '" + found->id + "' was already restored to " + *found->restored_key);
    }
    const std::filesystem::path copy = internals_->absolute(found->archived_path);
    const std::string content = read_file(copy);
    const MemoryLocation location = internals_->location_of(found->original_key);
    const std::string directory_key =
        location.scope.directory() + "/" + std::string(to_string(location.tier));
    const std::filesystem::path directory = internals_->absolute(directory_key);
    ensure_directories_beneath(internals_->root, directory);

    std::string name = location.file_name;
    const std::optional<std::string> occupant = read_file_if_exists(directory / name);
    // The same bytes already at the original key mean an earlier archive died before removing the
    // original; restoring then must not duplicate the memory.
    if (occupant && *occupant != content) {
        name = internals_->free_file_name(directory, name.substr(0, name.size() - 3));
    }
    const std::string key = directory_key + "/" + name;
    if (!occupant || *occupant != content) {
        write_file_atomically(directory / name, content);
    }
    internals_->manifest.record_restore(found->id, key, internals_->clock->now());
    internals_->record({internals_->describe_file(key, MemoryLocation{location.scope, location.tier, name})});
    ProvenanceEvent event;
    event.kind = ProvenanceKind::restored;
    event.reason = "restored to " + key;
    event.other = found->id;
    internals_->note_provenance_of_file(content, std::move(event));
    return key;
}

} // namespace starling::core
