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
        // A hook's background work must not outlive the directory it writes into.
        static_cast<void>(wait_for_background_work());
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

    /// As options(), with the clock at `now` (`STARLING_NOW`): scenario tests step through days.
    [[nodiscard]] ProcessOptions options_at(const std::string &now, std::string stdin_text = {}) const {
        auto options = this->options(std::move(stdin_text));
        options.environment["STARLING_NOW"] = now;
        return options;
    }

    /// Returns once the work that hooks run after their reply has ended (`starling wait`), so that
    /// a test sees a hook's whole effect. The exit code of `starling wait`.
    [[nodiscard]] int wait_for_background_work() const {
        if (!std::filesystem::exists(path())) {
            return 0;
        }
        return run_process(std::filesystem::path{STARLING_TEST_BINARY_DIR} / "starling", {"wait"}, options())
            .exit_code;
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
