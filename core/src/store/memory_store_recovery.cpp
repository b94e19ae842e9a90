// SPDX-License-Identifier: Apache-2.0
#include "store/store_internals.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <map>

namespace starling::core {
namespace {

namespace fs = std::filesystem;

std::string relative_to(const fs::path &root, const fs::path &path) {
    return path.lexically_relative(root).generic_string();
}

/// Every regular file under `directory`, symbolic links not followed; with `temporary_folders`,
/// also every folder with a temporary file's name (a staging folder), without what it holds.
std::vector<fs::path> files_under(const fs::path &directory, bool temporary_folders = false) {
    std::vector<fs::path> files;
    std::error_code error;
    fs::recursive_directory_iterator walk(directory, error);
    if (error) {
        return files; // no such folder: nothing left there
    }
    for (const auto end = fs::recursive_directory_iterator{}; walk != end; walk.increment(error)) {
        if (error) {
            throw StoreError(directory.string() + ": cannot look for leftovers: " + error.message());
        }
        const auto type = walk->symlink_status(error).type();
        if (type == fs::file_type::regular) {
            files.push_back(walk->path());
        } else if (temporary_folders && type == fs::file_type::directory &&
                   is_atomic_write_temp_name(walk->path().filename().string())) {
            walk.disable_recursion_pending();
            files.push_back(walk->path());
        }
    }
    return files;
}

/// The temporary files, and write_files_atomically's staging folders, that a dead writer left.
std::vector<fs::path> dead_writers_temp_files(const fs::path &root) {
    std::vector<fs::path> found;
    for (const char *directory : {"memory", "index", "archive", "sessions"}) {
        for (fs::path &file : files_under(root / directory, true)) {
            if (is_dead_writers_temp_name(file.filename().string())) {
                found.push_back(std::move(file));
            }
        }
    }
    return found;
}

/// A copy under archive/<id>/<key> whose id the manifest does not know.
struct UnrecordedCopy {
    std::string id;
    std::string key;
    fs::path path;
};

std::vector<UnrecordedCopy> unrecorded_copies(const fs::path &root, const std::vector<ArchiveEntry> &entries) {
    std::vector<UnrecordedCopy> found;
    const fs::path archive = root / "archive";
    for (fs::path &file : files_under(archive)) {
        const fs::path relative = file.lexically_relative(archive);
        if (std::distance(relative.begin(), relative.end()) < 2 || is_atomic_write_temp_name(file.filename().string())) {
            continue; // the manifest itself, or a temporary file (removed as one)
        }
        const std::string id = relative.begin()->string();
        const bool recorded = std::any_of(entries.begin(), entries.end(),
                                          [&](const ArchiveEntry &entry) { return entry.id == id; });
        if (!recorded) {
            found.push_back({id, relative_to(archive / id, file), std::move(file)});
        }
    }
    return found;
}

/// The append-only files whose writers hold the store's lock, and cut a torn tail off themselves.
std::vector<fs::path> locked_appended_files(const fs::path &root) {
    return {root / "archive" / "MANIFEST.jsonl", root / "index" / "journal.tsv"};
}

/// The append-only files written without the store's lock, each append on a fresh line after a torn
/// tail: the noted uses, and each session's log and state.
std::vector<fs::path> freely_appended_files(const fs::path &root) {
    std::vector<fs::path> files{root / "index" / "accesses.tsv"};
    std::error_code error;
    for (const auto &entry : fs::directory_iterator{root / "sessions", error}) {
        if (entry.path().extension() == ".jsonl" && entry.is_regular_file(error) && !entry.is_symlink(error)) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin() + 1, files.end());
    return files;
}

bool ends_with_torn_line(const fs::path &file) {
    const int descriptor = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (descriptor < 0) {
        return false; // no such file: nothing torn
    }
    const bool torn = ends_mid_line(descriptor);
    ::close(descriptor);
    return torn;
}

/// The folders under archive/ that hold no file, however deep, deepest first.
std::vector<fs::path> empty_archive_folders(const fs::path &root) {
    std::vector<fs::path> folders;
    std::error_code error;
    fs::recursive_directory_iterator walk(root / "archive", error);
    for (const auto end = fs::recursive_directory_iterator{}; !error && walk != end; walk.increment(error)) {
        if (walk->symlink_status(error).type() == fs::file_type::directory) {
            folders.push_back(walk->path());
        }
    }
    std::sort(folders.begin(), folders.end(), [](const fs::path &left, const fs::path &right) {
        return std::distance(left.begin(), left.end()) > std::distance(right.begin(), right.end());
    });
    std::vector<fs::path> empty;
    for (const auto &folder : folders) {
        bool holds_something = false;
        for (const auto &entry : fs::directory_iterator{folder, error}) {
            const bool empty_child = std::find(empty.begin(), empty.end(), entry.path()) != empty.end();
            holds_something = holds_something || !empty_child;
        }
        if (!holds_something && !error) {
            empty.push_back(folder);
        }
    }
    return empty;
}

/// Removes `file` and the folders above it up to `top` (included) that it leaves empty.
void remove_with_empty_folders(const fs::path &file, const fs::path &top) {
    fault_point(FaultStep::unlink);
    if (::unlink(file.c_str()) != 0 && errno != ENOENT) {
        throw_system_error(file, "cannot remove", errno);
    }
    for (fs::path folder = file.parent_path(); folder.string().size() >= top.string().size();
         folder = folder.parent_path()) {
        if (::rmdir(folder.c_str()) != 0) {
            break; // not empty: something else is archived there
        }
    }
}

} // namespace

std::string_view to_string(Leftover::Kind kind) noexcept {
    switch (kind) {
    case Leftover::Kind::temporary_file: return "temporary file";
    case Leftover::Kind::access_batch: return "access batch";
    case Leftover::Kind::merge_intent: return "merge intent";
    case Leftover::Kind::unfinished_archive: return "unfinished archive";
    case Leftover::Kind::unrecorded_restore: return "unrecorded restore";
    case Leftover::Kind::unrecorded_archive_copy: return "unrecorded archive copy";
    case Leftover::Kind::torn_tail: return "torn tail";
    case Leftover::Kind::empty_archive_folder: return "empty archive folder";
    }
    return "leftover";
}

std::vector<Leftover> MemoryStore::leftovers() {
    const fs::path &root = internals_->root;
    std::vector<Leftover> found;
    for (const fs::path &file : dead_writers_temp_files(root)) {
        found.push_back({Leftover::Kind::temporary_file, relative_to(root, file),
                         "left by a writer that died before renaming it"});
    }
    if (const fs::path batch = root / "index" / "accesses.tsv.applying"; stamp_file(batch)) {
        found.push_back({Leftover::Kind::access_batch, relative_to(root, batch),
                         "noted uses taken for applying and not finished (or being applied right now)"});
    }
    for (const detail::MergeIntent &intent : internals_->merges.read_all()) {
        found.push_back({Leftover::Kind::merge_intent, relative_to(root, internals_->merges.path_of(intent)),
                         "merge of " + intent.absorbed + " into " + intent.kept +
                             " not finished (or under way right now)"});
    }
    const std::vector<ArchiveEntry> entries = internals_->manifest.read();
    for (const ArchiveEntry &entry : entries) {
        switch (internals_->left_original(entry)) {
        case Internals::LeftOriginal::archive_unfinished:
            found.push_back({Leftover::Kind::unfinished_archive, entry.original_key,
                             "archived as " + entry.id + ", but the original was not removed"});
            break;
        case Internals::LeftOriginal::restore_unrecorded:
            found.push_back({Leftover::Kind::unrecorded_restore, entry.original_key,
                             "restored from " + entry.id + ", but the restore was not recorded"});
            break;
        case Internals::LeftOriginal::none: break;
        }
    }
    for (const UnrecordedCopy &copy : unrecorded_copies(root, entries)) {
        found.push_back({Leftover::Kind::unrecorded_archive_copy, relative_to(root, copy.path),
                         "an archive copy of " + copy.key + " that archive/MANIFEST.jsonl does not record"});
    }
    for (const auto &files : {locked_appended_files(root), freely_appended_files(root)}) {
        for (const fs::path &file : files) {
            if (ends_with_torn_line(file)) {
                found.push_back({Leftover::Kind::torn_tail, relative_to(root, file),
                                 "its last line has no end: an append cut short (or being written right now)"});
            }
        }
    }
    for (const fs::path &folder : empty_archive_folders(root)) {
        found.push_back({Leftover::Kind::empty_archive_folder, relative_to(root, folder), "holds no file"});
    }
    return found;
}

std::vector<Leftover> MemoryStore::repair_leftovers() {
    const fs::path &root = internals_->root;
    std::vector<Leftover> repaired;
    if (const fs::path batch = root / "index" / "accesses.tsv.applying"; stamp_file(batch)) {
        const std::size_t applied = apply_noted_accesses();
        repaired.push_back({Leftover::Kind::access_batch, relative_to(root, batch),
                            "applied " + std::to_string(applied) +
                                " noted use(s) not applied yet; memories that had theirs were left as they were"});
    }
    const FileLock guard = internals_->lock();
    for (std::string &line : internals_->finish_merges_locked()) {
        repaired.push_back({Leftover::Kind::merge_intent, "index/intents/", std::move(line)});
    }
    const std::vector<ArchiveEntry> entries = internals_->manifest.read();
    for (const ArchiveEntry &entry : entries) {
        switch (internals_->left_original(entry)) {
        case Internals::LeftOriginal::archive_unfinished:
            internals_->remove_archived_original(entry);
            repaired.push_back({Leftover::Kind::unfinished_archive, entry.original_key,
                                "removed: archived as " + entry.id + " with the same content"});
            break;
        case Internals::LeftOriginal::restore_unrecorded: {
            internals_->manifest.record_restore(entry.id, entry.original_key, internals_->clock->now());
            const MemoryLocation location = internals_->location_of(entry.original_key);
            internals_->record({internals_->describe_file(entry.original_key, location)});
            repaired.push_back({Leftover::Kind::unrecorded_restore, entry.original_key,
                                "recorded as restored from " + entry.id});
            break;
        }
        case Internals::LeftOriginal::none: break;
        }
    }
    for (const UnrecordedCopy &copy : unrecorded_copies(root, entries)) {
        const std::string path = relative_to(root, copy.path);
        const std::string content = read_file(copy.path);
        const bool live = parse_memory_key(copy.key) && read_file_if_exists(internals_->absolute(copy.key)) == content;
        const bool recorded = std::any_of(entries.begin(), entries.end(), [&](const ArchiveEntry &entry) {
            return entry.original_key == copy.key && read_file_if_exists(internals_->absolute(entry.archived_path)) == content;
        });
        if (live || recorded) {
            remove_with_empty_folders(copy.path, root / "archive" / copy.id);
            repaired.push_back({Leftover::Kind::unrecorded_archive_copy, path,
                                std::string{"removed: the same content is "} +
                                    (live ? "still the memory " + copy.key : "archived and recorded")});
        } else if (parse_memory_key(copy.key)) {
            ArchiveEntry entry;
            entry.id = copy.id;
            entry.original_key = copy.key;
            entry.reason = "recorded by starling doctor: found in the archive without a record";
            entry.archived_at = internals_->clock->now();
            internals_->manifest.record_archive(entry);
            repaired.push_back({Leftover::Kind::unrecorded_archive_copy, path,
                                "recorded in archive/MANIFEST.jsonl as " + copy.id + ": `starling restore " +
                                    copy.id + "` brings it back"});
        } else {
            repaired.push_back({Leftover::Kind::unrecorded_archive_copy, path,
                                "left as it is: its path names no memory, so it cannot be recorded"});
        }
    }
    for (const fs::path &file : dead_writers_temp_files(root)) {
        fault_point(FaultStep::unlink);
        std::error_code error;
        fs::remove_all(file, error);
        if (error && error != std::errc::no_such_file_or_directory) {
            throw StoreError(file.string() + ": cannot remove a dead writer's temporary file: " + error.message());
        }
        repaired.push_back({Leftover::Kind::temporary_file, relative_to(root, file), "removed"});
    }
    for (const fs::path &file : locked_appended_files(root)) {
        if (!ends_with_torn_line(file)) {
            continue;
        }
        // As the file's own writers do before they append, holding the same lock.
        const std::string content = read_file(file, std::uint64_t{1} << 30);
        const auto newline = content.rfind('\n');
        const auto kept = newline == std::string::npos ? 0 : newline + 1;
        if (::truncate(file.c_str(), static_cast<off_t>(kept)) != 0) {
            throw_system_error(file, "cannot cut off a torn line", errno);
        }
        repaired.push_back({Leftover::Kind::torn_tail, relative_to(root, file),
                            "cut off the " + std::to_string(content.size() - kept) + " byte(s) of its unfinished line"});
    }
    for (const fs::path &file : freely_appended_files(root)) {
        // Appended to without this lock: ending the line, with an append of its own, races with no one.
        if (ends_with_torn_line(file)) {
            append_to_file(file, "\n", /*durable=*/true);
            repaired.push_back({Leftover::Kind::torn_tail, relative_to(root, file),
                                "ended its unfinished line, which readers skip"});
        }
    }
    for (const fs::path &folder : empty_archive_folders(root)) {
        if (::rmdir(folder.c_str()) != 0 && errno != ENOENT) {
            throw_system_error(folder, "cannot remove an empty archive folder", errno);
        }
        repaired.push_back({Leftover::Kind::empty_archive_folder, relative_to(root, folder), "removed"});
    }
    return repaired;
}

std::vector<std::string> MemoryStore::finish_interrupted_merges() {
    std::error_code error;
    if (!fs::exists(internals_->root / "index" / "intents", error) || fs::is_empty(internals_->root / "index" / "intents", error)) {
        return {};
    }
    const FileLock guard = internals_->lock();
    return internals_->finish_merges_locked();
}

} // namespace starling::core
