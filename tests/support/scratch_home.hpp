// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/process.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace starling::test {

/// A file's whole content, or "" when it cannot be read.
inline std::string read_text(const std::filesystem::path &file) {
    std::ifstream stream(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

/// A throwaway STARLING_HOME (and HOME) for one end-to-end test, so that no test ever reads or
/// writes the developer's own memory. Removed when the test ends.
class ScratchHome {
public:
    explicit ScratchHome(const std::string &name)
        : root_(std::filesystem::temp_directory_path() /
                ("starling-e2e-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
        std::filesystem::remove_all(root_);
        std::filesystem::create_directories(root_ / "home");
    }
    ~ScratchHome() {
        std::error_code ignored;
        std::filesystem::remove_all(root_, ignored);
    }
    ScratchHome(const ScratchHome &) = delete;
    ScratchHome &operator=(const ScratchHome &) = delete;

    [[nodiscard]] std::filesystem::path path() const { return root_ / "home"; }

    /// Process options with HOME and STARLING_HOME pointing here and the clock fixed.
    [[nodiscard]] ProcessOptions options(std::string stdin_text = {}) const {
        ProcessOptions options;
        options.stdin_text = std::move(stdin_text);
        options.environment = {{"HOME", root_.string()},
                               {"STARLING_HOME", path().string()},
                               {"STARLING_NOW", "2026-11-22T09:00:00Z"}};
        return options;
    }

    std::filesystem::path write_file(const std::string &relative, const std::string &content) const {
        const auto file = root_ / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary) << content;
        return file;
    }

private:
    static inline int counter_ = 0;
    std::filesystem::path root_;
};

} // namespace starling::test
