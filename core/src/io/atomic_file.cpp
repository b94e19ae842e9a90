// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/atomic_file.hpp>

#include "io/posix_io.hpp"
#include "io/random_hex.hpp"
#include "io/staged_directory.hpp"

#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <charconv>
#include <csignal>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace starling::core {
namespace {

constexpr std::string_view temp_marker = ".tmp-";

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

bool is_dead_writers_temp_name(std::string_view file_name) noexcept {
    if (!is_atomic_write_temp_name(file_name)) {
        return false;
    }
    const std::string_view rest = file_name.substr(file_name.rfind(temp_marker) + temp_marker.size());
    pid_t pid = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
    if (error != std::errc{} || end == rest.data() + rest.size() || *end != '-' || pid <= 0) {
        return false; // not a name this version writes: leave it to rebuild_index
    }
    return ::kill(pid, 0) != 0 && errno == ESRCH;
}

namespace {

/// Writes `bytes` to a new temporary file next to `path` (fsynced if asked) and returns its path,
/// with its stamp in `stamp` when given; removes it and throws StoreError naming `path` on any failure.
std::filesystem::path write_temporary_file(const std::filesystem::path &path, std::string_view bytes, bool fsync,
                                           FileStamp *stamp = nullptr) {
    const std::string name = path.filename().string();
    if (name.empty() || name == "." || name == "..") {
        throw StoreError(path.string() + ": not a file path");
    }
    const std::filesystem::path directory =
        path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const std::string prefix = "." + name + std::string(temp_marker) + std::to_string(::getpid()) + "-";

    std::filesystem::path temp_path;
    int descriptor = -1;
    for (int attempt = 0; attempt < 16 && descriptor < 0; ++attempt) {
        temp_path = directory / (prefix + detail::random_hex(8));
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
    if (fsync && ::fsync(file.get()) != 0) {
        throw_system_error(path, "cannot fsync the temporary file", errno);
    }
    if (struct stat written {}; stamp != nullptr) {
        if (::fstat(file.get(), &written) != 0) {
            throw_system_error(path, "cannot stat the temporary file", errno);
        }
        *stamp = detail::stamp_from(written);
    }
    if (const int error = file.close(); error != 0) {
        throw_system_error(path, "cannot close the temporary file", error);
    }
    guard.release();
    return temp_path;
}

std::filesystem::path directory_of(const std::filesystem::path &path) {
    return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

/// While many files are written, a thread of its own writes back what they wrote so far, a
/// `syncfs` at most every 50 ms, so that the disk works while the writers do and the sync that makes
/// them durable finds little left. A fresh home's 100,000 files otherwise all waited for that one
/// sync after the last was written, 2.5 s with the disk idle until then.
class EarlyWriteback {
public:
    /// Only worth a thread for this many files or more.
    static constexpr std::size_t from_files = 2000;

    /// For the file system of `directory`, or of its closest folder that exists.
    explicit EarlyWriteback(const std::filesystem::path &directory) : file_system_(open_closest_folder(directory)) {
        if (file_system_.valid()) {
            thread_ = std::thread{[this] { write_back_until_done(); }};
        }
    }
    EarlyWriteback(const EarlyWriteback &) = delete;
    EarlyWriteback &operator=(const EarlyWriteback &) = delete;
    /// Waits for the sync under way, if any.
    ~EarlyWriteback() {
        {
            const std::lock_guard lock{mutex_};
            writers_done_ = true;
        }
        writers_done_changed_.notify_one();
        if (thread_.joinable()) {
            thread_.join();
        }
    }

private:
    static int open_closest_folder(std::filesystem::path directory) {
        for (;;) {
            const int descriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (descriptor >= 0 || !directory.has_relative_path() || directory == directory.parent_path()) {
                return descriptor;
            }
            directory = directory.parent_path();
        }
    }

    void write_back_until_done() {
        // A pause between syncs: each one also flushes the disk's cache, which should not run back to
        // back when little has been written since the last.
        constexpr std::chrono::milliseconds pause{50};
        std::unique_lock lock{mutex_};
        while (!writers_done_) {
            lock.unlock();
            // A failure here is the final sync's to report: this one only runs ahead of it.
            if (::syncfs(file_system_.get()) != 0) {
                return;
            }
            lock.lock();
            writers_done_changed_.wait_for(lock, pause, [this] { return writers_done_; });
        }
    }

    detail::Descriptor file_system_;
    std::mutex mutex_;
    std::condition_variable writers_done_changed_;
    bool writers_done_ = false;
    std::thread thread_;
};

bool has_distinct_names(const std::vector<const FileWrite *> &files) {
    std::set<std::filesystem::path> names;
    for (const FileWrite *file : files) {
        if (!names.insert(file->path.filename()).second) {
            return false;
        }
    }
    return true;
}

} // namespace

void write_file_atomically(const std::filesystem::path &path, std::string_view bytes, Durability durability) {
    const std::filesystem::path temp_path =
        write_temporary_file(path, bytes, durability == Durability::survives_power_loss);
    TempFileGuard guard(temp_path);
    fault_point(FaultStep::rename, FaultOrigin::atomic_write);
    if (::rename(temp_path.c_str(), path.c_str()) != 0) {
        throw_system_error(path, "cannot rename the temporary file over it", errno);
    }
    guard.release();
    if (durability == Durability::survives_crash) {
        return;
    }
    try {
        fsync_directory(directory_of(path));
    } catch (const StoreError &error) {
        throw StoreError(path.string() + ": written, but may not survive a crash: " + error.what());
    }
}

std::vector<FileStamp> write_files_atomically(std::span<const FileWrite> files) {
    if (files.empty()) {
        return {};
    }
    std::vector<FileStamp> stamps(files.size());
    // Every file is durable before any is renamed, so a power cut never leaves a renamed file
    // without its content: a few are fsynced one by one, many by one sync of each file system
    // (which also flushes whatever else is waiting there: worth it only for many files).
    constexpr std::size_t fsync_each_up_to = 16;
    const bool fsync_each = files.size() <= fsync_each_up_to;
    std::map<std::filesystem::path, std::vector<const FileWrite *>> by_directory;
    for (const auto &file : files) {
        by_directory[directory_of(file.path)].push_back(&file);
    }
    // Many files for a folder that has none yet (a fresh home's pull) are written under their own
    // names into a staging folder published by one rename: a file system spends about as much on a
    // rename as on a file, so that halves its work per file.
    std::vector<detail::StagingRequest> requests;
    std::set<std::filesystem::path> staged_directories;
    for (const auto &[directory, group] : by_directory) {
        if (!fsync_each && group.size() > fsync_each_up_to && has_distinct_names(group) &&
            detail::is_empty_or_absent_directory(directory)) {
            detail::remove_dead_staging_directories(directory);
            requests.push_back({directory, &group});
            staged_directories.insert(directory);
        }
    }
    std::size_t staged_files = 0;
    for (const auto &request : requests) {
        staged_files += request.files->size();
    }
    auto writeback = staged_files >= EarlyWriteback::from_files
                         ? std::make_unique<EarlyWriteback>(requests.front().directory)
                         : nullptr;
    const auto staged = detail::stage_directories(requests);
    writeback.reset();
    for (std::size_t request = 0; request < requests.size(); ++request) {
        const auto &group = *requests[request].files;
        for (std::size_t index = 0; index < group.size(); ++index) {
            stamps[static_cast<std::size_t>(group[index] - files.data())] = staged[request]->stamps()[index];
        }
    }
    std::vector<std::unique_ptr<TempFileGuard>> guards;
    std::vector<std::filesystem::path> temp_paths;
    std::vector<const FileWrite *> renamed;
    for (const auto &file : files) {
        if (staged_directories.contains(directory_of(file.path))) {
            continue;
        }
        temp_paths.push_back(write_temporary_file(file.path, file.bytes, fsync_each,
                                                  &stamps[static_cast<std::size_t>(&file - files.data())]));
        guards.push_back(std::make_unique<TempFileGuard>(temp_paths.back()));
        renamed.push_back(&file);
    }
    if (!fsync_each) {
        std::set<dev_t> synced;
        const auto sync_file_system_of = [&](const std::filesystem::path &directory) {
            detail::Descriptor handle(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
            struct stat status {};
            if (!handle.valid() || ::fstat(handle.get(), &status) != 0) {
                throw_system_error(directory, "cannot open the directory", errno);
            }
            if (synced.insert(status.st_dev).second && ::syncfs(handle.get()) != 0) {
                throw_system_error(directory, "cannot sync the file system it is on", errno);
            }
        };
        for (const auto &staging : staged) {
            sync_file_system_of(staging->staging());
        }
        for (const auto &[directory, group] : by_directory) {
            if (!staged_directories.contains(directory)) {
                sync_file_system_of(directory);
            }
        }
    }
    for (std::size_t index = 0; index < renamed.size(); ++index) {
        fault_point(FaultStep::rename, FaultOrigin::atomic_write);
        if (::rename(temp_paths[index].c_str(), renamed[index]->path.c_str()) != 0) {
            throw_system_error(renamed[index]->path, "cannot rename the temporary file over it", errno);
        }
        guards[index]->release();
    }
    for (const auto &[directory, group] : by_directory) {
        if (!staged_directories.contains(directory)) {
            fsync_directory(directory);
        }
    }
    for (const auto &staging : staged) {
        staging->publish();
    }
    return stamps;
}

} // namespace starling::core
