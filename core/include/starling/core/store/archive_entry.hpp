// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace starling::core {

/// One archived memory, as recorded in `archive/MANIFEST.jsonl`.
struct ArchiveEntry {
    /// `<YYYYMMDDTHHMMSSZ>-<6 hex digits>`; the folder under `archive/` that holds the copy.
    std::string id;
    /// The key the memory had when it was archived.
    std::string original_key;
    std::string reason;
    std::chrono::sys_seconds archived_at{};
    /// The copy's path relative to the store root: `archive/<id>/<original_key>`.
    std::string archived_path;
    /// Set once the memory has been restored: the key it was restored to, and when.
    std::optional<std::string> restored_key;
    std::optional<std::chrono::sys_seconds> restored_at;

    friend bool operator==(const ArchiveEntry &, const ArchiveEntry &) = default;
};

} // namespace starling::core
