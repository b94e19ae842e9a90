// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/scratch_home.hpp"

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace starling::test {

/// A memory file as a test reads it from disk, without a process per memory.
struct MemoryFile {
    std::string key;
    std::string text;
    /// The file's `access_count`, or -1 without one.
    [[nodiscard]] long access_count() const {
        const auto field = text.find("\naccess_count: ");
        return field == std::string::npos ? -1 : std::stol(text.substr(field + 15));
    }
};

/// The memory files anywhere under `store`'s memory folder that hold `text`: what "stored exactly
/// once" is checked against, whatever file name, tier or merge a memory ended up with.
inline std::vector<MemoryFile> memories_holding(const std::filesystem::path &store, const std::string &text) {
    std::vector<MemoryFile> holding;
    std::error_code error;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(store / "memory", error)) {
        const auto name = entry.path().filename().string();
        if (entry.path().extension() == ".md" && name != "INDEX.md" && name.front() != '.') {
            auto content = read_text(entry.path());
            if (content.find(text) != std::string::npos) {
                holding.push_back({entry.path().lexically_relative(store).generic_string(), std::move(content)});
            }
        }
    }
    return holding;
}

} // namespace starling::test
