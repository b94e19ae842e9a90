// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/file_io.hpp>

#include "io/posix_io.hpp"

#include <starling/core/io/store_error.hpp>
#include <starling/sdk/kit/prefault.hpp>

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iterator>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

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

/// Opens a file for reading; -1 when it does not exist and `missing_is_error` is not set.
int open_for_reading(const std::filesystem::path &path, SymbolicLinks links, bool missing_is_error) {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; it is refused below.
    const int no_follow = links == SymbolicLinks::refuse ? O_NOFOLLOW : 0;
    const int descriptor = open_retrying(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | no_follow);
    if (descriptor >= 0) {
        return descriptor;
    }
    const int error = errno;
    if (error == ENOENT && !missing_is_error) {
        return -1;
    }
    struct stat entry {};
    if (no_follow != 0 && error == ELOOP && ::lstat(path.c_str(), &entry) == 0 && S_ISLNK(entry.st_mode)) {
        throw StoreError(path.string() + ": is a symbolic link, which Starling does not follow inside its "
                                         "store (replace it with the file itself, or remove it)");
    }
    throw_system_error(path, "cannot open for reading", error);
}

[[noreturn]] void throw_too_large(const std::filesystem::path &path, std::uint64_t max_bytes) {
    throw StoreError(path.string() + ": file is larger than " + std::to_string(max_bytes) + " bytes");
}

/// The status of an open file, which must be a regular file of at most `max_bytes`.
struct stat regular_file_status(const detail::Descriptor &file, const std::filesystem::path &path,
                                std::uint64_t max_bytes) {
    struct stat status {};
    if (::fstat(file.get(), &status) != 0) {
        throw_system_error(path, "cannot stat", errno);
    }
    if (!S_ISREG(status.st_mode)) {
        throw StoreError(path.string() + ": not a regular file");
    }
    if (static_cast<std::uint64_t>(status.st_size) > max_bytes) {
        throw_too_large(path, max_bytes);
    }
    return status;
}

/// Reads an open file to its end, expecting about `expected_size` bytes.
std::string read_all(const detail::Descriptor &file, const std::filesystem::path &path, std::uint64_t max_bytes,
                     std::size_t expected_size) {
    // Read straight into the string, its pages faulted in at once rather than one by one as read()
    // reaches them: one byte more than the size, to notice a file that grew since fstat; the limit
    // is checked on what was actually read.
    std::string content;
    content.reserve(expected_size + 1);
    sdk::kit::prefault_for_writing(content.data(), content.capacity());
    content.resize(expected_size + 1);
    std::size_t used = 0;
    while (true) {
        if (used == content.size()) {
            if (used > max_bytes) {
                throw_too_large(path, max_bytes);
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
        throw_too_large(path, max_bytes);
    }
    content.resize(used);
    return content;
}

std::optional<StampedContent> read_existing(const std::filesystem::path &path, std::uint64_t max_bytes,
                                            SymbolicLinks links, bool missing_is_error) {
    const int descriptor = open_for_reading(path, links, missing_is_error);
    if (descriptor < 0) {
        return std::nullopt;
    }
    const detail::Descriptor file(descriptor);
    const struct stat status = regular_file_status(file, path, max_bytes);
    return StampedContent{read_all(file, path, max_bytes, static_cast<std::size_t>(status.st_size)),
                          detail::stamp_from(status)};
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

namespace detail {

FileBytes::FileBytes(const char *mapping, std::size_t size) noexcept : mapping_(mapping), mapped_size_(size) {}

FileBytes::FileBytes(std::string copy) noexcept : copy_(std::move(copy)) {}

FileBytes::FileBytes(FileBytes &&other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)), mapped_size_(std::exchange(other.mapped_size_, 0)),
      copy_(std::exchange(other.copy_, {})) {}

FileBytes &FileBytes::operator=(FileBytes &&other) noexcept {
    if (this != &other) {
        unmap();
        mapping_ = std::exchange(other.mapping_, nullptr);
        mapped_size_ = std::exchange(other.mapped_size_, 0);
        copy_ = std::exchange(other.copy_, {});
    }
    return *this;
}

FileBytes::~FileBytes() { unmap(); }

void FileBytes::unmap() noexcept {
    if (mapping_ != nullptr) {
        ::munmap(const_cast<char *>(mapping_), mapped_size_);
    }
}

std::optional<StampedBytes> map_stamped_file(const std::filesystem::path &path, std::uint64_t max_bytes) {
    const int descriptor = open_for_reading(path, SymbolicLinks::refuse, false);
    if (descriptor < 0) {
        return std::nullopt;
    }
    const Descriptor file(descriptor);
    const struct stat status = regular_file_status(file, path, max_bytes);
    const auto size = static_cast<std::size_t>(status.st_size);
    if (size == 0) {
        return StampedBytes{FileBytes{}, stamp_from(status)};
    }
    // MAP_POPULATE: every page in place in one call, rather than a fault per 16 pages as they are read.
    void *mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, file.get(), 0);
    if (mapping != MAP_FAILED) {
        return StampedBytes{FileBytes(static_cast<const char *>(mapping), size), stamp_from(status)};
    }
    // A file system that cannot map files (ENODEV: some FUSE and special file systems) is read.
    return StampedBytes{FileBytes(read_all(file, path, max_bytes, size)), stamp_from(status)};
}

} // namespace detail

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

namespace {

/// Whether `group` is `owner`'s private group: the owner's primary group, named as the owner, with
/// no other member listed.
bool is_private_group_of(uid_t owner, gid_t group_id) {
    const struct passwd *user = ::getpwuid(owner);
    if (user == nullptr || user->pw_gid != group_id) {
        return false;
    }
    const std::string user_name = user->pw_name;
    const struct group *entry = ::getgrgid(group_id);
    return entry != nullptr && user_name == entry->gr_name && (entry->gr_mem == nullptr || entry->gr_mem[0] == nullptr);
}

void refuse_status(const std::filesystem::path &path, const struct stat &status, std::string_view what) {
    const std::string quoted = "'" + path.string() + "'";
    const auto refuse = [&](const std::string &who, const std::string &mend) {
        throw StoreError(path.string() + ": " + std::string{what} + " " + who +
                         ", who could change what Starling remembers and injects; refusing to use it until `" + mend + "`");
    };
    if (status.st_uid != ::geteuid() && status.st_uid != 0) {
        refuse("is owned by another user (uid " + std::to_string(status.st_uid) + ")",
               std::string{"chown "} + (S_ISDIR(status.st_mode) ? "-R " : "") + "\"$(id -u)\" " + quoted);
    }
    const bool sticky_folder = S_ISDIR(status.st_mode) && (status.st_mode & S_ISVTX) != 0;
    if ((status.st_mode & S_IWOTH) != 0 && !sticky_folder) {
        refuse("is writable by every user", "chmod o-w " + quoted);
    }
    if ((status.st_mode & S_IWGRP) != 0 && !is_private_group_of(status.st_uid, status.st_gid)) {
        refuse("is writable by its group (gid " + std::to_string(status.st_gid) + ")", "chmod g-w " + quoted);
    }
}

} // namespace

void refuse_if_others_can_change(const std::filesystem::path &path, std::string_view what) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0) {
        refuse_status(path, status, what);
    }
}

