// SPDX-License-Identifier: Apache-2.0
#include "io/staged_directory.hpp"

#include "io/posix_io.hpp"
#include "io/random_hex.hpp"

#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <exception>
#include <future>
#include <numeric>
#include <string>
#include <system_error>

namespace starling::core::detail {
namespace {

/// Creates a new, empty staging folder beside `directory`.
std::filesystem::path make_staging_directory(const std::filesystem::path &directory) {
    const std::string prefix =
        "." + directory.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-";
    for (int attempt = 0; attempt < 16; ++attempt) {
        std::filesystem::path staging = directory.parent_path() / (prefix + random_hex(8));
        if (::mkdir(staging.c_str(), private_directory_mode) == 0) {
            return staging;
        }
        if (errno != EEXIST) {
            throw_system_error(directory, "cannot create a staging folder beside it", errno);
        }
    }
    throw StoreError(directory.string() + ": cannot find a free name for a staging folder beside it");
}

/// Moves every file of `staging` into `directory`, one rename each.
void move_files_one_by_one(const std::filesystem::path &staging, const std::filesystem::path &directory) {
    std::vector<std::string> names;
    for (const auto &entry : std::filesystem::directory_iterator(staging)) {
        names.push_back(entry.path().filename().string());
    }
    ensure_directories(directory);
    for (const auto &name : names) {
        fault_point(FaultStep::rename, FaultOrigin::atomic_write);
        if (::rename((staging / name).c_str(), (directory / name).c_str()) != 0) {
            throw_system_error(directory / name, "cannot move the staged file to it", errno);
        }
    }
    fsync_directory(directory);
}

} // namespace

bool is_empty_or_absent_directory(const std::filesystem::path &directory) {
    DIR *stream = ::opendir(directory.c_str());
    if (stream == nullptr) {
        if (errno == ENOENT) {
            return true;
        }
        throw_system_error(directory, "cannot list directory", errno);
    }
    bool empty = true;
    errno = 0;
    while (const dirent *entry = ::readdir(stream)) {
        const std::string_view name = entry->d_name;
        if (name != "." && name != "..") {
            empty = false;
            break;
        }
    }
    const int error = errno;
    ::closedir(stream);
    if (error != 0) {
        throw_system_error(directory, "cannot list directory", error);
    }
    return empty;
}

StagedDirectory::StagedDirectory(std::filesystem::path directory, const std::vector<const FileWrite *> &files)
    : directory_(std::move(directory)), staging_(make_staging_directory(directory_)) {
    try {
        stamps_.reserve(files.size());
        const Descriptor folder(::open(staging_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!folder.valid()) {
            throw_system_error(staging_, "cannot open the staging folder", errno);
        }
        for (const FileWrite *file : files) {
            const std::string name = file->path.filename().string();
            Descriptor written(::openat(folder.get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                                        private_file_mode));
            if (!written.valid()) {
                throw_system_error(file->path, "cannot create its file in the staging folder " + staging_.string(),
                                   errno);
            }
            if (const int error = write_all(written.get(), file->bytes); error != 0) {
                throw_system_error(file->path, "cannot write its file in the staging folder", error);
            }
            struct stat status {};
            if (::fstat(written.get(), &status) != 0) {
                throw_system_error(file->path, "cannot stat its file in the staging folder", errno);
            }
            stamps_.push_back(stamp_from(status));
            if (const int error = written.close(); error != 0) {
                throw_system_error(file->path, "cannot close its file in the staging folder", error);
            }
        }
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove_all(staging_, ignored);
        throw;
    }
}

StagedDirectory::~StagedDirectory() {
    if (!published_) {
        std::error_code ignored;
        std::filesystem::remove_all(staging_, ignored);
    }
}

void StagedDirectory::publish() {
    struct stat existing {};
    if (::stat(directory_.c_str(), &existing) == 0 && ::chmod(staging_.c_str(), existing.st_mode & 07777) != 0) {
        throw_system_error(staging_, "cannot give the staging folder the permissions of " + directory_.string(), errno);
    }
    fault_point(FaultStep::rename, FaultOrigin::atomic_write);
    // rename(2) replaces an empty folder, and refuses one that is not.
    if (::rename(staging_.c_str(), directory_.c_str()) == 0) {
        published_ = true;
        fsync_directory(directory_.parent_path());
        return;
    }
    if (errno != ENOTEMPTY && errno != EEXIST) {
        throw_system_error(directory_, "cannot rename the staging folder " + staging_.string() + " to it", errno);
    }
    move_files_one_by_one(staging_, directory_);
    published_ = true;
    std::error_code ignored; // an empty folder with a temporary name, which a rebuild removes anyway
    std::filesystem::remove(staging_, ignored);
}

std::vector<std::unique_ptr<StagedDirectory>> stage_directories(const std::vector<StagingRequest> &requests) {
    std::vector<std::size_t> largest_first(requests.size());
    std::iota(largest_first.begin(), largest_first.end(), std::size_t{0});
    std::stable_sort(largest_first.begin(), largest_first.end(), [&](std::size_t left, std::size_t right) {
        return requests[left].files->size() > requests[right].files->size();
    });
    std::array<std::vector<std::size_t>, 2> shares;
    std::array<std::size_t, 2> files_in_share{};
    for (const std::size_t request : largest_first) {
        const std::size_t share = files_in_share[0] <= files_in_share[1] ? 0 : 1;
        shares[share].push_back(request);
        files_in_share[share] += requests[request].files->size();
    }
    std::vector<std::unique_ptr<StagedDirectory>> staged(requests.size());
    const auto stage = [&](const std::vector<std::size_t> &share) {
        for (const std::size_t request : share) {
            staged[request] = std::make_unique<StagedDirectory>(requests[request].directory, *requests[request].files);
        }
    };
    if (shares[1].empty()) {
        stage(shares[0]);
        return staged;
    }
    auto second = std::async(std::launch::async, stage, std::cref(shares[1]));
    std::exception_ptr failure;
    try {
        stage(shares[0]);
    } catch (...) {
        failure = std::current_exception();
    }
    try {
        second.get();
    } catch (...) {
        failure = failure ? failure : std::current_exception();
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
    return staged;
}

void remove_dead_staging_directories(const std::filesystem::path &directory) {
    const std::string prefix = "." + directory.filename().string() + ".tmp-";
    const std::filesystem::path parent = directory.parent_path();
    std::error_code error;
    std::filesystem::directory_iterator entries(parent, error);
    for (const std::filesystem::directory_iterator end; !error && entries != end; entries.increment(error)) {
        const std::string name = entries->path().filename().string();
        std::error_code removal;
        if (name.starts_with(prefix) && is_dead_writers_temp_name(name) && entries->is_directory(removal)) {
            fault_point(FaultStep::unlink);
            std::filesystem::remove_all(entries->path(), removal);
        }
        if (removal) {
            throw StoreError(entries->path().string() + ": cannot remove a dead writer's staging folder: " +
                             removal.message());
        }
    }
    if (error && error != std::errc::no_such_file_or_directory) {
        throw StoreError(parent.string() + ": cannot look for dead writers' staging folders: " + error.message());
    }
}

} // namespace starling::core::detail
