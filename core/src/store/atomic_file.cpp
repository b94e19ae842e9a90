// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/atomic_file.hpp>

#include "posix_io.hpp"

#include <starling/core/store/file_io.hpp>
#include <starling/core/store/store_error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>

namespace starling::core {
namespace {

constexpr std::string_view temp_marker = ".tmp-";
constexpr std::string_view kill_before_rename_name = "kill-before-rename";

/// Which atomic write of the process is killed before its rename: 0 for none, 1 for the first, ...
/// Read from the environment once per process. The pid is part of the cache key because a forked
/// child inherits the parent's cache but must read its own environment and count its own writes.
struct Fault {
    pid_t pid = 0;
    unsigned kill_at_write = 0;
    unsigned writes = 0;
};

unsigned parse_fault(const char *value) {
    const std::string_view text = value == nullptr ? std::string_view{} : std::string_view{value};
    if (text.empty()) {
        return 0;
    }
    if (text == kill_before_rename_name) {
        return 1;
    }
    unsigned write = 0;
    const std::string_view count = text.substr(std::min(text.size(), kill_before_rename_name.size() + 1));
    const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), write);
    if (!text.starts_with(kill_before_rename_name) || text[kill_before_rename_name.size()] != ':' ||
        error != std::errc{} || end != count.data() + count.size() || write == 0) {
        throw StoreError(std::string(fault_injection_environment_variable) + "='" + std::string{text} +
                         "' is not a known fault (known: kill-before-rename, kill-before-rename:N for the "
                         "N-th atomic write of a process)");
    }
    return write;
}

/// Whether this write is the one to kill the process before.
bool killed_before_this_rename() {
    static std::mutex guard;
    static Fault fault;
    const std::lock_guard<std::mutex> lock{guard};
    const pid_t pid = ::getpid();
    if (fault.pid != pid) {
        fault = Fault{pid, parse_fault(std::getenv(fault_injection_environment_variable)), 0};
    }
    return fault.kill_at_write != 0 && ++fault.writes == fault.kill_at_write;
}

std::string random_suffix() {
    static constexpr char hex_digits[] = "0123456789abcdef";
    std::random_device entropy;
    std::uint32_t bits = entropy();
    std::string suffix(8, '0');
    for (char &digit : suffix) {
        digit = hex_digits[bits & 0xF];
        bits >>= 4;
    }
    return suffix;
}

/// Unlinks the temporary file unless released; the write's error is what gets reported.
class TempFileGuard {
public:
    explicit TempFileGuard(std::filesystem::path path) : path_(std::move(path)) {}
    TempFileGuard(const TempFileGuard &) = delete;
    TempFileGuard &operator=(const TempFileGuard &) = delete;
    ~TempFileGuard() {
        if (!released_) {
            ::unlink(path_.c_str());
        }
    }
    void release() noexcept { released_ = true; }

private:
    std::filesystem::path path_;
    bool released_ = false;
};

} // namespace

bool is_atomic_write_temp_name(std::string_view file_name) noexcept {
    return file_name.size() > 1 && file_name.front() == '.' &&
           file_name.find(temp_marker) != std::string_view::npos;
}

void write_file_atomically(const std::filesystem::path &path, std::string_view bytes, Durability durability) {
    const std::string name = path.filename().string();
    if (name.empty() || name == "." || name == "..") {
        throw StoreError(path.string() + ": not a file path");
    }
    const bool kill_before_rename = killed_before_this_rename();
    const std::filesystem::path directory =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const std::string prefix = "." + name + std::string(temp_marker) + std::to_string(::getpid()) + "-";

    std::filesystem::path temp_path;
    int descriptor = -1;
    for (int attempt = 0; attempt < 16 && descriptor < 0; ++attempt) {
        temp_path = directory / (prefix + random_suffix());
        descriptor = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, private_file_mode);
        if (descriptor < 0 && errno != EEXIST && errno != EINTR) {
            throw_system_error(path, "cannot create a temporary file next to it", errno);
        }
    }
    if (descriptor < 0) {
        throw StoreError(path.string() + ": cannot find a free temporary file name next to it");
    }
    detail::Descriptor file(descriptor);
    TempFileGuard guard(temp_path);
    // A file replaced keeps its permissions (an agent's settings file stays as the user had it); a
    // new one is private.
    if (struct stat existing {}; ::stat(path.c_str(), &existing) == 0 &&
                                 ::fchmod(file.get(), existing.st_mode & 07777) != 0) {
        throw_system_error(path, "cannot give the temporary file the permissions of the file it replaces", errno);
    }

    if (const int error = detail::write_all(file.get(), bytes); error != 0) {
        throw_system_error(path, "cannot write the temporary file", error);
    }
    if (durability == Durability::survives_power_loss && ::fsync(file.get()) != 0) {
        throw_system_error(path, "cannot fsync the temporary file", errno);
    }
    if (const int error = file.close(); error != 0) {
        throw_system_error(path, "cannot close the temporary file", error);
    }
    if (kill_before_rename) {
        std::raise(SIGKILL);
    }
    if (::rename(temp_path.c_str(), path.c_str()) != 0) {
        throw_system_error(path, "cannot rename the temporary file over it", errno);
    }
    guard.release();
    if (durability == Durability::survives_crash) {
        return;
    }
    try {
        fsync_directory(directory);
    } catch (const StoreError &error) {
        throw StoreError(path.string() + ": written, but may not survive a crash: " + error.what());
    }
}

} // namespace starling::core
