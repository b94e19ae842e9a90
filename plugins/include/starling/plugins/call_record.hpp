// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace starling::plugins {

/// Which plugin call a process is in, written by the plugin host around every call into a plugin
/// (loading a module included), so that whoever ends a call that overran or crashed can name it: a
/// hook's parent process reading its worker's record through a shared page, or the watchdog thread
/// of the process itself. Plain data with lock-free atomics, so it works in memory shared between
/// processes and can be written from a signal handler.
struct PluginCallRecord {
    /// Odd while the fields below are being rewritten; readers retry then.
    std::atomic<std::uint64_t> sequence{0};
    /// CLOCK_MONOTONIC nanoseconds when the running call began; 0 when no plugin call is running.
    std::atomic<std::int64_t> started_ns{0};
    /// The fatal signal a crash handler saw, or 0.
    std::atomic<int> fatal_signal{0};
    char plugin[256] = {}; ///< the plugin id, or the module's path while it is being loaded
    char call[32] = {};    ///< `load`, `create`, or the ABI call (`score`, `decide`, ...)
};

static_assert(std::atomic<std::uint64_t>::is_always_lock_free && std::atomic<std::int64_t>::is_always_lock_free &&
              std::atomic<int>::is_always_lock_free);

/// The record calls are written to; the process's own one until record_plugin_calls_in() is called.
[[nodiscard]] PluginCallRecord &plugin_call_record() noexcept;

/// Writes every later call into `record` (which must outlive them), e.g. a page shared with a
/// parent process; nullptr goes back to the process's own record.
void record_plugin_calls_in(PluginCallRecord *record) noexcept;

/// A plugin call in progress, as read from a record.
struct RunningCall {
    std::string plugin;
    std::string call;
    std::chrono::nanoseconds running{0};

    /// "plugin 'bm25' in `score`", or "module /p/starling-x.so while loading".
    [[nodiscard]] std::string describe() const;
};

/// The call `record` shows running now, if any.
[[nodiscard]] std::optional<RunningCall> running_call(const PluginCallRecord &record);

/// Marks a call into a plugin for its duration; restores whatever was recorded before (calls do
/// not nest today, but a host callback that one day calls another plugin must not erase its caller).
class PluginCallScope {
public:
    PluginCallScope(std::string_view plugin, std::string_view call) noexcept;
    ~PluginCallScope();
    PluginCallScope(const PluginCallScope &) = delete;
    PluginCallScope &operator=(const PluginCallScope &) = delete;

private:
    char previous_plugin_[sizeof(PluginCallRecord::plugin)];
    char previous_call_[sizeof(PluginCallRecord::call)];
    std::int64_t previous_started_ns_;
};

} // namespace starling::plugins
