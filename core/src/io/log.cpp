// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/log.hpp>

#include <starling/core/io/file_io.hpp>

#include <fcntl.h>

#include <cerrno>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <string>
#include <system_error>

namespace starling::core {

std::string_view to_string(LogLevel level) noexcept {
    switch (level) {
    case LogLevel::debug: return "debug";
    case LogLevel::info: return "info";
    case LogLevel::warning: return "warning";
    case LogLevel::error: return "error";
    }
    return "info";
}

std::optional<LogLevel> log_level_from_string(std::string_view text) noexcept {
    for (const auto level : {LogLevel::debug, LogLevel::info, LogLevel::warning, LogLevel::error}) {
        if (to_string(level) == text) {
            return level;
        }
    }
    return std::nullopt;
}

namespace {

std::string format_utc(std::chrono::sys_seconds time) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    std::array<char, 32> text{};
    const auto length = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &parts);
    return std::string(text.data(), length);
}

} // namespace

Logger::Logger(std::filesystem::path file, LogLevel minimum, bool mirror_to_stderr, TimeSource now)
    : file_(std::move(file)), minimum_(minimum), mirror_to_stderr_(mirror_to_stderr), now_(std::move(now)) {
    if (!now_) {
        now_ = [] { return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()); };
    }
}

void Logger::log(LogLevel level, std::string_view component, std::string_view message) const noexcept {
    if (level < minimum_) {
        return;
    }
    try {
        std::string line = format_utc(now_());
        line += ' ';
        line += to_string(level);
        line += ' ';
        line += component;
        line += ": ";
        for (const char c : message) {
            // One event, one line: embedded newlines would split an entry and confuse readers.
            line += (c == '\n' || c == '\r') ? ' ' : c;
        }
        line += '\n';
        if (mirror_to_stderr_) {
            static_cast<void>(write_fully(STDERR_FILENO, "starling: " + line.substr(line.find(' ') + 1)));
        }
        if (file_.empty()) {
            return;
        }
        std::error_code ignored;
        std::filesystem::create_directories(file_.parent_path(), ignored);
        // Never through a symbolic link: one planted in place of the log would have it append the
        // user's words to a file outside the store.
        const int descriptor = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (descriptor < 0) {
            if (errno == ELOOP) {
                static_cast<void>(write_fully(STDERR_FILENO, "starling: " + file_.string() +
                                                                 " is a symbolic link: not logging into it\n"));
            }
            return;
        }
        static_cast<void>(write_fully(descriptor, line));
        ::close(descriptor);
    } catch (...) {
        // Out of memory while formatting a diagnostic: dropping the line is the only safe choice.
    }
}

void Logger::debug(std::string_view component, std::string_view message) const noexcept {
    log(LogLevel::debug, component, message);
}
void Logger::info(std::string_view component, std::string_view message) const noexcept {
    log(LogLevel::info, component, message);
}
void Logger::warning(std::string_view component, std::string_view message) const noexcept {
    log(LogLevel::warning, component, message);
}
void Logger::error(std::string_view component, std::string_view message) const noexcept {
    log(LogLevel::error, component, message);
}

} // namespace starling::core
