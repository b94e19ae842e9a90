// SPDX-License-Identifier: Apache-2.0
//
// A starling_host whose log a test reads back: for plugin parts tested below the plugin host.
#pragma once

#include <starling/sdk/abi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starling::test {

/// The host log as a list of lines, by level.
class CapturedLog {
public:
    starling_host host{STARLING_ABI_MAJOR, STARLING_ABI_MINOR, sizeof(starling_host), this, &CapturedLog::log,
                       nullptr};

    CapturedLog() = default;
    CapturedLog(const CapturedLog &) = delete;
    CapturedLog &operator=(const CapturedLog &) = delete;

    [[nodiscard]] std::size_t count(starling_log_level level, std::string_view part) const {
        return static_cast<std::size_t>(std::count_if(lines_.begin(), lines_.end(), [&](const auto &line) {
            return line.first == level && line.second.find(part) != std::string::npos;
        }));
    }
    [[nodiscard]] std::size_t warnings() const {
        return static_cast<std::size_t>(std::count_if(lines_.begin(), lines_.end(), [](const auto &line) {
            return line.first >= STARLING_LOG_WARNING;
        }));
    }

private:
    static void log(void *context, starling_log_level level, starling_bytes message) {
        static_cast<CapturedLog *>(context)->lines_.emplace_back(level, std::string{message.data, message.size});
    }
    std::vector<std::pair<starling_log_level, std::string>> lines_;
};

} // namespace starling::test
