// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/file_io.hpp>

#include "io/posix_io.hpp"

#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <system_error>

namespace starling::core {
namespace {

int open_retrying(const char *path, int flags, mode_t mode = 0) noexcept {
    while (true) {
        const int descriptor = ::open(path, flags, mode);
        if (descriptor >= 0 || errno != EINTR) {
            return descriptor;
        }
    }
}

std::optional<StampedContent> read_existing(const std::filesystem::path &path, std::uint64_t max_bytes,
                                            SymbolicLinks links, bool missing_is_error) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; it is refused below.
    const int no_follow = links == SymbolicLinks::refuse ? O_NOFOLLOW : 0;
    detail::Descriptor file(open_retrying(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | no_follow));
    if (!file.valid()) {
        const int error = errno;
        if (error == ENOENT && !missing_is_error) {
            return std::nullopt;
        }
        struct stat entry {};
        if (no_follow != 0 && error == ELOOP && ::lstat(path.c_str(), &entry) == 0 && S_ISLNK(entry.st_mode)) {
            throw StoreError(path.string() + ": is a symbolic link, which Starling does not follow inside its "
                                             "store (replace it with the file itself, or remove it)");
        }
        throw_system_error(path, "cannot open for reading", error);
    }
    struct stat status {};
    if (::fstat(file.get(), &status) != 0) {
        throw_system_error(path, "cannot stat", errno);
    }
    if (!S_ISREG(status.st_mode)) {
        throw StoreError(path.string() + ": not a regular file");
    }
    if (static_cast<std::uint64_t>(status.st_size) > max_bytes) {
        throw StoreError(path.string() + ": file is larger than " + std::to_string(max_bytes) + " bytes");
    }
    // Read straight into the string: one byte more than the size, to notice a file that grew since
    // fstat; the limit is checked on what was actually read.
    std::string content(static_cast<std::size_t>(status.st_size) + 1, '\0');
    std::size_t used = 0;
    while (true) {
        if (used == content.size()) {
            if (used > max_bytes) {
                throw StoreError(path.string() + ": file is larger than " + std::to_string(max_bytes) + " bytes");
            }
            content.resize(content.size() * 2);
        }
        const ssize_t got = ::read(file.get(), content.data() + used, content.size() - used);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw_system_error(path, "cannot read", errno);
        }
        if (got == 0) {
            break;
        }
        used += static_cast<std::size_t>(got);
    }
    if (used > max_bytes) {
        throw StoreError(path.string() + ": file is larger than " + std::to_string(max_bytes) + " bytes");
    }
    content.resize(used);
    return StampedContent{std::move(content), detail::stamp_from(status)};
}

} // namespace

std::optional<FileStamp> stamp_entry(const std::filesystem::path &path) {
    struct stat status {};
    if (::lstat(path.c_str(), &status) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return std::nullopt;
        }
        throw_system_error(path, "cannot stat", errno);
    }
    return detail::stamp_from(status);
}

std::optional<FileStamp> stamp_file(const std::filesystem::path &path) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) {
            return std::nullopt;
        }
        throw_system_error(path, "cannot stat", errno);
    }
    if (!S_ISREG(status.st_mode)) {
        return std::nullopt;
    }
    return detail::stamp_from(status);
}

std::optional<StampedContent> read_stamped_file(const std::filesystem::path &path, std::uint64_t max_bytes,
                                               SymbolicLinks links) {
    return read_existing(path, max_bytes, links, false);
}

std::string read_file(const std::filesystem::path &path, std::uint64_t max_bytes, SymbolicLinks links) {
    return std::move(read_existing(path, max_bytes, links, true)->content);
}

std::optional<std::string> read_file_if_exists(const std::filesystem::path &path, std::uint64_t max_bytes,
                                               SymbolicLinks links) {
    std::optional<StampedContent> file = read_existing(path, max_bytes, links, false);
    if (!file) {
        return std::nullopt;
    }
    return std::move(file->content);
}

int write_fully(int descriptor, std::string_view bytes) noexcept {
    while (!bytes.empty()) {
        const ssize_t written = ::write(descriptor, bytes.data(), bytes.size());
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    return 0;
}

namespace {

/// Opens `path` for appending, refusing a symbolic link in its place: one planted where a log is
/// would have Starling append the user's words to a file outside the store.
int open_for_appending(const std::filesystem::path &path, int access) {
    const int descriptor = open_retrying(path.c_str(), access | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, private_file_mode);
    if (descriptor < 0) {
        if (errno == ELOOP) {
            throw StoreError(path.string() + ": is a symbolic link; refusing to write through it, outside the store");
        }
        throw_system_error(path, "cannot open for appending", errno);
    }
    return descriptor;
}

/// Writes `bytes` to an open file, fsyncs it when `durable`, and closes it, naming `path` on failure.
void finish_append(detail::Descriptor &file, const std::filesystem::path &path, std::string_view bytes, bool durable) {
    if (const int error = detail::write_all(file.get(), bytes); error != 0) {
        throw_system_error(path, "cannot append", error);
    }
    if (durable && ::fsync(file.get()) != 0) {
        throw_system_error(path, "cannot fsync", errno);
    }
    if (const int error = file.close(); error != 0) {
        throw_system_error(path, "cannot close", error);
    }
}

} // namespace

void append_to_file(const std::filesystem::path &path, std::string_view bytes, bool durable) {
    detail::Descriptor file(open_for_appending(path, O_WRONLY));
    finish_append(file, path, bytes, durable);
}

bool ends_mid_line(int descriptor) {
    struct stat status {};
    if (::fstat(descriptor, &status) != 0 || status.st_size == 0) {
        return false;
    }
    char last = '\n';
    return ::pread(descriptor, &last, 1, status.st_size - 1) == 1 && last != '\n';
}

void append_line_to_file(const std::filesystem::path &path, std::string_view line, bool durable) {
    detail::Descriptor file(open_for_appending(path, O_RDWR));
    finish_append(file, path, ends_mid_line(file.get()) ? "\n" + std::string{line} : std::string{line}, durable);
}

void fsync_directory(const std::filesystem::path &directory) {
    const std::filesystem::path target = directory.empty() ? std::filesystem::path(".") : directory;
    detail::Descriptor handle(open_retrying(target.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!handle.valid()) {
        throw_system_error(target, "cannot open directory to fsync it", errno);
    }
    if (::fsync(handle.get()) != 0) {
        throw_system_error(target, "cannot fsync directory", errno);
    }
}

void refuse_if_writable_by_others(const std::filesystem::path &path, std::string_view what) {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        return;
    }
    const bool sticky_folder = S_ISDIR(status.st_mode) && (status.st_mode & S_ISVTX) != 0;
    if ((status.st_mode & S_IWOTH) != 0 && !sticky_folder) {
        throw StoreError(path.string() + ": " + std::string{what} +
                         " is writable by every user, who could change what Starling remembers, injects or runs; "
                         "refusing to use it until `chmod o-w '" + path.string() + "'`");
    }
}

void ensure_directories(const std::filesystem::path &directory) {
    std::error_code error;
    if (std::filesystem::is_directory(directory, error)) {
        return;
    }
    if (directory.has_parent_path() && directory.parent_path() != directory) {
        ensure_directories(directory.parent_path());
    }
    if (::mkdir(directory.c_str(), private_directory_mode) != 0 && errno != EEXIST) {
        throw_system_error(directory, "cannot create directory", errno);
    }
}

} // namespace starling::core
