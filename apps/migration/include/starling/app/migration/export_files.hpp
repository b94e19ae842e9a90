// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app::migration {

/// The files of one export, written atomically into a directory that held nothing before, so an
/// export never overwrites the store it is meant to recreate.
class ExportFiles {
public:
    /// Throws std::runtime_error if `directory` exists and is not an empty directory.
    explicit ExportFiles(std::filesystem::path directory);

    /// A file name in `folder` (relative) that this export has not used yet: `name`, or the name with
    /// `_2`, `_3`, ... before its extension.
    [[nodiscard]] std::string free_name(const std::string &folder, const std::string &name) const;

    /// Writes `bytes` to `relative` (folders created), atomically.
    void write(const std::string &relative, std::string_view bytes);

    [[nodiscard]] const std::vector<std::filesystem::path> &written() const noexcept { return written_; }

    [[nodiscard]] const std::filesystem::path &directory() const noexcept { return directory_; }

    /// Records that the memory with id `memory_id` went out as `origin`, the `<format>:<identity>`
    /// the format's importer will give it, so that what the format cannot hold is kept beside it
    /// under that identity (export_sidecar.hpp).
    void record_origin(const std::string &memory_id, std::string origin);

    /// Memory id → origin, for every memory recorded.
    [[nodiscard]] const std::map<std::string, std::string> &origins() const noexcept { return origins_; }

private:
    std::filesystem::path directory_;
    std::set<std::string> used_;
    std::vector<std::filesystem::path> written_;
    std::map<std::string, std::string> origins_;
};

} // namespace starling::app::migration
