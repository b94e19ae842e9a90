// SPDX-License-Identifier: Apache-2.0
#include "store_size.hpp"

namespace starling::app {

namespace {

/// The folder a file of the store is counted under, from its path relative to the root.
std::string folder_of(const std::filesystem::path &relative) {
    auto part = relative.begin();
    const std::string top = part->string();
    if (std::next(part) == relative.end()) {
        return ".";
    }
    if (top != "memory") {
        return top;
    }
    const std::string scope_kind = (++part)->string();
    if (scope_kind == "projects" && std::next(part) != relative.end() && std::next(part, 2) != relative.end()) {
        return "memory/projects/" + std::next(part)->string();
    }
    return std::next(part) == relative.end() ? std::string{"memory"} : "memory/" + scope_kind;
}

} // namespace

StoreSize measure_store(const std::filesystem::path &root) {
    StoreSize size;
    std::error_code missing;
    if (!std::filesystem::is_directory(std::filesystem::symlink_status(root, missing))) {
        return size;
    }
    for (const auto &entry : std::filesystem::recursive_directory_iterator(root)) {
        // The type the directory listing gave: one stat per regular file for its size, none else.
        const bool link = entry.is_symlink();
        if (!link && entry.is_directory()) {
            continue;
        }
        const std::uint64_t bytes = !link && entry.is_regular_file() ? entry.file_size() : 0;
        auto &folder = size.folders[folder_of(entry.path().lexically_relative(root))];
        ++folder.files;
        folder.bytes += bytes;
        ++size.total.files;
        size.total.bytes += bytes;
    }
    return size;
}

} // namespace starling::app
