// SPDX-License-Identifier: Apache-2.0
#include "store/memory_files.hpp"

#include "io/posix_io.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/store_error.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

namespace starling::core::detail {
namespace {

/// Owns a DIR stream.
class DirectoryStream {
public:
    /// Opens `path` without following a link at its end: a linked folder inside the store is an
    /// error to report, not memories to list.
    explicit DirectoryStream(const std::filesystem::path &path) : stream_(open_directory(path)) {}
    DirectoryStream(const DirectoryStream &) = delete;
    DirectoryStream &operator=(const DirectoryStream &) = delete;
    ~DirectoryStream() {
        if (stream_ != nullptr) {
            ::closedir(stream_);
        }
    }

    [[nodiscard]] bool exists() const noexcept { return stream_ != nullptr; }
    [[nodiscard]] int descriptor() const noexcept { return ::dirfd(stream_); }

    /// The next entry, or nullptr at the end.
    [[nodiscard]] const dirent *next(const std::filesystem::path &path) {
        errno = 0;
        const dirent *entry = ::readdir(stream_);
        if (entry == nullptr && errno != 0) {
            throw_system_error(path, "cannot list directory", errno);
        }
        return entry;
    }

private:
    static DIR *open_directory(std::filesystem::path path) {
        // A trailing slash would make the kernel resolve the last component, link or not.
        if (!path.has_filename()) {
            path = path.parent_path();
        }
        const int descriptor = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (descriptor < 0) {
            const int error = errno;
            if (error == ENOENT) {
                return nullptr;
            }
            struct stat entry {};
            if ((error == ELOOP || error == ENOTDIR) && ::lstat(path.c_str(), &entry) == 0 && S_ISLNK(entry.st_mode)) {
                throw StoreError(path.string() + ": is a symbolic link, which Starling does not follow inside its "
                                                 "store (replace it with the folder itself)");
            }
            if (error == ENOTDIR) {
                return nullptr;
            }
            throw_system_error(path, "cannot list directory", error);
        }
        DIR *stream = ::fdopendir(descriptor);
        if (stream == nullptr) {
            const int error = errno;
            ::close(descriptor);
            throw_system_error(path, "cannot list directory", error);
        }
        return stream;
    }

    DIR *stream_;
};

void scan_tier(const std::filesystem::path &root, const Scope &scope, Tier tier, std::vector<FoundMemoryFile> &found,
               std::vector<SkippedFolder> &skipped) {
    const std::string key_prefix = memory_key(scope, tier, {});
    const std::filesystem::path directory = root / key_prefix;
    std::optional<DirectoryStream> opened;
    try {
        opened.emplace(directory);
    } catch (const StoreError &error) {
        // One folder the store cannot use must not take the others with it.
        std::string reason = error.what();
        if (const auto at = reason.find(": "); at != std::string::npos) {
            reason.erase(0, at + 2);
        }
        skipped.push_back({key_prefix.substr(0, key_prefix.size() - 1), std::move(reason)});
        return;
    }
    DirectoryStream &stream = *opened;
    if (!stream.exists()) {
        return;
    }
    while (const dirent *entry = stream.next(directory)) {
        const std::string_view name = entry->d_name;
        if (is_dead_writers_temp_name(name)) {
            fault_point(FaultStep::unlink);
            static_cast<void>(::unlinkat(stream.descriptor(), entry->d_name, 0)); // else the next listing tries
            continue;
        }
        if (!is_memory_file_name(name)) {
            continue;
        }
        struct stat status {};
        if (::fstatat(stream.descriptor(), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT) {
                continue;
            }
            throw_system_error(directory / entry->d_name, "cannot stat", errno);
        }
        // A link or a special file with a memory's name is listed, so that reading it fails and it
        // is reported as a file the store does not use; it is never followed or opened.
        if (S_ISDIR(status.st_mode)) {
            continue;
        }
        std::string key;
        key.reserve(key_prefix.size() + name.size());
        key += key_prefix;
        key += name;
        found.push_back(FoundMemoryFile{std::move(key), stamp_from(status)});
    }
}

} // namespace

std::vector<std::string> find_project_ids(const std::filesystem::path &root, std::vector<SkippedFolder> &skipped) {
    const std::filesystem::path directory = root / "memory" / "projects";
    std::vector<std::string> ids;
    DirectoryStream stream(directory);
    if (!stream.exists()) {
        return ids;
    }
    while (const dirent *entry = stream.next(directory)) {
        const std::string_view name = entry->d_name;
        if (name == "." || name == ".." || !is_valid_project_id(name)) {
            continue;
        }
        struct stat status {};
        if (::fstatat(stream.descriptor(), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0) {
            continue;
        }
        if (S_ISDIR(status.st_mode)) {
            ids.emplace_back(name);
        } else {
            skipped.push_back({"memory/projects/" + std::string{name},
                               S_ISLNK(status.st_mode) ? "is a symbolic link, which Starling does not follow inside its "
                                                         "store (replace it with the folder itself)"
                                                       : "is not a folder, where Starling keeps a project's memories"});
        }
    }
    return ids;
}

std::vector<FoundMemoryFile> find_memory_files(const std::filesystem::path &root, const ListFilter &filter,
                                               std::vector<SkippedFolder> &skipped) {
    std::vector<Scope> scopes;
    if (filter.scope) {
        scopes.push_back(*filter.scope);
    } else {
        scopes.push_back(Scope::user());
        for (std::string &id : find_project_ids(root, skipped)) {
            scopes.push_back(Scope::project(std::move(id)));
        }
    }
    std::vector<FoundMemoryFile> found;
    for (const Scope &scope : scopes) {
        for (const Tier tier : {Tier::short_term, Tier::long_term}) {
            if (!filter.tier || *filter.tier == tier) {
                scan_tier(root, scope, tier, found, skipped);
            }
        }
    }
    return found;
}

} // namespace starling::core::detail
