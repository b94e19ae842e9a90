// SPDX-License-Identifier: Apache-2.0
#include "store/store_internals.hpp"

#include <starling/core/config/config_environment.hpp>
#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/project_id.hpp>
#include <starling/core/store/project_root.hpp>
#include <starling/core/io/store_error.hpp>

#include <optional>

namespace starling::core {
namespace {

constexpr unsigned max_project_id_suffix = 1000;
constexpr std::string_view project_path_file = "PROJECT_PATH";

bool is_windows_style(std::string_view path) noexcept {
    const bool drive = path.size() >= 2 && path[1] == ':' &&
                       ((path[0] >= 'a' && path[0] <= 'z') || (path[0] >= 'A' && path[0] <= 'Z'));
    return drive || path.substr(0, 2) == "\\\\";
}

std::string candidate_id(const ProjectId &id, unsigned n) {
    return n == 1 ? id.value : id.value + "-" + std::to_string(n);
}

/// The path recorded in a project folder, or nullopt if it records none.
std::optional<std::string> recorded_path(const std::filesystem::path &project_directory) {
    std::optional<std::string> recorded =
        read_file_if_exists(project_directory / project_path_file, 1u << 20);
    if (recorded && !recorded->empty() && recorded->back() == '\n') {
        recorded->pop_back();
    }
    return recorded;
}

} // namespace

std::string MemoryStore::resolve_project(const std::filesystem::path &project_directory, ProjectFolder folder) {
    std::string path = project_directory.string();
    if (path.empty()) {
        throw StoreError("cannot resolve a project for an empty path");
    }
    if (!is_windows_style(path) && project_directory.is_relative()) {
        std::error_code error;
        path = std::filesystem::absolute(project_directory, error).string();
        if (error) {
            throw StoreError(project_directory.string() +
                             ": cannot make the project path absolute: " + error.message());
        }
    }
    if (!is_windows_style(path)) {
        path = project_root_of(normalise_project_path(path), from_process_environment().home_dir).string();
    }
    const ProjectId id = project_id_for(path);
    const std::filesystem::path projects = internals_->root / "memory" / "projects";

    // Almost every call finds its own path already recorded, and that needs no lock.
    for (unsigned n = 1; n <= max_project_id_suffix; ++n) {
        const std::string candidate = candidate_id(id, n);
        const std::optional<std::string> recorded = recorded_path(projects / candidate);
        if (!recorded && folder == ProjectFolder::look_up) {
            return candidate;
        }
        if (!recorded) {
            break;
        }
        if (*recorded == id.normalised_path) {
            return candidate;
        }
    }

    const FileLock guard = internals_->lock();
    for (unsigned n = 1; n <= max_project_id_suffix; ++n) {
        const std::string candidate = candidate_id(id, n);
        const std::filesystem::path directory = projects / candidate;
        const std::optional<std::string> recorded = recorded_path(directory);
        if (recorded && *recorded == id.normalised_path) {
            return candidate;
        }
        if (recorded) {
            continue;
        }
        // A folder without PROJECT_PATH was made for this id by a process that died before recording
        // the path (or by a hand copy); the id says it belongs to this path, so claim it.
        ensure_directories_beneath(internals_->root, directory);
        write_file_atomically(directory / project_path_file, id.normalised_path + "\n");
        return candidate;
    }
    throw StoreError(projects.string() + ": more than " + std::to_string(max_project_id_suffix) +
                     " project folders claim the id " + id.value);
}

} // namespace starling::core
