// SPDX-License-Identifier: Apache-2.0
#include "cache_file_io.hpp"

#include "file_descriptor.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <random>
#include <string_view>
#include <system_error>

namespace starling::cache_files {

namespace {

std::string describe_errno(const std::filesystem::path &path, std::string_view action) {
    return path.string() + ": cannot " + std::string{action} + ": " + std::generic_category().message(errno);
}

constexpr std::string_view partial_suffix = ".partial";

/// A name beside `path` no other writer picks: the process id tells processes apart, the random
/// part calls within one. Not in the store's temporary-file pattern (".*.tmp-*"), because the store
/// deletes those only when it knows no writer is active, which it cannot know of a plugin.
std::filesystem::path temporary_name(const std::filesystem::path &path) {
    std::random_device entropy;
    return path.string() + "." + std::to_string(::getpid()) + "-" + std::to_string(entropy()) + std::string{partial_suffix};
}

bool write_all(int descriptor, std::span<const std::byte> bytes) {
    while (!bytes.empty()) {
        const ssize_t written = ::write(descriptor, bytes.data(), bytes.size());
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        bytes = bytes.subspan(static_cast<std::size_t>(written));
    }
    return true;
}

} // namespace

FileRead read_whole_file(const std::filesystem::path &path, std::size_t max_bytes) {
    FileRead read;
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.get() < 0) {
        read.outcome = errno == ENOENT ? FileRead::Outcome::missing : FileRead::Outcome::failed;
        read.error = describe_errno(path, "open");
        return read;
    }
    struct stat status {};
    if (::fstat(file.get(), &status) != 0 || !S_ISREG(status.st_mode)) {
        read.error = path.string() + ": not a regular file";
        return read;
    }
    if (static_cast<std::uintmax_t>(status.st_size) > max_bytes) {
        read.outcome = FileRead::Outcome::too_large;
        read.error = path.string() + ": " + std::to_string(status.st_size) + " bytes, more than the " +
                     std::to_string(max_bytes) + " a cache file may have";
        return read;
    }
    read.bytes.resize(static_cast<std::size_t>(status.st_size));
    std::size_t filled = 0;
    while (filled < read.bytes.size()) {
        const ssize_t got = ::read(file.get(), read.bytes.data() + filled, read.bytes.size() - filled);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            read.bytes.clear();
            read.error = describe_errno(path, "read");
            return read;
        }
        if (got == 0) {
            break; // shrunk since fstat; the reader's checks decide whether what is here is whole
        }
        filled += static_cast<std::size_t>(got);
    }
    read.bytes.resize(filled);
    read.outcome = FileRead::Outcome::read;
    return read;
}

std::optional<std::string> replace_file(const std::filesystem::path &path, std::span<const std::byte> bytes) {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) {
        return path.parent_path().string() + ": cannot create the directory: " + error.message();
    }
    const auto temporary = temporary_name(path);
    FileDescriptor file{::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
    if (file.get() < 0) {
        return describe_errno(temporary, "create");
    }
    // Written data is visible to readers without closing first; the descriptor closes on return.
    if (!write_all(file.get(), bytes)) {
        auto failure = describe_errno(temporary, "write");
        ::unlink(temporary.c_str());
        return failure;
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        auto failure = describe_errno(path, "replace");
        ::unlink(temporary.c_str());
        return failure;
    }
    return std::nullopt;
}

std::size_t remove_abandoned_partial_files(const std::filesystem::path &directory,
                                           std::filesystem::file_time_type::duration age) {
    std::error_code error;
    const auto now = std::filesystem::file_time_type::clock::now();
    std::size_t removed = 0;
    for (std::filesystem::directory_iterator entry{directory, error}, end; !error && entry != end;
         entry.increment(error)) {
        const auto name = entry->path().filename().string();
        if (!name.ends_with(partial_suffix) || !entry->is_regular_file(error)) {
            continue;
        }
        const auto modified = entry->last_write_time(error);
        if (!error && now - modified > age && std::filesystem::remove(entry->path(), error)) {
            ++removed;
        }
        error.clear();
    }
    return removed;
}

} // namespace starling::cache_files
