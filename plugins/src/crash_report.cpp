// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/crash_report.hpp>

#include <starling/plugins/call_record.hpp>
#include <starling/plugins/fatal_signals.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

namespace starling::plugins {

namespace {

// Set before the handlers are armed and only read inside them, with async-signal-safe calls.
char crash_log_path[4096];
char crash_log_directory[4096]; ///< made if missing, as the logger makes it before its first line

/// A line built in a fixed buffer: nothing a signal handler may not do.
class SignalSafeLine {
public:
    void append(const char *text) noexcept { append(text, std::strlen(text)); }
    void append(const char *text, std::size_t length) noexcept {
        const std::size_t room = sizeof text_ - 1 - length_;
        const std::size_t taken = length < room ? length : room;
        std::memcpy(text_ + length_, text, taken);
        length_ += taken;
    }
    void append_number(int number) noexcept {
        char digits[12];
        std::size_t count = 0;
        unsigned value = number < 0 ? 0U : static_cast<unsigned>(number);
        do {
            digits[count++] = static_cast<char>('0' + value % 10);
            value /= 10;
        } while (value != 0 && count < sizeof digits);
        while (count > 0) {
            append(&digits[--count], 1);
        }
    }
    void write_to(int descriptor) const noexcept {
        std::size_t written = 0;
        while (written < length_) {
            const auto count = ::write(descriptor, text_ + written, length_ - written);
            if (count <= 0) {
                return;
            }
            written += static_cast<std::size_t>(count);
        }
    }

private:
    char text_[512] = {};
    std::size_t length_ = 0;
};

/// "2026-11-27T09:30:00Z ", as the log's other lines begin, from the clock a signal handler may read.
void append_utc_now(SignalSafeLine &line) noexcept {
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    const long long seconds = now.tv_sec;
    long long days = seconds / 86400;
    const long long of_day = seconds % 86400;
    // Civil date from days since 1970-01-01 (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
    days += 719468;
    const long long era = days / 146097;
    const long long day_of_era = days - era * 146097;
    const long long year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const long long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const long long month_index = (5 * day_of_year + 2) / 153;
    const int day = static_cast<int>(day_of_year - (153 * month_index + 2) / 5 + 1);
    const int month = static_cast<int>(month_index < 10 ? month_index + 3 : month_index - 9);
    const int year = static_cast<int>(year_of_era + era * 400 + (month <= 2 ? 1 : 0));
    const auto two_digits = [&](int value) {
        const char digits[2] = {static_cast<char>('0' + value / 10), static_cast<char>('0' + value % 10)};
        line.append(digits, 2);
    };
    line.append_number(year);
    line.append("-");
    two_digits(month);
    line.append("-");
    two_digits(day);
    line.append("T");
    two_digits(static_cast<int>(of_day / 3600));
    line.append(":");
    two_digits(static_cast<int>(of_day / 60 % 60));
    line.append(":");
    two_digits(static_cast<int>(of_day % 60));
    line.append("Z ");
}

/// The record's text field, which a writer that was interrupted may have left without its end.
std::size_t bounded_length(const char *text, std::size_t size) noexcept {
    const void *end = std::memchr(text, '\0', size);
    return end == nullptr ? size : static_cast<std::size_t>(static_cast<const char *>(end) - text);
}

extern "C" void on_fatal_signal_in_plugin_call(int signal_number) {
    PluginCallRecord &record = plugin_call_record();
    if (record.started_ns.load(std::memory_order_relaxed) != 0) {
        record.fatal_signal.store(signal_number, std::memory_order_relaxed);
        const std::size_t plugin_length = bounded_length(record.plugin, sizeof record.plugin);
        const std::size_t call_length = bounded_length(record.call, sizeof record.call);
        SignalSafeLine line;
        line.append("error plugin-host: ");
        if (call_length == 4 && std::memcmp(record.call, "load", 4) == 0) {
            line.append("module ");
            line.append(record.plugin, plugin_length);
            line.append(" crashed while loading");
        } else {
            line.append("plugin '");
            line.append(record.plugin, plugin_length);
            line.append("' in `");
            line.append(record.call, call_length);
            line.append("` crashed");
        }
        line.append(" with fatal signal ");
        line.append_number(signal_number);
        line.append("; ending the process\n");
        static_cast<void>(::write(STDERR_FILENO, "starling: ", 10));
        line.write_to(STDERR_FILENO);
        if (crash_log_path[0] != '\0') {
            if (crash_log_directory[0] != '\0') {
                ::mkdir(crash_log_directory, 0700);
            }
            const int log = ::open(crash_log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
            if (log >= 0) {
                SignalSafeLine dated;
                append_utc_now(dated);
                dated.write_to(log);
                line.write_to(log);
                ::close(log);
            }
        }
    }
    ::signal(signal_number, SIG_DFL);
    ::raise(signal_number);
}

/// Copies `text` into `into` with its end, or nothing when it does not fit.
template <std::size_t Size>
void copy_path(char (&into)[Size], const std::string &text) noexcept {
    const std::size_t length = text.size() < Size ? text.size() : 0;
    std::memcpy(into, text.data(), length);
    into[length] = '\0';
}

} // namespace

void report_crashes_in_plugin_calls(const std::filesystem::path &log_file) {
    copy_path(crash_log_path, log_file.string()); // a path too long: standard error only
    copy_path(crash_log_directory, log_file.parent_path().string());
    handle_fatal_signals(&on_fatal_signal_in_plugin_call);
}

} // namespace starling::plugins
