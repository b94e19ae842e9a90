// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/call_watchdog.hpp>

#include <starling/plugins/call_record.hpp>

#include <unistd.h>

#include <algorithm>

namespace starling::plugins {

CallWatchdog::CallWatchdog(const core::Logger &logger, std::string component, std::chrono::milliseconds budget,
                           std::string budget_key)
    : logger_(&logger), component_(std::move(component)), budget_(budget), budget_key_(std::move(budget_key)),
      thread_([this] { watch(); }) {}

CallWatchdog::~CallWatchdog() {
    {
        const std::lock_guard lock{mutex_};
        stopping_ = true;
    }
    stop_requested_.notify_one();
    thread_.join();
}

void CallWatchdog::watch() {
    // A call is ended at most a tenth of its budget (and never more than a second) late.
    const auto period = std::clamp(budget_ / 10, std::chrono::milliseconds{10}, std::chrono::milliseconds{1000});
    std::unique_lock lock{mutex_};
    while (!stop_requested_.wait_for(lock, period, [this] { return stopping_; })) {
        const auto running = running_call(plugin_call_record());
        if (!running || running->running < budget_) {
            continue;
        }
        logger_->error(component_,
                       running->describe() + " has run for " +
                           std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(running->running).count()) +
                           " ms, over its budget of " + std::to_string(budget_.count()) + " ms (" + budget_key_ +
                           "); ending the process");
        ::_exit(kCallOverranExit);
    }
}

} // namespace starling::plugins