void refuse_if_others_can_change_store(const std::filesystem::path &root) {
    refuse_if_others_can_change(root, "the store");
    const auto check_folder = [](const std::filesystem::path &folder) {
        struct stat status {};
        if (::lstat(folder.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) {
            return false;
        }
        refuse_status(folder, status, "a folder of the store");
        return true;
    };
    static_cast<void>(check_folder(root / "sessions"));
    static_cast<void>(check_folder(root / "index"));
    // memory/, its scopes, projects and tiers. Only the folders that hold folders are listed —
    // memory/, memory/user/, memory/projects/ and each project's — never a tier: a tier holds the
    // memories themselves, thousands of files in a large store, and every hook runs this check.
    struct Folder {
        std::filesystem::path path;
        bool holds_folders;
    };
    const auto memory = root / "memory";
    std::vector<Folder> pending{{memory, true}};
    while (!pending.empty()) {
        const auto folder = std::move(pending.back());
        pending.pop_back();
        if (!check_folder(folder.path) || !folder.holds_folders) {
            continue;
        }
        const bool children_hold_folders = folder.path == memory || folder.path == memory / "projects";
        std::error_code error;
        for (const auto &entry : std::filesystem::directory_iterator(folder.path, error)) {
            if (entry.is_directory(error) && !entry.is_symlink(error)) {
                pending.push_back({entry.path(), children_hold_folders});
            }
        }
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

void ensure_directories_beneath(const std::filesystem::path &root, const std::filesystem::path &directory) {
    const auto relative = directory.lexically_normal().lexically_relative(root.lexically_normal());
    if (relative.empty() || *relative.begin() == "..") {
        throw StoreError(directory.string() + ": not inside the store at " + root.string());
    }
    ensure_directories(root);
    std::optional<detail::Descriptor> current;
    current.emplace(open_retrying(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!current->valid()) {
        throw_system_error(root, "cannot open directory", errno);
    }
    std::filesystem::path reached = root;
    for (const auto &component : relative) {
        if (component == ".") {
            continue;
        }
        reached /= component;
        if (::mkdirat(current->get(), component.c_str(), private_directory_mode) != 0 && errno != EEXIST) {
            throw_system_error(reached, "cannot create directory", errno);
        }
        int next = -1;
        do {
            next = ::openat(current->get(), component.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        } while (next < 0 && errno == EINTR);
        if (next < 0) {
            const int error = errno;
            struct stat entry {};
            if (::fstatat(current->get(), component.c_str(), &entry, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(entry.st_mode)) {
                throw StoreError(reached.string() + ": is a symbolic link, which Starling does not follow inside its "
                                                    "store (replace it with the folder itself)");
            }
            if (error == ENOTDIR) {
                throw StoreError(reached.string() + ": is not a folder, where Starling keeps one");
            }
            throw_system_error(reached, "cannot open directory", error);
        }
        current.emplace(next);
    }
}

} // namespace starling::core
