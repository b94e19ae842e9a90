// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/archive_entry.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core::detail {

/// `archive/MANIFEST.jsonl`: one JSON object per line, appended, never rewritten.
///
///   {"event":"archive","id":"20261122T100000Z-a1b2c3","key":"memory/user/long/x.md",
///    "reason":"unused for 90 days","time":"2026-11-22T10:00:00Z"}
///   {"event":"restore","id":"20261122T100000Z-a1b2c3","key":"memory/user/long/x.md",
///    "time":"2026-11-23T09:00:00Z"}
///
/// Lines with another "event" are skipped, so a later version can add kinds of record.
class ArchiveManifest {
public:
    explicit ArchiveManifest(std::filesystem::path path) : path_(std::move(path)) {}

    /// Every archived memory, with its restore folded in. A last line without '\n' was cut short by
    /// a crash and is ignored. Throws StoreError naming the file and line for any other bad line.
    [[nodiscard]] std::vector<ArchiveEntry> read() const;

    /// [store lock held] Durably records an archive.
    void record_archive(const ArchiveEntry &entry) const;

    /// [store lock held] Durably records a restore.
    void record_restore(std::string_view id, std::string_view restored_key,
                        std::chrono::sys_seconds time) const;

private:
    void append_line(const std::string &line) const;

    std::filesystem::path path_;
};

} // namespace starling::core::detail
