// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/project_root.hpp>

#include <sys/stat.h>

namespace starling::core {

namespace {

bool entry_exists(const std::filesystem::path &path) noexcept {
    struct stat status {};
    return ::lstat(path.c_str(), &status) == 0;
}

bool marks_a_project(const std::filesystem::path &directory) noexcept {
    return entry_exists(directory / kProjectMarker) || entry_exists(directory / ".git");
}

} // namespace

std::filesystem::path project_root_of(const std::filesystem::path &directory, const std::filesystem::path &home) {
    // lstat, not std::filesystem: a hook resolves its project on every event, a few levels deep.
    for (std::filesystem::path candidate = directory;
         candidate.has_relative_path() && candidate != home; candidate = candidate.parent_path()) {
        if (marks_a_project(candidate)) {
            return candidate;
        }
    }
    return directory;
}

} // namespace starling::core
