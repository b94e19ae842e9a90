// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>

namespace starling::core {

enum class LogLevel { debug, info, warning, error };

[[nodiscard]] std::string_view to_string(LogLevel level) noexcept;
[[nodiscard]] std::optional<LogLevel> log_level_from_string(std::string_view text) noexcept;

/// Where Starling's diagnostics go: a log file and, optionally, stderr — never the agent's context.
///
/// Each line is written with a single append-mode write(), so lines from concurrent hook processes
/// never interleave. Logging never throws and never fails the caller: a log file that cannot be
/// opened leaves stderr as the only channel.
class Logger {
public:
    using TimeSource = std::function<std::chrono::sys_seconds()>;

    /// A logger that writes lines of `minimum` level and above to `file` (created with its
    /// directory on first use; empty path: no file) and, if `mirror_to_stderr`, to stderr.
    Logger(std::filesystem::path file, LogLevel minimum, bool mirror_to_stderr, TimeSource now = {});

    void log(LogLevel level, std::string_view component, std::string_view message) const noexcept;
    void debug(std::string_view component, std::string_view message) const noexcept;
    void info(std::string_view component, std::string_view message) const noexcept;
    void warning(std::string_view component, std::string_view message) const noexcept;
    void error(std::string_view component, std::string_view message) const noexcept;

    [[nodiscard]] const std::filesystem::path &file() const noexcept { return file_; }

private:
    std::filesystem::path file_;
    LogLevel minimum_;
    bool mirror_to_stderr_;
    TimeSource now_;
};

} // namespace starling::core
