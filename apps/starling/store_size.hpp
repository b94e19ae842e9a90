// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace starling::app {

struct FolderSize {
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
};

/// What a store takes on disk: regular files and their bytes, in all and per folder. Each scope of
/// `memory/` is a folder of its own (`memory/user`, `memory/projects/<id>`); everything else is
/// counted under its top-level folder (`sessions`, `archive`, `index`, `logs`), and files at the
/// root under ".". Links are counted as files of no size and never followed.
struct StoreSize {
    FolderSize total;
    std::map<std::string, FolderSize> folders;
};

/// Measures the store at `root`; an absent store measures nothing. Throws std::filesystem_error
/// when a folder cannot be read.
[[nodiscard]] StoreSize measure_store(const std::filesystem::path &root);

} // namespace starling::app
