// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/scratch_home.hpp"

#include <filesystem>
#include <string>

namespace starling::test {

/// How many memory files under `store`'s memory folder hold `text`: what "stored exactly once"
/// is checked against, whatever file name, tier or merge a memory ended up with.
inline std::size_t memories_holding(const std::filesystem::path &store, const std::string &text) {
    std::size_t holding = 0;
    std::error_code error;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(store / "memory", error)) {
        if (entry.path().extension() == ".md" && entry.path().filename() != "INDEX.md" &&
            read_text(entry.path()).find(text) != std::string::npos) {
            ++holding;
        }
    }
    return holding;
}

} // namespace starling::test
