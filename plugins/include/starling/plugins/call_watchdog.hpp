// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/log.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace starling::plugins {

/// Ends the process when one plugin call runs longer than `budget`: a policy that hangs must not
/// keep a command, or a hook's background work, waiting forever, least of all while it holds the
/// store's lock. Says in the log (and on stderr) which plugin and which call, then exits with
/// status kCallOverranExit; the store's writes are atomic, so nothing is left half-written. Watches
/// the calls recorded by plugin_call_record() from a thread of its own.
class CallWatchdog {
public:
    static constexpr int kCallOverranExit = 1;

    CallWatchdog(const core::Logger &logger, std::string component, std::chrono::milliseconds budget,
                 std::string budget_key);
    ~CallWatchdog();
    CallWatchdog(const CallWatchdog &) = delete;
    CallWatchdog &operator=(const CallWatchdog &) = delete;

private:
    void watch();

    const core::Logger *logger_;
    std::string component_;
    std::chrono::milliseconds budget_;
    std::string budget_key_;
    std::mutex mutex_;
    std::condition_variable stop_requested_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace starling::plugins
